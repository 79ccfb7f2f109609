//! Where a pipeline run spent its time, per manifest: the runs it computed (its own and those of
//! its alternative readings) and its evaluation (metrics, checks, the runs its explanations
//! computed, drawing). `cargo xtask figures --timings` prints the slowest.

use crate::entry::Loaded;
use crate::sensitivity;
use crate::summary::Summary;

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
