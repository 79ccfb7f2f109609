//! The evaluation phase of a pipeline run: every manifest that is not current evaluated and
//! drawn ([`entries::build_entry`]), the costliest first, and stamped when complete.

use crate::entries::{self, Built, Runs};
use crate::entry::Entry;
use crate::entry_report::{registry_report, unevaluated};
use crate::isolate::isolated;
use crate::options::{Options, Progress};
use crate::schedule::costliest_first;
use crate::sensitivity::Planned;
use crate::{filestat, own_time, stamp};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The size of the data of `e`'s runs (the number of values): what its evaluation scales with.
fn weight(e: &Entry, runs: &Runs) -> f64 {
    let keys: BTreeSet<&str> = e.runs.values().map(|r| r.key.as_str()).collect();
    keys.iter()
        .filter_map(|k| runs.data.get(*k))
        .map(|d| d.columns.iter().map(|c| c.1.len()).sum::<usize>())
        .sum::<usize>() as f64
}

/// The report of `e` not evaluated for `err`: its checks each an error saying `why`.
pub(crate) fn failed_build(e: &Entry, err: String, why: &str) -> Built {
    let mut report = registry_report(e);
    report.errors.push(err);
    report.checks = unevaluated(&e.manifest, why);
    Built {
        report,
        drawn: false,
        table: false,
        outputs: BTreeMap::new(),
        render_key: None,
        draw: Default::default(),
    }
}

/// Evaluate and draw `e` (evaluation key `key`) under its `readings`; a panic is its error. A
/// complete evaluation is stamped.
fn evaluate_one(opts: &Options, e: &Entry, key: &str, readings: &[Planned], runs: &Runs) -> Built {
    let root = &opts.root;
    // With --verify the recorded stats are dropped: every output is hashed.
    let prev = stamp::read(root, &e.manifest.id).map(|mut p| {
        if opts.verify {
            p.stats.clear();
        }
        p
    });
    let b = isolated("evaluating the manifest", || {
        Ok(entries::build_entry(root, e, runs, readings, prev.as_ref(), opts.force))
    });
    let mut b = b.unwrap_or_else(|err| failed_build(e, err, "evaluating the manifest failed"));
    // Bounded like diagnostics: an error never echoes megabytes of the manifest.
    b.report.errors = std::mem::take(&mut b.report.errors)
        .into_iter()
        .map(crate::limits::bounded_error)
        .collect();
    // Only a complete evaluation is stamped: errors are retried next time.
    if b.report.errors.is_empty() {
        let s = stamp::Stamp {
            key: key.to_string(),
            render_key: b.render_key.clone(),
            report: b.report.clone(),
            outputs: b.outputs.clone(),
            stats: filestat::stats_of(root, b.outputs.keys()),
            sha256: None,
        };
        // A stamp that cannot be written (data/cache full or read-only) costs only an
        // evaluation next time: one warning for the run, not an error per manifest.
        if let Err(err) = stamp::write(root, &e.manifest.id, &s) {
            runs.cache.note_record_failure(err);
        }
    }
    opts.tell(Progress::Step {
        what: e.manifest.id.clone(),
    });
    b
}

/// Evaluate every manifest of `todo` (with its evaluation key) under its `readings` in `pool`:
/// each with the time it took itself (its drawing, timed apart in [`Built::draw`], not included).
pub(crate) fn evaluate_all(
    opts: &Options,
    pool: &rayon::ThreadPool,
    todo: &[(&Entry, &String)],
    readings: &[Vec<Planned>],
    runs: &Runs,
) -> Vec<(Built, own_time::Spent)> {
    // The evaluations costliest first (by the values of their runs' data: series CSVs, drawing
    // and metrics scale with them), handed out as threads come free, as the runs are. In file
    // order rayon gave each thread half the list, and thesis Fig 3.3's (two series of 2·10^6
    // points) was drawn alone at the end while the other thread idled (~4 s of one thread).
    let jobs: Vec<_> = todo.iter().zip(readings).collect();
    pool.install(|| {
        costliest_first(
            &jobs,
            |((e, _), _)| weight(e, runs),
            |((e, key), readings)| own_time::own_spent(|| evaluate_one(opts, e, key, readings, runs)),
        )
    })
}

/// The manifests of a streamed batch (`todo`, evaluated as `built` in the same order) whose
/// own runs failed their check once evaluated (`failed`, errors by run key:
/// [`crate::compute_all::check_unread`]) get the report they get when the run fails held
/// ([`crate::run_source::view`]): the run's failure in their error list, their checks not
/// evaluated. Their stamps are removed (they were written when the evaluation had no errors),
/// so the next pipeline run evaluates them again. Before, such a failure was in the run counts
/// and the exit code but not in the manifest's own error list. What they drew stays recorded.
pub(crate) fn fail_unread(
    root: &std::path::Path,
    todo: &[(&Entry, &String)],
    failed: &HashMap<String, String>,
    built: &mut [(Built, own_time::Spent)],
) {
    if failed.is_empty() {
        return;
    }
    for ((e, _), (b, _)) in todo.iter().zip(built.iter_mut()) {
        let errors: Vec<String> = e
            .runs
            .iter()
            .filter_map(|(id, r)| failed.get(&r.key).map(|err| format!("run `{id}` failed: {err}")))
            .map(crate::limits::bounded_error)
            .collect();
        if errors.is_empty() {
            continue;
        }
        let drawn = std::mem::replace(b, failed_build(e, String::new(), "a run of this manifest failed"));
        b.report.errors = errors;
        // The figure (or table) was drawn from the runs its evaluation read, and its files
        // written: they stay in its report and count as drawn, not left on disk unrecorded
        // (code review L7). Unstamped, the manifest is evaluated again next time.
        b.report.outputs = drawn.report.outputs;
        (b.outputs, b.drawn, b.table, b.draw) = (drawn.outputs, drawn.drawn, drawn.table, drawn.draw);
        crate::evaluate::locate_checks(root, &e.file, &mut b.report.checks);
        stamp::remove(root, &e.manifest.id);
    }
}
