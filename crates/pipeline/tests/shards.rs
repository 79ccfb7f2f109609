//! Plans and shards: N processes computing shares of a plan into one cache leave exactly the
//! runs a local run computes, and a `figures` run afterwards computes nothing and writes the
//! same bytes as a local run.

mod common;

use common::{workspace, DAHL_GRID};
use fric_pipeline::shard::{self, PlanFile};
use fric_pipeline::Options;
use std::collections::BTreeMap;
use std::path::Path;

/// A 6 × 5 grid: 30 runs.
fn grid() -> String {
    DAHL_GRID
        .replace("values: [5, 10]", "values: [2, 4, 6, 8, 10, 12]")
        .replace("values: [1, 2]", "values: [0.5, 1, 1.5, 2, 2.5]")
}

/// Every file under `figures/`, relative path → bytes.
fn outputs(root: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root.join("figures"))
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap().display().to_string();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

#[test]
fn shards_fill_a_shared_cache_and_figures_then_computes_nothing() {
    let text = grid();
    let local = workspace(&[("thesis/fig9.6.yaml", &text)]);
    let s = fric_pipeline::run(&Options::new(local.path())).unwrap();
    assert_eq!((s.runs_computed, s.runs_failed.len()), (30, 0));

    let remote = workspace(&[("thesis/fig9.6.yaml", &text)]);
    let shared = tempfile::tempdir().unwrap();
    let opts = |root: &Path| {
        let mut o = Options::new(root);
        o.cache_dir = Some(shared.path().join("runs"));
        o
    };
    let (plan, _) = PlanFile::new(&opts(remote.path())).unwrap();
    assert_eq!(plan.runs.len(), 30);
    // The plan survives its file: written and read back.
    let plan = PlanFile::parse(&plan.to_json(), "plan").unwrap();
    let n = 4;
    let mut computed = 0;
    for i in 1..=n {
        let s = shard::compute(&opts(remote.path()), &plan, i, n).unwrap();
        assert!(s.failed.is_empty(), "{:?}", s.failed);
        assert_eq!(s.cached, 0, "shards are disjoint");
        computed += s.computed;
        // Shards wrote nothing but cache entries.
        assert!(!remote.path().join("figures").exists());
    }
    assert_eq!(computed, 30);
    // Running a shard again finds its runs cached.
    let again = shard::compute(&opts(remote.path()), &plan, 2, n).unwrap();
    assert_eq!((again.computed, again.cached), (0, again.assigned));
    // A new plan is empty; figures computes nothing and writes what the local run wrote.
    assert!(PlanFile::new(&opts(remote.path())).unwrap().0.runs.is_empty());
    let s = fric_pipeline::run(&opts(remote.path())).unwrap();
    assert_eq!((s.runs_computed, s.runs_cached), (0, 30));
    assert_eq!(outputs(local.path()), outputs(remote.path()));
}

/// The files under the cache directory `dir`: (entries, files that are not an entry's `.json`
/// or `.parquet`, e.g. a temporary file left behind).
fn cache_files(dir: &Path) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut entries: BTreeMap<String, usize> = BTreeMap::new();
    let mut other = Vec::new();
    for f in walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
    {
        let name = f.file_name().to_string_lossy().to_string();
        match name.strip_suffix(".json").or_else(|| name.strip_suffix(".parquet")) {
            Some(key) if !name.starts_with('.') => *entries.entry(key.to_string()).or_default() += 1,
            _ if name == ".bounded" => {}
            _ => other.push(name),
        }
    }
    (entries, other)
}

/// A finished cache holds each of `n` runs once, as one metadata and one data file, nothing else;
/// and a `figures` run on it (`opts`) computes nothing, recovers no corrupted entry and writes
/// the bytes `want` a local run wrote.
fn settled(dir: &Path, n: usize, opts: &Options, want: &BTreeMap<String, Vec<u8>>) {
    let (entries, other) = cache_files(dir);
    assert_eq!(entries.len(), n, "{entries:?}");
    assert!(entries.values().all(|&f| f == 2), "{entries:?}");
    assert_eq!(other, Vec::<String>::new(), "no temporary file is left");
    let s = fric_pipeline::run(opts).unwrap();
    assert!(s.runs_recovered.is_empty(), "corrupted entries: {:?}", s.runs_recovered);
    assert_eq!((s.runs_computed, s.runs_cached), (0, n));
    assert!(outputs(&opts.root) == *want, "the outputs differ from a local run's");
}

