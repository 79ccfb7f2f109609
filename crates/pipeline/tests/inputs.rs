//! Inputs through the pipeline: a Dahl model under a triangle wave, sampled (CSV) inputs read
//! from `data/` (validation, and the file's hash in the cache key), and `from:` runs with their
//! own post-processing.

mod common;

use common::{workspace, DAHL, DAHL_TRIANGLE};
use fric_pipeline::{run, Options};
use std::path::Path;

fn go(root: &Path) -> fric_pipeline::Summary {
    let mut o = Options::new(root);
    o.jobs = Some(1);
    run(&o).unwrap()
}

#[test]
fn dahl_under_a_triangle_wave_meets_the_closed_form() {
    let ws = workspace(&[("thesis/fig9.5.yaml", DAHL_TRIANGLE)]);
    let s = go(ws.path());
    assert!(s.ok(), "{:#?} {:#?}", s.invalid, s.report.experiments);
    let got = s.report.experiments[0].metrics["f_reversal"].unwrap();
    assert!((got - (1.0 - (-3.0f64).exp())).abs() < 1e-13, "{got}");
}

fn csv_manifest(path: &str, u_column: &str) -> String {
    DAHL_TRIANGLE
        .replace(
            "input: {kind: triangle, amplitude: 1.5, omega: 1.5707963267948966}",
            &format!("input: {{kind: csv, path: \"{path}\", t_column: time, u_column: {u_column}}}"),
        )
        .replace(
            "sim: {periods: 2, samples_per_period: 400}",
            "sim: {t_end: 3, samples_per_period: 300}",
        )
}

fn write_csv(root: &Path, text: &str) {
    std::fs::create_dir_all(root.join("data/inputs")).unwrap();
    std::fs::write(root.join("data/inputs/tri.csv"), text).unwrap();
}

#[test]
fn csv_input_runs_and_its_content_is_in_the_run_key() {
    let ws = workspace(&[("thesis/fig9.5.yaml", &csv_manifest("data/inputs/tri.csv", "pos"))]);
    // The triangle's first quarter period as samples: the same reversal value at t = 1.
    write_csv(ws.path(), "time,pos\n0,0\n1,1.5\n3,-1.5\n");
    let s = go(ws.path());
    assert!(s.ok(), "{:#?} {:#?}", s.invalid, s.report.experiments);
    assert_eq!((s.runs_computed, s.runs_cached), (1, 0));
    let got = s.report.experiments[0].metrics["f_reversal"].unwrap();
    assert!((got - (1.0 - (-3.0f64).exp())).abs() < 1e-13, "{got}");
    let key = |root: &Path| {
        let l = fric_pipeline::load(root);
        l.entries[0].runs["tri"].key.clone()
    };
    let before = key(ws.path());
    assert_eq!(go(ws.path()).runs_cached, 1);
    // The same file again: same key. Other content: another key, and the run is recomputed.
    write_csv(ws.path(), "time,pos\n0,0\n1,1.5\n3,-1.5\n");
    assert_eq!(key(ws.path()), before);
    write_csv(ws.path(), "time,pos\n0,0\n1,1.25\n3,-1.5\n");
    assert_ne!(key(ws.path()), before);
    // (The check of the reversal value now fails: the data say 1.25, not 1.5.)
    let s = go(ws.path());
    assert_eq!((s.runs_computed, s.runs_cached), (1, 0));
}

#[test]
fn csv_input_problems_are_located() {
    let cases = [
        ("../x.csv", "pos", "leaves its directory"),
        ("/etc/passwd", "pos", "is absolute"),
        ("data/../../x.csv", "pos", "leaves its directory"),
        ("data/inputs/none.csv", "pos", "does not exist"),
        ("data/inputs/tri.csv", "force", "has no column `force`"),
    ];
    for (path, col, want) in cases {
        let ws = workspace(&[("thesis/fig9.5.yaml", &csv_manifest(path, col))]);
        write_csv(ws.path(), "time,pos\n0,0\n1,1.5\n");
        let s = go(ws.path());
        assert_eq!(s.invalid.len(), 1, "{path}");
        let d = &s.invalid[0].diagnostics[0];
        assert!(d.message.contains(want), "{path}: {d}");
        // At the input's line of the manifest.
        assert_eq!((d.file.as_str(), d.line), ("experiments/thesis/fig9.5.yaml", 10), "{d}");
    }
    // A bad row names the CSV file and its line.
    let ws = workspace(&[("thesis/fig9.5.yaml", &csv_manifest("data/inputs/tri.csv", "pos"))]);
    write_csv(ws.path(), "time,pos\n0,0\n1,1.5\n1,2\n");
    let s = go(ws.path());
    let d = &s.invalid[0].diagnostics[0];
    assert!(d.message.contains("data/inputs/tri.csv:4"), "{d}");
}

