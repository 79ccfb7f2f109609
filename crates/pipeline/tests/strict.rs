//! Strict manifest validation: ids safe for file names, no silently accepted input (duplicate
//! keys, duplicate ids, impossible tolerances, symbolic links, misnamed files), messages in the
//! manifest's words at the right line, and every problem of a manifest in one pass without
//! knock-on errors.

mod common;

use common::workspace;
use fric_manifest::Diagnostic;
use std::path::Path;

const BASE: &str = r#"id: thesis/fig9.1
kind: figure
source: {document: thesis, number: "9.1", caption: "test figure", lines: [1]}
content: simulation
status: reproduced
runs:
  - id: dahl
    system: dahl
    params:
      sigma: 7.5
      fc: 1.5
      gamma: 1
    input: {kind: sine, amplitude: 5, omega: 2}
    sim: {periods: 2, samples_per_period: 400}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: {periods: [1, 2]}}
metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [1, 2]}}
checks:
  - {metric: area, expected: 28.8, tol: {rel: 1.0e-3}, provenance: {derived: "4 A Fc"}}
"#;

/// The diagnostics of the only manifest, which must be invalid.
fn problems_in(root: &Path) -> Vec<Diagnostic> {
    let loaded = fric_pipeline::load(root);
    assert_eq!(loaded.invalid.len(), 1, "entries: {}", loaded.entries.len());
    for d in &loaded.invalid[0].diagnostics {
        println!("{d}");
    }
    loaded.invalid[0].diagnostics.clone()
}

fn problems(text: &str) -> Vec<Diagnostic> {
    let ws = workspace(&[("thesis/fig9.1.yaml", text)]);
    problems_in(ws.path())
}

/// Exactly one problem: its line, message and allowed text.
fn one(text: &str, line: usize, message: &str, allowed: &str) {
    let d = problems(text);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!((d[0].line, d[0].message.as_str()), (line, message), "{}", d[0]);
    assert!(d[0].allowed.contains(allowed), "{}", d[0]);
}

const ID_SET: &str = "[a-z0-9][a-z0-9._-]*";

#[test]
fn the_base_manifest_is_valid() {
    let ws = workspace(&[("thesis/fig9.1.yaml", BASE)]);
    let loaded = fric_pipeline::load(ws.path());
    assert!(loaded.invalid.is_empty(), "{:#?}", loaded.invalid);
}

#[test]
fn panel_ids_are_safe_file_names() {
    for (id, why) in [
        ("../../../escaped", "contains a path separator"),
        ("/tmp/x", "contains a path separator"),
        ("sub/dir", "contains a path separator"),
        ("a..b", "contains `..`"),
        (".hidden", "starts with `.`"),
        ("Main", "starts with `M`"),
        ("a b", "contains ` `"),
    ] {
        let text = BASE.replace("  - id: main", &format!("  - id: \"{id}\""));
        one(&text, 16, &format!("panel id `{id}` {why}"), ID_SET);
    }
    // Nothing is written outside figures/.
    let text = BASE.replace("  - id: main", "  - id: ../../../escaped");
    let ws = workspace(&[("thesis/fig9.1.yaml", &text)]);
    let s = fric_pipeline::run(&fric_pipeline::Options::new(ws.path())).unwrap();
    assert!(!s.ok());
    assert!(!ws.path().join("escaped-1.csv").exists());
}

#[test]
fn run_ids_and_metric_names_are_safe_and_unique() {
    // One error for the id; the panel and metric drawing on the run are not reported again.
    let text = BASE
        .replace("- id: dahl", "- id: ../dahl")
        .replace("run: dahl", "run: ../dahl");
    one(&text, 7, "run id `../dahl` contains a path separator", ID_SET);
    let text = BASE
        .replace("{name: area,", "{name: Area,")
        .replace("metric: area", "metric: Area");
    one(&text, 22, "metric name `Area` starts with `A`", ID_SET);
    let twice = "metrics:\n  - {name: area, kind: max, run: dahl, y: F}\n";
    one(
        &BASE.replace("metrics:\n", twice),
        23,
        "duplicate metric name `area` (also metrics[0])",
        "unique metric names",
    );
    let panel = "panels:\n  - {id: main, x: {label: t}, y: {label: F}, series: [{run: dahl, x: t, y: F}]}\n";
    one(
        &BASE.replace("panels:\n", panel),
        17,
        "duplicate panel id `main` (also panels[0])",
        "unique panel ids",
    );
}

