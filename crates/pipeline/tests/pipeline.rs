//! End-to-end behaviour of the pipeline on small manifests in a temporary workspace.

mod common;

use common::{workspace, DAHL, LINEAR};
use fric_pipeline::{run, Options};
use std::collections::BTreeMap;
use std::path::Path;

fn go(root: &Path, jobs: usize) -> fric_pipeline::Summary {
    let mut o = Options::new(root);
    o.jobs = Some(jobs);
    run(&o).unwrap()
}

/// Every file under `figures/`, by relative path.
fn outputs(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(root.join("figures")).into_iter().flatten() {
        if e.file_type().is_file() {
            out.insert(
                e.path().strip_prefix(root).unwrap().display().to_string(),
                std::fs::read(e.path()).unwrap(),
            );
        }
    }
    out
}

#[test]
fn cache_hit_on_rerun_and_miss_after_parameter_edit() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let s = go(ws.path(), 2);
    assert!(s.ok(), "{:?}", s.report);
    assert_eq!((s.runs_total, s.runs_computed, s.runs_cached), (3, 3, 0));
    assert_eq!(s.figures_drawn, 2);
    assert!(ws.path().join("figures/thesis/fig9.1.svg").exists());
    assert!(ws.path().join("figures/thesis/fig9.1.png").exists());
    assert!(ws.path().join("figures/thesis/fig9.1/main-1.csv").exists());
    assert!(ws.path().join("figures/thesis/fig9.2/main-2.csv").exists());

    let s = go(ws.path(), 2);
    assert_eq!(
        (s.runs_computed, s.runs_cached, s.figures_drawn, s.figures_current),
        (0, 3, 0, 2)
    );

    // Edit a parameter of one manifest: only its run is recomputed; the other manifest's
    // runs and drawing are untouched.
    std::fs::write(
        ws.path().join("experiments/thesis/fig9.1.yaml"),
        DAHL.replace("sigma: 7.5", "sigma: 8.0"),
    )
    .unwrap();
    let s = go(ws.path(), 2);
    assert_eq!((s.runs_computed, s.runs_cached), (1, 2));
    assert_eq!((s.figures_drawn, s.figures_current), (1, 1));
    // `--timings`: the computed run is timed and attributed to its manifest only; the current
    // manifest took no time.
    assert_eq!(s.run_seconds.len(), 1);
    let t = fric_pipeline::timings::per_manifest(&s, &fric_pipeline::load(ws.path()));
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!((t[0].id.as_str(), t[0].computed), ("thesis/fig9.1", 1));
    assert_eq!(t[0].slowest_run.as_ref().map(|(sys, _)| sys.as_str()), Some("dahl"));
    assert!(t[0].runs.wall >= 0.0 && t[0].evaluate.wall > 0.0);
    // The figure was redrawn: its drawing is timed apart from its evaluation, in wall and CPU
    // seconds (drawing an SVG and a PNG takes CPU; the clock resolves nanoseconds).
    assert!(t[0].draw.wall > 0.0 && t[0].draw.cpu > 0.0, "{t:?}");
    assert!(t[0].cpu() > 0.0 && t[0].total() >= t[0].draw.wall + t[0].evaluate.wall);
}

#[test]
fn label_edit_redraws_without_resimulating() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    go(ws.path(), 1);
    std::fs::write(
        ws.path().join("experiments/thesis/fig9.1.yaml"),
        DAHL.replace("LABEL", "another label"),
    )
    .unwrap();
    let s = go(ws.path(), 1);
    assert_eq!((s.runs_computed, s.runs_cached, s.figures_drawn), (0, 1, 1));
    let svg = std::fs::read_to_string(ws.path().join("figures/thesis/fig9.1.svg")).unwrap();
    assert!(svg.contains("another label"));
}

#[test]
fn identical_runs_in_two_manifests_compute_once() {
    let copy = DAHL
        .replace("thesis/fig9.1", "thesis/fig9.3")
        .replace("\"9.1\"", "\"9.3\"");
    let reference = DAHL
        .replace("thesis/fig9.1", "thesis/fig9.4")
        .replace("\"9.1\"", "\"9.4\"")
        .replace(
            "  - id: dahl\n    system: dahl\n    params: {sigma: 7.5, fc: 1.5, gamma: 1}\n    input: {kind: sine, amplitude: 5, omega: 2}\n    sim: {periods: 2, samples_per_period: 400}\n",
            "  - {id: dahl, from: \"thesis/fig9.1#dahl\"}\n",
        );
    assert!(reference.contains("from:"));
    let ws = workspace(&[
        ("thesis/fig9.1.yaml", DAHL),
        ("thesis/fig9.3.yaml", &copy),
        ("thesis/fig9.4.yaml", &reference),
    ]);
    let s = go(ws.path(), 2);
    assert!(s.ok(), "{:#?}", s.report.experiments);
    assert_eq!((s.runs_total, s.runs_computed), (1, 1));
    assert_eq!(s.figures_drawn, 3);
}

