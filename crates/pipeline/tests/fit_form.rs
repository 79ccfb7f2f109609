//! `fit` as a manifest form (issue 50, item 3): run parameters fitted by least squares to points
//! or to metric values, every evaluation a run, the results metrics that checks and captions
//! use; the same at any job count; and what is refused, at its line.

mod common;

use common::{diagnostics, evaluated, only_diagnostic, run_manifest};

const FILE: &str = "thesis/fig9.8.yaml";

/// A Dahl loop (γ = 1, A = 2 mm) read at six points of the closed form of σ = 1000 N/m,
/// Fc = 1 N: `F = ±Fc[1 − (1 + tanh(A/L)) e^{−(A ∓ u)/L}]`, L = Fc/σ; the fit starts far off.
const FIT: &str = r#"id: thesis/fig9.8
kind: figure
source: {document: thesis, number: "9.8", caption: "σ = {{ id.sigma | fmt(\".6g\") }} N/m", lines: [6]}
content: simulation
status: reproduced
runs:
  - id: dahl
    system: dahl
    params: {sigma: 400, fc: 0.6, gamma: 1}
    input: {kind: sine, amplitude: 0.002, omega: 1}
    sim: {periods: 4, samples_per_period: 4000}
  - id: sw
    system: dahl
    params: {sigma: 400, fc: 0.6, gamma: 1}
    input: {kind: sine, amplitude: 0.002, omega: 1}
    sim: {periods: 4, samples_per_period: 400}
    sweep: {param: sigma, values: [500, 600]}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: last-period}
metrics:
  - {name: f_at, kind: value-at, run: dahl, x: u, y: F, at: 0.001, window: last-period, unit: N}
  - {name: f_max, kind: max, run: dahl, y: F, window: last-period, unit: N}
  - {name: f_sw, kind: value-at, run: sw, x: u, y: F, at: 0.001, window: last-period, unit: N}
fit:
  - name: id
    run: dahl
    params:
      - {param: sigma, start: 400, bounds: [100, 5000], unit: N/m}
      - {param: fc, start: 0.6, bounds: [0.2, 5], unit: N}
    targets:
      - metric: f_at
        points: [[0.0005, 0.8387827987921773], [0.001, 0.9022168245943949], [0.0015, 0.9406915061124422], [-0.0005, -0.8387827987921773], [-0.001, -0.9022168245943949], [-0.0015, -0.9406915061124422]]
checks:
  - metric: id.sigma
    expected: 1000
    tol: {rel: 1.0e-4}
    provenance: {derived: "the points are the closed-form loop of σ = 1000 N/m"}
  - metric: id.fc
    expected: 1
    tol: {rel: 1.0e-4}
    provenance: {derived: "the points are the closed-form loop of Fc = 1 N"}
"#;

#[test]
fn a_fit_recovers_the_parameters_of_its_points_the_same_at_any_job_count() {
    let fig = evaluated(FILE, FIT, 2);
    let m = &fig.metrics;
    let (sigma, fc) = (m["id.sigma"].unwrap(), m["id.fc"].unwrap());
    assert!((sigma / 1000.0 - 1.0).abs() <= 1e-4, "{m:?}");
    assert!((fc - 1.0).abs() <= 1e-4, "{m:?}");
    // Six points, two parameters: the residual is the sampling error, the standard errors
    // exist and are small against the values.
    assert!(m["id.residual"].unwrap() < 1e-5, "{m:?}");
    assert!(m["id.residual.f_at"].unwrap() < 1e-5, "{m:?}");
    assert!(
        m["id.sigma.sd"].unwrap() < 1.0 && m["id.fc.sd"].unwrap() < 1e-3,
        "{m:?}"
    );
    assert!(
        m["id.evaluations"].unwrap() >= 3.0 && m["id.iterations"].unwrap() >= 1.0,
        "{m:?}"
    );
    assert_eq!(fig.checks.len(), 2);
    assert!(fig.checks.iter().all(|c| c.pass), "{:?}", fig.checks);
    assert!(fig.caption.starts_with("σ = 1000"), "{}", fig.caption);
    assert_eq!(fig.metric_info["id.sigma"].unit.as_deref(), Some("N/m"));
    assert_eq!(fig.metric_info["id.residual.f_at"].unit.as_deref(), Some("N"));
    // Another job count, an empty cache: the same steps and the same values.
    let n = &run_manifest(FILE, FIT, 1).report.experiments[0].metrics;
    for k in ["id.sigma", "id.fc", "id.residual", "id.evaluations"] {
        assert_eq!(n[k], m[k], "{k}");
    }
}

