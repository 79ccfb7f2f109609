//! How much each assumption matters, and which parameter value would explain a discrepancy.
//!
//! An assumption may list alternative readings (`assumptions[].alternatives[]`: new values for
//! parameters or input fields of one run). [`sensitivity`] evaluates every check of such a
//! manifest under each reading, through the same run cache, and calls a check robust when it
//! passes (or fails) under every reading, assumption-sensitive when a reading flips it.
//!
//! A check with a known discrepancy may list parameters that could explain it
//! (`checks[].explain[]`: run, parameter, range). [`explain`] solves `metric(p) = expected` for
//! each by a scan of the range and Illinois regula falsi on each sign change in turn, every
//! evaluation a cached run, and reports the value, or where the metric jumps across the expected
//! value, or that none in the range reproduces it.

use crate::load::{run_key, set_input_field, Entry, ResolvedRun};
use crate::store::{Lookup, RunCache};
use crate::{
    checked, compute_and_store, load, metrics_and_checks, registry_report, select, selector, with_run_data, Options,
};
use fric_experiments::RunData;
use fric_manifest::ParamValue;
use fric_report::CheckReport;
use fric_report::{Explained, Jump};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// Whether the concrete run id `id` is `run` or a member `run[k]` of the swept run `run`.
pub(crate) fn is_run_or_member(id: &str, run: &str) -> bool {
    let member_of = id.strip_suffix(']').and_then(|s| s.rsplit_once('[')).map(|(b, _)| b);
    id == run || member_of == Some(run)
}

/// The manifest `e` with the run `run` (every member, for a swept run) changed by `set`
/// (parameter name or `input.<field>` → value), revalidated against its system and re-keyed.
pub fn variant(e: &Entry, run: &str, set: &[(String, f64)]) -> Result<Entry, String> {
    let mut v = e.clone();
    let mut hit = false;
    for (id, r) in v.runs.iter_mut() {
        if !is_run_or_member(id, run) {
            continue;
        }
        hit = true;
        *r = patch(r, set).map_err(|err| format!("run `{id}`: {err}"))?;
    }
    if !hit {
        return Err(format!("no run `{run}` in {}", e.manifest.id));
    }
    Ok(v)
}

/// The run `r` changed by `set` (parameter name or `input.<field>` → value), revalidated
/// against its system and re-keyed.
pub(crate) fn patch(r: &ResolvedRun, set: &[(String, f64)]) -> Result<ResolvedRun, String> {
    let req = &r.request;
    let mut params: BTreeMap<String, ParamValue> = req
        .params
        .iter()
        .map(|(k, v)| {
            let pv = if v.len() == 1 {
                ParamValue::Number(v[0])
            } else {
                ParamValue::List(v.clone())
            };
            (k.clone(), pv)
        })
        .collect();
    let mut input = req.input.clone();
    for (name, value) in set {
        if let Some(field) = name.strip_prefix("input.") {
            input = set_input_field(&input, field, *value)?;
        } else if params.contains_key(name) {
            params.insert(name.clone(), ParamValue::Number(*value));
        } else {
            let names: Vec<&str> = params.keys().map(String::as_str).collect();
            return Err(format!(
                "`{name}` is not a parameter of `{}` (parameters: {}; or input.<field>)",
                req.system,
                names.join(", ")
            ));
        }
    }
    let mut request =
        fric_experiments::resolve(&req.system, &params, Some(&input), Some(&req.sim)).map_err(|errs| {
            errs.iter()
                .map(|i| format!("{}: {} (allowed: {})", i.path, i.message, i.allowed))
                .collect::<Vec<_>>()
                .join("; ")
        })?;
    request.input_data = req.input_data.clone();
    let key = run_key(&request);
    Ok(ResolvedRun {
        request,
        post: r.post.clone(),
        key,
    })
}

/// Run data by key, errors by key, and how many runs were computed.
type Fetched = (HashMap<String, Arc<RunData>>, HashMap<String, String>, usize);

/// A reading with its variant of the manifest (`None`: the reading is invalid).
pub type Planned = (Reading, Option<Entry>);

/// The distinct runs of `entries`, by key.
fn unique_runs<'a>(entries: &[&'a Entry]) -> BTreeMap<&'a str, &'a fric_experiments::RunRequest> {
    entries
        .iter()
        .flat_map(|e| e.runs.values())
        .map(|r| (r.key.as_str(), &r.request))
        .collect()
}

/// One run from the cache (its invariants checked, [`checked`]), or computed into it; `true` when
/// it was computed.
fn get_or_compute(cache: &RunCache, key: &str, req: &fric_experiments::RunRequest) -> (Result<RunData, String>, bool) {
    match cache.get(key, req) {
        Lookup::Hit(d) => (checked(req, d), false),
        _ => (compute_and_store(cache, key, req), true),
    }
}

