//! A manifest's entry in the report before evaluation (its registry fields and resolved runs),
//! and the data of its runs as its metrics see them.

use crate::entry::Entry;
use crate::evaluate;
use fric_experiments::RunData;
use fric_report::ExperimentReport;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The kebab-case name of a manifest enum value.
pub(crate) fn manifest_name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

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
        kind: manifest_name(&m.kind),
        content: manifest_name(&m.content),
        status: m.status.as_str().to_string(),
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
    f: impl FnOnce(&HashMap<String, &RunData>, &mut ExperimentReport) -> R,
) -> Option<R> {
    // Runs with post-processing get their own copy with the derived columns.
    let mut derived: HashMap<String, RunData> = HashMap::new();
    for (id, r) in &e.runs {
        if let (false, Some(d)) = (r.post.is_empty(), data.get(&r.key)) {
            match evaluate::post_process(d, &r.post) {
                Ok(p) => {
                    derived.insert(id.clone(), p);
                }
                Err(err) => rep.errors.push(format!("run `{id}` post-processing: {err}")),
            }
        }
    }
    let mut runs: HashMap<String, &RunData> = HashMap::new();
    for (id, r) in &e.runs {
        match derived.get(id).or_else(|| data.get(&r.key).map(|d| &**d)) {
            Some(d) => {
                runs.insert(id.clone(), d);
            }
            None => rep.errors.push(format!(
                "run `{id}` failed: {}",
                failed.get(&r.key).map(String::as_str).unwrap_or("not computed")
            )),
        }
    }
    if !rep.errors.is_empty() {
        rep.checks = unevaluated(&e.manifest, "a run of this manifest failed");
        return None;
    }
    Some(f(&runs, rep))
}
