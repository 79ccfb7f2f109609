//! What no manifest, interruption or damaged file may do: write outside `figures/` and `data/`,
//! abort the whole run, make the cache answer with another run's data, hide a damaged output,
//! or make a run count and exit on results it did not produce.

mod common;

use common::{workspace, DAHL, DAHL_TRIANGLE};
use fric_pipeline::{run, Options, Summary};
use std::path::Path;

/// fig9.1 with another figure number and parameter (a second, independent manifest), checking
/// that the loop area is positive.
fn other(n: u32, sigma: f64) -> String {
    let head = &DAHL[..DAHL.find("checks:").unwrap()];
    let check = "checks:\n  - {metric: area, op: gt, expected: 0, provenance: {derived: \"a loop\"}}\n";
    format!("{head}{check}")
        .replace("fig9.1", &format!("fig9.{n}"))
        .replace("\"9.1\"", &format!("\"9.{n}\""))
        .replace("sigma: 7.5", &format!("sigma: {sigma}"))
}

fn go_only(root: &Path, only: &[&str], force: bool) -> Result<Summary, String> {
    let mut o = Options::new(root);
    o.jobs = Some(2);
    o.only = only.iter().map(|s| s.to_string()).collect();
    o.force = force;
    run(&o)
}

fn go(root: &Path) -> Summary {
    go_only(root, &[], false).unwrap()
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

/// A cache entry's `.parquet` and `.json` replaced by another entry's pair: the checksum still
/// ties the two files together, but the entry records its own key and request, so the swap is a
/// miss, recomputed with a note, and the figure is drawn from the right run.
#[test]
fn a_swapped_cache_entry_is_detected_and_recomputed() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &other(2, 3.0))]);
    go(ws.path());
    let png = std::fs::read(ws.path().join("figures/thesis/fig9.1.png")).unwrap();
    let report = std::fs::read(ws.path().join("figures/report.json")).unwrap();
    let (pq, js) = (
        files(&ws.path().join("data/cache/runs"), "parquet"),
        files(&ws.path().join("data/cache/runs"), "json"),
    );
    assert_eq!((pq.len(), js.len()), (2, 2));
    let read = |p: &Path| std::fs::read(p).unwrap();
    let (p0, p1, j0, j1) = (read(&pq[0]), read(&pq[1]), read(&js[0]), read(&js[1]));
    std::fs::write(&pq[0], &p1).unwrap();
    std::fs::write(&pq[1], &p0).unwrap();
    std::fs::write(&js[0], &j1).unwrap();
    std::fs::write(&js[1], &j0).unwrap();
    // Make both manifests need their runs again.
    std::fs::remove_dir_all(ws.path().join("data/cache/entries")).unwrap();
    let s = go(ws.path());
    assert_eq!(
        (s.runs_computed, s.runs_recovered.len()),
        (2, 2),
        "{:?}",
        s.runs_recovered
    );
    assert!(
        s.runs_recovered.iter().all(|r| r.1.contains("swapped")),
        "{:?}",
        s.runs_recovered
    );
    assert!(s.ok());
    assert_eq!(std::fs::read(ws.path().join("figures/thesis/fig9.1.png")).unwrap(), png);
    assert_eq!(std::fs::read(ws.path().join("figures/report.json")).unwrap(), report);
}

/// A valid manifest over the run budget is invalid (with the limit named); every other manifest
/// completes and the report is written.
#[test]
fn a_run_over_budget_is_invalid_and_the_others_complete() {
    let huge = other(2, 3.0).replace("sim: {periods: 2, samples_per_period: 400}", "sim: {periods: 1.0e9}");
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &huge)]);
    let s = go(ws.path());
    assert_eq!(s.invalid.len(), 1);
    let msg = s.invalid[0]
        .diagnostics
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(msg.contains("limit is 5e6 samples"), "{msg}");
    assert!(msg.contains("fig9.2.yaml:"), "{msg}");
    assert!(ws.path().join("figures/thesis/fig9.1.png").exists());
    assert_eq!(s.count(fric_report::Outcome::Pass), 1);
    assert!(!s.ok());
    assert!(ws.path().join("figures/report.json").exists());
}

