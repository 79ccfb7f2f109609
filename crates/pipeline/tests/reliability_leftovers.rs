//! Issue 48's leftovers, kept as tests: every read of a cached run, a cache entry's metadata, a
//! recorded output and the tidy files' record goes through the bounded reader (a FIFO there
//! never blocks); an invalid document.yaml brings no spurious "source lines" demand (D18);
//! evaluation errors are bounded like diagnostics; bad `post` parameters are refused at their
//! line; the runs of a manifest are bounded together before any sweep is expanded; `explain`
//! scans [1e-300, 1e300]; hostile labels reach the PGFPlots file escaped; the start-up cleanup
//! removes only temporaries no live process may be writing.

mod common;

use common::figures::draw_fig91;
use common::{diagnostics, workspace, DAHL};
use fric_pipeline::{run, Options, Summary};
use std::path::Path;

fn go(root: &Path) -> Summary {
    let mut o = Options::new(root);
    o.jobs = Some(2);
    run(&o).unwrap()
}

/// The result of `f`, which must return within 60 seconds: a read that blocks on a FIFO fails
/// the test instead of hanging it.
fn within_60s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .expect("blocked for 60 s (reading a FIFO?)")
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let ok = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success(), "mkfifo {}", path.display());
}

fn files(dir: &Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == ext))
        .map(|e| e.into_path())
        .collect();
    v.sort();
    v
}

/// Issue 48 item 1: a FIFO where a recorded output, the tidy Parquet file, the tidy files'
/// record and a cached run's data are is refused by the bounded reader (the output drawn again,
/// the run recomputed with a note), never opened; `clean --stale`'s scan over a FIFO as an
/// entry's metadata finishes too. Before, each of these reads was a plain `std::fs::read` and
/// the run blocked forever on the first FIFO (this test failed with "blocked for 60 s").
#[cfg(unix)]
#[test]
fn fifos_in_the_cache_and_among_the_outputs_never_block() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path().to_path_buf();
    go(&root);
    let runs = root.join("data/cache/runs");
    let pq = files(&runs, "parquet");
    assert_eq!(pq.len(), 1);
    for p in [
        root.join("figures/thesis/fig9.1.svg"),
        root.join("figures/metrics.parquet"),
        root.join("data/cache/entries/metrics.sha256"),
        pq[0].clone(),
    ] {
        mkfifo(&p);
    }
    let r = root.clone();
    let s = within_60s(move || go(&r));
    assert!(s.ok(), "{:?} {:?}", s.runs_failed, s.report.experiments[0].errors);
    assert_eq!((s.figures_drawn, s.runs_computed), (1, 1));
    assert!(
        s.runs_recovered.len() == 1 && s.runs_recovered[0].1.contains("not a regular file (a FIFO)"),
        "{:?}",
        s.runs_recovered
    );
    for p in [
        "figures/thesis/fig9.1.svg",
        "figures/metrics.parquet",
        "data/cache/entries/metrics.sha256",
    ] {
        assert!(root.join(p).is_file(), "{p} was not written again");
    }
    // A FIFO as an entry's metadata: the scan of `clean --stale` finishes and removes it (it is
    // no entry of this build).
    let json = files(&runs, "json");
    let fake = json[0].with_file_name(format!("{}.json", "ab".repeat(32)));
    mkfifo(&fake);
    let dir = runs.clone();
    let pruned = within_60s(move || fric_pipeline::store::RunCache::new(dir).prune_stale().unwrap());
    assert_eq!(pruned.entries, 1, "{pruned:?}");
    assert!(!fake.exists());
}

