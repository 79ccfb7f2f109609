//! The run phase of a pipeline run: every run the evaluated manifests and their alternative
//! readings need, from the cache or computed into it, costliest first, with the explanations'
//! root-finding chains started beside them.

use crate::compute::{checked, compute_run};
use crate::entry::{Entry, ResolvedRun};
use crate::options::{Options, Progress};
use crate::schedule::costliest_first;
use crate::sensitivity::{self, Planned, StepMemo};
use crate::store::{Lookup, Probe, RunCache};
use crate::summary::Summary;
use crate::{companions, own_time, plan};
use fric_experiments::RunData;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// The data of the runs by key, and the errors of those that failed.
pub(crate) struct Computed {
    pub data: HashMap<String, Arc<RunData>>,
    pub failed: HashMap<String, String>,
    /// The released runs found in the cache (checksum verified, not decoded) and whether they
    /// are the manifests' own (else only alternative readings use them): [`check_unread`].
    pub released_hits: Vec<(String, bool)>,
}

/// How one run was obtained: its data, unless it was released (in the cache, to be read again
/// when needed).
enum Got {
    Cached(Option<RunData>),
    Computed(Option<RunData>, Option<String>, own_time::Spent),
    Failed(String),
}

/// The distinct runs of the manifests `todo` and of their companion figures (keys in the
/// second set: a companion's runs choose a figure's units, [`companions::runs_with_companions`])
/// and of their `readings`.
pub(crate) fn unique_runs<'a>(
    todo: &[&'a Entry],
    readings: &'a [Vec<Planned>],
) -> (BTreeMap<&'a str, &'a ResolvedRun>, BTreeSet<&'a str>) {
    let mut unique: BTreeMap<&str, &ResolvedRun> = BTreeMap::new();
    for e in todo {
        for r in companions::runs_with_companions(e) {
            unique.insert(&r.key, r);
        }
    }
    let own_keys: BTreeSet<&str> = unique.keys().copied().collect();
    for v in readings.iter().flatten().filter_map(|(_, v)| v.as_ref()) {
        for r in v.runs.values() {
            unique.insert(&r.key, r);
        }
    }
    (unique, own_keys)
}

/// One run from the cache (unless `force`), or computed into it; with `release`, its data are
/// dropped once it is in the cache (a run the cache could not store is kept: nothing computed is
/// lost).
fn get_run(opts: &Options, cache: &RunCache, r: &ResolvedRun, release: bool) -> Got {
    // A run still holding a placeholder ([`ResolvedRun::runnable`]) is refused where it is
    // computed or read ([`crate::compute`]), as every other caller's is.
    let (key, req) = (r.key.as_str(), &r.request);
    let mut recovered = None;
    // Released, a cached run is only verified here (its checksum, without decoding it): the
    // evaluation reads it when it needs it, checked then ([`crate::run_source`]).
    if release && !opts.force {
        match cache.probe(key, req) {
            Probe::Hit => return Got::Cached(None),
            Probe::Corrupt(why) => recovered = Some(why),
            Probe::Miss => {}
        }
    } else if !opts.force {
        match cache.get(key, req) {
            Lookup::Hit(d) => {
                return match checked(r, d) {
                    Ok(d) => Got::Cached(Some(d)),
                    Err(e) => Got::Failed(e),
                }
            }
            Lookup::Corrupt(why) => recovered = Some(why),
            Lookup::Miss => {}
        }
    }
    // A cache that cannot be written (full, read-only) does not lose the run: its data are
    // kept for evaluation and drawing, and the failure is recorded for one warning.
    let (done, secs) = own_time::own_spent(|| {
        compute_run(r).map(|d| {
            let stored = cache.keep(key, req, &d);
            (!(release && stored)).then_some(d)
        })
    });
    let got = match done {
        Ok(d) => Got::Computed(d, recovered, secs),
        Err(e) => Got::Failed(e),
    };
    opts.tell(Progress::Step {
        what: req.system.clone(),
    });
    got
}

