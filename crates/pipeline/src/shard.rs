//! Work for other processes: a plan file lists the runs a pipeline run would compute (not
//! cached), and [`compute`] computes one deterministic, cost-balanced share of it into the run
//! cache and nothing else. Any number of shards may run at once, on any machines, against one
//! cache directory: entries are written by atomic rename and verified on read (checksum, key,
//! request), so a shard that dies leaves nothing a later run trusts. A `figures` run afterwards
//! finds everything cached and only evaluates and draws.

use crate::compute::compute_run;
use crate::fingerprint::RUNS_FINGERPRINT;
use crate::load;
use crate::options::Options;
use crate::plan::{self, PlannedRun};
use crate::selection::select;
use crate::store::Probe;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The format tag of a plan file.
pub const FORMAT: &str = "fric-plan-v1";

/// A plan file: the runs to compute, with what the shards need to check it is still current.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanFile {
    pub format: String,
    /// The fingerprint of the computing code; a shard built from other code refuses the plan
    /// (its cache keys would differ).
    pub runs_fingerprint: String,
    /// The `--only` patterns the plan was made with.
    pub only: Vec<String>,
    /// Total estimated cost of the runs ([`plan::cost`]).
    pub total_cost: f64,
    /// The runs, sorted by key.
    pub runs: Vec<PlanRun>,
}

/// One run of a plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRun {
    pub key: String,
    pub system: String,
    /// Estimated cost ([`plan::cost`]).
    pub cost: f64,
    /// `<manifest id>#<run id>` of every selected manifest that uses it.
    pub used_by: Vec<String>,
}

impl PlanFile {
    /// The plan of the runs a pipeline run with `opts` would compute.
    pub fn new(opts: &Options) -> Result<(PlanFile, plan::Plan), String> {
        let p = plan::plan(opts)?;
        let mut runs: Vec<PlanRun> = p.to_compute.iter().map(PlanRun::from).collect();
        runs.sort_by(|a, b| a.key.cmp(&b.key));
        // Folded from +0 (an empty `sum` of floats is −0, shown as "-0.000e0").
        let total_cost = runs.iter().fold(0.0, |a, r| a + r.cost);
        let file = PlanFile {
            format: FORMAT.into(),
            runs_fingerprint: RUNS_FINGERPRINT.into(),
            only: opts.only.clone(),
            total_cost,
            runs,
        };
        Ok((file, p))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a plan serialises") + "\n"
    }

    /// Read a plan file's text; `what` names it in errors.
    pub fn parse(text: &str, what: &str) -> Result<PlanFile, String> {
        let p: PlanFile = serde_json::from_str(text).map_err(|e| format!("{what}: not a plan file: {e}"))?;
        if p.format != FORMAT {
            return Err(format!("{what}: format `{}`, this build reads `{FORMAT}`", p.format));
        }
        if p.runs_fingerprint != RUNS_FINGERPRINT {
            return Err(format!(
                "{what}: made by a build with other computing code (runs fingerprint {}…, this build {}…); \
                 make a new plan with this build",
                short(&p.runs_fingerprint),
                short(RUNS_FINGERPRINT)
            ));
        }
        let mut keys = std::collections::HashSet::new();
        if let Some(twice) = p.runs.iter().find(|r| !keys.insert(r.key.as_str())) {
            return Err(format!(
                "{what}: run {}… is listed twice (a plan lists each run once); make a new plan",
                short(&twice.key)
            ));
        }
        Ok(p)
    }
}

fn short(s: &str) -> &str {
    &s[..s.len().min(12)]
}

impl From<&PlannedRun> for PlanRun {
    fn from(r: &PlannedRun) -> Self {
        PlanRun {
            key: r.key.clone(),
            system: r.system.clone(),
            cost: r.cost,
            used_by: r.used_by.clone(),
        }
    }
}

/// The shard (0-based) of every run of `runs` among `n` shards: longest processing time first
/// (runs by decreasing cost, ties by key), each to the least loaded shard (ties: the lowest
/// index). Deterministic, so every shard computes the same assignment from the same plan; the
/// largest shard is at most 4/3 of the optimum plus one run.
pub fn assign(runs: &[PlanRun], n: usize) -> Vec<usize> {
    let n = n.max(1);
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|&a, &b| {
        runs[b]
            .cost
            .total_cmp(&runs[a].cost)
            .then_with(|| runs[a].key.cmp(&runs[b].key))
    });
    let mut load = vec![0.0f64; n];
    let mut out = vec![0; runs.len()];
    for i in order {
        let (s, _) = load
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1).then(a.0.cmp(&b.0)))
            .expect("n ≥ 1");
        load[s] += runs[i].cost.max(0.0);
        out[i] = s;
    }
    out
}

