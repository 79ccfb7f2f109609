//! A fit target on another manifest's metric (issue 50, item 3: "published numbers across
//! manifests"): `{metric, manifest, value}` evaluates that manifest's metric with the fitted
//! parameters set in its runs taken (`from:`) from a fitted run, run by run from the cache, the
//! same at any job count; the fit follows an edit of that manifest; a bad reference is refused
//! at its line.

mod common;

use common::{reports, workspace, FIT, FIT_FILE};

const OTHER_FILE: &str = "thesis/fig9.10.yaml";

/// A figure drawn from [`FIT`]'s run `dahl` (`from:`), with the top of its loop: for the Dahl
/// loop of σ = 1000 N/m, Fc = 1 N, A = 2 mm the force at u = A is Fc tanh(Aσ/Fc) = tanh 2.
const OTHER: &str = r#"id: thesis/fig9.10
kind: figure
source: {document: thesis, number: "9.10", caption: "the top of the loop", lines: [7]}
content: simulation
status: partial
reason: "a fixture: its metric is a target of thesis/fig9.8's fit"
runs:
  - {id: dahl, from: "thesis/fig9.8#dahl"}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: last-period}
metrics:
  - {name: f_top, kind: max, run: dahl, y: F, window: last-period, unit: N}
"#;

/// The target added to [`FIT`]'s fit (its line is 37).
const TARGET: &str = "      - {metric: f_top, manifest: thesis/fig9.10, value: 0.9640275800758169, sigma: 0.01}\n";

fn fit_with(target: &str) -> String {
    FIT.replacen("\nchecks:\n", &format!("\n{target}checks:\n"), 1)
}

#[test]
fn a_target_of_another_manifest_is_its_metric_on_its_run_with_the_fitted_values() {
    let fit = fit_with(TARGET);
    let ws = workspace(&[(FIT_FILE, &fit), (OTHER_FILE, OTHER)]);
    // Selected alone: the other manifest is validated and evaluated with it.
    let one = reports(ws.path(), &["thesis/fig9.8"], 1);
    let r = &one["thesis/fig9.8"];
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let m = &r.metrics;
    let (sigma, fc) = (m["id.sigma"].unwrap(), m["id.fc"].unwrap());
    assert!((sigma - 1000.0).abs() < 0.1 && (fc - 1.0).abs() < 1e-4, "{sigma} {fc}");
    // The target's residual: the other manifest's metric at the fitted values minus tanh 2.
    let res = m["id.residual.f_top"].unwrap();
    assert!(res.abs() < 1e-4, "{res}");
    assert_eq!(r.metric_info["id.residual.f_top"].unit.as_deref(), Some("N"));
    // Deterministic: a fresh workspace at two jobs takes the same steps, bit for bit.
    let ws2 = workspace(&[(FIT_FILE, &fit), (OTHER_FILE, OTHER)]);
    let two = reports(ws2.path(), &[], 2);
    for k in [
        "id.sigma",
        "id.fc",
        "id.residual",
        "id.residual.f_top",
        "id.evaluations",
    ] {
        assert_eq!(two["thesis/fig9.8"].metrics[k], m[k], "{k}");
    }
    // Only the other manifest edited (its metric now the loop's bottom, −tanh 2): the fit is
    // evaluated again (its key covers that manifest) and the target's residual moves.
    let edited = OTHER.replace("kind: max,", "kind: min,");
    std::fs::write(ws.path().join("experiments").join(OTHER_FILE), edited).unwrap();
    let again = reports(ws.path(), &["thesis/fig9.8"], 1);
    let a = &again["thesis/fig9.8"];
    let moved = a.metrics.get("id.residual.f_top").copied().flatten();
    let moved = moved.unwrap_or_else(|| panic!("{:?}", a.errors));
    assert!(moved < -1.0, "{moved}");
}

#[test]
fn bad_targets_of_another_manifest_are_refused_at_their_line() {
    let no_from = OTHER.replace(
        "{id: dahl, from: \"thesis/fig9.8#dahl\"}",
        "{id: dahl, system: dahl, params: {sigma: 400, fc: 0.6, gamma: 1}, input: {kind: sine, amplitude: 0.002, omega: 1}, sim: {periods: 4, samples_per_period: 400}}",
    );
    let cases: [(String, &str, &str); 5] = [
        (
            TARGET.replace("thesis/fig9.10", "thesis/fig9.11"),
            OTHER,
            "no valid manifest `thesis/fig9.11`",
        ),
        (
            TARGET.replace("thesis/fig9.10", "thesis/fig9.8"),
            OTHER,
            "no valid manifest `thesis/fig9.8` other than this one",
        ),
        (
            TARGET.replace("f_top", "f_bottom"),
            OTHER,
            "`thesis/fig9.10` has no metric `f_bottom`",
        ),
        (
            TARGET.to_string(),
            &no_from,
            "no run of `thesis/fig9.10` is taken from a fitted run (thesis/fig9.8#dahl)",
        ),
        (
            TARGET.replace("value: 0.9640275800758169", "points: [[0.001, 0.9]]"),
            OTHER,
            "a target of another manifest needs `value`",
        ),
    ];
    for (target, other, message) in cases {
        let ws = workspace(&[(FIT_FILE, &fit_with(&target)), (OTHER_FILE, other)]);
        let loaded = fric_pipeline::load(ws.path());
        let bad = loaded.invalid.iter().find(|i| i.file.ends_with(FIT_FILE));
        let d = &bad
            .unwrap_or_else(|| panic!("{message}: {:#?}", loaded.invalid))
            .diagnostics;
        assert!(
            d.iter().any(|d| d.line == 37 && d.message.contains(message)),
            "{message}: {d:#?}"
        );
    }
}
