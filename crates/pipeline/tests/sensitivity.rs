//! Alternative readings and explanations on a model whose answer is known in closed form: one
//! Maxwell-slip element (k = 1 N/m, Δ = 0.5 m) under u = A sin t has the loop area
//! 4kΔ(A − Δ) = 2(A − 0.5) J for A > Δ and none for A ≤ Δ (the element never slips).

mod common;

use common::workspace;
use fric_pipeline::sensitivity;
use fric_pipeline::Options;

const MANIFEST: &str = r#"id: thesis/fig9.1
kind: figure
source: {document: thesis, number: "9.1", caption: "one Maxwell-slip element", lines: [1]}
content: simulation
status: reproduced
assumptions:
  - what: "A = 0.8 m."
    why: "not stated"
    carries: illustrative
    alternatives:
      - {name: a_1.2, run: ms, set: {input.amplitude: 1.2}, why: "larger: still slips"}
      - {name: a_0.4, run: ms, set: {input.amplitude: 0.4}, why: "below the deadband: never slips"}
runs:
  - id: ms
    system: maxwell-slip
    params: {k: [1], delta: [0.5]}
    input: {kind: sine, amplitude: 0.8, omega: 1}
    sim: {periods: 3, samples_per_period: 4000}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: ms, x: u, y: F}
metrics:
  - {name: area, kind: loop-area, run: ms, x: u, y: F, window: {periods: [2, 3]}, unit: J}
checks:
  - {metric: area, op: gt, expected: 0.001, provenance: {derived: "hysteretic: the element slips"}}
  - metric: area
    expected: 1.0
    tol: {rel: 1.0e-6}
    provenance: {derived: "a published area of 1 J, for the test"}
    discrepancy: assumption
    known_discrepancy: "with A = 0.8 m the area is 0.6 J"
    explain: [{run: ms, param: input.amplitude, range: [0.6, 3]}, {run: ms, param: input.amplitude, range: [2, 3]}]
"#;

/// The error of a sampled loop area here (absolute, J or m).
const SAMPLING: f64 = 1e-5;

#[test]
fn a_reading_below_the_deadband_flips_the_hysteresis_check_and_only_it() {
    let ws = workspace(&[("thesis/fig9.1.yaml", MANIFEST)]);
    let all = sensitivity::sensitivity(&Options::new(ws.path())).unwrap().manifests;
    assert_eq!(all.len(), 1);
    let m = &all[0];
    assert_eq!(m.readings.len(), 2);
    // Areas in closed form: 2(A − 0.5), 0 below the deadband (to the trapezoid sum over 4000
    // samples per period: the corners of the loop fall between samples, ~3e-7 relative).
    let area = |k: usize| m.readings[k].checks[0].computed.unwrap();
    assert!(
        (m.baseline[0].computed.unwrap() - 0.6).abs() < SAMPLING,
        "{:?}",
        m.baseline[0].computed
    );
    assert!((area(0) - 1.4).abs() < SAMPLING, "{}", area(0));
    assert!(area(1).abs() < 1e-12, "{}", area(1));
    // area > 0.001 holds as written and for A = 1.2, not for A = 0.4.
    let v = &m.verdicts[0];
    assert!(!v.robust);
    assert_eq!(v.flipped_by, ["a_0.4"]);
    // The known discrepancy (area = 1 J) is missed under every reading.
    assert!(m.verdicts[1].robust, "{:?}", m.verdicts[1]);
}

/// The Maxwell-slip manifest with a check on the force at u = 0.7 m, which the input of the
/// reading a_0.4 (amplitude 0.4 m) never reaches: under that reading the check cannot be
/// evaluated.
fn with_force_at(id: &str) -> String {
    MANIFEST
        .replace("thesis/fig9.1", id)
        .replace(
            "metrics:\n",
            "metrics:\n  - {name: f_at, kind: value-at, run: ms, x: u, y: F, at: 0.7, window: {periods: [2, 3]}}\n",
        )
        .replace(
            "checks:\n",
            "checks:\n  - {metric: f_at, op: gt, expected: 0, provenance: {derived: \"the element pulls forward\"}}\n",
        )
}

