//! Where a pipeline run spent its time, per manifest: the runs it computed (its own and those of
//! its alternative readings), its explanation chain, its evaluation (metrics, checks, the
//! explanation runs the chain had not computed) and its drawing, each in wall and CPU seconds.
//! `cargo xtask figures --timings` prints the slowest.

use crate::entry::Loaded;
use crate::own_time::Spent;
use crate::sensitivity;
use crate::summary::Summary;

/// One manifest's share of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestTime {
    pub id: String,
    /// Computing the runs it uses (a run shared by several manifests counts in each).
    pub runs: Spent,
    /// How many of its runs were computed this time.
    pub computed: usize,
    /// The slowest of them: `(system, time)`.
    pub slowest_run: Option<(String, Spent)>,
    /// Elapsed wall seconds of its explanation chain beside the runs (parallel scans included).
    pub explain: f64,
    /// Evaluating it (metrics, checks, explanations not computed by the chain).
    pub evaluate: Spent,
    /// Drawing its figure.
    pub draw: Spent,
}

impl ManifestTime {
    /// Wall seconds: runs, explanation chain, evaluation and drawing.
    pub fn total(&self) -> f64 {
        self.runs.wall + self.explain + self.evaluate.wall + self.draw.wall
    }

    /// CPU seconds of its runs, evaluation and drawing (the chain's scans run on other
    /// threads and are not included).
    pub fn cpu(&self) -> f64 {
        self.runs.cpu + self.evaluate.cpu + self.draw.cpu
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
            let id = &e.manifest.id;
            let mut t = ManifestTime {
                id: id.clone(),
                runs: Spent::default(),
                computed: 0,
                slowest_run: None,
                explain: s.explain_seconds.get(id).copied().unwrap_or(0.0),
                evaluate: s.evaluate_seconds.get(id).copied().unwrap_or_default(),
                draw: s.draw_seconds.get(id).copied().unwrap_or_default(),
            };
            for (system, secs) in keys.iter().filter_map(|k| s.run_seconds.get(*k)) {
                t.runs += *secs;
                t.computed += 1;
                if t.slowest_run.as_ref().is_none_or(|(_, w)| secs.wall > w.wall) {
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
