//! The status rule's facts declared in the manifest (issue 44): an assumption that replaces a
//! stated quantity keeps a manifest from `reproduced`, and a transcribed value read back is
//! shown but never counted as a passed check.

mod common;

use common::{workspace, DAHL};
use fric_pipeline::{run, Options};
use fric_report::Outcome;
use std::path::Path;

fn go(root: &Path) -> fric_pipeline::Summary {
    let mut o = Options::new(root);
    o.jobs = Some(1);
    run(&o).unwrap()
}

/// DAHL with one assumption, `replaces:` given or not, and the status line replaced.
fn with_assumption(replaces: Option<&str>, status: &str) -> String {
    let replaces = replaces.map_or(String::new(), |r| format!("\n    replaces: \"{r}\""));
    DAHL.replace(
        "status: reproduced\n",
        &format!("{status}assumptions:\n  - what: \"sigma = 7.5\"\n    why: \"test\"{replaces}\n"),
    )
}

#[test]
fn an_assumption_that_replaces_a_stated_quantity_is_not_reproduced() {
    let ws = workspace(&[(
        "thesis/fig9.1.yaml",
        &with_assumption(Some("sigma = 5 N/m, L1"), "status: reproduced\n"),
    )]);
    let s = go(ws.path());
    assert!(!s.ok());
    let errors = &s.report.experiments[0].errors;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("experiments/thesis/fig9.1.yaml:5: status `reproduced` disagrees with the status rule")
            && errors[0].contains("an assumption replaces what the source states (sigma = 5 N/m, L1)"),
        "{}",
        errors[0]
    );
    // Declared partial with its reason, it is accepted; without `replaces:`, reproduced is.
    let partial = with_assumption(
        Some("sigma = 5 N/m, L1"),
        "status: partial\nreason: \"sigma replaced\"\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), partial).unwrap();
    assert!(go(ws.path()).ok());
    let supplied = DAHL.replace(
        "status: reproduced\n",
        "status: reproduced\nassumptions:\n  - what: \"A = 5\"\n    why: \"unstated\"\n    supplies: \"the amplitude, L1\"\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), supplied).unwrap();
    let s = go(ws.path());
    let errors = &s.report.experiments[0].errors;
    assert!(
        errors.len() == 1
            && errors[0].contains("an assumption supplies what the source does not state (the amplitude, L1)"),
        "{errors:?}"
    );
    let plain = with_assumption(None, "status: reproduced\n");
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), plain).unwrap();
    assert!(go(ws.path()).ok());
}

/// DAHL with its check's provenance `transcribed` and the given expected value.
fn transcribed(expected: &str) -> String {
    DAHL.replace(
        "expected: 28.8, tol: {rel: 1.0e-3}, provenance: {derived: \"4(A Fc - Fr Fc/sigma)\"}",
        &format!("expected: {expected}, tol: {{rel: 1.0e-3}}, provenance: {{transcribed: {{line: 1}}}}"),
    )
}

#[test]
fn a_transcribed_value_is_counted_apart_from_passed_checks() {
    let ws = workspace(&[("thesis/fig9.1.yaml", &transcribed("28.8"))]);
    let s = go(ws.path());
    assert!(s.ok(), "{:?}", s.report.experiments[0].errors);
    let c = &s.report.experiments[0].checks[0];
    assert_eq!(
        (c.outcome, c.provenance.as_str()),
        (Outcome::Transcribed, "transcribed")
    );
    assert_eq!((s.count(Outcome::Pass), s.count(Outcome::Transcribed)), (0, 1));
    // A transcription that does not read back is a failure, not a transcription.
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), transcribed("30")).unwrap();
    let s = go(ws.path());
    assert!(!s.ok());
    assert_eq!(s.report.experiments[0].checks[0].outcome, Outcome::Fail);
}