/// Review probe (held, no test until now): a CSV input of 10⁷ rows (t = 0 .. 10⁷ − 1 s), each a
/// breakpoint the run passes through up to its `t_end` of 10⁷ s, is refused by the run budget (5·10⁶ samples) with the count, the limit and
/// the manifest's `sim` line, before any run starts; the other manifest completes. The file
/// (about 80 MB) is written row by row, never held by the test.
#[test]
fn a_csv_input_of_ten_million_rows_is_refused_by_the_budget() {
    use std::io::Write;
    let csv = DAHL_TRIANGLE
        .replace(
            "input: {kind: triangle, amplitude: 1.5, omega: 1.5707963267948966}",
            "input: {kind: csv, path: \"data/inputs/long.csv\", t_column: t, u_column: u}",
        )
        .replace(
            "sim: {periods: 2, samples_per_period: 400}",
            "sim: {t_end: 10000000, samples_per_period: 300}",
        );
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.5.yaml", &csv)]);
    std::fs::create_dir_all(ws.path().join("data/inputs")).unwrap();
    let f = std::fs::File::create(ws.path().join("data/inputs/long.csv")).unwrap();
    let mut w = std::io::BufWriter::new(f);
    writeln!(w, "t,u").unwrap();
    for i in 0..10_000_000u32 {
        writeln!(w, "{i},{}", i % 2).unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let s = go(ws.path());
    assert_eq!(s.invalid.len(), 1, "{:?}", s.invalid);
    let d = &s.invalid[0].diagnostics[0];
    assert!(
        d.message.contains("1.000e7 samples") && d.message.contains("the limit is 5e6 samples per run"),
        "{d}"
    );
    assert_eq!((d.file.as_str(), d.line), ("experiments/thesis/fig9.5.yaml", 11), "{d}");
    assert_eq!(s.runs_computed, 1, "only the other manifest's run");
    assert_eq!(s.count(fric_report::Outcome::Pass), 1);
}

/// A run that fails (here: a system that refuses `steady_state`) is that run's error; the other
/// manifests complete, and the failed manifest's checks count as errors, not as nothing.
#[test]
fn a_failing_run_fails_its_manifest_only_and_its_checks_count_as_errors() {
    let failing = r#"id: thesis/fig9.3
kind: figure
source: {document: thesis, number: "9.3", caption: "fails", lines: [1]}
content: simulation
status: reproduced
runs:
  - id: cms
    system: coulomb-mass-spring
    params: {m: 1, k: 1, fc: 2}
    input: {kind: sine, amplitude: 3, omega: 0.5}
    sim: {steady_state: {tol: 1.0e-9, max_periods: 5}}
panels:
  - id: main
    x: {label: u}
    y: {label: x}
    series:
      - {run: cms, x: u, y: x}
metrics:
  - {name: top, kind: max, run: cms, y: x}
checks:
  - {metric: top, expected: 1, tol: {abs: 0.1}, provenance: {derived: "test"}}
  - {metric: top, op: gt, expected: 0, provenance: {derived: "test"}}
"#;
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.3.yaml", failing)]);
    let s = go(ws.path());
    assert!(s.invalid.is_empty(), "{:?}", s.invalid);
    assert_eq!(s.runs_failed.len(), 1, "{:?}", s.runs_failed);
    assert_eq!(s.count(fric_report::Outcome::Pass), 1);
    assert_eq!(s.count(fric_report::Outcome::Error), 2);
    assert!(!s.ok());
    assert!(ws.path().join("figures/thesis/fig9.1.png").exists());
}

/// `--only` counts and exits on the manifests it selected, from this run's results; selecting
/// nothing is an error; every other manifest's entry in report.json stays byte-identical.
#[test]
fn only_counts_the_selection_and_leaves_the_rest_of_the_report_untouched() {
    let failing = other(2, 3.0).replace("op: gt, expected: 0", "op: lt, expected: 0");
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &failing)]);
    let s = go(ws.path());
    assert!(!s.ok());
    let before = std::fs::read(ws.path().join("figures/report.json")).unwrap();
    let s = go_only(ws.path(), &["thesis/fig9.1"], true).unwrap();
    assert!(s.ok(), "the failing manifest was not selected");
    assert_eq!(
        (s.count(fric_report::Outcome::Pass), s.count(fric_report::Outcome::Fail)),
        (1, 0)
    );
    assert_eq!(std::fs::read(ws.path().join("figures/report.json")).unwrap(), before);
    let s = go_only(ws.path(), &["thesis/fig9.2"], false).unwrap();
    assert!(!s.ok());
    assert_eq!(s.count(fric_report::Outcome::Fail), 1);
    let e = go_only(ws.path(), &["nomatch/*"], false).unwrap_err();
    assert!(e.contains("no manifest id matches --only nomatch/*"), "{e}");
}

