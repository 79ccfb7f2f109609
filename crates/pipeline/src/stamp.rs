//! The stamp of a built manifest: what its last evaluation produced (its report: metrics,
//! checks, outputs), the key of everything that evaluation depended on, and the sha256 of every
//! output file it wrote. A run of the pipeline whose key matches and whose outputs are intact
//! reuses the report without reading any run data, so a run with nothing to do costs a few
//! small reads and the hashing of the outputs, independent of the size of the cached runs.
//! A damaged or deleted output fails the check, and the manifest is evaluated and drawn again.

use crate::hash::sha256_hex;
use crate::load::Entry;
use crate::store::{output_path, write_atomic};
use crate::RENDER_FINGERPRINT;
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
}

/// Key of everything an evaluation depends on: the whole manifest, its resolved runs (whose keys
/// cover the computing code), and the code that evaluates, draws and exports.
pub fn eval_key(e: &Entry) -> String {
    let runs: Vec<(&String, &String, &Vec<fric_manifest::PostOp>)> =
        e.runs.iter().map(|(id, r)| (id, &r.key, &r.post)).collect();
    let v = serde_json::json!({
        "v": 1,
        "file": e.file,
        "manifest": e.manifest,
        "runs": runs,
        "sweeps": e.sweeps,
        "code": RENDER_FINGERPRINT,
    });
    sha256_hex(v.to_string().as_bytes())
}

fn path(root: &Path, id: &str) -> Result<std::path::PathBuf, String> {
    output_path(root, &format!("data/cache/entries/{id}.json"))
}

/// The stamp of manifest `id`, if one was written and parses.
pub fn read(root: &Path, id: &str) -> Option<Stamp> {
    let bytes = std::fs::read(path(root, id).ok()?).ok()?;
    serde_json::from_slice(&bytes).ok()
}

pub fn write(root: &Path, id: &str, s: &Stamp) -> Result<(), String> {
    let p = path(root, id)?;
    let bytes = serde_json::to_vec(s).map_err(|e| e.to_string())?;
    write_atomic(&p, &bytes).map_err(|e| format!("{}: {e}", p.display()))
}

/// Whether every recorded output exists with the recorded content.
pub fn outputs_intact(root: &Path, outputs: &BTreeMap<String, String>) -> bool {
    outputs.iter().all(|(rel, sha)| {
        output_path(root, rel)
            .ok()
            .and_then(|p| std::fs::read(p).ok())
            .is_some_and(|b| sha256_hex(&b) == *sha)
    })
}

/// The stamp's report if it is current for `e` and its outputs are intact.
pub fn reusable(root: &Path, e: &Entry, key: &str) -> Option<ExperimentReport> {
    let s = read(root, &e.manifest.id)?;
    (s.key == key && outputs_intact(root, &s.outputs)).then_some(s.report)
}
