//! A check's report and its outcome, and the rule that decides it ([`judge`]).

use crate::explained::{Explained, Sensitivity};
use fric_manifest::{DiscrepancyKind, Op};
use serde::{Deserialize, Serialize};

fric_manifest::named_enum! {
    #[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
    pub enum Outcome {
        Pass = "pass",
        Fail = "fail",
        /// A check marked as a known discrepancy (of the kind its `discrepancy` says), failing as
        /// documented.
        KnownDiscrepancy = "known-discrepancy",
        /// Marked as a known discrepancy but now passing: the manifest needs updating.
        UnexpectedPass = "unexpected-pass",
        /// The metric could not be computed.
        Error = "error",
        /// A transcribed value (`transcribed` provenance) read back as written: shown, counted
        /// apart from passed checks.
        Transcribed = "transcribed",
    }
}

impl Outcome {
    pub fn is_failure(self) -> bool {
        matches!(self, Outcome::Fail | Outcome::UnexpectedPass | Outcome::Error)
    }
    /// The label the text reports print (`FAIL`, `known discrepancy`); report.json writes
    /// [`Outcome::name`].
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "FAIL",
            Outcome::KnownDiscrepancy => "known discrepancy",
            Outcome::UnexpectedPass => "UNEXPECTED PASS",
            Outcome::Error => "ERROR",
            Outcome::Transcribed => "transcribed",
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CheckReport {
    pub metric: String,
    /// `within`, `lt` or `gt`.
    pub op: Op,
    pub computed: Option<f64>,
    pub expected: f64,
    /// Allowed deviation for `within`.
    pub tolerance: Option<f64>,
    /// `published`, `derived`, `claim` or `transcribed`.
    pub provenance: String,
    /// Seed line(s) for published values and claims.
    pub lines: Vec<u32>,
    /// The derivation, the claim kind and text, or the quote.
    pub basis: String,
    pub outcome: Outcome,
    /// Whether the computed value meets the expectation (false for a known discrepancy too).
    pub pass: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known_discrepancy: Option<String>,
    /// The kind of the known discrepancy (with `known_discrepancy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discrepancy: Option<DiscrepancyKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Why the tolerance is what it is (the manifest's `tolerance_reason`: required above 5 %
    /// relative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance_reason: Option<String>,
    /// Where the check is written: `experiments/<doc>/<name>.yaml:<line>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The check under the alternative readings of the manifest's assumptions (none listed:
    /// absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sensitivity: Option<Sensitivity>,
    /// For a known discrepancy that declares parameters that could explain it: the value of
    /// each that reproduces the expected number, or that none in its range does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explained_by: Vec<Explained>,
}

/// Decide a check's outcome.
pub fn judge(op: Op, computed: Option<f64>, expected: f64, tolerance: Option<f64>, known_discrepancy: bool) -> Outcome {
    // A value that is not finite was never computed: no comparison with it means anything.
    let Some(c) = computed.filter(|c| c.is_finite()) else {
        return Outcome::Error;
    };
    let ok = match op {
        Op::Lt => c < expected,
        Op::Gt => c > expected,
        Op::Within => (c - expected).abs() <= tolerance.unwrap_or(0.0),
    };
    match (ok, known_discrepancy) {
        (true, false) => Outcome::Pass,
        (false, false) => Outcome::Fail,
        (false, true) => Outcome::KnownDiscrepancy,
        (true, true) => Outcome::UnexpectedPass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judging() {
        assert_eq!(judge(Op::Within, Some(1.0), 1.05, Some(0.1), false), Outcome::Pass);
        assert_eq!(judge(Op::Within, Some(1.0), 1.2, Some(0.1), false), Outcome::Fail);
        assert_eq!(
            judge(Op::Within, Some(1.0), 1.2, Some(0.1), true),
            Outcome::KnownDiscrepancy
        );
        assert_eq!(
            judge(Op::Within, Some(1.2), 1.2, Some(0.1), true),
            Outcome::UnexpectedPass
        );
        assert_eq!(judge(Op::Lt, Some(1.0), 2.0, None, false), Outcome::Pass);
        assert_eq!(judge(Op::Gt, Some(f64::NAN), 2.0, None, false), Outcome::Error);
        // A value that is not finite was never computed: an error under every operator.
        for v in [f64::INFINITY, f64::NEG_INFINITY] {
            for op in Op::ALL {
                assert_eq!(
                    judge(*op, Some(v), 2.0, Some(1e300), false),
                    Outcome::Error,
                    "{} {v}",
                    op.name()
                );
            }
        }
    }
}