/// With nothing to do, no run data is read: the runs can even be gone from the cache.
#[test]
fn a_run_with_nothing_to_do_reads_no_run_data() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &other(2, 3.0))]);
    go(ws.path());
    let report = std::fs::read(ws.path().join("figures/report.json")).unwrap();
    std::fs::remove_dir_all(ws.path().join("data/cache/runs")).unwrap();
    let s = go(ws.path());
    assert_eq!((s.runs_total, s.runs_computed, s.runs_cached), (2, 0, 2));
    assert_eq!((s.figures_drawn, s.figures_current), (0, 2));
    assert!(s.ok());
    assert_eq!(std::fs::read(ws.path().join("figures/report.json")).unwrap(), report);
}

/// A damaged or deleted output is redrawn (it was "up to date" before), bit for bit.
#[test]
fn damaged_outputs_are_redrawn() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    go(ws.path());
    let png = ws.path().join("figures/thesis/fig9.1.png");
    let csv = ws.path().join("figures/thesis/fig9.1/main-1.csv");
    let (png0, csv0) = (std::fs::read(&png).unwrap(), std::fs::read(&csv).unwrap());
    std::fs::write(&png, b"not a png").unwrap();
    std::fs::remove_file(&csv).unwrap();
    let s = go(ws.path());
    assert_eq!((s.figures_drawn, s.runs_computed, s.runs_cached), (1, 0, 1));
    assert_eq!(std::fs::read(&png).unwrap(), png0);
    assert_eq!(std::fs::read(&csv).unwrap(), csv0);
    let s = go(ws.path());
    assert_eq!((s.figures_drawn, s.figures_current), (0, 1));
}

/// Overwrite `p` in place with bytes of the same length and give it back its modification
/// time: size, inode and mtime are the recorded ones, only the change time moved.
fn damage_keeping_mtime(p: &Path) {
    let mtime = std::fs::metadata(p).unwrap().modified().unwrap();
    let len = std::fs::metadata(p).unwrap().len() as usize;
    let f = std::fs::File::options().write(true).open(p).unwrap();
    std::io::Write::write_all(&mut &f, &vec![b'x'; len]).unwrap();
    f.set_modified(mtime).unwrap();
}

/// The stat the pipeline records for an output (crates/pipeline/src/filestat.rs).
fn stat_json(p: &Path) -> serde_json::Value {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(p).unwrap();
    let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
    serde_json::json!({
        "len": m.size(),
        "mtime_ns": ns(m.mtime(), m.mtime_nsec()),
        "ctime_ns": ns(m.ctime(), m.ctime_nsec()),
        "ino": m.ino(),
    })
}

/// A no-op trusts an output by its recorded size, times and inode, not by reading it: an output
/// damaged in place behind a forged modification time is still redrawn (its change time moved),
/// and one whose recorded stat was forged too (as on a file system without change times) is
/// redrawn by `verify`, which hashes every output.
#[test]
fn an_output_damaged_behind_a_forged_mtime_is_redrawn() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    go(ws.path());
    let png = ws.path().join("figures/thesis/fig9.1.png");
    let png0 = std::fs::read(&png).unwrap();
    // Stats are recorded only for outputs older than the file times' granularity (2 s).
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let s = go(ws.path());
    assert_eq!((s.figures_drawn, s.figures_current), (0, 1));
    let stamp_path = ws.path().join("data/cache/entries/thesis/fig9.1.json");
    let stamp = || -> serde_json::Value { serde_json::from_slice(&std::fs::read(&stamp_path).unwrap()).unwrap() };
    let rel = "figures/thesis/fig9.1.png";
    assert_eq!(
        stamp()["stats"][rel],
        stat_json(&png),
        "the no-op recorded the output's stat"
    );

    damage_keeping_mtime(&png);
    let s = go(ws.path());
    assert_eq!(
        (s.figures_drawn, s.runs_computed),
        (1, 0),
        "damage behind a forged mtime not redrawn"
    );
    assert_eq!(std::fs::read(&png).unwrap(), png0);

    // Forge the recorded stat as well: a plain run now trusts it, `verify` does not.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    go(ws.path());
    damage_keeping_mtime(&png);
    let mut st = stamp();
    st["stats"][rel] = stat_json(&png);
    std::fs::write(&stamp_path, serde_json::to_vec(&st).unwrap()).unwrap();
    let s = go(ws.path());
    assert_eq!(
        s.figures_drawn, 0,
        "a plain run reads no output whose stat is the recorded one"
    );
    let mut o = Options::new(ws.path());
    o.jobs = Some(2);
    o.verify = true;
    let s = run(&o).unwrap();
    assert_eq!(
        (s.figures_drawn, s.runs_computed),
        (1, 0),
        "--verify missed a damaged output"
    );
    assert_eq!(std::fs::read(&png).unwrap(), png0);
}

