//! The reproduction pipeline: load every manifest, compute the runs they need (in parallel,
//! through a content-addressed cache), evaluate metrics and checks, render figures and tables,
//! and write `figures/report.json` and the HTML reproduction report (`figures/index.html`).
//!
//! The pipeline is ignorant of physics: runs are opaque requests executed by
//! `fric-experiments`, results are named columns. It owns every file the project writes
//! (`figures/`, `data/cache/`), always atomically.

// Validation negates comparisons on purpose so that NaN is rejected too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod evaluate;
pub mod export;
mod filestat;
mod frames;
mod hash;
pub mod load;
pub mod metrics;
pub mod plan;
mod render;
pub mod sensitivity;
pub mod shard;
pub mod site;
mod stamp;
pub mod status;
pub mod store;
pub mod tables;
pub mod timings;

use fric_experiments::RunData;
use fric_manifest::{Kind, Status};
use fric_report::{ExperimentReport, Outcome, Report};
use load::{Entry, Loaded};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::{write_if_changed, Lookup, RunCache};

pub use load::{load, InvalidManifest};

/// Fingerprint of the code that computes runs (models, solvers, experiments).
pub const RUNS_FINGERPRINT: &str = env!("FRIC_RUNS_FINGERPRINT");
/// Fingerprint of the code that draws and exports (plot, report, pipeline).
pub const RENDER_FINGERPRINT: &str = env!("FRIC_RENDER_FINGERPRINT");

/// Progress events for a front end.
#[derive(Clone, Debug)]
pub enum Progress {
    /// `total` units of work are about to start.
    Start {
        total: usize,
    },
    /// One unit done.
    Step {
        what: String,
    },
    Finish,
}

/// A progress callback.
pub type ProgressFn = dyn Fn(Progress) + Send + Sync;

pub struct Options {
    /// The workspace root (holds `experiments/`, `figures/`, `data/`).
    pub root: PathBuf,
    /// Glob patterns on manifest ids (`thesis/fig1.*`); empty selects all.
    pub only: Vec<String>,
    /// Recompute every run and redraw every figure.
    pub force: bool,
    /// Hash every output instead of trusting the stats recorded when it was written (a damaged
    /// output with a forged modification time and size is found and redrawn).
    pub verify: bool,
    /// Worker threads (default: all cores). With more than one, one more thread runs the
    /// explanations' root-finding chains beside them.
    pub jobs: Option<usize>,
    pub progress: Option<Box<ProgressFn>>,
    /// The run cache directory (default `data/cache/runs` under `root`); one directory may be
    /// shared by several workspaces and machines (entries are written by atomic rename).
    pub cache_dir: Option<PathBuf>,
}

impl Options {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root: root.into(),
            only: Vec::new(),
            force: false,
            verify: false,
            jobs: None,
            progress: None,
            cache_dir: None,
        }
    }
    /// The run cache this run reads and writes.
    pub fn run_cache(&self) -> RunCache {
        RunCache::new(
            self.cache_dir
                .clone()
                .unwrap_or_else(|| self.root.join("data/cache/runs")),
        )
    }
}

/// What a pipeline run did.
#[derive(Debug, Default)]
pub struct Summary {
    pub manifests: usize,
    pub selected: usize,
    pub invalid: Vec<InvalidManifest>,
    pub runs_total: usize,
    pub runs_computed: usize,
    pub runs_cached: usize,
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
    /// The report of every manifest; with `--only`, the others as the last report had them.
    pub report: Report,
    /// The manifests this run selected: what the counts and the exit status are about.
    pub selected_ids: std::collections::BTreeSet<String>,
    /// Whether `--only` restricted the selection.
    pub only: bool,
    pub elapsed: Duration,
    /// Seconds spent computing each run this time (`run key → (system, seconds)`): the runs of
    /// the manifests and of their alternative readings, in parallel, so they add up to CPU time.
    pub run_seconds: BTreeMap<String, (String, f64)>,
    /// Seconds spent evaluating each manifest that was not current (metrics, checks, the runs its
    /// explanations computed, drawing, tables).
    pub evaluate_seconds: BTreeMap<String, f64>,
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

pub(crate) fn selector(only: &[String]) -> Result<Option<globset::GlobSet>, String> {
    if only.is_empty() {
        return Ok(None);
    }
    let mut b = globset::GlobSetBuilder::new();
    for p in only {
        b.add(globset::Glob::new(p).map_err(|e| format!("bad pattern `{p}`: {e}"))?);
    }
    b.build().map(Some).map_err(|e| e.to_string())
}

/// Count manifests by document and status.
pub fn coverage(loaded: &Loaded) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut out: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for d in &loaded.documents {
        let m = out.entry(d.id.clone()).or_default();
        for s in Status::ALL {
            m.insert(s.as_str().to_string(), 0);
        }
    }
    for e in &loaded.entries {
        let doc = e.manifest.id.split('/').next().unwrap_or("").to_string();
        *out.entry(doc)
            .or_default()
            .entry(e.manifest.status.as_str().to_string())
            .or_default() += 1;
    }
    for i in &loaded.invalid {
        let doc = i
            .file
            .trim_start_matches("experiments/")
            .split('/')
            .next()
            .unwrap_or("")
            .to_string();
        *out.entry(doc).or_default().entry("invalid".into()).or_default() += 1;
    }
    out
}