/// Run the explanation chain of manifest `id` (`warm`): its elapsed wall seconds, parallel
/// scans included (the chains are serial, so this is what a manifest's explanations add to the
/// critical path), or the message of its panic. The chain is a task of its own for
/// [`own_time`]: the runs timed inside it add their time to it, not to a run this thread
/// may be running the chain inside (work stealing), which subtracts the chain as a whole.
fn timed_chain(id: &str, warm: impl FnOnce()) -> (String, Result<f64, String>) {
    let t0 = std::time::Instant::now();
    let done = crate::isolate::isolated("its explanation chain", || {
        own_time::as_task(warm);
        Ok(())
    });
    (id.to_string(), done.map(|()| t0.elapsed().as_secs_f64()))
}

/// Record the chains' seconds in `summary`, and a chain that panicked as a warning naming its
/// manifest (its checks' explanations are then computed, or fail, in the evaluation).
fn note_chains(summary: &mut Summary, chains: Vec<(String, Result<f64, String>)>) {
    for (id, done) in chains {
        match done {
            Ok(secs) => {
                summary.explain_seconds.insert(id, secs);
            }
            Err(why) => summary.chains_panicked.push((id, why)),
        }
    }
}

/// Compute (or read) every run of the manifests `todo` and of their alternative `readings` in
/// `pool`, the explanations' chains of `todo` beside them (filling `steps`), and count them in
/// `summary`: one batch of a pipeline run ([`crate::batches`]), so the counts add to those of
/// the batches before (the runs of current manifests are counted as cached by the caller; the
/// runs only alternative readings use are counted apart, never in `runs_total`). With
/// `release` (a batch over the per-process limit), the runs' data are not held: each is
/// dropped once it is in the cache, the evaluation reads it again ([`crate::run_source`]).
pub(crate) fn compute_all(
    opts: &Options,
    pool: &rayon::ThreadPool,
    todo: &[&Entry],
    readings: &[Vec<Planned>],
    steps: &StepMemo,
    summary: &mut Summary,
    release: bool,
) -> Result<Computed, String> {
    let (unique, own_keys) = unique_runs(todo, readings);
    let cache = opts.run_cache();
    // The explanations' root-finding chains start beside the runs (their steps are serial),
    // the costliest first (by the runs they vary): the chain of thesis Fig 3.9 (a DRBM run per
    // step) was the last of nine and ended 50 s after every run, alone on one core.
    let explaining: Vec<&Entry> = todo
        .iter()
        .copied()
        .filter(|e| e.manifest.checks.iter().any(|c| !c.explain.is_empty()))
        .collect();
    // The runs longest first ([`plan::cost`]; ties in key order).
    let order: Vec<(&str, &ResolvedRun)> = unique.iter().map(|(k, r)| (*k, *r)).collect();
    let compute_runs = || -> Vec<(&str, Got)> {
        costliest_first(
            &order,
            |&(_, r)| plan::cost(&r.request),
            |&(key, r)| (key, get_run(opts, &cache, r, release)),
        )
    };
    // The explanations' chains on a thread of their own, outside the pool: a chain waiting
    // inside the pool (its scans are parallel) would take up runs from the list, down to the last
    // one, and resume only when the list is empty (measured: the chains ended 90 s after the
    // runs, the whole check 258 s; on their own thread, 228 s). They share the cores with the
    // runs. With one worker thread (`jobs: Some(1)`) nothing runs beside the runs: the chains
    // follow them in the pool. Errors are left for the evaluation to report; a chain that
    // panics is a warning of the summary naming its manifest ([`note_chains`]).
    let chains = || {
        costliest_first(
            &explaining,
            |e| sensitivity::explain_cost(e),
            |e| timed_chain(&e.manifest.id, || sensitivity::warm_explanations(&cache, steps, e)),
        )
    };
    let (results, explained) = if explaining.is_empty() || pool.current_num_threads() == 1 {
        let results = pool.install(compute_runs);
        (results, pool.install(chains))
    } else {
        // As many threads as the runs' pool: while the runs go on, the cores are shared by
        // both pools (the work is the same, the chains only advance sooner); once they are done,
        // the chains' scans and the chains themselves run side by side instead of on one core.
        let explain_pool = rayon::ThreadPoolBuilder::new()
            .num_threads(pool.current_num_threads())
            .build()
            .map_err(|e| e.to_string())?;
        std::thread::scope(|s| {
            let chains = s.spawn(|| explain_pool.install(chains));
            let results = pool.install(compute_runs);
            // Each chain catches its own panic ([`timed_chain`]): the join cannot fail.
            (results, chains.join().unwrap_or_default())
        })
    };
    note_chains(summary, explained);
    summary.note_unwritable(&cache);
    let mut data: HashMap<String, Arc<RunData>> = HashMap::new();
    let mut failed: HashMap<String, String> = HashMap::new();
    let mut released_hits = Vec::new();
    for (key, got) in results {
        // A run only alternative readings use is counted apart: whether it is needed depends
        // on which manifests are evaluated this time.
        let own = own_keys.contains(key);
        match got {
            Got::Cached(d) => {
                *if own {
                    &mut summary.runs_cached
                } else {
                    &mut summary.reading_runs_cached
                } += 1;
                match d {
                    Some(d) => {
                        data.insert(key.to_string(), Arc::new(d));
                    }
                    None => released_hits.push((key.to_string(), own)),
                }
            }
            Got::Computed(d, recovered, secs) => {
                *if own {
                    &mut summary.runs_computed
                } else {
                    &mut summary.reading_runs_computed
                } += 1;
                if let Some(r) = unique.get(key) {
                    summary
                        .run_seconds
                        .insert(key.to_string(), (r.request.system.clone(), secs));
                }
                if let Some(why) = recovered {
                    summary.runs_recovered.push((key.to_string(), why));
                }
                if let Some(d) = d {
                    data.insert(key.to_string(), Arc::new(d));
                }
            }
            Got::Failed(e) => {
                let list = if own {
                    &mut summary.runs_failed
                } else {
                    &mut summary.readings_failed
                };
                list.push((key.to_string(), e.clone()));
                failed.insert(key.to_string(), e);
            }
        }
    }
    Ok(Computed {
        data,
        failed,
        released_hits,
    })
}

