//! The December 2026 reliability probes (`../shared/reviews/reliability-2026-12.md`, issue 48)
//! through the runner, on what it reads: bounded inputs, threads and sweeps, Slurm options that
//! cannot reach a batch script as commands, ids, control characters and `post` steps refused at
//! their line, only the selected manifests validated, and exit codes and messages that tell the
//! truth. Each runs the built binary on a small temporary workspace, with a time limit where the
//! defect was a hang. The probes on the cache and the memory limits are in
//! `reliability_cache.rs`.

mod common;

use common::{mkfifo, run, run_ok, workspace, write, xtask_within, DAHL, LINEAR};
use std::time::Duration;

/// D15: a newline or shell metacharacter in `--mem`, `--time`, `--partition` or `--account` is
/// refused where it is read (exit 2) and no batch script is written.
#[test]
fn slurm_options_follow_slurm_syntax() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    for (flag, bad) in [
        ("--mem", "4G\ntouch pwned"),
        ("--mem", "4 GB"),
        ("--time", "01:00:00\nid"),
        ("--final-time", "1:2:3:4"),
        ("--partition", "short;id"),
        ("--account", "$(id)"),
    ] {
        let o = run(ws.path(), &["slurm", flag, bad], &[]);
        assert_eq!(o.code, 2, "{flag} {bad:?}: {}{}", o.stdout, o.stderr);
        assert!(o.stderr.contains("is not a Slurm"), "{flag}: {}", o.stderr);
        assert!(!ws.path().join("data/slurm/shards.sbatch").exists(), "{flag}");
    }
    run_ok(
        ws.path(),
        &[
            "slurm",
            "--mem",
            "500M",
            "--time",
            "2-00:00:00",
            "--partition",
            "a,b",
            "--account",
            "p-1",
        ],
        &[],
    );
    let script = std::fs::read_to_string(ws.path().join("data/slurm/shards.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --mem=500M\n") && script.contains("#SBATCH --partition=a,b\n"));
}

/// D10: `--jobs` beyond the cap (4 per core, or FRIC_MAX_JOBS) is capped with a note, and the run
/// does its work.
#[test]
fn jobs_beyond_the_cap_are_capped_with_a_note() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let o = xtask_within(
        ws.path(),
        &["figures", "--jobs", "100000"],
        &[("FRIC_MAX_JOBS", "3")],
        Duration::from_secs(60),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("note: --jobs 100000 capped at 3 worker threads"),
        "{}",
        o.stderr
    );
    assert!(ws.path().join("figures/thesis/fig9.1.png").exists());
    // Within the cap: no note.
    let o = run(ws.path(), &["figures", "--jobs", "2"], &[("FRIC_MAX_JOBS", "3")]);
    assert!(!o.stderr.contains("capped"), "{}", o.stderr);
}

/// D11/D12: a FIFO given as a plan, a baseline to diff against or a CSV input is refused, not
/// waited on; a file over its size limit is refused naming the limit and its variable.
#[test]
fn input_files_are_regular_files_of_bounded_size() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let fifo = ws.path().join("data/probe/f.csv");
    mkfifo(&fifo);
    let limit = Duration::from_secs(30);
    let f = fifo.to_str().unwrap();
    let o = xtask_within(ws.path(), &["compute", "--plan", f, "--shard", "1/1"], &[], limit);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("not a regular file (a FIFO)"), "{}", o.stderr);
    let o = xtask_within(ws.path(), &["diff", "--against", f], &[], limit);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("not a regular file (a FIFO)"), "{}", o.stderr);
    // A plan over the limit.
    write(&ws.path().join("data/big.json"), &" ".repeat(200));
    let o = run(
        ws.path(),
        &["compute", "--plan", "data/big.json", "--shard", "1/1"],
        &[("FRIC_MAX_INPUT_BYTES", "100")],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("200 bytes, more than the input file limit of 100 bytes (set FRIC_MAX_INPUT_BYTES"),
        "{}",
        o.stderr
    );
}

