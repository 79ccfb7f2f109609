//! Issue 48's leftovers through the built runner: a read-only `data/cache` is one warning and a
//! successful run; the members of a swept run that fail alike are one error; a command's own
//! relative paths (`diff --against`, `export --out`) are relative to the workspace wherever it is
//! typed; malformed `--shard` values are refused; `slurm` quotes `--cache` and `--only`.

mod common;

use common::{run, run_ok, workspace, write, DAHL, LINEAR};

/// Issue 48 item 2: with `data/cache` unwritable (a file here, which even root cannot write
/// through) nothing computed is lost and there is ONE warning: the runs are not stored, the
/// manifests' stamps and the tidy files' record are not written (2 + 1 records), every figure is drawn and the
/// run exits 0. Before, each manifest's stamp failure was an error ("stamp: …", exit 1) and the
/// tidy record's failure ended the run before checks.tex and the site were written.
#[test]
fn a_read_only_data_cache_is_one_warning_and_a_complete_run() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    write(&root.join("data/cache"), "a file, not a directory");
    let o = run(root, &["figures"], &[]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let warnings: Vec<&str> = o.stderr.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{}", o.stderr);
    assert!(
        warnings[0].contains("data/cache/runs could not be written (3 runs not stored")
            && warnings[0].contains("3 manifest records not written under data/cache/entries"),
        "{}",
        warnings[0]
    );
    assert!(!o.stderr.lines().any(|l| l.starts_with("error")), "{}", o.stderr);
    assert!(o.stdout.contains("checks:    1 passed"), "{}", o.stdout);
    for f in [
        "figures/thesis/fig9.1.png",
        "figures/thesis/fig9.2.png",
        "figures/checks.tex",
        "figures/metrics.parquet",
    ] {
        assert!(root.join(f).exists(), "{f}");
    }
    let metrics = std::fs::read_to_string(root.join("figures/metrics.csv")).unwrap();
    assert!(metrics.contains("thesis/fig9.1,area,"), "{metrics}");
    // Nothing was recorded, so the next run evaluates everything again, as completely.
    let o = run(root, &["figures"], &[]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(
        o.stderr.lines().filter(|l| l.starts_with("warning:")).count(),
        1,
        "{}",
        o.stderr
    );
}

/// Issue 48 item 4: the members of a swept run that all fail at compute (a system that refuses
/// `steady_state`) are one error line with a count, as evaluation errors are. Before, one line
/// per member.
#[test]
fn failed_runs_are_printed_once_per_cause() {
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
    sweep: {param: fc, values: [2, 2.5, 3]}
panels:
  - id: main
    x: {label: u}
    y: {label: x}
    series:
      - {run: cms, x: u, y: x}
"#;
    let ws = workspace(&[("thesis/fig9.3.yaml", failing)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    let lines: Vec<&str> = o.stderr.lines().filter(|l| l.starts_with("error: run ")).collect();
    assert_eq!(lines.len(), 1, "{}", o.stderr);
    assert!(lines[0].ends_with("(and 2 more runs alike)"), "{}", lines[0]);
    assert!(o.stdout.contains("3 failed)"), "{}", o.stdout);
}

/// Issue 48 item 3: `diff --against` and `export --out` are relative to the workspace, like
/// `compute --plan` and `plan --out`, wherever the command is typed (here in experiments/).
/// Before, both were relative to the current directory: the diff did not find
/// figures/metrics.csv, and the export wrote under experiments/.
#[test]
fn a_commands_own_paths_are_relative_to_the_workspace() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path();
    run_ok(root, &["figures"], &[]);
    let sub = root.join("experiments");
    let o = run_ok(&sub, &["diff", "--against", "figures/metrics.csv"], &[]);
    assert!(o.stdout.contains("figures/metrics.csv"), "{}{}", o.stdout, o.stderr);
    let o = run_ok(&sub, &["export", "thesis/fig9.1", "--out", "data/out"], &[]);
    assert!(root.join("data/out/thesis/fig9.1").is_dir(), "{}{}", o.stdout, o.stderr);
    assert!(!sub.join("data").exists());
}

/// A held probe of the review, as an integration test: every malformed `--shard` is refused
/// before anything is read, with the form it takes.
#[test]
fn malformed_shards_are_refused() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    for bad in [
        "0/4",
        "5/4",
        "1/0",
        "a/b",
        "1",
        "1/4/2",
        "",
        "-1/4",
        "1/99999999999999999999999",
    ] {
        let shard = format!("--shard={bad}");
        let o = run(ws.path(), &["compute", "--plan", "data/plan.json", &shard], &[]);
        assert_eq!(o.code, 2, "--shard {bad:?}: {}{}", o.stdout, o.stderr);
        assert!(
            o.stderr.contains("--shard") && o.stderr.contains("expected I/N with 1 ≤ I ≤ N"),
            "--shard {bad:?}: {}",
            o.stderr
        );
    }
}

/// A held probe of the review, as an integration test: `slurm` writes `--cache` (made absolute:
/// relative to where the command is typed, like `--root`) and `--only` shell-quoted into the
/// batch scripts, a quote and a glob included.
#[test]
fn slurm_quotes_cache_and_only() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path();
    std::fs::create_dir_all(root.join("it's cache")).unwrap();
    run_ok(
        root,
        &["--cache", "it's cache", "slurm", "--only", "thesis/fig9.*"],
        &[],
    );
    let shards = std::fs::read_to_string(root.join("data/slurm/shards.sbatch")).unwrap();
    let fin = std::fs::read_to_string(root.join("data/slurm/figures.sbatch")).unwrap();
    let canon = root.canonicalize().unwrap();
    let quoted = |p: &std::path::Path| format!("'{}'", p.display().to_string().replace('\'', r"'\''"));
    let cache = [root.join("it's cache"), canon.join("it's cache")];
    for script in [&shards, &fin] {
        assert!(
            cache
                .iter()
                .any(|c| script.contains(&format!(" --cache {} ", quoted(c)))),
            "{script}"
        );
    }
    assert!(fin.contains(" figures --only 'thesis/fig9.*' --jobs"), "{fin}");
}
