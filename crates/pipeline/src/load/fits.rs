//! What a `fit` declares (`fit[]`): a name no metric, find or fit has, a run of the manifest
//! that is not swept, distinct parameters each with a start inside finite bounds its run's
//! system accepts, targets that are metrics of the manifest (not a sweep's table) with a value,
//! points or a CSV file of points (then a metric with an `at`), positive scales and settings.
//! Each problem at its line. A target's CSV file is read before the validation
//! ([`read_csv_targets`]): its rows become the target's points; a loop's (`loop: true`) rows
//! need both branches, and its metric is a `value-at` of a fitted run.

use super::ctx::Ctx;
use super::refs::{metric_names, swept_run_of};
use super::variants::variant_problem;
use fric_manifest::{Diagnostic, Document, FitParam, FitSpec, FitTarget, Manifest, FIT_PARTS};
use std::path::Path;

/// Read every fit target's `csv` file (under `root`): its `x` and `y` columns become the
/// target's points and its sha256 is recorded beside the path (both part of the manifest's
/// evaluation key, so editing the file evaluates the fit again). A target with `csv` and
/// `points`, or a file that cannot be read, is a diagnostic at its field (file and CSV line).
pub(in crate::load) fn read_csv_targets(root: &Path, file: &str, m: &mut Manifest, doc: &Document) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, f) in m.fit.iter_mut().enumerate() {
        for (k, t) in f.targets.iter_mut().enumerate() {
            let Some(c) = t.csv.as_mut() else { continue };
            let at = format!("fit[{i}].targets[{k}]");
            if !t.points.is_empty() {
                let msg = "a target with both `points` and `csv`";
                out.extend(doc.diagnostic(file, &format!("{at}.csv"), msg, "one of `value`, `points` and `csv`"));
                continue;
            }
            match super::csv::read_rows(root, &c.path, &c.x, &c.y, !c.is_loop) {
                Ok((d, lines)) => {
                    if c.is_loop {
                        if let Some(msg) = one_branch(&c.path, &c.x, &d.t, &lines) {
                            let allowed = "a loop: rows where x increases and rows where it decreases (else a `csv` target without `loop`)";
                            out.extend(doc.diagnostic(file, &format!("{at}.csv.loop"), msg, allowed));
                        }
                    }
                    t.points = d.t.iter().zip(&d.u).map(|(&x, &y)| [x, y]).collect();
                    c.sha256 = Some(d.sha256);
                    c.lines = lines;
                }
                Err((field, msg, allowed)) => {
                    let field = match field {
                        "t_column" => "x",
                        "u_column" => "y",
                        other => other,
                    };
                    out.extend(doc.diagnostic(file, &format!("{at}.csv.{field}"), msg, allowed));
                }
            }
        }
    }
    out
}

/// Why the rows `x` of a loop file (at `lines`) are not a loop: they lie on one branch only.
fn one_branch(path: &str, col: &str, x: &[f64], lines: &[usize]) -> Option<String> {
    let b = crate::loop_branch::branches(x);
    let first = b.first().copied().flatten();
    if b.iter().any(|s| *s != first) {
        return None;
    }
    let (a, z) = (lines.first().copied().unwrap_or(0), lines.last().copied().unwrap_or(0));
    Some(match first {
        Some(s) => format!(
            "{path}:{a}–{z}: every row lies on the {} branch (`{col}` only {}): fewer than two branches",
            s.name(),
            if s == fric_manifest::Branch::Ascending {
                "increases"
            } else {
                "decreases"
            }
        ),
        None => format!("{path}:{a}–{z}: `{col}` never changes: no branch"),
    })
}

/// Every fit of the manifest.
pub(super) fn fits(cx: &mut Ctx) {
    let m = cx.m;
    for (i, f) in m.fit.iter().enumerate() {
        let at = format!("fit[{i}]");
        let taken = m.metrics.iter().any(|x| x.name == f.name)
            || m.find.iter().any(|x| x.name == f.name)
            || m.fit[..i].iter().any(|x| x.name == f.name);
        if taken || f.name.trim().is_empty() || f.name.contains(['[', ']', '.']) {
            let msg = format!(
                "fit name `{}` is empty, taken by a metric, find or fit, or has [ ] .",
                f.name
            );
            cx.err(format!("{at}.name"), msg, "a new metric name");
        }
        run(cx, &at, f);
        settings(cx, &at, f);
        for (j, p) in f.params.iter().enumerate() {
            param(cx, &format!("{at}.params[{j}]"), f, j, p);
        }
        for (k, t) in f.targets.iter().enumerate() {
            target(cx, &format!("{at}.targets[{k}]"), f, k, t);
        }
    }
}

