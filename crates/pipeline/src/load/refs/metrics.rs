//! What metrics refer to: runs, members, columns, other series and earlier metrics.

use super::panels::swept_run_of;
use super::Ctx;
use crate::evaluate::metric_kinds::{self, OtherSeries};
use fric_manifest::member::{base_of, MemberId};

/// A metric's run: known (a run, a member `id[k]`, or a swept id), not invalid itself.
fn metric_run(cx: &mut Ctx, path: String, r: &str) -> bool {
    if cx.run_failed(r) {
        return false;
    }
    if cx.runs.contains_key(r) {
        return true;
    }
    // A swept id: the metric is evaluated over every member (a metric table).
    if cx.sweeps.contains_key(r) {
        return true;
    }
    let allowed = cx.run_ids();
    cx.err(path, format!("unknown run `{r}`"), allowed);
    false
}

pub(in crate::load) fn metrics(cx: &mut Ctx) {
    let m = cx.m;
    let mut names: Vec<&str> = Vec::new();
    for (i, mt) in m.metrics.iter().enumerate() {
        let at = format!("metrics[{i}]");
        // What a kind needs is its declaration's (`evaluate/metric_kinds/`).
        let Some(decl) = metric_kinds::find(&mt.kind.0) else {
            let msg = format!("unknown metric kind `{}`", mt.kind.0);
            cx.err(format!("{at}.kind"), msg, metric_kinds::names());
            cx.failed_metrics.insert(mt.name.clone());
            names.push(&mt.name);
            continue;
        };
        if mt.branch.is_some() && decl.doc.field("branch").is_none() {
            let msg = format!("a `{}` metric takes no `branch`", mt.kind.0);
            cx.err(format!("{at}.branch"), msg, "`branch` only on `value-at`");
        }
        let ok = if decl.reads_run() {
            match &mt.run {
                None => {
                    let allowed = cx.run_ids();
                    cx.err(at.clone(), format!("metric `{}` needs `run`", mt.name), allowed);
                    false
                }
                Some(r) if !metric_run(cx, format!("{at}.run"), r) => false,
                Some(r) => {
                    let needs = |f: &str| decl.doc.requires(f);
                    let needs_x = needs("x");
                    match (&mt.x, needs_x) {
                        (Some(x), _) => cx.check_col(format!("{at}.x"), r, x),
                        (None, true) => cx.err(at.clone(), "this metric kind needs `x`", "x: <column>"),
                        _ => {}
                    }
                    match &mt.y {
                        Some(y) if decl.y_is_column() => cx.check_col(format!("{at}.y"), r, y),
                        Some(_) => {}
                        None => cx.err(
                            at.clone(),
                            "metric needs `y`",
                            "y: <column> (or the info name for kind: info)",
                        ),
                    }
                    if needs("at") && mt.at.is_none() {
                        cx.err(
                            at.clone(),
                            "this metric kind needs `at`",
                            "at: <x value> (value-at) or <0…1> (quantile)",
                        );
                    }
                    if needs("range") && mt.range.is_none() {
                        cx.err(
                            at.clone(),
                            "this metric kind needs `range`",
                            "range: [lo, hi] (the band of y)",
                        );
                    }
                    if needs("part") && mt.part.is_none() {
                        cx.err(
                            at.clone(),
                            "this metric kind needs `part`",
                            "part: floor, peak, scale or rms",
                        );
                    }
                    if decl.other != OtherSeries::None {
                        let crossings = decl.other == OtherSeries::Xy;
                        match &mt.other {
                            None => {
                                let shape = if crossings {
                                    "{run, x, y, window}"
                                } else {
                                    "{run, y, window}"
                                };
                                cx.err(
                                    at.clone(),
                                    format!("{} needs `other`", decl.doc.name),
                                    format!("other: {shape}"),
                                )
                            }
                            Some(o) => {
                                if metric_run(cx, format!("{at}.other.run"), &o.run) {
                                    cx.check_col(format!("{at}.other.y"), &o.run, &o.y);
                                    match (&o.x, crossings) {
                                        (Some(x), _) => cx.check_col(format!("{at}.other.x"), &o.run, x),
                                        (None, true) => cx.err(
                                            format!("{at}.other"),
                                            format!("{} needs the other curve's x", decl.doc.name),
                                            "other: {run, x, y}",
                                        ),
                                        _ => {}
                                    }
                                }
                            }
                        }
                    }
                    cx.check_window(format!("{at}.window"), &mt.window);
                    true
                }
            }
        } else if decl.operands() == 0 {
            // A metric of neither a run nor other metrics: what it needs is its fields'.
            let missing: Vec<&str> = decl
                .doc
                .fields
                .iter()
                .filter(|f| {
                    f.required && ((f.name == "value" && mt.value.is_none()) || (f.name == "fit" && mt.fit.is_none()))
                })
                .map(|f| f.name)
                .collect();
            for f in &missing {
                let shape = if *f == "fit" {
                    "<doc>/<name>#<fit>.<param>"
                } else {
                    "<number>"
                };
                cx.err(
                    at.clone(),
                    format!("this metric kind needs `{f}`"),
                    format!("{f}: {shape}"),
                );
            }
            missing.is_empty()
        } else {
            let n_of = decl.operands();
            let shape = if n_of == 1 { "of: <metric>" } else { "of: [a, b]" };
            match mt.of.as_ref().map(|o| o.names()) {
                None => {
                    cx.err(
                        at.clone(),
                        format!("this metric kind needs `{shape}`"),
                        if n_of == 1 {
                            "an earlier metric name"
                        } else {
                            "two earlier metric names"
                        },
                    );
                    false
                }
                Some(of) if of.len() != n_of => {
                    let msg = format!("`{}` takes {n_of} metric(s), {} given", decl.doc.name, of.len());
                    cx.err(format!("{at}.of"), msg, shape);
                    false
                }
                Some(of) => {
                    let mut ok = true;
                    for (k, n) in of.iter().copied().enumerate() {
                        // An earlier metric, or member `name[k]` of an earlier metric table.
                        // `<m>.sd`: the standard error of an earlier `fitted` metric `m`.
                        let sd_of = n
                            .strip_suffix(".sd")
                            .filter(|_| crate::load::fit_ref_syntax::is_fitted_sd(m, n));
                        let base = sd_of.unwrap_or_else(|| base_of(n));
                        let member_ok = n == base || sd_of.is_some() || metric_ref(cx, n) == Some(true);
                        if cx.failed_metrics.contains(base) {
                            ok = false;
                        } else if !names.contains(&base) || !member_ok {
                            let msg = format!("`{n}` is not an earlier metric");
                            let path = if of.len() == 1 {
                                format!("{at}.of")
                            } else {
                                format!("{at}.of[{k}]")
                            };
                            cx.err(path, msg, names.join(", "));
                            ok = false;
                        }
                    }
                    let swept: Vec<(&str, String)> = of
                        .iter()
                        .filter_map(|n| swept_run_of(m, &cx.sweeps, n, 0).map(|r| (*n, r)))
                        .collect();
                    if let (true, [(a, ra), .., (b, rb)]) = (ok, &swept[..]) {
                        if ra != rb {
                            cx.err(
                                format!("{at}.of"),
                                format!("`{a}` is over swept run `{ra}`, `{b}` over `{rb}`"),
                                "metrics over the same swept run (member by member), or one of them a single value",
                            );
                            ok = false;
                        }
                    }
                    ok
                }
            }
        };
        if !ok {
            cx.failed_metrics.insert(mt.name.clone());
        }
        names.push(&mt.name);
    }
}

