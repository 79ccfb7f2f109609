//! A dry run: what [`crate::run`] would compute and draw with the same options, found by
//! read-only lookups in the run cache and the render stamps. Nothing is computed or written.

use crate::load::{self, Entry, InvalidManifest};
use crate::render::{out_base, out_file, render_key};
use crate::store::{Lookup, RunCache};
use crate::{selector, Options};
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
    let loaded = load::load(root);
    let selected: Vec<&Entry> = loaded
        .entries
        .iter()
        .filter(|e| sel.as_ref().is_none_or(|g| g.is_match(&e.manifest.id)))
        .collect();
    let built: Vec<&Entry> = selected
        .iter()
        .copied()
        .filter(|e| e.manifest.status.is_built())
        .collect();
    let mut runs: BTreeMap<&str, (&str, Vec<String>)> = BTreeMap::new();
    for e in &built {
        for (id, r) in &e.runs {
            let (_, used_by) = runs.entry(&r.key).or_insert((&r.request.system, Vec::new()));
            used_by.push(format!("{}#{id}", e.manifest.id));
        }
    }
    let cache = RunCache::new(root.join("data/cache/runs"));
    let mut to_compute: Vec<PlannedRun> = runs
        .iter()
        .filter_map(|(key, (system, used_by))| {
            let reason = if opts.force {
                Reason::Forced
            } else {
                match cache.get(key) {
                    Lookup::Hit(_) => return None,
                    Lookup::Miss => Reason::Missing,
                    Lookup::Corrupt(why) => Reason::Corrupt(why),
                }
            };
            let mut used_by = used_by.clone();
            used_by.sort();
            Some(PlannedRun {
                key: key.to_string(),
                system: system.to_string(),
                used_by,
                reason,
            })
        })
        .collect();
    to_compute.sort_by(|a, b| (&a.system, &a.key).cmp(&(&b.system, &b.key)));
    let figures: Vec<&Entry> = built
        .iter()
        .copied()
        .filter(|e| e.manifest.kind == Kind::Figure)
        .collect();
    let to_draw = figures
        .iter()
        .filter(|e| opts.force || !drawing_current(root, e))
        .map(|e| e.manifest.id.clone())
        .collect();
    Ok(Plan {
        manifests: loaded.entries.len() + loaded.invalid.len(),
        selected: selected.len(),
        runs_total: runs.len(),
        to_compute,
        figures_total: figures.len(),
        to_draw,
        tables: built.len() - figures.len(),
        invalid: loaded.invalid,
    })
}

/// Whether `render::render` would skip this figure: its stamp holds the current render key and
/// every output exists (the SVG, the PNG and one CSV per plotted series, `<panel>-<k>.csv`).
fn drawing_current(root: &Path, e: &Entry) -> bool {
    let id = &e.manifest.id;
    let stamp = root.join("data/cache/renders").join(format!("{id}.key"));
    if !std::fs::read_to_string(stamp).is_ok_and(|k| k == render_key(e)) {
        return false;
    }
    let dir = out_base(root, id);
    let mut outputs = vec![out_file(root, id, "svg"), out_file(root, id, "png")];
    for p in &e.manifest.panels {
        let series: usize = p.series.iter().map(|s| e.sweeps.get(&s.run).map_or(1, Vec::len)).sum();
        outputs.extend((1..=series).map(|k| dir.join(format!("{}-{k}.csv", p.id))));
    }
    outputs.iter().all(|p| p.exists())
}
