//! Kinds declared once: every metric kind's declaration (`evaluate/metric_kinds/`) is what the
//! JSON Schema, `schema` and the loader read; the metric arithmetic kinds (negate, abs,
//! constant, difference, ratio) and a check comparing two metrics run end to end; methods are an
//! enum resolved at load, an unknown or inapplicable one refused at its line with the allowed list.

mod common;

use common::{repo, workspace, DAHL};
use fric_pipeline::evaluate::metric_kinds::{self, ALL};
use fric_report::Outcome;
use serde_json::Value;

fn schema() -> Value {
    serde_json::from_str(&metric_kinds::json_schema()).unwrap()
}

#[test]
fn committed_schema_is_the_generated_one() {
    let committed = std::fs::read_to_string(repo().join("experiments/manifest.schema.json"))
        .expect("experiments/manifest.schema.json exists (cargo xtask schema --write)");
    assert!(
        committed == metric_kinds::json_schema(),
        "experiments/manifest.schema.json is out of date: run `cargo xtask schema --write`"
    );
}

#[test]
fn every_metric_kind_is_declared_once_and_seen_by_the_json_schema() {
    let s = schema();
    let defs = &s["$defs"];
    let listed: Vec<&str> = defs["MetricKind"]["oneOf"]
        .as_array()
        .expect("the metric kinds are the alternatives of MetricKind")
        .iter()
        .map(|a| a["const"].as_str().unwrap())
        .collect();
    let declared: Vec<&str> = ALL.iter().map(|d| d.doc.name).collect();
    assert_eq!(listed, declared);
    for (i, d) in ALL.iter().enumerate() {
        let k = &d.doc;
        assert!(!declared[..i].contains(&k.name), "{} declared twice", k.name);
        assert_eq!(metric_kinds::find(k.name).unwrap().doc.example, k.example);
        // Every declared field is a field of the written form.
        for f in k.fields {
            assert!(
                defs["MetricSpec"]["properties"].get(f.name).is_some(),
                "{}: `{}` is no field of MetricSpec",
                k.name,
                f.name
            );
        }
        // The example parses, names this kind and needs a run, operands or a value as declared.
        let m: fric_manifest::MetricSpec =
            serde_yaml::from_str(k.example).unwrap_or_else(|e| panic!("{}: {e}", k.name));
        assert_eq!(m.kind.0, k.name);
        assert_eq!(m.run.is_some(), d.reads_run(), "{}", k.name);
        assert_eq!(m.of.as_ref().map_or(0, |o| o.names().len()), d.operands(), "{}", k.name);
    }
    assert!(metric_kinds::find("no-such-kind").is_none());
}

/// DAHL with the arithmetic kinds over its loop area and checks comparing two metrics.
fn arithmetic() -> String {
    let metrics = r#"metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [1, 2]}}
  - {name: loss, kind: negate, of: area}
  - {name: area_abs, kind: abs, of: loss}
  - {name: bound, kind: constant, value: 30, unit: J, note: "4 A Fc, the rigid-plastic loop"}
  - {name: short, kind: difference, of: [bound, area_abs]}
  - {name: fill, kind: ratio, of: [area, bound]}
checks:
  - {metric: area, expected: 28.8, tol: {rel: 1.0e-3}, provenance: {derived: "4(A Fc - Fr Fc/sigma)"}}
  - {metric: area, op: lt, expected: {metric: bound}, provenance: {derived: "the elastic part shrinks the loop below 4 A Fc"}}
  - {metric: area_abs, expected: {metric: area}, tol: {abs: 0}, provenance: {derived: "|−a| = a for a > 0"}}
  - {metric: area, op: gt, expected: {metric: bound}, provenance: {derived: "false on purpose: a check of two metrics can fail"}}
"#;
    let head = DAHL.split("metrics:\n").next().unwrap();
    format!("{head}{metrics}")
}

#[test]
fn metric_arithmetic_and_checks_of_two_metrics_run() {
    let e = common::evaluated("thesis/fig9.1.yaml", &arithmetic(), 1);
    let v = |n: &str| e.metrics[n].unwrap_or_else(|| panic!("{n} has no value"));
    let area = v("area");
    assert!((area - 28.8).abs() < 0.03, "{area}");
    assert_eq!(v("loss"), -area);
    assert_eq!(v("area_abs"), area);
    assert_eq!(v("bound"), 30.0);
    assert_eq!(v("short"), 30.0 - area);
    assert_eq!(v("fill"), area / 30.0);
    let outcomes: Vec<Outcome> = e.checks.iter().map(|c| c.outcome).collect();
    assert_eq!(outcomes, [Outcome::Pass, Outcome::Pass, Outcome::Pass, Outcome::Fail]);
    // The other metric's value is the expected one, and the report says which metric it is.
    assert_eq!(e.checks[1].expected, 30.0);
    assert!(
        e.checks[1].basis.contains("against metric `bound`"),
        "{}",
        e.checks[1].basis
    );
    assert_eq!(e.checks[2].expected, area);
}

/// The only manifest's diagnostics, which must be invalid.
fn problems(text: &str) -> Vec<fric_manifest::Diagnostic> {
    let ws = workspace(&[("thesis/fig9.1.yaml", text)]);
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1, "{text}");
    loaded.invalid[0].diagnostics.clone()
}

/// `text` with `from` replaced by `to`, which must occur.
fn with(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

/// The 1-based line of the first occurrence of `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

/// Exactly one problem, at the line holding `at`, its message containing `message` and its
/// allowed text `allowed`.
fn one(text: &str, at: &str, message: &str, allowed: &str) {
    let d = problems(text);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].line, line_of(text, at), "{}", d[0]);
    assert!(d[0].message.contains(message), "{}", d[0]);
    assert!(d[0].allowed.contains(allowed), "{}", d[0]);
}

#[test]
fn bad_kinds_methods_and_operands_are_refused_at_their_line() {
    let base = arithmetic();
    one(
        &with(&base, "kind: negate", "kind: negated"),
        "kind: negated",
        "unknown metric kind `negated`",
        "negate, abs, constant",
    );
    one(
        &with(&base, "kind: negate, of: area", "kind: negate, of: [area, bound]"),
        "kind: negate",
        "`negate` takes 1 metric(s), 2 given",
        "of: <metric>",
    );
    one(
        &with(&base, "value: 30, ", ""),
        "kind: constant",
        "this metric kind needs `value`",
        "value: <number>",
    );
    one(
        &with(
            &base,
            "expected: {metric: bound}, provenance: {derived: \"the elastic",
            "expected: {metric: bond}, provenance: {derived: \"the elastic",
        ),
        "{metric: bond}",
        "unknown metric `bond`",
        "area, loss",
    );
    // An unknown method, and one the system does not take.
    one(
        &with(
            &base,
            "samples_per_period: 400}",
            "samples_per_period: 400, method: rk4}",
        ),
        "method: rk4",
        "rk4",
        "dop853-radau5",
    );
    one(
        &with(
            &base,
            "samples_per_period: 400}",
            "samples_per_period: 400, method: radau5}",
        ),
        "method: radau5",
        "system `dahl` does not take method `radau5`",
        "exact, ode",
    );
}
