//! Which parameter value would explain a known discrepancy: for each `explain` entry of a
//! check, `metric(p) = expected` solved over its range ([`super::solve`]), every step a variant
//! of the manifest through the run cache, each step's metric kept in a [`StepMemo`].

use super::fetch::{evaluate, fetch_serial};
use super::horizon::{horizon, shorten};
use super::solve::{solve, solve_confirmed, XTOL};
use crate::entry::Entry;
use crate::load;
use crate::options::Options;
use crate::overrides::variant;
use crate::store::RunCache;
use fric_manifest::member::is_run_or_member;
use fric_report::{CheckReport, Explained, Jump};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Mutex;

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
        // Each step's run ends where the metric stops reading it (super::horizon).
        let until = horizon(&e.manifest, &spec.metric, &x.run);
        let at = |p: f64, until: Option<f64>| -> Result<f64, String> {
            let v = shorten(variant(e, &x.run, &[(x.param.clone(), p)])?, &x.run, until)?;
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
        // Solved on the shortened runs, the answer confirmed on whole ones (solve_confirmed);
        // without a horizon both are the same runs: solved once (a confirmation would only count
        // memo hits as runs).
        let s = if until.is_some() {
            solve_confirmed(&|p| at(p, until), &|p| at(p, None), x.range, xtol, ftol)?
        } else {
            solve(&|p| at(p, None), x.range, xtol, ftol)?
        };
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
            skipped: s.skipped,
            skipped_narrowing: s.skipped_narrowing,
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
    // Only that manifest and what it references are read (an id is a glob matching itself).
    let mut loaded = load::load_only(&opts.root, &[id.to_string()]).unwrap_or_else(|_| load::load(&opts.root));
    crate::fitted_params::resolve(&opts.root, &opts.run_cache(), &mut loaded);
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
        fric_manifest::Provenance::Transcribed { line, .. } => format!("transcribed, line {line}"),
        fric_manifest::Provenance::Derived(d) => format!("derived: {d}"),
        fric_manifest::Provenance::Claim { lines: l, .. } => format!("a claim, lines {}", lines(l)),
    }
}