/// The fitted runs: known, not swept, each named once.
fn run(cx: &mut Ctx, at: &str, f: &FitSpec) {
    let ids = f.run.ids();
    for (k, id) in ids.iter().enumerate() {
        let id = id.to_string();
        if ids[..k].iter().any(|x| *x == id) {
            let msg = format!("run `{id}` is named twice");
            cx.err(format!("{at}.run"), msg, "each run once");
        } else if cx.sweeps.contains_key(&id) {
            let msg = format!("run `{id}` is swept: a fit varies one run");
            cx.err(format!("{at}.run"), msg, "a run that is not swept");
        } else if !cx.runs.contains_key(&id) && !cx.failed_runs.contains(&id) {
            let msg = format!("unknown run `{id}`");
            let allowed = cx.run_ids();
            cx.err(format!("{at}.run"), msg, allowed);
        }
    }
}

/// At least one parameter and one target, the tolerance and the budget.
fn settings(cx: &mut Ctx, at: &str, f: &FitSpec) {
    if f.params.is_empty() {
        cx.err(
            format!("{at}.params"),
            "a fit without parameters",
            "[{param, start, bounds}]",
        );
    }
    if f.targets.is_empty() {
        cx.err(format!("{at}.targets"), "a fit without targets", "[{metric, value}]");
    }
    if let Some(tol) = f.tol.filter(|t| !(*t > 0.0 && t.is_finite())) {
        cx.err(
            format!("{at}.tol"),
            format!("tol {tol} is not a positive number"),
            "a positive number",
        );
    }
    if let Some(n) = f.max_evaluations.filter(|&n| n < f.params.len() + 2) {
        let msg = format!("max_evaluations {n} is below {}", f.params.len() + 2);
        cx.err(format!("{at}.max_evaluations"), msg, "at least the parameter count + 2");
    }
    if let Some(n) = f.scan.filter(|&n| n == 1 || n == 2) {
        let msg = format!("scan {n}: a scan needs at least 3 points (or 0: off)");
        cx.err(format!("{at}.scan"), msg, "0, or at least 3");
    }
    for (i, &k) in f.profile.iter().enumerate() {
        if !(1..=5).contains(&k) || f.profile[..i].contains(&k) {
            let msg = format!("profile multiple {k} is out of 1 to 5 or given twice");
            cx.err(
                format!("{at}.profile[{i}]"),
                msg,
                "distinct whole multiples of the standard error, 1 to 5",
            );
        }
    }
}

/// One parameter: not fitted twice, finite bounds lo < hi with its start inside, a step at most
/// half the bounds' width, and values (the start, both bounds; the other parameters as the run
/// has them) its run's system accepts.
fn param(cx: &mut Ctx, at: &str, f: &FitSpec, j: usize, p: &FitParam) {
    if f.params[..j].iter().any(|q| q.param == p.param) {
        let msg = format!("`{}` is fitted twice", p.param);
        cx.err(format!("{at}.param"), msg, "each parameter once");
        return;
    }
    let [lo, hi] = p.bounds;
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        let msg = format!("bounds [{lo}, {hi}]: two finite values, lo < hi");
        cx.err(format!("{at}.bounds"), msg, "[lo, hi], lo < hi");
        return;
    }
    if !(lo <= p.start && p.start <= hi) {
        let msg = format!("start {} is outside the bounds [{lo}, {hi}]", p.start);
        cx.err(format!("{at}.start"), msg, "a value within the bounds");
        return;
    }
    // At most half the box, so a difference towards the inside never leaves the bounds.
    if let Some(h) = p.step.filter(|h| !(*h > 0.0 && *h <= 0.5 * (hi - lo))) {
        let msg = format!("step {h} is not positive and at most (hi − lo)/2 = {}", 0.5 * (hi - lo));
        cx.err(format!("{at}.step"), msg, "a positive number at most (hi − lo)/2");
    }
    let known: Vec<&str> = f.run.ids().into_iter().filter(|r| cx.runs.contains_key(*r)).collect();
    for run in known {
        if !accepted(cx, at, run, p) {
            return;
        }
    }
}

