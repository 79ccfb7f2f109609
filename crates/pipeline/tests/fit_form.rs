//! `fit` as a manifest form (issue 50, item 3): run parameters fitted by least squares to points
//! or to metric values, every evaluation a run, the results metrics that checks and captions
//! use; the same at any job count; and what is refused, at its line.

mod common;

use common::{
    diagnostics, diagnostics_with_data, evaluated, only_diagnostic, only_one, run_manifest, workspace, FIT,
    FIT_FILE as FILE,
};

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
            "exactly one of `value`, `points`, `csv` and `samples`",
            "{metric, value}",
        ),
        (
            "  - name: id\n    run: dahl\n",
            "  - name: id\n    scan: 1\n    run: dahl\n",
            30,
            "scan 1: a scan needs at least 3 points",
            "0, or at least 3",
        ),
        (
            "  - name: id\n    run: dahl\n",
            "  - name: id\n    scan: 2\n    run: dahl\n",
            30,
            "scan 2: a scan needs at least 3 points",
            "0, or at least 3",
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

/// [`FIT`]'s six points as a CSV file (`u` increasing, `F`, and a column the fit does not read).
const POINTS_CSV: &str = "u,F,note\n-0.0015,-0.9406915061124422,1\n-0.001,-0.9022168245943949,2\n-0.0005,-0.8387827987921773,3\n0.0005,0.8387827987921773,4\n0.001,0.9022168245943949,5\n0.0015,0.9406915061124422,6\n";

/// [`FIT`] with its points read from `data/meas/points.csv`.
fn csv_target() -> String {
    let points = "points: [[0.0005, 0.8387827987921773], [0.001, 0.9022168245943949], [0.0015, 0.9406915061124422], [-0.0005, -0.8387827987921773], [-0.001, -0.9022168245943949], [-0.0015, -0.9406915061124422]]";
    assert!(FIT.contains(points));
    FIT.replacen(points, "csv: {path: data/meas/points.csv, x: u, y: F}", 1)
}

/// Run the manifest `text` in `ws` (whose `data/meas/points.csv` is `csv`): its report.
fn run_with_csv(ws: &std::path::Path, text: &str, csv: &str) -> fric_report::ExperimentReport {
    std::fs::create_dir_all(ws.join("data/meas")).unwrap();
    std::fs::write(ws.join("data/meas/points.csv"), csv).unwrap();
    std::fs::write(ws.join("experiments").join(FILE), text).unwrap();
    let mut o = fric_pipeline::Options::new(ws);
    o.jobs = Some(2);
    let s = fric_pipeline::run(&o).unwrap();
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let fig = s.report.experiments.into_iter().next().unwrap();
    assert!(fig.errors.is_empty(), "{:?}", fig.errors);
    fig
}

/// Issue 50 item 3, a measured CSV: a target's points read from a file give the fit of the
/// same points written out; editing the file fits again (the rows are part of the manifest's
/// evaluation key), in the same workspace and run cache.
#[test]
fn a_fit_to_points_read_from_a_csv_file_is_the_fit_to_those_points_and_follows_the_file() {
    let text = csv_target();
    let ws = workspace(&[(FILE, &text)]);
    let m = run_with_csv(ws.path(), &text, POINTS_CSV).metrics;
    let written = evaluated(FILE, FIT, 2).metrics;
    // The same residuals in another order: sums taken in another order. The standard error and
    // the residual are those of the interpolation noise (≈ 1e-7 N), so agree to fewer digits.
    for (k, rel) in [
        ("id.sigma", 1e-9),
        ("id.fc", 1e-9),
        ("id.sigma.sd", 1e-6),
        ("id.residual", 1e-6),
    ] {
        let (a, b) = (m[k].unwrap(), written[k].unwrap());
        assert!((a - b).abs() <= rel * b.abs(), "{k}: csv {a}, points {b}");
    }
    // Every force 10 % larger: the Dahl loop of Fc = 1.1 N (F scales with Fc, σ with it).
    let scaled: String = POINTS_CSV
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                return format!("{l}\n");
            }
            let c: Vec<&str> = l.split(',').collect();
            format!("{},{},{}\n", c[0], c[1].parse::<f64>().unwrap() * 1.1, c[2])
        })
        .collect();
    let again = run_with_csv(ws.path(), &text, &scaled).metrics;
    let (fc, sigma) = (again["id.fc"].unwrap(), again["id.sigma"].unwrap());
    assert!(
        (fc - 1.1).abs() < 1e-4 && (sigma / 1100.0 - 1.0).abs() < 1e-3,
        "{fc} {sigma}"
    );
}