/// The kebab-case name of a manifest enum value.
fn name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// The resolved runs of a manifest, for the report.
fn run_infos(e: &Entry) -> BTreeMap<String, fric_report::RunInfo> {
    let coords: HashMap<&str, &fric_manifest::Coords> =
        e.sweeps.values().flatten().map(|(id, c)| (id.as_str(), c)).collect();
    e.runs
        .iter()
        .map(|(id, r)| {
            let params = r
                .request
                .params
                .iter()
                .map(|(k, v)| {
                    let v = match v.as_slice() {
                        [x] => serde_json::json!(x),
                        xs => serde_json::json!(xs),
                    };
                    (k.clone(), v)
                })
                .collect();
            let info = fric_report::RunInfo {
                system: r.request.system.clone(),
                params,
                input: serde_json::to_value(&r.request.input).unwrap_or_default(),
                sweep: coords
                    .get(id.as_str())
                    .map(|c| c.iter().cloned().collect())
                    .unwrap_or_default(),
            };
            (id.clone(), info)
        })
        .collect()
}

pub(crate) fn registry_report(e: &Entry) -> ExperimentReport {
    let m = &e.manifest;
    ExperimentReport {
        runs: run_infos(e),
        id: m.id.clone(),
        kind: name(&m.kind),
        content: name(&m.content),
        status: m.status.as_str().to_string(),
        reason: m.reason.clone(),
        caption: m.source.caption.clone(),
        ..Default::default()
    }
}

/// Check reports for checks that could not be evaluated (a run failed): each is an error.
fn unevaluated(m: &fric_manifest::Manifest, why: &str) -> Vec<fric_report::CheckReport> {
    let none = BTreeMap::new();
    m.checks
        .iter()
        .map(|c| {
            let mut r = evaluate::check(c, &none);
            r.note = Some(format!("not evaluated: {why}"));
            r
        })
        .collect()
}

/// What evaluating one manifest produced.
struct Built {
    report: ExperimentReport,
    drawn: bool,
    table: bool,
    /// Output files with their sha256, and the render key (figures), for the stamp.
    outputs: BTreeMap<String, String>,
    render_key: Option<String>,
}

/// The runs a manifest's evaluation may use: the computed ones, the failed ones, and the cache
/// (for the runs `explain` needs, which are not known in advance).
struct Runs<'a> {
    data: &'a HashMap<String, Arc<RunData>>,
    failed: &'a HashMap<String, String>,
    cache: &'a RunCache,
    /// The explanations' steps computed beside the runs.
    steps: &'a sensitivity::StepMemo,
}