#[test]
fn a_reading_that_cannot_be_evaluated_is_failed_not_robust() {
    let ws = workspace(&[("thesis/fig9.1.yaml", &with_force_at("thesis/fig9.1"))]);
    let found = sensitivity::sensitivity(&Options::new(ws.path())).unwrap();
    let m = &found.manifests[0];
    let v = &m.verdicts[0];
    assert_eq!(v.metric, "f_at");
    assert!(m.baseline[0].pass, "{:?}", m.baseline[0]);
    assert!(m.readings[1].checks.is_empty() || m.readings[1].checks[0].computed.is_none());
    assert!(!v.robust, "{v:?}");
    assert_eq!(v.failed, ["a_0.4"]);
    // The reading's error leaves every check unevaluated under it: all three are failed.
    assert_eq!(m.failed(), 3);
    let s = m.baseline[0].sensitivity.as_ref().unwrap();
    assert!(!s.robust && s.failed == ["a_0.4"], "{s:?}");
}

#[test]
fn sensitivity_of_a_selection_merges_into_the_report() {
    let ws = workspace(&[
        ("thesis/fig9.1.yaml", MANIFEST),
        (
            "thesis/fig9.3.yaml",
            &MANIFEST
                .replace("thesis/fig9.1", "thesis/fig9.3")
                .replace("\"9.1\"", "\"9.3\""),
        ),
    ]);
    let ids = |root: &std::path::Path| -> Vec<String> {
        let text = std::fs::read_to_string(root.join(sensitivity::REPORT)).unwrap();
        let v: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
        v.iter().map(|m| m["id"].as_str().unwrap().to_string()).collect()
    };
    let all = sensitivity::sensitivity(&Options::new(ws.path())).unwrap();
    sensitivity::write(ws.path(), &all).unwrap();
    assert_eq!(ids(ws.path()), ["thesis/fig9.1", "thesis/fig9.3"]);
    let mut o = Options::new(ws.path());
    o.only = vec!["thesis/fig9.3".into()];
    let one = sensitivity::sensitivity(&o).unwrap();
    assert_eq!(one.manifests.len(), 1);
    sensitivity::write(ws.path(), &one).unwrap();
    assert_eq!(ids(ws.path()), ["thesis/fig9.1", "thesis/fig9.3"]);
    // A manifest that is gone leaves the report.
    std::fs::remove_file(ws.path().join("experiments/thesis/fig9.1.yaml")).unwrap();
    let rest = sensitivity::sensitivity(&o).unwrap();
    sensitivity::write(ws.path(), &rest).unwrap();
    assert_eq!(ids(ws.path()), ["thesis/fig9.3"]);
}

#[test]
fn invalid_alternatives_are_manifest_errors_at_their_line() {
    let text = MANIFEST.replace(
        "      - {name: a_0.4, run: ms, set: {input.amplitude: 0.4}, why: \"below the deadband: never slips\"}\n",
        "      - {name: a_0.4, run: ms, set: {input.amplitude: 0.4}, why: \"below the deadband: never slips\"}\n      \
         - {name: a_kk, run: ms, set: {kk: 1}}\n      \
         - {name: a_nan, run: ms, set: {input.amplitude: .nan}}\n      \
         - {name: a_neg, run: ms, set: {input.omega: -1}}\n      \
         - {name: a_dup, run: nope, set: {input.amplitude: 1}}\n      \
         - {name: a_dup, run: ms, set: {}}\n",
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", &text)]);
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1);
    let d: Vec<(usize, String)> = loaded.invalid[0]
        .diagnostics
        .iter()
        .map(|d| (d.line, d.message.clone()))
        .collect();
    let at = |line: usize, words: &[&str]| {
        assert!(
            d.iter().any(|(l, m)| *l == line && words.iter().all(|w| m.contains(w))),
            "line {line} {words:?}: {d:#?}"
        )
    };
    at(13, &["a_kk", "`kk` is not a parameter"]);
    at(14, &["must be a finite number"]);
    at(15, &["a_neg", "omega = -1 must be positive"]);
    at(16, &["no run `nope`"]);
    at(17, &["duplicate alternative name `a_dup`"]);
    at(17, &["sets nothing"]);
    // `sensitivity` reports it instead of skipping it.
    let found = sensitivity::sensitivity(&Options::new(ws.path())).unwrap();
    assert!(found.manifests.is_empty());
    assert_eq!(found.invalid.len(), 1);
}