/// Whether the run `run`'s system accepts the parameter's start and bounds (the other parameters
/// as the run has them); a diagnostic at the parameter when not.
fn accepted(cx: &mut Ctx, at: &str, run: &str, p: &FitParam) -> bool {
    let [lo, hi] = p.bounds;
    for (what, v) in [("start", p.start), ("lower bound", lo), ("upper bound", hi)] {
        if let Some(e) = variant_problem(cx, run, &[(p.param.clone(), v)]) {
            let msg = format!("{} = {v} (the {what}): {e}", p.param);
            let allowed = "a parameter of the run and values its system accepts (`cargo xtask schema`)";
            cx.err(
                format!("{at}.{}", if what == "start" { "param" } else { "bounds" }),
                msg,
                allowed,
            );
            return false;
        }
    }
    true
}

/// One target: a metric of the manifest, one value per run, named once; a value or points
/// (exactly one); points only for a metric with an `at`; finite numbers; a positive sigma.
fn target(cx: &mut Ctx, at: &str, f: &FitSpec, k: usize, t: &FitTarget) {
    let m = cx.m;
    if f.targets[..k].iter().any(|x| x.metric == t.metric) {
        let msg = format!("`{}` is a target twice", t.metric);
        cx.err(
            format!("{at}.metric"),
            msg,
            "each metric once (put every point in one target)",
        );
        return;
    }
    // Another manifest's metric is checked with that manifest (`fit_refs::check_targets`).
    let own = t.manifest.is_none();
    match m.metrics.iter().find(|x| x.name == t.metric).filter(|_| own) {
        None if own && !cx.failed_metrics.contains(&t.metric) => {
            let msg = format!("unknown metric `{}`", t.metric);
            let allowed = metric_names(cx);
            cx.err(format!("{at}.metric"), msg, allowed);
        }
        Some(_) if swept_run_of(m, &cx.sweeps, &t.metric, 0).is_some() => cx.err(
            format!("{at}.metric"),
            format!(
                "`{}` is a table over a sweep: a fit target needs one value per run",
                t.metric
            ),
            "a metric of a run that is not swept",
        ),
        Some(spec) if (!t.points.is_empty() || t.samples.is_some()) && !has_at(&spec.kind.0) => cx.err(
            format!(
                "{at}.{}",
                match (&t.csv, &t.samples) {
                    (Some(_), _) => "csv",
                    (_, Some(_)) => "samples",
                    _ => "points",
                }
            ),
            format!(
                "`{}` is a `{}` metric, which has no `at`: points need one",
                t.metric, spec.kind.0
            ),
            "a metric with an `at` field (value-at), or `value`",
        ),
        _ => {}
    }
    // A `csv` target's points are its file's rows (read before; a problem there is reported).
    let written_points = !t.points.is_empty() && t.csv.is_none();
    let given = [t.value.is_some(), written_points, t.csv.is_some(), t.samples.is_some()];
    match (t.value, given.iter().filter(|g| **g).count()) {
        (_, 0) | (_, 2..) => cx.err(
            at.to_string(),
            "a target needs exactly one of `value`, `points`, `csv` and `samples`",
            "{metric, value}, {metric, points: [[at, value], ...]}, {metric, csv: {path, x, y}} or {metric, samples: {run, x, y}}",
        ),
        (Some(v), 1) if !v.is_finite() => {
            cx.err(format!("{at}.value"), format!("value {v} is not finite"), "a number")
        }
        _ => {}
    }
    if let Some(sm) = &t.samples {
        samples(cx, &format!("{at}.samples"), f, sm);
    }
    if t.csv.as_ref().is_some_and(|c| c.is_loop) {
        loop_metric(cx, at, f, t);
    }
    if let Some(p) = t.points.iter().find(|p| !(p[0].is_finite() && p[1].is_finite())) {
        let msg = format!("point [{}, {}] is not finite", p[0], p[1]);
        cx.err(format!("{at}.points"), msg, "[[at, value], ...] of numbers");
    }
    if let Some(s) = t.sigma.filter(|s| !(*s > 0.0 && s.is_finite())) {
        cx.err(
            format!("{at}.sigma"),
            format!("sigma {s} is not a positive number"),
            "a positive number",
        );
    }
}

