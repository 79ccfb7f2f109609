//! The manifest's `fit` declarations evaluated: for each, its run's parameters fitted to its
//! targets by [`crate::lsq::fit`], every evaluation the manifest's variant with the parameters
//! set, its runs read from the run cache or computed into it (serially: the same steps at any job
//! count); a `samples` target's points are read from its run first. The results are recorded as metrics (`name.<param>`, `name.residual`, ...) and the
//! checks evaluated again so that they see them.

use crate::entry::Entry;
use crate::lsq::{fit, Fitted, Problem};
use crate::metric_tables::{checks, record};
use crate::overrides::variant;
use crate::profile::profile;
use crate::sensitivity::fetch::{evaluate, fetch_serial};
use crate::store::RunCache;
use fric_manifest::{Branch, FitSpec, FitTarget, NamedWindow, Window};
use fric_report::{ExperimentReport, MetricInfo};

/// Defaults of a fit's settings (see [`FitSpec`]).
pub const DEFAULT_TOL: f64 = 1e-8;
pub const DEFAULT_MAX_EVALUATIONS: usize = 200;
/// The default forward-difference step as a fraction of the bounds' width.
pub const DEFAULT_STEP: f64 = 1e-6;
/// The default points per parameter of the rule for a non-smooth cost (`scan`).
pub const DEFAULT_SCAN: usize = 21;

/// Evaluate every fit of `e` into `rep` (its metrics, its errors) and re-evaluate the checks.
pub(crate) fn evaluate_fits(cache: &RunCache, e: &Entry, rep: &mut ExperimentReport) {
    if e.manifest.fit.is_empty() {
        return;
    }
    for f in &e.manifest.fit {
        match fitted(cache, e, f) {
            Ok((f, x)) => {
                for (name, v) in profiles(cache, e, &f, &x) {
                    record(rep, &name, v);
                }
                record_fitted(rep, e, &f, Ok(x));
            }
            Err(err) => record_fitted(rep, e, f, Err(err)),
        }
    }
    checks(e, rep);
}

/// Fit `f` of `e`: the spec with its `samples` targets' points read, and what the fit found.
pub(crate) fn fitted(cache: &RunCache, e: &Entry, f: &FitSpec) -> Result<(FitSpec, Fitted), String> {
    let f = with_samples(cache, e, f)?;
    let x = fit(|p| residuals(cache, e, &f, p), &problem(&f))?;
    Ok((f, x))
}

/// The profiles of fit `f` (found `x`): per parameter with a standard error, per multiple `k`
/// of `f.profile`, the ratios `(cost − ĉ)/(k² s²)` at `p̂ − k·sd` and `p̂ + k·sd`, or why there
/// are none.
fn profiles(cache: &RunCache, e: &Entry, f: &FitSpec, x: &Fitted) -> Vec<(String, Result<f64, String>)> {
    let mut out = Vec::new();
    let pr = problem(f);
    let mut res = |p: &[f64]| residuals(cache, e, f, p);
    for (j, q) in f.params.iter().enumerate() {
        let key = format!("{}.{}.profile", f.name, q.param);
        let ks: Vec<f64> = f.profile.iter().flat_map(|&k| [-f64::from(k), f64::from(k)]).collect();
        let got = match standard_error(f, x, j) {
            Some(Ok(sd)) => profile(&mut res, &pr, x, j, sd, &ks),
            Some(Err(why)) => Err(why),
            None => Err("no standard error (no more residuals than parameters)".into()),
        };
        for (i, k) in ks.iter().enumerate() {
            let name = format!("{key}.{}{}", if *k < 0.0 { "lo" } else { "hi" }, k.abs());
            let v = match &got {
                Ok(points) => Ok(points[i].ratio),
                Err(why) => Err(format!("fit `{}`: the profile of {}: {why}", f.name, q.param)),
            };
            out.push((name, v));
        }
    }
    out
}

