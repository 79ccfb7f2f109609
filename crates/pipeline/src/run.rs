//! A pipeline run, phase by phase: select the manifests, find the current ones, compute the
//! runs the others need ([`crate::compute_all`]), evaluate and draw them
//! ([`crate::evaluate_all`]), assemble the report ([`crate::assemble`]) and write it
//! ([`crate::outputs`]).

use crate::entries::Runs;
use crate::entry::Entry;
use crate::options::{Options, Progress};
use crate::run_source::{footprint, Lazy};
use crate::selection::{select, selector};
use crate::sensitivity::{self, Planned, StepMemo};
use crate::summary::Summary;
use crate::{
    assemble, batches, compute_all, coverage, evaluate_all, limits, load, memory, metrics, outputs, stamp, store,
};
use fric_report::{ExperimentReport, Report};
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

/// The error when nothing is selected.
fn nothing_selected(opts: &Options) -> String {
    if opts.only.is_empty() {
        format!("no manifests under {}", opts.root.join("experiments").display())
    } else {
        format!(
            "no manifest id matches --only {}; ids are <doc>/<name>, e.g. 'thesis/fig1.11' \
             (`cargo xtask list --status reproduced` lists them)",
            opts.only.join(" --only ")
        )
    }
}

/// Remove the temporary files older than [`store::IN_FLIGHT`]: leftovers of an interrupted run,
/// never a concurrent process's write in flight.
fn remove_stale_temps(root: &Path) -> usize {
    ["data", "figures"]
        .iter()
        .map(|d| store::remove_stale_temps(&root.join(d)))
        .sum()
}

/// The evaluation key of every manifest of `built`, and its report from its stamp when that is
/// current and its outputs are intact (unless `force`): such a manifest is not evaluated again,
/// and its runs are not read.
fn current(opts: &Options, pool: &rayon::ThreadPool, built: &[&Entry]) -> (Vec<String>, Vec<Option<ExperimentReport>>) {
    let scope = stamp::cache_scope(opts);
    let keys: Vec<String> = pool.install(|| built.par_iter().map(|e| stamp::eval_key(e, scope.as_deref())).collect());
    let reused = pool.install(|| {
        built
            .par_iter()
            .zip(&keys)
            .map(|(e, k)| {
                if opts.force {
                    None
                } else {
                    stamp::reusable(&opts.root, e, k, opts.verify, true)
                }
            })
            .collect()
    });
    (keys, reused)
}

/// Why `e` cannot be built within the per-process limit, at its file and the line of its
/// largest run: that run (or one of its `readings`') alone, read with its transient copies and
/// its `post` copy, does not fit. None when it fits.
fn over_limit(root: &Path, e: &Entry, readings: &[Planned]) -> Option<String> {
    let alt = readings
        .iter()
        .filter_map(|(_, v)| v.as_ref())
        .flat_map(|v| v.runs.iter());
    let (id, largest) = e
        .runs
        .iter()
        .chain(alt)
        .map(|(id, r)| (id.as_str(), crate::memory::read_alone(r)))
        .fold(("", 0.0), |a, b| if b.1 > a.1 { b } else { a });
    limits::process_memory_problem(largest, &e.manifest.id).map(|msg| {
        let base = fric_manifest::member::base_of(id);
        let line = crate::readfile::read_to_string(&root.join(&e.file), crate::readfile::MANIFEST)
            .ok()
            .and_then(|text| {
                let i = e.manifest.runs.iter().position(|r| r.id == base)?;
                Some(
                    fric_manifest::Locator::new(&text)
                        .find(&["runs".into(), i.into(), "id".into()])
                        .0,
                )
            });
        match line {
            Some(line) => format!("{}:{line}: run {id}: {msg}", e.file),
            None => format!("{}: run {id}: {msg}", e.file),
        }
    })
}