/// D12: a CSV input that is a FIFO makes its manifest invalid (at its input's line), the run
/// finishes.
#[test]
fn a_fifo_as_csv_input_is_refused() {
    let m = DAHL.replace(
        "input: {kind: sine, amplitude: 5, omega: 2}\n    sim: {periods: 2, samples_per_period: 400}",
        "input: {kind: csv, path: data/probe/f.csv, t_column: t, u_column: u}\n    sim: {t_end: 1, samples_per_period: 100}",
    );
    assert_ne!(m, DAHL);
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    mkfifo(&ws.path().join("data/probe/f.csv"));
    let o = xtask_within(ws.path(), &["figures"], &[], Duration::from_secs(30));
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("fig9.1.yaml:10") && o.stderr.contains("not a regular file (a FIFO)"),
        "{}",
        o.stderr
    );
}

/// D13 (size): a manifest over its size limit is invalid with the limit named, not parsed.
#[test]
fn a_manifest_over_the_size_limit_is_refused() {
    let padded = format!("{DAHL}# {}\n", "x".repeat(3000));
    let ws = workspace(&[("thesis/fig9.1.yaml", &padded), ("thesis/fig9.2.yaml", LINEAR)]);
    let o = run(ws.path(), &["figures"], &[("FRIC_MAX_MANIFEST_BYTES", "2000")]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("more than the manifest limit of 2000 bytes (set FRIC_MAX_MANIFEST_BYTES"),
        "{}",
        o.stderr
    );
    assert!(ws.path().join("figures/thesis/fig9.2.png").exists());
}

