//! What checks refer to: their metrics and the provenance of their expected values.

use super::metrics::{metric_names, metric_ref};
use super::Ctx;
use fric_manifest::{Op, Provenance};

pub(in crate::load) fn checks(cx: &mut Ctx) {
    let m = cx.m;
    for (i, c) in m.checks.iter().enumerate() {
        let at = format!("checks[{i}]");
        if metric_ref(cx, &c.metric).is_none() {
            let allowed = metric_names(cx);
            cx.err(
                format!("{at}.metric"),
                format!("unknown metric `{}`", c.metric),
                allowed,
            );
        }
        if let Some(other) = c.expected.metric() {
            if metric_ref(cx, other).is_none() {
                let allowed = metric_names(cx);
                cx.err(
                    format!("{at}.expected.metric"),
                    format!("unknown metric `{other}`"),
                    allowed,
                );
            }
            if !c.explain.is_empty() {
                cx.err(
                    format!("{at}.explain"),
                    "`explain` solves for a number: this check's expected value is a metric",
                    "expected: <number> with explain, or no explain",
                );
            }
        }
        if c.op == Op::Within && c.tol.is_none_or(|t| t.abs.is_none() && t.rel.is_none()) {
            cx.err(
                format!("{at}.tol"),
                "a `within` check needs a tolerance",
                "tol: {abs: ...} or {rel: ...}",
            );
        }
        match &c.provenance {
            Provenance::Published { line: 0, .. } => cx.err(
                format!("{at}.provenance"),
                "a published value needs its seed line",
                "published: {line: N}",
            ),
            Provenance::Transcribed { line: 0, .. } => cx.err(
                format!("{at}.provenance"),
                "a transcribed value needs its seed line",
                "transcribed: {line: N}",
            ),
            Provenance::Derived(d) if d.trim().is_empty() => cx.err(
                format!("{at}.provenance"),
                "a derived value needs its derivation",
                "derived: \"<one line>\"",
            ),
            Provenance::Claim { lines, .. } if lines.is_empty() => cx.err(
                format!("{at}.provenance"),
                "a claim needs its seed lines",
                "claim: {kind, lines: [N]}",
            ),
            _ => {}
        }
    }
}
