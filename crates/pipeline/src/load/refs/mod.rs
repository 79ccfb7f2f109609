//! The registry fields, and what panels, metrics and checks refer to: runs, their columns,
//! earlier metrics. References to a run or metric that is itself invalid are skipped: its own
//! error is the one to fix. One file per concern: the registry fields and the shared look-ups
//! here, then `math_text.rs`, `panels.rs`, `marks.rs` (series of a find's or fit's result), `metrics.rs`, `table.rs`, `checks.rs`.

mod checks;
mod marks;
mod math_text;
mod metrics;
mod panels;
mod table;

pub(super) use checks::checks;
pub(super) use metrics::metrics;
pub(super) use metrics::{metric_names, metric_ref};
pub(super) use panels::{panels, swept_run_of};
pub(super) use table::table;

use super::ctx::Ctx;
use fric_manifest::member::base_of;
use fric_manifest::{Kind, Status, Window};
use math_text::math_text;

/// Identity and registry fields.
pub(super) fn registry(cx: &mut Ctx) {
    let m = cx.m;
    let expected_id = cx
        .file
        .trim_start_matches("experiments/")
        .trim_end_matches(".yaml")
        .trim_end_matches(".yml");
    if m.id != expected_id {
        let msg = format!("id `{}` does not match the file path", m.id);
        cx.err("id", msg, format!("id: {expected_id}"));
    }
    let doc = expected_id.split('/').next().unwrap_or("");
    if m.source.document != doc {
        let msg = format!("document `{}` does not match the directory `{doc}`", m.source.document);
        cx.err("source.document", msg, doc);
    }
    if m.source.lines.contains(&0) || (cx.has_text && m.source.lines.is_empty()) {
        cx.err(
            "source.lines",
            "source lines must be a non-empty list of seed line numbers (1-based) for a document with a source text",
            "lines: [caption line, ...]",
        );
    }
    if m.source.caption.trim().is_empty() {
        cx.err("source.caption", "empty caption", "the caption text from the seed");
    }
    math_text(cx);
    if !matches!(m.status, Status::Reproduced | Status::Computed)
        && m.reason.as_deref().is_none_or(|r| r.trim().is_empty())
    {
        let msg = format!("status `{}` needs a `reason`", m.status.name());
        cx.err("status", msg, "reason: why it is not reproduced");
    }
    for (i, a) in m.assumptions.iter().enumerate() {
        if a.what.trim().is_empty() || a.why.trim().is_empty() {
            cx.err(
                format!("assumptions[{i}]"),
                "an assumption needs both `what` and `why`",
                "{what: ..., why: ...}",
            );
        }
    }
    // Not when the kind or status was itself invalid (a stand-in is in its place).
    if m.status.is_built() && !cx.doc.is_knock_on("kind") && !cx.doc.is_knock_on("status") {
        match m.kind {
            // With `panels_from`, a missing reference is reported there.
            Kind::Figure if m.panels.is_empty() && m.panels_from.is_none() => {
                cx.err("panels", "a reproduced figure needs panels", "panels: [...]")
            }
            // Reported at `status`; not when the table was dropped as invalid.
            Kind::Table if m.table.is_none() && !cx.doc.is_knock_on("table") => cx.err(
                "status",
                "a reproduced table needs a `table`",
                "table: {columns, rows, lines}",
            ),
            _ => {}
        }
    }
    if let Some(t) = &m.table {
        if t.columns.is_empty() && (t.from_metrics.is_none() || !t.rows.is_empty()) {
            cx.err(
                "table",
                "a table needs `columns`",
                "columns: [...] (left out only with from_metrics and no rows)",
            );
        }
        for (i, r) in t.rows.iter().enumerate() {
            if !t.columns.is_empty() && r.len() != t.columns.len() {
                cx.err(
                    format!("table.rows[{i}]"),
                    format!("row has {} cells, the table has {} columns", r.len(), t.columns.len()),
                    format!("{} cells", t.columns.len()),
                );
            }
        }
    }
}

impl Ctx<'_> {
    /// Whether a reference (`id`, `id[k]`) names a run that is invalid itself.
    fn run_failed(&self, run: &str) -> bool {
        self.failed_runs.contains(base_of(run))
    }

    /// The columns of a run (a swept run's are its first member's).
    fn columns_of(&self, run: &str) -> Option<Vec<String>> {
        let id = if self.runs.contains_key(run) {
            run.to_string()
        } else {
            self.sweeps.get(run)?.first()?.0.clone()
        };
        let r = self.runs.get(&id)?;
        let sys = fric_experiments::system(&r.request.system)?;
        let cols = sys.columns.iter().map(|c| c.0.to_string());
        Some(cols.chain(r.post.iter().map(|p| p.name.clone())).collect())
    }

    pub(in crate::load) fn run_ids(&self) -> String {
        let ids: Vec<&str> = self.runs.keys().chain(self.sweeps.keys()).map(|s| s.as_str()).collect();
        ids.join(", ")
    }

    pub(in crate::load) fn check_col(&mut self, path: String, run: &str, col: &str) {
        if let Some(cols) = self.columns_of(run) {
            if !cols.iter().any(|c| c == col) {
                self.err(path, format!("run `{run}` has no column `{col}`"), cols.join(", "));
            }
        }
    }

    fn check_window(&mut self, path: String, w: &Option<Window>) {
        if let Some(Window::Periods { periods: [a, b] } | Window::Time { t: [a, b] }) = w {
            if !(a < b) {
                self.err(path, format!("empty window [{a}, {b}]"), "[a, b] with a < b");
            }
        }
    }
}