/// Review probe (held, no test until now): three shards computed at once into one cache, as a
/// Slurm array would (here three threads of one process: the same code, one run cache
/// directory), each run stored once, no entry corrupted, and `figures` on the filled cache
/// computing nothing and writing the local run's bytes; then three copies of one shard at once
/// on a fresh cache (every run written by three writers racing), with the same outcome.
#[test]
fn three_shards_at_once_on_one_cache_store_each_run_once() {
    let text = grid();
    let local = workspace(&[("thesis/fig9.6.yaml", &text)]);
    assert_eq!(
        fric_pipeline::run(&Options::new(local.path())).unwrap().runs_computed,
        30
    );
    let want = outputs(local.path());
    for shards in [[(1, 3), (2, 3), (3, 3)], [(1, 1), (1, 1), (1, 1)]] {
        let remote = workspace(&[("thesis/fig9.6.yaml", &text)]);
        let shared = tempfile::tempdir().unwrap();
        let opts = |root: &Path| {
            let mut o = Options::new(root);
            o.cache_dir = Some(shared.path().join("runs"));
            o.jobs = Some(2);
            o
        };
        let (plan, _) = PlanFile::new(&opts(remote.path())).unwrap();
        let done: Vec<shard::ShardSummary> = std::thread::scope(|sc| {
            let hs: Vec<_> = shards
                .iter()
                .map(|&(i, n)| {
                    let (o, plan) = (opts(remote.path()), &plan);
                    sc.spawn(move || shard::compute(&o, plan, i, n).unwrap())
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(
            done.iter().all(|s| s.failed.is_empty() && s.recovered.is_empty()),
            "{done:?}"
        );
        let (computed, cached): (usize, usize) = done.iter().fold((0, 0), |a, s| (a.0 + s.computed, a.1 + s.cached));
        if shards[0].1 == 3 {
            assert_eq!((computed, cached), (30, 0), "disjoint shards compute each run once");
        } else {
            assert_eq!(computed + cached, 90, "{done:?}");
        }
        settled(&shared.path().join("runs"), 30, &opts(remote.path()), &want);
    }
}

/// Review probe (held, no test until now): two workspaces on one `--cache`, run at once, each
/// evaluate every run from verified entries (the runs both compute are stored once) and write
/// the local run's bytes; each then finds everything current.
#[test]
fn two_workspaces_at_once_on_one_cache_agree() {
    let text = grid();
    let local = workspace(&[("thesis/fig9.6.yaml", &text)]);
    fric_pipeline::run(&Options::new(local.path())).unwrap();
    let want = outputs(local.path());
    let shared = tempfile::tempdir().unwrap();
    let (a, b) = (
        workspace(&[("thesis/fig9.6.yaml", &text)]),
        workspace(&[("thesis/fig9.6.yaml", &text)]),
    );
    let opts = |root: &Path| {
        let mut o = Options::new(root);
        o.cache_dir = Some(shared.path().join("runs"));
        o.jobs = Some(2);
        o
    };
    let both: Vec<fric_pipeline::Summary> = std::thread::scope(|sc| {
        let hs: Vec<_> = [a.path(), b.path()]
            .into_iter()
            .map(|root| {
                let o = opts(root);
                sc.spawn(move || fric_pipeline::run(&o).unwrap())
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for s in &both {
        assert!(
            s.runs_failed.is_empty() && s.runs_recovered.is_empty(),
            "{:?}",
            s.runs_failed
        );
        assert_eq!(s.runs_computed + s.runs_cached, 30);
    }
    for root in [a.path(), b.path()] {
        assert!(outputs(root) == want, "the outputs differ from a local run's");
        let again = fric_pipeline::run(&opts(root)).unwrap();
        assert_eq!(
            (again.runs_computed, again.figures_drawn, again.figures_current),
            (0, 0, 1)
        );
    }
    // A third workspace on the cache the two filled: every entry verified, nothing computed.
    let c = workspace(&[("thesis/fig9.6.yaml", &text)]);
    settled(&shared.path().join("runs"), 30, &opts(c.path()), &want);
}

#[test]
fn a_stale_plan_is_refused() {
    let ws = workspace(&[("thesis/fig9.6.yaml", &grid())]);
    let (plan, _) = PlanFile::new(&Options::new(ws.path())).unwrap();
    // The manifest changes after the plan was made: its runs' keys are no longer defined.
    std::fs::write(
        ws.path().join("experiments/thesis/fig9.6.yaml"),
        grid().replace("omega: 2", "omega: 3"),
    )
    .unwrap();
    let e = shard::compute(&Options::new(ws.path()), &plan, 1, 1).unwrap_err();
    assert!(
        e.contains("the plan is stale") && e.contains("thesis/fig9.6#dahl"),
        "{e}"
    );
}

#[test]
fn the_projects_longest_run_is_estimated_the_costliest() {
    // The runs start longest first by their estimated cost (list scheduling), so the estimate must
    // rank the run measured longest first: report Fig 5.22's B&S describing function at
    // ω = 0.1 rad/s (85 s in a whole-project `check` on 2 cores, 2026-11-28; the next, the ω
    // search of Fig 5.24, 29 s). The budget's default (samples plus periods at the step cap)
    // counted it as 161 samples. Since 2026-12-06 Fig 5.22 also computes that curve on 321
    // amplitudes (`w01_g321`, issue 43: the gap count independent of the grid), the longest run:
    // `figures --only report/fig5.22 --timings --jobs 1` from an empty cache, 2026-12-06, slowest
    // run 10.81 s of Fig 5.22's six (27.0 s), against 7.50 s for Fig 5.23's 161-point ω = 0.1 runs.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = fric_pipeline::load(&root);
    let mut costs: Vec<(f64, String)> = loaded
        .entries
        .iter()
        .flat_map(|e| {
            e.runs
                .iter()
                .map(move |(id, r)| (fric_pipeline::plan::cost(&r.request), format!("{}#{id}", e.manifest.id)))
        })
        .collect();
    costs.sort_by(|a, b| b.0.total_cmp(&a.0));
    assert!(costs.len() > 300, "{} runs", costs.len());
    assert!(costs[0].1 == "report/fig5.22#w01_g321", "{:?}", &costs[..5]);
}
