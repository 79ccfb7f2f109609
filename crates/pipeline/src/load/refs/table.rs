//! Table cells that refer to metrics, and rows generated from metric tables.

use super::metrics::{metric_names, metric_ref};
use super::panels::swept_run_of;
use super::Ctx;

/// Table cells that refer to metrics, and rows generated from metric tables.
pub(in crate::load) fn table(cx: &mut Ctx) {
    let Some(t) = &cx.m.table else { return };
    let cells = t.rows.iter().enumerate().flat_map(|(i, r)| {
        r.iter()
            .enumerate()
            .map(move |(j, c)| (format!("table.rows[{i}][{j}]"), c))
    });
    let notes = t
        .notes
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("table.notes[{i}]"), n));
    for (at, cell) in cells.chain(notes) {
        {
            match crate::tables::cell_refs(cell) {
                Err((msg, allowed)) => cx.err(at, msg, allowed),
                Ok(refs) => {
                    for r in refs {
                        if metric_ref(cx, &r.metric).is_none() {
                            let allowed = metric_names(cx);
                            cx.err(
                                at.clone(),
                                format!("unknown metric `{}` in the cell", r.metric),
                                allowed,
                            );
                        }
                    }
                }
            }
        }
    }
    let Some(f) = &t.from_metrics else { return };
    if let Some(Err(e)) = f.format.as_deref().map(crate::tables::check_format) {
        cx.err("table.from_metrics.format", e, ".Ng, .Ne or .Nf, e.g. .3g");
    }
    if f.metrics.is_empty() {
        cx.err("table.from_metrics.metrics", "no metrics", "metrics over one swept run");
    }
    let mut run: Option<String> = None;
    for (i, n) in f.metrics.iter().enumerate() {
        let at = format!("table.from_metrics.metrics[{i}]");
        if cx.failed_metrics.contains(n) {
            return;
        }
        if !cx.m.metrics.iter().any(|x| x.name == *n) {
            let allowed = metric_names(cx);
            cx.err(at, format!("unknown metric `{n}`"), allowed);
            return;
        }
        match (swept_run_of(cx.m, &cx.sweeps, n, 0), &run) {
            (None, _) => {
                cx.err(
                    at,
                    format!("metric `{n}` is not over a swept run"),
                    "metrics whose `run` is a swept id",
                );
                return;
            }
            (Some(r), Some(first)) if r != *first => {
                cx.err(
                    at,
                    format!("metric `{n}` is over `{r}`, the first over `{first}`"),
                    "metrics over one swept run",
                );
                return;
            }
            (Some(r), _) => run = Some(r),
        }
    }
    if let (Some(r), false) = (run, t.columns.is_empty()) {
        let params = cx.sweeps[&r].first().map_or(0, |(_, c)| c.len());
        let want = params + f.metrics.len();
        if t.columns.len() != want {
            cx.err(
                "table.columns",
                format!("{} columns; the generated rows have {want} cells", t.columns.len()),
                format!(
                    "{params} swept parameters then {} metrics (or leave `columns` out)",
                    f.metrics.len()
                ),
            );
        }
    }
}