/// Sort fetched runs into data and failures, and count the computed ones.
fn gather(got: Vec<(&str, Result<RunData, String>, bool)>) -> Fetched {
    let (mut data, mut failed, mut computed) = (HashMap::new(), HashMap::new(), 0);
    for (key, r, fresh) in got {
        computed += fresh as usize;
        match r {
            Ok(d) => {
                data.insert(key.to_string(), Arc::new(d));
            }
            Err(e) => {
                failed.insert(key.to_string(), e);
            }
        }
    }
    (data, failed, computed)
}

/// The data of every run of `entries`, from the cache or computed into it (in parallel), and the
/// runs that failed: `(data by key, error by key, how many were computed)`.
fn fetch(opts: &Options, entries: &[&Entry]) -> Result<Fetched, String> {
    let unique = unique_runs(entries);
    let cache = opts.run_cache();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let got = pool.install(|| {
        unique
            .par_iter()
            .map(|(key, req)| {
                let (r, fresh) = get_or_compute(&cache, key, req);
                (*key, r, fresh)
            })
            .collect()
    });
    Ok(gather(got))
}

/// The metrics and checks of `e` evaluated on `data` (problems in the report's `errors`).
fn evaluate(
    e: &Entry,
    data: &HashMap<String, Arc<RunData>>,
    failed: &HashMap<String, String>,
) -> fric_report::ExperimentReport {
    let mut rep = registry_report(e);
    with_run_data(e, data, failed, &mut rep, |runs, rep| metrics_and_checks(e, runs, rep));
    rep
}

/// One alternative reading and what the checks gave under it.
#[derive(Clone, Debug, Serialize)]
pub struct Reading {
    pub name: String,
    /// The assumption it belongs to (its `what`).
    pub assumption: String,
    pub set: BTreeMap<String, f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// One per check of the manifest, in its order (empty when the reading is invalid).
    pub checks: Vec<CheckReport>,
    pub errors: Vec<String>,
}

/// One check's verdict across the readings.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    pub metric: String,
    /// Where the check is written.
    pub location: Option<String>,
    /// Passes (or fails) under the manifest's reading and every alternative.
    pub robust: bool,
    /// The readings under which the check's result differs from the manifest's reading.
    pub flipped_by: Vec<String>,
    /// The readings under which the check could not be evaluated (then it is not robust).
    pub failed: Vec<String>,
}

/// The sensitivity of one manifest's checks to its assumptions.
#[derive(Clone, Debug, Serialize)]
pub struct ManifestSensitivity {
    pub id: String,
    /// The checks under the manifest's own reading.
    pub baseline: Vec<CheckReport>,
    pub readings: Vec<Reading>,
    pub verdicts: Vec<Verdict>,
}

impl ManifestSensitivity {
    pub fn robust(&self) -> usize {
        self.verdicts.iter().filter(|v| v.robust).count()
    }
    /// The checks that could not be evaluated under some reading.
    pub fn failed(&self) -> usize {
        self.verdicts.iter().filter(|v| !v.failed.is_empty()).count()
    }
}

/// What [`sensitivity`] found for the selected manifests.
#[derive(Debug, Default)]
pub struct Sensitivities {
    /// The selected manifests with alternative readings, by id.
    pub manifests: Vec<ManifestSensitivity>,
    /// Runs computed (the others came from the cache).
    pub computed: usize,
    /// The selected manifests that are invalid (an invalid alternative among them): errors.
    pub invalid: Vec<crate::load::InvalidManifest>,
    /// The ids this run was about (selected, valid or not): their entries in [`REPORT`] are
    /// replaced; the others are kept.
    pub scope: std::collections::BTreeSet<String>,
    /// Every manifest id of the workspace: entries of [`REPORT`] for any other are dropped.
    pub known: std::collections::BTreeSet<String>,
}

/// Where [`write`] puts the sensitivity report.
pub const REPORT: &str = "figures/sensitivity.json";

/// Merge the sensitivity of `s` into [`REPORT`] (written only if its text changed): the entries
/// of the manifests `s` was about are replaced, those of other manifests kept (as `--only` does
/// for report.json), those of manifests that no longer exist dropped. An unreadable old file is
/// replaced.
pub fn write(root: &std::path::Path, s: &Sensitivities) -> Result<(), String> {
    let p = crate::store::output_path(root, REPORT)?;
    let old: Vec<serde_json::Value> = std::fs::read(&p)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let id = |v: &serde_json::Value| v.get("id").and_then(|x| x.as_str()).map(String::from);
    let mut all: Vec<serde_json::Value> = old
        .into_iter()
        .filter(|v| id(v).is_some_and(|i| s.known.contains(&i) && !s.scope.contains(&i)))
        .collect();
    for m in &s.manifests {
        all.push(serde_json::to_value(m).map_err(|e| e.to_string())?);
    }
    all.sort_by_key(id);
    let json = serde_json::to_string_pretty(&all).map_err(|e| e.to_string())? + "\n";
    crate::store::write_if_changed(&p, json.as_bytes())
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", p.display()))
}