/// Evaluate and render one built manifest, its checks also under the alternative `readings` of
/// its assumptions and, for known discrepancies that declare them, with the parameter values
/// that would explain them.
fn build_entry(
    root: &Path,
    e: &Entry,
    runs: &Runs,
    readings: &[sensitivity::Planned],
    prev: Option<&stamp::Stamp>,
    force: bool,
) -> Built {
    let (data, failed, cache, steps) = (runs.data, runs.failed, runs.cache, runs.steps);
    let mut b = Built {
        report: registry_report(e),
        drawn: false,
        table: false,
        outputs: BTreeMap::new(),
        render_key: None,
    };
    let m = &e.manifest;
    let mut rendered = None;
    let evaluated = with_run_data(e, data, failed, &mut b.report, |runs, rep| {
        metrics_and_checks(e, runs, rep);
        sensitivity::attach(readings, &mut rep.checks, data, failed);
        let errors = sensitivity::explain_known(cache, steps, e, &mut rep.checks);
        rep.errors.extend(errors);
        evaluate::locate_checks(root, &e.file, &mut rep.checks);
        if m.kind == Kind::Figure && m.status.is_built() {
            rendered = Some(render::render(root, e, runs, &rep.metrics, prev, force));
        }
    });
    let rep = &mut b.report;
    if evaluated.is_none() {
        evaluate::locate_checks(root, &e.file, &mut rep.checks);
        return b;
    }
    match m.kind {
        // Not drawn: a computed manifest that is not built ([`computed`]).
        Kind::Figure => match rendered {
            None => {}
            Some(Ok(r)) => {
                b.drawn = r.drawn;
                rep.outputs = r.outputs.iter().map(|o| o.0.clone()).collect();
                b.outputs = r.outputs.into_iter().collect();
                b.render_key = Some(r.render_key);
            }
            Some(Err(err)) => rep.errors.push(format!("render: {err}")),
        },
        Kind::Table => {
            if let Some(t) = &m.table {
                let tex = tables::build(t, e, rep).and_then(|(columns, rows, notes)| {
                    fric_report::render_table(&fric_report::TableInput {
                        manifest: &m.id,
                        document: &m.source.document,
                        number: &m.source.number,
                        caption: &m.source.caption,
                        lines: &t.lines,
                        columns: &columns,
                        rows: &rows,
                        notes: &notes,
                    })
                });
                let rel = render::out_rel(&m.id, "tex");
                let written = tex.and_then(|s| {
                    let p = store::output_path(root, &rel)?;
                    write_if_changed(&p, s.as_bytes()).map_err(|e| e.to_string())?;
                    Ok(hash::sha256_hex(s.as_bytes()))
                });
                match written {
                    Ok(sha) => {
                        b.table = true;
                        rep.outputs.push(rel.clone());
                        b.outputs.insert(rel, sha);
                    }
                    Err(err) => rep.errors.push(format!("table: {err}")),
                }
            }
        }
    }
    b
}

/// Call `f` with the data of every run of `e` by id (a copy with the derived columns for a run
/// with post-processing), or record why it cannot be: a run failed or its post-processing did
/// (then every check is unevaluated and `None` is returned).
pub(crate) fn with_run_data<R>(
    e: &Entry,
    data: &HashMap<String, Arc<RunData>>,
    failed: &HashMap<String, String>,
    rep: &mut ExperimentReport,
    f: impl FnOnce(&HashMap<String, &RunData>, &mut ExperimentReport) -> R,
) -> Option<R> {
    // Runs with post-processing get their own copy with the derived columns.
    let mut derived: HashMap<String, RunData> = HashMap::new();
    for (id, r) in &e.runs {
        if let (false, Some(d)) = (r.post.is_empty(), data.get(&r.key)) {
            match evaluate::post_process(d, &r.post) {
                Ok(p) => {
                    derived.insert(id.clone(), p);
                }
                Err(err) => rep.errors.push(format!("run `{id}` post-processing: {err}")),
            }
        }
    }
    let mut runs: HashMap<String, &RunData> = HashMap::new();
    for (id, r) in &e.runs {
        match derived.get(id).or_else(|| data.get(&r.key).map(|d| &**d)) {
            Some(d) => {
                runs.insert(id.clone(), d);
            }
            None => rep.errors.push(format!(
                "run `{id}` failed: {}",
                failed.get(&r.key).map(String::as_str).unwrap_or("not computed")
            )),
        }
    }
    if !rep.errors.is_empty() {
        rep.checks = unevaluated(&e.manifest, "a run of this manifest failed");
        return None;
    }
    Some(f(&runs, rep))
}

/// Evaluate the metrics and checks of `e` on the data of its runs into `rep`.
pub(crate) fn metrics_and_checks(e: &Entry, runs: &HashMap<String, &RunData>, rep: &mut ExperimentReport) {
    let m = &e.manifest;
    for mt in &m.metrics {
        match swept_base(e, mt).and_then(|b| e.sweeps.get(&b).map(|ms| (b, ms))) {
            None => {
                let info = metric_info(e, mt);
                if !info.is_empty() {
                    rep.metric_info.insert(mt.name.clone(), info);
                }
                record(rep, &mt.name, evaluate::metric(mt, runs, &rep.metrics));
            }
            // A metric over a swept run: one value per member, `name[k]`, with its coordinates.
            Some((base, members)) => {
                let mut table = fric_report::MetricTable {
                    run: base.clone(),
                    params: e
                        .manifest
                        .runs
                        .iter()
                        .find(|r| r.id == base)
                        .and_then(|r| r.sweep.as_ref())
                        .map(|s| s.params())
                        .unwrap_or_default(),
                    unit: mt.unit.clone().filter(|u| !u.is_empty()),
                    members: Vec::new(),
                };
                for (k, (member, coords)) in members.iter().enumerate() {
                    let spec = member_spec(e, mt, member, k);
                    let name = format!("{}[{k}]", mt.name);
                    let mut info = metric_info(e, &spec);
                    info.sweep = Some(coords_text(coords));
                    rep.metric_info.insert(name.clone(), info);
                    record(rep, &name, evaluate::metric(&spec, runs, &rep.metrics));
                    table.members.push(fric_report::MetricMember {
                        run: member.clone(),
                        coords: coords.iter().cloned().collect(),
                        value: rep.metrics.get(&name).copied().flatten(),
                    });
                }
                rep.metric_tables.insert(mt.name.clone(), table);
            }
        }
    }
    rep.checks = Vec::new();
    for c in &m.checks {
        // A check on a metric table applies to every member: one check row per member.
        match rep.metric_tables.get(&c.metric) {
            Some(t) => {
                for k in 0..t.members.len() {
                    let spec = fric_manifest::CheckSpec {
                        metric: format!("{}[{k}]", c.metric),
                        ..c.clone()
                    };
                    rep.checks.push(evaluate::check(&spec, &rep.metrics));
                }
            }
            None => rep.checks.push(evaluate::check(c, &rep.metrics)),
        }
    }
}

