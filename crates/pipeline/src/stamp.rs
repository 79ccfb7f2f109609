//! The stamp of a built manifest: what its last evaluation produced (its report: metrics,
//! checks, outputs), the key of everything that evaluation depended on, and the sha256 of every
//! output file it wrote. A run of the pipeline whose key matches and whose outputs are intact
//! reuses the report without reading any run data, so a run with nothing to do costs a few
//! small reads and one `stat` per output, independent of the size of the cached runs and of the
//! outputs: an output whose size, times and inode are those recorded ([`crate::filestat`]) is
//! taken as intact, any other is hashed. A damaged or deleted output fails the check, and the
//! manifest is evaluated and drawn again; with `verify` every output is hashed.

use crate::entry::Entry;
use crate::filestat::{stats_of, FileStat};
use crate::fingerprint::RENDER_FINGERPRINT;
use crate::hash::sha256_hex;
use crate::store::{output_path, write_atomic};
use fric_report::ExperimentReport;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stamp {
    /// [`eval_key`] of the manifest when it was evaluated.
    pub key: String,
    /// The render key of the drawing, for figures.
    #[serde(default)]
    pub render_key: Option<String>,
    pub report: ExperimentReport,
    /// Output file (relative to the root) → sha256 of its bytes.
    pub outputs: BTreeMap<String, String>,
    /// Output file → its stat when the sha256 was last confirmed (absent: hash it).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, FileStat>,
    /// The sha256 of everything above but the stats ([`Stamp::checksum`]): a hand-edited stamp
    /// (a metric value changed in its report) is caught like a tampered cache entry and the
    /// manifest evaluated again. Absent in stamps written before it was recorded: not trusted.
    #[serde(default)]
    pub sha256: Option<String>,
}

impl Stamp {
    /// The checksum of the stamp's key, render key, report and outputs.
    pub fn checksum(&self) -> String {
        let v = serde_json::json!([self.key, self.render_key, self.report, self.outputs]);
        sha256_hex(v.to_string().as_bytes())
    }
}

/// Key of everything an evaluation depends on: the whole manifest, its resolved runs (whose keys
/// cover the computing code), the code that evaluates, draws and exports, and the run cache it
/// read them from when that is not the workspace's own ([`cache_scope`]): a stamp written with
/// one `--cache` says nothing about what another holds, so `plan` and `figures` with another
/// cache (a shared one filled by shards) do not take its manifests for done.
pub fn eval_key(e: &Entry, cache: Option<&str>) -> String {
    let runs: Vec<(&String, &String, &Vec<fric_manifest::PostOp>)> =
        e.runs.iter().map(|(id, r)| (id, &r.key, &r.post)).collect();
    let mut v = serde_json::json!({
        "v": 1,
        "file": e.file,
        "manifest": e.manifest,
        "runs": runs,
        "sweeps": e.sweeps,
        "code": RENDER_FINGERPRINT,
    });
    // The manifests whose fits a `fitted` metric takes a value of (absent without: the keys of
    // stamps written before stay valid): a changed fit there evaluates this one again.
    if !e.fit_sources.is_empty() {
        let sources: Vec<_> = e
            .fit_sources
            .iter()
            .map(|s| {
                let runs: Vec<(&String, &String)> = s.runs.iter().map(|(id, r)| (id, &r.key)).collect();
                serde_json::json!({"file": s.file, "manifest": s.manifest, "runs": runs})
            })
            .collect();
        v["fit_sources"] = serde_json::Value::Array(sources);
    }
    // Absent for the workspace's own cache: the keys of stamps written before stay valid.
    if let Some(c) = cache {
        v["cache"] = serde_json::Value::String(c.to_string());
    }
    sha256_hex(v.to_string().as_bytes())
}

/// The run cache a stamp is keyed by: None for the workspace's own (`data/cache/runs`, also when
/// `--cache` names it), else the `--cache` directory, canonical when it exists.
pub fn cache_scope(opts: &crate::options::Options) -> Option<String> {
    let own = opts.root.join("data/cache/runs");
    let dir = opts.cache_dir.as_ref()?;
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let dir = canon(dir);
    (dir != canon(&own)).then(|| dir.to_string_lossy().into_owned())
}

fn path(root: &Path, id: &str) -> Result<std::path::PathBuf, String> {
    output_path(root, &format!("data/cache/entries/{id}.json"))
}

/// The stamp of manifest `id`, if one was written, parses and matches its checksum.
pub fn read(root: &Path, id: &str) -> Option<Stamp> {
    let bytes = crate::readfile::read(&path(root, id).ok()?, crate::readfile::INPUT).ok()?;
    let s: Stamp = serde_json::from_slice(&bytes).ok()?;
    (s.sha256.as_deref() == Some(s.checksum().as_str())).then_some(s)
}

/// Write the stamp of manifest `id`, with its checksum.
pub fn write(root: &Path, id: &str, s: &Stamp) -> Result<(), String> {
    let p = path(root, id)?;
    let mut s = s.clone();
    s.sha256 = Some(s.checksum());
    let bytes = serde_json::to_vec(&s).map_err(|e| e.to_string())?;
    write_atomic(&p, &bytes).map_err(|e| format!("{}: {e}", p.display()))
}

/// Remove the stamp of manifest `id` (if any): it is evaluated again next time.
pub fn remove(root: &Path, id: &str) {
    if let Ok(p) = path(root, id) {
        let _ = std::fs::remove_file(p);
    }
}

/// Whether every recorded output exists with the recorded content: an output whose stat is the
/// recorded one (`stats`) without reading it, any other by its hash.
pub fn outputs_intact(root: &Path, outputs: &BTreeMap<String, String>, stats: &BTreeMap<String, FileStat>) -> bool {
    outputs.iter().all(|(rel, sha)| {
        let Ok(p) = output_path(root, rel) else {
            return false;
        };
        if stats.get(rel).is_some_and(|s| FileStat::of(&p).as_ref() == Some(s)) {
            return true;
        }
        // Through the bounded reader: a FIFO at a recorded output is not intact (and is
        // replaced when the manifest is drawn again), never opened.
        crate::readfile::read(&p, crate::readfile::INPUT).is_ok_and(|b| sha256_hex(&b) == *sha)
    })
}

/// The stamp's report if it is current for `e` and its outputs are intact (all hashed when
/// `verify`). With `record`, outputs confirmed by their hash have their stats recorded again
/// (a copied or touched output is hashed once, not on every run).
pub fn reusable(root: &Path, e: &Entry, key: &str, verify: bool, record: bool) -> Option<ExperimentReport> {
    let mut s = read(root, &e.manifest.id)?;
    if verify {
        s.stats.clear();
    }
    if s.key != key || !outputs_intact(root, &s.outputs, &s.stats) {
        return None;
    }
    let now = if record {
        stats_of(root, s.outputs.keys())
    } else {
        s.stats.clone()
    };
    if now != s.stats {
        s.stats = now;
        // Best effort: a stamp that cannot be rewritten is only hashed again next time.
        let _ = write(root, &e.manifest.id, &s);
    }
    Some(s.report)
}
