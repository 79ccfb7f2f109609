//! What justifies a derived or claimed check's tolerance (issue 44; experiments/README.md,
//! "Tolerances from the source's digits"). A published value's digits bound its tolerance
//! (`printed`, checked by the loader); a `derived` value has no printed digits, so its
//! tolerance is either at solver precision or carries its derivation (a sampling bound, a
//! solver tolerance times a condition number, an ensemble's spread); a `claim`'s tolerance
//! names what in the text justifies it ("approximately", "close to", a printed bound).
//! The same holds for the threshold of a derived or claimed `lt`/`gt` bound: a sign (threshold
//! 0) or another metric is the reading of the text's word ("positive", "larger than"), any other
//! number says where it comes from.

use super::{CheckSpec, Op, Provenance, Tol};

/// A tolerance at or below this, relative to the expected value (absolute when the expected
/// value is 0), is at solver precision: the integrators run at rtol 1e-8…1e-12, so a check
/// this tight tests the computation, not a modelling allowance, and needs no reason.
pub const SOLVER_PRECISION: f64 = 1e-6;

/// The kinds of basis a `tolerance_reason` names, as its first word(s) before a colon
/// (experiments/README.md, "Tolerances from the source's digits"): half the last printed
/// digit (`digits`), a derived bound with its derivation (`derived`), the spread of a
/// statistic over an ensemble or its samples (`ensemble`), the text's own words and how the
/// number follows from them (`claim`), or a tolerance kept as the check that fails, with that
/// first failure (`first failure`, known discrepancies only). A chosen number has no kind: the
/// former `closure:` (the retired 1 % criterion below, which the 42 `*_repeat`/`*_band` checks rested
/// on until 2026-12-06) is refused, as is a `derived:` reason resting on `CLOSURE_TOL`.
pub const BASIS_KINDS: [&str; 5] = ["digits", "derived", "ensemble", "claim", "first failure"];

/// The chosen closure criterion the project used until 2026-12-06: 1 % of a quantity's range,
/// once the basis of the 42 `*_repeat`/`*_band` checks (`closure:`) and the metric kinds' gate
/// (`CLOSURE_TOL`). Retired, named here only to refuse a reason resting on it: a check that a
/// limit-cycle value repeats is held to the floor its run resolves, derived per check
/// (experiments/README.md, "Closure floors"); a loop area or a period is quoted only where the
/// bound its cycle's openness leaves is within the tolerance of every check that reads it, and a
/// drawn period closes to one pixel of its panel (the pipeline's `closure_gate`).
pub const CLOSURE_CRITERION: f64 = 0.01;

/// Whether `text` states a number: a digit that does not continue a name or a line citation
/// (`σ0`, `k_s2`, `L400`, `(4.17)`'s digits count; `L400`'s do not).
fn states_a_number(text: &str) -> bool {
    let mut prev: Option<char> = None;
    for ch in text.chars() {
        // A digit after another digit continues a number (or a name) already judged.
        let starts = !prev.is_some_and(|p| p.is_alphanumeric() || p == '_');
        if ch.is_ascii_digit() && starts {
            return true;
        }
        prev = Some(ch);
    }
    false
}

impl CheckSpec {
    /// Whether this is a `derived` or `claim` check whose tolerance is looser than solver
    /// precision and says nothing of its basis (`tolerance_reason` empty or absent).
    /// `lt`/`gt` bounds are not tolerances: their thresholds are [`Self::lacks_threshold_basis`]'s.
    pub fn lacks_tolerance_basis(&self) -> bool {
        let sourced = matches!(self.provenance, Provenance::Derived(_) | Provenance::Claim { .. });
        let reasoned = self.tolerance_reason.as_deref().is_some_and(|r| !r.trim().is_empty());
        sourced && self.op == Op::Within && !reasoned && !self.at_solver_precision()
    }

    /// Whether this is a `derived` or `claim` bound (`lt`/`gt`) whose threshold is a number other
    /// than 0 and says nothing of its basis (`tolerance_reason` empty or absent). A threshold of
    /// 0 reads a sign ("positive", "clockwise") and a threshold that is another metric reads a
    /// comparison ("larger than"): the claim's words are their basis. An upper bound at most
    /// [`SOLVER_PRECISION`] of the quantity's own `scale` (two computations of one model differ
    /// by less than 1e-6 of the force they compute) tests the computation, as a `within` check
    /// at that precision does; without a declared scale no threshold is small by itself (1e-6
    /// is loose for a deflection of 1e-9 m). Any other number (a "small" read as 1e-3, "does
    /// not vanish" read as 0.5) is a choice, and says which: the text's bound with its line, or
    /// its derivation.
    pub fn lacks_threshold_basis(&self) -> bool {
        let sourced = matches!(self.provenance, Provenance::Derived(_) | Provenance::Claim { .. });
        let reasoned = self.tolerance_reason.as_deref().is_some_and(|r| !r.trim().is_empty());
        let precision = |t: f64| {
            self.op == Op::Lt && t > 0.0 && self.scale.is_some_and(|s| t <= SOLVER_PRECISION * s * (1.0 + 1e-9))
        };
        let chosen = self.expected.number().is_some_and(|t| t != 0.0 && !precision(t));
        sourced && self.op != Op::Within && chosen && !reasoned
    }