/// Hostile panel ids never direct a write outside `figures/`.
#[test]
fn hostile_ids_write_nothing_outside_figures() {
    let ws = workspace(&[]);
    let escape = format!("escape-{}", std::process::id());
    let outside = ws.path().parent().unwrap().join(format!("{escape}-1.csv"));
    for id in [
        format!("../../../../{escape}"),
        format!("/tmp/{escape}"),
        "sub/dir".to_string(),
        "..".to_string(),
    ] {
        let m = DAHL.replace("  - id: main", &format!("  - id: \"{id}\""));
        std::fs::create_dir_all(ws.path().join("experiments/thesis")).unwrap();
        std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), m).unwrap();
        common::declare_documents(&ws.path().join("experiments"), &[("thesis/fig9.1.yaml", "")]);
        let s = go(ws.path());
        assert!(!s.ok(), "panel id {id:?} accepted");
        assert!(!outside.exists() && !Path::new(&format!("/tmp/{escape}-1.csv")).exists());
        assert!(!ws.path().join("figures/thesis/fig9.1/sub").exists());
    }
}

#[test]
fn output_paths_stay_inside_figures_and_data() {
    use fric_pipeline::store::output_path;
    let root = Path::new("/ws");
    assert_eq!(
        output_path(root, "figures/thesis/fig1.7.png").unwrap(),
        root.join("figures/thesis/fig1.7.png")
    );
    assert!(output_path(root, "data/cache/entries/thesis/fig1.7.json").is_ok());
    for bad in [
        "figures/../../etc/passwd",
        "/etc/passwd",
        "experiments/thesis/fig1.7.yaml",
        "figures/thesis/../../x",
        "figures/.hidden",
        "figures\\..\\x",
        "",
    ] {
        assert!(output_path(root, bad).is_err(), "{bad} accepted");
    }
}

/// `clean --stale`: cached runs of another build (a different code fingerprint, or none recorded),
/// a Parquet file left without its metadata and an interrupted write's temporary are removed;
/// this build's entries stay and are hit by the next run (nothing recomputed).
#[test]
fn pruning_removes_only_what_this_build_cannot_use() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    go(ws.path());
    let runs = ws.path().join("data/cache/runs");
    let (pq, js) = (files(&runs, "parquet"), files(&runs, "json"));
    assert_eq!((pq.len(), js.len()), (1, 1));
    // A copy of the entry as another build would have written it, one as an older format
    // (no fingerprint), an orphan Parquet file and a temporary.
    let meta: serde_json::Value = serde_json::from_slice(&std::fs::read(&js[0]).unwrap()).unwrap();
    let shard = runs.join("ff");
    std::fs::create_dir_all(&shard).unwrap();
    let mut other = meta.clone();
    other["code"] = serde_json::Value::String("0".repeat(64));
    let mut old = meta.clone();
    old.as_object_mut().unwrap().remove("code");
    for (name, m) in [("ff01", &other), ("ff02", &old)] {
        std::fs::write(shard.join(format!("{name}.json")), serde_json::to_vec(m).unwrap()).unwrap();
        std::fs::copy(&pq[0], shard.join(format!("{name}.parquet"))).unwrap();
    }
    std::fs::copy(&pq[0], shard.join("ff03.parquet")).unwrap();
    std::fs::write(shard.join(".ff04.parquet.1.0.tmp"), b"partial").unwrap();
    // Left long ago: not a write in flight (`store::IN_FLIGHT`).
    let long_ago = std::time::SystemTime::now() - 2 * fric_pipeline::store::IN_FLIGHT;
    for name in ["ff03.parquet", ".ff04.parquet.1.0.tmp"] {
        let f = std::fs::File::options().write(true).open(shard.join(name)).unwrap();
        f.set_modified(long_ago).unwrap();
    }
    let pruned = Options::new(ws.path()).run_cache().prune_stale().unwrap();
    assert_eq!((pruned.entries, pruned.files), (2, 6), "{pruned:?}");
    assert!(std::fs::read_dir(&shard).unwrap().next().is_none());
    assert_eq!((files(&runs, "parquet"), files(&runs, "json")), (pq, js));
    // This build's entry is still a hit.
    std::fs::remove_dir_all(ws.path().join("data/cache/entries")).unwrap();
    let s = go(ws.path());
    assert_eq!((s.runs_computed, s.runs_cached), (0, 1));
}

