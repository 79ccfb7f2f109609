//! The time a task took itself, without the tasks that ran nested inside it on its thread.

use std::cell::RefCell;
use std::time::Instant;

thread_local! {
    /// Per task running on this thread (innermost last): the wall time of the tasks that ran and
    /// finished nested inside it.
    static NESTED: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` and return its result with the seconds it took itself: its wall time minus that of the
/// tasks timed by `own_time` that ran nested inside it on the same thread. A rayon task that waits
/// on nested parallel work (a sweep inside a run) runs other pending tasks meanwhile, on the same
/// thread; without the subtraction their time was counted in both (with `--jobs 1` one LuGre run
/// was listed at 278 s of a 555 s pipeline run).
pub fn own_time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    /// Pops this task's entry even when `f` unwinds.
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            NESTED.with(|s| s.borrow_mut().pop());
        }
    }
    NESTED.with(|s| s.borrow_mut().push(0.0));
    let pop = Pop;
    let t0 = Instant::now();
    let out = f();
    let total = t0.elapsed().as_secs_f64();
    let nested = NESTED.with(|s| s.borrow().last().copied().unwrap_or(0.0));
    drop(pop);
    NESTED.with(|s| {
        if let Some(parent) = s.borrow_mut().last_mut() {
            *parent += total;
        }
    });
    (out, (total - nested).max(0.0))
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
}