/// The released cached runs of a batch that its evaluation never read (code review L11: no
/// metric, drawn series or reading used them) checked once evaluated, as a held cached run is
/// when found ([`get_run`]): read alone, one after the other, and their invariants checked. One
/// that fails is a failed run, not a cached one, as it would be held. Returns how many were
/// checked, and the manifests' own runs that failed with their errors (by key), which
/// [`crate::evaluate_all::fail_unread`] puts in those manifests' error lists.
pub(crate) fn check_unread(
    lazy: &crate::run_source::Lazy,
    computed: &Computed,
    unique: &BTreeMap<&str, &ResolvedRun>,
    summary: &mut Summary,
) -> (usize, HashMap<String, String>) {
    let mut n = 0;
    let mut own_failed = HashMap::new();
    for (key, own) in computed.released_hits.iter().filter(|(k, _)| !lazy.was_read(k)) {
        let Some(r) = unique.get(key.as_str()) else { continue };
        n += 1;
        if let Err(e) = lazy.check_unread(r) {
            let (cached, list) = if *own {
                (&mut summary.runs_cached, &mut summary.runs_failed)
            } else {
                (&mut summary.reading_runs_cached, &mut summary.readings_failed)
            };
            *cached -= 1;
            if *own {
                own_failed.insert(key.clone(), e.clone());
            }
            list.push((key.clone(), e));
        }
    }
    (n, own_failed)
}

#[cfg(test)]
mod tests {
    use super::{note_chains, timed_chain};
    use crate::summary::Summary;

    /// A chain that panics is a warning naming its manifest, beside the seconds of the chains
    /// that ended; before, one panic lost every chain's seconds and said nothing.
    #[test]
    fn a_panicking_chain_is_noted_with_its_manifest() {
        let ok = timed_chain("thesis/fig9.1", || {
            std::thread::sleep(std::time::Duration::from_millis(2))
        });
        let bad = timed_chain("thesis/fig9.2", || panic!("no bracket"));
        let mut s = Summary::default();
        note_chains(&mut s, vec![ok, bad]);
        assert!(s.explain_seconds["thesis/fig9.1"] >= 0.002, "{:?}", s.explain_seconds);
        assert!(!s.explain_seconds.contains_key("thesis/fig9.2"));
        assert_eq!(
            s.chains_panicked,
            vec![(
                "thesis/fig9.2".to_string(),
                "its explanation chain panicked: no bracket".to_string()
            )]
        );
    }
}