/// DAHL as a second document's figure: its run a `from:` reference, its panels either its
/// own copy (`panels` kept) or `panels_from: thesis/fig9.1`.
fn dahl_reference(id: &str, panels_from: bool) -> String {
    let mut t = DAHL
        .replace("thesis/fig9.1", id)
        .replace("\"9.1\"", &format!("\"{}\"", &id[id.len() - 3..]))
        .replace(
            "  - id: dahl\n    system: dahl\n    params: {sigma: 7.5, fc: 1.5, gamma: 1}\n    input: {kind: sine, amplitude: 5, omega: 2}\n    sim: {periods: 2, samples_per_period: 400}\n",
            "  - {id: dahl, from: \"thesis/fig9.1#dahl\"}\n",
        );
    if panels_from {
        let (a, b) = (t.find("panels:").unwrap(), t.find("metrics:").unwrap());
        t.replace_range(a..b, "panels_from: thesis/fig9.1\n");
    }
    t
}

#[test]
fn panels_from_draws_the_referenced_figure_and_follows_its_edits() {
    let shared = dahl_reference("thesis/fig9.4", true);
    assert!(shared.contains("panels_from") && !shared.contains("series:"));
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.4.yaml", &shared)]);
    let s = go(ws.path(), 1);
    assert!(s.ok(), "{:#?}", s.invalid);
    assert_eq!(s.figures_drawn, 2);
    let svg = |n: &str| std::fs::read_to_string(ws.path().join(format!("figures/thesis/{n}.svg"))).unwrap();
    assert!(svg("fig9.4").contains("LABEL"));
    // An edit of the referenced panels lands in both figures.
    std::fs::write(
        ws.path().join("experiments/thesis/fig9.1.yaml"),
        DAHL.replace("LABEL", "edited once"),
    )
    .unwrap();
    let s = go(ws.path(), 1);
    assert!(s.ok(), "{:#?}", s.invalid);
    assert!(svg("fig9.1").contains("edited once") && svg("fig9.4").contains("edited once"));
}

#[test]
fn panels_from_is_refused_beside_own_panels_or_to_an_unknown_figure() {
    let both = dahl_reference("thesis/fig9.4", false).replace("panels:\n", "panels_from: thesis/fig9.1\npanels:\n");
    let unknown =
        dahl_reference("thesis/fig9.4", true).replace("panels_from: thesis/fig9.1", "panels_from: thesis/fig9.9");
    for (text, msg) in [
        (both, "declares no `layout` or `panels`"),
        (unknown, "no valid manifest `thesis/fig9.9`"),
    ] {
        let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.4.yaml", &text)]);
        let s = go(ws.path(), 1);
        assert_eq!(s.invalid.len(), 1, "{msg}");
        let d = &s.invalid[0].diagnostics[0];
        assert_eq!(d.file, "experiments/thesis/fig9.4.yaml");
        assert!(d.message.contains(msg), "{}", d.message);
        assert_eq!(
            d.line,
            text.lines().position(|l| l.starts_with("panels_from")).unwrap() + 1
        );
    }
}

