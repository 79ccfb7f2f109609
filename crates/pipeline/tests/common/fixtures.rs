//! Small manifests the integration tests of fric-pipeline and xtask both run (xtask includes this
//! file by path).

/// A reproduced figure: one Dahl run, one panel, its loop area checked against the derived value.
pub const DAHL: &str = r#"id: thesis/fig9.1
kind: figure
source: {document: thesis, number: "9.1", caption: "test figure", lines: [1]}
content: simulation
status: reproduced
runs:
  - id: dahl
    system: dahl
    params: {sigma: 7.5, fc: 1.5, gamma: 1}
    input: {kind: sine, amplitude: 5, omega: 2}
    sim: {periods: 2, samples_per_period: 400}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: {periods: [1, 2]}, label: LABEL}
metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [1, 2]}}
checks:
  - {metric: area, expected: 28.8, tol: {rel: 1.0e-3}, provenance: {derived: "4(A Fc - Fr Fc/sigma)"}}
"#;

/// A second figure: a linear mass-spring-damper swept over two input frequencies.
pub const LINEAR: &str = r#"id: thesis/fig9.2
kind: figure
source: {document: thesis, number: "9.2", caption: "second figure", lines: [2]}
content: simulation
status: partial
runs:
  - id: msd
    system: linear-msd
    params: {m: 1, c: 2, k: 1}
    input: {kind: sine, amplitude: 1, omega: 1}
    sim: {periods: 3, samples_per_period: 200}
    sweep: {param: input.omega, values: [1, 0.5]}
panels:
  - id: main
    x: {label: u}
    y: {label: y}
    series:
      - {run: msd, x: u, y: y, label: "w = {value}"}
reason: "a test fixture without a check: partial by the status rule"
"#;

/// A Dahl model (γ = 1) under a triangle wave of amplitude 1.5 and period 4 s: the force at the
/// first reversal (t = 1 s) is the closed form `Fc (1 − exp(−σ A / Fc))`, which the exact
/// operator reaches because the reversal is one of its samples.
pub const DAHL_TRIANGLE: &str = r#"id: thesis/fig9.5
kind: figure
source: {document: thesis, number: "9.5", caption: "Dahl under a triangle wave", lines: [5]}
content: simulation
status: reproduced
runs:
  - id: tri
    system: dahl
    params: {sigma: 2, fc: 1, gamma: 1}
    input: {kind: triangle, amplitude: 1.5, omega: 1.5707963267948966}
    sim: {periods: 2, samples_per_period: 400}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: tri, x: u, y: F}
metrics:
  - {name: f_reversal, kind: max, run: tri, y: F, window: {t: [0, 1]}}
checks:
  - {metric: f_reversal, expected: 0.950212931632136, tol: {rel: 1.0e-12}, provenance: {derived: "Fc (1 - exp(-sigma A / Fc)) with sigma = 2, Fc = 1, A = 1.5"}}
"#;

/// A Dahl model (γ = 1) swept over a grid σ × amplitude (4 members: σ = 5, 10 each with
/// A = 1, 2): its loop area over every member (a metric table), drawn against σ with one series
/// per amplitude. The closed form of the area is `4 Fc (A − L tanh(A/L))`, `L = Fc/σ`.
pub const DAHL_GRID: &str = r#"id: thesis/fig9.6
kind: figure
source: {document: thesis, number: "9.6", caption: "Dahl loop area over a grid", lines: [6]}
content: simulation
status: reproduced
runs:
  - id: dahl
    system: dahl
    params: {sigma: 5, fc: 1, gamma: 1}
    input: {kind: sine, amplitude: 1, omega: 2}
    sim: {periods: 2, samples_per_period: 2000}
    sweep:
      grid:
        - {param: sigma, values: [5, 10]}
        - {param: input.amplitude, values: [1, 2]}
panels:
  - id: main
    x: {label: σ, unit: N/m}
    y: {label: area, unit: J}
    series:
      - {metric: area, x: sigma, group: input.amplitude, style: points, label: "A = {value}"}
metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [1, 2]}, unit: J}
  - {name: bound, kind: max, run: "dahl[0]", y: u}
  - {name: per_a, kind: ratio, of: [area, bound]}
checks:
  - {metric: area, op: lt, expected: 5, provenance: {derived: "area < 4 Fc A"}}
"#;

/// A table of the same sweep: written cells with metric values, and rows generated from the
/// metric table.
pub const DAHL_TABLE: &str = r#"id: thesis/table9.7
kind: table
source: {document: thesis, number: "9.7", caption: "Dahl loop areas", lines: [7]}
content: table
status: partial
runs:
  - id: dahl
    system: dahl
    params: {sigma: 5, fc: 1, gamma: 1}
    input: {kind: sine, amplitude: 1, omega: 2}
    sim: {periods: 2, samples_per_period: 2000}
    sweep:
      zip:
        - {param: sigma, values: [5, 10]}
        - {param: input.amplitude, values: [1, 2]}
metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [1, 2]}, unit: J}
table:
  columns: [σ, A, area]
  rows:
    - ["5", "1", "{{ area[0] | fmt(\".4g\") }}"]
  from_metrics: {metrics: [area], format: ".3f"}
reason: "a test fixture without a check: partial by the status rule"
"#;

/// The declaration of a test document `<doc>` (with a source text, so seed lines are required).
pub fn declaration(doc: &str) -> String {
    format!("title: \"test document {doc}\"\nsource: {{file: ../shared/seeds/{doc}.txt}}\n")
}

/// Declare every document folder that `files` (paths under `experiments/`) use and that has
/// no `document.yaml` among them.
pub fn declare_documents(experiments: &std::path::Path, files: &[(&str, &str)]) {
    for (name, _) in files {
        let Some((doc, _)) = name.split_once('/') else { continue };
        let decl = experiments.join(doc).join("document.yaml");
        let given = files.iter().any(|(n, _)| *n == format!("{doc}/document.yaml"));
        if !given && !decl.exists() {
            std::fs::create_dir_all(decl.parent().unwrap()).unwrap();
            std::fs::write(decl, declaration(doc)).unwrap();
        }
    }
}
