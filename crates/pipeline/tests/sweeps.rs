//! Sweeps as data: grid and zipped sweeps, metrics over every member (metric tables), a check
//! on every member, a metric drawn against a swept parameter, table cells with metric values
//! and tables generated from metric tables; and what is refused, with its line.

mod common;

use common::{workspace, DAHL_GRID, DAHL_TABLE};
use fric_pipeline::{run, Options};
use fric_report::Outcome;

/// The Dahl (γ = 1) loop area in closed form.
fn dahl_area(sigma: f64, fc: f64, a: f64) -> f64 {
    let l = fc / sigma;
    4.0 * fc * (a - l * (a / l).tanh())
}

fn go(root: &std::path::Path) -> fric_pipeline::Summary {
    let mut o = Options::new(root);
    o.jobs = Some(2);
    run(&o).unwrap()
}

#[test]
fn a_grid_sweep_gives_a_metric_table_a_plot_and_checks_per_member() {
    let ws = workspace(&[("thesis/fig9.6.yaml", DAHL_GRID), ("thesis/table9.7.yaml", DAHL_TABLE)]);
    let root = ws.path();
    let s = go(root);
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let fig = s.report.experiments.iter().find(|e| e.id == "thesis/fig9.6").unwrap();
    assert!(fig.errors.is_empty(), "{:?}", fig.errors);
    // Row-major order: the last parameter varies fastest.
    let t = &fig.metric_tables["area"];
    assert_eq!(t.params, ["sigma", "input.amplitude"]);
    assert_eq!(t.unit.as_deref(), Some("J"));
    let coords: Vec<(f64, f64)> = t
        .members
        .iter()
        .map(|m| (m.coords["sigma"], m.coords["input.amplitude"]))
        .collect();
    assert_eq!(coords, [(5.0, 1.0), (5.0, 2.0), (10.0, 1.0), (10.0, 2.0)]);
    for (k, m) in t.members.iter().enumerate() {
        assert_eq!(m.run, format!("dahl[{k}]"));
        let exact = dahl_area(m.coords["sigma"], 1.0, m.coords["input.amplitude"]);
        let v = m.value.unwrap();
        assert!((v - exact).abs() < 1e-3 * exact, "member {k}: {v} vs {exact}");
        assert_eq!(fig.metrics[&format!("area[{k}]")], Some(v));
        let info = &fig.metric_info[&format!("area[{k}]")];
        assert_eq!(info.unit.as_deref(), Some("J"));
        let want = format!(
            "sigma={},input.amplitude={}",
            m.coords["sigma"], m.coords["input.amplitude"]
        );
        assert_eq!(info.sweep.as_deref(), Some(want.as_str()));
        // The resolved parameters and the sweep values of every member.
        let r = &fig.runs[&m.run];
        assert_eq!(r.params["sigma"], serde_json::json!(m.coords["sigma"]));
        assert_eq!(r.input["amplitude"], serde_json::json!(m.coords["input.amplitude"]));
        assert_eq!(r.sweep, m.coords);
    }
    // A metric of a metric table and a single value: member by member.
    let bound = fig.metrics["bound"].unwrap();
    for k in 0..4 {
        let r = fig.metrics[&format!("per_a[{k}]")].unwrap();
        assert_eq!(r, fig.metrics[&format!("area[{k}]")].unwrap() / bound);
    }
    // The check applies to every member: the A = 2 members exceed 5 (area ≈ 8 − ...).
    let outcomes: Vec<(String, Outcome)> = fig.checks.iter().map(|c| (c.metric.clone(), c.outcome)).collect();
    assert_eq!(
        outcomes,
        [
            ("area[0]".to_string(), Outcome::Pass),
            ("area[1]".to_string(), Outcome::Fail),
            ("area[2]".to_string(), Outcome::Pass),
            ("area[3]".to_string(), Outcome::Fail),
        ]
    );
    // The plot: one series per amplitude, area against σ, sorted by σ.
    for (n, a) in [(1, 1.0), (2, 2.0)] {
        let csv = std::fs::read_to_string(root.join(format!("figures/thesis/fig9.6/main-{n}.csv"))).unwrap();
        let rows: Vec<Vec<f64>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
            .collect();
        assert_eq!(csv.lines().next(), Some("sigma,area"));
        assert_eq!(rows.len(), 2);
        for (r, sigma) in rows.iter().zip([5.0, 10.0]) {
            assert_eq!(r[0], sigma);
            assert!((r[1] - dahl_area(sigma, 1.0, a)).abs() < 1e-3 * r[1]);
        }
    }
    let svg = std::fs::read_to_string(root.join("figures/thesis/fig9.6.svg")).unwrap();
    assert!(
        svg.contains("A = 1") && svg.contains("A = 2"),
        "legend names the groups"
    );
    // The tidy metrics file: one row per member with its coordinates.
    let tidy = std::fs::read_to_string(root.join("figures/metrics.csv")).unwrap();
    assert!(
        tidy.contains("thesis/fig9.6,area[3],\"sigma=10,input.amplitude=2\""),
        "{tidy}"
    );

    // The table: a written cell with a formatted value and the rows of the zipped sweep.
    let tex = std::fs::read_to_string(root.join("figures/thesis/table9.7.tex")).unwrap();
    let a0 = format!("{:.3}", dahl_area(5.0, 1.0, 1.0));
    assert!(tex.contains(&format!("5 & 1 & {}", &a0[..5])), "{tex}");
    let a1 = dahl_area(10.0, 1.0, 2.0);
    assert!(tex.contains(&format!("10 & 2 & {a1:.3}")), "{tex}");
    assert!(!tex.contains("{{"), "{tex}");
}