/// Record a metric's value (or its error). A value that is not finite (a maximum over a window
/// of NaNs is −inf, a ratio over zero is inf or NaN) was not computed: it is an error, and every
/// check on it an error, never a pass.
fn record(rep: &mut ExperimentReport, name: &str, v: Result<f64, String>) {
    let v = v.and_then(|v| {
        if v.is_finite() {
            Ok(v)
        } else {
            Err(format!(
                "not computed: the value is {v} (no finite sample in its window, or an operand is 0 or not finite)"
            ))
        }
    });
    match v {
        Ok(v) => {
            rep.metrics.insert(name.to_string(), Some(v));
        }
        Err(err) => {
            rep.metrics.insert(name.to_string(), None);
            rep.errors.push(format!("metric `{name}`: {err}"));
        }
    }
}

/// Sweep coordinates as text: `input.omega=2`, `sigma1=10,input.omega=2`.
fn coords_text(c: &fric_manifest::Coords) -> String {
    let parts: Vec<String> = c.iter().map(|(p, v)| format!("{p}={v}")).collect();
    parts.join(",")
}

/// The swept run a metric is evaluated over, member by member: its own run when that is a
/// swept id, or for a metric of two earlier metrics, the swept run of either.
pub(crate) fn swept_base(e: &Entry, mt: &fric_manifest::MetricSpec) -> Option<String> {
    if let Some(r) = &mt.run {
        return e.sweeps.contains_key(r).then(|| r.clone());
    }
    let of = mt.of.as_ref()?;
    let by_name = |n: &str| e.manifest.metrics.iter().find(|x| x.name == n);
    of.names()
        .into_iter()
        .find_map(|n| by_name(n).filter(|x| x.name != mt.name).and_then(|x| swept_base(e, x)))
}

/// Member `k`'s version of a metric over a swept run: its run (and `other`'s, when that is
/// the same swept run) is the member, and operands that are metric tables read their member.
fn member_spec(e: &Entry, mt: &fric_manifest::MetricSpec, member: &str, k: usize) -> fric_manifest::MetricSpec {
    let mut spec = mt.clone();
    if let Some(r) = &mt.run {
        let base = r.clone();
        spec.run = Some(member.to_string());
        if let Some(o) = spec.other.as_mut().filter(|o| o.run == base) {
            o.run = member.to_string();
        }
    }
    if let Some(of) = spec.of.as_mut() {
        for n in of.names_mut() {
            let swept = e
                .manifest
                .metrics
                .iter()
                .find(|x| x.name == *n)
                .and_then(|x| swept_base(e, x));
            if swept.is_some() {
                *n = format!("{n}[{k}]");
            }
        }
    }
    spec
}

/// The sweep coordinates of run `run` of a manifest (`input.omega=2`), if it is a sweep member.
fn coordinate(e: &Entry, run: &str) -> Option<String> {
    let (base, _) = run.rsplit_once('[')?;
    let coords = &e.sweeps.get(base)?.iter().find(|(id, _)| id == run)?.1;
    Some(coords_text(coords))
}

/// Unit, sweep coordinates and baseline tolerance of a metric, for the report.
fn metric_info(e: &Entry, mt: &fric_manifest::MetricSpec) -> fric_report::MetricInfo {
    let at = mt.run.as_deref().and_then(|r| coordinate(e, r));
    let other = mt.other.as_ref().and_then(|o| coordinate(e, &o.run));
    fric_report::MetricInfo {
        unit: mt.unit.clone().filter(|u| !u.is_empty()),
        sweep: match (at, other) {
            (Some(a), Some(b)) if a != b => Some(format!("{a} vs {b}")),
            (a, b) => a.or(b),
        },
        baseline_tol: mt
            .baseline_tol
            .map(|t| fric_report::Tolerance { abs: t.abs, rel: t.rel }),
    }
}