/// Whether a check's value meets its expectation; `None` when it could not be evaluated.
fn met(c: &CheckReport) -> Option<bool> {
    c.computed.map(|_| c.pass)
}

/// The alternative readings of `e`'s assumptions, each with its variant of `e` (`None` when
/// the reading is invalid: its error is in the reading).
pub fn readings(e: &Entry) -> Vec<Planned> {
    let mut rs = Vec::new();
    for a in &e.manifest.assumptions {
        for alt in &a.alternatives {
            let set: Vec<(String, f64)> = alt.set.iter().map(|(k, v)| (k.clone(), *v)).collect();
            let mut reading = Reading {
                name: alt.name.clone(),
                assumption: a.what.clone(),
                set: alt.set.clone(),
                why: alt.why.clone(),
                checks: Vec::new(),
                errors: Vec::new(),
            };
            let changed = alt
                .run
                .ids()
                .iter()
                .try_fold(e.clone(), |v, run| variant(&v, run, &set));
            match changed {
                Ok(v) => rs.push((reading, Some(v))),
                Err(err) => {
                    reading
                        .errors
                        .push(format!("{}: alternative `{}`: {err}", e.file, alt.name));
                    rs.push((reading, None));
                }
            }
        }
    }
    rs
}

/// Evaluate every reading on `data` and record in each of `checks` (the manifest's own
/// reading) its outcome under each reading. Returns the readings with their checks.
pub(crate) fn attach(
    readings: &[Planned],
    checks: &mut [CheckReport],
    data: &HashMap<String, Arc<RunData>>,
    failed: &HashMap<String, String>,
) -> Vec<Reading> {
    let mut out = Vec::new();
    for (reading, v) in readings {
        let mut reading = reading.clone();
        if let Some(v) = v {
            let rep = evaluate(v, data, failed);
            reading.checks = rep.checks;
            reading.errors.extend(rep.errors);
        }
        out.push(reading);
    }
    if out.is_empty() {
        return out;
    }
    for (k, c) in checks.iter_mut().enumerate() {
        let readings: Vec<fric_report::ReadingOutcome> = out
            .iter()
            .map(|r| {
                let rc = r.checks.get(k).filter(|_| r.errors.is_empty());
                fric_report::ReadingOutcome {
                    name: r.name.clone(),
                    computed: rc.and_then(|x| x.computed),
                    met: rc.and_then(met),
                }
            })
            .collect();
        let own = met(c);
        // A reading that could not be evaluated says nothing either way: the check is not
        // robust, its reading is `failed`.
        let failed: Vec<String> = readings
            .iter()
            .filter(|r| r.met.is_none())
            .map(|r| r.name.clone())
            .collect();
        let robust = own.is_some() && failed.is_empty() && readings.iter().all(|r| r.met == own);
        c.sensitivity = Some(fric_report::Sensitivity {
            robust,
            failed,
            readings,
        });
    }
    out
}

