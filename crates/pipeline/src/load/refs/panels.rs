//! What panels refer to: runs and their columns, published points, metric series.

use super::Ctx;

pub(in crate::load) fn panels(cx: &mut Ctx) {
    let m = cx.m;
    if let Some(l) = &m.layout {
        if l.rows.saturating_mul(l.cols) < m.panels.len() {
            cx.err(
                "layout",
                format!("{}×{} layout for {} panels", l.rows, l.cols, m.panels.len()),
                "rows × cols ≥ number of panels",
            );
        }
        if let Err(msg) = l.width_in() {
            cx.err("layout.width", msg, "single, double or a length: 120mm, 12cm, 4.5in");
        }
    }
    for (i, panel) in m.panels.iter().enumerate() {
        for (j, s) in panel.series.iter().enumerate() {
            let at = format!("panels[{i}].series[{j}]");
            if let Some(c) = s.color.as_ref().filter(|c| !fric_plot::is_known_color(c)) {
                cx.err(
                    format!("{at}.color"),
                    format!("unknown color `{c}`"),
                    fric_plot::COLOR_NAMES.join(", "),
                );
            }
            cx.check_window(format!("{at}.window"), &s.window);
            // The style, resolved against its declaration, checks what it takes.
            let style = match fric_plot::style::of(&s.style) {
                Ok(style) => style,
                Err(e) => {
                    cx.err(format!("{at}.style"), e, fric_plot::style::names());
                    continue;
                }
            };
            for p in style.problems(s) {
                cx.err(format!("{at}{}", p.field), p.message, p.allowed);
            }
            if style.source == fric_plot::style::Source::Points {
                continue;
            }
            if super::marks::is_mark(s) {
                super::marks::marks(cx, &at, s);
                continue;
            }
            if s.metric.is_some() || s.group.is_some() {
                metric_series(cx, &at, s);
                continue;
            }
            if s.run.is_empty() || s.y.is_empty() {
                let missing = if s.run.is_empty() { "run" } else { "y" };
                cx.err(
                    at,
                    format!("a series needs `{missing}`"),
                    "{run, x, y} (columns of a run), {metric, x, group} (a metric against swept parameters), {find} or {fit}",
                );
                continue;
            }
            // Columns are checked against a valid run only.
            if cx.run_failed(&s.run) {
                continue;
            }
            if !cx.runs.contains_key(&s.run) && !cx.sweeps.contains_key(&s.run) {
                let allowed = cx.run_ids();
                cx.err(format!("{at}.run"), format!("unknown run `{}`", s.run), allowed);
                continue;
            }
            cx.check_col(format!("{at}.x"), &s.run, &s.x);
            cx.check_col(format!("{at}.y"), &s.run, &s.y);
            if let Some(y2) = &s.y2 {
                cx.check_col(format!("{at}.y2"), &s.run, y2);
            }
        }
    }
}

/// The swept run a metric (by name) is evaluated over, if any: its own run when swept, or
/// either operand's for a metric of two metrics.
pub(in crate::load) fn swept_run_of(
    m: &fric_manifest::Manifest,
    sweeps: &std::collections::BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
    name: &str,
    depth: usize,
) -> Option<String> {
    let mt = m.metrics.iter().find(|x| x.name == name)?;
    if let Some(r) = &mt.run {
        return sweeps.contains_key(r).then(|| r.clone());
    }
    let of = mt.of.as_ref()?;
    if depth > m.metrics.len() {
        return None;
    }
    of.names()
        .into_iter()
        .find_map(|n| swept_run_of(m, sweeps, n, depth + 1))
}

/// A series drawing a metric over a swept run against one swept parameter (`x`), one series
/// per value of another (`group`).
fn metric_series(cx: &mut Ctx, at: &str, s: &fric_manifest::SeriesSpec) {
    let shape = "{metric, x: <swept parameter>, group: <another swept parameter>} without run and y";
    let Some(metric) = &s.metric else {
        cx.err(format!("{at}.group"), "`group` belongs to a metric series", shape);
        return;
    };
    for (field, set) in [
        ("run", !s.run.is_empty()),
        ("y", !s.y.is_empty()),
        ("y2", s.y2.is_some()),
    ] {
        if set {
            cx.err(
                format!("{at}.{field}"),
                format!("a metric series takes no `{field}`"),
                shape,
            );
        }
    }
    if cx.failed_metrics.contains(metric) {
        return;
    }
    let names: Vec<String> = cx.m.metrics.iter().map(|x| x.name.clone()).collect();
    if !names.contains(metric) {
        cx.err(
            format!("{at}.metric"),
            format!("unknown metric `{metric}`"),
            names.join(", "),
        );
        return;
    }
    let Some(base) = swept_run_of(cx.m, &cx.sweeps, metric, 0) else {
        cx.err(
            format!("{at}.metric"),
            format!("metric `{metric}` is not evaluated over a swept run"),
            "a metric whose `run` is a swept id (or of such metrics)",
        );
        return;
    };
    if cx.run_failed(&base) {
        return;
    }
    let params: Vec<String> = cx.sweeps[&base]
        .first()
        .map(|(_, c)| c.iter().map(|p| p.0.clone()).collect())
        .unwrap_or_default();
    let allowed = format!("a parameter run `{base}` sweeps: {}", params.join(", "));
    if !params.contains(&s.x) {
        cx.err(
            format!("{at}.x"),
            format!("run `{base}` does not sweep `{}`", s.x),
            allowed.clone(),
        );
    }
    match &s.group {
        Some(g) if !params.contains(g) || *g == s.x => cx.err(
            format!("{at}.group"),
            format!("`{g}` is not another parameter run `{base}` sweeps"),
            allowed,
        ),
        None if params.len() > 1 => cx.err(
            at.to_string(),
            format!(
                "run `{base}` sweeps {} parameters: name the others in `group`",
                params.len()
            ),
            "group: <another swept parameter>",
        ),
        _ => {}
    }
}
