//! What a pipeline run did: counts, failures, timings and the report ([`Summary`]).

use crate::entry::InvalidManifest;
use fric_report::{ExperimentReport, Outcome, Report};
use std::collections::BTreeMap;
use std::time::Duration;

/// What a pipeline run did.
#[derive(Debug, Default)]
pub struct Summary {
    pub manifests: usize,
    pub selected: usize,
    pub invalid: Vec<InvalidManifest>,
    /// The distinct runs of the selected, computed manifests (and of their companion figures):
    /// the same number whether they were computed, read from the cache or not read at all (a
    /// current manifest's), and what `plan` counts. `runs_computed + runs_cached +
    /// runs_failed.len()` is this number; the runs only alternative readings use are counted
    /// apart ([`Summary::reading_runs_computed`]).
    pub runs_total: usize,
    pub runs_computed: usize,
    /// Runs read from the cache, and the runs of current manifests (not read).
    pub runs_cached: usize,
    /// Runs that only alternative readings use (not among [`Summary::runs_total`]) computed this
    /// time: they depend on which manifests were evaluated, so they are not in the total.
    pub reading_runs_computed: usize,
    /// Runs that only alternative readings use read from the cache this time.
    pub reading_runs_cached: usize,
    /// Cache entries that failed verification and were recomputed.
    pub runs_recovered: Vec<(String, String)>,
    /// Runs whose computation failed: `(key, error)`.
    pub runs_failed: Vec<(String, String)>,
    /// Runs of alternative readings only (`assumptions[].alternatives`) that failed: the
    /// readings are reported as not evaluated; they do not fail the run.
    pub readings_failed: Vec<(String, String)>,
    pub figures_drawn: usize,
    pub figures_current: usize,
    pub tables: usize,
    /// Temporary files of an interrupted earlier run that were removed.
    pub temps_removed: usize,
    /// The batches the manifests to evaluate were computed and evaluated in, one after the
    /// other, to keep the runs held at once within `limits::PROCESS_BYTES` (1 unless over it).
    pub batches: usize,
    /// The runs of batches over the per-process limit released once computed (stored in the
    /// cache) and read again by the evaluation when needed: their data were never all held.
    pub runs_released: usize,
    /// The times a released run was read back from the cache for its evaluation or drawing.
    pub runs_read_back: usize,
    /// Released runs found in the cache that nothing read back, read once after their batch's
    /// evaluation to be checked as a held cached run is (code review L11).
    pub runs_checked_unread: usize,
    /// The report of every manifest; with `--only`, the others as the last report had them.
    pub report: Report,
    /// The manifests this run selected: what the counts and the exit status are about.
    pub selected_ids: std::collections::BTreeSet<String>,
    /// Whether `--only` restricted the selection.
    pub only: bool,
    /// The manifest files an `--only` run neither read nor had a current record of (changed
    /// or new since the last run that read them): left out of the report, its site and coverage.
    pub left_out: Vec<String>,
    /// Why the `--only` record of an earlier run was ignored and rebuilt (corrupt, tampered).
    pub record_warning: Option<String>,
    pub elapsed: Duration,
    /// Time spent computing each run this time (`run key → (system, wall and CPU seconds)`): the
    /// runs of the manifests and of their alternative readings, in parallel, so their wall
    /// seconds add up to more than the elapsed time.
    pub run_seconds: BTreeMap<String, (String, crate::own_time::Spent)>,
    /// Time spent evaluating each manifest that was not current (metrics, checks, the runs its
    /// explanations computed that the chains had not), its drawing and table not included.
    pub evaluate_seconds: BTreeMap<String, crate::own_time::Spent>,
    /// Time spent drawing each figure evaluated this time (a table's writing is in its evaluation).
    pub draw_seconds: BTreeMap<String, crate::own_time::Spent>,
    /// Elapsed wall seconds of each manifest's explanation chain computed beside the runs (its
    /// parallel scans included; [`crate::compute_all`]).
    pub explain_seconds: BTreeMap<String, f64>,
    /// The explanation chains computed beside the runs that panicked: `(manifest id, message)`.
    pub chains_panicked: Vec<(String, String)>,
    /// The run cache could not be written: `(cache directory, first error, runs not stored)`.
    /// Their results were still evaluated and drawn.
    pub cache_unwritable: Option<(std::path::PathBuf, String, usize)>,
    /// The manifest records (stamps, the tidy files' hashes, in `data/cache/entries`) that
    /// could not be written: `(first error, how many)`. Those manifests are evaluated again next
    /// time; this run's results are complete.
    pub records_unwritable: Option<(String, usize)>,
    /// The cached runs of other builds removed to keep them within
    /// [`crate::limits::STALE_CACHE_BYTES`] ([`crate::store::RunCache::bound_stale`]).
    pub stale_removed: crate::store::Pruned,
}

impl Summary {
    /// Add the failed writes `cache` recorded ([`crate::store::RunCache::write_failure`]).
    pub(crate) fn note_unwritable(&mut self, cache: &crate::store::RunCache) {
        if let Some((e, n)) = cache.record_failure() {
            match &mut self.records_unwritable {
                Some(u) => u.1 += n,
                None => self.records_unwritable = Some((e, n)),
            }
        }
        let Some((e, n)) = cache.write_failure() else { return };
        match &mut self.cache_unwritable {
            Some(u) => u.2 += n,
            None => self.cache_unwritable = Some((cache.dir().to_path_buf(), e, n)),
        }
    }
}

impl Summary {
    /// The reports of the manifests selected in this run.
    pub fn selected_reports(&self) -> impl Iterator<Item = &ExperimentReport> {
        self.report
            .experiments
            .iter()
            .filter(|e| self.selected_ids.contains(&e.id))
    }
    /// The report restricted to the manifests selected in this run.
    pub fn selected_report(&self) -> Report {
        let experiments: Vec<ExperimentReport> = self.selected_reports().cloned().collect();
        Report {
            discrepancies: fric_report::discrepancies_by_document(
                self.report.discrepancies.keys().map(String::as_str),
                &experiments,
            ),
            checks: fric_report::checks_by_document(self.report.checks.keys().map(String::as_str), &experiments),
            assumptions: self.report.assumptions.clone(),
            experiments,
            coverage: self.report.coverage.clone(),
            provenance: self.report.provenance.clone(),
        }
    }
    /// Known discrepancies of the selected manifests by kind (every kind, zeros included).
    pub fn count_by_kind(&self) -> BTreeMap<fric_report::DiscrepancyKind, usize> {
        fric_report::count_by_kind(self.selected_reports().flat_map(|e| &e.checks))
    }
    /// Checks of the selected manifests with outcome `o` (a check that could not be evaluated,
    /// because a run failed, is an [`Outcome::Error`]).
    pub fn count(&self, o: Outcome) -> usize {
        self.selected_reports()
            .flat_map(|e| &e.checks)
            .filter(|c| c.outcome == o)
            .count()
    }
    pub fn experiment_errors(&self) -> usize {
        self.selected_reports().filter(|e| !e.errors.is_empty()).count()
    }
    /// True when nothing selected failed: every manifest valid, every run and check good.
    pub fn ok(&self) -> bool {
        self.invalid.is_empty()
            && self.runs_failed.is_empty()
            && self.experiment_errors() == 0
            && self
                .selected_reports()
                .flat_map(|e| &e.checks)
                .all(|c| !c.outcome.is_failure())
    }
}
