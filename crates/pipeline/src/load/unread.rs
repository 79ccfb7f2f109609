//! Under `--only`, only the selected manifests and what they reference are read: the files under
//! `experiments/` are listed (not read), the selected ones are read, then transitively every
//! manifest one of them names (`runs: from:`, `panels_from`, `related: companion-of`) and every
//! one whose record names one of them as its companion (the relation is symmetric). Each other
//! manifest stands as the last run that read it recorded it ([`RECORD`]): its slim form
//! ([`slim`]: what the report's site, coverage table, assumption counts and companion groups
//! read) or that it was invalid, valid while the file's length and modification time are the
//! recorded ones. A file with no such record is left out (named once in the run's summary)
//! until a run reads it.

use fric_manifest::{Manifest, Relation};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Where every run writes what it knows of each manifest (`figures/`, beside `report.json`).
pub const RECORD: &str = "figures/manifests.json";

/// A manifest file as a run read it: its length and modification time (ns since the epoch)
/// before it was read, and what loading it outside a selection gave: its slim manifest (it
/// parsed, its constants and inherited panels resolved), or `None` (invalid; `invalid_id` its
/// id when it had one).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Recorded {
    pub len: u64,
    pub modified_ns: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<Manifest>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_id: Option<String>,
}

/// The records by file (`experiments/<doc>/<name>.yaml`).
pub type Records = BTreeMap<String, Recorded>;

/// The length and modification time of `path` (not following a link), or `None`.
pub(super) fn stat(path: &Path) -> Option<(u64, u64)> {
    let md = std::fs::symlink_metadata(path).ok()?;
    let ns = md
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some((md.len(), u64::try_from(ns).ok()?))
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

/// The record of a manifest read at `at`: `Some(slim)` when it loads as an unselected manifest,
/// else invalid with `invalid_id`. `None` when its slim form does not survive the JSON round trip
/// (it is then read by the next run again rather than recorded wrongly).
pub(super) fn record(at: (u64, u64), manifest: Option<&Manifest>, invalid_id: Option<String>) -> Option<Recorded> {
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
        len: at.0,
        modified_ns: at.1,
        manifest,
        invalid_id,
    })
}

/// The records the last run wrote (none when absent, unreadable or not ours).
pub(crate) fn read(root: &Path) -> Records {
    crate::readfile::read_if_present(&root.join(RECORD), crate::readfile::INPUT)
        .ok()
        .flatten()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Write `records` (only when changed).
pub(crate) fn write(root: &Path, records: &Records) -> Result<(), String> {
    let json = serde_json::to_vec_pretty(records).map_err(|e| e.to_string())?;
    crate::store::write_if_changed(&root.join(RECORD), &json)
        .map(|_| ())
        .map_err(|e| format!("{RECORD}: {e}"))
}

/// The manifest ids `m` names: its runs' `from:` manifests, `panels_from` and its companions.
pub(super) fn named(m: &Manifest) -> impl Iterator<Item = &str> {
    m.runs
        .iter()
        .filter_map(|r| r.from.as_deref())
        .map(|f| f.split_once('#').map_or(f, |x| x.0))
        .chain(m.panels_from.as_deref())
        .chain(
            m.related
                .iter()
                .filter(|r| r.relation == Relation::CompanionOf)
                .map(|r| r.id.as_str()),
        )
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

/// The record of `file` when it is current (the file's length and modification time are the
/// recorded ones).
pub(super) fn current<'a>(records: &'a Records, root: &Path, file: &str) -> Option<&'a Recorded> {
    let r = records.get(file)?;
    (stat(&root.join(file)) == Some((r.len, r.modified_ns))).then_some(r)
}
