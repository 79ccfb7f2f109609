//! The metrics and checks of one manifest evaluated on its runs' data: a metric over a swept
//! run becomes a table of one value per member (`name[k]`), a check on it one check per member.

use crate::closure_gate::{self, Bounds};
use crate::entry::Entry;
use crate::evaluate;
use crate::evaluate::metric_kinds::ClosureBound;
use crate::run_source::RunView;
use fric_experiments::RunData;
use fric_manifest::member::MemberId;
use fric_report::ExperimentReport;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Metric `spec` on the runs it reads (its run and `other`'s), taken from `runs` for this
/// call only: a run read from the cache is released once no metric needs it.
fn metric(spec: &fric_manifest::MetricSpec, runs: &RunView, done: &BTreeMap<String, Option<f64>>) -> Measured {
    let ids = spec.run.iter().chain(spec.other.iter().map(|o| &o.run));
    let mut held: Vec<(&String, Arc<RunData>)> = Vec::new();
    for id in ids {
        if let Some(d) = runs.get(id)? {
            held.push((id, d));
        }
    }
    let map: HashMap<String, &RunData> = held.iter().map(|(id, d)| ((*id).clone(), &**d)).collect();
    evaluate::metric_kinds::evaluate_bounded(spec, &map, done)
}

/// A metric's value with its closure bound ([`ClosureBound`]), or its error.
type Measured = Result<(f64, Option<ClosureBound>), String>;

/// The ids of the runs metric `spec` reads: its run, then `other`'s.
fn reads(spec: &fric_manifest::MetricSpec) -> Vec<String> {
    spec.run
        .iter()
        .chain(spec.other.iter().map(|o| &o.run))
        .cloned()
        .collect()
}

/// The values of `e`'s metrics that read runs and no other metric (no `of`), by the name they
/// are recorded under (`name`, or `name[k]` for a member of a sweep), evaluated run by run:
/// every metric on one run (or member) after the other, so that a released run read back from
/// the cache ([`RunView`]) is read once for all of them, not once per metric (review M4:
/// metric after metric over a sweep read each member once per metric). Their values do not
/// depend on the order: only `of` reads earlier metrics.
fn by_run(e: &Entry, runs: &RunView) -> HashMap<String, Measured> {
    let mut todo: Vec<(Vec<String>, String, fric_manifest::MetricSpec)> = Vec::new();
    for mt in e.manifest.metrics.iter().filter(|m| m.of.is_none() && m.run.is_some()) {
        match swept_base(e, mt).and_then(|b| e.sweeps.get(&b)) {
            None => todo.push((reads(mt), mt.name.clone(), mt.clone())),
            Some(members) => {
                for (k, (member, _)) in members.iter().enumerate() {
                    let spec = member_spec(e, mt, member, k);
                    todo.push((reads(&spec), MemberId::new(&mt.name, k).to_string(), spec));
                }
            }
        }
    }
    // Stable: in manifest order on each run.
    todo.sort_by(|a, b| a.0.cmp(&b.0));
    let none = BTreeMap::new();
    todo.into_iter()
        .map(|(_, name, spec)| {
            let v = metric(&spec, runs, &none);
            (name, v)
        })
        .collect()
}

/// Evaluate the metrics and checks of `e` on the data of its runs into `rep`.
pub(crate) fn metrics_and_checks(e: &Entry, runs: &RunView, rep: &mut ExperimentReport) {
    let m = &e.manifest;
    let mut pre = by_run(e, runs);
    let mut bounds = Bounds::new();
    for mt in &m.metrics {
        match swept_base(e, mt).and_then(|b| e.sweeps.get(&b).map(|ms| (b, ms))) {
            None => {
                let info = metric_info(e, mt);
                if !info.is_empty() {
                    rep.metric_info.insert(mt.name.clone(), info);
                }
                let v = pre.remove(&mt.name).unwrap_or_else(|| metric(mt, runs, &rep.metrics));
                let v = closure_gate::carry(&mut bounds, &mt.name, mt, v, &rep.metrics, |done| {
                    metric(mt, runs, done)
                });
                record(rep, &mt.name, v);
            }
            // A metric over a swept run: one value per member, `name[k]`, with its coordinates.
            Some((base, members)) => {
                let mut table = fric_report::MetricTable {
                    run: base.clone(),
                    params: e
                        .manifest
                        .runs
                        .iter()
                        .find(|r| r.id == base)
                        .and_then(|r| r.sweep.as_ref())
                        .map(|s| s.params())
                        // A run taken by `from:` declares no sweep here: its members' coordinates.
                        .or_else(|| members.first().map(|(_, c)| c.iter().map(|(p, _)| p.clone()).collect()))
                        .unwrap_or_default(),
                    unit: mt.unit.clone().filter(|u| !u.is_empty()),
                    members: Vec::new(),
                };
                for (k, (member, coords)) in members.iter().enumerate() {
                    let spec = member_spec(e, mt, member, k);
                    let name = MemberId::new(&mt.name, k).to_string();
                    let mut info = metric_info(e, &spec);
                    info.sweep = Some(coords_text(coords));
                    rep.metric_info.insert(name.clone(), info);
                    let v = pre.remove(&name).unwrap_or_else(|| metric(&spec, runs, &rep.metrics));
                    let v = closure_gate::carry(&mut bounds, &name, &spec, v, &rep.metrics, |done| {
                        metric(&spec, runs, done)
                    });
                    record(rep, &name, v);
                    table.members.push(fric_report::MetricMember {
                        run: member.clone(),
                        coords: coords.iter().cloned().collect(),
                        value: rep.metrics.get(&name).copied().flatten(),
                    });
                }
                rep.metric_tables.insert(mt.name.clone(), table);
            }
        }
    }
    if closure_gate::gate(e, rep, &bounds) {
        // A metric refused by the gate has no value: the metrics that read it are evaluated again
        // (they say so, as for any operand without a value).
        for (name, spec) in derived(e) {
            if rep.metrics.get(&name).copied().flatten().is_some() {
                let v = metric(&spec, runs, &rep.metrics).map(|(v, _)| v);
                if v.is_err() {
                    record(rep, &name, v);
                }
            }
        }
        for t in rep.metric_tables.iter_mut() {
            for (k, mm) in t.1.members.iter_mut().enumerate() {
                mm.value = rep.metrics.get(&MemberId::new(t.0, k).to_string()).copied().flatten();
            }
        }
    }
    checks(e, rep);
}

/// The metrics of `e` that read earlier metrics (`of`), each member of a metric table apart, by
/// the name they are recorded under, in manifest order.
fn derived(e: &Entry) -> Vec<(String, fric_manifest::MetricSpec)> {
    let mut out = Vec::new();
    for mt in e.manifest.metrics.iter().filter(|m| m.of.is_some()) {
        match swept_base(e, mt).and_then(|b| e.sweeps.get(&b)) {
            None => out.push((mt.name.clone(), mt.clone())),
            Some(members) => {
                for (k, (member, _)) in members.iter().enumerate() {
                    out.push((MemberId::new(&mt.name, k).to_string(), member_spec(e, mt, member, k)));
                }
            }
        }
    }
    out
}

/// Evaluate the checks of `e` on the metrics in `rep` (again, once a find has added its own).
pub(crate) fn checks(e: &Entry, rep: &mut ExperimentReport) {
    rep.checks = Vec::new();
    for c in &e.manifest.checks {
        // A check on a metric table applies to every member: one check row per member.
        match rep.metric_tables.get(&c.metric) {
            Some(t) => {
                for k in 0..t.members.len() {
                    let spec = fric_manifest::CheckSpec {
                        metric: MemberId::new(&c.metric, k).to_string(),
                        ..c.clone()
                    };
                    rep.checks.push(evaluate::check(&spec, &rep.metrics));
                }
            }
            None => rep.checks.push(evaluate::check(c, &rep.metrics)),
        }
    }
}

/// Record a metric's value (or its error). A value that is not finite (a maximum over a window
/// of NaNs is −inf, a ratio over zero is inf or NaN) was not computed: it is an error, and every
/// check on it an error, never a pass.
pub(crate) fn record(rep: &mut ExperimentReport, name: &str, v: Result<f64, String>) {
    let v = v.and_then(|v| {
        if v.is_finite() {
            Ok(v)
        } else {
            Err(format!(
                "not computed: the value is {v} (no finite sample in its window, or an operand is 0 or not finite)"
            ))
        }
    });
    match v {
        Ok(v) => {
            rep.metrics.insert(name.to_string(), Some(v));
        }
        Err(err) => {
            rep.metrics.insert(name.to_string(), None);
            rep.errors.push(format!("metric `{name}`: {err}"));
        }
    }
}

/// Sweep coordinates as text: `input.omega=2`, `sigma1=10,input.omega=2`.
fn coords_text(c: &fric_manifest::Coords) -> String {
    let parts: Vec<String> = c.iter().map(|(p, v)| format!("{p}={v}")).collect();
    parts.join(",")
}

/// The swept run a metric is evaluated over, member by member: its own run when that is a
/// swept id, or for a metric of two earlier metrics, the swept run of either.
pub(crate) fn swept_base(e: &Entry, mt: &fric_manifest::MetricSpec) -> Option<String> {
    if let Some(r) = &mt.run {
        return e.sweeps.contains_key(r).then(|| r.clone());
    }
    let of = mt.of.as_ref()?;
    let by_name = |n: &str| e.manifest.metrics.iter().find(|x| x.name == n);
    of.names()
        .into_iter()
        .find_map(|n| by_name(n).filter(|x| x.name != mt.name).and_then(|x| swept_base(e, x)))
}

/// Member `k`'s version of a metric over a swept run: its run (and `other`'s, when that is
/// the same swept run) is the member, and operands that are metric tables read their member.
fn member_spec(e: &Entry, mt: &fric_manifest::MetricSpec, member: &str, k: usize) -> fric_manifest::MetricSpec {
    let mut spec = mt.clone();
    if let Some(r) = &mt.run {
        let base = r.clone();
        spec.run = Some(member.to_string());
        if let Some(o) = spec.other.as_mut().filter(|o| o.run == base) {
            o.run = member.to_string();
        }
    }
    if let Some(of) = spec.of.as_mut() {
        for n in of.names_mut() {
            let swept = e
                .manifest
                .metrics
                .iter()
                .find(|x| x.name == *n)
                .and_then(|x| swept_base(e, x));
            if swept.is_some() {
                *n = MemberId::new(n, k).to_string();
            }
        }
    }
    spec
}

/// The sweep coordinates of run `run` of a manifest (`input.omega=2`), if it is a sweep member.
fn coordinate(e: &Entry, run: &str) -> Option<String> {
    let base = MemberId::parse(run)?.base;
    let coords = &e.sweeps.get(base)?.iter().find(|(id, _)| id == run)?.1;
    Some(coords_text(coords))
}

/// Unit, sweep coordinates and baseline tolerance of a metric, for the report.
fn metric_info(e: &Entry, mt: &fric_manifest::MetricSpec) -> fric_report::MetricInfo {
    let at = mt.run.as_deref().and_then(|r| coordinate(e, r));
    let other = mt.other.as_ref().and_then(|o| coordinate(e, &o.run));
    fric_report::MetricInfo {
        unit: mt.unit.clone().filter(|u| !u.is_empty()),
        sweep: match (at, other) {
            (Some(a), Some(b)) if a != b => Some(format!("{a} vs {b}")),
            (a, b) => a.or(b),
        },
        baseline_tol: mt
            .baseline_tol
            .map(|t| fric_report::Tolerance { abs: t.abs, rel: t.rel }),
    }
}

/// A declared scale against the magnitude it names (code review M4): whether the two disagree
/// by more than [`fric_manifest::SCALE_FACTOR`] either way (or nothing was measured).
pub(crate) fn scale_mismatch(declared: f64, measured: f64) -> bool {
    let f = fric_manifest::SCALE_FACTOR;
    !(measured.is_finite() && measured > 0.0 && declared <= f * measured && measured <= f * declared)
}

/// Check every declared `scale` of `e` against the largest |value| of the column its
/// `scale_of` names: a scale off it by more than [`fric_manifest::SCALE_FACTOR`] is an error of
/// the manifest at the scale's line, and the checks on that metric are errors, not passes.
pub(crate) fn verify_scales(root: &std::path::Path, e: &Entry, runs: &RunView, rep: &mut ExperimentReport) {
    use fric_manifest::ScaleOf;
    let mut text = None;
    for (i, c) in e.manifest.checks.iter().enumerate() {
        let (Some(s), Some(ScaleOf::Column(col))) = (c.scale, c.scale_of.as_ref()) else {
            continue;
        };
        let measured = match runs.get(&col.run) {
            Ok(Some(d)) => match d.column(&col.y) {
                Some(v) => Ok(v.iter().fold(0.0_f64, |m, x| m.max(x.abs()))),
                None => Err(format!("run `{}` has no column `{}`", col.run, col.y)),
            },
            Ok(None) => Err(format!("run `{}` has no data", col.run)),
            Err(err) => Err(err),
        };
        let problem = match measured {
            Ok(m) if !scale_mismatch(s, m) => continue,
            Ok(m) => format!(
                "declared `scale: {s}` is off the largest |{}| of run `{}`, {m:.3e}, by more than ×{} either way",
                col.y,
                col.run,
                fric_manifest::SCALE_FACTOR
            ),
            Err(err) => format!("`scale: {s}` cannot be checked: {err}"),
        };
        let text = text.get_or_insert_with(|| {
            crate::readfile::read_to_string(&root.join(&e.file), crate::readfile::MANIFEST).unwrap_or_default()
        });
        let (line, _) = fric_manifest::Locator::new(text).find(&["checks".into(), i.into(), "scale".into()]);
        rep.errors.push(format!(
            "{}:{line}: check on `{}`: {problem} (scale_of)",
            e.file, c.metric
        ));
        let member = format!("{}[", c.metric);
        for r in rep
            .checks
            .iter_mut()
            .filter(|r| r.metric == c.metric || r.metric.starts_with(&member))
        {
            r.outcome = fric_report::Outcome::Error;
            r.pass = false;
        }
    }
}
