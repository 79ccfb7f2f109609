//! The manifest's `find` declarations evaluated: for each, `metric(param) = level` solved on its
//! bracket by [`crate::find::find`], every step the manifest's variant with the parameter set,
//! its runs read from the run cache or computed into it (serially: the same steps at any job
//! count). The result is recorded as metrics (`name`, `name.lo`, ...) and the checks evaluated
//! again so that they see it.

use crate::continuation::Continued;
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
        if let Some(c) = &f.continuation {
            let done = crate::continuation::continuation(
                |p, start: Option<&Vec<(String, f64)>>| step(cache, e, f, c, p, start),
                f.bracket,
                c.steps,
                f.level,
                f.tol,
            );
            record_continued(rep, f, done);
        } else {
            let found = solve(cache, e, f);
            record_found(rep, f, found);
        }
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

/// One run of a continuation: `f.param` = `p`, started from `start` (the carried parameters;
/// `None`: the run's own initial state). The metric and the final state (each carried
/// parameter the last value of its column).
fn step(
    cache: &RunCache,
    e: &Entry,
    f: &FindSpec,
    c: &fric_manifest::Continuation,
    p: f64,
    start: Option<&Vec<(String, f64)>>,
) -> Result<(f64, Vec<(String, f64)>), String> {
    let mut set = vec![(f.param.clone(), p)];
    set.extend(start.into_iter().flatten().cloned());
    let v = variant(e, &f.run, &set)?;
    let (data, failed, _) = fetch_serial(cache, &[&v]);
    let rep = evaluate(&v, &data, &failed);
    let at = format!("{} = {p}", f.param);
    let m = rep
        .metrics
        .get(&f.metric)
        .copied()
        .flatten()
        .ok_or_else(|| format!("`{}` at {at}: {}", f.metric, rep.errors.join("; ")))?;
    let r = v.runs.get(&f.run).ok_or_else(|| format!("no run `{}`", f.run))?;
    let d = data.get(&r.key).ok_or_else(|| {
        format!(
            "run `{}` at {at}: {}",
            f.run,
            failed.get(&r.key).map_or("no data", |x| x)
        )
    })?;
    let state = c
        .carry
        .iter()
        .map(|(param, col)| {
            let last = d.column(col).and_then(|x| x.last().copied());
            let last = last.ok_or_else(|| format!("run `{}` at {at}: no column `{col}` to carry", f.run))?;
            Ok((param.clone(), last))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((m, state))
}

/// Record a continuation's result: both onsets (or why not), the hysteresis `name` = up − down,
/// the branches and the run count.
fn record_continued(rep: &mut ExperimentReport, f: &FindSpec, done: Result<Continued, String>) {
    let name = &f.name;
    let done = match done {
        Ok(x) => x,
        Err(err) => {
            record(
                rep,
                name,
                Err(format!("continuation of `{}` over {}: {err}", f.metric, f.param)),
            );
            return;
        }
    };
    for (way, w) in [("up", &done.up), ("down", &done.down)] {
        for (i, m) in w.branch.iter().enumerate() {
            record(rep, &format!("{name}.{way}.step{i}"), Ok(*m));
        }
        let key = format!("{name}.{way}");
        match &w.onset {
            Ok(o) => {
                record(rep, &key, Ok(o.at));
                record(rep, &format!("{key}.lo"), Ok(o.lo));
                record(rep, &format!("{key}.hi"), Ok(o.hi));
                record(rep, &format!("{key}.metric_lo"), Ok(o.metric_lo));
                record(rep, &format!("{key}.metric_hi"), Ok(o.metric_hi));
            }
            Err(why) => record(rep, &key, Err(format!("continuation `{key}`: {why}"))),
        }
    }
    let width = match (&done.up.onset, &done.down.onset) {
        (Ok(u), Ok(d)) => Ok(u.at - d.at),
        _ => Err(format!("`{name}` (up − down): an onset is missing")),
    };
    record(rep, name, width);
    record(rep, &format!("{name}.evaluations"), Ok(done.evaluations as f64));
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
    let p = || f.unit.clone();
    let parts: Vec<(String, Option<String>)> = match &f.continuation {
        None => vec![
            ("".into(), p()),
            (".lo".into(), p()),
            (".hi".into(), p()),
            (".metric_lo".into(), metric_unit.clone()),
            (".metric_hi".into(), metric_unit),
        ],
        Some(c) => {
            let mut v = vec![("".into(), p())];
            for way in ["up", "down"] {
                v.push((format!(".{way}"), p()));
                v.push((format!(".{way}.lo"), p()));
                v.push((format!(".{way}.hi"), p()));
                v.push((format!(".{way}.metric_lo"), metric_unit.clone()));
                v.push((format!(".{way}.metric_hi"), metric_unit.clone()));
                v.extend((0..=c.steps).map(|i| (format!(".{way}.step{i}"), metric_unit.clone())));
            }
            v
        }
    };
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
