//! What the status rule reads from a manifest at load time (experiments/README.md, "Status:
//! the rule"): every assumption declares what it carries, with the text its class requires,
//! and the status of a study of one's own does not claim reproduction.

use super::ctx::Ctx;
use fric_manifest::{Assumption, Carries, Status};

/// Every assumption declares `carries:`; `supplies:` goes with (and only with) a class that
/// supplies an unstated value, `replaces:` with (and only with) `replaced`.
pub(super) fn assumptions(cx: &mut Ctx) {
    for (i, a) in cx.m.assumptions.iter().enumerate() {
        let known: Vec<&str> = cx.m.runs.iter().map(|r| r.id.as_str()).collect();
        if let Some((field, msg, allowed)) = problem(a) {
            cx.err(format!("assumptions[{i}]{field}"), msg, allowed);
        } else if let Some(bad) = a
            .runs
            .as_ref()
            .and_then(|r| r.ids().into_iter().find(|id| !known.contains(id)))
        {
            let msg = format!("`runs:` names `{bad}`, not a run of this manifest");
            cx.err(format!("assumptions[{i}].runs"), msg, known.join(", "));
        } else if (a.carries == Some(Carries::Design)) != cx.own_study {
            let msg = if cx.own_study {
                "a study of one's own has no source to state or leave open a value: its choices carry `design`"
            } else {
                "`carries: design` is for a study of one's own (a document with `source: none`)"
            };
            cx.err(
                format!("assumptions[{i}].carries"),
                msg,
                format!("carries: one of {}", Carries::allowed()),
            );
        }
    }
}

/// What is wrong with one assumption's declaration: (path suffix, message, allowed).
fn problem(a: &Assumption) -> Option<(&'static str, String, String)> {
    let Some(c) = a.carries else {
        return Some((
            "",
            "an assumption must declare what it carries (`carries:`), so that the status rule can read it".into(),
            format!("carries: one of {}", Carries::allowed()),
        ));
    };
    let text = |t: &Option<String>| t.as_deref().is_some_and(|s| !s.trim().is_empty());
    if c.supplies() != text(&a.supplies) {
        let msg = if c.supplies() {
            format!(
                "`carries: {}` needs `supplies:` (the value the source does not state, with the silent seed line)",
                c.as_str()
            )
        } else {
            format!(
                "`supplies:` goes only with `carries: unstated-parameter` or `unstated-input`, not `{}`",
                c.as_str()
            )
        };
        return Some((".supplies", msg, "supplies: \"the input amplitude, L1318\"".into()));
    }
    if (c == Carries::Replaced) != text(&a.replaces) {
        let msg = if c == Carries::Replaced {
            "`carries: replaced` needs `replaces:` (the stated quantity, with its seed line)".to_string()
        } else {
            format!("`replaces:` goes only with `carries: replaced`, not `{}`", c.as_str())
        };
        return Some((
            ".replaces",
            msg,
            "replaces: \"ω = 1 rad/s of the caption, L1580\"".into(),
        ));
    }
    None
}

/// A document declared as a study of one's own (`source: none`) reproduces nothing: its built
/// manifests are `computed`, and only its manifests may be.
pub(super) fn own_study(cx: &mut Ctx) {
    let s = cx.m.status;
    if cx.own_study && matches!(s, Status::Reproduced | Status::Partial | Status::NotReproducible) {
        let msg = format!(
            "status `{}` claims (or denies) a reproduction, but the document is a study of one's own (`source: none` in its document.yaml)",
            s.as_str()
        );
        cx.err("status", msg, "status: computed (or pending)");
    } else if !cx.own_study && s == Status::Computed {
        let msg = "status `computed` is for a study of one's own (a document with `source: none`); this document has a source";
        cx.err(
            "status",
            msg,
            "status: reproduced, partial, pending or not-reproducible",
        );
    }
}