#[test]
fn duplicate_keys_are_errors_at_their_own_line() {
    let text = BASE.replace("      gamma: 1\n", "      gamma: 1\n      sigma: 8\n");
    one(
        &text,
        13,
        "duplicate key `sigma` (first written at line 10)",
        "each key once",
    );
    let text = BASE.replace("content: simulation\n", "content: simulation\nkind: table\n");
    one(
        &text,
        5,
        "duplicate key `kind` (first written at line 2)",
        "each key once",
    );
    let text = BASE.replace("amplitude: 5,", "amplitude: 5, amplitude: 6,");
    one(
        &text,
        13,
        "duplicate key `amplitude` (first written at line 13)",
        "each key once",
    );
}

#[test]
fn arrowheads_are_bounded() {
    let series = "{run: dahl, x: u, y: F, window: {periods: [1, 2]}}";
    let with = |n: &str| BASE.replace(series, &series.replace("}}", &("}, arrows: ".to_owned() + n + "}")));
    let ws = workspace(&[("thesis/fig9.1.yaml", &with("100"))]);
    assert!(fric_pipeline::load(ws.path()).invalid.is_empty());
    one(
        &with("4000000000"),
        20,
        "`arrows` = 4000000000 is too many arrowheads for one curve",
        "0 to 100",
    );
}

/// `marker_size` only with a marker style: on a line style it would be silently ignored.
#[test]
fn a_marker_size_on_a_line_style_is_refused() {
    let series = "{run: dahl, x: u, y: F, window: {periods: [1, 2]}}";
    let with = |extra: &str| BASE.replace(series, &series.replace("}}", &("}, ".to_owned() + extra + "}")));
    let ws = workspace(&[("thesis/fig9.1.yaml", &with("style: points, marker_size: 3"))]);
    assert!(fric_pipeline::load(ws.path()).invalid.is_empty());
    one(
        &with("style: dashed, marker_size: 3"),
        20,
        "`marker_size` on style `dashed`, which does not take it: it would be ignored",
        "marker_size only with style points, circles or published",
    );
}

/// A known discrepancy declares its kind, at its own line when it does not; an `assumption`
/// names the parameter that explains it; a kind needs the evidence beside it.
#[test]
fn known_discrepancies_declare_their_kind() {
    let check = "  - {metric: area, expected: 28.8, tol: {rel: 1.0e-3}, provenance: {derived: \"4 A Fc\"}}\n";
    let with = |extra: &str| {
        BASE.replace(
            check,
            &format!(
                "  - metric: area\n    expected: 30.0\n    tol: {{rel: 1.0e-3}}\n    provenance: {{derived: \"4 A Fc\"}}\n{extra}"
            ),
        )
    };
    let evidence = "    known_discrepancy: \"printed value\"\n";
    for kind in ["source-error", "unresolved"] {
        let ws = workspace(&[(
            "thesis/fig9.1.yaml",
            &with(&format!("{evidence}    discrepancy: {kind}\n")),
        )]);
        let loaded = fric_pipeline::load(ws.path());
        assert!(loaded.invalid.is_empty(), "{kind}: {:?}", loaded.invalid);
    }
    let explain = "    explain: [{run: dahl, param: sigma, range: [1, 20]}]\n";
    let ws = workspace(&[(
        "thesis/fig9.1.yaml",
        &with(&format!("{evidence}    discrepancy: assumption\n{explain}")),
    )]);
    assert!(fric_pipeline::load(ws.path()).invalid.is_empty());
    one(
        &with(evidence),
        28,
        "known discrepancy of `area` without its kind",
        "discrepancy: source-error",
    );
    one(
        &with(&format!("{evidence}    discrepancy: assumption\n")),
        29,
        "known discrepancy of `area` is an `assumption` but names no parameter to explain it",
        "explain: [{run, param, range}]",
    );
    one(
        &with("    discrepancy: unresolved\n"),
        28,
        "`discrepancy: unresolved` without `known_discrepancy`",
        "known_discrepancy",
    );
    let d = problems(&with(&format!("{evidence}    discrepancy: typo\n")));
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].line, 29, "{}", d[0]);
    assert!(
        d[0].message.contains("typo") && d[0].allowed.contains("source-error"),
        "{}",
        d[0]
    );
}

