//! Shards and workspaces as separate processes on one `--cache` (code review L16): the built
//! runner started several times at once, as a Slurm array or two users on a shared cache would.
//! Threads of one process share the temporary-name counter, so a collision of temporary names
//! between processes can only show here. Each run is stored once, no temporary file is left, no
//! entry fails verification, and `figures` on the filled cache computes nothing and writes the
//! bytes a one-process run wrote.

mod common;

use common::{run, run_ok, snapshot, workspace, DAHL_GRID};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

/// A 6 × 5 grid: 30 runs.
fn grid() -> String {
    DAHL_GRID
        .replace("values: [5, 10]", "values: [2, 4, 6, 8, 10, 12]")
        .replace("values: [1, 2]", "values: [0.5, 1, 1.5, 2, 2.5]")
}

/// Every file the figure wrote (under `figures/thesis/`), relative path → bytes. (The
/// project-wide files beside it record timings and paths.)
fn outputs(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let figures = root.join("figures/thesis");
    snapshot(&figures)
        .into_iter()
        .map(|(p, b)| (p.strip_prefix(&figures).unwrap().display().to_string(), b))
        .collect()
}

/// The cache under `dir`: files per entry key (`<key>.json`, `<key>.parquet`) and every other
/// file (a temporary file left behind).
fn cache_files(dir: &Path) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut entries: BTreeMap<String, usize> = BTreeMap::new();
    let mut other = Vec::new();
    for p in snapshot(dir).into_keys() {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        match name.strip_suffix(".json").or_else(|| name.strip_suffix(".parquet")) {
            Some(key) if !name.starts_with('.') => *entries.entry(key.to_string()).or_default() += 1,
            _ if name == ".bounded" => {}
            _ => other.push(name),
        }
    }
    (entries, other)
}

/// Start the runner once per entry of `each` (workspace, arguments) at the same moment, all on
/// the cache `cache`, and wait for all: (exit code, stdout, stderr) per process.
fn at_once(cache: &Path, each: &[(&Path, Vec<String>)]) -> Vec<(i32, String, String)> {
    let children: Vec<_> = each
        .iter()
        .map(|(root, args)| {
            Command::new(env!("CARGO_BIN_EXE_xtask"))
                .current_dir(root)
                .arg("--cache")
                .arg(cache)
                .args(args)
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the runner starts")
        })
        .collect();
    children
        .into_iter()
        .map(|c| {
            let o = c.wait_with_output().unwrap();
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            (o.status.code().unwrap_or(-1), text(&o.stdout), text(&o.stderr))
        })
        .collect()
}

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// The cache `dir` holds each of 30 runs once (one metadata and one data file), nothing else;
/// `figures` on it in `root` computes nothing, finds no entry failing verification and writes the
/// bytes `want`.
fn settled(dir: &Path, root: &Path, want: &BTreeMap<String, Vec<u8>>) {
    let (entries, other) = cache_files(dir);
    assert_eq!(entries.len(), 30, "{entries:?}");
    assert!(entries.values().all(|&f| f == 2), "{entries:?}");
    assert_eq!(other, Vec::<String>::new(), "no temporary file is left");
    let cache = dir.display().to_string();
    let o = run_ok(root, &["--cache", &cache, "figures", "--jobs", "2"], &[]);
    assert!(
        o.stdout
            .contains("runs:      30 (0 computed, 30 cached, 0 recovered, 0 failed)"),
        "{}\n{}",
        o.stdout,
        o.stderr
    );
    assert!(outputs(root) == *want, "the outputs differ from a one-process run's");
}

/// Three shards of one plan as three processes at once on one cache, then three processes each
/// computing the whole plan (every run written by three writers racing) on a fresh cache.
#[test]
fn three_shard_processes_at_once_store_each_run_once() {
    let text = grid();
    let local = workspace(&[("thesis/fig9.6.yaml", &text)]);
    let o = run(local.path(), &["figures", "--jobs", "2"], &[]);
    assert!(
        o.code == 0 && o.stdout.contains("30 computed"),
        "{}\n{}",
        o.stdout,
        o.stderr
    );
    let want = outputs(local.path());
    for shards in [["1/3", "2/3", "3/3"], ["1/1", "1/1", "1/1"]] {
        let ws = workspace(&[("thesis/fig9.6.yaml", &text)]);
        let root = ws.path();
        let shared = tempfile::tempdir().unwrap();
        let cache = shared.path().join("runs");
        let c = cache.display().to_string();
        run_ok(root, &["--cache", &c, "plan", "--out", "data/p.json"], &[]);
        let each: Vec<_> = shards
            .iter()
            .map(|s| {
                (
                    root,
                    args(&["compute", "--plan", "data/p.json", "--shard", s, "--jobs", "1"]),
                )
            })
            .collect();
        let done = at_once(&cache, &each);
        let (mut computed, mut cached) = (0, 0);
        for (code, out, err) in &done {
            assert_eq!(*code, 0, "{out}\n{err}");
            assert!(!out.contains("recomputed") && !err.contains("warning"), "{out}\n{err}");
            // "shard 1/3: 10 runs (estimated cost …): 10 computed, 0 already cached, 0 failed, …"
            let n = |what: &str| -> usize {
                let at = out.find(what).unwrap_or_else(|| panic!("no '{what}' in {out}"));
                out[..at].trim_end().rsplit([' ', ':']).next().unwrap().parse().unwrap()
            };
            computed += n(" computed,");
            cached += n(" already cached");
            assert!(out.contains(" 0 failed"), "{out}");
        }
        if shards[0] == "1/3" {
            assert_eq!((computed, cached), (30, 0), "disjoint shards compute each run once");
        } else {
            assert_eq!(computed + cached, 90, "{done:?}");
        }
        settled(&cache, root, &want);
    }
}

/// Two workspaces running `figures` at once as two processes on one `--cache`: both succeed
/// with every run computed or verified, write the one-process bytes, and the cache holds each
/// run once with no temporary file left.
#[test]
fn two_workspace_processes_at_once_on_one_cache_agree() {
    let text = grid();
    let local = workspace(&[("thesis/fig9.6.yaml", &text)]);
    assert_eq!(run(local.path(), &["figures", "--jobs", "2"], &[]).code, 0);
    let want = outputs(local.path());
    let shared = tempfile::tempdir().unwrap();
    let cache = shared.path().join("runs");
    let (a, b) = (
        workspace(&[("thesis/fig9.6.yaml", &text)]),
        workspace(&[("thesis/fig9.6.yaml", &text)]),
    );
    let each = [
        (a.path(), args(&["figures", "--jobs", "1"])),
        (b.path(), args(&["figures", "--jobs", "1"])),
    ];
    for (code, out, err) in at_once(&cache, &each) {
        assert_eq!(code, 0, "{out}\n{err}");
        assert!(out.contains("0 recovered, 0 failed"), "{out}\n{err}");
        assert!(!err.contains("warning"), "{err}");
    }
    for root in [a.path(), b.path()] {
        assert!(outputs(root) == want, "the outputs differ from a one-process run's");
    }
    let c = workspace(&[("thesis/fig9.6.yaml", &text)]);
    settled(&cache, c.path(), &want);
}