/// How a batch of manifests is held: `None` when its runs fit the per-process limit `max`
/// together with `threads` at once and each manifest's the per-manifest limit; else its runs
/// (within the smaller of the two limits when a manifest is over its own) are released once computed and read again
/// when needed ([`Lazy`]), with the threads that fit the limit and the bytes the memo of runs
/// read again may keep. Each run alone fits ([`over_limit`] took out the manifests where not).
fn streamed(part: &[&Entry], readings: &[Vec<Planned>], max: f64, threads: usize) -> Option<(usize, f64)> {
    let (held, runs) = batches::held(part, readings);
    // A manifest over the per-manifest limit held together is streamed within that limit
    // (loading refused those that cannot stream within it: `load/runs.rs`).
    let over = part
        .iter()
        .any(|e| limits::over_manifest_limit(memory::estimate(&e.manifest, &e.runs, &e.sweeps)));
    let max = if over {
        max.min(limits::MANIFEST_BYTES.value() as f64)
    } else {
        max
    };
    if held.bytes(threads) <= max && !over {
        return None;
    }
    // The largest run alone, read with its transient copies and its `post` copy.
    let one = footprint(runs.iter().copied());
    // The columns a manifest's figure draws, held beside the run it reads and the memo: the
    // memo gets the limit less both per thread, as loading admitted the manifest on their sum.
    let drawn = drawn_bytes(part);
    let threads = threads_drawn(max, one, drawn, threads);
    let max = max - threads as f64 * drawn;
    let mut fit = ((max / one.max(1.0)).floor() as usize).clamp(1, threads);
    // One thread fewer while that leaves the memo room for one run read back with its `post`
    // columns: with none, every use of a run read it from the cache again (review M4).
    let kept = runs
        .iter()
        .map(|r| memory::data_bytes(r) + memory::derived_bytes(r))
        .fold(0.0, f64::max);
    while fit > 1 && Lazy::capacity_for(runs.iter().copied(), max, fit) < kept {
        fit -= 1;
    }
    Some((fit, Lazy::capacity_for(runs, max, fit)))
}

/// The most a manifest of `part`, or a companion figure of one (built alone, before the
/// manifest's own figure, to choose its units), holds beyond one run read alone while streamed:
/// its [`memory::streamed`] estimate less its largest run read alone ([`footprint`]), at least 0.
fn drawn_bytes(part: &[&Entry]) -> f64 {
    part.iter()
        .flat_map(|e| std::iter::once(*e).chain(&e.companions))
        .map(|e| (memory::streamed(&e.manifest, &e.runs, &e.sweeps) - footprint(e.runs.values())).max(0.0))
        .fold(0.0, f64::max)
}

/// The evaluations at once (at most `threads`, at least one) that fit `max` when each holds
/// a run read alone (`one` bytes) and the columns its figure draws (`drawn` bytes).
fn threads_drawn(max: f64, one: f64, drawn: f64, threads: usize) -> usize {
    ((max / (one + drawn).max(1.0)).floor() as usize).clamp(1, threads.max(1))
}