#[test]
fn bad_csv_targets_are_reported_at_their_line() {
    let text = csv_target();
    let with = |csv: &str, text: &str| diagnostics_with_data(FILE, text, "data/meas/points.csv", csv);
    let only = only_one;
    // The target is at line 35 (its `csv` the line after `metric`).
    let col = text.replacen("x: u, y: F}", "x: u, y: G}", 1);
    only(with(POINTS_CSV, &col), 36, "`data/meas/points.csv` has no column `G`");
    let out = text.replacen("path: data/meas/points.csv", "path: ../points.csv", 1);
    only(with(POINTS_CSV, &out), 36, "..");
    let bad_row = POINTS_CSV.replacen("0.001,0.9022168245943949", "0.001,nan", 1);
    only(with(&bad_row, &text), 36, "data/meas/points.csv:6: `nan` in column `F`");
    let both = text.replacen("csv: {path", "points: [[0, 0]]\n        csv: {path", 1);
    only(with(POINTS_CSV, &both), 37, "both `points` and `csv`");
}

/// A target's points from another run of the manifest (`samples`): the Dahl loop of σ = 1000
/// N/m, Fc = 1 N sampled 20 times over one period, the fitted run's force at those times.
#[test]
fn a_fit_to_the_samples_of_another_run_recovers_its_parameters() {
    let text = FIT
        .replacen(
            "  - id: sw\n",
            "  - id: truth\n    system: dahl\n    params: {sigma: 1000, fc: 1, gamma: 1}\n    input: {kind: sine, amplitude: 0.002, omega: 1}\n    sim: {periods: 1, samples_per_period: 20}\n  - id: sw\n",
            1,
        )
        .replacen(
            "  - {name: f_max,",
            "  - {name: f_t, kind: value-at, run: dahl, x: t, y: F, at: 1, unit: N}\n  - {name: f_max,",
            1,
        );
    let a = text.find("    targets:\n").unwrap();
    let b = text.find("checks:\n").unwrap();
    let text = format!(
        "{}    targets:\n      - metric: f_t\n        samples: {{run: truth, x: t, y: F}}\n{}",
        &text[..a],
        &text[b..]
    );
    let fig = evaluated(FILE, &text, 2);
    let m = &fig.metrics;
    // The fitted run samples every 200th of its 4000 per period at the truth's times (t ≤ 2π,
    // the first period: the same transient from F(0) = 0).
    assert!((m["id.sigma"].unwrap() / 1000.0 - 1.0).abs() < 1e-6, "{m:?}");
    assert!((m["id.fc"].unwrap() - 1.0).abs() < 1e-6, "{m:?}");
    assert!(m["id.residual.f_t"].unwrap() < 1e-8, "{m:?}");
    // The data run may not be the fitted one, and needs its columns.
    let fitted = text.replacen("samples: {run: truth,", "samples: {run: dahl,", 1);
    let d = diagnostics(FILE, &fitted);
    assert!(
        d.iter()
            .any(|d| d.message.contains("is fitted: its samples would move")),
        "{d:#?}"
    );
    let col = text.replacen("x: t, y: F}", "x: t, y: G}", 1);
    let d = diagnostics(FILE, &col);
    assert!(
        d.iter().any(|d| d.message.contains("run `truth` has no column `G`")),
        "{d:#?}"
    );
}