/// Parse `I/N` (shard I of N, 1-based as Slurm's array indices are written: `1/4` … `4/4`).
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}`: expected I/N with 1 ≤ I ≤ N, e.g. 1/4");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// What one shard did.
#[derive(Debug, Default)]
pub struct ShardSummary {
    /// Runs of the plan assigned to this shard.
    pub assigned: usize,
    /// Their estimated cost.
    pub cost: f64,
    pub computed: usize,
    /// Already in the cache (computed by an earlier attempt or another process).
    pub cached: usize,
    /// Entries that failed verification and were recomputed: `(key, why)`.
    pub recovered: Vec<(String, String)>,
    /// `(key, error)`.
    pub failed: Vec<(String, String)>,
    /// The manifest files outside the plan's `--only` that were neither read nor recorded.
    pub left_out: Vec<String>,
}

/// Compute shard `i` of `n` (1-based) of `plan` into the run cache of `opts`; nothing else is
/// written (no stamps, figures or reports). The requests come from this workspace's manifests:
/// a run of the plan that they no longer define is an error (the plan is stale).
pub fn compute(opts: &Options, plan: &PlanFile, i: usize, n: usize) -> Result<ShardSummary, String> {
    let shards = assign(&plan.runs, n);
    let mine: Vec<&PlanRun> = plan
        .runs
        .iter()
        .zip(&shards)
        .filter(|(_, &s)| s + 1 == i)
        .map(|(r, _)| r)
        .collect();
    // The plan's own selection: only its manifests and what they reference are read (as the
    // `--only` run that made it), and its runs are theirs.
    let sel = crate::selection::selector(&plan.only)?;
    let mut loaded = load::load_selected(&opts.root, sel.as_ref());
    crate::fitted_params::resolve(&opts.root, &opts.run_cache(), &mut loaded);
    let all = select(&loaded, sel.as_ref());
    let mut requests = HashMap::new();
    for e in &all.built {
        for r in e.runs.values() {
            requests.insert(r.key.as_str(), r);
        }
    }
    let missing: Vec<String> = mine
        .iter()
        .filter(|r| !requests.contains_key(r.key.as_str()))
        .map(|r| format!("{} ({})", short(&r.key), r.used_by.join(", ")))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the plan is stale: the manifests no longer define {} of its runs: {}; make a new plan",
            missing.len(),
            missing.join("; ")
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let cache = opts.run_cache();
    enum Did {
        Cached,
        Computed(Option<String>),
        Failed(String),
    }
    let did: Vec<(&str, Did)> = pool.install(|| {
        mine.par_iter()
            .map(|r| {
                let run = requests[r.key.as_str()];
                // A run still holding a placeholder is not even looked up.
                let req = match run.runnable() {
                    Ok(req) => req,
                    Err(e) => return (r.key.as_str(), Did::Failed(e)),
                };
                let mut recovered = None;
                if !opts.force {
                    match cache.probe(&r.key, req) {
                        Probe::Hit => return (r.key.as_str(), Did::Cached),
                        Probe::Corrupt(why) => recovered = Some(why),
                        Probe::Miss => {}
                    }
                }
                // Storing is a shard's whole output: a failed write fails the run.
                let stored =
                    compute_run(run).and_then(|d| cache.put(&r.key, req, &d).map_err(|e| format!("cache write: {e}")));
                let d = match stored {
                    Ok(()) => Did::Computed(recovered),
                    Err(e) => Did::Failed(e),
                };
                (r.key.as_str(), d)
            })
            .collect()
    });
    let mut s = ShardSummary {
        assigned: mine.len(),
        cost: mine.iter().fold(0.0, |a, r| a + r.cost),
        left_out: loaded.left_out.clone(),
        ..Default::default()
    };
    for (key, d) in did {
        match d {
            Did::Cached => s.cached += 1,
            Did::Computed(rec) => {
                s.computed += 1;
                if let Some(why) = rec {
                    s.recovered.push((key.into(), why));
                }
            }
            Did::Failed(e) => s.failed.push((key.into(), e)),
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(key: &str, cost: f64) -> PlanRun {
        PlanRun {
            key: key.into(),
            system: "x".into(),
            cost,
            used_by: vec![],
        }
    }

    #[test]
    fn assignment_is_deterministic_balanced_and_complete() {
        let runs: Vec<PlanRun> = (0..50)
            .map(|k| run(&format!("{k:02}"), ((k * 37) % 11 + 1) as f64))
            .collect();
        for n in [1, 2, 3, 7, 50, 80] {
            let a = assign(&runs, n);
            assert_eq!(a, assign(&runs, n));
            assert!(a.iter().all(|&s| s < n));
            let mut load = vec![0.0; n];
            for (r, &s) in runs.iter().zip(&a) {
                load[s] += r.cost;
            }
            let total: f64 = runs.iter().map(|r| r.cost).sum();
            let max = load.iter().cloned().fold(0.0, f64::max);
            let biggest = runs.iter().map(|r| r.cost).fold(0.0, f64::max);
            // LPT: the largest shard exceeds the mean by at most one run.
            assert!(
                max <= total / n as f64 + biggest,
                "n = {n}: {max} vs {}",
                total / n as f64
            );
        }
        // The order of the runs in the file does not matter.
        let mut rev = runs.clone();
        rev.reverse();
        let (a, b) = (assign(&runs, 4), assign(&rev, 4));
        for (k, r) in runs.iter().enumerate() {
            let j = rev.iter().position(|x| x.key == r.key).unwrap();
            assert_eq!(a[k], b[j]);
        }
    }

    #[test]
    fn shard_syntax() {
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert_eq!(parse_shard("4/4"), Ok((4, 4)));
        for bad in ["0/4", "5/4", "1/0", "a/b", "1", "1/4/2", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
