//! What the manifest-form tests (`find`, `fit`, their marks on a figure, sweeps) share: the
//! find and fit manifests, one manifest evaluated in a fresh workspace at a job count, and the
//! diagnostics an invalid manifest must have.

use super::workspace;

/// The file of [`FIND`].
pub const FIND_FILE: &str = "thesis/fig9.7.yaml";

/// Two Maxwell-slip elements (k = 1/2, δ = 1/2, 1): the loop area is 3A − 5/2 for A ≥ 1, 3 J at
/// A = 11/6.
pub const FIND: &str = r#"id: thesis/fig9.7
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
    sweep: {param: input.amplitude, values: [1, 2]}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: ms, x: u, y: F, window: last-period}
metrics:
  - {name: area, kind: loop-area-pl, run: ms, x: u, y: F, window: last-period, unit: J}
  - {name: area_sw, kind: loop-area-pl, run: sw, x: u, y: F, window: last-period, unit: J}
find:
  - {name: a3, run: ms, param: input.amplitude, metric: area, level: 3, bracket: [1, 3], tol: 1.0e-9, unit: m}
checks:
  - metric: a3
    expected: 1.8333333333333333
    tol: {abs: 1.0e-9}
    provenance: {derived: "3A − 5/2 = 3"}
"#;

/// The file of [`FIT`].
pub const FIT_FILE: &str = "thesis/fig9.8.yaml";

/// A Dahl loop (γ = 1, A = 2 mm) read at six points of the closed form of σ = 1000 N/m,
/// Fc = 1 N: `F = ±Fc[1 − (1 + tanh(A/L)) e^{−(A ∓ u)/L}]`, L = Fc/σ; the fit starts far off.
pub const FIT: &str = r#"id: thesis/fig9.8
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

/// `text`, a manifest declared `reproduced` that a test builds without a check, declared
/// `partial` with a reason appended (a manifest with no check tests nothing of what it shows, so
/// the status rule refuses `reproduced`): the lines above the end keep their numbers.
pub fn unchecked(text: &str) -> String {
    assert!(
        text.contains("status: reproduced\n") && !text.contains("\nchecks:"),
        "{text}"
    );
    let mut out = text.replacen("status: reproduced\n", "status: partial\n", 1);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("reason: \"a test manifest without a check: partial by the status rule\"\n");
    out
}

/// The manifest `text` written at `file` (under `experiments/`) in a fresh workspace and run
/// with `jobs` workers (an empty run cache each time).
pub fn run_manifest(file: &str, text: &str, jobs: usize) -> fric_pipeline::Summary {
    run_in(file, text, jobs).1
}

/// [`run_manifest`], keeping the workspace (its `figures/` to read): the workspace and the
/// summary.
pub fn run_in(file: &str, text: &str, jobs: usize) -> (tempfile::TempDir, fric_pipeline::Summary) {
    let ws = workspace(&[(file, text)]);
    let mut o = fric_pipeline::Options::new(ws.path());
    o.jobs = Some(jobs);
    let s = fric_pipeline::run(&o).unwrap();
    (ws, s)
}

/// Run `only` (every manifest when empty) in the workspace `ws` with `jobs` workers, every
/// manifest valid: the reports by id.
pub fn reports(
    ws: &std::path::Path,
    only: &[&str],
    jobs: usize,
) -> std::collections::BTreeMap<String, fric_report::ExperimentReport> {
    let mut o = fric_pipeline::Options::new(ws);
    o.jobs = Some(jobs);
    o.only = only.iter().map(|s| s.to_string()).collect();
    let s = fric_pipeline::run(&o).unwrap();
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    s.report.experiments.into_iter().map(|e| (e.id.clone(), e)).collect()
}

/// [`run_in`], which must load and evaluate without an error: the workspace and the report.
pub fn evaluated_in(file: &str, text: &str, jobs: usize) -> (tempfile::TempDir, fric_report::ExperimentReport) {
    let (ws, s) = run_in(file, text, jobs);
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let fig = s.report.experiments.into_iter().next().expect("one manifest");
    assert!(fig.errors.is_empty(), "{:?}", fig.errors);
    (ws, fig)
}

/// [`evaluated_in`] without the workspace: the report.
pub fn evaluated(file: &str, text: &str, jobs: usize) -> fric_report::ExperimentReport {
    evaluated_in(file, text, jobs).1
}

/// The only diagnostic of the manifest `text` at `file`, which must be invalid: at `line`, its
/// message containing `message`, its allowed values `allowed`.
pub fn only_diagnostic(file: &str, text: &str, line: usize, message: &str, allowed: &str) {
    let ws = workspace(&[(file, text)]);
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1, "{text}");
    let d = &loaded.invalid[0].diagnostics;
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].line, line, "{}", d[0]);
    assert!(d[0].message.contains(message), "{}", d[0]);
    assert!(d[0].allowed.contains(allowed), "{}", d[0]);
}

/// The diagnostics of the manifest `text` at `file`, which must be invalid.
pub fn diagnostics(file: &str, text: &str) -> Vec<fric_manifest::Diagnostic> {
    let ws = workspace(&[(file, text)]);
    let loaded = fric_pipeline::load(ws.path());
    assert!(!loaded.invalid.is_empty(), "{text}");
    loaded.invalid[0].diagnostics.clone()
}

/// The diagnostics of the manifest `text` at `file`, the only invalid one, in a workspace whose
/// `data_file` (a path under the workspace, e.g. `data/meas/points.csv`) holds `contents`.
pub fn diagnostics_with_data(
    file: &str,
    text: &str,
    data_file: &str,
    contents: &str,
) -> Vec<fric_manifest::Diagnostic> {
    let ws = workspace(&[(file, text)]);
    let p = ws.path().join(data_file);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, contents).unwrap();
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1, "{text}");
    loaded.invalid[0].diagnostics.clone()
}

/// `d` is one diagnostic, at `line`, its message containing `message`.
pub fn only_one(d: Vec<fric_manifest::Diagnostic>, line: usize, message: &str) {
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].line, line, "{}", d[0]);
    assert!(d[0].message.contains(message), "{}", d[0]);
}
