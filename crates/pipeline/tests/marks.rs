//! A `find`'s and a `fit`'s results drawn on their figure (issue 50, item 2's marker): the
//! series files (which the SVG/PNG draw and the PGFPlots file reads) hold the computed values,
//! not values written in the manifest; and series naming no find or fit are refused at their
//! line; a find that reports a jump draws its two sides.

mod common;

use common::{evaluated_in, only_diagnostic, run_in, FIND, FIND_FILE, FIT, FIT_FILE};
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

/// [`FIND`] with the area drawn over the amplitude and the find's marker on that panel.
fn find_marked() -> String {
    let from = "    x: {label: u, unit: m}\n    y: {label: F, unit: N}\n    series:\n      - {run: ms, x: u, y: F, window: last-period}\n";
    let to = "    x: {label: A, unit: m}\n    y: {label: area, unit: J}\n    series:\n      - {metric: area_sw, x: input.amplitude, style: points}\n      - {find: a3, style: circles, label: \"area = 3 J\"}\n";
    assert!(FIND.contains(from));
    FIND.replacen(from, to, 1)
}

/// [`FIT`] with its start's loop (series 1), its fitted curve (2) and its targets (3) drawn.
fn fit_marked() -> String {
    let from = "      - {run: dahl, x: u, y: F, window: last-period}\n";
    let to = "      - {run: dahl, x: u, y: F, window: last-period, label: start}\n      - {fit: id, run: dahl, x: u, y: F, window: last-period, label: fitted}\n      - {fit: id, style: circles, label: targets}\n";
    assert!(FIT.contains(from));
    FIT.replacen(from, to, 1)
}

#[test]
fn a_finds_marker_sits_at_the_found_value_on_the_level() {
    let (ws, fig) = evaluated_in(FIND_FILE, &find_marked(), 2);
    let a3 = fig.metrics["a3"].unwrap();
    assert!((a3 - 11.0 / 6.0).abs() <= 1e-9, "{a3}");
    let cols = series_csv(ws.path(), "thesis/fig9.7", "main-2.csv");
    assert_eq!(cols, vec![vec![a3], vec![3.0]]);
    // Moving the level moves the marker with the result: 4 J at A = 13/6 m.
    let (ws, fig) = evaluated_in(FIND_FILE, &find_marked().replace("level: 3,", "level: 4,"), 2);
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

#[test]
fn a_fits_targets_and_its_fitted_curve_are_drawn_from_its_result() {
    let (ws, fig) = evaluated_in(FIT_FILE, &fit_marked(), 2);
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
    let find = find_marked().replace("{find: a3,", "{find: a4,");
    only_diagnostic(FIND_FILE, &find, 24, "no find `a4` in this manifest", "a3");
    let fit = fit_marked().replace("{fit: id, style", "{fit: fit2, style");
    only_diagnostic(FIT_FILE, &fit, 25, "no fit `fit2` in this manifest", "id");
    let run = fit_marked().replace("{fit: id, run: dahl, x: u, y: F", "{fit: id, run: dahl, x: u, y: G");
    only_diagnostic(FIT_FILE, &run, 24, "run `dahl` has no column `G`", "F");
    let xy = fit_marked().replace("{fit: id, style", "{fit: id, x: u, style");
    only_diagnostic(FIT_FILE, &xy, 25, "this series takes no `x`", "fitted curve");
}

/// Coulomb friction F = Fc sign(v) at the end `to` of a velocity grid: the metric steps from
/// −Fc to +Fc at `to` = 0 and crosses no level in between.
const JUMP: &str = r#"id: thesis/fig9.9
kind: figure
source: {document: thesis, number: "9.9", caption: "Coulomb friction at the grid's end", lines: [6]}
content: simulation
status: partial
runs:
  - id: c
    system: coulomb-friction-curve
    params: {fc: 1}
    input: {kind: grid, from: -2, to: 1, points: 3}
panels:
  - id: main
    x: {label: v, unit: m/s}
    y: {label: F, unit: N}
    series:
      - {run: c, x: v, y: F}
      - {find: v0, style: circles, label: "F = 0"}
metrics:
  - {name: f_end, kind: final, run: c, y: F, unit: N}
find:
  - {name: v0, run: c, param: input.to, metric: f_end, level: 0, bracket: [-1, 1.5], tol: 1.0e-9, unit: m/s}
reason: "a test fixture without a check: partial by the status rule"
"#;

/// Review L4: a find that reports a jump draws its two sides, (lo, F(lo)) and (hi, F(hi)), from
/// its result, not a point on the level.
#[test]
fn a_finds_jump_is_drawn_as_its_two_sides() {
    let (ws, s) = run_in("thesis/fig9.9.yaml", JUMP, 2);
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let fig = &s.report.experiments[0];
    let m = &fig.metrics;
    assert_eq!(m["v0"], None, "a jump has no root: {m:?}");
    assert!(fig.errors.iter().any(|e| e.contains("jumps")), "{:?}", fig.errors);
    let (lo, hi) = (m["v0.lo"].unwrap(), m["v0.hi"].unwrap());
    assert!(lo < 0.0 && 0.0 < hi && hi - lo <= 1e-9, "{lo} {hi}");
    assert_eq!((m["v0.metric_lo"], m["v0.metric_hi"]), (Some(-1.0), Some(1.0)));
    let cols = series_csv(ws.path(), "thesis/fig9.9", "main-2.csv");
    assert_eq!(cols, vec![vec![lo, hi], vec![-1.0, 1.0]]);
    let pgf = std::fs::read_to_string(ws.path().join("figures/thesis/fig9.9.pgf.tex")).unwrap();
    assert!(pgf.contains("thesis/fig9.9/main-2.csv"), "{pgf}");
    assert!(ws.path().join("figures/thesis/fig9.9.png").is_file());
}