#[test]
fn panels_relabel_puts_this_documents_numbers_on_the_inherited_panels_only() {
    let shared = dahl_reference("thesis/fig9.4", true).replace(
        "panels_from: thesis/fig9.1\n",
        "panels_from: thesis/fig9.1\npanels_relabel: [{from: LABEL, to: (68) relabelled}]\n",
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.4.yaml", &shared)]);
    let s = go(ws.path(), 1);
    assert!(s.ok(), "{:#?}", s.invalid);
    let svg = |n: &str| std::fs::read_to_string(ws.path().join(format!("figures/thesis/{n}.svg"))).unwrap();
    assert!(svg("fig9.4").contains("(68) relabelled") && !svg("fig9.4").contains("LABEL"));
    assert!(svg("fig9.1").contains("LABEL") && !svg("fig9.1").contains("relabelled"));
    // A replacement whose text the inherited panels no longer have is an error, not a no-op;
    // so is one with no inherited panels to act on.
    let stale = shared.replace("from: LABEL", "from: (4.68)");
    let alone = dahl_reference("thesis/fig9.4", false)
        .replace("panels:\n", "panels_relabel: [{from: LABEL, to: x}]\npanels:\n");
    for (text, msg) in [(stale, "`(4.68)` occurs in no title"), (alone, "without `panels_from`")] {
        let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.4.yaml", &text)]);
        let s = go(ws.path(), 1);
        assert_eq!(s.invalid.len(), 1, "{msg}");
        let d = &s.invalid[0].diagnostics[0];
        assert!(d.message.contains(msg), "{}", d.message);
        assert_eq!(
            d.line,
            text.lines().position(|l| l.starts_with("panels_relabel")).unwrap() + 1
        );
    }
}

#[test]
fn output_is_bitwise_identical_for_any_number_of_threads() {
    let a = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let b = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    go(a.path(), 1);
    go(b.path(), 2);
    let (oa, ob) = (outputs(a.path()), outputs(b.path()));
    assert!(oa.len() >= 8, "{:?}", oa.keys());
    assert_eq!(oa.keys().collect::<Vec<_>>(), ob.keys().collect::<Vec<_>>());
    for (k, v) in &oa {
        assert!(ob[k] == *v, "{k} differs between --jobs 1 and --jobs 2");
    }
}

#[test]
fn corrupted_cache_entry_is_detected_and_recomputed() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    go(ws.path(), 1);
    let parquet: Vec<_> = walkdir::WalkDir::new(ws.path().join("data/cache/runs"))
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "parquet"))
        .collect();
    assert_eq!(parquet.len(), 1);
    // An interrupted write of the data file: truncated bytes.
    let bytes = std::fs::read(parquet[0].path()).unwrap();
    std::fs::write(parquet[0].path(), &bytes[..bytes.len() / 2]).unwrap();
    // A temporary file left by an interrupted atomic write is ignored.
    std::fs::write(parquet[0].path().with_file_name(".junk.parquet.1.0.tmp"), b"partial").unwrap();
    // A run with nothing to do reads no run data (the manifest's stamp is current), so the damage
    // is found when the run is next needed: here, after a label edit.
    std::fs::write(
        ws.path().join("experiments/thesis/fig9.1.yaml"),
        DAHL.replace("LABEL", "another label"),
    )
    .unwrap();
    let s = go(ws.path(), 1);
    assert!(s.ok());
    assert_eq!((s.runs_computed, s.runs_cached, s.runs_recovered.len()), (1, 0, 1));
    assert!(s.runs_recovered[0].1.contains("checksum"), "{:?}", s.runs_recovered);
    // And the entry is good again.
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), DAHL).unwrap();
    let s = go(ws.path(), 1);
    assert_eq!((s.runs_computed, s.runs_cached, s.runs_recovered.len()), (0, 1, 0));
}

