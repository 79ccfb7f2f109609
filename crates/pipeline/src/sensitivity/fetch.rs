//! The runs of manifests and their variants fetched for the sensitivity study and the
//! explanations: from the cache, or computed into it; and a manifest's checks evaluated on them.

use crate::compute::{checked, compute_and_store};
use crate::entry::{Entry, ResolvedRun};
use crate::entry_report::{registry_report, with_runs};
use crate::metric_tables::metrics_and_checks;
use crate::options::Options;
use crate::run_source::Source;
use crate::store::{Lookup, RunCache};
use fric_experiments::RunData;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Run data by key, errors by key, and how many runs were computed.
pub(super) type Fetched = (HashMap<String, Arc<RunData>>, HashMap<String, String>, usize);

/// The distinct runs of `entries`, by key.
fn unique_runs<'a>(entries: &[&'a Entry]) -> BTreeMap<&'a str, &'a ResolvedRun> {
    entries
        .iter()
        .flat_map(|e| e.runs.values())
        .map(|r| (r.key.as_str(), r))
        .collect()
}

/// One run from the cache (its invariants checked, [`checked`]), or computed into it; `true` when
/// it was computed.
fn get_or_compute(cache: &RunCache, r: &ResolvedRun) -> (Result<RunData, String>, bool) {
    match cache.get(&r.key, &r.request) {
        Lookup::Hit(d) => (checked(r, d), false),
        _ => (compute_and_store(cache, r), true),
    }
}

/// One run's data from the cache, or computed into it (a figure's fitted curve, an export).
pub(crate) fn fetch_one(cache: &RunCache, r: &ResolvedRun) -> Result<RunData, String> {
    get_or_compute(cache, r).0
}

/// Sort fetched runs into data and failures, and count the computed ones.
fn gather(got: Vec<(&str, Result<RunData, String>, bool)>) -> Fetched {
    let (mut data, mut failed, mut computed) = (HashMap::new(), HashMap::new(), 0);
    for (key, r, fresh) in got {
        computed += fresh as usize;
        match r {
            Ok(d) => {
                data.insert(key.to_string(), Arc::new(d));
            }
            Err(e) => {
                failed.insert(key.to_string(), e);
            }
        }
    }
    (data, failed, computed)
}

/// The data of every run of `entries`, from the cache or computed into it (in parallel), and the
/// runs that failed: `(data by key, error by key, how many were computed)`.
pub(super) fn fetch(opts: &Options, entries: &[&Entry]) -> Result<Fetched, String> {
    let unique = unique_runs(entries);
    let cache = opts.run_cache();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let got = pool.install(|| {
        unique
            .par_iter()
            .map(|(key, run)| {
                let (r, fresh) = get_or_compute(&cache, run);
                (*key, r, fresh)
            })
            .collect()
    });
    Ok(gather(got))
}

/// The metrics and checks of `e` evaluated on `data` (problems in the report's `errors`).
pub(crate) fn evaluate(
    e: &Entry,
    data: &HashMap<String, Arc<RunData>>,
    failed: &HashMap<String, String>,
) -> fric_report::ExperimentReport {
    evaluate_in(e, &Source::held(data, failed))
}

/// [`evaluate`] on the runs of `src`, held or read from the cache when needed.
pub(crate) fn evaluate_in(e: &Entry, src: &Source) -> fric_report::ExperimentReport {
    let mut rep = registry_report(e);
    with_runs(e, src, &mut rep, |runs, rep| metrics_and_checks(e, runs, rep));
    rep
}

/// The data of `entries`' runs fetched one by one (inside a pipeline worker): from the cache,
/// or computed into it. `(data, failed, computed)`.
pub(crate) fn fetch_serial(cache: &RunCache, entries: &[&Entry]) -> Fetched {
    let got = unique_runs(entries)
        .into_iter()
        .map(|(key, run)| {
            let (r, fresh) = get_or_compute(cache, run);
            (key, r, fresh)
        })
        .collect();
    gather(got)
}