/// Evaluate every check of every selected manifest that has alternative readings, under each;
/// the selected manifests that are invalid are returned with their diagnostics.
pub fn sensitivity(opts: &Options) -> Result<Sensitivities, String> {
    let sel = selector(&opts.only)?;
    let loaded = load::load(&opts.root);
    let chosen = select(&loaded, sel.as_ref());
    let invalid: Vec<crate::load::InvalidManifest> = chosen.invalid.iter().map(|i| (*i).clone()).collect();
    let mut scope: std::collections::BTreeSet<String> = chosen.selected.iter().map(|e| e.manifest.id.clone()).collect();
    scope.extend(chosen.invalid.iter().map(|i| crate::invalid_id(i)));
    let mut known: std::collections::BTreeSet<String> = loaded.entries.iter().map(|e| e.manifest.id.clone()).collect();
    known.extend(loaded.invalid.iter().map(crate::invalid_id));
    let with_alts: Vec<&Entry> = chosen
        .built
        .iter()
        .copied()
        .filter(|e| e.manifest.assumptions.iter().any(|a| !a.alternatives.is_empty()))
        .collect();
    let plans: Vec<(&Entry, Vec<Planned>)> = with_alts.iter().map(|e| (*e, readings(e))).collect();
    let mut all: Vec<&Entry> = with_alts.clone();
    for (_, rs) in &plans {
        all.extend(rs.iter().filter_map(|(_, v)| v.as_ref()));
    }
    let (data, failed, computed) = fetch(opts, &all)?;
    let mut out = Vec::new();
    for (e, rs) in plans {
        let mut base = evaluate(e, &data, &failed);
        crate::evaluate::locate_checks(&opts.root, &e.file, &mut base.checks);
        let readings = attach(&rs, &mut base.checks, &data, &failed);
        let verdicts = base
            .checks
            .iter()
            .map(|c| {
                let s = c.sensitivity.as_ref();
                let own = met(c).unwrap_or(false);
                Verdict {
                    metric: c.metric.clone(),
                    location: c.location.clone(),
                    robust: s.is_some_and(|s| s.robust),
                    flipped_by: s.map_or_else(Vec::new, |s| s.flipped_by(own).into_iter().map(String::from).collect()),
                    failed: s.map_or_else(Vec::new, |s| s.failed.clone()),
                }
            })
            .collect();
        out.push(ManifestSensitivity {
            id: e.manifest.id.clone(),
            baseline: base.checks,
            readings,
            verdicts,
        });
    }
    Ok(Sensitivities {
        manifests: out,
        computed,
        invalid,
        scope,
        known,
    })
}

/// Points of the initial scan of a range.
pub const SCAN_POINTS: usize = 9;
/// Relative tolerance on the explaining value unless the manifest sets `xtol`: four significant
/// digits, enough to say which value explains a discrepancy. (1e-6 cost 30 serial evaluations on
/// thesis Fig 3.9, whose metric is a step function of Δ, about 60 s of a cold run.)
pub const XTOL: f64 = 1e-4;
/// At most this many evaluations per parameter.
pub const MAX_EVALUATIONS: usize = 80;

/// The data of `entries`' runs fetched one by one (inside a pipeline worker): from the cache,
/// or computed into it. `(data, failed, computed)`.
fn fetch_serial(cache: &RunCache, entries: &[&Entry]) -> Fetched {
    let got = unique_runs(entries)
        .into_iter()
        .map(|(key, req)| {
            let (r, fresh) = get_or_compute(cache, key, req);
            (key, r, fresh)
        })
        .collect();
    gather(got)
}

/// The metric at each root-finding step of the explanations (or why it has none), by the
/// manifest, the step's runs (their content keys) and the metric, kept in memory for one pipeline
/// run. The chains run
/// beside the runs and fill it; the evaluation then replays every chain from it instead of
/// reading each step's run data back from the cache. Those reads were a parquet decode per step
/// (thesis Fig 3.9's 24 DRBM runs of up to 73 MB): 10 % of a cold `cargo xtask check`'s CPU,
/// measured with `perf`. A step's value depends only on its runs' data and the manifest's
/// metric definitions, which are fixed for the run, and the chain is deterministic, so the replay
/// takes the same steps and finds the same root.
#[derive(Default)]
pub(crate) struct StepMemo(Mutex<HashMap<StepKey, Result<f64, String>>>);

/// A step of an explanation: the manifest, its variant's runs ([`step_runs`]), the metric.
type StepKey = (String, String, String);

/// The runs of a step's variant `v` as `id=key` pairs in id order: which run has which data.
/// The set of distinct keys alone is not enough: when the varied run at one value equals another
/// run of the manifest (a sweep member over the same parameter), two steps have the same set of
/// keys and different metrics, and whichever finished last answered for both (the answer
/// depended on `--jobs`).
fn step_runs(v: &Entry) -> String {
    let pairs: Vec<String> = v.runs.iter().map(|(id, r)| format!("{id}={}", r.key)).collect();
    pairs.join(" ")
}

impl StepMemo {
    fn get(&self, key: &StepKey) -> Option<Result<f64, String>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).get(key).cloned()
    }
    fn put(&self, key: StepKey, v: Result<f64, String>) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).insert(key, v);
    }
}