/// D18: a manifest without `lines` under an invalid document.yaml is told its declaration is
/// invalid, and not also that "source lines must be a non-empty list" (its document is unknown,
/// so whether it has a source text is too). With a valid declaration of a document with a text
/// the demand stands. Before, the unknown document counted as having a text and this test
/// failed on the spurious demand.
#[test]
fn an_invalid_declaration_brings_no_source_lines_demand() {
    let m = DAHL.replace(", lines: [1]}", "}");
    let ws = workspace(&[
        ("thesis/document.yaml", "title: t\nsourc: none\n"),
        ("thesis/fig9.1.yaml", &m),
    ]);
    let loaded = fric_pipeline::load(ws.path());
    let text = |file: &str| {
        loaded
            .invalid
            .iter()
            .filter(|i| i.file.ends_with(file))
            .flat_map(|i| &i.diagnostics)
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let manifest = text("fig9.1.yaml");
    assert!(
        manifest.contains("is invalid (its errors are reported there)"),
        "{manifest}"
    );
    assert!(!manifest.contains("source lines"), "{manifest}");
    // The declaration's own error is reported at it.
    assert!(text("document.yaml").contains("sourc"), "{}", text("document.yaml"));
    // Under a valid declaration of a document with a source text, no `lines` is an error.
    let d = diagnostics("thesis/fig9.1.yaml", &m);
    assert!(
        d.iter()
            .any(|d| d.message.starts_with("source lines must be a non-empty list")),
        "{d:?}"
    );
}

/// Issue 48 item 4: an evaluation error echoing a manifest value (an `info` metric's `y` of
/// 100 000 characters) is bounded like a diagnostic, 2 000 characters and a count of the rest.
/// Before, the report and the runner carried all of it ("an error of 100064 characters").
#[test]
fn evaluation_errors_are_bounded_like_diagnostics() {
    let y = "q".repeat(100_000);
    let m = DAHL.replace(
        "metrics:\n",
        &format!("metrics:\n  - {{name: bad, kind: info, run: dahl, y: {y}}}\n"),
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    let s = go(ws.path());
    assert!(s.invalid.is_empty(), "{:?}", s.invalid);
    let errors = &s.report.experiments[0].errors;
    let bad: Vec<&String> = errors.iter().filter(|e| e.contains("qqqq")).collect();
    assert_eq!(bad.len(), 1, "{} errors", errors.len());
    let n = bad[0].chars().count();
    assert!(n < 2_100, "an error of {n} characters");
    assert!(
        bad[0].contains("more characters not shown)"),
        "{}",
        &bad[0][bad[0].len() - 80..]
    );
}

/// A held probe of the review: bad `post` parameters are refused at their line: an ewma weight
/// outside (0, 1], a moving-average window of 0 or 1.5, a step without its `param` or `by`.
#[test]
fn bad_post_parameters_are_refused_at_their_line() {
    let cases = [
        (
            "{name: a, op: ewma, of: F, param: 0}",
            "ewma weight out of range",
            "β in (0, 1]",
        ),
        (
            "{name: a, op: ewma, of: F, param: 1.5}",
            "ewma weight out of range",
            "β in (0, 1]",
        ),
        (
            "{name: a, op: moving-average, of: F, param: 0}",
            "moving-average window out of range",
            "a whole number of samples ≥ 1",
        ),
        (
            "{name: a, op: moving-average, of: F, param: 1.5}",
            "moving-average window out of range",
            "a whole number of samples ≥ 1",
        ),
        ("{name: a, op: ewma, of: F}", "this step needs `param`", "param: "),
        (
            "{name: a, op: gate, of: F, param: 0.1}",
            "this step needs `by`",
            "by: <column>",
        ),
    ];
    for (step, message, allowed) in cases {
        let m = DAHL.replace(
            "    sim: {periods: 2, samples_per_period: 400}\n",
            &format!("    sim: {{periods: 2, samples_per_period: 400}}\n    post: [{step}]\n"),
        );
        let d = diagnostics("thesis/fig9.1.yaml", &m);
        let hit = d.iter().find(|d| d.message.contains(message));
        let Some(hit) = hit else {
            panic!("{step}: no `{message}` among {d:#?}")
        };
        assert_eq!(
            (hit.file.as_str(), hit.line),
            ("experiments/thesis/fig9.1.yaml", 12),
            "{step}: {hit}"
        );
        assert!(hit.allowed.contains(allowed), "{step}: {hit}");
    }
    // A valid step passes, so the cases above fail on their parameter alone.
    let m = DAHL.replace(
        "    sim: {periods: 2, samples_per_period: 400}\n",
        "    sim: {periods: 2, samples_per_period: 400}\n    post: [{name: a, op: moving-average, of: F, param: 1}]\n",
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    assert!(fric_pipeline::load(ws.path()).invalid.is_empty());
}

/// Issue 48 item 1 (D9 again): the runs of a manifest are bounded together before any sweep is
/// expanded. Five sweeps of 4 096 members each fit the per-sweep limit; the fifth brings the
/// manifest to 20 480 runs, over 16 384, refused at its sweep's line. Before, all 20 480 members
/// were expanded and resolved and the manifest was accepted (about 0.4 GB by the estimate,
/// under the 1 GiB per-manifest limit): this test failed, the manifest valid.
#[test]
fn the_runs_of_a_manifest_are_bounded_together_before_expansion() {
    let values: Vec<String> = (1..=64).map(|i| format!("{}", 1.0 + i as f64 / 64.0)).collect();
    let v = values.join(", ");
    let mut runs = String::new();
    for k in 0..5 {
        runs.push_str(&format!(
            "  - id: g{k}\n    system: dahl\n    params: {{sigma: 7.5, fc: 1.5, gamma: 1}}\n    input: {{kind: sine, amplitude: 5, omega: 2}}\n    sim: {{periods: 2, samples_per_period: 400}}\n    sweep:\n      grid:\n        - {{param: sigma, values: [{v}]}}\n        - {{param: fc, values: [{v}]}}\n"
        ));
    }
    let m = DAHL.replace("runs:\n", &format!("runs:\n{runs}"));
    let start = std::time::Instant::now();
    let d = diagnostics("thesis/fig9.1.yaml", &m);
    let hit = d
        .iter()
        .find(|d| d.message.contains("runs (every sweep member counted)"))
        .unwrap_or_else(|| panic!("{d:#?}"));
    assert!(
        hit.message.starts_with(
            "with this run the manifest has 20480 runs (every sweep member counted), more than the limit of 16384"
        ),
        "{hit}"
    );
    // The fifth grid's `sweep:` line: 6 lines before the first run, 9 per run, its 6th.
    assert_eq!(hit.line, 6 + 4 * 9 + 6, "{hit}");
    assert!(!d.iter().any(|d| d.message.contains("would hold about")), "{d:#?}");
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

/// A held probe of the review (D19) as an integration test: `explain` over [1e-300, 1e300]
/// scans the whole range without overflowing and finds the amplitude that gives the published
/// loop area (2.2 J at A = 1.6 m, for one Maxwell-slip element of k = 1 N/m, Δ = 0.5 m); the
/// review's run failed with "inf is out of range".
#[test]
fn explain_scans_hundreds_of_decades() {
    let m = r#"id: thesis/fig9.1
kind: figure
source: {document: thesis, number: "9.1", caption: "one Maxwell-slip element", lines: [1]}
content: simulation
status: reproduced
runs:
  - id: ms
    system: maxwell-slip
    params: {k: [1], delta: [0.5]}
    input: {kind: sine, amplitude: 0.8, omega: 1}
    sim: {periods: 3, samples_per_period: 4000}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: ms, x: u, y: F}
metrics:
  - {name: area, kind: loop-area, run: ms, x: u, y: F, window: {periods: [2, 3]}, unit: J}
checks:
  - metric: area
    expected: 2.2
    tol: {rel: 1.0e-6}
    provenance: {derived: "an area of 2.2 J, for the test"}
    discrepancy: assumption
    known_discrepancy: "with A = 0.8 m the area is 0.6 J"
    explain: [{run: ms, param: input.amplitude, range: [1.0e-300, 1.0e300]}]
"#;
    let ws = workspace(&[("thesis/fig9.1.yaml", m)]);
    let r = fric_pipeline::sensitivity::explain(&Options::new(ws.path()), "thesis/fig9.1", "area").unwrap();
    let x = &r.explanations[0];
    let v = x.value.unwrap_or_else(|| panic!("{}", x.text()));
    assert!((v - 1.6).abs() < 1e-3 * 1.6, "{v}: {}", x.text());
    assert!(!x.text().contains("inf"), "{}", x.text());
}

/// A held probe of the review as an integration test: hostile labels (TeX's special characters
/// and a command) reach the PGFPlots file escaped: no `\input`, no bare `%`, `&` or `#`.
#[test]
fn hostile_labels_reach_the_pgfplots_file_escaped() {
    let hostile = r"100% & #5 \input{/etc/passwd} ~^ {x}";
    let m = DAHL
        .replace("LABEL", &format!("\"{}\"", hostile.replace('\\', "\\\\")))
        .replace("y: {label: F, unit: N}", "y: {label: \"F & G #1 50%\", unit: N}");
    let d = draw_fig91(&m);
    assert!(!d.tex.contains(r"\input{"), "{}", d.tex);
    let problems = fric_report::pgf::tex_problems(&d.tex);
    assert!(problems.is_empty(), "{problems:?}\n{}", d.tex);
    let bare = |c: char| {
        d.tex
            .lines()
            .filter(|l| l.contains("legendentry") || l.contains("ylabel"))
            .flat_map(|l| l.match_indices(c).map(move |(i, _)| l[..i].ends_with('\\')))
            .any(|escaped| !escaped)
    };
    for c in ['%', '&', '#'] {
        assert!(!bare(c), "a bare `{c}`:\n{}", d.tex);
    }
    assert!(d.tex.contains(r"100\%"), "{}", d.tex);
}

/// Temporary files of an interrupted run are removed: those older than
/// [`fric_pipeline::store::IN_FLIGHT`] (an hour), and younger ones whose writer was a process
/// of this machine that is dead. Any other younger one, written before this run started, may be
/// a live process's write in flight (of this machine: here this test's own process; or of
/// another sharing the cache, whose process ids say nothing here) and stays. Issue 48: the
/// start-up cleanup removed every temporary older than the run's own start; with that code
/// this test fails, 5 removed and the live ones gone.
#[test]
fn stale_temporary_files_are_removed() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    go(ws.path());
    let ago = |s: u64| std::time::SystemTime::now() - std::time::Duration::from_secs(s);
    let host = fric_pipeline::store::host_tag();
    let dead = {
        let mut c = std::process::Command::new("true").spawn().unwrap();
        c.wait().unwrap();
        c.id()
    };
    let me = std::process::id();
    let runs = ws.path().join("data/cache/runs");
    let leftovers = [
        (ws.path().join("figures/thesis/.fig9.1.png.4242.0.tmp"), 7200),
        (runs.join(".abc.parquet.4242.1.tmp"), 7200),
        (runs.join(format!(".abe.parquet.{dead}-{host}.0.tmp")), 60),
    ];
    let live = [
        runs.join(".abd.parquet.4343.0.tmp"),
        runs.join(format!(".abf.parquet.{me}-{host}.0.tmp")),
        runs.join(format!(".abg.parquet.{dead}-0badc0de.0.tmp")),
    ];
    let all = leftovers
        .iter()
        .map(|(p, a)| (p, *a))
        .chain(live.iter().map(|p| (p, 60)));
    for (p, age) in all {
        std::fs::write(p, b"partial").unwrap();
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(ago(age))
            .unwrap();
    }
    let s = go(ws.path());
    assert_eq!(s.temps_removed, 3);
    assert!(leftovers.iter().all(|(p, _)| !p.exists()));
    for p in &live {
        assert!(p.exists(), "a write in flight was removed: {}", p.display());
    }
}
