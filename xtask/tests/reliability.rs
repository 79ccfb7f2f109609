//! The December 2026 reliability probes (`../shared/reviews/reliability-2026-12.md`, issue 48)
//! through the runner: bounded inputs, threads and sweeps, Slurm options that cannot reach a
//! batch script as commands, writes in flight that `clean --stale` leaves alone, and exit codes
//! and messages that tell the truth. Each runs the built binary on a small temporary workspace,
//! with a time limit where the defect was a hang.

mod common;

use common::{workspace, write, Out, DAHL, LINEAR};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run `xtask` with `args` in `dir` and the environment `env`, killed after `limit` (a hang is
/// a failure, reported as code -9 with "timed out" in stderr).
fn xtask_within(dir: &Path, args: &[&str], env: &[(&str, &str)], limit: Duration) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the runner starts");
    let pipe = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = pipe(Box::new(child.stdout.take().unwrap()));
    let err = pipe(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code().unwrap_or(-1);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break -9;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = err.join().unwrap();
    if code == -9 {
        stderr.push_str(&format!("\n(timed out after {limit:?}: killed)"));
    }
    Out {
        code,
        stdout: out.join().unwrap(),
        stderr,
    }
}

fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Out {
    xtask_within(dir, args, env, Duration::from_secs(120))
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let st = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(st.success());
}

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
    let o = run(
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
    assert_eq!(o.code, 0, "{}", o.stderr);
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

/// D7: `clean --stale` leaves a temporary file or a Parquet file without its metadata that was
/// written within the last hour (another process's write in flight) and removes older ones.
#[test]
fn clean_stale_leaves_writes_in_flight() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    assert_eq!(run(ws.path(), &["figures"], &[]).code, 0);
    let shard = ws.path().join("data/cache/runs/ab");
    let inflight = [shard.join(".abcd.parquet.77.0.tmp"), shard.join("abcd.parquet")];
    for p in &inflight {
        write(p, "partial");
    }
    let o = run(ws.path(), &["clean", "--stale"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(inflight.iter().all(|p| p.exists()), "{}", o.stdout);
    let long_ago = std::time::SystemTime::now() - Duration::from_secs(2 * 3600);
    for p in &inflight {
        let f = std::fs::File::options().write(true).open(p).unwrap();
        f.set_modified(long_ago).unwrap();
    }
    let o = run(ws.path(), &["clean", "--stale"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(inflight.iter().all(|p| !p.exists()), "{}", o.stdout);
    assert!(o.stdout.contains("(2 files,"), "{}", o.stdout);
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

/// D5: runs that each fit the per-run budget but together would not fit in memory (16 members
/// of 4.8·10⁶ samples: 5.2 GB and an abort in the review) and that cannot be streamed within
/// the limit either (every member drawn over its whole run: 1.23 GB of drawn columns held
/// together by the figure) are refused before any is computed. (Drawn over their last period,
/// 0.61 GB, beside the largest member read alone, 0.46 GB: 1.075 GB, just over the 1.074 GB
/// limit; a sweep that streams is `pipeline/tests/sweep_batches.rs`.)
#[test]
fn a_manifest_too_large_for_memory_is_refused_before_work_starts() {
    let m = DAHL
        .replace(
            "    sim: {periods: 2, samples_per_period: 400}\n",
            "    sim: {periods: 2, samples_per_period: 2400000}\n    sweep: {param: sigma, values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}\n",
        )
        .replace("window: {periods: [1, 2]}, label", "label");
    let ws = workspace(&[("thesis/fig9.1.yaml", &m), ("thesis/fig9.2.yaml", LINEAR)]);
    let o = run(ws.path(), &["figures"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("the 16 runs of this manifest would hold about")
            && o.stderr.contains("FRIC_MAX_MANIFEST_BYTES_IN_MEMORY"),
        "{}",
        o.stderr
    );
    assert!(
        o.stdout.contains("(0 computed") || o.stdout.contains("runs:      2 (2 computed"),
        "{}",
        o.stdout
    );
    // The other manifest is drawn.
    assert!(ws.path().join("figures/thesis/fig9.2.png").exists());
}

/// D25: `compute --plan` is relative to the workspace, as `plan --out` is, wherever it is typed.
#[test]
fn compute_plan_is_relative_to_the_workspace() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let o = run(ws.path(), &["plan", "--out", "data/p.json"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let sub = ws.path().join("experiments");
    let o = run(&sub, &["compute", "--plan", "data/p.json", "--shard", "1/1"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("1 computed"), "{}", o.stdout);
}

/// D27: after a manifest is deleted, or stops drawing a panel, `clean --orphans` removes its
/// outputs (and the deleted one's stamp) and nothing else.
#[test]
fn clean_orphans_removes_what_no_manifest_draws() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    assert_eq!(run(root, &["figures"], &[]).code, 0);
    let o = run(root, &["clean", "--orphans"], &[]);
    assert!(o.stdout.contains("removed 0 orphaned outputs"), "{}", o.stdout);
    std::fs::remove_file(root.join("experiments/thesis/fig9.2.yaml")).unwrap();
    // fig9.1 draws one series where its old drawing had two.
    let extra = root.join("figures/thesis/fig9.1/main-2.csv");
    write(&extra, "x,y\n");
    assert_eq!(run(root, &["figures"], &[]).code, 0);
    assert!(root.join("figures/thesis/fig9.2.png").exists(), "D27 no longer holds?");
    let o = run(root, &["clean", "--orphans"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    for gone in [
        "figures/thesis/fig9.2.png",
        "figures/thesis/fig9.2.svg",
        "figures/thesis/fig9.2.pgf.tex",
        "figures/thesis/fig9.2/main-1.csv",
        "data/cache/entries/thesis/fig9.2.json",
        "figures/thesis/fig9.1/main-2.csv",
    ] {
        assert!(!root.join(gone).exists(), "{gone} left:\n{}", o.stdout);
        assert!(o.stdout.contains(&format!("removed {gone}\n")), "{gone}:\n{}", o.stdout);
    }
    assert!(!root.join("figures/thesis/fig9.2").exists());
    for kept in [
        "figures/thesis/fig9.1.png",
        "figures/thesis/fig9.1/main-1.csv",
        "figures/thesis/index.html",
        "figures/report.json",
    ] {
        assert!(root.join(kept).exists(), "{kept} removed");
    }
    // The current manifest is still current: nothing is drawn again.
    let o = run(root, &["figures"], &[]);
    assert!(o.stdout.contains("0 figures drawn, 1 up to date"), "{}", o.stdout);
}

/// D6: a run cache that cannot be written loses nothing: every computed run is evaluated and
/// drawn, and one warning names the cache (its parent is a file here, which even root cannot
/// write through).
#[test]
fn an_unwritable_cache_keeps_the_computed_runs() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    write(&root.join("data/blocker"), "a file, not a directory");
    let o = run(root, &["--cache", "data/blocker/runs", "figures"], &[]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let warnings: Vec<&str> = o.stderr.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{}", o.stderr);
    assert!(
        warnings[0].contains("data/blocker/runs could not be written (3 runs not stored"),
        "{}",
        warnings[0]
    );
    assert!(!o.stderr.lines().any(|l| l.starts_with("error")), "{}", o.stderr);
    assert!(
        o.stdout
            .contains("runs:      3 (3 computed, 0 cached, 0 recovered, 0 failed)"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("checks:    1 passed"), "{}", o.stdout);
    for f in ["figures/thesis/fig9.1.png", "figures/thesis/fig9.2.png"] {
        assert!(root.join(f).exists(), "{f}");
    }
    let metrics = std::fs::read_to_string(root.join("figures/metrics.csv")).unwrap();
    assert!(metrics.contains("thesis/fig9.1,area,"), "{metrics}");
}

/// D16: a manifest's stamp is keyed by the run cache it was evaluated with: a run with another
/// `--cache` (an empty shared one) plans and computes its runs instead of taking it for done,
/// and the workspace's own cache still finds it current.
#[test]
fn stamps_are_keyed_by_the_cache() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path();
    assert_eq!(run(root, &["figures"], &[]).code, 0);
    let o = run(root, &["--cache", "data/shared", "figures", "--dry-run"], &[]);
    assert!(o.stdout.contains("runs to compute: 1 of 1 (0 cached)"), "{}", o.stdout);
    let o = run(root, &["--cache", "data/shared", "plan", "--out", "data/p.json"], &[]);
    assert!(o.stdout.contains("plan: 1 runs to compute"), "{}", o.stdout);
    let o = run(
        root,
        &[
            "--cache",
            "data/shared",
            "compute",
            "--plan",
            "data/p.json",
            "--shard",
            "1/1",
        ],
        &[],
    );
    assert!(o.stdout.contains("1 computed"), "{}", o.stdout);
    let o = run(root, &["figures"], &[]);
    assert!(o.stdout.contains("0 figures drawn, 1 up to date"), "{}", o.stdout);
    let o = run(root, &["--cache", "data/cache/runs", "figures"], &[]);
    assert!(o.stdout.contains("0 figures drawn, 1 up to date"), "{}", o.stdout);
}

/// D24: a `--cache` that is a file, or inside experiments/ or figures/, is refused once, up
/// front (it gave one error per run).
#[test]
fn a_bad_cache_directory_is_refused_up_front() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    write(&root.join("data/a-file"), "x");
    for bad in ["data/a-file", "experiments/cache", "figures/cache"] {
        let o = run(root, &["--cache", bad, "figures"], &[]);
        assert_eq!(o.code, 2, "{bad}: {}", o.stderr);
        assert_eq!(o.stderr.matches("error").count(), 1, "{bad}: {}", o.stderr);
        assert!(o.stderr.contains("--cache"), "{bad}: {}", o.stderr);
    }
    assert!(!root.join("experiments/cache").exists());
}

/// A dry run reports the invalid manifests it selects, and only those, as the run does: an
/// invalid manifest selected by `--only` is its error (exit 1), not "no manifest id matches".
#[test]
fn a_dry_run_reports_only_the_selected_invalid_manifests() {
    let bad = DAHL.replace("system: dahl", "system: nosuch");
    let ws = workspace(&[("thesis/fig9.1.yaml", &bad), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    let o = run(root, &["figures", "--dry-run", "--only", "thesis/fig9.2"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stderr.contains("fig9.1"), "{}", o.stderr);
    let o = run(root, &["figures", "--dry-run", "--only", "thesis/fig9.1"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("fig9.1.yaml:8") && !o.stderr.contains("no manifest id matches"),
        "{}",
        o.stderr
    );
    assert!(o.stdout.contains("manifests: 2 (1 selected)"), "{}", o.stdout);
}

/// The cached runs under `dir` (none when it does not exist).
fn parquet_files(dir: &Path) -> usize {
    let Ok(rd) = std::fs::read_dir(dir) else { return 0 };
    rd.flatten()
        .map(|e| {
            let p = e.path();
            if p.is_dir() {
                parquet_files(&p)
            } else {
                usize::from(p.extension().is_some_and(|x| x == "parquet"))
            }
        })
        .sum()
}

/// D5: the manifests to evaluate are computed, evaluated and released in batches whose
/// estimated memory together stays within `FRIC_MAX_PROCESS_BYTES_IN_MEMORY`; with a limit
/// below the two manifests' runs together, each manifest is a batch of its own (one over the
/// limit is computed and read back run by run), and every one is drawn. A limit below a single
/// run is refused before any work, naming the variable.
#[test]
fn runs_are_held_in_batches_within_the_process_limit() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    let o = run(root, &["figures"], &[("FRIC_MAX_PROCESS_BYTES_IN_MEMORY", "1")]);
    assert_ne!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("largest run alone") && o.stderr.contains("FRIC_MAX_PROCESS_BYTES_IN_MEMORY"),
        "{}",
        o.stderr
    );
    assert_eq!(
        parquet_files(&root.join("data/cache")),
        0,
        "a run was computed before the refusal"
    );
    // 0.1 MB: the Dahl run with its copies fits, the two swept members held together with
    // theirs do not: they are released once computed and read back.
    let o = run(root, &["figures"], &[("FRIC_MAX_PROCESS_BYTES_IN_MEMORY", "100000")]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("note: 2 runs of manifests over"), "{}", o.stderr);
    assert!(
        o.stderr.contains("held in 2 batches") && o.stderr.contains("FRIC_MAX_PROCESS_BYTES_IN_MEMORY"),
        "{}",
        o.stderr
    );
    assert!(o.stdout.contains("runs:      3 (3 computed, 0 cached"), "{}", o.stdout);
    assert!(o.stdout.contains("2 figures drawn"), "{}", o.stdout);
    // Within the default limit, one batch: no note.
    let o = run(root, &["figures", "--force"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stderr.contains("batches"), "{}", o.stderr);
}

/// D13: under `--only`, the other manifests are parsed, not validated (their runs are not
/// resolved, their inputs not read): an unselected manifest with an unknown system costs
/// nothing and is not counted invalid; without `--only` it is reported (exit 1).
#[test]
fn only_validates_the_selected_manifests() {
    let bad = LINEAR.replace("system: linear-msd", "system: nosuch");
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &bad)]);
    let root = ws.path();
    let o = run(root, &["figures", "--only", "thesis/fig9.1"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let report = std::fs::read_to_string(root.join("figures/report.json")).unwrap();
    let coverage = &report[report.find("\"coverage\"").expect("a coverage table")..];
    let thesis = &coverage[coverage.find("\"thesis\"").unwrap()..];
    let thesis: String = thesis[..thesis.find('}').unwrap()].split_whitespace().collect();
    assert!(
        thesis.contains("\"reproduced\":2") && !thesis.contains("\"invalid\":1"),
        "{thesis}"
    );
    let o = run(root, &["check"], &[]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("fig9.2.yaml:8"), "{}", o.stderr);
    // Once a run has found it invalid, an `--only` run keeps it so, in the list and the table.
    let o = run(root, &["figures", "--only", "thesis/fig9.1"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
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

/// D29: an empty plan costs 0 (not "-0.000e0"), and a tampered plan that lists a run twice is
/// refused.
#[test]
fn plans_show_zero_cost_and_refuse_duplicate_runs() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path();
    let o = run(root, &["plan", "--out", "data/p.json"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = run(root, &["figures"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = run(root, &["plan", "--out", "data/empty.json"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        !o.stdout.contains("-0.000e0") && o.stdout.contains("cost 0.000e0"),
        "{}",
        o.stdout
    );
    // The first run listed twice (a run's object holds no nested object).
    let text = std::fs::read_to_string(root.join("data/p.json")).unwrap();
    let start = text.find("\"runs\"").unwrap();
    let open = start + text[start..].find('{').unwrap();
    let close = open + text[open..].find('}').unwrap() + 1;
    let run0 = &text[open..close];
    let tampered = format!("{}{run0},{}", &text[..open], &text[open..]);
    write(&root.join("data/p.json"), &tampered);
    let o = run(root, &["compute", "--plan", "data/p.json", "--shard", "1/1"], &[]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("is listed twice"), "{}", o.stderr);
}