/// Solve, for each `explain` entry of the check `spec`, for the parameter value that makes its
/// metric equal the expected value. Returns the explanations and the runs computed.
pub(crate) fn explanations(
    cache: &RunCache,
    memo: &StepMemo,
    e: &Entry,
    spec: &fric_manifest::CheckSpec,
) -> Result<(Vec<Explained>, usize), String> {
    let mut computed_runs = 0;
    let mut out = Vec::new();
    // The loader refuses `explain` on a check against another metric.
    let expected = spec
        .expected
        .number()
        .ok_or("explain solves for a number, not another metric")?;
    // What the check calls equal: a change of the metric within it across a bracket is no jump.
    let ftol = match spec.op {
        fric_manifest::Op::Within => spec.tol.map_or(0.0, |t| t.allowed(expected)),
        _ => 0.0,
    };
    for x in &spec.explain {
        let current = e
            .runs
            .iter()
            .find(|(rid, _)| is_run_or_member(rid, &x.run))
            .and_then(|(_, r)| r.request.params.get(&x.param))
            .and_then(|v| v.first().copied());
        let computed = std::sync::atomic::AtomicUsize::new(0);
        let f = |p: f64| -> Result<f64, String> {
            let v = variant(e, &x.run, &[(x.param.clone(), p)])?;
            let key = (v.manifest.id.clone(), step_runs(&v), spec.metric.clone());
            if let Some(got) = memo.get(&key) {
                return got.map(|m| m - expected);
            }
            let (data, failed, n) = fetch_serial(cache, &[&v]);
            computed.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            let rep = evaluate(&v, &data, &failed);
            let got = match rep.metrics.get(&spec.metric).copied().flatten() {
                Some(m) => Ok(m),
                None => Err(format!(
                    "`{}` at {} = {p}: {}",
                    spec.metric,
                    x.param,
                    rep.errors.join("; ")
                )),
            };
            memo.put(key, got.clone());
            got.map(|m| m - expected)
        };
        let xtol = x.xtol.unwrap_or(XTOL);
        let s = solve(&f, x.range, xtol, ftol)?;
        computed_runs += computed.into_inner();
        out.push(Explained {
            run: x.run.clone(),
            param: x.param.clone(),
            range: x.range,
            current,
            value: s.root,
            metric_at_value: s.f_root.map(|r| r + expected),
            scanned: [s.f_min + expected, s.f_max + expected],
            evaluations: s.evaluations,
            brackets: s.brackets,
            xtol,
            jump: s.jump.map(|j| Jump {
                from: j.from + expected,
                to: j.to + expected,
                ..j
            }),
        });
    }
    Ok((out, computed_runs))
}

/// Record in the known discrepancies among `checks` (evaluated for `e`) the parameter values
/// that would explain them, for the checks that declare `explain`.
pub(crate) fn explain_known(cache: &RunCache, memo: &StepMemo, e: &Entry, checks: &mut [CheckReport]) -> Vec<String> {
    let mut errors = Vec::new();
    for spec in e.manifest.checks.iter().filter(|c| !c.explain.is_empty()) {
        let mine = checks.iter_mut().filter(|c| {
            c.metric == spec.metric && spec.expected.number() == Some(c.expected) && c.known_discrepancy.is_some()
        });
        let mut mine = mine.peekable();
        if mine.peek().is_none() {
            continue;
        }
        match explanations(cache, memo, e, spec) {
            Ok((ex, _)) => {
                for c in mine {
                    c.explained_by = ex.clone();
                }
            }
            Err(err) => errors.push(format!("explaining `{}`: {err}", spec.metric)),
        }
    }
    errors
}

/// The estimated cost ([`crate::plan::cost`]) of the runs that the explanations of `e` vary
/// (each is run once per root-finding step, about as many for every chain): the order in which
/// the explanation chains start.
pub(crate) fn explain_cost(e: &Entry) -> f64 {
    e.manifest
        .checks
        .iter()
        .filter(|c| c.known_discrepancy.is_some())
        .flat_map(|c| &c.explain)
        .filter_map(|x| e.runs.get(&x.run))
        .map(|r| crate::plan::cost(&r.request))
        .sum()
}

/// Compute into the cache the runs the explanations of `e` will need (its checks that declare
/// `explain` and are marked known discrepancies), so that evaluating `e` later only reads them.
/// Called beside the computation of the manifests' own runs: an explanation is a chain of
/// root-finding steps, each waiting for the last, and started early it overlaps the other runs
/// instead of trailing them. Errors are left for the evaluation to report.
pub(crate) fn warm_explanations(cache: &RunCache, memo: &StepMemo, e: &Entry) {
    for spec in e
        .manifest
        .checks
        .iter()
        .filter(|c| !c.explain.is_empty() && c.known_discrepancy.is_some())
    {
        let _ = explanations(cache, memo, e, spec);
    }
}

/// The result of `explain` for one check.
#[derive(Clone, Debug, Serialize)]
pub struct ExplainReport {
    pub id: String,
    pub metric: String,
    pub expected: f64,
    /// Where the expected value comes from: `published (line N)`, `derived: <derivation>` or
    /// `claim (lines …)`.
    pub provenance: String,
    pub computed: Option<f64>,
    pub known_discrepancy: Option<String>,
    pub explanations: Vec<Explained>,
}