#[test]
fn a_scale_is_the_positive_magnitude_of_an_upper_bound() {
    let check = "{metric: area, expected: 28.8, tol: {rel: 1.0e-3}";
    let within = BASE.replace(check, &format!("{check}, scale: 30"));
    one(
        &within,
        24,
        "`scale` on a check that is not an `lt` bound: it would be ignored",
        "op: lt",
    );
    let bound = "{metric: area, op: lt, expected: 3.0e-5";
    let negative = BASE.replace(check, &format!("{bound}, scale: -30"));
    one(&negative, 24, "`scale: -30` is no magnitude", "a scale > 0");
    let ws = workspace(&[(
        "thesis/fig9.1.yaml",
        // A scale names what it measures (`scale_of`, issue 44 / code review M4).
        &BASE.replace(check, &format!("{bound}, scale: 1, scale_of: relative")),
    )]);
    let loaded = fric_pipeline::load(ws.path());
    assert!(loaded.invalid.is_empty(), "{:#?}", loaded.invalid);
}

#[test]
fn tolerances_and_expected_values_must_be_usable() {
    let check = "{metric: area, expected: 28.8, tol: {rel: 1.0e-3}";
    let text = BASE.replace(check, "{metric: area, expected: 28.8, tol: {rel: -1.0e-3}");
    one(&text, 24, "negative tolerance `rel: -0.001`", "a tolerance ≥ 0");
    for (bad, name) in [
        ("expected: .nan", "expected"),
        ("expected: -.inf", "expected"),
        ("expected: 1e999", "expected"),
        ("tol: {abs: .inf}", "abs"),
    ] {
        let field = if name == "abs" {
            "tol: {rel: 1.0e-3}"
        } else {
            "expected: 28.8"
        };
        let text = BASE.replace(check, &check.replace(field, bad));
        let got = bad.rsplit(": ").next().unwrap().trim_end_matches('}');
        one(
            &text,
            24,
            &format!("`{name}` must be a finite number, got `{got}`"),
            "a finite number",
        );
    }
}

#[test]
fn symbolic_links_and_misnamed_files_are_reported() {
    let ws = workspace(&[("thesis/fig9.1.yaml", BASE)]);
    let outside = ws.path().join("elsewhere.yaml");
    std::fs::write(&outside, BASE.replace("fig9.1", "fig9.2").replace("\"9.1\"", "\"9.2\"")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&outside, ws.path().join("experiments/thesis/fig9.2.yaml")).unwrap();
        let loaded = fric_pipeline::load(ws.path());
        assert_eq!(loaded.entries.len(), 1);
        assert_eq!(loaded.invalid.len(), 1);
        assert_eq!(loaded.invalid[0].file, "experiments/thesis/fig9.2.yaml");
        assert!(loaded.invalid[0].diagnostics[0].message.contains("symbolic link"));
    }
    let upper = BASE.replace("thesis/fig9.1", "thesis/Fig9.1");
    let ws = workspace(&[("thesis/Fig9.1.yaml", &upper)]);
    let d = problems_in(ws.path());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(
        d[0].message,
        "file `experiments/thesis/Fig9.1.yaml`: `Fig9.1` is not a manifest name"
    );
    assert!(d[0].allowed.contains("fig1.7, fig6a, figC.1, table2.1"));
    let ws = workspace(&[("thesis/fig9.1.yml", BASE)]);
    let d = problems_in(ws.path());
    assert!(d[0].message.contains("manifest files end in `.yaml`"), "{}", d[0]);
}

