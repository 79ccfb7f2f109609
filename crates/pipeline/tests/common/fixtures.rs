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
status: reproduced
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
"#;
