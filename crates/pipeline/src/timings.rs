//! Where a pipeline run spent its time, per manifest: the runs it computed (its own and those of
//! its alternative readings) and its evaluation (metrics, checks, the runs its explanations
//! computed, drawing). `cargo xtask figures --timings` prints the slowest.

use crate::load::Loaded;
use crate::{sensitivity, Summary};
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

/// One manifest's share of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestTime {
    pub id: String,
    /// Seconds computing the runs it uses (a run shared by several manifests counts in each).
    pub runs: f64,
    /// How many of its runs were computed this time.
    pub computed: usize,
    /// The slowest of them: `(system, seconds)`.
    pub slowest_run: Option<(String, f64)>,
    /// Seconds evaluating it (explanations included).
    pub evaluate: f64,
}

impl ManifestTime {
    pub fn total(&self) -> f64 {
        self.runs + self.evaluate
    }
}

/// Every manifest that took time in `s`, slowest first.
pub fn per_manifest(s: &Summary, loaded: &Loaded) -> Vec<ManifestTime> {
    let mut out: Vec<ManifestTime> = loaded
        .entries
        .iter()
        .map(|e| {
            let mut keys: Vec<&str> = e.runs.values().map(|r| r.key.as_str()).collect();
            let variants = sensitivity::readings(e);
            keys.extend(
                variants
                    .iter()
                    .filter_map(|(_, v)| v.as_ref())
                    .flat_map(|v| v.runs.values().map(|r| r.key.as_str()))
                    .collect::<Vec<_>>(),
            );
            keys.sort_unstable();
            keys.dedup();
            let mut t = ManifestTime {
                id: e.manifest.id.clone(),
                runs: 0.0,
                computed: 0,
                slowest_run: None,
                evaluate: s.evaluate_seconds.get(&e.manifest.id).copied().unwrap_or(0.0),
            };
            for (system, secs) in keys.iter().filter_map(|k| s.run_seconds.get(*k)) {
                t.runs += secs;
                t.computed += 1;
                if t.slowest_run.as_ref().is_none_or(|(_, w)| secs > w) {
                    t.slowest_run = Some((system.clone(), *secs));
                }
            }
            t
        })
        .filter(|t| t.total() > 0.0)
        .collect();
    out.sort_by(|a, b| b.total().total_cmp(&a.total()).then_with(|| a.id.cmp(&b.id)));
    out
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