#[test]
fn messages_name_the_problem_in_the_manifest_s_words() {
    // A byte-order mark at the start is dropped (YAML allows it); one inside is reported.
    let ws = workspace(&[("thesis/fig9.1.yaml", &format!("\u{feff}{BASE}"))]);
    assert!(fric_pipeline::load(ws.path()).invalid.is_empty());
    // (replace, with, line, message, allowed)
    let cases = [
        (
            "    system: dahl\n",
            "\t  system: dahl\n",
            8,
            "tab character in indentation at line 8; YAML indents with spaces",
            "spaces",
        ),
        (
            "kind: figure",
            "\u{feff}kind: figure",
            2,
            "byte-order mark (U+FEFF, invisible) inside the file",
            "very first character",
        ),
        (
            "gamma: 1",
            "gamma: abc",
            12,
            "invalid type: `gamma` must be a number, a list of numbers, a mapping {value, unit, line}, {const: NAME} or {fitted: \"<doc>/<name>#<fit>.<param>\"}, got `abc`",
            "a number",
        ),
        (
            "    sim: {",
            "    sweep: abc\n    sim: {",
            14,
            "invalid type: `sweep` must be a mapping {param, values, grid, zip}, got `abc`",
            "{param, values, grid, zip}",
        ),
        (
            "amplitude: 5",
            "amplitude: five",
            13,
            "invalid type: `amplitude` must be a number, got `five`",
            "a number",
        ),
        (
            "samples_per_period: 400",
            "samples_per_period: -4",
            14,
            "invalid value: `samples_per_period` must be a whole number ≥ 0, got `-4`",
            "a whole number",
        ),
        (
            "window: {periods: [1, 2]}}\nmetrics",
            "window: sometimes}\nmetrics",
            20,
            "invalid type: `window` must be `all`, `last-period`, {last_periods: k}, {periods: [a, b]} or {t: [a, b]}, got `sometimes`",
            "last-period",
        ),
        (
            "provenance: {derived: \"4 A Fc\"}",
            "provenance: {derivd: x}",
            24,
            "unknown variant `derivd` for `provenance`",
            "one of `published`, `derived`, `transcribed`, `claim`",
        ),
    ];
    for (from, to, line, message, allowed) in cases {
        assert!(BASE.contains(from), "{from}");
        one(&BASE.replace(from, to), line, message, allowed);
    }
    // No Rust type names in any of these messages.
    for bad in [
        BASE.replace("lines: [1]", "lines: [x]"),
        BASE.replace(
            "source: {document: thesis, number: \"9.1\", caption: \"test figure\", lines: [1]}",
            "source: [thesis]",
        ),
        BASE.replace("series:\n      - {", "series:\n      - 3\n      - {"),
        BASE.replace("range", "x")
            .replace("x: {label: u, unit: m}", "x: {label: u, range: [1]}"),
        BASE.replace("status: reproduced", "status: [reproduced]"),
        BASE.replace("provenance: {derived: \"4 A Fc\"}", "provenance: 5"),
    ] {
        for d in problems(&bad) {
            for rust in [
                "f64", "u32", "usize", "struct", "enum ", "sequence", "string", "expected",
            ] {
                assert!(!d.message.contains(rust), "{d}");
                assert!(!d.allowed.contains(rust), "{d}");
            }
        }
    }
}

#[test]
fn an_invalid_run_is_reported_once_without_knock_on_errors() {
    one(
        &BASE.replace("      gamma: 1\n", "      gamma: 1\n      bogus: 2\n"),
        13,
        "unknown parameter `bogus` for system `dahl`",
        "sigma",
    );
    one(
        &BASE.replace("system: dahl", "system: dahll"),
        8,
        "unknown system `dahll`",
        "lugre",
    );
    // A parameter that is not a number is not also missing.
    let d = problems(&BASE.replace("fc: 1.5", "fc: [a]"));
    assert_eq!(d.len(), 1, "{d:#?}");
}

