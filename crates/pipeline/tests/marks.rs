//! A `find`'s and a `fit`'s results drawn on their figure (issue 50, item 2's marker): the
//! series files (which the SVG/PNG draw and the PGFPlots file reads) hold the computed values,
//! not values written in the manifest; and series naming no find or fit are refused at their
//! line.

mod common;

use common::{only_diagnostic, workspace};
use std::path::Path;

/// The columns of a series file `figures/<id>/<panel>-<k>.csv`.
fn series_csv(root: &Path, id: &str, name: &str) -> Vec<Vec<f64>> {
    let p = root.join("figures").join(id).join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut cols: Vec<Vec<f64>> = Vec::new();
    for line in text.lines().skip(1) {
        for (k, v) in line.split(',').enumerate() {
            if cols.len() <= k {
                cols.push(Vec::new());
            }
            cols[k].push(v.parse().unwrap());
        }
    }
    cols
}

/// Run `text` at `file` in a fresh workspace: the workspace and the manifest's report.
fn run(file: &str, text: &str) -> (tempfile::TempDir, fric_report::ExperimentReport) {
    let ws = workspace(&[(file, text)]);
    let mut o = fric_pipeline::Options::new(ws.path());
    o.jobs = Some(2);
    let s = fric_pipeline::run(&o).unwrap();
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let fig = s.report.experiments.into_iter().next().unwrap();
    assert!(fig.errors.is_empty(), "{:?}", fig.errors);
    (ws, fig)
}

const FIND: &str = r#"id: thesis/fig9.7
kind: figure
source: {document: thesis, number: "9.7", caption: "3 J at A = {{ a3 | fmt(\".6g\") }} m", lines: [6]}
content: simulation
status: reproduced
runs:
  - id: ms
    system: maxwell-slip
    elements: {n: 2, each: {k: "1/n", delta: "i/n"}}
    input: {kind: sine, amplitude: 2, omega: 1}
    sim: {periods: 2, samples_per_period: 400}
  - id: sw
    system: maxwell-slip
    elements: {n: 2, each: {k: "1/n", delta: "i/n"}}
    input: {kind: sine, amplitude: 2, omega: 1}
    sim: {periods: 2, samples_per_period: 400}
    sweep: {param: input.amplitude, values: [1, 2, 3]}
panels:
  - id: main
    x: {label: A, unit: m}
    y: {label: area, unit: J}
    series:
      - {metric: area_sw, x: input.amplitude, style: points}
      - {find: a3, style: circles, label: "area = 3 J"}
metrics:
  - {name: area, kind: loop-area-pl, run: ms, x: u, y: F, window: last-period, unit: J}
  - {name: area_sw, kind: loop-area-pl, run: sw, x: u, y: F, window: last-period, unit: J}
find:
  - {name: a3, run: ms, param: input.amplitude, metric: area, level: 3, bracket: [1, 3], tol: 1.0e-9, unit: m}
"#;

#[test]
fn a_finds_marker_sits_at_the_found_value_on_the_level() {
    let (ws, fig) = run("thesis/fig9.7.yaml", FIND);
    let a3 = fig.metrics["a3"].unwrap();
    assert!((a3 - 11.0 / 6.0).abs() <= 1e-9, "{a3}");
    let cols = series_csv(ws.path(), "thesis/fig9.7", "main-2.csv");
    assert_eq!(cols, vec![vec![a3], vec![3.0]]);
    // Moving the level moves the marker with the result: 4 J at A = 13/6 m.
    let (ws, fig) = run("thesis/fig9.7.yaml", &FIND.replace("level: 3,", "level: 4,"));
    let a4 = fig.metrics["a3"].unwrap();
    assert!((a4 - 13.0 / 6.0).abs() <= 1e-9, "{a4}");
    assert_eq!(
        series_csv(ws.path(), "thesis/fig9.7", "main-2.csv"),
        vec![vec![a4], vec![4.0]]
    );
    let pgf = std::fs::read_to_string(ws.path().join("figures/thesis/fig9.7.pgf.tex")).unwrap();
    assert!(pgf.contains("thesis/fig9.7/main-2.csv"), "{pgf}");
    assert!(ws.path().join("figures/thesis/fig9.7.png").is_file());
}

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
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: last-period, label: start}
      - {fit: id, run: dahl, x: u, y: F, window: last-period, label: fitted}
      - {fit: id, style: circles, label: targets}
