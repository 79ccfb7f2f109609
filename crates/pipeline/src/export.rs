//! `cargo xtask export <experiment>`: every series a figure plots, at full resolution, from the
//! run cache. The series files beside a figure (`figures/<doc>/<name>/<panel>-<k>.csv`) hold the
//! samples the drawing needs (sized to the ink, see `fric_plot::reduce`); these hold every sample
//! of the same series, under the same names: `<out>/<doc>/<name>/<panel>-<k>.csv` (or
//! `.parquet`), `out` defaulting to `data/export`. A run missing from the cache is computed.

use crate::entry::Entry;
use crate::entry_report::{registry_report, with_run_data};
use crate::load;
use crate::options::Options;
use crate::sensitivity::fetch::fetch_one;
use crate::store::{output_path, write_atomic};
use crate::{frames, render, stamp};
use fric_experiments::RunData;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file format of an export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    Parquet,
}

impl Format {
    fn ext(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
        }
    }
}

/// Parse `csv` or `parquet`.
pub fn parse_format(s: &str) -> Result<Format, String> {
    match s {
        "csv" => Ok(Format::Csv),
        "parquet" => Ok(Format::Parquet),
        _ => Err(format!("unknown format `{s}`: csv or parquet")),
    }
}

/// One series: its file name (`<panel>-<k>`, no extension) and its columns.
pub type Series = (String, Vec<(String, Vec<f64>)>);

/// The full-resolution series of figure manifest `id` (runs from `opts`' cache), in the order
/// the figure draws them.
pub fn series(opts: &Options, id: &str) -> Result<Vec<Series>, String> {
    let mut loaded = load::load(&opts.root);
    crate::fitted_params::resolve(&opts.root, &opts.run_cache(), &mut loaded);
    series_in(opts, &loaded, id)
}

/// [`series`] with the manifests already loaded (`crate::load`).
pub fn series_in(opts: &Options, loaded: &load::Loaded, id: &str) -> Result<Vec<Series>, String> {
    let root = &opts.root;
    let e = loaded.entries.iter().find(|e| e.manifest.id == id).ok_or_else(|| {
        format!("no valid manifest has the id `{id}` (`cargo xtask list --status reproduced` lists them)")
    })?;
    if e.manifest.panels.is_empty() {
        return Err(format!("`{id}` plots no series (not a figure)"));
    }
    let data = run_data(opts, e)?;
    let metrics = metrics_of(root, e, stamp::cache_scope(opts).as_deref())?;
    let mut rep = registry_report(e);
    let fitted = crate::marks::fitted_runs(&opts.run_cache(), e, &metrics)?;
    let built = with_run_data(e, &data, &HashMap::new(), &mut rep, |runs, _| {
        render::build(e, runs, &metrics, &fitted)
    });
    let (_, csvs) = match built {
        Some(b) => b?,
        None => return Err(rep.errors.join("; ")),
    };
    Ok(csvs
        .into_iter()
        .map(|c| (c.name.trim_end_matches(".csv").to_string(), c.columns))
        .collect())
}

/// Write the full-resolution series of `id` under `out` (default `data/export`); the files
/// written.
pub fn export(opts: &Options, id: &str, format: Format, out: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let mut written = Vec::new();
    for (name, columns) in series(opts, id)? {
        let rel = format!("{id}/{name}.{}", format.ext());
        let path = match out {
            Some(dir) => dir.join(&rel),
            None => output_path(&opts.root, &format!("data/export/{rel}"))?,
        };
        let bytes = match format {
            Format::Csv => frames::to_csv(&columns)?,
            Format::Parquet => frames::to_parquet(&columns)?,
        };
        write_atomic(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// The data of every run of `e` by key: from the cache, or computed (and cached) when missing.
fn run_data(opts: &Options, e: &Entry) -> Result<HashMap<String, Arc<RunData>>, String> {
    let cache = opts.run_cache();
    let mut data = HashMap::new();
    for (id, r) in &e.runs {
        if data.contains_key(&r.key) {
            continue;
        }
        let d = fetch_one(&cache, r).map_err(|err| format!("run `{id}`: {err}"))?;
        data.insert(r.key.clone(), Arc::new(d));
    }
    Ok(data)
}

/// The metric values a figure's metric series plot, from its last evaluation (its stamp).
fn metrics_of(root: &Path, e: &Entry, cache: Option<&str>) -> Result<BTreeMap<String, Option<f64>>, String> {
    let plots_metrics = e
        .manifest
        .panels
        .iter()
        // A metric series, and a find's or a fit's marks (drawn from their results).
        .any(|p| {
            p.series
                .iter()
                .any(|s| s.metric.is_some() || s.find.is_some() || s.fit.is_some())
        });
    if !plots_metrics {
        return Ok(BTreeMap::new());
    }
    stamp::read(root, &e.manifest.id)
        .filter(|s| s.key == stamp::eval_key(e, cache))
        .map(|s| s.report.metrics)
        .ok_or_else(|| {
            format!(
                "`{}` plots metrics: run `cargo xtask figures --only '{}'` first",
                e.manifest.id, e.manifest.id
            )
        })
}