#[test]
fn atomic_write_replaces_whole_files() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("sub/out.bin");
    fric_pipeline::store::write_atomic(&p, b"first version").unwrap();
    fric_pipeline::store::write_atomic(&p, b"second").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"second");
    let leftovers: Vec<_> = std::fs::read_dir(p.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

/// Each class of bad manifest: file, line, column, what is wrong and what is allowed; the bad
/// manifest is skipped, the others still run, and the run is not ok.
#[test]
fn bad_manifests_are_reported_with_location() {
    let cases: Vec<(&str, String, usize, &str, &str)> = vec![
        (
            "syntax",
            DAHL.replace("caption: \"test figure\"", "caption: \"test figure"),
            0,
            "did not find expected",
            "",
        ),
        (
            "unknown-variant",
            DAHL.replace("kind: figure", "kind: figur"),
            2,
            "unknown variant `figur`",
            "`figure` or `table`",
        ),
        (
            "unknown-field",
            DAHL.replace("content: simulation", "content: simulation\ncolour: red"),
            5,
            "unknown field `colour`",
            "id",
        ),
        (
            "unknown-system",
            DAHL.replace("system: dahl", "system: dahll"),
            8,
            "unknown system `dahll`",
            "lugre",
        ),
        (
            "missing-param",
            DAHL.replace(
                "params: {sigma: 7.5, fc: 1.5, gamma: 1}",
                "params: {sigma: 7.5, gamma: 1}",
            ),
            9,
            "missing parameter `fc`",
            "fc in",
        ),
        (
            "out-of-range",
            DAHL.replace("sigma: 7.5", "sigma: -7.5"),
            9,
            "`sigma` = -7.5 is out of range",
            "(0, inf) N/m",
        ),
        (
            "wrong-type",
            DAHL.replace("amplitude: 5", "amplitude: five"),
            10,
            "invalid type",
            "",
        ),
        (
            "unknown-column",
            DAHL.replace(
                "x: u, y: F, window: {periods: [1, 2]}, label",
                "x: u, y: G, window: {periods: [1, 2]}, label",
            ),
            17,
            "has no column `G`",
            "t, u, v, F",
        ),
        (
            "unknown-metric",
            DAHL.replace("{metric: area,", "{metric: areaa,"),
            21,
            "unknown metric `areaa`",
            "area",
        ),
    ];
    for (name, text, line, msg, allowed) in cases {
        let ws = workspace(&[("thesis/fig9.1.yaml", &text), ("thesis/fig9.2.yaml", LINEAR)]);
        let s = go(ws.path(), 1);
        assert!(!s.ok(), "{name}: should fail");
        assert_eq!(s.invalid.len(), 1, "{name}");
        let d = &s.invalid[0].diagnostics[0];
        assert_eq!(d.file, "experiments/thesis/fig9.1.yaml", "{name}");
        assert!(d.message.contains(msg), "{name}: message `{}`", d.message);
        assert!(d.allowed.contains(allowed), "{name}: allowed `{}`", d.allowed);
        if line > 0 {
            assert_eq!(d.line, line, "{name}: {d}");
        }
        assert!(d.column >= 1);
        // The other manifest still ran.
        assert_eq!(s.figures_drawn, 1, "{name}");
        assert!(ws.path().join("figures/thesis/fig9.2.svg").exists());
        let report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(ws.path().join("figures/report.json")).unwrap()).unwrap();
        let e = report["experiments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == "thesis/fig9.1")
            .unwrap();
        assert_eq!(e["status"], "invalid", "{name}");
    }
}

#[test]
fn failing_check_and_known_discrepancy() {
    let failing = DAHL.replace("expected: 28.8", "expected: 30.0");
    let ws = workspace(&[("thesis/fig9.1.yaml", &failing)]);
    let s = go(ws.path(), 1);
    assert!(!s.ok());
    assert_eq!(s.count(fric_report::Outcome::Fail), 1);
    let known = DAHL
        .replace(
            "expected: 28.8, tol: {rel: 1.0e-3},",
            "expected: 30.0, tol: {rel: 1.0e-3}, discrepancy: unresolved, known_discrepancy: \"printed value\",",
        )
        // An unresolved known discrepancy, derived or not, makes the manifest partial (status rule).
        .replace(
            "status: reproduced\n",
            "status: partial\nreason: \"the area is a known discrepancy\"\n",
        );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), known).unwrap();
    let s = go(ws.path(), 1);
    assert!(s.ok());
    assert_eq!(s.count(fric_report::Outcome::KnownDiscrepancy), 1);
    // Counted by kind in the summary, in report.json per document and on the HTML pages.
    use fric_report::DiscrepancyKind as K;
    let by_kind = s.count_by_kind();
    assert_eq!(
        (
            by_kind[&K::SourceError],
            by_kind[&K::Assumption],
            by_kind[&K::Unresolved]
        ),
        (0, 0, 1)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ws.path().join("figures/report.json")).unwrap()).unwrap();
    assert_eq!(
        report["discrepancies"]["thesis"],
        serde_json::json!({"source-error": 0, "assumption": 0, "unresolved": 1})
    );
    let check = &report["experiments"][0]["checks"][0];
    assert_eq!(
        (check["discrepancy"].as_str(), check["outcome"].as_str()),
        (Some("unresolved"), Some("known-discrepancy"))
    );
    let page = std::fs::read_to_string(ws.path().join("figures/discrepancies.html")).unwrap();
    assert!(page.contains("<h2 id=\"unresolved\">unresolved (1)</h2>"), "{page}");
    assert!(page.contains("<h2 id=\"source-error\">source-error (0)</h2>"), "{page}");
    let unresolved = &page[page.find("<h2 id=\"unresolved\">").unwrap()..];
    assert!(
        unresolved.contains("thesis/fig9.1") && !unresolved.contains("an error of the source"),
        "{page}"
    );
    let index = std::fs::read_to_string(ws.path().join("figures/index.html")).unwrap();
    assert!(index.contains("<th>of them: source errors</th>"), "{index}");
    // A source error is counted as one.
    let source = std::fs::read_to_string(ws.path().join("experiments/thesis/fig9.1.yaml"))
        .unwrap()
        .replace("discrepancy: unresolved", "discrepancy: source-error");
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), source).unwrap();
    let s = go(ws.path(), 1);
    let by_kind = s.count_by_kind();
    assert_eq!(
        (
            by_kind[&K::SourceError],
            by_kind[&K::Assumption],
            by_kind[&K::Unresolved]
        ),
        (1, 0, 0)
    );
}

