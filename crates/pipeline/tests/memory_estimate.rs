//! The estimated memory of a manifest's runs ([`fric_pipeline::limits::MANIFEST_BYTES`]) against
//! the heap the pipeline really holds at its peak, counted by a global allocator: one Dahl run of
//! 10^6 samples (4 columns, 32 MB of data) whose `post` steps add two columns to a copy of it.

mod common;

use common::counting::{run_one_thread, Counting};
use common::workspace;

#[global_allocator]
static COUNTING: Counting = Counting;

/// Held by each test: the first sets the limit's environment variable, which the process shares.
static ENV: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// One Dahl run of 100 periods × 10^4 samples with two `post` columns; the figure and the
/// metric read the last period only, so drawing adds little.
const BIG: &str = r#"id: thesis/fig9.1
kind: figure
source: {document: thesis, number: "9.1", caption: "test figure", lines: [1]}
content: simulation
status: reproduced
runs:
  - id: dahl
    system: dahl
    params: {sigma: 7.5, fc: 1.5, gamma: 1}
    input: {kind: sine, amplitude: 5, omega: 2}
    sim: {periods: 100, samples_per_period: 10000}
    post: [{name: Fa, op: abs, of: F}, {name: W, op: cumulative-integral, of: F, by: u}]
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: {periods: [99, 100]}}
metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [99, 100]}}
checks:
  - {metric: area, op: gt, expected: 0, provenance: {derived: "a loop"}}
"#;

/// Run the pipeline on a fresh workspace (`cached`: a second time, the run read from the cache)
/// under a manifest memory limit of `limit` bytes: whether the manifest was refused, and the
/// peak heap above what was live before.
fn peak_under(limit: usize, cached: bool) -> (bool, usize) {
    std::env::set_var(fric_pipeline::limits::MANIFEST_BYTES.env, limit.to_string());
    let ws = workspace(&[("thesis/fig9.1.yaml", BIG)]);
    if cached {
        std::env::set_var(fric_pipeline::limits::MANIFEST_BYTES.env, (1usize << 40).to_string());
        run_one_thread(ws.path(), false).0.unwrap();
        std::fs::remove_dir_all(ws.path().join("data/cache/entries")).unwrap();
        std::env::set_var(fric_pipeline::limits::MANIFEST_BYTES.env, limit.to_string());
    }
    let (s, peak) = run_one_thread(ws.path(), false);
    (!s.unwrap().invalid.is_empty(), peak)
}

/// The estimate is an upper bound of the heap held at the peak, computing the run or reading it
/// from the cache, and not more than twice it: a limit at the measured peak refuses the
/// manifest, one at twice the peak lets it run. Before, the estimate counted the run's data
/// once (32 MB) while the peak held about three times that, so a limit the peak exceeded let
/// the manifest through.
#[test]
fn the_memory_estimate_bounds_the_peak_heap_within_a_factor_two() {
    let _env = ENV.lock().unwrap_or_else(|p| p.into_inner());
    for cached in [false, true] {
        let (refused, peak) = peak_under(1 << 40, cached);
        assert!(!refused);
        eprintln!("cached: {cached}: peak heap {:.1} MB", peak as f64 / 1e6);
        assert!(peak > 32_000_000, "the run's data alone is 32 MB: {peak}");
        let (refused, _) = peak_under(peak, cached);
        assert!(
            refused,
            "a limit of the measured peak ({peak} B) let the manifest run (cached: {cached})"
        );
        let (refused, _) = peak_under(2 * peak, cached);
        assert!(
            !refused,
            "a limit of twice the peak ({} B) refused the manifest (cached: {cached})",
            2 * peak
        );
    }
    std::env::remove_var(fric_pipeline::limits::MANIFEST_BYTES.env);
}

/// Every manifest of the project is well inside the per-manifest limit by the estimate, and the
/// whole project within the per-process one, one batch (README's "Limits" gives the numbers).
#[test]
fn the_project_is_inside_the_memory_limits() {
    let _env = ENV.lock().unwrap_or_else(|p| p.into_inner());
    let loaded = fric_pipeline::load::load(&common::repo());
    assert!(loaded.invalid.is_empty(), "{:?}", loaded.invalid.first());
    let each: Vec<(f64, &str)> = loaded
        .entries
        .iter()
        .map(|e| {
            (
                fric_pipeline::memory::estimate(&e.manifest, &e.runs, &e.sweeps),
                e.manifest.id.as_str(),
            )
        })
        .collect();
    let largest = each
        .iter()
        .copied()
        .fold((0.0, ""), |a, b| if b.0 > a.0 { b } else { a });
    let total: f64 = each.iter().map(|x| x.0).sum();
    eprintln!(
        "largest: {} {:.3} GB; all manifests: {:.3} GB",
        largest.1,
        largest.0 / 1e9,
        total / 1e9
    );
    // Held together by a process evaluating 4 manifests at once: one batch.
    let mut held = fric_pipeline::memory::Held::default();
    for e in &loaded.entries {
        held.add_manifest(
            e.runs.values(),
            fric_pipeline::memory::figure_bytes(&e.manifest, &e.runs, &e.sweeps),
        );
    }
    // One batch at the default `--jobs` (the cores) of machines up to 16 cores with a margin of
    // 10 %, and at 32 threads: the 2 GiB default was under the estimate from 5 threads, the
    // 3 GiB one from 8 once the estimate counted figures (s52).
    let default = fric_pipeline::limits::PROCESS_BYTES.default as f64;
    for k in [1, 2, 4, 8, 16, 32] {
        eprintln!("the project held at once, {k} threads: {:.3} GB", held.bytes(k) / 1e9);
    }
    for k in [1, 2, 4, 8, 16, 32] {
        let margin = if k <= 16 { 0.9 } else { 1.0 };
        assert!(held.bytes(k) < margin * default, "{k} threads");
    }
    // A batch over the limit is computed, evaluated and released run by run: what the project
    // needs at least is its largest run read alone, on each of the 4 threads.
    let one = loaded
        .entries
        .iter()
        .flat_map(|e| e.runs.values())
        .map(|r| {
            (1.0 + fric_pipeline::memory::TRANSIENT_COPIES) * fric_pipeline::memory::data_bytes(r)
                + fric_pipeline::memory::derived_bytes(r)
        })
        .fold(0.0, f64::max);
    eprintln!(
        "the least per-process limit the project runs within, 4 threads: {:.3} GB (its largest run read alone {:.3} GB)",
        4.0 * one / 1e9,
        one / 1e9
    );
    assert!(4.0 * one < held.bytes(4));
    // Well inside the per-manifest limit: the largest (stribeck-paper/fig4) is 0.61 GB of the
    // 1.07 GB since the estimate counts its figure (0.50 GB before, when this margin was half).
    assert!(largest.0 < fric_pipeline::limits::MANIFEST_BYTES.default as f64 * 0.6);
}