#[test]
fn a_fit_to_a_metric_value_has_no_standard_error_with_one_residual_per_parameter() {
    // σ alone (Fc = 1) so that F(1 mm) on the rising branch is the closed form's value.
    let text = FIT
        .replace("params: {sigma: 400, fc: 0.6, gamma: 1}\n    input: {kind: sine, amplitude: 0.002, omega: 1}\n    sim: {periods: 4, samples_per_period: 4000}", "params: {sigma: 400, fc: 1, gamma: 1}\n    input: {kind: sine, amplitude: 0.002, omega: 1}\n    sim: {periods: 4, samples_per_period: 4000}")
        .replace("      - {param: fc, start: 0.6, bounds: [0.2, 5], unit: N}\n", "")
        .replace("points: [[0.0005, 0.8387827987921773], [0.001, 0.9022168245943949], [0.0015, 0.9406915061124422], [-0.0005, -0.8387827987921773], [-0.001, -0.9022168245943949], [-0.0015, -0.9406915061124422]]", "value: 0.9022168245943949");
    let text = &text[..text.find("  - metric: id.fc").unwrap()];
    let fig = evaluated(FILE, text, 2);
    let m = &fig.metrics;
    assert!((m["id.sigma"].unwrap() / 1000.0 - 1.0).abs() <= 1e-4, "{m:?}");
    assert!(m["id.residual.f_at"].unwrap().abs() < 1e-6, "{m:?}");
    assert!(!m.contains_key("id.sigma.sd"), "{m:?}");
    assert!(fig.checks[0].pass, "{:?}", fig.checks);
    // ... and a check on the standard error it does not have is refused when loading.
    let refused = text.replace("metric: id.sigma\n", "metric: id.sigma.sd\n");
    one(&refused, 37, "unknown metric `id.sigma.sd`", "id.<param>");
}

/// The only diagnostic of the fit manifest `text`: at `line`, with `message` and `allowed`.
fn one(text: &str, line: usize, message: &str, allowed: &str) {
    only_diagnostic(FILE, text, line, message, allowed);
}

#[test]
fn bad_fits_are_reported_at_their_line() {
    let cases: &[(&str, &str, usize, &str, &str)] = &[
        (
            "    run: dahl\n    params",
            "    run: sw\n    params",
            30,
            "run `sw` is swept",
            "not swept",
        ),
        (
            "    run: dahl\n    params",
            "    run: dahk\n    params",
            30,
            "unknown run `dahk`",
            "dahl",
        ),
        (
            "start: 400, bounds",
            "start: 50, bounds",
            32,
            "start 50 is outside the bounds",
            "within",
        ),
        (
            "bounds: [100, 5000]",
            "bounds: [5000, 100]",
            32,
            "bounds [5000, 100]",
            "lo < hi",
        ),
        (
            "{param: fc, start: 0.6, bounds: [0.2, 5]",
            "{param: fc, start: 0.6, bounds: [-1, 5]",
            33,
            "fc = -1 (the lower bound)",
            "accepts",
        ),
        (
            "unit: N/m}",
            "step: 0, unit: N/m}",
            32,
            "step 0 is not positive",
            "positive",
        ),
        (
            "      - metric: f_at\n",
            "      - metric: f_max\n",
            36,
            "`f_max` is a `max` metric, which has no `at`",
            "value-at",
        ),
        (
            "      - metric: f_at\n",
            "      - metric: f_sw\n",
            35,
            "`f_sw` is a table over a sweep",
            "not swept",
        ),
        (
            "      - metric: f_at\n",
            "      - metric: f_ta\n",
            35,
            "unknown metric `f_ta`",
            "f_at",
        ),
        (
            "      - metric: f_at\n",
            "      - {metric: f_max, value: 1, sigma: 0}\n      - metric: f_at\n",
            35,
            "sigma 0 is not a positive number",
            "positive",
        ),
        (
            "        points: [[0.0005,",
            "        value: 1\n        points: [[0.0005,",
            35,
            "exactly one of `value` and `points`",
            "{metric, value}",
        ),
        (
            "  - metric: id.fc\n",
            "  - metric: id.fk\n",
            42,
            "unknown metric `id.fk`",
            "id.<param> (or id.residual",
        ),
    ];
    for (from, to, line, message, allowed) in cases {
        assert!(FIT.contains(from), "{from}");
        one(&FIT.replacen(from, to, 1), *line, message, allowed);
    }
}