/// The message of a caught panic.
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// `f()`, with a panic turned into an error: one run or manifest that panics must not take down
/// the others.
/// Compute the run `req` (a panic becomes its error) and store it in `cache` under `key`.
pub(crate) fn compute_and_store(
    cache: &RunCache,
    key: &str,
    req: &fric_experiments::RunRequest,
) -> Result<RunData, String> {
    let d = isolated("the run", || fric_experiments::execute(req))
        .map_err(|e| format!("{} run failed: {e}", req.system))?;
    cache.put(key, req, &d).map_err(|e| format!("cache write: {e}"))?;
    Ok(d)
}

/// A run read from the cache, its system's physical invariants checked as a computed run's are
/// ([`fric_experiments::check_invariants`]): a cache filled by an older build may hold a run that
/// breaks one.
pub(crate) fn checked(req: &fric_experiments::RunRequest, d: RunData) -> Result<RunData, String> {
    fric_experiments::check_invariants(req, &d).map_err(|e| format!("{} run (cached) failed: {e}", req.system))?;
    Ok(d)
}

pub(crate) fn isolated<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|p| Err(format!("{what} panicked: {}", panic_message(p))))
}

/// The manifests a run selects with its `--only` patterns.
pub(crate) struct Selection<'a> {
    pub selected: Vec<&'a Entry>,
    pub invalid: Vec<&'a InvalidManifest>,
    /// The selected manifests that are computed ([`computed`]).
    pub built: Vec<&'a Entry>,
    /// The distinct run keys of the built ones.
    pub run_keys: std::collections::BTreeSet<&'a str>,
}

/// Whether a manifest's runs are computed and its metrics and checks evaluated: every built one
/// (reproduced or partial), and one that is not but declares runs (a drawing whose text prints
/// numbers that follow from others, e.g. report Fig C.1's setup constants). Only a built one is
/// drawn.
fn computed(e: &Entry) -> bool {
    e.manifest.status.is_built() || !e.runs.is_empty()
}

pub(crate) fn select<'a>(loaded: &'a Loaded, sel: Option<&globset::GlobSet>) -> Selection<'a> {
    let selects = |id: &str| sel.is_none_or(|g| g.is_match(id));
    let selected: Vec<&Entry> = loaded.entries.iter().filter(|e| selects(&e.manifest.id)).collect();
    let built: Vec<&Entry> = selected.iter().copied().filter(|e| computed(e)).collect();
    Selection {
        invalid: loaded.invalid.iter().filter(|i| selects(&invalid_id(i))).collect(),
        run_keys: built
            .iter()
            .flat_map(|e| e.runs.values().map(|r| r.key.as_str()))
            .collect(),
        selected,
        built,
    }
}

/// The id under which an invalid manifest is reported.
fn invalid_id(i: &InvalidManifest) -> String {
    i.id.clone().unwrap_or_else(|| {
        i.file
            .trim_start_matches("experiments/")
            .trim_end_matches(".yaml")
            .to_string()
    })
}

/// List scheduling in the current rayon pool: `f` applied to every item, the items handed out
/// costliest first by `cost` (ties in input order) as threads come free, the results returned
/// in input order. A long task that started last would finish alone while the other threads
/// idle; an indexed parallel iterator would split the list in halves and start the second
/// thread in its middle. Used for the runs (by [`plan::cost`]), the explanations' chains (by
/// [`sensitivity::explain_cost`]) and the evaluations (by the size of their runs' data).
fn costliest_first<T: Sync, R: Send>(
    items: &[T],
    cost: impl Fn(&T) -> f64,
    f: impl Fn(&T) -> R + Sync + Send,
) -> Vec<R> {
    let mut order: Vec<(f64, usize)> = items.iter().enumerate().map(|(i, t)| (cost(t), i)).collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<(usize, R)> = order.iter().par_bridge().map(|&(_, i)| (i, f(&items[i]))).collect();
    out.sort_by_key(|p| p.0);
    out.into_iter().map(|p| p.1).collect()
}