/// The diagnostics of the only manifest, which must be invalid.
fn problems(text: &str) -> Vec<fric_manifest::Diagnostic> {
    problems_at("thesis/fig9.6.yaml", text)
}

fn problems_at(file: &str, text: &str) -> Vec<fric_manifest::Diagnostic> {
    let ws = workspace(&[(file, text)]);
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1, "{text}");
    loaded.invalid[0].diagnostics.clone()
}

fn one(text: &str, line: usize, message: &str, allowed: &str) {
    let d = problems(text);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!((d[0].line, d[0].message.as_str()), (line, message), "{}", d[0]);
    assert!(d[0].allowed.contains(allowed), "{}", d[0]);
}

#[test]
fn bad_sweeps_metric_series_and_cells_are_reported_at_their_line() {
    // (replace, by, line, message, allowed)
    let cases: &[(&str, &str, usize, &str, &str)] = &[
        (
            "param: input.amplitude",
            "param: sigma",
            15,
            "`sigma` is swept twice (also grid[0])",
            "each parameter once",
        ),
        (
            "    sweep:\n",
            "    sweep:\n      param: sigma\n",
            12,
            "a sweep is exactly one of three forms",
            "{grid: [",
        ),
        (
            "input.amplitude, values",
            "input.amp, values",
            15,
            "the input has no numeric field `amp` (fields: `amplitude`, `offset`, `omega`, `phase`)",
            "input.<field>",
        ),
        (
            "x: sigma, group",
            "x: fc, group",
            21,
            "run `dahl` does not sweep `fc`",
            "sigma, input.amplitude",
        ),
        (
            ", group: input.amplitude",
            "",
            21,
            "run `dahl` sweeps 2 parameters: name the others in `group`",
            "group:",
        ),
        (
            "metric: area, x",
            "metric: bound, x",
            21,
            "metric `bound` is not evaluated over a swept run",
            "swept id",
        ),
        (
            "{metric: area, x:",
            "{run: dahl, metric: area, x:",
            21,
            "a metric series takes no `run`",
            "{metric, x",
        ),
        (
            "{metric: area, x: sigma, group: input.amplitude,",
            "{run: dahl, x: u,",
            21,
            "a series needs `y`",
            "{run, x, y}",
        ),
        (
            "{metric: area, op",
            "{metric: \"area[4]\", op",
            27,
            "unknown metric `area[4]`",
            "area (or area[0..4])",
        ),
    ];
    for (from, to, line, message, allowed) in cases {
        one(&DAHL_GRID.replace(from, to), *line, message, allowed);
    }
    let zip = DAHL_GRID
        .replace("grid:", "zip:")
        .replace("values: [1, 2]}", "values: [1, 2, 3]}");
    one(&zip, 15, "3 values, zip[0] has 2", "the same number of values");
}

#[test]
fn bad_table_cells_and_generated_tables_are_reported_at_their_line() {
    let tab = |from: &str, to: &str| DAHL_TABLE.replace(from, to);
    let d = |text: String| problems_at("thesis/table9.7.yaml", &text);
    let p = d(tab("area[0] |", "arae[0] |"));
    assert_eq!((p.len(), p[0].line), (1, 21), "{p:#?}");
    assert_eq!(p[0].message, "unknown metric `arae[0]` in the cell");
    let p = d(tab("fmt(\\\".4g\\\")", "fmt(\\\".4q\\\")"));
    assert_eq!((p.len(), p[0].line), (1, 21), "{p:#?}");
    assert!(p[0].message.contains("unknown number format `.4q`"), "{}", p[0]);
    let p = d(tab("columns: [σ, A, area]", "columns: [σ, area]"));
    assert!(
        p.iter().any(|x| x.line == 19
            && x.message
                .starts_with("2 columns; the generated rows have 3 cells: sigma | input.amplitude | area [J]")),
        "{p:#?}"
    );
    let p = d(tab("format: \".3f\"", "format: \"3f\""));
    assert_eq!((p.len(), p[0].line), (1, 22), "{p:#?}");
}
