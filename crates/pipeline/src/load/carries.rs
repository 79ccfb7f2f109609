//! What the status rule reads from a manifest at load time (experiments/README.md, "Status:
//! the rule"): every assumption declares what it carries, with the text its class requires,
//! and the status of a study of one's own does not claim reproduction.

use super::ctx::Ctx;
use fric_manifest::run_ref::RunRef;
use fric_manifest::{Assumption, Carries, Manifest, Status};
use std::collections::HashMap;

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
                c.name()
            )
        } else {
            format!(
                "`supplies:` goes only with `carries: unstated-parameter` or `unstated-input`, not `{}`",
                c.name()
            )
        };
        return Some((".supplies", msg, "supplies: \"the input amplitude, L1318\"".into()));
    }
    if (c == Carries::Replaced) != text(&a.replaces) {
        let msg = if c == Carries::Replaced {
            "`carries: replaced` needs `replaces:` (the stated quantity, with its seed line)".to_string()
        } else {
            format!("`replaces:` goes only with `carries: replaced`, not `{}`", c.name())
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
            s.name()
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

/// An assumption with `settles:` answers one inherited assumption by name: it is `implied`,
/// names (`runs:`) only runs taken by `from:`, and the manifest of each such run has an
/// assumption with that `what` that supplies an unstated value of the run; an inherited
/// `replaced` cannot be settled (the source states another value). Refused at its line.
pub(super) fn settles(cx: &mut Ctx, by_id: &HashMap<&str, &Manifest>) {
    for (i, a) in cx.m.assumptions.iter().enumerate() {
        let Some(what) = a.settles.as_deref() else { continue };
        let at = format!("assumptions[{i}].settles");
        if a.carries != Some(Carries::Implied) {
            let msg =
                "`settles:` goes only with `carries: implied` (the source states or implies the value for this case)";
            cx.err(at, msg, "carries: implied");
            continue;
        }
        let ids = a.runs.as_ref().map(|r| r.ids()).unwrap_or_default();
        if ids.is_empty() {
            let msg = "`settles:` needs `runs:` naming the runs taken by `from:` whose inherited assumption it answers";
            cx.err(at, msg, "runs: [<run taken by from:>]");
            continue;
        }
        for id in ids {
            let from = cx.m.runs.iter().find(|r| r.id == id).and_then(|r| r.from.as_deref());
            let Some(taken) = from.and_then(RunRef::parse) else {
                let msg = format!(
                    "`settles:` names run `{id}`, which is not taken by `from:`: it inherits nothing to settle"
                );
                cx.err(at.clone(), msg, "runs: the runs taken by `from:`");
                continue;
            };
            // A missing owner is the `from:` error of the run.
            let (mid, rid) = (taken.manifest, taken.run);
            let Some(owner) = by_id.get(mid) else { continue };
            let found = owner.assumptions.iter().find(|o| {
                o.what == what
                    && o.carries.is_some_and(Carries::blocks_reproduced)
                    && o.runs.as_ref().is_none_or(|r| r.ids().contains(&rid))
            });
            let inherited: Vec<String> = owner
                .assumptions
                .iter()
                .filter(|o| {
                    matches!(o.carries, Some(Carries::UnstatedParameter | Carries::UnstatedInput))
                        && o.runs.as_ref().is_none_or(|r| r.ids().contains(&rid))
                })
                .map(|o| format!("\"{}\"", o.what))
                .collect();
            let allowed = if inherited.is_empty() {
                format!("`{taken}` brings no unstated-parameter or unstated-input assumption")
            } else {
                format!("settles: one of {}", inherited.join(", "))
            };
            match found {
                None => {
                    let msg =
                        format!("`settles: \"{what}\"` names no assumption of `{mid}` that the run `{taken}` brings");
                    cx.err(at.clone(), msg, allowed);
                }
                Some(o) if o.carries == Some(Carries::Replaced) => {
                    let msg = format!(
                        "`settles: \"{what}\"` answers a `replaced` assumption of `{mid}`: the source states another value, which no implied statement settles"
                    );
                    cx.err(at.clone(), msg, allowed);
                }
                Some(_) => {}
            }
        }
    }
}

/// Every `not_built` entry says what is not built and cites its seed line (`L<n>`, n ≥ 1):
/// a bare or unsourced entry would silence the status rule's reverse check.
pub(super) fn not_built(cx: &mut Ctx) {
    for (i, n) in cx.m.not_built.iter().enumerate() {
        let cited = n.match_indices('L').any(|(k, _)| {
            let before = n[..k].chars().next_back();
            let digits: String = n[k + 1..].chars().take_while(char::is_ascii_digit).collect();
            before.is_none_or(|c| !c.is_alphanumeric()) && digits.parse::<u64>().is_ok_and(|l| l >= 1)
        });
        let text = n.split(|c: char| !c.is_alphabetic()).filter(|w| w.len() > 1).count();
        if !cited || text == 0 {
            let msg = format!(
                "`not_built` entry {:?} must say what of the source is not built and cite its seed line (`L<n>`)",
                n
            );
            cx.err(
                format!("not_built[{i}]"),
                msg,
                "not_built: [\"the measured curve, L1661\"]",
            );
        }
    }
}