/// Run the pipeline.
pub fn run(opts: &Options) -> Result<Summary, String> {
    let start = Instant::now();
    let started = std::time::SystemTime::now();
    let root = &opts.root;
    let sel = selector(&opts.only)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let progress = |p: Progress| {
        if let Some(f) = &opts.progress {
            f(p)
        }
    };
    // `git status` (for the provenance) runs beside the pipeline.
    let provenance = {
        let root = root.clone();
        std::thread::spawn(move || metrics::provenance(&root))
    };
    let loaded = load::load(root);
    let Selection {
        selected,
        invalid,
        built,
        run_keys: all_runs,
    } = select(&loaded, sel.as_ref());
    if selected.is_empty() && invalid.is_empty() {
        return Err(if opts.only.is_empty() {
            format!("no manifests under {}", root.join("experiments").display())
        } else {
            format!(
                "no manifest id matches --only {}; ids are <doc>/<name>, e.g. 'thesis/fig1.11' \
                 (`cargo xtask list --status reproduced` lists them)",
                opts.only.join(" --only ")
            )
        });
    }
    // Temporary files older than this run are leftovers of an interrupted one.
    let temps = ["data", "figures"]
        .iter()
        .map(|d| store::remove_stale_temps(&root.join(d), started))
        .sum();
    // A manifest whose stamp is current and whose outputs are intact is not evaluated again, and
    // its runs are not read.
    let keys: Vec<String> = pool.install(|| built.par_iter().map(|e| stamp::eval_key(e)).collect());
    let reused: Vec<Option<ExperimentReport>> = pool.install(|| {
        built
            .par_iter()
            .zip(&keys)
            .map(|(e, k)| {
                if opts.force {
                    None
                } else {
                    stamp::reusable(root, e, k, opts.verify, true)
                }
            })
            .collect()
    });
    let todo: Vec<(&Entry, &String)> = built
        .iter()
        .zip(&keys)
        .zip(&reused)
        .filter(|(_, r)| r.is_none())
        .map(|((e, k), _)| (*e, k))
        .collect();
    // The alternative readings of the manifests' assumptions: their runs are computed with the
    // others, and every check is evaluated under each.
    let readings: Vec<Vec<sensitivity::Planned>> = todo.iter().map(|(e, _)| sensitivity::readings(e)).collect();
    let mut unique: BTreeMap<&str, &fric_experiments::RunRequest> = BTreeMap::new();
    for (e, _) in &todo {
        for r in e.runs.values() {
            unique.insert(&r.key, &r.request);
        }
    }
    let own_keys: std::collections::BTreeSet<&str> = unique.keys().copied().collect();
    for v in readings.iter().flatten().filter_map(|(_, v)| v.as_ref()) {
        for r in v.runs.values() {
            unique.insert(&r.key, &r.request);
        }
    }
    let cache = opts.run_cache();
    let steps = sensitivity::StepMemo::default();
    progress(Progress::Start {
        total: unique.len() + todo.len(),
    });

    enum Got {
        Cached(RunData),
        Computed(RunData, Option<String>, f64),
        Failed(String),
    }
    // The explanations' root-finding chains start beside the runs (their steps are serial),
    // the costliest first (by the runs they vary): the chain of thesis Fig 3.9 (a DRBM run per
    // step) was the last of nine and ended 50 s after every run, alone on one core.
    let explaining: Vec<&Entry> = todo
        .iter()
        .map(|(e, _)| *e)
        .filter(|e| e.manifest.checks.iter().any(|c| !c.explain.is_empty()))
        .collect();
    // The runs longest first ([`plan::cost`]; ties in key order).
    let order: Vec<(&str, &fric_experiments::RunRequest)> = unique.iter().map(|(k, r)| (*k, *r)).collect();
    let compute_runs = || -> Vec<(&str, Got)> {
        costliest_first(
            &order,
            |&(_, req)| plan::cost(req),
            |&(key, req)| {
                let mut recovered = None;
                if !opts.force {
                    match cache.get(key, req) {
                        Lookup::Hit(d) => {
                            return (
                                key,
                                match checked(req, d) {
                                    Ok(d) => Got::Cached(d),
                                    Err(e) => Got::Failed(e),
                                },
                            )
                        }
                        Lookup::Corrupt(why) => recovered = Some(why),
                        Lookup::Miss => {}
                    }
                }
                let (done, secs) = timings::own_time(|| compute_and_store(&cache, key, req));
                let got = match done {
                    Ok(d) => Got::Computed(d, recovered, secs),
                    Err(e) => Got::Failed(e),
                };
                progress(Progress::Step {
                    what: req.system.clone(),
                });
                (key, got)
            },
        )
    };
    // The explanations' chains on a thread of their own, outside the pool: a chain waiting
    // inside the pool (its scans are parallel) would take up runs from the list, down to the last
    // one, and resume only when the list is empty (measured: the chains ended 90 s after the
    // runs, the whole check 258 s; on their own thread, 228 s). They share the cores with the
    // runs. With one worker thread (`jobs: Some(1)`) nothing runs beside the runs: the chains
    // follow them in the pool. Errors are left for the evaluation to report; a panic in a chain
    // is one.
    let chains = || {
        costliest_first(
            &explaining,
            |e| sensitivity::explain_cost(e),
            |e| timings::own_time(|| sensitivity::warm_explanations(&cache, &steps, e)).0,
        )
    };
    let results = if explaining.is_empty() || pool.current_num_threads() == 1 {
        let results = pool.install(compute_runs);
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.install(chains)));
        results
    } else {
        // As many threads as the runs' pool: while the runs go on, the cores are shared by
        // both pools (the work is the same, the chains only advance sooner); once they are done,
        // the chains' scans and the chains themselves run side by side instead of on one core.
        let explain_pool = rayon::ThreadPoolBuilder::new()
            .num_threads(pool.current_num_threads())
            .build()
            .map_err(|e| e.to_string())?;
        std::thread::scope(|s| {
            let chains = s.spawn(|| explain_pool.install(chains));
            let results = pool.install(compute_runs);
            let _ = chains.join();
            results
        })
    };
    let mut summary = Summary {
        manifests: loaded.entries.len() + loaded.invalid.len(),
        selected: selected.len() + invalid.len(),
        // The runs of the manifests and those only alternative readings use.
        runs_total: all_runs.len() + unique.len() - own_keys.len(),
        runs_cached: all_runs.len() - own_keys.len(),
        temps_removed: temps,
        ..Default::default()
    };
    let mut data: HashMap<String, Arc<RunData>> = HashMap::new();
    let mut failed: HashMap<String, String> = HashMap::new();
    for (key, got) in results {
        match got {
            Got::Cached(d) => {
                summary.runs_cached += 1;
                data.insert(key.to_string(), Arc::new(d));
            }
            Got::Computed(d, recovered, secs) => {
                summary.runs_computed += 1;
                if let Some(req) = unique.get(key) {
                    summary.run_seconds.insert(key.to_string(), (req.system.clone(), secs));
                }
                if let Some(why) = recovered {
                    summary.runs_recovered.push((key.to_string(), why));
                }
                data.insert(key.to_string(), Arc::new(d));
            }
            Got::Failed(e) => {
                let list = if own_keys.contains(key) {
                    &mut summary.runs_failed
                } else {
                    &mut summary.readings_failed
                };
                list.push((key.to_string(), e.clone()));
                failed.insert(key.to_string(), e);
            }
        }
    }

    // The evaluations costliest first (by the values of their runs' data: series CSVs, drawing
    // and metrics scale with them), handed out as threads come free, as the runs are. In file
    // order rayon gave each thread half the list, and thesis Fig 3.3's (two series of 2·10^6
    // points) was drawn alone at the end while the other thread idled (~4 s of one thread).
    let weight = |e: &Entry| -> f64 {
        let keys: std::collections::BTreeSet<&str> = e.runs.values().map(|r| r.key.as_str()).collect();
        keys.iter()
            .filter_map(|k| data.get(*k))
            .map(|d| d.columns.iter().map(|c| c.1.len()).sum::<usize>())
            .sum::<usize>() as f64
    };
    let jobs: Vec<_> = todo.iter().zip(&readings).collect();
    let fresh: Vec<(Built, f64)> = pool.install(|| {
        costliest_first(
            &jobs,
            |((e, _), _)| weight(e),
            |((e, key), readings)| {
                timings::own_time(|| {
                    // With --verify the recorded stats are dropped: every output is hashed.
                    let prev = stamp::read(root, &e.manifest.id).map(|mut p| {
                        if opts.verify {
                            p.stats.clear();
                        }
                        p
                    });
                    let b = isolated("evaluating the manifest", || {
                        let runs = Runs {
                            data: &data,
                            failed: &failed,
                            cache: &cache,
                            steps: &steps,
                        };
                        Ok(build_entry(root, e, &runs, readings, prev.as_ref(), opts.force))
                    });
                    let b = b.unwrap_or_else(|err| {
                        let mut report = registry_report(e);
                        report.errors.push(err);
                        report.checks = unevaluated(&e.manifest, "evaluating the manifest failed");
                        Built {
                            report,
                            drawn: false,
                            table: false,
                            outputs: BTreeMap::new(),
                            render_key: None,
                        }
                    });
                    // Only a complete evaluation is stamped: errors are retried next time.
                    if b.report.errors.is_empty() {
                        let s = stamp::Stamp {
                            key: (*key).clone(),
                            render_key: b.render_key.clone(),
                            report: b.report.clone(),
                            outputs: b.outputs.clone(),
                            stats: filestat::stats_of(root, b.outputs.keys()),
                        };
                        if let Err(err) = stamp::write(root, &e.manifest.id, &s) {
                            let mut b = b;
                            b.report.errors.push(format!("stamp: {err}"));
                            return b;
                        }
                    }
                    progress(Progress::Step {
                        what: e.manifest.id.clone(),
                    });
                    b
                })
            },
        )
    });
    progress(Progress::Finish);
    let mut by_id: BTreeMap<String, ExperimentReport> = BTreeMap::new();
    // With a selection, keep what the last report said about the others (read and written back
    // exactly: serde_json's float_roundtrip makes every number survive the round trip).
    if sel.is_some() {
        if let Ok(old) = std::fs::read(root.join("figures/report.json")) {
            if let Ok(old) = serde_json::from_slice::<Report>(&old) {
                for e in old.experiments {
                    by_id.insert(e.id.clone(), e);
                }
            }
        }
    }
    for e in &selected {
        if !e.manifest.status.is_built() {
            by_id.insert(e.manifest.id.clone(), registry_report(e));
        }
    }
    for r in reused.into_iter().flatten() {
        // A computed manifest that is not built has no outputs: nothing drawn to be current.
        if !r.outputs.is_empty() {
            if r.kind == "figure" {
                summary.figures_current += 1;
            } else {
                summary.tables += 1;
            }
        }
        by_id.insert(r.id.clone(), r);
    }
    for (b, secs) in fresh {
        let r = b.report;
        summary.evaluate_seconds.insert(r.id.clone(), secs);
        if b.drawn {
            summary.figures_drawn += 1;
        } else if r.kind == "figure" && r.errors.is_empty() && !r.outputs.is_empty() {
            summary.figures_current += 1;
        }
        if b.table {
            summary.tables += 1;
        }
        by_id.insert(r.id.clone(), r);
    }
    for e in &selected {
        if let Some(r) = by_id.get_mut(&e.manifest.id) {
            status::enforce(root, e, r);
        }
    }
    for inv in &invalid {
        let id = invalid_id(inv);
        by_id.insert(
            id.clone(),
            ExperimentReport {
                id,
                status: "invalid".into(),
                errors: inv.diagnostics.iter().map(|d| d.to_string()).collect(),
                ..Default::default()
            },
        );
    }
    // Entries that no longer exist are dropped.
    let known: std::collections::HashSet<String> = loaded
        .entries
        .iter()
        .map(|e| e.manifest.id.clone())
        .chain(loaded.invalid.iter().map(invalid_id))
        .collect();
    by_id.retain(|k, _| known.contains(k));
    summary.selected_ids = selected
        .iter()
        .map(|e| e.manifest.id.clone())
        .chain(invalid.iter().map(|i| invalid_id(i)))
        .collect();
    summary.only = sel.is_some();
    let experiments: Vec<ExperimentReport> = by_id.into_values().collect();
    summary.report = Report {
        discrepancies: fric_report::discrepancies_by_document(
            loaded.documents.iter().map(|d| d.id.as_str()),
            &experiments,
        ),
        experiments,
        coverage: coverage(&loaded),
        provenance: provenance.join().ok(),
    };
    summary.invalid = invalid.into_iter().cloned().collect();
    let json = serde_json::to_vec_pretty(&summary.report).map_err(|e| e.to_string())?;
    write_if_changed(&root.join("figures/report.json"), &json).map_err(|e| format!("figures/report.json: {e}"))?;
    metrics::write_tidy(root, &summary.report)?;
    let checks = fric_report::render_checks(&summary.report)?;
    write_if_changed(&root.join("figures/checks.tex"), checks.as_bytes())
        .map_err(|e| format!("figures/checks.tex: {e}"))?;
    // The HTML report and the LaTeX body, from the full report on every run.
    site::write(root, &site::build(root, &loaded, &summary.report))?;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// Remove every generated output and the cache.
pub fn clean(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    let cache = root.join("data/cache");
    if cache.exists() {
        std::fs::remove_dir_all(&cache)?;
        removed.push(cache);
    }
    let figs = root.join("figures");
    if let Ok(rd) = std::fs::read_dir(&figs) {
        for e in rd.flatten() {
            let p = e.path();
            // Keep the checked-in README.
            if p.file_name().is_some_and(|n| n == "README.md") {
                continue;
            }
            if p.is_dir() {
                std::fs::remove_dir_all(&p)?;
            } else {
                std::fs::remove_file(&p)?;
            }
            removed.push(p);
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::isolated;

    #[test]
    fn a_panic_becomes_an_error() {
        let r: Result<(), String> = isolated("the run", || panic!("index out of bounds"));
        assert_eq!(r.unwrap_err(), "the run panicked: index out of bounds");
        let r: Result<(), String> = isolated("the run", || panic!("{}", String::from("owned")));
        assert_eq!(r.unwrap_err(), "the run panicked: owned");
        assert_eq!(isolated("the run", || Ok(3)), Ok(3));
    }
}