#[test]
fn from_runs_take_their_own_post_processing() {
    let reference = DAHL
        .replace("thesis/fig9.1", "thesis/fig9.4")
        .replace("\"9.1\"", "\"9.4\"")
        .replace(
            "  - id: dahl\n    system: dahl\n    params: {sigma: 7.5, fc: 1.5, gamma: 1}\n    input: {kind: sine, amplitude: 5, omega: 2}\n    sim: {periods: 2, samples_per_period: 400}\n",
            "  - id: dahl\n    from: \"thesis/fig9.1#dahl\"\n    post:\n      - {name: F2, op: scale, of: F, param: 2}\n",
        )
        .replace(
            "  - {name: area, kind: loop-area,",
            "  - {name: f2max, kind: max, run: dahl, y: F2}\n  - {name: fmax, kind: max, run: dahl, y: F}\n  - {name: twice, kind: ratio, of: [f2max, fmax]}\n  - {name: area, kind: loop-area,",
        );
    assert!(reference.contains("from:") && reference.contains("F2"));
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.4.yaml", &reference)]);
    let s = go(ws.path());
    assert!(s.ok(), "{:#?} {:#?}", s.invalid, s.report.experiments);
    // One run: the reference shares the referenced run's key; post is applied on top.
    assert_eq!((s.runs_total, s.runs_computed), (1, 1));
    let e = s.report.experiments.iter().find(|e| e.id == "thesis/fig9.4").unwrap();
    assert_eq!(e.metrics["twice"], Some(2.0));
    let l = fric_pipeline::load(ws.path());
    assert_eq!(l.entries[0].runs["dahl"].key, l.entries[1].runs["dahl"].key);
    // A step of the referencing run is checked at its own path.
    let bad = reference.replace("of: F, param: 2", "of: nope, param: 2");
    std::fs::write(ws.path().join("experiments/thesis/fig9.4.yaml"), bad).unwrap();
    let s = go(ws.path());
    let d = &s.invalid[0].diagnostics[0];
    assert!(d.message.contains("no column `nope`") && d.line == 10, "{d}");
    // Other fields still cannot be combined with `from`.
    let bad = reference.replace("    post:\n", "    sim: {periods: 1}\n    post:\n");
    std::fs::write(ws.path().join("experiments/thesis/fig9.4.yaml"), bad).unwrap();
    let s = go(ws.path());
    assert!(s.invalid[0].diagnostics[0].message.contains("`id` and `post`"));
}

/// A field a kind does not take, or one it needs, is reported at the input's line in the
/// manifest's words (the fields come from the kind's declaration, as `schema` lists them).
#[test]
fn input_fields_are_checked_against_the_kind() {
    let cases = [
        (
            "{kind: triangle, amplitude: 1, omega: 1, width: 0.5}",
            "takes no `width`",
        ),
        ("{kind: sawtooth, amplitude: 1, omega: 1}", "needs `width`"),
        ("{kind: piecewise-linear, points: 3}", "list of [t, u] points"),
        ("{kind: csv, t_column: t}", "needs `path`"),
    ];
    for (input, want) in cases {
        let text = DAHL_TRIANGLE.replace("{kind: triangle, amplitude: 1.5, omega: 1.5707963267948966}", input);
        let ws = workspace(&[("thesis/fig9.5.yaml", &text)]);
        let s = go(ws.path());
        assert_eq!(s.invalid.len(), 1, "{input}");
        let d = &s.invalid[0].diagnostics[0];
        assert!(d.message.contains(want) && d.line == 10, "{input}: {d}");
    }
}

/// D22: a CSV header naming a column twice is refused (the first `u` was used silently).
#[test]
fn a_csv_header_naming_a_column_twice_is_refused() {
    let ws = workspace(&[("thesis/fig9.5.yaml", &csv_manifest("data/inputs/tri.csv", "pos"))]);
    write_csv(ws.path(), "time,pos,pos\n0,0,0\n1,1.5,2\n3,-1.5,1\n");
    let s = go(ws.path());
    assert_eq!(s.invalid.len(), 1);
    let d = &s.invalid[0].diagnostics[0];
    assert!(
        d.message
            .contains("column `pos` is named twice in the header (column 3)"),
        "{d}"
    );
}

