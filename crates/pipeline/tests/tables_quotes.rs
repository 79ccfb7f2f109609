//! Tables from metrics (a run taken by `from:` keeps its swept columns, several runs in one
//! table, a pivot, a LuaLaTeX compile of the result) and captions that quote metrics and
//! parameters (filled in every output, validated at load with their line).

mod common;

use common::{workspace, DAHL_GRID};
use fric_pipeline::{run, Options};
use std::process::Command;

fn go(root: &std::path::Path) -> fric_pipeline::Summary {
    let mut o = Options::new(root);
    o.jobs = Some(2);
    run(&o).unwrap()
}

/// A table of the grid of `DAHL_GRID` taken by `from:`, `table` being its `table:` body.
fn from_table(table: &str) -> String {
    format!(
        r#"id: thesis/table9.8
kind: table
source: {{document: thesis, number: "9.8", caption: "Dahl loop areas at σ and A (σ0 = {{{{ dahl[0].sigma }}}} N/m)", lines: [8]}}
content: table
status: partial
related:
  - {{id: thesis/fig9.6, relation: uses-run-of}}
runs:
  - {{id: dahl, from: "thesis/fig9.6#dahl"}}
  - id: single
    system: dahl
    params: {{sigma: 20, fc: 1, gamma: 1}}
    input: {{kind: sine, amplitude: 1, omega: 2}}
    sim: {{periods: 2, samples_per_period: 2000}}
metrics:
  - {{name: area, kind: loop-area, run: dahl, x: u, y: F, window: {{periods: [1, 2]}}, unit: J}}
  - {{name: single_area, kind: loop-area, run: single, x: u, y: F, window: {{periods: [1, 2]}}, unit: J}}
table:
{table}
reason: "a test fixture without a check: partial by the status rule"
"#
    )
}

/// The generated `.tex` of table 9.8, with the grid figure beside it.
fn table_tex(table: &str) -> (tempfile::TempDir, String, fric_pipeline::Summary) {
    let ws = workspace(&[
        ("thesis/fig9.6.yaml", DAHL_GRID),
        ("thesis/table9.8.yaml", &from_table(table)),
    ]);
    let s = go(ws.path());
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let t = s.report.experiments.iter().find(|e| e.id == "thesis/table9.8").unwrap();
    assert!(t.errors.is_empty(), "{:?}", t.errors);
    let tex = std::fs::read_to_string(ws.path().join("figures/thesis/table9.8.tex")).unwrap();
    (ws, tex, s)
}

/// The `\hline`-delimited header line and body rows of a generated table.
fn header_and_rows(tex: &str) -> (String, Vec<String>) {
    let lines: Vec<&str> = tex.lines().map(str::trim).collect();
    let h = lines.iter().position(|l| *l == "\\hline").unwrap();
    let rows = lines[h + 3..]
        .iter()
        .take_while(|l| **l != "\\hline")
        .map(|l| l.to_string())
        .collect();
    (lines[h + 1].to_string(), rows)
}

#[test]
fn a_run_taken_by_from_keeps_its_swept_columns() {
    let (_ws, tex, _) = table_tex("  from_metrics: {metrics: [area]}");
    let (header, rows) = header_and_rows(&tex);
    assert_eq!(header, "sigma & input.amplitude & area [J] \\\\", "{tex}");
    assert_eq!(rows.len(), 4, "{tex}");
    for r in &rows {
        assert_eq!(r.matches('&').count(), 2, "every row has the header's three cells: {r}");
    }
    // Four significant digits by default: A = 1, σ = 5 gives 4(1 − 0.2 tanh 5) = 3.2001.
    assert!(
        rows[0].starts_with("5 & 1 & 3.2 \\\\") || rows[0].starts_with("5 & 1 & 3.200"),
        "{tex}"
    );
}

#[test]
fn a_pivot_puts_a_coordinate_across_and_joins_several_runs() {
    let table = "  from_metrics:\n    metrics:\n      - area\n      - {metric: single_area, at: {sigma: 20, input.amplitude: 1}, as: area}\n    pivot: input.amplitude";
    let (_ws, tex, s) = table_tex(table);
    let (header, rows) = header_and_rows(&tex);
    assert_eq!(
        header, "sigma & input.amplitude = 1 & input.amplitude = 2 \\\\",
        "{tex}"
    );
    assert_eq!(
        rows.len(),
        3,
        "σ = 5, 10 from the sweep and σ = 20 from the single run: {tex}"
    );
    assert!(rows[2].starts_with("20 & ") && rows[2].ends_with("& -- \\\\"), "{tex}");
    let t = s.report.experiments.iter().find(|e| e.id == "thesis/table9.8").unwrap();
    let a = |k: usize| t.metrics[&format!("area[{k}]")].unwrap();
    let f = |v: f64| fric_pipeline::table_layout::format_number(v, Some(".4g"));
    assert_eq!(rows[0], format!("5 & {} & {} \\\\", f(a(0)), f(a(1))), "{tex}");
    // The caption quotes a parameter of one member of the borrowed run (typeset as one formula,
    // the relation with its operands: `$\sigma_{0} = 5$ N/m`).
    assert!(tex.contains("N/m)") && tex.contains("= 5$ N/m"), "{tex}");
    compile(&tex);
}

