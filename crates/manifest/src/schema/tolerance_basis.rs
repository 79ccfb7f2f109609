//! What justifies a derived or claimed check's tolerance (issue 44; experiments/README.md,
//! "Tolerances from the source's digits"). A published value's digits bound its tolerance
//! (`printed`, checked by the loader); a `derived` value has no printed digits, so its
//! tolerance is either at solver precision or carries its derivation (a sampling bound, a
//! solver tolerance times a condition number, an ensemble's spread); a `claim`'s tolerance
//! names what in the text justifies it ("approximately", "close to", a printed bound).

use super::{CheckSpec, Op, Provenance, Tol};

/// A tolerance at or below this, relative to the expected value (absolute when the expected
/// value is 0), is at solver precision: the integrators run at rtol 1e-8…1e-12, so a check
/// this tight tests the computation, not a modelling allowance, and needs no reason.
pub const SOLVER_PRECISION: f64 = 1e-6;

impl CheckSpec {
    /// Whether this is a `derived` or `claim` check whose tolerance is looser than solver
    /// precision and says nothing of its basis (`tolerance_reason` empty or absent).
    /// `lt`/`gt` bounds are not tolerances and are not counted here.
    pub fn lacks_tolerance_basis(&self) -> bool {
        let sourced = matches!(self.provenance, Provenance::Derived(_) | Provenance::Claim { .. });
        let reasoned = self.tolerance_reason.as_deref().is_some_and(|r| !r.trim().is_empty());
        sourced && self.op == Op::Within && !reasoned && !self.at_solver_precision()
    }

    /// Whether the allowed deviation is at most [`SOLVER_PRECISION`] of the expected value
    /// (of 1 for an expected value of 0 or another metric's value).
    pub fn at_solver_precision(&self) -> bool {
        let tol = self.tol.unwrap_or(Tol { abs: None, rel: None });
        let scale = self.expected.number().map_or(1.0, f64::abs);
        let scale = if scale == 0.0 { 1.0 } else { scale };
        let allowed = tol.abs.unwrap_or(0.0).max(tol.rel.unwrap_or(0.0) * scale);
        allowed <= SOLVER_PRECISION * scale * (1.0 + 1e-9)
    }
}

#[cfg(test)]
mod tests {
    use crate::CheckSpec;

    /// A check as a manifest writes it (JSON, a subset of the YAML flow form).
    fn check(fields: &str) -> CheckSpec {
        serde_json::from_str(&format!(r#"{{"metric": "a", {fields}}}"#)).expect("a check")
    }

    #[test]
    fn a_derived_tolerance_above_solver_precision_needs_its_derivation() {
        let derived = r#""provenance": {"derived": "x"}"#;
        assert!(check(&format!(r#"{derived}, "expected": 0.4, "tol": {{"rel": 1e-3}}"#)).lacks_tolerance_basis());
        assert!(!check(&format!(r#"{derived}, "expected": 0.4, "tol": {{"rel": 1e-6}}"#)).lacks_tolerance_basis());
        assert!(!check(&format!(r#"{derived}, "expected": 0.4, "tol": {{"abs": 4e-7}}"#)).lacks_tolerance_basis());
        assert!(check(&format!(r#"{derived}, "expected": 0, "tol": {{"abs": 1e-3}}"#)).lacks_tolerance_basis());
        assert!(!check(&format!(r#"{derived}, "expected": 0, "tol": {{"abs": 1e-9}}"#)).lacks_tolerance_basis());
        let reasoned = format!(
            r#"{derived}, "expected": 0.4, "tol": {{"rel": 1e-3}}, "tolerance_reason": "400 samples per period: trapezoid error < 1e-4""#
        );
        assert!(!check(&reasoned).lacks_tolerance_basis());
        let blank = format!(r#"{derived}, "expected": 0.4, "tol": {{"rel": 1e-3}}, "tolerance_reason": " ""#);
        assert!(check(&blank).lacks_tolerance_basis(), "a blank reason is no reason");
        assert!(!check(&format!(r#"{derived}, "op": "lt", "expected": 0.4"#)).lacks_tolerance_basis());
    }

    #[test]
    fn a_claim_tolerance_names_its_text_and_a_published_one_is_left_to_its_digits() {
        let claim = r#""provenance": {"claim": {"kind": "shape", "lines": [1]}}"#;
        assert!(check(&format!(r#"{claim}, "expected": 1, "tol": {{"abs": 0.05}}"#)).lacks_tolerance_basis());
        let named =
            format!(r#"{claim}, "expected": 1, "tol": {{"abs": 0.05}}, "tolerance_reason": "'close to one' (L1)""#);
        assert!(!check(&named).lacks_tolerance_basis());
        let published =
            r#""provenance": {"published": {"line": 1, "printed": "1"}}, "expected": 1, "tol": {"abs": 0.5}"#;
        assert!(!check(published).lacks_tolerance_basis());
    }
}
