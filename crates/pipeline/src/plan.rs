//! A dry run: what [`crate::run::run`] would compute and draw with the same options, found by
//! read-only lookups in the manifest stamps and the run cache. Nothing is computed or written.

use crate::entry::{Entry, InvalidManifest};
use crate::load;
use crate::options::Options;
use crate::render::render_key;
use crate::selection::{select, selector, Selection};
use crate::stamp;
use crate::store::Probe;
use fric_manifest::Kind;
use std::collections::BTreeMap;
use std::path::Path;

/// Why a run would be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// Not in the cache.
    Missing,
    /// In the cache but failing verification.
    Corrupt(String),
    /// `--force`.
    Forced,
}

/// A run that would be computed.
#[derive(Clone, Debug)]
pub struct PlannedRun {
    pub key: String,
    pub system: String,
    /// `<manifest id>#<run id>` of every selected manifest that uses it, sorted.
    pub used_by: Vec<String>,
    pub reason: Reason,
    /// Estimated cost, [`cost`].
    pub cost: f64,
}

/// An estimate of a run's cost in integration steps ([`fric_experiments::cost`], the system's
/// own estimate). Only ratios matter: it orders the runs (longest first) and balances shards
/// and sizes a Slurm array.
pub fn cost(request: &fric_experiments::RunRequest) -> f64 {
    fric_experiments::cost(request)
}

/// What a pipeline run with the same options would do.
#[derive(Debug, Default)]
pub struct Plan {
    pub manifests: usize,
    pub selected: usize,
    pub invalid: Vec<InvalidManifest>,
    /// Distinct runs of the selected, built manifests.
    pub runs_total: usize,
    /// The runs to compute, by system, then key.
    pub to_compute: Vec<PlannedRun>,
    /// Figures among the selected, built manifests.
    pub figures_total: usize,
    /// Ids of the figures to draw (render stamp stale, an output missing, or `--force`).
    pub to_draw: Vec<String>,
    /// Tables that would be rendered (written only if their text changed).
    pub tables: usize,
}

/// Check an `--only` pattern: a glob on manifest ids (`thesis/fig1.*`).
pub fn pattern(s: &str) -> Result<String, String> {
    globset::Glob::new(s)
        .map(|_| s.to_string())
        .map_err(|e| format!("not a glob pattern: {}", e.kind()))
}

/// Plan a run of the pipeline with `opts` (`jobs` and `progress` are ignored).
pub fn plan(opts: &Options) -> Result<Plan, String> {
    let root = &opts.root;
    let sel = selector(&opts.only)?;
    let mut loaded = load::load_selected(root, sel.as_ref());
    // Fitted run parameters set first (their fits evaluated here, serially): the plan's keys.
    crate::fitted_params::resolve(root, &opts.run_cache(), &mut loaded);
    let Selection {
        selected,
        built,
        run_keys,
        invalid,
    } = select(&loaded, sel.as_ref());
    // Only the selected invalid manifests are reported (and counted as selected), as a run does.
    let invalid: Vec<InvalidManifest> = invalid.into_iter().cloned().collect();
    // A manifest whose stamp is current (for this cache) and whose outputs are intact is
    // skipped whole.
    let scope = stamp::cache_scope(opts);
    let todo: Vec<&Entry> = built
        .iter()
        .copied()
        .filter(|e| {
            opts.force || stamp::reusable(root, e, &stamp::eval_key(e, scope.as_deref()), opts.verify, false).is_none()
        })
        .collect();
    let mut runs: BTreeMap<&str, (&fric_experiments::RunRequest, Vec<String>)> = BTreeMap::new();
    // A companion figure's runs are read for the figures it chooses the units of, as a run
    // reads them ([`crate::companions::runs_with_companions`]), also when it is current.
    for e in &todo {
        for m in std::iter::once(*e).chain(&e.companions) {
            for (id, r) in &m.runs {
                let (_, used_by) = runs.entry(&r.key).or_insert((&r.request, Vec::new()));
                let user = fric_manifest::run_ref::RunRef::new(&m.manifest.id, id).to_string();
                if !used_by.contains(&user) {
                    used_by.push(user);
                }
            }
        }
    }
    let cache = opts.run_cache();
    let mut to_compute: Vec<PlannedRun> = runs
        .iter()
        .filter_map(|(key, (request, used_by))| {
            let reason = if opts.force {
                Reason::Forced
            } else {
                match cache.probe(key, request) {
                    Probe::Hit => return None,
                    Probe::Miss => Reason::Missing,
                    Probe::Corrupt(why) => Reason::Corrupt(why),
                }
            };
            let mut used_by = used_by.clone();
            used_by.sort();
            Some(PlannedRun {
                key: key.to_string(),
                system: request.system.clone(),
                used_by,
                reason,
                cost: cost(request),
            })
        })
        .collect();
    to_compute.sort_by(|a, b| (&a.system, &a.key).cmp(&(&b.system, &b.key)));
    let figures: Vec<&Entry> = built
        .iter()
        .copied()
        .filter(|e| e.manifest.kind == Kind::Figure)
        .collect();
    let to_draw = todo
        .iter()
        .filter(|e| e.manifest.kind == Kind::Figure && (opts.force || !drawing_current(root, e, opts.verify)))
        .map(|e| e.manifest.id.clone())
        .collect();
    Ok(Plan {
        manifests: loaded.entries.len() + loaded.invalid.len(),
        selected: selected.len() + invalid.len(),
        runs_total: run_keys.len(),
        to_compute,
        figures_total: figures.len(),
        to_draw,
        tables: built.len() - figures.len(),
        invalid,
    })
}

/// Whether `render::render` would keep this figure's drawing: the stamp holds the current render
/// key and every output it recorded is intact (all hashed when `verify`).
fn drawing_current(root: &Path, e: &Entry, verify: bool) -> bool {
    stamp::read(root, &e.manifest.id).is_some_and(|mut s| {
        if verify {
            s.stats.clear();
        }
        s.render_key.as_deref() == Some(render_key(e, &s.report.metrics).as_str())
            && stamp::outputs_intact(root, &s.outputs, &s.stats)
    })
}