/// A drawing (status not-reproducible) that declares runs has them computed and its checks
/// evaluated (a check that never ran would pass as nothing); it is not drawn.
#[test]
fn a_not_reproducible_manifest_with_runs_is_checked_not_drawn() {
    let drawing = r#"id: thesis/fig9.4
kind: figure
source: {document: thesis, number: "9.4", caption: "a drawing", lines: [1]}
content: schematic
status: not-reproducible
reason: "a drawing; the number its text prints is checked"
runs:
  - id: design
    system: pid-design
    params: {omega_c: 2, zeta_c: 0.5, n_c: 1, alpha: 0, j: 1}
    input: {kind: none}
metrics:
  - {name: ki, kind: info, run: design, y: ki_n}
checks:
  - {metric: ki, expected: 8, tol: {abs: 1.0e-9}, provenance: {derived: "n_c ω_c³"}}
  - {metric: ki, expected: 9, tol: {abs: 1.0e-9}, provenance: {derived: "a wrong value, to fail"}}
"#;
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.4.yaml", drawing)]);
    let s = go(ws.path());
    assert!(s.invalid.is_empty(), "{:?}", s.invalid);
    assert_eq!(s.count(fric_report::Outcome::Pass), 2);
    assert_eq!(s.count(fric_report::Outcome::Fail), 1);
    assert!(!ws.path().join("figures/thesis/fig9.4.png").exists());
    assert!(ws.path().join("figures/thesis/fig9.1.png").exists());
    // Again, from the cache: the same checks, and only the drawn figure counts as current.
    let s = go(ws.path());
    assert_eq!(s.count(fric_report::Outcome::Fail), 1);
    assert_eq!((s.figures_drawn, s.figures_current), (0, 1));
}

/// D18: a manifest of a document whose document.yaml exists but is invalid is told so, not
/// that the file is missing.
#[test]
fn a_manifest_under_an_invalid_declaration_is_told_so() {
    let ws = workspace(&[
        ("thesis/document.yaml", "title: t\nsourc: none\n"),
        ("thesis/fig9.1.yaml", DAHL),
    ]);
    let s = go(ws.path());
    let m = s
        .invalid
        .iter()
        .find(|i| i.file.ends_with("fig9.1.yaml"))
        .expect("the manifest is invalid");
    let text = m
        .diagnostics
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        text.contains("the declaration of its document, experiments/thesis/document.yaml, is invalid"),
        "{text}"
    );
    assert!(!text.contains("no experiments/thesis/document.yaml"), "{text}");
}

/// D19: a hand-edited manifest-entry file (a metric value changed in its report) is detected
/// like a tampered cache entry: the manifest is evaluated again, the edited value never served.
#[test]
fn a_hand_edited_stamp_is_not_served() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let first = go(ws.path());
    let area = first.report.experiments[0].metrics["area"].unwrap();
    let p = ws.path().join("data/cache/entries/thesis/fig9.1.json");
    let mut s: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    assert_eq!(s["report"]["metrics"]["area"].as_f64(), Some(area));
    s["report"]["metrics"]["area"] = serde_json::json!(99.5);
    std::fs::write(&p, serde_json::to_vec(&s).unwrap()).unwrap();
    let again = go(ws.path());
    assert_eq!(again.report.experiments[0].metrics["area"], Some(area));
    let metrics = std::fs::read_to_string(ws.path().join("figures/metrics.csv")).unwrap();
    assert!(!metrics.contains("99.5"), "{metrics}");
    // Untouched, the stamp is reused.
    let third = go(ws.path());
    assert_eq!((third.figures_drawn, third.figures_current), (0, 1));
}

