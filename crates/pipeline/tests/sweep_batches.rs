//! A sweep larger than the per-process memory limit (`FRIC_MAX_PROCESS_BYTES_IN_MEMORY`) is
//! computed, evaluated and released member by member: its peak heap (counted by a global
//! allocator) stays within the limit, and its metrics, metric tables, checks and drawn series
//! are those of the sweep held at once. A manifest with a run larger than the limit is refused
//! before its work (its error names its file and the variable that raises it), the others built.

mod common;

use common::workspace;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting the bytes allocated and not yet freed, and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        LIVE.fetch_sub(l.size(), Relaxed);
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Held by each test: the limit's environment variable and the heap count are the process's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Six Dahl members of 2·10⁵ samples (6.4 MB of data each) with a `post` column (an 8 MB copy
/// each): 38 MB of data, 86 MB with the copies, held at once. Metrics per member, one on a
/// single member, one of two metrics; every member drawn over its last period.
const SWEEP: &str = r#"id: thesis/fig9.8
kind: figure
source: {document: thesis, number: "9.8", caption: "a sweep larger than the limit", lines: [8]}
content: simulation
status: reproduced
runs:
  - id: dahl
    system: dahl
    params: {sigma: 5, fc: 1, gamma: 1}
    input: {kind: sine, amplitude: 1, omega: 2}
    sim: {periods: 20, samples_per_period: 10000}
    post: [{name: Fa, op: abs, of: F}]
    sweep: {param: sigma, values: [2, 4, 6, 8, 10, 12]}
panels:
  - id: loops
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: {periods: [19, 20]}, label: "σ = {value}"}
  - id: areas
    x: {label: σ, unit: N/m}
    y: {label: area, unit: J}
    series:
      - {metric: area, x: sigma, style: points}
metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [19, 20]}, unit: J}
  - {name: peak, kind: max, run: dahl, y: Fa, window: {periods: [19, 20]}}
  - {name: bound, kind: max, run: "dahl[0]", y: u}
  - {name: per_a, kind: ratio, of: [area, bound]}
checks:
  - {metric: area, op: lt, expected: 5, provenance: {derived: "area < 4 Fc A"}}
"#;

/// What a run produced that must not depend on how it was held: the report's metrics, metric
/// tables, checks and errors, and the drawn series files.
type Outcome = (String, Vec<(String, Vec<u8>)>);

/// Run the pipeline on a fresh workspace (empty cache) under a per-process limit of `limit`
/// bytes: its summary's runs released, its outcome, and the peak heap above what was live
/// before; or the pipeline's error.
fn run_under(limit: usize) -> Result<(usize, Outcome, usize), String> {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    std::env::set_var(fric_pipeline::limits::PROCESS_BYTES.env, limit.to_string());
    let ws = workspace(&[("thesis/fig9.8.yaml", SWEEP)]);
    let mut o = fric_pipeline::Options::new(ws.path());
    o.jobs = Some(1);
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let s = fric_pipeline::run(&o);
    let peak = PEAK.load(Relaxed) - base;
    std::env::remove_var(fric_pipeline::limits::PROCESS_BYTES.env);
    let s = s?;
    assert!(s.invalid.is_empty(), "{:?}", s.invalid);
    let e = s.report.experiments.iter().find(|e| e.id == "thesis/fig9.8").unwrap();
    assert!(e.errors.is_empty(), "{:?}", e.errors);
    assert_eq!(e.metric_tables["area"].members.len(), 6);
    let report = serde_json::to_string_pretty(&(&e.metrics, &e.metric_tables, &e.checks, &e.errors)).unwrap();
    let dir = ws.path().join("figures/thesis/fig9.8");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|f| f.file_name().to_string_lossy().ends_with(".csv"))
        .map(|f| {
            (
                f.file_name().to_string_lossy().to_string(),
                std::fs::read(f.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 7,
        "one series file per member and one of the metric: {files:?}"
    );
    Ok((s.runs_released, (report, files), peak))
}

/// Before, a sweep was held at once whatever the limit: its peak heap was above a limit of
/// 40 MB (the six members with their `post` copies, about 86 MB). Now the limit is kept, and
/// nothing the run produces changes.
#[test]
fn a_sweep_larger_than_the_process_limit_runs_within_it_with_the_same_results() {
    let (released, held, peak_held) = run_under(1 << 40).unwrap();
    assert_eq!(released, 0, "within the limit, nothing is released");
    let limit = 40_000_000;
    assert!(
        peak_held > limit,
        "the sweep held at once must exceed the limit for this test to mean anything: {peak_held}"
    );
    let (released, streamed, peak) = run_under(limit).unwrap();
    eprintln!(
        "peak heap: held at once {:.1} MB; member by member under a {:.0} MB limit {:.1} MB",
        peak_held as f64 / 1e6,
        limit as f64 / 1e6,
        peak as f64 / 1e6
    );
    assert_eq!(released, 6, "every member released once computed");
    assert!(peak <= limit, "peak heap {peak} B over the limit of {limit} B");
    assert_eq!(streamed.0, held.0, "metrics, tables and checks differ");
    assert!(streamed.1 == held.1, "the drawn series files differ");
}

/// A small manifest beside the sweep: one Dahl run of 200 samples.
const SMALL: &str = r#"id: thesis/fig9.9
kind: figure
source: {document: thesis, number: "9.9", caption: "a small run beside it", lines: [9]}
content: simulation
status: reproduced
runs:
  - id: dahl
    system: dahl
    params: {sigma: 5, fc: 1, gamma: 1}
    input: {kind: sine, amplitude: 1, omega: 2}
    sim: {periods: 2, samples_per_period: 100}
panels:
  - id: loop
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, label: "σ = 5"}
metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [1, 2]}, unit: J}
"#;

/// A manifest that not even one run of fits in the limit is refused before its work, as its
/// error naming its file and the variable; the other manifests are built. Before, the whole
/// pipeline run stopped with that error and built nothing.
#[test]
fn a_process_limit_below_one_run_refuses_that_manifest_only() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    std::env::set_var(fric_pipeline::limits::PROCESS_BYTES.env, "10000000");
    let ws = workspace(&[("thesis/fig9.8.yaml", SWEEP), ("thesis/fig9.9.yaml", SMALL)]);
    let mut o = fric_pipeline::Options::new(ws.path());
    o.jobs = Some(1);
    let s = fric_pipeline::run(&o);
    std::env::remove_var(fric_pipeline::limits::PROCESS_BYTES.env);
    let s = s.expect("one manifest over the limit does not stop the others");
    let e = |id: &str| s.report.experiments.iter().find(|e| e.id == id).unwrap();
    let err = e("thesis/fig9.8").errors.join("\n");
    assert!(err.contains("FRIC_MAX_PROCESS_BYTES_IN_MEMORY"), "{err}");
    assert!(
        err.contains("thesis/fig9.8.yaml"),
        "the error names the manifest's file: {err}"
    );
    assert!(
        e("thesis/fig9.8").checks.iter().all(|c| c.note.is_some()),
        "its checks are not evaluated"
    );
    let small = e("thesis/fig9.9");
    assert!(small.errors.is_empty(), "{:?}", small.errors);
    assert!(small.metrics["area"].is_some_and(|a| a > 0.0), "{:?}", small.metrics);
}