/// Solve, for every `explain` entry of the check on `metric` in manifest `id`, for the value of
/// the parameter that makes the metric equal the expected value.
pub fn explain(opts: &Options, id: &str, metric: &str) -> Result<ExplainReport, String> {
    let loaded = load::load(&opts.root);
    let e = loaded.entries.iter().find(|e| e.manifest.id == id).ok_or_else(|| {
        match loaded.invalid.iter().find(|i| i.id.as_deref() == Some(id)) {
            Some(i) => {
                let problems: Vec<String> = i.diagnostics.iter().map(|d| format!("  {d}")).collect();
                format!("{id} is invalid; fix it first:\n{}", problems.join("\n"))
            }
            None => format!("no manifest `{id}` (ids are <doc>/<name>, e.g. duhem-paper/fig1)"),
        }
    })?;
    let checks: Vec<&fric_manifest::CheckSpec> = e.manifest.checks.iter().filter(|c| c.metric == metric).collect();
    if checks.is_empty() {
        let names: Vec<&str> = e.manifest.checks.iter().map(|c| c.metric.as_str()).collect();
        return Err(format!(
            "{id} has no check on `{metric}` (checked metrics: {})",
            names.join(", ")
        ));
    }
    let Some(check) = checks.iter().find(|c| !c.explain.is_empty()) else {
        return Err(format!(
            "no check on `{metric}` in {} declares `explain: [{{run, param, range}}]`: the parameters \
             that could explain it",
            e.file
        ));
    };
    let cache = opts.run_cache();
    let (data, failed, _) = fetch_serial(&cache, &[e]);
    let computed = evaluate(e, &data, &failed).metrics.get(metric).copied().flatten();
    let (explanations, _) = explanations(&cache, &StepMemo::default(), e, check)?;
    Ok(ExplainReport {
        id: id.to_string(),
        metric: metric.to_string(),
        expected: check.expected.number().unwrap_or(f64::NAN),
        provenance: provenance_text(&check.provenance),
        computed,
        known_discrepancy: check.known_discrepancy.clone(),
        explanations,
    })
}

/// Where an expected value comes from, in a few words.
fn provenance_text(p: &fric_manifest::Provenance) -> String {
    let lines = |l: &[u32]| l.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    match p {
        fric_manifest::Provenance::Published { line, .. } => format!("published, line {line}"),
        fric_manifest::Provenance::Derived(d) => format!("derived: {d}"),
        fric_manifest::Provenance::Claim { lines: l, .. } => format!("a claim, lines {}", lines(l)),
    }
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub root: Option<f64>,
    pub f_root: Option<f64>,
    pub f_min: f64,
    pub f_max: f64,
    pub evaluations: usize,
    pub brackets: usize,
    /// The first bracket in which `f` jumps across zero instead of passing through it (then no
    /// value there is a root, whatever the precision).
    pub jump: Option<Jump>,
}

/// How much more than the scan's secant slope predicts `f` may change across a refined bracket
/// and still be continuous there: a larger change is a jump.
pub const JUMP_FACTOR: f64 = 10.0;

/// The points of the initial scan of `[lo, hi]`: geometric when the range is positive and spans
/// more than a decade (by logarithms when `hi / lo` overflows, so that a range of hundreds of
/// decades is scanned too), else uniform.
fn scan_points([lo, hi]: [f64; 2]) -> Vec<f64> {
    let geometric = lo > 0.0 && hi / lo > 10.0;
    (0..SCAN_POINTS)
        .map(|k| {
            if k == 0 {
                return lo;
            }
            if k == SCAN_POINTS - 1 {
                return hi;
            }
            let t = k as f64 / (SCAN_POINTS - 1) as f64;
            if geometric && (hi / lo).is_finite() {
                lo * (hi / lo).powf(t)
            } else if geometric {
                (lo.ln() + t * (hi.ln() - lo.ln())).exp()
            } else {
                lo + (hi - lo) * t
            }
        })
        .collect()
}

/// A bracket `[a, b]` of a sign change of `f` narrowed by [`refine`], with `f` at its ends
/// (`exact`: `f(a) = 0`).
struct Refined {
    a: f64,
    b: f64,
    fa: f64,
    fb: f64,
    exact: bool,
    /// Narrowed to the precision asked for (not stopped by [`MAX_EVALUATIONS`]).
    narrowed: bool,
}

