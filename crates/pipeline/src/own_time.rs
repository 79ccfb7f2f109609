//! The time a task took itself, without the tasks that ran nested inside it on its thread: wall
//! seconds and the thread's CPU seconds.

use std::cell::RefCell;
use std::time::Instant;

/// Seconds a task spent: wall-clock and CPU time of its thread (user + system). On a loaded
/// machine wall time grows with the other processes' share of the cores; CPU time much less.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    pub wall: f64,
    pub cpu: f64,
}

impl std::ops::Add for Spent {
    type Output = Spent;
    fn add(self, o: Spent) -> Spent {
        Spent {
            wall: self.wall + o.wall,
            cpu: self.cpu + o.cpu,
        }
    }
}

impl std::ops::AddAssign for Spent {
    fn add_assign(&mut self, o: Spent) {
        *self = *self + o;
    }
}

impl std::ops::Sub for Spent {
    type Output = Spent;
    /// Never negative (clock granularity).
    fn sub(self, o: Spent) -> Spent {
        Spent {
            wall: (self.wall - o.wall).max(0.0),
            cpu: (self.cpu - o.cpu).max(0.0),
        }
    }
}

/// CPU seconds this thread has used so far (`CLOCK_THREAD_CPUTIME_ID`); 0 where unavailable.
pub fn thread_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    0.0
}

thread_local! {
    /// Per task running on this thread (innermost last): the time of the tasks that ran and
    /// finished nested inside it.
    static NESTED: RefCell<Vec<Spent>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` and return its result with the seconds it took itself: its wall time minus that of the
/// tasks timed by `own_time` that ran nested inside it on the same thread. A rayon task that waits
/// on nested parallel work (a sweep inside a run) runs other pending tasks meanwhile, on the same
/// thread; without the subtraction their time was counted in both (with `--jobs 1` one LuGre run
/// was listed at 278 s of a 555 s pipeline run).
pub fn own_time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let (out, spent) = own_spent(f);
    (out, spent.wall)
}

/// Run `f` as a timed task whose seconds are not wanted: the tasks timed inside it add their
/// time to it, and its whole time (not only theirs) is subtracted from the task it runs nested
/// in. For work a thread may run inside another task (work stealing) that is not that task's.
pub fn as_task<T>(f: impl FnOnce() -> T) -> T {
    own_spent(f).0
}

/// As [`own_time`], with the thread's CPU seconds beside the wall seconds (the nested tasks'
/// CPU time subtracted likewise: they ran on this thread).
pub fn own_spent<T>(f: impl FnOnce() -> T) -> (T, Spent) {
    /// Pops this task's entry even when `f` unwinds.
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            NESTED.with(|s| s.borrow_mut().pop());
        }
    }
    NESTED.with(|s| s.borrow_mut().push(Spent::default()));
    let pop = Pop;
    let (t0, c0) = (Instant::now(), thread_cpu_seconds());
    let out = f();
    let total = Spent {
        wall: t0.elapsed().as_secs_f64(),
        cpu: thread_cpu_seconds() - c0,
    };
    let nested = NESTED.with(|s| s.borrow().last().copied().unwrap_or_default());
    drop(pop);
    NESTED.with(|s| {
        if let Some(parent) = s.borrow_mut().last_mut() {
            *parent += total;
        }
    });
    (out, total - nested)
}

#[cfg(test)]
mod tests {
    use super::own_time;

    /// A task's own time excludes exactly the wall time of the tasks nested in it on its thread
    /// (derived: own(outer) = total(outer) − total(inner) − total(inner₂)).
    #[test]
    fn own_time_subtracts_nested_tasks() {
        let spin = |ms: u64| std::thread::sleep(std::time::Duration::from_millis(ms));
        let t0 = std::time::Instant::now();
        let ((a, b), outer) = own_time(|| {
            spin(5);
            let a = own_time(|| {
                let ((), deep) = own_time(|| spin(5));
                spin(5);
                deep
            });
            let b = own_time(|| spin(5));
            (a, b)
        });
        let total = t0.elapsed().as_secs_f64();
        let ((deep, inner_a), (_, inner_b)) = (a, b);
        // Each own time holds its own 5 ms sleep; the outer one excludes the 15 ms nested in it.
        assert!(deep >= 0.005 && inner_a >= 0.005 && inner_b >= 0.005 && outer >= 0.005);
        assert!(outer <= total - 0.015, "{outer} vs {total}");
        // The four own times partition the outer task's wall time, which lies inside `total`.
        let sum = outer + inner_a + inner_b + deep;
        assert!(sum <= total, "{sum} vs {total}");
        // A panic inside a timed task leaves no entry behind: a later task is timed alone.
        let _ = std::panic::catch_unwind(|| own_time(|| panic!("x")));
        let ((), alone) = own_time(|| spin(1));
        assert!(alone >= 0.001);
        super::NESTED.with(|s| assert!(s.borrow().is_empty()));
    }

    /// CPU time counts work, not waiting, and a nested task's CPU time is not its parent's
    /// (derived: a sleep uses no CPU; a loop that spins until this thread's CPU clock advanced
    /// 20 ms used at least 20 ms of CPU, however loaded the machine: a loop of fixed wall time,
    /// as before, could get almost no CPU under load). Only where the thread CPU clock exists
    /// (unix): elsewhere the clock reads 0 and the spin would never end (code review L14).
    #[cfg(unix)]
    #[test]
    fn own_spent_counts_cpu_apart_from_nested_tasks() {
        const CPU: f64 = 0.020;
        let limit = std::time::Duration::from_secs(20);
        let busy = || {
            let (t0, c0) = (std::time::Instant::now(), super::thread_cpu_seconds());
            let mut x = 0u64;
            while super::thread_cpu_seconds() - c0 < CPU {
                assert!(t0.elapsed() < limit, "no 20 ms of CPU in {limit:?} of wall time");
                x = std::hint::black_box(x.wrapping_add(1));
            }
        };
        let (inner, outer) = super::own_spent(|| {
            std::thread::sleep(std::time::Duration::from_millis(30));
            super::own_spent(busy).1
        });
        assert!(inner.cpu >= CPU && inner.cpu <= inner.wall + 0.002, "{inner:?}");
        assert!(outer.wall >= 0.03, "{outer:?}");
        // The outer task only slept (and timed the inner one): its own CPU time is far below.
        assert!(outer.cpu < 0.5 * inner.cpu, "{outer:?} vs {inner:?}");
    }

    /// Without a thread CPU clock (off unix) CPU seconds read 0, as documented, and a task's CPU
    /// time is 0 however long it worked: never a wall time passed off as CPU time.
    #[cfg(not(unix))]
    #[test]
    fn without_a_thread_clock_cpu_time_reads_zero() {
        assert_eq!(super::thread_cpu_seconds(), 0.0);
        let ((), s) = super::own_spent(|| std::thread::sleep(std::time::Duration::from_millis(5)));
        assert!(s.wall >= 0.005 && s.cpu == 0.0, "{s:?}");
    }
}
