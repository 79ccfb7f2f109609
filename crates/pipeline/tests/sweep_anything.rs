//! Sweeps of anything a manifest writes (issue 50, item 1): a list parameter generated from an
//! element count (`elements: {n, each}`, swept as `elements.n`), simulation settings
//! (`sim.<field>`), a zip nested in a grid; and what is refused, at its line.

mod common;

use common::{diagnostics, run_manifest};

const FILE: &str = "thesis/fig9.6.yaml";

/// Maxwell-slip with N elements k_i = 1/N, δ_i = i/N, over a grid of N and a zip of (A, ω):
/// six members.
const ELEMENTS: &str = r#"id: thesis/fig9.6
kind: figure
source: {document: thesis, number: "9.6", caption: "Maxwell-slip loop area against N", lines: [6]}
content: simulation
status: partial
runs:
  - id: ms
    system: maxwell-slip
    elements: {n: 2, each: {k: "1/n", delta: "i/n"}}
    input: {kind: sine, amplitude: 1, omega: 1}
    sim: {periods: 2, samples_per_period: 400}
    sweep:
      grid:
        - {param: elements.n, values: [1, 2, 4]}
        - zip:
            - {param: input.amplitude, values: [2, 3]}
            - {param: input.omega, values: [1, 5]}
  - id: dahl
    system: dahl
    params: {sigma: 5, fc: 1, gamma: 1}
    input: {kind: sine, amplitude: 1, omega: 2}
    sim: {periods: 2, samples_per_period: 400}
    sweep: {param: sim.periods, values: [1, 3]}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: "ms[5]", x: u, y: F, window: last-period}
metrics:
  - {name: area, kind: loop-area, run: ms, x: u, y: F, window: last-period, unit: J}
  - {name: tmax, kind: max, run: dahl, y: t, window: all, unit: s}
reason: "a test fixture without a check: partial by the status rule"
"#;

/// Σ 4 k_i δ_i (A − δ_i) over the elements that slip (δ_i < A): the Maxwell-slip loop area.
fn exact_area(n: usize, a: f64) -> f64 {
    (1..=n)
        .map(|i| (1.0 / n as f64, i as f64 / n as f64))
        .filter(|(_, d)| *d < a)
        .map(|(k, d)| 4.0 * k * d * (a - d))
        .sum()
}

#[test]
fn an_element_count_sim_settings_and_a_zip_in_a_grid_are_swept() {
    let s = run_manifest(FILE, ELEMENTS, 2);
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let fig = &s.report.experiments[0];
    assert!(fig.errors.is_empty(), "{:?}", fig.errors);
    let t = &fig.metric_tables["area"];
    assert_eq!(t.params, ["elements.n", "input.amplitude", "input.omega"]);
    let coords: Vec<[f64; 3]> = t
        .members
        .iter()
        .map(|m| {
            [
                m.coords["elements.n"],
                m.coords["input.amplitude"],
                m.coords["input.omega"],
            ]
        })
        .collect();
    let want = [
        [1.0, 2.0, 1.0],
        [1.0, 3.0, 5.0],
        [2.0, 2.0, 1.0],
        [2.0, 3.0, 5.0],
        [4.0, 2.0, 1.0],
        [4.0, 3.0, 5.0],
    ];
    assert_eq!(coords, want);
    for m in &t.members {
        let n = m.coords["elements.n"] as usize;
        let r = &fig.runs[&m.run];
        // A one-element list is reported as a number.
        let list = |v: &serde_json::Value| -> Vec<f64> {
            v.as_f64()
                .map_or_else(|| serde_json::from_value(v.clone()).unwrap(), |x| vec![x])
        };
        let (k, delta) = (list(&r.params["k"]), list(&r.params["delta"]));
        assert_eq!(k, vec![1.0 / n as f64; n], "{}", m.run);
        assert_eq!(delta, (1..=n).map(|i| i as f64 / n as f64).collect::<Vec<_>>());
        let exact = exact_area(n, m.coords["input.amplitude"]);
        let v = m.value.unwrap();
        assert!((v - exact).abs() < 1e-3 * exact, "{}: {v} vs {exact}", m.run);
    }
    // sim.periods: the run lasts 1 and 3 periods of ω = 2 rad/s.
    let tmax = &fig.metric_tables["tmax"];
    for (m, periods) in tmax.members.iter().zip([1.0, 3.0]) {
        let want = periods * std::f64::consts::PI;
        assert!((m.value.unwrap() - want).abs() < 1e-9, "{}: {:?}", m.run, m.value);
    }
}

/// The only diagnostic of the manifest `text`, which must be invalid: its message exactly.
fn one(text: &str, line: usize, message: &str, allowed: &str) {
    let d = diagnostics(FILE, text);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!((d[0].line, d[0].message.as_str()), (line, message), "{}", d[0]);
    assert!(d[0].allowed.contains(allowed), "{}", d[0]);
}

#[test]
fn bad_element_sets_and_sweeps_are_reported_at_their_line() {
    let cases: &[(&str, &str, usize, &str, &str)] = &[
        (
            r#"delta: "i/n""#,
            r#"delta: "i/""#,
            9,
            "`i/`: the expression ends too early",
            "an expression in i and n",
        ),
        (
            "values: [1, 2, 4]",
            "values: [1, 2.5, 4]",
            14,
            "2.5 elements",
            "a whole number",
        ),
        (
            "{param: sim.periods,",
            "{param: sim.method,",
            23,
            "`sim.method` cannot be swept (sim fields: periods, t_end, samples_per_period, rtol, atol)",
            "sim.<field>",
        ),
        (
            "{param: input.omega, values: [1, 5]}",
            "{param: input.omega, values: [1, 5, 7]}",
            17,
            "3 values, grid[1].zip[0] has 2",
            "the same number",
        ),
        (
            "{param: input.omega, values: [1, 5]}",
            "{param: elements.n, values: [1, 5]}",
            17,
            "`elements.n` is swept twice (also grid[0])",
            "each parameter once",
        ),
        (
            "{param: input.omega, values: [1, 5]}",
            "{zip: [{param: input.omega, values: [1, 5]}]}",
            17,
            "a zip inside a zip",
            "{param, values} in a zip",
        ),
    ];
    for (from, to, line, message, allowed) in cases {
        assert!(ELEMENTS.contains(from), "{from}");
        one(&ELEMENTS.replace(from, to), *line, message, allowed);
    }
    // A list parameter written as a list cannot be swept; the message names the generator.
    let list = ELEMENTS
        .replace(
            r#"elements: {n: 2, each: {k: "1/n", delta: "i/n"}}"#,
            "params: {k: [1], delta: [1]}",
        )
        .replace(
            "- {param: elements.n, values: [1, 2, 4]}",
            "- {param: k, values: [1, 2]}",
        );
    one(
        &list,
        14,
        "`k` is a list parameter (1 values); a sweep sets one number (generate the list from a count with `elements: {n, each}` and sweep `elements.n`)",
        "elements.n",
    );
    // A parameter both written and generated.
    let both = ELEMENTS.replace("    elements:", "    params: {k: [1, 1]}\n    elements:");
    one(
        &both,
        10,
        "`k` is written in `params` and generated by `elements.each`",
        "one of the two",
    );
}