/// The probe "`figures` exits 0 with evaluation errors": a wrong diagnostic name on a swept run
/// fails `figures`, is reported once (not once per member) and counted in the summary.
#[test]
fn evaluation_errors_fail_figures_once_per_cause() {
    let m = LINEAR.replace("values: [1, 0.5]", "values: [1, 0.5, 2]").replace(
        "label: \"w = {value}\"}\n",
        "label: \"w = {value}\"}\nmetrics:\n  - {name: bad, kind: info, run: msd, y: nosuch}\n",
    );
    let ws = workspace(&[("thesis/fig9.2.yaml", &m)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    let lines: Vec<&str> = o.stderr.lines().filter(|l| l.contains("nosuch")).collect();
    assert_eq!(lines.len(), 1, "{}", o.stderr);
    assert!(lines[0].contains("(and 2 more sweep members alike)"), "{}", lines[0]);
    assert!(
        o.stdout
            .contains("errors:    3 evaluation or drawing errors in 1 manifests"),
        "{}",
        o.stdout
    );
}

/// D14: a 300-character panel id is invalid where it is read (its start shown, not echoed
/// whole), and nothing of the figure is written.
#[test]
fn ids_are_bounded_in_length() {
    let long = "p".repeat(300);
    let m = DAHL.replace("  - id: main\n", &format!("  - id: {long}\n"));
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("is 300 characters long, more than 64"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains(&long), "{}", o.stderr);
    assert!(!ws.path().join("figures/thesis/fig9.1.png").exists());
}

/// D9: a sweep over the member limit is refused before it is expanded (a dry run of a 100 × 100
/// grid printed 10 000 runs; a 1000 × 1000 one took 40 s and 2.8 GB).
#[test]
fn sweeps_are_bounded_before_expansion() {
    let values: Vec<String> = (1..=100).map(|i| i.to_string()).collect();
    let v = values.join(", ");
    let m = DAHL.replace(
        "    sim: {periods: 2, samples_per_period: 400}\n",
        &format!(
            "    sim: {{periods: 2, samples_per_period: 400}}\n    sweep:\n      grid:\n        - {{param: sigma, values: [{v}]}}\n        - {{param: fc, values: [{v}]}}\n"
        ),
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    let o = run(ws.path(), &["figures", "--dry-run"], &[]);
    assert_ne!(o.code, 0, "{}", o.stdout);
    assert!(
        o.stderr
            .contains("fig9.1.yaml:12:5: this sweep has 10000 members, more than the limit of 4096"),
        "{}",
        o.stderr
    );
    assert!(o.stdout.lines().count() < 50, "{} lines", o.stdout.lines().count());
}

/// A dry run reports the invalid manifests it selects, and only those, as the run does: an
/// invalid manifest selected by `--only` is its error (exit 1), not "no manifest id matches".
#[test]
fn a_dry_run_reports_only_the_selected_invalid_manifests() {
    let bad = DAHL.replace("system: dahl", "system: nosuch");
    let ws = workspace(&[("thesis/fig9.1.yaml", &bad), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    let o = run_ok(root, &["figures", "--dry-run", "--only", "thesis/fig9.2"], &[]);
    assert!(!o.stderr.contains("fig9.1"), "{}", o.stderr);
    let o = run(root, &["figures", "--dry-run", "--only", "thesis/fig9.1"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("fig9.1.yaml:8") && !o.stderr.contains("no manifest id matches"),
        "{}",
        o.stderr
    );
    // No run has read fig9.2 (a dry run records nothing): under `--only` it is not read, and
    // left out (D13).
    assert!(o.stdout.contains("manifests: 1 (1 selected)"), "{}", o.stdout);
}

/// D13: under `--only`, the other manifests are not read: one no run has read yet (here with
/// an unknown system) costs nothing, is not counted, and is named once as left out; without
/// `--only` it is reported (exit 1).
#[test]
fn only_validates_the_selected_manifests() {
    let bad = LINEAR.replace("system: linear-msd", "system: nosuch");
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &bad)]);
    let root = ws.path();
    let o = run_ok(root, &["figures", "--only", "thesis/fig9.1"], &[]);
    assert!(
        o.stderr.contains("1 manifest file(s) outside --only") && o.stderr.contains("experiments/thesis/fig9.2.yaml"),
        "{}",
        o.stderr
    );
    let report = std::fs::read_to_string(root.join("figures/report.json")).unwrap();
    let coverage = &report[report.find("\"coverage\"").expect("a coverage table")..];
    let thesis = &coverage[coverage.find("\"thesis\"").unwrap()..];
    let thesis: String = thesis[..thesis.find('}').unwrap()].split_whitespace().collect();
    assert!(
        thesis.contains("\"reproduced\":1") && !thesis.contains("\"invalid\":1"),
        "{thesis}"
    );
    let o = run(root, &["check"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("fig9.2.yaml:8"), "{}", o.stderr);
    // Once a run has found it invalid, an `--only` run keeps it so, in the list and the table.
    run_ok(root, &["figures", "--only", "thesis/fig9.1"], &[]);
    let report = std::fs::read_to_string(root.join("figures/report.json")).unwrap();
    let coverage = &report[report.find("\"coverage\"").unwrap()..];
    let thesis = &coverage[coverage.find("\"thesis\"").unwrap()..];
    let thesis: String = thesis[..thesis.find('}').unwrap()].split_whitespace().collect();
    assert!(
        thesis.contains("\"reproduced\":1") && thesis.contains("\"invalid\":1"),
        "{thesis}"
    );
}

/// D26: control characters and invisible formatting characters written as escapes in quoted
/// strings (NUL, BEL, U+202E, U+FEFF) are refused at their line, in manifests and document
/// declarations, before anything reaches HTML, SVG or TeX.
#[test]
fn escaped_control_characters_are_refused_at_their_line() {
    for esc in ["\\0", "\\a", "\\u202E", "\\uFEFF"] {
        let m = DAHL.replace("caption: \"test figure\"", &format!("caption: \"a{esc}b\""));
        let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
        let o = run(ws.path(), &["figures"], &[]);
        assert_eq!(o.code, 1, "{esc}: {}", o.stderr);
        assert!(
            o.stderr.contains("fig9.1.yaml:3:") && o.stderr.contains("control or invisible formatting character"),
            "{esc}: {}",
            o.stderr
        );
        assert!(!ws.path().join("figures/thesis/fig9.1.png").exists(), "{esc}");
    }
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    write(
        &ws.path().join("experiments/thesis/document.yaml"),
        "title: \"a\\u202Eb\"\nsource: none\n",
    );
    let o = run(ws.path(), &["figures"], &[]);
    assert_ne!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("document.yaml:1:") && o.stderr.contains("U+202E"),
        "{}",
        o.stderr
    );
}

/// D20: a sweep value the system refuses is reported at the sweep's values, not at `params`;
/// sweeping a list parameter says so.
#[test]
fn sweep_value_errors_point_at_the_sweep() {
    let m = DAHL.replace(
        "    sim: {periods: 2, samples_per_period: 400}\n",
        "    sim: {periods: 2, samples_per_period: 400}\n    sweep: {param: fc, values: [1, -1]}\n",
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("fig9.1.yaml:12:") && o.stderr.contains("`fc` = -1 is out of range"),
        "{}",
        o.stderr
    );
    let m = DAHL
        .replace(
            "    system: dahl\n    params: {sigma: 7.5, fc: 1.5, gamma: 1}\n",
            "    system: multiplay\n    params: {k: [1, 1], delta: [0.8, 0.2], m: [1, 1], c: [1, 1]}\n",
        )
        .replace(
            "    sim: {periods: 2, samples_per_period: 400}\n",
            "    sim: {periods: 2, samples_per_period: 400}\n    sweep: {param: k, values: [1, 2]}\n",
        );
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("fig9.1.yaml:12:") && o.stderr.contains("`k` is a list parameter (2 values)"),
        "{}",
        o.stderr
    );
    // The message says how a list is swept instead: generated from a count.
    assert!(o.stderr.contains("sweep `elements.n`"), "{}", o.stderr);
}

/// D21: a `post` step's fields that its kind does not take are refused, and so is a column
/// name that could not be a CSV header or a reference (`../a b`).
#[test]
fn post_steps_refuse_fields_they_do_not_take_and_unsafe_names() {
    let m = DAHL.replace(
        "    sim: {periods: 2, samples_per_period: 400}\n",
        "    sim: {periods: 2, samples_per_period: 400}\n    post: [{name: F_abs, op: abs, of: F, param: 3, by: u}]\n",
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("`abs` takes no `param`") && o.stderr.contains("`abs` takes no `by`"),
        "{}",
        o.stderr
    );
    let m = DAHL.replace(
        "    sim: {periods: 2, samples_per_period: 400}\n",
        "    sim: {periods: 2, samples_per_period: 400}\n    post: [{name: \"../a b\", op: abs, of: F}]\n",
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", &m)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("fig9.1.yaml:12:") && o.stderr.contains("column name `../a b`"),
        "{}",
        o.stderr
    );
}

/// D28: a megabyte-long value is not echoed in full, a byte that is not UTF-8 is reported at
/// its line and column, and an anchor bomb is one error, not one per alias.
#[test]
fn messages_are_bounded_and_placed() {
    let long = DAHL.replace("system: dahl", &format!("system: {}", "x".repeat(900_000)));
    let ws = workspace(&[("thesis/fig9.1.yaml", &long)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", &o.stderr[..o.stderr.len().min(500)]);
    assert!(o.stderr.len() < 20_000, "{} bytes of messages", o.stderr.len());
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let path = ws.path().join("experiments/thesis/fig9.1.yaml");
    let bytes = DAHL
        .replacen("test figure", "test \u{0}figure", 1)
        .replace('\u{0}', "\u{1}");
    let mut bytes = bytes.into_bytes();
    let at = bytes.iter().position(|&b| b == 1).unwrap();
    bytes[at] = 0xFF;
    std::fs::write(&path, bytes).unwrap();
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("fig9.1.yaml:3:") && o.stderr.contains("not UTF-8 (0xFF)"),
        "{}",
        o.stderr
    );
    let mut bomb = String::from(
        "id: thesis/fig9.1\nkind: figure\nsource: {document: thesis, number: \"9.1\", lines: [1]}\ncontent: simulation\nstatus: pending\na0: &a0 [x, x, x, x, x, x, x, x, x]\n",
    );
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    write(&path, &bomb);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    let anchors = o.stderr.matches("anchors (`&name`)").count();
    assert_eq!(anchors, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("(91 in this file; this is the first)"),
        "{}",
        o.stderr
    );
}