    /// Why this `within` check's `tolerance_reason` does not say what kind of basis its
    /// tolerance has, or `None` when it does (or the check has no reason, or is a bound). A
    /// reason opens with one of [`BASIS_KINDS`] and a colon (`derived: 400 samples per period
    /// …`) and states a number after it (a digit not part of a name or a line citation such as
    /// `σ0` or `L400`), so a bare percentage ("30 % allows the onsets") or a bare word fails
    /// (code review s52 L9). `first failure:`, a tolerance kept as the check that fails, is
    /// only for a known discrepancy.
    pub fn unnamed_tolerance_basis(&self) -> Option<String> {
        let reason = self.tolerance_reason.as_deref()?.trim();
        if self.op != Op::Within || reason.is_empty() {
            return None;
        }
        if reason.starts_with("closure:") {
            return Some(format!(
                "`closure:` (the retired chosen {CLOSURE_CRITERION} closure criterion) is no basis: derive the floor the run \
                 resolves (the sampling step at the extreme, a dwell's sample, the solver tolerance) or measure an \
                 ensemble's spread (experiments/README.md 'Closure floors'); a value above its floor is a cycle not \
                 yet closed, a known discrepancy"
            ));
        }
        let Some((kind, rest)) = BASIS_KINDS.iter().find_map(|k| {
            reason
                .strip_prefix(k)
                .and_then(|r| r.strip_prefix(':'))
                .map(|r| (*k, r))
        }) else {
            return Some(format!(
                "tolerance_reason does not open with its basis kind (one of {}, then a colon)",
                BASIS_KINDS.map(|k| format!("`{k}:`")).join(", ")
            ));
        };
        if !states_a_number(rest) {
            return Some(format!(
                "the `{kind}:` tolerance_reason states no number (a value, a bound or a measurement)"
            ));
        }
        if kind == "first failure" && self.discrepancy.is_none() {
            return Some("`first failure:` keeps a tolerance the check fails at: only for a known discrepancy".into());
        }
        if kind == "derived" && reason.contains("CLOSURE_TOL") {
            return Some(
                "a `derived:` tolerance_reason rests on CLOSURE_TOL, the metric kinds' retired chosen closure gate: a \
                 chosen rule is no derivation; derive the floor the run resolves (experiments/README.md 'Closure floors')"
                    .into(),
            );
        }
        None
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
    fn a_bound_other_than_a_sign_or_a_comparison_says_where_its_threshold_comes_from() {
        let claim = r#""provenance": {"claim": {"kind": "shape", "lines": [1]}}"#;
        assert!(check(&format!(r#"{claim}, "op": "gt", "expected": 0.5"#)).lacks_threshold_basis());
        assert!(check(r#""provenance": {"derived": "x"}, "op": "lt", "expected": 1e-3"#).lacks_threshold_basis());
        assert!(
            !check(&format!(r#"{claim}, "op": "gt", "expected": 0"#)).lacks_threshold_basis(),
            "a sign"
        );
        assert!(
            !check(&format!(r#"{claim}, "op": "lt", "expected": 1e-6, "scale": 1"#)).lacks_threshold_basis(),
            "solver precision of a quantity of scale 1"
        );
        assert!(
            !check(&format!(r#"{claim}, "op": "lt", "expected": 3e-8, "scale": 0.035"#)).lacks_threshold_basis(),
            "1e-6 of a peak force of 0.035 N"
        );
        assert!(
            check(&format!(r#"{claim}, "op": "lt", "expected": 1e-7, "scale": 1e-9"#)).lacks_threshold_basis(),
            "1e-7 is a hundred times a quantity of scale 1e-9: a choice, not precision"
        );
        assert!(
            check(&format!(r#"{claim}, "op": "lt", "expected": 1e-7"#)).lacks_threshold_basis(),
            "no threshold is small without the scale it is small against"
        );
        assert!(
            check(&format!(r#"{claim}, "op": "gt", "expected": 1e-6"#)).lacks_threshold_basis(),
            "a lower bound is no precision"
        );
        assert!(check(&format!(r#"{claim}, "op": "lt", "expected": 2e-6, "scale": 1"#)).lacks_threshold_basis());
        assert!(
            !check(&format!(r#"{claim}, "op": "lt", "expected": {{"metric": "b"}}"#)).lacks_threshold_basis(),
            "a comparison"
        );
        let named = format!(r#"{claim}, "op": "gt", "expected": 0.5, "tolerance_reason": "'more than half' (L1)""#);
        assert!(!check(&named).lacks_threshold_basis());
        let blank = format!(r#"{claim}, "op": "gt", "expected": 0.5, "tolerance_reason": " ""#);
        assert!(check(&blank).lacks_threshold_basis(), "a blank reason is no reason");
        assert!(
            !check(&format!(r#"{claim}, "expected": 0.5, "tol": {{"abs": 1e-9}}"#)).lacks_threshold_basis(),
            "not a bound"
        );
        let published = r#""provenance": {"published": {"line": 1, "printed": "1"}}, "op": "lt", "expected": 1"#;
        assert!(
            !check(published).lacks_threshold_basis(),
            "a printed bound is the source's"
        );
    }

    #[test]
    fn a_tolerance_reason_names_its_basis_kind_and_a_number() {
        let derived = r#""provenance": {"derived": "x"}, "expected": 0.4, "tol": {"rel": 0.3}"#;
        let with = |reason: &str| check(&format!(r#"{derived}, "tolerance_reason": "{reason}""#));
        let bare = with("30 % allows the damped onsets").unnamed_tolerance_basis();
        assert!(bare.is_some_and(|m| m.contains("does not open with its basis kind")));
        assert!(with("derived: 30 % allows the damped onsets")
            .unnamed_tolerance_basis()
            .is_none());
        let wordy = with("derived: allows the damped onsets (L607)").unnamed_tolerance_basis();
        assert!(
            wordy.is_some_and(|m| m.contains("states no number")),
            "a line citation is no number"
        );
        assert!(
            with("derived: σ0 and k_s2 only").unnamed_tolerance_basis().is_some(),
            "names are no numbers"
        );
        assert!(
            with("Derived: 3e-5").unnamed_tolerance_basis().is_some(),
            "the kind as written"
        );
        assert!(with("derived 3e-5").unnamed_tolerance_basis().is_some(), "the colon");
        assert!(with("ensemble: spread 2.1e-3 over 20 seeds")
            .unnamed_tolerance_basis()
            .is_none());
        let kept = with("first failure: ±3 %, measured +3.8 %").unnamed_tolerance_basis();
        assert!(kept.is_some_and(|m| m.contains("only for a known discrepancy")));
        let kd = format!(
            r#"{derived}, "tolerance_reason": "first failure: ±3 %, measured +3.8 %", "discrepancy": "unresolved", "known_discrepancy": "x""#
        );
        assert!(check(&kd).unnamed_tolerance_basis().is_none());
        assert!(
            check(derived).unnamed_tolerance_basis().is_none(),
            "no reason: lacks_tolerance_basis's case"
        );
        let repeat = |tol: &str, reason: &str| {
            check(&format!(
                r#""provenance": {{"derived": "x"}}, "expected": 0, "tol": {tol}, "tolerance_reason": "{reason}""#
            ))
        };
        // The chosen criterion is no basis, under its own name or any other (issue 44 item 4).
        let closure = repeat(r#"{"abs": 0.01}"#, "closure: CLOSURE_TOL = 1 %").unnamed_tolerance_basis();
        assert!(
            closure.is_some_and(|m| m.contains("is no basis") && m.contains("Closure floors")),
            "the chosen 1 % closure criterion is refused"
        );
        let floor = repeat(
            r#"{"abs": 5.9e-4}"#,
            "derived: the sampling floor: 2.69e-4 N·m per 1 ms sample beside the peak, over 0.46 N·m: 5.9e-4",
        );
        assert!(floor.unnamed_tolerance_basis().is_none(), "a derived floor");
        let as_derived = repeat(r#"{"abs": 0.01}"#, "derived: CLOSURE_TOL = 1 %").unnamed_tolerance_basis();
        assert!(
            as_derived.is_some_and(|m| m.contains("no derivation")),
            "the chosen criterion labelled derived"
        );
        assert!(
            repeat(r#"{"abs": 0.02}"#, "closure: 2 %")
                .unnamed_tolerance_basis()
                .is_some(),
            "refused at any width"
        );
        assert!(
            repeat(r#"{"rel": 0.01}"#, "closure: 1 %")
                .unnamed_tolerance_basis()
                .is_some(),
            "refused in any form"
        );
        assert!(
            with("closure: 1 %").unnamed_tolerance_basis().is_some(),
            "not a repeat expected 0"
        );
        let bound = r#""provenance": {"derived": "x"}, "op": "lt", "expected": 0.4, "tolerance_reason": "small""#;
        assert!(
            check(bound).unnamed_tolerance_basis().is_none(),
            "a threshold is not a tolerance"
        );
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