/// Narrow the bracket `[a, b]` (`f(a)`, `f(b)` of opposite signs) to a relative width `xtol` by
/// Illinois regula falsi, safeguarded: when two steps have not shrunk the bracket to a quarter (a
/// metric that jumps, e.g. a count of elements, stalls regula falsi), the next step bisects.
fn refine(
    f: &impl Fn(f64) -> Result<f64, String>,
    [mut a, mut b]: [f64; 2],
    [fa0, fb0]: [f64; 2],
    xtol: f64,
    evaluations: &mut usize,
) -> Result<Refined, String> {
    // (fa, fb): the values regula falsi works with (one may be halved); (ya, yb): f itself.
    let (mut fa, mut fb, mut ya, mut yb) = (fa0, fb0, fa0, fb0);
    let mut side = 0i8;
    let (mut checkpoint, mut since) = ((b - a).abs(), 0);
    let open = |a: f64, b: f64| (b - a).abs() > xtol * a.abs().max(b.abs());
    while open(a, b) && *evaluations < MAX_EVALUATIONS {
        let bisect = since >= 2 && (b - a).abs() > 0.25 * checkpoint;
        if since >= 2 {
            (checkpoint, since) = ((b - a).abs(), 0);
        }
        let c = if bisect {
            0.5 * (a + b)
        } else {
            (a * fb - b * fa) / (fb - fa)
        };
        let fc = f(c)?;
        *evaluations += 1;
        since += 1;
        if fc == 0.0 {
            return Ok(Refined {
                a: c,
                b: c,
                fa: 0.0,
                fb: 0.0,
                exact: true,
                narrowed: true,
            });
        }
        let same_as_b = fc.signum() == yb.signum();
        if same_as_b {
            (b, fb, yb) = (c, fc, fc);
            if !bisect && side == 1 {
                fa /= 2.0;
            }
            side = if bisect { 0 } else { 1 };
        } else {
            (a, fa, ya) = (c, fc, fc);
            if !bisect && side == -1 {
                fb /= 2.0;
            }
            side = if bisect { 0 } else { -1 };
        }
    }
    Ok(Refined {
        a,
        b,
        fa: ya,
        fb: yb,
        exact: false,
        narrowed: !open(a, b),
    })
}