/// The standard error of parameter `j` of fit `f` (`None` with no more residuals than
/// parameters), or why there is none.
pub(crate) fn standard_error(f: &FitSpec, x: &Fitted, j: usize) -> Option<Result<f64, String>> {
    if x.residuals.len() <= f.params.len() {
        return None;
    }
    Some(match &x.covariance {
        _ if x.on_bound[j] => Err(format!(
            "fit `{}`: {} ended on a bound ({}): s²(JᵀJ)⁻¹ is no uncertainty there",
            f.name, f.params[j].param, x.params[j]
        )),
        Ok(c) => Ok(c[j][j].max(0.0).sqrt()),
        Err(why) => Err(why.clone()),
    })
}

/// `f` with each `samples` target's points read from its run (from `cache`, or computed into
/// it; its `post` columns added): every sample `(x, y)`, in order.
fn with_samples(cache: &RunCache, e: &Entry, f: &FitSpec) -> Result<FitSpec, String> {
    let mut f = f.clone();
    for t in &mut f.targets {
        let Some(s) = &t.samples else { continue };
        let r = e.runs.get(&s.run).ok_or_else(|| format!("no run `{}`", s.run))?;
        let d = crate::sensitivity::fetch::fetch_one(cache, r)
            .map_err(|err| format!("the samples of run `{}`: {err}", s.run))?;
        let d = if r.post.is_empty() {
            d
        } else {
            crate::evaluate::post_process(&d, &r.post)?
        };
        let col = |c: &str| {
            d.column(c)
                .map(<[f64]>::to_vec)
                .ok_or_else(|| format!("run `{}` has no column `{c}`", s.run))
        };
        let (x, y) = (col(&s.x)?, col(&s.y)?);
        if let Some(k) = (0..x.len()).find(|&k| !(x[k].is_finite() && y[k].is_finite())) {
            return Err(format!(
                "sample {k} of run `{}` is ({}, {}): a fit needs finite values",
                s.run, x[k], y[k]
            ));
        }
        t.points = x.into_iter().zip(y).map(|(x, y)| [x, y]).collect();
    }
    Ok(f)
}

/// The fit's settings, defaults filled in.
fn problem(f: &FitSpec) -> Problem {
    Problem {
        start: f.params.iter().map(|p| p.start).collect(),
        lower: f.params.iter().map(|p| p.bounds[0]).collect(),
        upper: f.params.iter().map(|p| p.bounds[1]).collect(),
        step: f
            .params
            .iter()
            .map(|p| p.step.unwrap_or(DEFAULT_STEP * (p.bounds[1] - p.bounds[0])))
            .collect(),
        tol: f.tol.unwrap_or(DEFAULT_TOL),
        max_evaluations: f.max_evaluations.unwrap_or(DEFAULT_MAX_EVALUATIONS),
        scan: f.scan.unwrap_or(DEFAULT_SCAN),
    }
}

/// The name of the copy of target `t`'s metric evaluated at its point `i`.
fn point_metric(t: usize, i: usize) -> String {
    format!("\u{1f}fit{t}.{i}")
}