/// D23: the data/ rule is checked on the resolved path: a CSV reached through a symbolic link
/// to a directory (`data/inputs/c -> ../cache`) that lands in the generated cache is refused.
#[cfg(unix)]
#[test]
fn a_csv_through_a_symlinked_directory_into_the_cache_is_refused() {
    let ws = workspace(&[("thesis/fig9.5.yaml", &csv_manifest("data/inputs/c/tri.csv", "pos"))]);
    let cache = ws.path().join("data/cache");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::write(cache.join("tri.csv"), "time,pos\n0,0\n1,1.5\n3,-1.5\n").unwrap();
    std::fs::create_dir_all(ws.path().join("data/inputs")).unwrap();
    std::os::unix::fs::symlink("../cache", ws.path().join("data/inputs/c")).unwrap();
    let s = go(ws.path());
    assert_eq!(s.invalid.len(), 1);
    let d = &s.invalid[0].diagnostics[0];
    assert!(d.message.contains("resolves into the generated cache"), "{d}");
}

/// Issue 50 item 7 end to end: a `csv` input with a declared `period` has the windows of a
/// periodic input. The record is the triangle wave of [`DAHL_TRIANGLE`] over two periods
/// (breakpoints only: linear interpolation is the triangle), so the Dahl loop over its last
/// period (`window: last-period`, `sim.periods: 2`) is the triangle input's; resampled to a
/// `step` on which its breakpoints lie it is the same input again; low-passed (`cutoff`) its
/// reversals are rounded off and its amplitude over the last period shrinks.
#[test]
fn a_csv_input_with_a_period_has_the_windows_of_a_periodic_input() {
    let run = |id: &str, input: &str| {
        format!(
            "  - id: {id}\n    system: dahl\n    params: {{sigma: 2, fc: 1, gamma: 1}}\n    input: {input}\n    sim: {{periods: 2, samples_per_period: 400}}\n"
        )
    };
    let csv = |extra: &str| {
        format!("{{kind: csv, path: data/inputs/tri.csv, t_column: time, u_column: pos, period: 4{extra}}}")
    };
    let mut text = String::from(
        "id: thesis/fig9.5\nkind: figure\nsource: {document: thesis, number: \"9.5\", caption: \"a periodic record\", lines: [5]}\ncontent: simulation\nstatus: reproduced\nruns:\n",
    );
    text += &run("tri", "{kind: triangle, amplitude: 1.5, omega: 1.5707963267948966}");
    text += &run("rec", &csv(""));
    text += &run("res", &csv(", step: 0.5"));
    text += &run("low", &csv(", cutoff: 0.5"));
    text += "panels:\n  - id: main\n    x: {label: u, unit: m}\n    y: {label: F, unit: N}\n    series:\n      - {run: rec, x: u, y: F, window: last-period}\nmetrics:\n";
    for id in ["tri", "rec", "res"] {
        text += &format!("  - {{name: area_{id}, kind: loop-area, run: {id}, x: u, y: F, window: last-period}}\n");
    }
    for id in ["tri", "rec", "res", "low"] {
        text += &format!("  - {{name: t_{id}, kind: final, run: {id}, y: t}}\n");
    }
    // The filtered record does not close over a period (each pass starts at rest at its end):
    // its amplitude over the last period, not a loop area.
    text += "  - {name: umax_low, kind: max, run: low, y: u, window: last-period}\n";
    // 4 Fc (A − L tanh(A/L)), L = Fc/σ = 0.5, A = 1.5.
    let area = 4.0 * (1.5 - 0.5 * 3f64.tanh());
    text += &format!("checks:\n  - {{metric: area_rec, expected: {area}, tol: {{rel: 1.0e-3}}, provenance: {{derived: \"4 Fc (A - L tanh(A/L))\"}}}}\n");
    let ws = workspace(&[("thesis/fig9.5.yaml", &text)]);
    write_csv(ws.path(), "time,pos\n0,0\n1,1.5\n3,-1.5\n5,1.5\n7,-1.5\n8,0\n");
    let s = go(ws.path());
    assert!(s.ok(), "{:#?} {:#?}", s.invalid, s.report.experiments);
    let e = &s.report.experiments[0];
    assert!(e.errors.is_empty(), "{:?}", e.errors);
    let m = |k: &str| e.metrics[k].unwrap();
    // Two periods of 4 s: the runs end at t = 8 (without the declared period a csv run would
    // need `t_end`; `sim.periods` is counted in the declared period).
    for id in ["tri", "rec", "res", "low"] {
        assert!(
            (m(&format!("t_{id}")) - 8.0).abs() < 1e-12,
            "{id}: {}",
            m(&format!("t_{id}"))
        );
    }
    let tri = m("area_tri");
    assert!((tri / area - 1.0).abs() < 1e-3, "{tri} {area}");
    for id in ["rec", "res"] {
        let a = m(&format!("area_{id}"));
        assert!((a / tri - 1.0).abs() < 1e-9, "{id}: {a} against the triangle's {tri}");
    }
    let low = m("umax_low");
    assert!(low < 0.95 * 1.5 && low > 0.5, "{low}");
}
