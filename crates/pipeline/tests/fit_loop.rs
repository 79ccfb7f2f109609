//! A fit to a measured loop without time (issue 50 item 3): a `csv` target with `loop: true`,
//! each row compared with the model's output on the same branch at its input. A loop made by
//! the model at known parameters is fitted back to them from a start away from them; what is
//! refused, at its line (a file's problem at the file's line).

mod common;

use common::{diagnostics_with_data, only_one, workspace, FIT, FIT_FILE as FILE};

const POINTS: &str = "points: [[0.0005, 0.8387827987921773], [0.001, 0.9022168245943949], [0.0015, 0.9406915061124422], [-0.0005, -0.8387827987921773], [-0.001, -0.9022168245943949], [-0.0015, -0.9406915061124422]]";

/// [`FIT`] (Dahl, u = A sin t, A = 2 mm, σ, Fc fitted from 400 N/m, 0.6 N) with its target
/// the loop `data/meas/loop.csv`.
fn loop_target() -> String {
    assert!(FIT.contains(POINTS));
    FIT.replacen(POINTS, "csv: {path: data/meas/loop.csv, x: u, y: F, loop: true}", 1)
}

/// Write `csv` as `data/meas/loop.csv` and `text` as the manifest in `ws`, and run it.
fn run(ws: &std::path::Path, text: &str, csv: &str) -> fric_report::ExperimentReport {
    std::fs::create_dir_all(ws.join("data/meas")).unwrap();
    std::fs::write(ws.join("data/meas/loop.csv"), csv).unwrap();
    std::fs::write(ws.join("experiments").join(FILE), text).unwrap();
    let mut o = fric_pipeline::Options::new(ws);
    o.jobs = Some(2);
    let s = fric_pipeline::run(&o).unwrap();
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    s.report.experiments.into_iter().next().unwrap()
}

/// The loop of the model itself at σ = 1000 N/m, Fc = 1 N: [`FIT`]'s run at those values, its
/// last period as drawn (`figures/.../main-1.csv`, samples of the run), without the two samples
/// at u = 0 where the period is cut, started a third of the way round (on the falling branch),
/// written as `u,F` rows without time.
fn model_loop(ws: &std::path::Path) -> String {
    let truth = FIT.replacen(
        "params: {sigma: 400, fc: 0.6, gamma: 1}",
        "params: {sigma: 1000, fc: 1, gamma: 1}",
        1,
    );
    // Without the fit (and its checks): the run alone.
    let truth = truth[..truth.find("fit:\n").unwrap()].replacen("{{ id.sigma | fmt(\\\".6g\\\") }}", "1000", 1);
    // (Its only error: a status the rule does not give a manifest without checks.)
    run(ws, &truth, "u,F\n0,0\n1,1\n");
    let drawn = std::fs::read_to_string(ws.join("figures/thesis/fig9.8/main-1.csv")).unwrap();
    let rows: Vec<&str> = drawn.lines().skip(1).collect();
    let inner = &rows[1..rows.len() - 1];
    let k = inner.len() / 3;
    let mut out = String::from("u,F\n");
    for r in inner[k..].iter().chain(&inner[..k]) {
        out.push_str(r);
        out.push('\n');
    }
    out
}

#[test]
fn a_loop_made_by_the_model_is_fitted_back_to_its_parameters() {
    let text = loop_target();
    let ws = workspace(&[(FILE, &text)]);
    let csv = model_loop(ws.path());
    let rows = csv.lines().count() - 1;
    assert!(rows > 20, "{rows} rows");
    let fig = run(ws.path(), &text, &csv);
    assert!(fig.errors.is_empty(), "{:?}", fig.errors);
    let m = &fig.metrics;
    // The rows are samples of the model at the answer: it is recovered to the fit's
    // convergence test (steps below 1e-8 relative), the residual is rounding.
    let (sigma, fc) = (m["id.sigma"].unwrap(), m["id.fc"].unwrap());
    assert!((sigma / 1000.0 - 1.0).abs() < 1e-7, "σ = {sigma}");
    assert!((fc - 1.0).abs() < 1e-7, "Fc = {fc}");
    assert!(m["id.residual.f_at"].unwrap() < 1e-9, "{m:?}");
    assert_eq!(fig.checks.len(), 2);
    assert!(fig.checks.iter().all(|c| c.pass), "{:?}", fig.checks);
}

#[test]
fn a_row_outside_the_model_branch_fails_the_fit_with_its_line() {
    let text = loop_target();
    let ws = workspace(&[(FILE, &text)]);
    // Up to 3 mm and back: beyond the model's A = 2 mm (row 4 is line 5).
    let csv = "u,F\n0.001,0.9\n0.0015,0.94\n0.002,0.96\n0.003,0.97\n0.001,0.5\n0,-0.4\n";
    let fig = run(ws.path(), &text, csv);
    assert_eq!(fig.metrics["id.sigma"], None);
    let all = fig.errors.join("\n");
    assert!(
        all.contains("data/meas/loop.csv:5: f_at at 0.003 on the ascending branch")
            && all.contains("x = 0.003 lies outside the ascending branch"),
        "{all}"
    );
}

#[test]
fn bad_loop_targets_are_refused_at_their_line() {
    let text = loop_target();
    let loop_csv = "u,F\n0,0\n0.001,0.9\n0.002,0.96\n0.001,0.5\n0,-0.4\n";
    let with = |csv: &str, text: &str| diagnostics_with_data(FILE, text, "data/meas/loop.csv", csv);
    let only = only_one;
    // The target is at line 35, its `csv` at 36.
    let col = text.replacen("y: F, loop: true", "y: G, loop: true", 1);
    only(with(loop_csv, &col), 36, "`data/meas/loop.csv` has no column `G`");
    // One branch only: u only increases.
    let rising = "u,F\n0,0\n0.001,0.9\n0.002,0.96\n";
    only(
        with(rising, &text),
        36,
        "data/meas/loop.csv:2–4: every row lies on the ascending branch (`u` only increases): fewer than two branches",
    );
    // A metric with an `at` that reads no branch (`quantile`).
    let quantile = text
        .replacen(
            "  - {name: f_max,",
            "  - {name: f_q, kind: quantile, run: dahl, y: F, at: 0.5, window: last-period}\n  - {name: f_max,",
            1,
        )
        .replacen("      - metric: f_at\n", "      - metric: f_q\n", 1);
    only(
        with(loop_csv, &quantile),
        37,
        "`f_q` is a `quantile` metric: a loop's rows are read on a branch of a `value-at`",
    );
    // The loop of a run the fit does not fit.
    let other = text
        .replacen(
            "  - id: sw\n",
            "  - id: other\n    system: dahl\n    params: {sigma: 400, fc: 0.6, gamma: 1}\n    input: {kind: sine, amplitude: 0.002, omega: 1}\n    sim: {periods: 4, samples_per_period: 4000}\n  - id: sw\n",
            1,
        )
        .replacen("run: dahl, x: u, y: F, at: 0.001", "run: other, x: u, y: F, at: 0.001", 1);
    only(
        with(loop_csv, &other),
        40,
        "`f_at` reads run `other`, which the fit does not fit",
    );
    // `branch` on a metric that reads none.
    let branch = text.replacen(
        "kind: max, run: dahl, y: F,",
        "kind: max, run: dahl, y: F, branch: ascending,",
        1,
    );
    only(with(loop_csv, &branch), 26, "a `max` metric takes no `branch`");
}