/// The project's own manifests: every one parses and validates, and the registry covers the
/// documents (about 205 figures and 31 tables in ../shared/README.md; some figures are split
/// into sub-figure manifests).
#[test]
fn project_manifests_are_valid_and_complete() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = fric_pipeline::load(&root);
    let errors: Vec<String> = loaded
        .invalid
        .iter()
        .flat_map(|i| i.diagnostics.iter().map(|d| d.to_string()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let cov = fric_pipeline::coverage(&loaded);
    let total = |doc: &str| cov[doc].values().sum::<usize>();
    assert_eq!(total("thesis"), 74, "68 figures and 6 tables");
    assert_eq!(total("stribeck-paper"), 12);
    assert_eq!(total("duhem-paper"), 27, "26 figures and Table 1");
    assert_eq!(total("ruderman-paper"), 8, "7 figures (1 split in a/b)");
    assert_eq!(total("report"), 118, "94 figures and 24 tables");
}

#[test]
fn post_processing_adds_columns_without_touching_the_cache_key() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    go(ws.path(), 1);
    let with_post = DAHL
        .replace(
            "    sim: {periods: 2, samples_per_period: 400}\n",
            "    sim: {periods: 2, samples_per_period: 400}\n    post:\n      - {name: F_abs, op: abs, of: F}\n      - {name: F_avg, op: moving-average, of: F_abs, param: 5}\n",
        )
        .replace(
            "  - {name: area, kind: loop-area,",
            "  - {name: fabs_max, kind: max, run: dahl, y: F_abs}\n  - {name: f_maxabs, kind: max-abs, run: dahl, y: F}\n  - {name: same, kind: difference, of: [fabs_max, f_maxabs]}\n  - {name: area, kind: loop-area,",
        );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), with_post).unwrap();
    let s = go(ws.path(), 1);
    assert!(s.ok(), "{:#?}", s.report.experiments);
    assert_eq!((s.runs_computed, s.runs_cached), (0, 1));
    let e = &s.report.experiments[0];
    assert_eq!(e.metrics["same"], Some(0.0));
    // A step reading a column that does not exist is a located error.
    let bad = DAHL.replace(
        "    sim: {periods: 2, samples_per_period: 400}\n",
        "    sim: {periods: 2, samples_per_period: 400}\n    post:\n      - {name: G, op: abs, of: nope}\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), bad).unwrap();
    let s = go(ws.path(), 1);
    let d = &s.invalid[0].diagnostics[0];
    assert!(d.message.contains("no column `nope`") && d.line == 13, "{d}");
}

/// The status rule: `reproduced` needs every published or claimed check met or a proven source
/// error; an unresolved one is refused at the `status:` line with the check named, `partial`
/// (with a reason) is accepted, and so is `reproduced` when the miss is a source error.
#[test]
fn a_reproduced_status_needs_its_published_checks_met() {
    let with = |kind: &str, status: &str| {
        DAHL.replace(
            "expected: 28.8, tol: {rel: 1.0e-3}, provenance: {derived: \"4(A Fc - Fr Fc/sigma)\"}",
            &format!(
                "expected: 30.0, tol: {{rel: 1.0e-3}}, provenance: {{published: {{line: 7, quote: \"area 30.0\", printed: \"30.0\"}}}}, \
                 discrepancy: {kind}, known_discrepancy: \"printed value\""
            ),
        )
        .replace("status: reproduced\n", status)
    };
    let ws = workspace(&[("thesis/fig9.1.yaml", &with("unresolved", "status: reproduced\n"))]);
    let s = go(ws.path(), 1);
    assert!(!s.ok());
    let errors = &s.report.experiments[0].errors;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("experiments/thesis/fig9.1.yaml:5: status `reproduced` disagrees with the status rule")
            && errors[0].contains("published check `area` is a known discrepancy of kind unresolved")
            && errors[0].contains("gives `partial`"),
        "{}",
        errors[0]
    );
    let partial = with(
        "unresolved",
        "status: partial\nreason: \"the published area is not met\"\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), partial).unwrap();
    let s = go(ws.path(), 1);
    assert!(s.ok(), "{:?}", s.report.experiments[0].errors);
    let source = with("source-error", "status: reproduced\n");
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), source).unwrap();
    assert!(go(ws.path(), 1).ok());
}
