//! A manifest's entry in the report before evaluation (its registry fields and resolved runs),
//! and the data of its runs as its metrics see them.

use crate::entry::Entry;
use crate::evaluate;
use crate::run_source::{self, RunView, Source};
use fric_experiments::RunData;
use fric_report::ExperimentReport;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The resolved runs of a manifest, for the report.
fn run_infos(e: &Entry) -> BTreeMap<String, fric_report::RunInfo> {
    let coords: HashMap<&str, &fric_manifest::Coords> =
        e.sweeps.values().flatten().map(|(id, c)| (id.as_str(), c)).collect();
    e.runs
        .iter()
        .map(|(id, r)| {
            let params = r
                .request
                .params
                .iter()
                .map(|(k, v)| {
                    let v = match v.as_slice() {
                        [x] => serde_json::json!(x),
                        xs => serde_json::json!(xs),
                    };
                    (k.clone(), v)
                })
                .collect();
            let info = fric_report::RunInfo {
                system: r.request.system.clone(),
                params,
                input: serde_json::to_value(&r.request.input).unwrap_or_default(),
                sweep: coords
                    .get(id.as_str())
                    .map(|c| c.iter().cloned().collect())
                    .unwrap_or_default(),
                work: BTreeMap::new(),
            };
            (id.clone(), info)
        })
        .collect()
}

pub(crate) fn registry_report(e: &Entry) -> ExperimentReport {
    let m = &e.manifest;
    ExperimentReport {
        runs: run_infos(e),
        id: m.id.clone(),
        kind: m.kind.into(),
        content: m.content.name().to_string(),
        status: m.status.name().to_string(),
        reason: m.reason.clone(),
        caption: m.source.caption.clone(),
        ..Default::default()
    }
}

/// Check reports for checks that could not be evaluated (a run failed): each is an error.
pub(crate) fn unevaluated(m: &fric_manifest::Manifest, why: &str) -> Vec<fric_report::CheckReport> {
    let none = BTreeMap::new();
    m.checks
        .iter()
        .map(|c| {
            let mut r = evaluate::check(c, &none);
            r.note = Some(format!("not evaluated: {why}"));
            r
        })
        .collect()
}

/// Call `f` with the data of every run of `e` by id (a copy with the derived columns for a run
/// with post-processing), or record why it cannot be: a run failed or its post-processing did
/// (then every check is unevaluated and `None` is returned).
pub(crate) fn with_run_data<R>(
    e: &Entry,
    data: &HashMap<String, Arc<RunData>>,
    failed: &HashMap<String, String>,
    rep: &mut ExperimentReport,
    f: impl FnOnce(&RunView, &mut ExperimentReport) -> R,
) -> Option<R> {
    with_runs(e, &Source::held(data, failed), rep, f)
}

/// [`with_run_data`] with the runs of `src`, held or read from the cache when needed.
pub(crate) fn with_runs<R>(
    e: &Entry,
    src: &Source,
    rep: &mut ExperimentReport,
    f: impl FnOnce(&RunView, &mut ExperimentReport) -> R,
) -> Option<R> {
    let (runs, errors) = run_source::view(e, src);
    rep.errors.extend(errors);
    if !rep.errors.is_empty() {
        rep.checks = unevaluated(&e.manifest, "a run of this manifest failed");
        return None;
    }
    // From the held data or a released run's metadata: never a read back of its data, which
    // would undo the one read per use of a released run (review M4).
    for (id, info) in rep.runs.iter_mut() {
        if let Some(i) = runs.info(id) {
            info.work = work(&i);
        }
    }
    Some(f(&runs, rep))
}

/// The event counters the systems put in a run's info (grep `_events"` in
/// crates/experiments/src): an explicit list, so a setting whose name merely ends in `events`
/// (a `max_events`, say) is never reported as work.
const EVENT_COUNTS: [&str; 5] = [
    "cell_events",
    "forward_events",
    "lattice_events",
    "state_events",
    "window_events",
];

/// The integration work among a run's info values ([`fric_report::RunInfo::work`]): accepted
/// steps (`steps`), rejected ones (`rejected` or `steps_rejected`, as the systems name them),
/// the event counts the systems report ([`EVENT_COUNTS`]) and a DF run's `period_maps`.
fn work(info: &BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    let mut w = BTreeMap::new();
    for (k, &v) in info {
        let name = match k.as_str() {
            "steps" => "steps_accepted",
            "rejected" | "steps_rejected" => "steps_rejected",
            "period_maps" => "period_maps",
            k if EVENT_COUNTS.contains(&k) => k,
            _ => continue,
        };
        w.insert(name.to_string(), v);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_step_and_event_counts_are_its_work_under_one_name_each() {
        let info: BTreeMap<String, f64> = [
            ("steps", 291.0),
            ("rejected", 7.0),
            ("window_events", 41.0),
            ("period_maps", 12.0),
            ("stuck_fraction", 0.5),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let w = work(&info);
        let want: BTreeMap<String, f64> = [
            ("steps_accepted", 291.0),
            ("steps_rejected", 7.0),
            ("window_events", 41.0),
            ("period_maps", 12.0),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(w, want);
        // A DF run names its rejected steps `steps_rejected`.
        let df: BTreeMap<String, f64> = [("steps_rejected".to_string(), 3.0)].into_iter().collect();
        assert_eq!(work(&df)["steps_rejected"], 3.0);
        // A key that only ends in "events" is not an event count.
        let limit: BTreeMap<String, f64> = [("max_events".to_string(), 1e6)].into_iter().collect();
        assert!(work(&limit).is_empty());
    }
}
