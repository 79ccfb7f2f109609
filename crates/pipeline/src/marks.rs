//! The series that draw a `find`'s or a `fit`'s result from the computed values: a find's
//! located point (or the two sides of its jump), a fit's target points, and the fit's run at the
//! fitted parameters (the fitted curve, read from the run cache: the fit's last evaluation
//! computed it).

use crate::entry::Entry;
use crate::overrides::variant;
use crate::store::RunCache;
use fric_experiments::RunData;
use fric_manifest::SeriesSpec;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The fitted runs of a manifest by [`fitted_key`]: each run a series draws at a fit's result.
pub(crate) type FittedRuns = HashMap<String, Arc<RunData>>;

/// The key of run `run` at the result of fit `fit`.
fn fitted_key(fit: &str, run: &str) -> String {
    format!("{fit}\u{1f}{run}")
}

fn metric(metrics: &BTreeMap<String, Option<f64>>, name: &str, what: &str) -> Result<f64, String> {
    metrics
        .get(name)
        .copied()
        .flatten()
        .ok_or_else(|| format!("{what}: `{name}` has no value"))
}

/// The x and y columns of a series' points.
type Points = (Vec<f64>, Vec<f64>);

/// The points of a series drawing a find's or a fit's targets (x, y), or `None` for any other
/// series (a fitted curve is a run series: [`fitted_data`]).
pub(crate) fn points(
    entry: &Entry,
    metrics: &BTreeMap<String, Option<f64>>,
    s: &SeriesSpec,
) -> Result<Option<Points>, String> {
    let m = &entry.manifest;
    if let Some(name) = &s.find {
        if let Some(pts) = continuation_points(entry, metrics, name)? {
            return Ok(Some(pts));
        }
        let f = m
            .find
            .iter()
            .find(|f| &f.name == name)
            .ok_or_else(|| format!("no find `{name}`"))?;
        let what = format!("find `{name}`");
        // A root: the located point on the level. None (the metric jumps across the level):
        // the two sides of the jump, each at the metric's value there.
        if let Some(Some(root)) = metrics.get(name) {
            return Ok(Some((vec![*root], vec![f.level])));
        }
        let part = |p: &str| metric(metrics, &format!("{name}.{p}"), &what);
        let (lo, hi) = (part("lo")?, part("hi")?);
        let (mlo, mhi) = (part("metric_lo")?, part("metric_hi")?);
        return Ok(Some((vec![lo, hi], vec![mlo, mhi])));
    }
    match (&s.fit, s.run.is_empty()) {
        (Some(name), true) => {
            let f = m
                .fit
                .iter()
                .find(|f| &f.name == name)
                .ok_or_else(|| format!("no fit `{name}`"))?;
            let pts = f.targets.iter().flat_map(|t| t.points.iter());
            Ok(Some(pts.map(|p| (p[0], p[1])).unzip()))
        }
        _ => Ok(None),
    }
}

/// The points of a series drawing a continuation find: `name`, both onsets on the level;
/// `name.up` / `name.down`, the branch (the grid against the metric there, and the two runs
/// that end the onset's bisection, so the drop is drawn at the onset). `None` when `name` is not
/// a continuation's.
fn continuation_points(
    entry: &Entry,
    metrics: &BTreeMap<String, Option<f64>>,
    name: &str,
) -> Result<Option<Points>, String> {
    let finds = &entry.manifest.find;
    let of = |n: &str| finds.iter().find(|f| f.name == n && f.continuation.is_some());
    if let Some(f) = of(name) {
        let what = format!("find `{name}`");
        let up = metric(metrics, &format!("{name}.up"), &what);
        let down = metric(metrics, &format!("{name}.down"), &what);
        if let (Err(a), Err(b)) = (&up, &down) {
            return Err(format!("{a}; {b}"));
        }
        let xs: Vec<f64> = [up, down].into_iter().filter_map(Result::ok).collect();
        let ys = vec![f.level; xs.len()];
        return Ok(Some((xs, ys)));
    }
    let way = name
        .rsplit_once('.')
        .filter(|(b, w)| ["up", "down"].contains(w) && of(b).is_some());
    let Some((base, w)) = way else { return Ok(None) };
    let f = of(base).expect("checked");
    let steps = f.continuation.as_ref().expect("checked").steps;
    let grid = crate::continuation::grid(f.bracket, steps);
    let what = format!("find `{name}`");
    let ys = (0..=steps)
        .map(|i| metric(metrics, &format!("{base}.{w}.step{i}"), &what))
        .collect::<Result<Vec<_>, String>>()?;
    // The two ends of the onset's final bracket (runs of the bisection, within the find's
    // tolerance of each other), so that the drawn drop lies at the onset and not on a chord one
    // grid step wide (followup Fig 7, s56 review); none when the way has no onset.
    let mut pts: Vec<(f64, f64)> = grid.into_iter().zip(ys).collect();
    let end = |k: &str| metrics.get(&format!("{base}.{w}.{k}")).copied().flatten();
    if let (Some(lo), Some(hi), Some(mlo), Some(mhi)) = (end("lo"), end("hi"), end("metric_lo"), end("metric_hi")) {
        for (p, m) in [(lo, mlo), (hi, mhi)] {
            if !pts.iter().any(|q| q.0 == p) {
                pts.push((p, m));
            }
        }
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    Ok(Some(pts.into_iter().unzip()))
}

/// The data of run `run` at fit `fit`'s result, from [`fitted_runs`].
pub(crate) fn fitted_data(fitted: &FittedRuns, fit: &str, run: &str) -> Result<Arc<RunData>, String> {
    fitted
        .get(&fitted_key(fit, run))
        .cloned()
        .ok_or_else(|| format!("run `{run}` at fit `{fit}`'s result has no data"))
}

/// Every run a series of `e` draws at a fit's result (`{fit, run}`): the run with the fit's
/// parameters set to their fitted values (`metrics`), read from `cache` (or computed into it),
/// its `post` columns added.
pub(crate) fn fitted_runs(
    cache: &RunCache,
    e: &Entry,
    metrics: &BTreeMap<String, Option<f64>>,
) -> Result<FittedRuns, String> {
    let mut out = FittedRuns::new();
    let wanted = e
        .manifest
        .panels
        .iter()
        .flat_map(|p| &p.series)
        .filter_map(|s| s.fit.as_ref().filter(|_| !s.run.is_empty()).map(|f| (f, &s.run)));
    for (name, run) in wanted {
        let key = fitted_key(name, run);
        if out.contains_key(&key) {
            continue;
        }
        let f = e
            .manifest
            .fit
            .iter()
            .find(|f| &f.name == name)
            .ok_or_else(|| format!("no fit `{name}`"))?;
        let what = format!("fit `{name}`");
        let set = f
            .params
            .iter()
            .map(|q| Ok((q.param.clone(), metric(metrics, &format!("{name}.{}", q.param), &what)?)))
            .collect::<Result<Vec<_>, String>>()?;
        let v = variant(e, run, &set)?;
        let r = v.runs.get(run).ok_or_else(|| format!("no run `{run}`"))?;
        let d = crate::sensitivity::fetch::fetch_one(cache, r)
            .map_err(|err| format!("run `{run}` at {what}'s result: {err}"))?;
        let d = if r.post.is_empty() {
            d
        } else {
            crate::evaluate::post_process(&d, &r.post)?
        };
        out.insert(key, Arc::new(d));
    }
    Ok(out)
}
