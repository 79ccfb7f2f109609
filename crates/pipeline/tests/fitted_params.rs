//! A fit's result as a run parameter of another manifest (issue 50, item 3: "the fitted values
//! usable by other manifests"): `{fitted: "<doc>/<name>#<fit>.<param>"}` is set to the value the
//! other manifest's fit finds before the run is planned, the value is in the run's cache key (a
//! changed measured file fits again and runs again), and a bad reference is refused at its line.

mod common;

use common::{reports, workspace, FIT, FIT_FILE};
use std::path::Path;

const USER_FILE: &str = "thesis/fig9.9.yaml";

/// A Dahl run at the σ and Fc that [`FIT`]'s fit `id` finds (the loop of σ = 1000 N/m, Fc = 1 N).
const USER: &str = r#"id: thesis/fig9.9
kind: figure
source: {document: thesis, number: "9.9", caption: "σ = {{ pred.sigma | fmt(\".6g\") }} N/m", lines: [7]}
content: simulation
status: reproduced
runs:
  - id: pred
    system: dahl
    params:
      sigma: {fitted: "thesis/fig9.8#id.sigma"}
      fc: {fitted: "thesis/fig9.8#id.fc"}
      gamma: 1
    input: {kind: sine, amplitude: 0.004, omega: 1}
    sim: {periods: 4, samples_per_period: 400}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: pred, x: u, y: F, window: last-period}
metrics:
  - {name: f_max, kind: max, run: pred, y: F, window: last-period, unit: N}
checks:
  - metric: f_max
    expected: 0.9993292997390670
    tol: {rel: 1.0e-3}
    provenance: {derived: "Fc tanh(σA/Fc) = tanh(4) at σ = 1000 N/m, Fc = 1 N, A = 4 mm"}
"#;

/// [`FIT`]'s six points as a CSV file, its forces scaled by `k`.
fn points_csv(k: f64) -> String {
    let rows = [
        (-0.0015, -0.9406915061124422),
        (-0.001, -0.9022168245943949),
        (-0.0005, -0.8387827987921773),
        (0.0005, 0.8387827987921773),
        (0.001, 0.9022168245943949),
        (0.0015, 0.9406915061124422),
    ];
    let mut s = String::from("u,F\n");
    for (u, f) in rows {
        s += &format!("{u},{}\n", f * k);
    }
    s
}

/// [`FIT`] with its points read from `data/meas/points.csv`.
fn fit_on_csv() -> String {
    let points = "points: [[0.0005, 0.8387827987921773], [0.001, 0.9022168245943949], [0.0015, 0.9406915061124422], [-0.0005, -0.8387827987921773], [-0.001, -0.9022168245943949], [-0.0015, -0.9406915061124422]]";
    assert!(FIT.contains(points));
    FIT.replacen(points, "csv: {path: data/meas/points.csv, x: u, y: F}", 1)
}

fn write_points(ws: &Path, k: f64) {
    std::fs::create_dir_all(ws.join("data/meas")).unwrap();
    std::fs::write(ws.join("data/meas/points.csv"), points_csv(k)).unwrap();
}

/// Run `pred` of [`USER`] in `loaded`: its key and request.
fn pred(loaded: &fric_pipeline::Loaded) -> (String, fric_experiments::RunRequest) {
    let e = loaded
        .entries
        .iter()
        .find(|e| e.manifest.id == "thesis/fig9.9")
        .unwrap();
    (e.runs["pred"].key.clone(), e.runs["pred"].request.clone())
}

/// The key of run `pred` with its fitted parameters set (loaded and resolved as a run does).
fn key(ws: &Path) -> String {
    pred(&common::load_resolved(&fric_pipeline::Options::new(ws))).0
}

#[test]
fn a_run_parameter_takes_the_fitted_value_keys_on_it_and_follows_the_measured_file() {
    let ws = workspace(&[(FIT_FILE, &fit_on_csv()), (USER_FILE, USER)]);
    write_points(ws.path(), 1.0);
    let all = reports(ws.path(), &[], 2);
    let (fit, user) = (&all["thesis/fig9.8"].metrics, &all["thesis/fig9.9"]);
    assert!(user.errors.is_empty(), "{:?}", user.errors);
    // The run is set to the fit's values, bit for bit (the same serial steps on cached runs).
    let p = &user.runs["pred"].params;
    assert_eq!(p["sigma"].as_f64(), fit["id.sigma"]);
    assert_eq!(p["fc"].as_f64(), fit["id.fc"]);
    assert!(user.caption.starts_with("σ = 1000"), "{}", user.caption);
    assert!(user.checks.iter().all(|c| c.pass), "{:?}", user.checks);
    // The same at one job, and selected alone (the fit's manifest validated with it).
    let one = reports(ws.path(), &["thesis/fig9.9"], 1);
    assert_eq!(one["thesis/fig9.9"].runs["pred"].params, user.runs["pred"].params);
    assert_eq!(one["thesis/fig9.9"].metrics["f_max"], user.metrics["f_max"]);
    // Every measured force 10 % larger: Fc = 1.1 N, a new key, the run computed again.
    let before = key(ws.path());
    assert_eq!(key(ws.path()), before);
    write_points(ws.path(), 1.1);
    assert_ne!(key(ws.path()), before);
    let again = reports(ws.path(), &["thesis/fig9.9"], 2);
    let fc = again["thesis/fig9.9"].runs["pred"].params["fc"].as_f64().unwrap();
    assert!((fc - 1.1).abs() < 1e-4, "{fc}");
    let f_max = again["thesis/fig9.9"].metrics["f_max"].unwrap();
    assert!(
        (f_max / (1.1 * (1100.0f64 * 0.004 / 1.1).tanh()) - 1.0).abs() < 1e-3,
        "{f_max}"
    );
}

