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
    // counted it as 161 samples.
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
    assert!(
        ["report/fig5.22#w01", "report/fig5.23#w01"].contains(&costs[0].1.as_str()),
        "{:?}",
        &costs[..5]
    );
}