/// Whether `name` is a metric, or member `name[k]` of a metric table (with k in range), or
/// refers to one that is invalid itself (`Some(false)`: do not report). `None`: unknown.
pub(in crate::load) fn metric_ref(cx: &Ctx, name: &str) -> Option<bool> {
    let m = cx.m;
    let (base, k) = match MemberId::parse(name) {
        Some(m) => (m.base, Some(m.k)),
        // `name[x]` with an index that is not a number names nothing.
        None if base_of(name) != name => return None,
        None => (name, None),
    };
    if cx.failed_metrics.contains(base) {
        return Some(false);
    }
    if k.is_none()
        && (is_find_result(m, name)
            || crate::load::fits::is_fit_result(m, name)
            || crate::load::fit_ref_syntax::is_fitted_sd(m, name))
    {
        return Some(true);
    }
    m.metrics.iter().find(|x| x.name == base)?;
    match k {
        None => Some(true),
        Some(k) => {
            let run = swept_run_of(m, &cx.sweeps, base, 0)?;
            if cx.run_failed(&run) {
                return Some(false);
            }
            (k < cx.sweeps[&run].len()).then_some(true)
        }
    }
}

/// What a metric reference may be, for an error message.
pub(in crate::load) fn metric_names(cx: &Ctx) -> String {
    let names: Vec<String> =
        cx.m.metrics
            .iter()
            .map(|x| match swept_run_of(cx.m, &cx.sweeps, &x.name, 0) {
                Some(r) => format!("{} (or {}[0..{}])", x.name, x.name, cx.sweeps[&r].len()),
                None => x.name.clone(),
            })
            .collect();
    let finds =
        cx.m.find
            .iter()
            .map(|f| format!("{} (or {}.lo, .hi, ...)", f.name, f.name));
    let fits =
        cx.m.fit
            .iter()
            .map(|f| format!("{}.<param> (or {}.residual, ...)", f.name, f.name));
    names
        .into_iter()
        .chain(finds)
        .chain(fits)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `name` is a find's result (`name`) or one of its companions (`name.lo`, ...).
fn is_find_result(m: &fric_manifest::Manifest, name: &str) -> bool {
    let (base, part) = name.split_once('.').map_or((name, None), |(b, p)| (b, Some(p)));
    m.find
        .iter()
        .any(|f| f.name == base && part.is_none_or(|p| f.has_part(p)))
}