/// The metrics the targets read, computed on the manifest with `f.params` set to `p`: one
/// value per target, or one per point (the metric copied with `at` set to the point's abscissa).
fn computed(cache: &RunCache, e: &Entry, f: &FitSpec, p: &[f64]) -> Result<Vec<Vec<f64>>, String> {
    let set: Vec<(String, f64)> = f.params.iter().zip(p).map(|(q, &v)| (q.param.clone(), v)).collect();
    // A parameter shared by several runs is set in each of them.
    let mut v = e.clone();
    for run in f.run.ids() {
        v = variant(&v, run, &set)?;
    }
    for (t, target) in f.targets.iter().enumerate().filter(|(_, t)| t.manifest.is_none()) {
        let spec = v.manifest.metrics.iter().find(|m| m.name == target.metric).cloned();
        let spec = spec.ok_or_else(|| format!("no metric `{}`", target.metric))?;
        let branches = loop_branches(target);
        for (i, [at, _]) in target.points.iter().enumerate() {
            let mut copy = spec.clone();
            copy.name = point_metric(t, i);
            copy.at = Some(*at);
            // A loop's row is read on its branch, over the last period unless the metric names
            // a window.
            if let Some(b) = branches.get(i) {
                copy.branch = *b;
                copy.window.get_or_insert(Window::Named(NamedWindow::LastPeriod));
            }
            v.manifest.metrics.push(copy);
        }
    }
    // The other manifests the targets name, each with the parameters set in its runs taken
    // from a fitted run; fetched with this one, so a run they share is computed once.
    let mut others: Vec<Entry> = Vec::new();
    for id in f.targets.iter().filter_map(|t| t.manifest.as_deref()) {
        if others.iter().all(|o| o.manifest.id != id) {
            others.push(other_variant(e, f, id, &set)?);
        }
    }
    let all: Vec<&Entry> = std::iter::once(&v).chain(&others).collect();
    let (data, failed, _) = fetch_serial(cache, &all);
    let rep = evaluate(&v, &data, &failed);
    let reps: Vec<_> = others.iter().map(|o| evaluate(o, &data, &failed)).collect();
    let at: Vec<String> = set.iter().map(|(k, x)| format!("{k} = {x}")).collect();
    let get_in = |rep: &ExperimentReport, name: &str, shown: &str| {
        rep.metrics
            .get(name)
            .copied()
            .flatten()
            .ok_or_else(|| format!("`{shown}` at {}: {}", at.join(", "), rep.errors.join("; ")))
    };
    let get = |name: &str, shown: &str| get_in(&rep, name, shown);
    let mut out = Vec::new();
    for (t, target) in f.targets.iter().enumerate() {
        if let Some(id) = target.manifest.as_deref() {
            let k = others.iter().position(|o| o.manifest.id == id).expect("fetched above");
            out.push(vec![get_in(
                &reps[k],
                &target.metric,
                &format!("{id}: {}", target.metric),
            )?]);
            continue;
        }
        if target.points.is_empty() {
            out.push(vec![get(&target.metric, &target.metric)?]);
            continue;
        }
        let branches = loop_branches(target);
        let vals = (0..target.points.len())
            .map(|i| {
                let x = target.points[i][0];
                let shown = match (&target.csv, branches.get(i).copied().flatten()) {
                    (Some(c), Some(b)) => {
                        let line = c.lines.get(i).map_or(String::new(), |n| format!(":{n}"));
                        format!("{}{line}: {} at {x} on the {} branch", c.path, target.metric, b.name())
                    }
                    _ => format!("{} at {x}", target.metric),
                };
                get(&point_metric(t, i), &shown)
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.push(vals);
    }
    Ok(out)
}

/// The branch of each row of a loop target (`csv` with `loop: true`), none for another target.
fn loop_branches(t: &FitTarget) -> Vec<Option<Branch>> {
    match &t.csv {
        Some(c) if c.is_loop => {
            let x: Vec<f64> = t.points.iter().map(|p| p[0]).collect();
            crate::loop_branch::branches(&x)
        }
        _ => Vec::new(),
    }
}

/// The manifest `id` (one `e` carries, [`Entry::fit_sources`]) with `set` in each of its runs
/// taken (`from:`) from a run of fit `f` of `e`.
fn other_variant(e: &Entry, f: &FitSpec, id: &str, set: &[(String, f64)]) -> Result<Entry, String> {
    let src = e.fit_sources.iter().find(|s| s.manifest.id == id);
    let mut o = src
        .ok_or_else(|| format!("manifest `{id}` is not loaded (invalid?)"))?
        .clone();
    let taken: Vec<String> = crate::entry::runs_taken_from(&o.manifest, &e.manifest.id, &f.run.ids())
        .into_iter()
        .map(|r| r.id.clone())
        .collect();
    if taken.is_empty() {
        return Err(format!("no run of `{id}` is taken from a fitted run"));
    }
    for run in &taken {
        o = variant(&o, run, set)?;
    }
    Ok(o)
}

/// What each target's terms should be: its value, or its points' values.
fn wanted(t: &FitTarget) -> Vec<f64> {
    match t.value {
        Some(v) => vec![v],
        None => t.points.iter().map(|p| p[1]).collect(),
    }
}

/// The weighted residuals `(metric − value)/sigma` of every target, in order.
fn residuals(cache: &RunCache, e: &Entry, f: &FitSpec, p: &[f64]) -> Result<Vec<f64>, String> {
    let got = computed(cache, e, f, p)?;
    let mut r = Vec::new();
    for (t, vals) in f.targets.iter().zip(got) {
        let sigma = t.sigma.unwrap_or(1.0);
        r.extend(vals.iter().zip(wanted(t)).map(|(c, w)| (c - w) / sigma));
    }
    Ok(r)
}

/// Each target's residual in the metric's unit: the metric minus its value, or the root mean
/// square over its points.
fn per_target(f: &FitSpec, r: &[f64]) -> Vec<f64> {
    let mut at = 0;
    f.targets
        .iter()
        .map(|t| {
            let sigma = t.sigma.unwrap_or(1.0);
            let n = wanted(t).len();
            let part = &r[at..at + n];
            at += n;
            if t.value.is_some() {
                part[0] * sigma
            } else {
                (part.iter().map(|x| (x * sigma).powi(2)).sum::<f64>() / n as f64).sqrt()
            }
        })
        .collect()
}

/// Record a fit's results: each parameter with its standard error, the residuals, the counts;
/// on failure every parameter's result is the error.
fn record_fitted(rep: &mut ExperimentReport, e: &Entry, f: &FitSpec, fitted: Result<Fitted, String>) {
    let name = &f.name;
    let fitted = match fitted {
        Ok(x) => x,
        Err(err) => {
            for q in &f.params {
                record(rep, &format!("{name}.{}", q.param), Err(format!("fit `{name}`: {err}")));
            }
            record(rep, &format!("{name}.residual"), Err(format!("fit `{name}` failed")));
            return;
        }
    };
    for (j, q) in f.params.iter().enumerate() {
        let key = format!("{name}.{}", q.param);
        record(rep, &key, Ok(fitted.params[j]));
        unit(rep, &key, q.unit.clone());
        // With no more residuals than parameters there is no standard error (and no `.sd`).
        if let Some(sd) = standard_error(f, &fitted, j) {
            record(rep, &format!("{key}.sd"), sd);
            unit(rep, &format!("{key}.sd"), q.unit.clone());
        }
    }
    record(rep, &format!("{name}.residual"), Ok(fitted.norm));
    for (t, v) in f.targets.iter().zip(per_target(f, &fitted.residuals)) {
        let key = format!("{name}.residual.{}", t.metric);
        record(rep, &key, Ok(v));
        let of = match t.manifest.as_deref() {
            Some(id) => e.fit_sources.iter().find(|s| s.manifest.id == id).map(|s| &s.manifest),
            None => Some(&e.manifest),
        };
        let u = of
            .and_then(|m| m.metrics.iter().find(|m| m.name == t.metric))
            .and_then(|m| m.unit.clone());
        unit(rep, &key, u);
    }
    record(rep, &format!("{name}.evaluations"), Ok(fitted.evaluations as f64));
    record(rep, &format!("{name}.iterations"), Ok(fitted.iterations as f64));
    record(
        rep,
        &format!("{name}.non_smooth"),
        Ok(f64::from(u8::from(fitted.non_smooth.is_some()))),
    );
    if let Some(ns) = &fitted.non_smooth {
        let flag = |b: bool| f64::from(u8::from(b));
        for (key, v) in [
            ("stall.cost", ns.stall_cost),
            ("gn.predicted_fall", ns.predicted_fall),
            ("gn.actual_fall", ns.actual_fall),
            ("scan.best_cost", ns.scan_best_cost),
            ("scan.local_minima", ns.local_minima as f64),
            ("scan.restarted", flag(ns.restarted)),
        ] {
            record(rep, &format!("{name}.{key}"), Ok(v));
        }
        for (q, v) in f.params.iter().zip(&ns.stalled) {
            let key = format!("{name}.stall.{}", q.param);
            record(rep, &key, Ok(*v));
            unit(rep, &key, q.unit.clone());
        }
    }
}

/// Show `unit` with the metric `key`, if it has one.
pub(crate) fn unit(rep: &mut ExperimentReport, key: &str, unit: Option<String>) {
    if let Some(unit) = unit.filter(|u| !u.is_empty()) {
        let info = MetricInfo {
            unit: Some(unit),
            ..Default::default()
        };
        rep.metric_info.insert(key.to_string(), info);
    }
}
