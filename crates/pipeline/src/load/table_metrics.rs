//! A table generated from metrics (`table.from_metrics`): its metrics exist, its format is
//! one the tables write, and its layout (coordinates down, quantities and the pivot across) is
//! computed here as at render time, so a pivot that is no coordinate or written `columns` that
//! do not match the generated rows are reported at their line, not by LuaLaTeX.

use super::ctx::Ctx;
use super::refs::metric_names;
use crate::table_layout::check_format;
use crate::table_layout::{layout, DEFAULT_FORMAT};
use crate::tables::{records, width_error};
use fric_manifest::{TableFromMetrics, TableSpec};

/// Check `table.from_metrics` of the manifest under validation.
pub(in crate::load) fn check(cx: &mut Ctx, t: &TableSpec, f: &TableFromMetrics) {
    if let Some(Err(e)) = f.format.as_deref().map(check_format) {
        cx.err("table.from_metrics.format", e, ".Ng, .Ne or .Nf, e.g. .3g");
    }
    if f.metrics.is_empty() {
        cx.err(
            "table.from_metrics.metrics",
            "no metrics",
            "metric names, or {metric, at, as}",
        );
        return;
    }
    for (i, tm) in f.metrics.iter().enumerate() {
        let n = tm.metric();
        if cx.failed_metrics.contains(n) {
            return;
        }
        if !cx.m.metrics.iter().any(|x| x.name == n) {
            let allowed = metric_names(cx);
            cx.err(
                format!("table.from_metrics.metrics[{i}]"),
                format!("unknown metric `{n}`"),
                allowed,
            );
            return;
        }
    }
    // A failed run has no sweep members: the layout would be wrong, and the run is reported.
    if !cx.failed_runs.is_empty() {
        return;
    }
    let recs = match records(cx.m, &cx.sweeps, f, |_| None) {
        Ok(r) => r,
        Err(e) => return cx.err("table.from_metrics.metrics", e, "metrics of this manifest"),
    };
    match layout(&recs, f.pivot.as_deref(), DEFAULT_FORMAT) {
        Err(e) if e.starts_with("pivot") => {
            cx.err("table.from_metrics.pivot", e, "a sweep parameter or an `at` coordinate")
        }
        Err(e) => cx.err(
            "table.from_metrics.metrics",
            e,
            "one value per cell: records at distinct coordinates",
        ),
        Ok(l) if !t.columns.is_empty() && t.columns.len() != l.columns.len() => {
            let e = width_error(t.columns.len(), &l.columns);
            cx.err(
                "table.columns",
                e,
                format!("{} headers, or no `columns`", l.columns.len()),
            )
        }
        Ok(_) => {}
    }
}
