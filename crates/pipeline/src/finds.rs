//! The manifest's `find` declarations evaluated: for each, `metric(param) = level` solved on its
//! bracket by [`crate::find::find`], every step the manifest's variant with the parameter set,
//! its runs read from the run cache or computed into it (serially: the same steps at any job
//! count). The result is recorded as metrics (`name`, `name.lo`, ...) and the checks evaluated
//! again so that they see it.

use crate::entry::Entry;
use crate::find::{find, Found};
use crate::metric_tables::{checks, record};
use crate::overrides::variant;
use crate::sensitivity::fetch::{evaluate, fetch_serial};
use crate::store::RunCache;
use fric_manifest::FindSpec;
use fric_report::ExperimentReport;

/// Evaluate every find of `e` into `rep` (its metrics, its errors) and re-evaluate the checks.
pub(crate) fn evaluate_finds(cache: &RunCache, e: &Entry, rep: &mut ExperimentReport) {
    if e.manifest.find.is_empty() {
        return;
    }
    for f in &e.manifest.find {
        let found = solve(cache, e, f);
        record_found(rep, f, found);
        units(rep, e, f);
    }
    checks(e, rep);
}

/// The metric `f.metric` of the manifest with `f.param` of run `f.run` set to `p`.
fn metric_at(cache: &RunCache, e: &Entry, f: &FindSpec, p: f64) -> Result<f64, String> {
    let v = variant(e, &f.run, &[(f.param.clone(), p)])?;
    let (data, failed, _) = fetch_serial(cache, &[&v]);
    let rep = evaluate(&v, &data, &failed);
    match rep.metrics.get(&f.metric).copied().flatten() {
        Some(m) => Ok(m),
        None => Err(format!(
            "`{}` at {} = {p}: {}",
            f.metric,
            f.param,
            rep.errors.join("; ")
        )),
    }
}

/// The search of one find.
fn solve(cache: &RunCache, e: &Entry, f: &FindSpec) -> Result<Found, String> {
    find(|p| metric_at(cache, e, f, p), f.bracket, f.level, f.tol)
}

/// Record a find's result: its root (or why none), its bracket and the metric at its ends.
fn record_found(rep: &mut ExperimentReport, f: &FindSpec, found: Result<Found, String>) {
    let name = &f.name;
    let found = match found {
        Ok(x) => x,
        Err(err) => {
            record(rep, name, Err(format!("find `{}` = {}: {err}", f.metric, f.level)));
            return;
        }
    };
    let root = found.root.ok_or_else(|| {
        format!(
            "no {} reaches {} = {}: it jumps from {} at {} = {} to {} at {}",
            f.param, f.metric, f.level, found.metric_lo, f.param, found.lo, found.metric_hi, found.hi
        )
    });
    record(rep, name, root);
    record(rep, &format!("{name}.lo"), Ok(found.lo));
    record(rep, &format!("{name}.hi"), Ok(found.hi));
    record(rep, &format!("{name}.metric_lo"), Ok(found.metric_lo));
    record(rep, &format!("{name}.metric_hi"), Ok(found.metric_hi));
    record(rep, &format!("{name}.evaluations"), Ok(found.evaluations as f64));
}

/// The units of a find's metrics: the parameter's (`unit:`) for the value and the bracket, the
/// sought metric's for the metric at the bracket's ends.
fn units(rep: &mut ExperimentReport, e: &Entry, f: &FindSpec) {
    let metric_unit = e
        .manifest
        .metrics
        .iter()
        .find(|m| m.name == f.metric)
        .and_then(|m| m.unit.clone());
    let parts = [
        ("", f.unit.clone()),
        (".lo", f.unit.clone()),
        (".hi", f.unit.clone()),
        (".metric_lo", metric_unit.clone()),
        (".metric_hi", metric_unit),
    ];
    for (suffix, unit) in parts {
        if let Some(unit) = unit.filter(|u| !u.is_empty()) {
            let info = fric_report::MetricInfo {
                unit: Some(unit),
                ..Default::default()
            };
            rep.metric_info.insert(format!("{}{suffix}", f.name), info);
        }
    }
}
