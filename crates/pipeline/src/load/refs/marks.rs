//! Series that draw a `find`'s or a `fit`'s result: the find or fit they name, and the run a
//! fitted curve is drawn from.

use super::Ctx;
use fric_manifest::SeriesSpec;

/// Whether `s` draws a find's or a fit's result (checked here, not as a run or metric series).
pub(in crate::load) fn is_mark(s: &SeriesSpec) -> bool {
    s.find.is_some() || s.fit.is_some()
}

/// The fields a series of a find's or fit's result must not have, as `(field, set)`.
fn reject(cx: &mut Ctx, at: &str, s: &SeriesSpec, fields: &[(&str, bool)], shape: &str) {
    for (field, set) in fields {
        if *set {
            cx.err(
                format!("{at}.{field}"),
                format!("this series takes no `{field}`"),
                shape,
            );
        }
    }
    if fric_plot::style::of(&s.style).is_ok_and(|d| d.is_band()) {
        cx.err(format!("{at}.style"), "a find's or fit's result is not a band", shape);
    }
}

/// A series naming a find (its marker) or a fit (its targets, or its run at the fitted values).
pub(in crate::load) fn marks(cx: &mut Ctx, at: &str, s: &SeriesSpec) {
    let m = cx.m;
    if let Some(f) = &s.find {
        let shape = "{find: <name of a find>} (no run, metric, fit, x, y)";
        let fields = [
            ("run", !s.run.is_empty()),
            ("metric", s.metric.is_some()),
            ("group", s.group.is_some()),
            ("fit", s.fit.is_some()),
            ("x", !s.x.is_empty()),
            ("y", !s.y.is_empty()),
            ("y2", s.y2.is_some()),
        ];
        reject(cx, at, s, &fields, shape);
        // `name` (the find's point or points), or `name.up` / `name.down` (a continuation's
        // branch).
        let branch = f.strip_suffix(".up").or_else(|| f.strip_suffix(".down"));
        let branch_ok = branch.is_some_and(|b| m.find.iter().any(|x| x.name == b && x.continuation.is_some()));
        if !branch_ok && !m.find.iter().any(|x| &x.name == f) {
            let names: Vec<String> = m
                .find
                .iter()
                .flat_map(|x| {
                    let ways = x.continuation.as_ref().map(|_| [".up", ".down"]).into_iter().flatten();
                    std::iter::once(x.name.clone()).chain(ways.map(|w| format!("{}{w}", x.name)))
                })
                .collect();
            cx.err(
                format!("{at}.find"),
                format!("no find `{f}` in this manifest"),
                names.join(", "),
            );
        }
        return;
    }
    let Some(name) = &s.fit else { return };
    let Some(fit) = m.fit.iter().find(|x| &x.name == name) else {
        let names: Vec<&str> = m.fit.iter().map(|x| x.name.as_str()).collect();
        cx.err(
            format!("{at}.fit"),
            format!("no fit `{name}` in this manifest"),
            names.join(", "),
        );
        return;
    };
    if s.run.is_empty() {
        let shape = "{fit: <name>} (its targets' points) or {fit: <name>, run: <its run>, x, y} (the fitted curve)";
        let fields = [
            ("metric", s.metric.is_some()),
            ("group", s.group.is_some()),
            ("x", !s.x.is_empty()),
            ("y", !s.y.is_empty()),
            ("y2", s.y2.is_some()),
        ];
        reject(cx, at, s, &fields, shape);
        if fit.targets.iter().all(|t| t.points.is_empty()) {
            cx.err(
                format!("{at}.fit"),
                format!("fit `{name}` has no target with `points`: a target value has no abscissa to draw it at"),
                "a fit with a `points` target, or {fit, run, x, y} for its fitted curve",
            );
        }
        return;
    }
    let shape = "{fit: <name>, run: <the fit's run>, x: <column>, y: <column>}";
    let fields = [("metric", s.metric.is_some()), ("group", s.group.is_some())];
    reject(cx, at, s, &fields, shape);
    if !fit.run.ids().iter().any(|r| *r == s.run) {
        let runs: Vec<&str> = fit.run.ids().into_iter().collect();
        cx.err(
            format!("{at}.run"),
            format!("run `{}` is not fitted by `{name}`", s.run),
            runs.join(", "),
        );
        return;
    }
    if cx.run_failed(&s.run) {
        return;
    }
    cx.check_col(format!("{at}.x"), &s.run, &s.x);
    cx.check_col(format!("{at}.y"), &s.run, &s.y);
}
