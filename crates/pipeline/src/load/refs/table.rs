//! Table cells that refer to metrics, and rows generated from metric tables.

use super::metrics::{metric_names, metric_ref};
use super::Ctx;

/// Table cells that refer to metrics, and rows generated from metric tables.
pub(in crate::load) fn table(cx: &mut Ctx) {
    let Some(t) = &cx.m.table else { return };
    let cells = t.rows.iter().enumerate().flat_map(|(i, r)| {
        r.iter()
            .enumerate()
            .map(move |(j, c)| (format!("table.rows[{i}][{j}]"), c))
    });
    // Notes may also quote parameters: checked with the captions (`load/quotes.rs`).
    for (at, cell) in cells {
        {
            match crate::quote::cell_refs(cell) {
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
    if let Some(f) = &t.from_metrics {
        crate::load::table_metrics::check(cx, t, f);
    }
}