/// Run the pipeline.
pub fn run(opts: &Options) -> Result<Summary, String> {
    let start = Instant::now();
    let root = &opts.root;
    let sel = selector(&opts.only)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    // `git status` (for the provenance) runs beside the pipeline.
    let provenance = {
        let root = root.clone();
        std::thread::spawn(move || metrics::provenance(&root))
    };
    // Only the selected manifests are validated (their runs resolved, their inputs read).
    let mut loaded = load::load_selected(root, sel.as_ref());
    // Run parameters set to another manifest's fitted value: its fit evaluated first.
    crate::fitted_params::resolve(root, &opts.run_cache(), &mut loaded);
    let chosen = select(&loaded, sel.as_ref());
    if chosen.selected.is_empty() && chosen.invalid.is_empty() {
        return Err(nothing_selected(opts));
    }
    let temps = remove_stale_temps(root);
    let (keys, reused) = current(opts, &pool, &chosen.built);
    let todo: Vec<(&Entry, &String)> = chosen
        .built
        .iter()
        .zip(&keys)
        .zip(&reused)
        .filter(|(_, r)| r.is_none())
        .map(|((e, k), _)| (*e, k))
        .collect();
    // The alternative readings of the manifests' assumptions: their runs are computed with the
    // others, and every check is evaluated under each.
    let readings: Vec<Vec<Planned>> = todo.iter().map(|(e, _)| sensitivity::readings(e)).collect();
    let mut summary = Summary {
        manifests: loaded.entries.len() + loaded.invalid.len(),
        selected: chosen.selected.len() + chosen.invalid.len(),
        temps_removed: temps,
        left_out: loaded.left_out.clone(),
        record_warning: loaded.record_warning.clone(),
        ..Default::default()
    };
    let steps = StepMemo::default();
    let entries: Vec<&Entry> = todo.iter().map(|(e, _)| *e).collect();
    {
        let (unique, own_keys) = compute_all::unique_runs(&entries, &readings);
        opts.tell(Progress::Start {
            total: unique.len() + todo.len(),
        });
        // The runs of the current manifests count as cached.
        summary.runs_total = chosen.run_keys.len();
        summary.runs_cached = chosen.run_keys.len() - own_keys.len();
    }
    let cache = opts.run_cache();
    let batches = batches::batches(
        &entries,
        &readings,
        limits::PROCESS_BYTES.value() as f64,
        pool.current_num_threads(),
    );
    summary.batches = batches.len();
    let max = limits::PROCESS_BYTES.value() as f64;
    let threads = pool.current_num_threads();
    let mut readings: Vec<Option<Vec<Planned>>> = readings.into_iter().map(Some).collect();
    // Each batch with its manifests, their readings and how it is held, all checked against the
    // per-process limit before any work starts: a manifest whose largest run alone does not fit
    // is not built (its error, with its file), and the others are.
    let mut parts = Vec::with_capacity(batches.len());
    let mut fresh = Vec::with_capacity(todo.len());
    for batch in &batches {
        let mut part: Vec<(&Entry, &String)> = Vec::with_capacity(batch.len());
        let mut part_readings: Vec<Vec<Planned>> = Vec::with_capacity(batch.len());
        for &i in batch {
            let r = readings[i].take().unwrap_or_default();
            match over_limit(root, todo[i].0, &r) {
                Some(err) => {
                    let b = evaluate_all::failed_build(todo[i].0, err, "its largest run is over the memory limit");
                    fresh.push((b, Default::default()));
                }
                None => {
                    part.push(todo[i]);
                    part_readings.push(r);
                }
            }
        }
        if part.is_empty() {
            continue;
        }
        let part_entries: Vec<&Entry> = part.iter().map(|(e, _)| *e).collect();
        let how = streamed(&part_entries, &part_readings, max, threads);
        parts.push((part, part_readings, how));
    }
    for (part, part_readings, how) in &parts {
        let part_entries: Vec<&Entry> = part.iter().map(|(e, _)| *e).collect();
        // A batch over the limit (a sweep larger than it): as many threads as the limit
        // holds runs at once, each run released once computed and read again when needed.
        let small_pool = match how {
            Some((fit, _)) if *fit < threads => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(*fit)
                    .build()
                    .map_err(|e| e.to_string())?,
            ),
            _ => None,
        };
        let pool = small_pool.as_ref().unwrap_or(&pool);
        let lazy = how.map(|(_, capacity)| Lazy::new(&cache, capacity));
        let release = lazy.is_some();
        let computed =
            compute_all::compute_all(opts, pool, &part_entries, part_readings, &steps, &mut summary, release)?;
        if release {
            summary.runs_released += compute_all::unique_runs(&part_entries, part_readings).0.len()
                - computed.data.len()
                - computed.failed.len();
        }
        let runs = Runs {
            data: &computed.data,
            failed: &computed.failed,
            cache: &cache,
            steps: &steps,
            lazy: lazy.as_ref(),
        };
        let at = fresh.len();
        fresh.extend(evaluate_all::evaluate_all(opts, pool, part, part_readings, &runs));
        if let Some(lazy) = &lazy {
            summary.runs_read_back += lazy.reads();
            let (unique, _) = compute_all::unique_runs(&part_entries, part_readings);
            let (checked, failed) = compute_all::check_unread(lazy, &computed, &unique, &mut summary);
            summary.runs_checked_unread += checked;
            evaluate_all::fail_unread(root, part, &failed, &mut fresh[at..]);
        }
        // The batch's runs are released here, before the next batch is computed.
    }
    opts.tell(Progress::Finish);
    let experiments = assemble::assemble(root, sel.is_some(), &loaded, &chosen, reused, fresh, &mut summary)?;
    let coverage = coverage::coverage_as_reported(&loaded, &experiments);
    summary.report = Report {
        discrepancies: fric_report::discrepancies_by_document(
            loaded.documents.iter().map(|d| d.id.as_str()),
            &experiments,
        ),
        checks: fric_report::checks_by_document(loaded.documents.iter().map(|d| d.id.as_str()), &experiments),
        assumptions: coverage::assumptions(&loaded),
        experiments,
        coverage,
        provenance: provenance.join().ok(),
    };
    summary.invalid = chosen.invalid.iter().map(|i| (*i).clone()).collect();
    if let Some(e) = outputs::write(root, &loaded, &summary.report)? {
        cache.note_record_failure(e);
    }
    // What a later `--only` run stands for the manifests it does not read (in data/cache, not
    // an output): a record that cannot be written costs the next `--only` run reads, no result.
    if let Err(e) = load::unread::write(root, &loaded.records) {
        cache.note_record_failure(e);
    }
    summary.note_unwritable(&cache);
    summary.stale_removed = cache.bound_stale_at_most_hourly().unwrap_or_default();
    summary.elapsed = start.elapsed();
    Ok(summary)
}