#[test]
fn explain_recovers_the_amplitude_that_gives_the_published_area() {
    let ws = workspace(&[("thesis/fig9.1.yaml", MANIFEST)]);
    let r = sensitivity::explain(&Options::new(ws.path()), "thesis/fig9.1", "area").unwrap();
    assert!((r.computed.unwrap() - 0.6).abs() < SAMPLING, "{:?}", r.computed);
    // 2(A − 0.5) = 1 at A = 1.
    let x = &r.explanations[0];
    let a = x.value.unwrap();
    assert!((a - 1.0).abs() < 2.0 * sensitivity::XTOL + SAMPLING, "{a}");
    assert!(x.evaluations < 40, "{}", x.evaluations);
    // None in [2, 3]: the area spans [3, 5] J there.
    let y = &r.explanations[1];
    assert_eq!(y.value, None);
    assert!(
        (y.scanned[0] - 3.0).abs() < SAMPLING && (y.scanned[1] - 5.0).abs() < SAMPLING,
        "{:?}",
        y.scanned
    );
    // The pipeline records the same in the report, and marks the checks.
    let s = fric_pipeline::run(&Options::new(ws.path())).unwrap();
    let e = &s.report.experiments[0];
    assert_eq!(e.checks[1].explained_by.len(), 2);
    assert!((e.checks[1].explained_by[0].value.unwrap() - 1.0).abs() < 2.0 * sensitivity::XTOL + SAMPLING);
    let sens = e.checks[0].sensitivity.as_ref().unwrap();
    assert!(!sens.robust);
    assert_eq!(sens.flipped_by(true), ["a_0.4"]);
    assert!(
        s.runs_failed.is_empty() && s.readings_failed.is_empty(),
        "{:?}",
        s.runs_failed
    );
    // Asking for a metric without `explain` says what to declare.
    let err = sensitivity::explain(&Options::new(ws.path()), "thesis/fig9.1", "nope").unwrap_err();
    assert!(err.contains("no check on `nope`"), "{err}");
}

/// `runs:` means one thing whichever manifests are evaluated: the distinct runs of the selected
/// manifests, computed, read or current. The runs only alternative readings use (two here) are
/// counted apart, since they are needed only when their manifest is evaluated: before, the
/// total was 3 from an empty cache or with `--force` and 1 when current (the project's `check`
/// said 425, 402 and 399 on one commit).
#[test]
fn the_run_count_is_the_same_computed_cached_or_current() {
    let head = &MANIFEST[..MANIFEST.find("  - metric: area\n    expected: 1.0").unwrap()];
    let ws = workspace(&[("thesis/fig9.1.yaml", head)]);
    let go = |force: bool, verify: bool| {
        let mut o = Options::new(ws.path());
        (o.force, o.verify) = (force, verify);
        let s = fric_pipeline::run(&o).unwrap();
        assert_eq!(s.runs_computed + s.runs_cached + s.runs_failed.len(), s.runs_total);
        (
            s.runs_total,
            s.runs_computed,
            s.reading_runs_computed,
            s.reading_runs_cached,
        )
    };
    assert_eq!(go(false, false), (1, 1, 2, 0), "from an empty cache");
    assert_eq!(go(false, false), (1, 0, 0, 0), "current");
    assert_eq!(go(false, true), (1, 0, 0, 0), "current, verified");
    assert_eq!(go(true, false), (1, 1, 2, 0), "forced");
    // The stamp removed: evaluated again, every run read from the cache.
    std::fs::remove_file(ws.path().join("data/cache/entries/thesis/fig9.1.json")).unwrap();
    assert_eq!(go(false, false), (1, 0, 0, 2), "evaluated from the cache");
}