/// Write an entry of another build at `key` (a metadata file naming other computing code and a
/// 1000-byte Parquet file), last written `ago` ago.
fn other_build_entry(cache: &Path, key: &str, ago: std::time::Duration) {
    let shard = cache.join(&key[..2]);
    std::fs::create_dir_all(&shard).unwrap();
    let meta = r#"{"key": "KEY", "sha256": "0", "period": null, "info": {}, "request": null, "code": "another build"}"#;
    let t = std::time::SystemTime::now() - ago;
    for (name, bytes) in [
        (format!("{key}.json"), meta.replace("KEY", key).into_bytes()),
        (format!("{key}.parquet"), vec![0u8; 1000]),
    ] {
        std::fs::write(shard.join(&name), bytes).unwrap();
        let f = std::fs::File::options().write(true).open(shard.join(&name)).unwrap();
        f.set_modified(t).unwrap();
    }
}

/// The run cache does not grow without bound: the entries of other builds beyond the limit are
/// removed, the least recently written first; one written within the last hour (another live
/// process's, perhaps) and every entry of this build stay.
#[test]
fn the_cached_runs_of_other_builds_are_bounded_oldest_first() {
    let d = tempfile::tempdir().unwrap();
    let cache = fric_pipeline::store::RunCache::new(d.path().to_path_buf());
    let data = fric_experiments::RunData {
        columns: vec![("t".into(), vec![0.0, 1.0])],
        period: None,
        info: Default::default(),
    };
    let ours = "aa".repeat(32);
    cache.put(&ours, &"a request", &data).unwrap();
    let hour = std::time::Duration::from_secs(3600);
    for (k, ago) in [("b1", 2), ("b2", 3), ("b3", 4)] {
        other_build_entry(d.path(), &k.repeat(32), hour * ago);
    }
    other_build_entry(d.path(), &"b4".repeat(32), std::time::Duration::from_secs(60));
    let one = std::fs::metadata(d.path().join(format!("b1/{}.json", "b1".repeat(32))))
        .unwrap()
        .len()
        + 1000;
    // Room for two: the one written a minute ago and the newest of the others.
    let p = cache.bound_stale(2 * one).unwrap();
    assert_eq!((p.entries, p.files, p.bytes), (2, 4, 2 * one));
    let exists = |k: &str| d.path().join(format!("{}/{}.parquet", &k[..2], k)).exists();
    assert!(exists(&"b4".repeat(32)) && exists(&"b1".repeat(32)));
    assert!(!exists(&"b2".repeat(32)) && !exists(&"b3".repeat(32)));
    assert!(matches!(
        cache.get(&ours, &"a request"),
        fric_pipeline::store::Lookup::Hit(_)
    ));
    // With no room, only the young one stays.
    assert_eq!(cache.bound_stale(0).unwrap().entries, 1);
    assert!(exists(&"b4".repeat(32)) && !exists(&"b1".repeat(32)));
}

/// `figures` bounds its cache as it goes (at most once an hour): an old entry of another build
/// beyond `FRIC_MAX_STALE_CACHE_BYTES` is gone after a run, and the summary says so.
#[test]
fn figures_removes_old_cached_runs_of_other_builds() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let cache = ws.path().join("data/cache/runs");
    other_build_entry(&cache, &"c1".repeat(32), std::time::Duration::from_secs(7200));
    std::env::set_var(fric_pipeline::limits::STALE_CACHE_BYTES.env, "0");
    let s = go(ws.path());
    assert_eq!((s.stale_removed.entries, s.runs_computed), (1, 1));
    assert!(!cache.join(format!("c1/{}.json", "c1".repeat(32))).exists());
    // Not again within the hour: the second run does not scan the cache.
    other_build_entry(&cache, &"c2".repeat(32), std::time::Duration::from_secs(7200));
    assert_eq!(go(ws.path()).stale_removed.entries, 0);
}