metrics:
  - {name: f_at, kind: value-at, run: dahl, x: u, y: F, at: 0.001, window: last-period, unit: N}
  - {name: f_max, kind: max, run: dahl, y: F, window: last-period, unit: N}
fit:
  - name: id
    run: dahl
    params:
      - {param: sigma, start: 400, bounds: [100, 5000], unit: N/m}
      - {param: fc, start: 0.6, bounds: [0.2, 5], unit: N}
    targets:
      - metric: f_at
        points: [[0.0005, 0.8387827987921773], [0.001, 0.9022168245943949], [0.0015, 0.9406915061124422], [-0.0005, -0.8387827987921773], [-0.001, -0.9022168245943949], [-0.0015, -0.9406915061124422]]
"#;

#[test]
fn a_fits_targets_and_its_fitted_curve_are_drawn_from_its_result() {
    let (ws, fig) = run("thesis/fig9.8.yaml", FIT);
    let (sigma, fc) = (fig.metrics["id.sigma"].unwrap(), fig.metrics["id.fc"].unwrap());
    assert!(
        (sigma / 1000.0 - 1.0).abs() < 1e-4 && (fc - 1.0).abs() < 1e-4,
        "{sigma} {fc}"
    );
    // The targets: the six points, at their abscissae.
    let t = series_csv(ws.path(), "thesis/fig9.8", "main-3.csv");
    assert_eq!(t[0], vec![0.0005, 0.001, 0.0015, -0.0005, -0.001, -0.0015]);
    assert_eq!(t[1][1], 0.9022168245943949);
    // The fitted curve is the run at the fitted values, not the start's: its largest force is
    // Fc tanh(A/L) with L = Fc/σ (tanh 2 = 0.9640 N at the answer; the start's is
    // 0.6 tanh(4/3) = 0.5223 N).
    let max = |c: &[f64]| c.iter().copied().fold(f64::MIN, f64::max);
    let fitted = series_csv(ws.path(), "thesis/fig9.8", "main-2.csv");
    let start = series_csv(ws.path(), "thesis/fig9.8", "main-1.csv");
    let want = fc * (0.002 * sigma / fc).tanh();
    assert!((max(&fitted[1]) - want).abs() < 1e-4, "{} vs {want}", max(&fitted[1]));
    assert!(
        (max(&start[1]) - 0.6 * (4.0f64 / 3.0).tanh()).abs() < 1e-4,
        "{}",
        max(&start[1])
    );
    // ... and passes through the targets: at u = 1 mm on the rising branch (F > 0 there).
    let (u, f) = (&fitted[0], &fitted[1]);
    let k = (1..u.len())
        .find(|&k| u[k - 1] < 0.001 && u[k] >= 0.001 && u[k] > u[k - 1])
        .expect("a rising crossing of 1 mm");
    let s = (0.001 - u[k - 1]) / (u[k] - u[k - 1]);
    let at = f[k - 1] + s * (f[k] - f[k - 1]);
    assert!((at - 0.9022168245943949).abs() < 1e-3, "{at}");
}

#[test]
fn a_series_naming_no_find_or_fit_is_refused_at_its_line() {
    let find = FIND.replace("{find: a3,", "{find: a4,");
    only_diagnostic("thesis/fig9.7.yaml", &find, 24, "no find `a4` in this manifest", "a3");
    let fit = FIT.replace("{fit: id, style", "{fit: fit2, style");
    only_diagnostic("thesis/fig9.8.yaml", &fit, 19, "no fit `fit2` in this manifest", "id");
    let run = FIT.replace("{fit: id, run: dahl, x: u, y: F", "{fit: id, run: dahl, x: u, y: G");
    only_diagnostic("thesis/fig9.8.yaml", &run, 18, "run `dahl` has no column `G`", "F");
    let xy = FIT.replace("{fit: id, style", "{fit: id, x: u, style");
    only_diagnostic(
        "thesis/fig9.8.yaml",
        &xy,
        19,
        "this series takes no `x`",
        "fitted curve",
    );
}
