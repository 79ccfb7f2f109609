//! What a `find` declares (`find[]`): a name no metric has, a run of the manifest that is not
//! swept, a metric of the manifest that is not a sweep's table, a finite level, a bracket of two
//! distinct values its run's system accepts, a positive tolerance. Each problem at its line.

use super::ctx::Ctx;
use super::refs::{metric_names, swept_run_of};
use super::variants::variant_problem;

/// Every find of the manifest.
pub(super) fn finds(cx: &mut Ctx) {
    let m = cx.m;
    for (i, f) in m.find.iter().enumerate() {
        let at = format!("find[{i}]");
        let taken = m.metrics.iter().any(|x| x.name == f.name) || m.find[..i].iter().any(|x| x.name == f.name);
        if taken || f.name.trim().is_empty() || f.name.contains(['[', ']', '.']) {
            let msg = format!(
                "find name `{}` is empty, taken by a metric or find, or has [ ] .",
                f.name
            );
            cx.err(format!("{at}.name"), msg, "a new metric name");
        }
        match m.metrics.iter().find(|x| x.name == f.metric) {
            None if !cx.failed_metrics.contains(&f.metric) => {
                let msg = format!("unknown metric `{}`", f.metric);
                let allowed = metric_names(cx);
                cx.err(format!("{at}.metric"), msg, allowed);
            }
            Some(_) if swept_run_of(m, &cx.sweeps, &f.metric, 0).is_some() => cx.err(
                format!("{at}.metric"),
                format!("`{}` is a table over a sweep: a find needs one value per run", f.metric),
                "a metric of a run that is not swept",
            ),
            _ => {}
        }
        if cx.sweeps.contains_key(&f.run) {
            let msg = format!("run `{}` is swept: a find varies one run", f.run);
            cx.err(format!("{at}.run"), msg, "a run that is not swept");
        } else if !cx.runs.contains_key(&f.run) && !cx.failed_runs.contains(&f.run) {
            let msg = format!("unknown run `{}`", f.run);
            let allowed = cx.run_ids();
            cx.err(format!("{at}.run"), msg, allowed);
        }
        settings(cx, &at, f);
        if let Some(c) = &f.continuation {
            continuation(cx, &at, f, c);
        }
    }
}

/// A continuation's steps (2 to 200) and what it carries: parameters of the run (not the one
/// varied), each from a column of the run.
fn continuation(cx: &mut Ctx, at: &str, f: &fric_manifest::FindSpec, c: &fric_manifest::Continuation) {
    let at = format!("{at}.continuation");
    if !(2..=200).contains(&c.steps) {
        let msg = format!("steps {}: too few or too many grid intervals", c.steps);
        cx.err(format!("{at}.steps"), msg, "a whole number from 2 to 200");
    }
    if c.carry.is_empty() {
        let msg = "carry is empty: a continuation starts each run from the previous run's final state";
        cx.err(format!("{at}.carry"), msg, "{<initial-state parameter>: <column>, ...}");
    }
    if !cx.runs.contains_key(&f.run) {
        return;
    }
    for (param, col) in &c.carry {
        let path = format!("{at}.carry.{param}");
        if param == &f.param {
            let msg = format!("`{param}` is the parameter the continuation varies");
            cx.err(path.clone(), msg, "an initial-state parameter of the run");
        } else if let Some(e) = variant_problem(cx, &f.run, &[(param.clone(), 0.0)]) {
            let allowed = "an initial-state parameter of the run (`cargo xtask schema`)";
            cx.err(path.clone(), format!("{param}: {e}"), allowed);
        }
        cx.check_col(path, &f.run, col);
    }
}

/// The level, the bracket (both ends values the run accepts) and the tolerance.
fn settings(cx: &mut Ctx, at: &str, f: &fric_manifest::FindSpec) {
    if !f.level.is_finite() {
        cx.err(
            format!("{at}.level"),
            format!("level {} is not finite", f.level),
            "a number",
        );
    }
    if !(f.tol > 0.0 && f.tol.is_finite()) {
        cx.err(
            format!("{at}.tol"),
            format!("tol {} is not a positive number", f.tol),
            "a positive number",
        );
    }
    let [a, b] = f.bracket;
    if !(a.is_finite() && b.is_finite() && a != b) {
        let msg = format!("bracket [{a}, {b}]: two distinct finite values");
        cx.err(format!("{at}.bracket"), msg, "[a, b], a ≠ b");
        return;
    }
    if !cx.runs.contains_key(&f.run) {
        return;
    }
    for end in f.bracket {
        if let Some(e) = variant_problem(cx, &f.run, &[(f.param.clone(), end)]) {
            let msg = format!("{} = {end} (an end of the bracket): {e}", f.param);
            let allowed = "a parameter of the run and values its system accepts (`cargo xtask schema`)";
            cx.err(format!("{at}.bracket"), msg, allowed);
            break;
        }
    }
}
