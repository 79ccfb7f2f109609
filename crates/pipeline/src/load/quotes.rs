//! Quotes in captions, panel titles and table notes (`{{ name }}`, `{{ name | fmt(".3g") }}`,
//! [`crate::quote`]): each names a metric of the manifest or a run parameter with one value,
//! else the error at its line lists what may be quoted.

use super::ctx::Ctx;
use super::refs::{metric_names, metric_ref};
use crate::quote::cell_refs;
use crate::quote::{param_names, param_value};

/// The texts that may quote, with their paths.
fn quoting_texts(cx: &Ctx) -> Vec<(String, String)> {
    let m = cx.m;
    let mut out = vec![("source.caption".to_string(), m.source.caption.clone())];
    for (i, p) in m.panels.iter().enumerate() {
        out.extend(p.title.clone().map(|t| (format!("panels[{i}].title"), t)));
    }
    if let Some(t) = &m.table {
        out.extend(
            t.notes
                .iter()
                .enumerate()
                .map(|(i, n)| (format!("table.notes[{i}]"), n.clone())),
        );
    }
    out
}

/// Check every quote of the manifest under validation.
pub(super) fn check_quotes(cx: &mut Ctx) {
    for (at, text) in quoting_texts(cx) {
        let refs = match cell_refs(&text) {
            Ok(r) => r,
            Err((msg, allowed)) => {
                cx.err(at, msg, allowed);
                continue;
            }
        };
        for r in refs {
            if metric_ref(cx, &r.metric).is_some() {
                continue;
            }
            // A failed run has no resolved parameters: its own error is reported.
            if !cx.failed_runs.is_empty() {
                continue;
            }
            if let Err(e) = param_value(&cx.runs, &r.metric) {
                let allowed = format!("metrics {}; {}", metric_names(cx), param_names(&cx.runs));
                cx.err(at.clone(), format!("quote `{{{{ {} }}}}`: {e}", r.metric), allowed);
            }
        }
    }
}