/// A loop target's metric: a `value-at` (the kind that reads a branch) of a fitted run, whose
/// input defines the model's loop.
fn loop_metric(cx: &mut Ctx, at: &str, f: &FitSpec, t: &FitTarget) {
    let Some(spec) =
        cx.m.metrics
            .iter()
            .find(|x| x.name == t.metric)
            .filter(|_| t.manifest.is_none())
    else {
        return;
    };
    if crate::evaluate::metric_kinds::find(&spec.kind.0).is_some_and(|d| d.doc.field("branch").is_none()) {
        let msg = format!(
            "`{}` is a `{}` metric: a loop's rows are read on a branch of a `value-at`",
            t.metric, spec.kind.0
        );
        cx.err(
            format!("{at}.csv.loop"),
            msg,
            "a `value-at` metric of the fitted run, x and y its loop's columns",
        );
    } else if let Some(r) = spec.run.as_deref().filter(|r| !f.run.ids().contains(r)) {
        let msg = format!(
            "`{}` reads run `{r}`, which the fit does not fit: the model's loop is a fitted run's",
            t.metric
        );
        cx.err(
            format!("{at}.metric"),
            msg,
            format!("a `value-at` of {}", f.run.ids().join(", ")),
        );
    }
}

/// A `samples` target's run: one of the manifest (a sweep's member `id[k]`, not the sweep),
/// not a fitted one (its data would move with the fit), with both columns.
fn samples(cx: &mut Ctx, at: &str, f: &FitSpec, s: &fric_manifest::FitSamples) {
    if cx.failed_runs.contains(fric_manifest::member::base_of(&s.run)) {
        return;
    }
    if f.run.ids().contains(&s.run.as_str()) {
        let msg = format!("run `{}` is fitted: its samples would move with the fit", s.run);
        cx.err(format!("{at}.run"), msg, "another run of the manifest (the data)");
    } else if !cx.runs.contains_key(&s.run) {
        let msg = format!("unknown run `{}` (a swept run needs its member, `id[k]`)", s.run);
        let allowed = cx.run_ids();
        cx.err(format!("{at}.run"), msg, allowed);
    } else {
        cx.check_col(format!("{at}.x"), &s.run, &s.x);
        cx.check_col(format!("{at}.y"), &s.run, &s.y);
    }
}

/// Whether metric kind `kind` reads an `at` (a point target sets it).
fn has_at(kind: &str) -> bool {
    crate::evaluate::metric_kinds::find(kind).is_some_and(|d| d.doc.field("at").is_some())
}

/// `<param>.profile.lo<k>` or `.hi<k>` for a parameter of `f` and a `k` of its `profile`.
fn is_profile(f: &FitSpec, part: &str) -> bool {
    let Some((p, side)) = part.split_once(".profile.") else {
        return false;
    };
    let k = side.strip_prefix("lo").or_else(|| side.strip_prefix("hi"));
    f.params.iter().any(|q| q.param == p)
        && k.and_then(|k| k.parse::<u32>().ok())
            .is_some_and(|k| f.profile.contains(&k))
}

/// Whether `name` is a result of a fit: `name.<param>`, `name.<param>.sd` (when the fit has more
/// residuals than parameters), `name.<param>.profile.lo<k>`/`.hi<k>`, `name.residual`, `name.residual.<target metric>`,
/// `name.evaluations`, `name.iterations`.
pub(in crate::load) fn is_fit_result(m: &Manifest, name: &str) -> bool {
    let Some((base, part)) = name.split_once('.') else {
        return false;
    };
    let Some(f) = m.fit.iter().find(|f| f.name == base) else {
        return false;
    };
    // A `samples` target's count is known only when its run is read: counted as many.
    let terms = f.targets.iter().fold(0usize, |n, t| {
        n.saturating_add(if t.samples.is_some() {
            usize::MAX
        } else {
            t.points.len().max(1)
        })
    });
    let is_param = |p: &str| f.params.iter().any(|q| q.param == p);
    FIT_PARTS.contains(&part)
        || is_param(part)
        || part
            .strip_suffix(".sd")
            .is_some_and(|p| is_param(p) && terms > f.params.len())
        || part
            .strip_prefix("residual.")
            .is_some_and(|t| f.targets.iter().any(|x| x.metric == t))
        || is_profile(f, part)
}