/// The diagnostics of `USER` with `from` replaced by `to` (and `fit` as [`FIT`] unless given).
fn refused(user: &str, fit: &str) -> Vec<fric_manifest::Diagnostic> {
    let ws = workspace(&[(FIT_FILE, fit), (USER_FILE, user)]);
    let loaded = fric_pipeline::load(ws.path());
    loaded.invalid.iter().flat_map(|i| i.diagnostics.clone()).collect()
}

#[test]
fn bad_fitted_parameters_are_refused_at_their_line() {
    let cases = [
        ("thesis/fig9.7#id.sigma", "no valid manifest `thesis/fig9.7`"),
        (
            "thesis/fig9.8#di.sigma",
            "`thesis/fig9.8` has no fit `di` (its fits: id)",
        ),
        (
            "thesis/fig9.8#id.gamma",
            "fit `id` of `thesis/fig9.8` fits no `gamma` (it fits sigma, fc)",
        ),
        ("thesis/fig9.8.sigma", "is not `<doc>/<name>#<fit>.<param>`"),
        ("thesis/fig9.9#id.sigma", "this manifest's own fit"),
    ];
    for (to, message) in cases {
        let d = refused(&USER.replacen("thesis/fig9.8#id.sigma", to, 1), FIT);
        assert!(
            d.iter().any(|d| d.file.ends_with(USER_FILE)
                && d.line == 10
                && d.message.contains(message)
                && d.allowed.contains("<doc>/<name>#<fit>.<param>")),
            "{to}: {d:#?}"
        );
    }
    // A cycle: the fit's own swept run takes this manifest's fitted value, and this manifest
    // fits a run of its own.
    let user = USER.replacen(
        "checks:",
        "fit:\n  - name: own\n    run: other\n    params:\n      - {param: sigma, start: 400, bounds: [100, 5000]}\n    targets:\n      - {metric: f_other, value: 0.9}\nchecks:",
        1,
    );
    let user = user.replacen(
        "metrics:\n",
        "metrics:\n  - {name: f_other, kind: max, run: other, y: F, window: last-period, unit: N}\n",
        1,
    );
    let user = user.replacen(
        "panels:",
        "  - id: other\n    system: dahl\n    params: {sigma: 400, fc: 1, gamma: 1}\n    input: {kind: sine, amplitude: 0.002, omega: 1}\n    sim: {periods: 4, samples_per_period: 400}\npanels:",
        1,
    );
    let fit = FIT.replacen(
        "    params: {sigma: 400, fc: 0.6, gamma: 1}\n    input: {kind: sine, amplitude: 0.002, omega: 1}\n    sim: {periods: 4, samples_per_period: 400}",
        "    params: {sigma: 400, fc: {fitted: \"thesis/fig9.9#own.sigma\"}, gamma: 1}\n    input: {kind: sine, amplitude: 0.002, omega: 1}\n    sim: {periods: 4, samples_per_period: 400}",
        1,
    );
    assert_ne!(fit, FIT);
    let d = refused(&user, &fit);
    assert!(
        d.iter()
            .any(|d| d.file.ends_with(USER_FILE) && d.line == 11 && d.message.contains("(a cycle)")),
        "{d:#?}"
    );
    assert!(
        d.iter()
            .any(|d| d.file.ends_with(FIT_FILE) && d.message.contains("(a cycle)")),
        "{d:#?}"
    );
}

/// A caller that loads and forgets [`fric_pipeline::fitted_params::resolve`] gets an error naming
/// the manifest and the parameter, never a run at the fit's start values: the loader's
/// placeholders are refused where runs are computed or read, also when the cache holds a run
/// under the placeholder's key.
#[test]
fn a_run_at_its_placeholder_is_neither_computed_nor_read() {
    let ws = workspace(&[(FIT_FILE, FIT), (USER_FILE, USER)]);
    let o = fric_pipeline::Options::new(ws.path());
    let loaded = fric_pipeline::load(ws.path());
    let refused = || {
        let err = fric_pipeline::export::series_in(&o, &loaded, "thesis/fig9.9").unwrap_err();
        assert!(
            err.contains("`thesis/fig9.9`")
                && err.contains("run parameter `fc` is `{fitted: \"thesis/fig9.8#id.fc\"}`, not yet set")
                && err.contains("fitted_params::resolve"),
            "{err}"
        );
    };
    refused();
    let runs = o.run_cache();
    assert!(
        std::fs::read_dir(runs.dir()).map_or(true, |mut d| d.next().is_none()),
        "nothing computed"
    );
    // A run stored under the placeholder's key (by an older build, say) is not read either.
    let (key, request) = pred(&loaded);
    let d = fric_experiments::RunData {
        columns: vec![("u".into(), vec![0.0, 1.0]), ("F".into(), vec![0.0, 1.0])],
        period: None,
        info: Default::default(),
    };
    runs.put(&key, &request, &d).unwrap();
    refused();
    // Resolved, the run has its fitted values and another key.
    let resolved = common::load_resolved(&o);
    let (set_key, set) = pred(&resolved);
    assert_ne!(set_key, key);
    assert!((set.params["sigma"][0] - 1000.0).abs() < 1.0, "{:?}", set.params);
}