#[test]
fn every_problem_of_a_manifest_is_reported_in_one_pass() {
    let text = BASE
        .replace("content: simulation\n", "content: simulation\ncolour: red\n")
        .replace("gamma: 1", "gamma: abc")
        .replace(
            "panels:\n",
            "panels:\n  - {id: main, x: {label: t}, y: {label: F}, series: [{run: dahl, x: t, y: F}]}\n",
        );
    let d = problems(&text);
    let got: Vec<(usize, usize, &str)> = d.iter().map(|d| (d.line, d.column, d.message.as_str())).collect();
    assert_eq!(
        got,
        vec![
            (5, 1, "unknown field `colour`"),
            (13, 14, "invalid type: `gamma` must be a number, a list of numbers, a mapping {value, unit, line}, {const: NAME} or {fitted: \"<doc>/<name>#<fit>.<param>\"}, got `abc`"),
            (18, 5, "duplicate panel id `main` (also panels[0])"),
        ]
    );
    // An invalid registry field, run, series style and check: each at its own line (the run's
    // columns are not checked while the run itself is invalid).
    let text = BASE
        .replace("kind: figure", "kind: figur")
        .replace("omega: 2}", "omega: -2}")
        .replace(
            "      - {run: dahl, x: u,",
            "      - {run: dahl, color: purple-ish, x: u,",
        )
        .replace("rel: 1.0e-3", "rel: -1");
    let d = problems(&text);
    let lines: Vec<usize> = d.iter().map(|d| d.line).collect();
    assert_eq!(lines, vec![2, 13, 20, 24], "{d:#?}");
    // A missing registry field does not hide the rest either.
    let text = BASE.replace("kind: figure\n", "").replace("rel: 1.0e-3", "rel: -1");
    let d = problems(&text);
    let got: Vec<(usize, &str)> = d.iter().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(
        got,
        vec![(1, "missing field `kind`"), (23, "negative tolerance `rel: -1`")]
    );
}

/// A document's `constants:` are shared by its manifests: `{const: NAME}` takes the value, unit
/// and line of the declaration, so changing the declaration changes every run that uses it (and
/// its cache key); an unknown name is an error at the parameter that lists the known names.
#[test]
fn document_constants_resolve_or_are_reported() {
    let decl = |sigma: f64| {
        format!(
            "title: \"test document thesis\"\nsource: {{file: ../shared/seeds/thesis.txt}}\n\
             constants:\n  sigma_shared: {{value: {sigma}, unit: N/m, line: 12}}\n"
        )
    };
    let with_const = BASE.replace("sigma: 7.5", "sigma: {const: sigma_shared}");
    let load_one = |sigma: f64| {
        let d = decl(sigma);
        let ws = workspace(&[
            ("thesis/fig9.1.yaml", with_const.as_str()),
            ("thesis/document.yaml", &d),
        ]);
        let loaded = fric_pipeline::load(ws.path());
        assert!(loaded.invalid.is_empty(), "{:#?}", loaded.invalid);
        assert_eq!(loaded.entries.len(), 1);
        let e = &loaded.entries[0];
        let run = &e.runs["dahl"];
        let declared = e.manifest.runs[0].params["sigma"].clone();
        (declared, run.request.params["sigma"].clone(), run.key.clone())
    };
    let (p, used, key) = load_one(7.5);
    assert_eq!(used, vec![7.5]);
    let fric_manifest::ParamValue::Long(long) = &p else {
        panic!("not resolved: {p:?}")
    };
    assert_eq!((long.unit.as_deref(), long.line), (Some("N/m"), Some(12)), "{long:?}");
    let (_, used2, key2) = load_one(8.0);
    assert_eq!(used2, vec![8.0]);
    assert_ne!(key, key2, "a changed constant must change the run's cache key");

    // Unknown name: one problem, at the parameter's line, naming the declared constants.
    let bad = BASE.replace("sigma: 7.5", "sigma: {const: NOPE}");
    let d = decl(7.5);
    let ws = workspace(&[("thesis/fig9.1.yaml", bad.as_str()), ("thesis/document.yaml", &d)]);
    let found = problems_in(ws.path());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        (found[0].line, found[0].message.as_str()),
        (10, "unknown constant `NOPE`")
    );
    assert!(found[0].allowed.contains("sigma_shared"), "{}", found[0]);
    // A document without constants says so.
    let found = problems(&bad);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].allowed.contains("no constants are declared"), "{}", found[0]);
}