#[test]
fn a_fit_named_like_a_metric_or_with_a_wrong_parameter_is_refused_at_its_line() {
    // (The checks on the fit's results are then unknown metrics too.)
    let cases = [
        ("  - name: id\n", "  - name: f_max\n", 29, "fit name `f_max` is empty, taken by a metric, find or fit, or has [ ] ."),
        ("{param: fc, start: 0.6", "{param: sigma, start: 0.6", 33, "`sigma` is fitted twice"),
        (
            "{param: fc, start",
            "{param: fk, start",
            33,
            "fk = 0.6 (the start): run `dahl`: `fk` is not a parameter of `dahl` (parameters: f0, fc, gamma, sigma; or input.<field>, sim.<field>)",
        ),
    ];
    for (from, to, line, msg) in cases {
        let d = diagnostics(FILE, &FIT.replacen(from, to, 1));
        assert!(d.iter().any(|d| d.line == line && d.message == msg), "{d:#?}");
    }
}

/// [`FIT`] with a second Dahl run at A = 3 mm whose parameters the fit shares (`run: [dahl,
/// dahl3]`), and a target on it: the rising branch at u = 1 mm, `Fc[1 − (1 + tanh 3) e^{−4}]`.
fn shared() -> String {
    FIT.replacen(
        "  - id: sw\n",
        "  - id: dahl3\n    system: dahl\n    params: {sigma: 400, fc: 0.6, gamma: 1}\n    input: {kind: sine, amplitude: 0.003, omega: 1}\n    sim: {periods: 4, samples_per_period: 4000}\n  - id: sw\n",
        1,
    )
    .replacen(
        "  - {name: f_max,",
        "  - {name: f3, kind: value-at, run: dahl3, x: u, y: F, at: 0.001, window: last-period, unit: N}\n  - {name: f_max,",
        1,
    )
    .replacen("    run: dahl\n    params:", "    run: [dahl, dahl3]\n    params:", 1)
    .replacen("    targets:\n", "    targets:\n      - {metric: f3, value: 0.9634592975682214}\n", 1)
}

#[test]
fn a_parameter_shared_by_several_runs_is_set_in_each() {
    let text = shared();
    let fig = evaluated(FILE, &text, 2);
    let m = &fig.metrics;
    // Had σ and Fc been set in `dahl` alone, f3 would stay at the start's loop (σ = 400 N/m,
    // Fc = 0.6 N): 0.4 N off.
    assert!(m["id.residual.f3"].unwrap().abs() < 1e-5, "{m:?}");
    assert!((m["id.sigma"].unwrap() / 1000.0 - 1.0).abs() <= 1e-4, "{m:?}");
    assert!((m["id.fc"].unwrap() - 1.0).abs() <= 1e-4, "{m:?}");
    // A run named twice, or one that does not exist, is refused at the fit's run.
    let twice = text.replacen("run: [dahl, dahl3]", "run: [dahl, dahl]", 1);
    one(&twice, 36, "run `dahl` is named twice", "each run once");
    let unknown = text.replacen("run: [dahl, dahl3]", "run: [dahl, dahl4]", 1);
    one(&unknown, 36, "unknown run `dahl4`", "dahl3");
}
