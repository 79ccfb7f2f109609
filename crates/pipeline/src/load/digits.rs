//! Tolerances from the source's digits (experiments/README.md, "Tolerances from the source's
//! digits"; issue 44, item 4): a published value records the number as printed, and a
//! `within` check's tolerance may not be looser than half a unit of its last digit unless the
//! check says why in `tolerance_reason`. The printed number must occur in the check's quote
//! (typographic variants allowed, [`fric_manifest::PRINTED_IN_QUOTE`]).

use super::ctx::Ctx;
use fric_manifest::{
    printed_in_quote, quoted_sign, CheckSpec, Op, Printed, Provenance, PRINTED_ALLOWED, PRINTED_IN_QUOTE,
};

/// Relative slack on the comparison of a tolerance with the digits' half unit (the two are
/// written as decimals, e.g. `abs: 0.00005` against 0.5 × 10⁻⁴ computed).
const SLACK: f64 = 1e-6;

/// Every published check: its printed value reads as a number, and its tolerance is what the
/// digits justify or is explained.
pub(super) fn published_digits(cx: &mut Ctx) {
    for (i, c) in cx.m.checks.iter().enumerate() {
        if let Some((field, msg, allowed)) = problem(c) {
            cx.err(format!("checks[{i}]{field}"), msg, allowed);
        }
    }
}

/// What is wrong with one check's digits: (path suffix, message, allowed).
fn problem(c: &CheckSpec) -> Option<(&'static str, String, String)> {
    let Provenance::Published { printed, line, quote } = &c.provenance else {
        return None;
    };
    let expected = c.expected.number().filter(|_| c.op == Op::Within);
    let printed = match (printed, expected) {
        (Some(p), _) => p,
        // A value not printed as a decimal (a word, a formula) explains its tolerance in words.
        (None, None) => return None,
        (None, Some(_)) if has_reason(c) => return None,
        (None, Some(_)) => {
            let msg = format!(
                "a published value records the number as printed at line {line} (`printed:`), so that its digits bound the tolerance (or, printed as a word or formula, says in `tolerance_reason` what bounds it)"
            );
            return Some((
                ".provenance",
                msg,
                format!("published: {{line: {line}, quote: \"… 0.740 …\", printed: \"0.740\"}}"),
            ));
        }
    };
    let p = match Printed::parse(printed) {
        Ok(p) => p,
        Err(e) => return Some((".provenance", e, PRINTED_ALLOWED.into())),
    };
    if let Some(problem) = unquoted(printed, quote.as_deref(), *line) {
        return Some((".provenance", problem, PRINTED_IN_QUOTE.into()));
    }
    let expected = expected?;
    if let Some(problem) = unsigned(printed, quote.as_deref(), expected, *line) {
        return Some((".expected", problem, PRINTED_IN_QUOTE.into()));
    }
    if has_reason(c) {
        return None;
    }
    let tol = c.tol.map_or(0.0, |t| t.allowed(expected));
    match p.allowed(expected) {
        None => Some((
            ".tolerance_reason",
            format!(
                "expected {expected} is not the printed `{printed}` in any unit (± {printed} × 10^k), so its digits cannot bound the tolerance: say in `tolerance_reason` how it follows from them"
            ),
            "tolerance_reason: \"0.66 = 1 − 34 %, printed to the percent: ±0.005\"".into(),
        )),
        Some(d) if tol > d * (1.0 + SLACK) => Some((
            ".tol",
            format!(
                "tolerance ±{tol:e} is looser than the digits of `{printed}` justify (±{d:e}, half a unit of the last printed digit): tighten it, or say why in `tolerance_reason`"
            ),
            format!("tol: {{abs: {d:e}}}, or a tolerance_reason"),
        )),
        Some(_) => None,
    }
}

/// Why `printed` is not shown to be the source's number: no quote to find it in, or a quote
/// that does not print it.
fn unquoted(printed: &str, quote: Option<&str>, line: u32) -> Option<String> {
    match quote {
        None => Some(format!(
            "`printed: \"{printed}\"` needs the words of line {line} that print it (`quote:`), so that a reader and the loader can see the number is the source's"
        )),
        Some(q) if !printed_in_quote(printed, q) => Some(format!(
            "`printed: \"{printed}\"` does not occur in the quote of line {line} (\"{q}\"): copy the number as the seed line prints it, or quote the words that print it"
        )),
        Some(_) => None,
    }
}

/// Why `expected` contradicts the sign the quote prints on an unsigned `printed` (review L5:
/// `0.553` recorded from `(−1, −0.553)` with `expected: 0.553`): a magnitude keeps the
/// source's sign in `expected`.
fn unsigned(printed: &str, quote: Option<&str>, expected: f64, line: u32) -> Option<String> {
    let sign = quoted_sign(printed, quote?)?;
    (expected.is_sign_negative() != (sign == '-')).then(|| {
        format!(
            "expected {expected} has not the sign line {line} prints on `{printed}` (`{sign}{printed}`): give `expected` that sign, or record the signed number in `printed`"
        )
    })
}

/// Whether the check explains its tolerance in words.
fn has_reason(c: &CheckSpec) -> bool {
    c.tolerance_reason.as_deref().is_some_and(|r| !r.trim().is_empty())
}
