//! Tolerances from the source's digits (issue 44, item 4): every `within` check whose tolerance
//! allows more than 5 % of its expected value says why in `tolerance_reason` (half the last
//! printed digit, a derived bound, an ensemble's spread, or a first failure kept as evidence).

mod common;

use fric_manifest::CheckSpec;

/// `experiments/<doc>/<name>.yaml: check on `metric` (expected e, ±r %)` for every check of
/// the project's manifests that needs a tolerance reason and has none.
fn unjustified(loaded: &fric_pipeline::load::Loaded) -> Vec<String> {
    let mut out = Vec::new();
    for e in &loaded.entries {
        for c in e.manifest.checks.iter().filter(|c| c.lacks_tolerance_reason()) {
            let rel = c.relative_tolerance().unwrap_or(f64::NAN);
            out.push(format!(
                "{}: check on `{}` (expected {:?}, ±{:.1} %) has no tolerance_reason",
                e.file,
                c.metric,
                c.expected,
                100.0 * rel
            ));
        }
    }
    out
}

#[test]
fn every_tolerance_above_five_percent_is_justified() {
    let loaded = fric_pipeline::load(&common::repo());
    assert!(loaded.entries.len() > 200, "the project's manifests were not found");
    let missing = unjustified(&loaded);
    assert!(missing.is_empty(), "{} checks:\n{}", missing.len(), missing.join("\n"));
}

#[test]
fn the_rule_counts_relative_tolerances_and_skips_bounds() {
    // A check as its manifest writes it (JSON, a subset of the YAML flow form).
    let check = |fields: &str| -> CheckSpec {
        serde_json::from_str(&format!(
            r#"{{"metric": "a", "provenance": {{"derived": "x"}}, {fields}}}"#
        ))
        .expect("a check")
    };
    let loose = check(r#""expected": 0.4, "tol": {"rel": 0.2}"#);
    assert!(loose.lacks_tolerance_reason());
    let abs = check(r#""expected": 0.4, "tol": {"abs": 0.05}"#);
    assert!(abs.lacks_tolerance_reason(), "abs 0.05 of 0.4 is 12.5 %");
    let justified =
        check(r#""expected": 0.4, "tol": {"abs": 0.05}, "tolerance_reason": "half the last printed digit of 0.4""#);
    assert!(!justified.lacks_tolerance_reason());
    let tight = check(r#""expected": 0.4, "tol": {"rel": 0.05}"#);
    assert!(!tight.lacks_tolerance_reason(), "5 % exactly is not above 5 %");
    let bound = check(r#""op": "lt", "expected": 0.4"#);
    assert!(bound.relative_tolerance().is_none() && !bound.lacks_tolerance_reason());
    let zero = check(r#""expected": 0, "tol": {"abs": 0.2}"#);
    assert!(zero.relative_tolerance().is_none());
    let blank = check(r#""expected": 1, "tol": {"rel": 0.5}, "tolerance_reason": " ""#);
    assert!(blank.lacks_tolerance_reason(), "a blank reason is no reason");
}