/// Compile a generated table in a minimal LuaLaTeX document, where LuaLaTeX is installed.
fn compile(tex: &str) {
    let Some(engine) = ["lualatex"].into_iter().find(|e| {
        Command::new(e)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        eprintln!("note: no lualatex on PATH; the table was not compiled");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.tex"), tex).unwrap();
    let doc = "\\documentclass{article}\n\\begin{document}\n\\input{t.tex}\n\\end{document}\n";
    std::fs::write(dir.path().join("doc.tex"), doc).unwrap();
    let out = Command::new(engine)
        .args(["-interaction=nonstopmode", "-halt-on-error", "doc.tex"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{engine} failed:\n{log}");
    assert!(!log.contains("Missing character"), "a glyph is missing:\n{log}");
}

#[test]
fn written_columns_that_do_not_match_and_unknown_quotes_are_refused_at_their_line() {
    let bad_columns = from_table("  columns: [σ, area]\n  from_metrics: {metrics: [area]}");
    let ws = workspace(&[
        ("thesis/fig9.6.yaml", DAHL_GRID),
        ("thesis/table9.8.yaml", &bad_columns),
    ]);
    let loaded = fric_pipeline::load(ws.path());
    let d = &loaded
        .invalid
        .iter()
        .find(|i| i.file.ends_with("table9.8.yaml"))
        .unwrap()
        .diagnostics;
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].line, 19, "{}", d[0]);
    assert!(
        d[0].message
            .contains("2 columns; the generated rows have 3 cells: sigma | input.amplitude | area [J]"),
        "{}",
        d[0]
    );

    let bad_pivot = from_table("  from_metrics: {metrics: [area], pivot: N}");
    let ws = workspace(&[("thesis/fig9.6.yaml", DAHL_GRID), ("thesis/table9.8.yaml", &bad_pivot)]);
    let loaded = fric_pipeline::load(ws.path());
    let d = &loaded
        .invalid
        .iter()
        .find(|i| i.file.ends_with("table9.8.yaml"))
        .unwrap()
        .diagnostics;
    assert!(d[0].message.contains("pivot `N` is not a coordinate"), "{}", d[0]);

    let unknown = DAHL_GRID.replace("Dahl loop area over a grid", "Dahl loop area at {{ sigmaa }}");
    let ws = workspace(&[("thesis/fig9.6.yaml", &unknown)]);
    let loaded = fric_pipeline::load(ws.path());
    let d = &loaded.invalid[0].diagnostics;
    assert_eq!((d.len(), d[0].line), (1, 3), "{d:#?}");
    assert!(
        d[0].message.contains("`sigmaa` is neither a metric nor a parameter"),
        "{}",
        d[0]
    );
    assert!(
        d[0].allowed.contains("area") && d[0].allowed.contains("fc") && d[0].allowed.contains("input.omega"),
        "{}",
        d[0]
    );

    // A swept parameter has several values: quote one member's.
    let swept = DAHL_GRID.replace("Dahl loop area over a grid", "Dahl loop area at σ = {{ sigma }}");
    let ws = workspace(&[("thesis/fig9.6.yaml", &swept)]);
    let d = &fric_pipeline::load(ws.path()).invalid[0].diagnostics;
    assert!(d[0].message.contains("`sigma` has 2 values"), "{}", d[0]);
}

#[test]
fn a_quoting_caption_and_title_are_filled_in_every_output() {
    let text = DAHL_GRID
        .replace(
            "Dahl loop area over a grid",
            "Dahl loop area, Fc = {{ fc }} N, first area {{ area[0] | fmt(\\\".3g\\\") }} J",
        )
        .replace(
            "  - id: main\n",
            "  - id: main\n    title: \"ω = {{ input.omega }} rad/s\"\n",
        );
    let ws = workspace(&[("thesis/fig9.6.yaml", &text)]);
    let s = go(ws.path());
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let e = &s.report.experiments[0];
    assert!(e.errors.is_empty(), "{:?}", e.errors);
    let a0 = fric_pipeline::table_layout::format_number(e.metrics["area[0]"].unwrap(), Some(".3g"));
    let want = format!("Dahl loop area, Fc = 1 N, first area {a0} J");
    assert_eq!(e.caption, want);
    let json = std::fs::read_to_string(ws.path().join("figures/report.json")).unwrap();
    assert!(json.contains(&want), "report.json has the filled caption");
    assert!(!json.contains("{{ fc }}"));
    let pgf = std::fs::read_to_string(ws.path().join("figures/thesis/fig9.6.pgf.tex")).unwrap();
    assert!(
        pgf.contains("title={$\\omega = 2$ rad/s}") && !pgf.contains("{{ "),
        "{pgf}"
    );
    let svg = std::fs::read_to_string(ws.path().join("figures/thesis/fig9.6.svg")).unwrap();
    assert!(!svg.contains("{{"), "the drawn title is filled");
    let html: String = ["figures", "figures/thesis"]
        .iter()
        .flat_map(|d| std::fs::read_dir(ws.path().join(d)).unwrap().flatten())
        .filter(|f| f.path().extension().is_some_and(|x| x == "html"))
        .map(|f| std::fs::read_to_string(f.path()).unwrap())
        .collect();
    assert!(
        html.contains(&format!("first area {a0} J")) && !html.contains("{{ fc }}"),
        "the HTML report shows it filled"
    );
}
