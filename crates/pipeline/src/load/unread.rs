//! Under `--only`, only the selected manifests and what they reference are read: the files under
//! `experiments/` are listed (not read), the selected ones are read, then transitively every
//! manifest one of them names (`runs: from:`, `panels_from`, `related: companion-of`, the fits
//! its `fitted` metrics take) and every one whose record names one of them as its companion (the
//! relation is symmetric). Each other manifest stands as the last run that read it recorded it
//! in [`RECORD`]: its slim form ([`slim`]: what the report's site, coverage table, assumption
//! counts and companion groups read) or that it was invalid, valid while the file's content has
//! the recorded SHA-256 (its length is compared first, so a changed length costs no read). A
//! file with no such record is left out (named once in the run's summary) until a run reads it.
//!
//! The record lives in `data/cache/`, never under `figures/`: it is a cache of this workspace's
//! reads, not an output, and `figures/` stays byte-identical between `--jobs`, shards and copies
//! of the workspace. It holds no modification time, only content hashes, so a copy or a fresh
//! checkout of the same files finds its records current. It is written atomically with a
//! checksum over its content; a record that does not parse or whose checksum is wrong (a
//! truncated or hand-edited file) is ignored with a warning and rebuilt by the run.

use crate::hash::sha256_hex;
use fric_manifest::{Manifest, Relation};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Where every run writes what it knows of each manifest (the workspace's cache, not an output).
pub const RECORD: &str = "data/cache/manifests.json";

/// The record's format: a record of another format is rebuilt.
const FORMAT: u32 = 1;

/// A manifest file as a run read it: its length and the SHA-256 of its bytes, and what loading
/// it outside a selection gave: its slim manifest (it parsed, its constants and inherited panels
/// resolved), or `None` (invalid; `invalid_id` its id when it had one).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Recorded {
    pub len: u64,
    pub sha256: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<Manifest>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_id: Option<String>,
}

/// The records by file (`experiments/<doc>/<name>.yaml`).
pub type Records = BTreeMap<String, Recorded>;

/// The file [`RECORD`] as written: its format, the records and their checksum.
#[derive(Serialize, Deserialize)]
struct File {
    format: u32,
    /// SHA-256 of the records' JSON ([`checksum`]).
    sha256: String,
    manifests: Records,
}

fn checksum(records: &Records) -> String {
    sha256_hex(serde_json::to_string(records).unwrap_or_default().as_bytes())
}

/// The SHA-256 of a manifest file's bytes.
pub(super) fn digest(bytes: &[u8]) -> String {
    sha256_hex(bytes)
}

/// `m` without what only building it reads (runs, layout, panels, metrics, finds, fits, checks,
/// table): a 50 MB manifest's record stays small.
pub(super) fn slim(m: &Manifest) -> Manifest {
    Manifest {
        id: m.id.clone(),
        kind: m.kind,
        source: m.source.clone(),
        content: m.content,
        status: m.status,
        reason: m.reason.clone(),
        related: m.related.clone(),
        assumptions: m.assumptions.clone(),
        not_built: m.not_built.clone(),
        runs: Vec::new(),
        layout: None,
        panels: Vec::new(),
        panels_from: m.panels_from.clone(),
        panels_relabel: Vec::new(),
        metrics: Vec::new(),
        find: Vec::new(),
        fit: Vec::new(),
        checks: Vec::new(),
        table: None,
    }
}

/// The record of a manifest of `len` bytes hashing to `sha256`: `Some(slim)` when it loads as
/// an unselected manifest, else invalid with `invalid_id`. `None` when its slim form does not
/// survive the JSON round trip (it is then read by the next run again rather than recorded
/// wrongly).
pub(super) fn record(
    len: u64,
    sha256: &str,
    manifest: Option<&Manifest>,
    invalid_id: Option<String>,
) -> Option<Recorded> {
    let manifest = manifest.map(slim);
    if let Some(m) = &manifest {
        let back: Option<Manifest> = serde_json::to_value(m)
            .ok()
            .and_then(|v| serde_json::from_value(v).ok());
        if back.as_ref() != Some(m) {
            return None;
        }
    }
    Some(Recorded {
        len,
        sha256: sha256.to_string(),
        manifest,
        invalid_id,
    })
}

/// The records the last run wrote: none when absent; none with a warning (the record is then
/// rebuilt by this run) when unreadable, of another format, or its checksum does not match.
pub(crate) fn read(root: &Path) -> (Records, Option<String>) {
    let bad = |why: String| {
        let w = format!("{RECORD}: {why}; ignored, and rebuilt by this run (the manifests outside --only it alone knew are left out until a run reads them)");
        (Records::new(), Some(w))
    };
    let bytes = match crate::readfile::read_if_present(&root.join(RECORD), crate::readfile::INPUT) {
        Ok(None) => return (Records::new(), None),
        Ok(Some(b)) => b,
        Err(e) => return bad(format!("unreadable ({e})")),
    };
    match serde_json::from_slice::<File>(&bytes) {
        Err(e) => bad(format!("corrupt ({e})")),
        Ok(f) if f.format != FORMAT => bad(format!("format {} (this build writes {FORMAT})", f.format)),
        Ok(f) if f.sha256 != checksum(&f.manifests) => bad("its checksum does not match its content".into()),
        Ok(f) => (f.manifests, None),
    }
}

/// Write `records` atomically (only when changed).
pub(crate) fn write(root: &Path, records: &Records) -> Result<(), String> {
    let file = File {
        format: FORMAT,
        sha256: checksum(records),
        manifests: records.clone(),
    };
    let json = serde_json::to_vec(&file).map_err(|e| e.to_string())?;
    crate::store::write_if_changed(&root.join(RECORD), &json)
        .map(|_| ())
        .map_err(|e| format!("{RECORD}: {e}"))
}

/// The manifest ids `m` names: its runs' `from:` manifests, `panels_from`, its companions and
/// the manifests whose fits its `fitted` metrics take.
pub(super) fn named(m: &Manifest) -> impl Iterator<Item = &str> {
    m.runs
        .iter()
        .filter_map(|r| r.from.as_deref())
        .map(fric_manifest::run_ref::RunRef::manifest_of)
        .chain(m.panels_from.as_deref())
        .chain(
            m.related
                .iter()
                .filter(|r| r.relation == Relation::CompanionOf)
                .map(|r| r.id.as_str()),
        )
        .chain(super::fit_ref_syntax::sources(m))
}

/// The files (of `listed`) whose current record names `id` as a companion.
pub(super) fn naming_as_companion<'a>(
    records: &'a Records,
    listed: &'a BTreeSet<String>,
    id: &'a str,
) -> impl Iterator<Item = &'a String> + 'a {
    records.iter().filter_map(move |(file, r)| {
        let names = r
            .manifest
            .as_ref()?
            .related
            .iter()
            .any(|x| x.relation == Relation::CompanionOf && x.id == id);
        (names && listed.contains(file)).then_some(file)
    })
}

/// The record of `file` when it is current: the file is a regular file of the recorded length
/// (a `stat`, no read) whose bytes hash to the recorded SHA-256 (read, never parsed).
pub(super) fn current<'a>(records: &'a Records, root: &Path, file: &str) -> Option<&'a Recorded> {
    let r = records.get(file)?;
    let path = root.join(file);
    let md = std::fs::metadata(&path).ok()?;
    if !md.is_file() || md.len() != r.len {
        return None;
    }
    let bytes = crate::readfile::read(&path, crate::readfile::MANIFEST).ok()?;
    (digest(&bytes) == r.sha256).then_some(r)
}