/// A root of `f` in `[lo, hi]`: a scan of [`SCAN_POINTS`] points ([`scan_points`]), then each
/// bracket of a sign change in turn narrowed to a relative width `xtol` ([`XTOL`] by default)
/// by [`refine`]. Exact zeros of the scan are roots. A narrowed bracket across which `f` still
/// changes by more than `ftol` (the check's tolerance on the metric) and by more than
/// [`JUMP_FACTOR`] times what the bracket's secant slope in the scan predicts is a jump, not a
/// root: it is recorded and the next bracket tried. The scan points are evaluated in parallel
/// (each is an independent set of runs); the answer does not depend on their order.
pub fn solve(
    f: &(impl Fn(f64) -> Result<f64, String> + Sync),
    range: [f64; 2],
    xtol: f64,
    ftol: f64,
) -> Result<Solved, String> {
    let xs = scan_points(range);
    // Each point timed on its own: a run waiting inside a parallel library call may steal one,
    // and must not count it as its own time (crate::timings::own_time).
    let fs = xs
        .par_iter()
        .map(|&x| crate::timings::own_time(|| f(x)).0)
        .collect::<Result<Vec<f64>, String>>()?;
    let mut s = Solved {
        root: None,
        f_root: None,
        f_min: fs.iter().cloned().fold(f64::INFINITY, f64::min),
        f_max: fs.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
        evaluations: xs.len(),
        brackets: fs
            .windows(2)
            .filter(|w| w[0] == 0.0 || w[0].signum() != w[1].signum())
            .count()
            + (fs.last() == Some(&0.0)) as usize,
        jump: None,
    };
    let starts = (0..xs.len()).filter(|&k| fs[k] == 0.0 || (k + 1 < xs.len() && fs[k].signum() != fs[k + 1].signum()));
    for k in starts {
        if fs[k] == 0.0 {
            (s.root, s.f_root) = (Some(xs[k]), Some(0.0));
            return Ok(s);
        }
        let slope = ((fs[k + 1] - fs[k]) / (xs[k + 1] - xs[k])).abs();
        let r = refine(f, [xs[k], xs[k + 1]], [fs[k], fs[k + 1]], xtol, &mut s.evaluations)?;
        if r.exact {
            (s.root, s.f_root) = (Some(r.a), Some(0.0));
            return Ok(s);
        }
        let change = (r.fb - r.fa).abs();
        if r.narrowed && change > ftol.max(JUMP_FACTOR * slope * (r.b - r.a).abs()) {
            s.jump.get_or_insert(Jump {
                at: [r.a.min(r.b), r.a.max(r.b)],
                from: if r.a <= r.b { r.fa } else { r.fb },
                to: if r.a <= r.b { r.fb } else { r.fa },
            });
            continue;
        }
        let (root, f_root) = if r.fa.abs() <= r.fb.abs() {
            (r.a, r.fa)
        } else {
            (r.b, r.fb)
        };
        (s.root, s.f_root) = (Some(root), Some(f_root));
        return Ok(s);
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_finds_a_root_to_the_tolerance_and_reports_none_outside() {
        let f = |x: f64| Ok(x * x - 2.0);
        let s = solve(&f, [0.0, 3.0], XTOL, 0.0).unwrap();
        let r = s.root.unwrap();
        assert!((r - 2f64.sqrt()).abs() < 2.0 * XTOL * r, "{r}");
        assert_eq!(s.brackets, 1);
        assert!(s.evaluations < 40, "{}", s.evaluations);
        let s = solve(&f, [2.0, 3.0], XTOL, 0.0).unwrap();
        assert_eq!(s.root, None);
        assert_eq!((s.f_min, s.f_max), (2.0, 7.0));
        // Geometric scan over decades; the half-width of an exponential's root.
        let g = |x: f64| Ok((-x).exp() - 0.5);
        let r = solve(&g, [1e-3, 1e2], XTOL, 0.0).unwrap().root.unwrap();
        assert!((r - 2f64.ln()).abs() < 2.0 * XTOL * r, "{r}");
        // A non-monotone function: two brackets, the first refined.
        let h = |x: f64| Ok((x - 1.0) * (x - 3.0));
        let s = solve(&h, [0.0, 4.5], XTOL, 0.0).unwrap();
        assert_eq!(s.brackets, 2);
        assert!((s.root.unwrap() - 1.0).abs() < 1e-5);
        // A step function (a count of elements): the bracket closes on the jump by bisection
        // once regula falsi stalls, in far fewer than MAX_EVALUATIONS, and the jump is reported
        // with both sides, not as a root.
        let step = |x: f64| Ok((x / 0.1).floor() * 0.1 - 0.537);
        let s = solve(&step, [0.0, 1.0], XTOL, 0.0).unwrap();
        assert_eq!(s.root, None);
        let j = s.jump.unwrap();
        assert!(
            (j.at[0] - 0.6).abs() < 2.0 * XTOL * 0.6 && j.at[1] - j.at[0] <= XTOL * 0.6,
            "{j:?}"
        );
        assert!((j.from + 0.037).abs() < 1e-12 && (j.to - 0.063).abs() < 1e-12, "{j:?}");
        assert!(s.evaluations <= 9 + 20, "{}", s.evaluations);
        // Within a tolerance larger than the jump it is no jump: the nearer side is the root.
        let loose = solve(&step, [0.0, 1.0], XTOL, 0.2).unwrap();
        assert_eq!(loose.jump, None);
        assert!((loose.root.unwrap() - 0.6).abs() < 2.0 * XTOL * 0.6, "{:?}", loose.root);
        // A jump in the first bracket and a root in a later one: the root, and the jump.
        let both = |x: f64| Ok(if x < 0.3 { -1.0 } else { 1.0 - x });
        let b = solve(&both, [0.0, 2.0], XTOL, 0.0).unwrap();
        assert!((b.root.unwrap() - 1.0).abs() < 2.0 * XTOL, "{:?}", b.root);
        assert!((b.jump.unwrap().at[0] - 0.3).abs() < 1e-3, "{:?}", b.jump);
        // A steep but continuous function is no jump.
        let steep = |x: f64| Ok((50.0 * (x - 0.61)).tanh());
        let t = solve(&steep, [0.0, 1.0], XTOL, 0.0).unwrap();
        assert_eq!(t.jump, None);
        assert!((t.root.unwrap() - 0.61).abs() < 2.0 * XTOL, "{:?}", t.root);
        // A coarser precision closes on the same jump in fewer steps.
        let coarse = solve(&step, [0.0, 1.0], 1e-2, 0.0).unwrap();
        assert!(
            (coarse.jump.unwrap().at[0] - 0.6).abs() < 2e-2 * 0.6,
            "{:?}",
            coarse.jump
        );
        assert!(
            coarse.evaluations < s.evaluations,
            "{} vs {}",
            coarse.evaluations,
            s.evaluations
        );
        // A range of hundreds of decades is scanned without overflow.
        let xs = scan_points([1e-300, 1e300]);
        assert!(xs.windows(2).all(|w| w[0].is_finite() && w[0] < w[1]), "{xs:?}");
        assert_eq!((xs[0], xs[SCAN_POINTS - 1]), (1e-300, 1e300));
        // An evaluation error is an error.
        assert!(solve(&|_| Err::<f64, _>("boom".to_string()), [0.0, 1.0], XTOL, 0.0).is_err());
    }
}
