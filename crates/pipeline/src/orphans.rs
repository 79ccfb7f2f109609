//! Orphaned outputs: files in `figures/<doc>/` that no current manifest draws (its manifest was
//! deleted or renamed, is no longer built, or no longer draws that panel or format) and the
//! stamps of manifests that no longer exist. `cargo xtask clean --orphans` lists and removes
//! them; CI runs it.
//!
//! A file `figures/<doc>/<name>.<ext>` or `figures/<doc>/<name>/…` belongs to the manifest
//! `<doc>/<name>`. It is an orphan when that manifest is not a current built one (valid or
//! invalid: an invalid manifest's last outputs stay until it is fixed), or when the manifest's
//! stamp lists its outputs and the file is not among them. The per-document pages
//! (`figures/<doc>/index.html`) and every file directly in `figures/` are the run's own.

use crate::entry::Loaded;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The orphaned files under `root` (sorted), given the loaded manifests.
pub fn find(root: &Path, loaded: &Loaded) -> Vec<PathBuf> {
    let built: HashMap<&str, bool> = loaded
        .entries
        .iter()
        .map(|e| (e.manifest.id.as_str(), e.manifest.status.is_built()))
        .collect();
    let invalid: BTreeSet<String> = loaded.invalid.iter().map(invalid_id).collect();
    let mut out = Vec::new();
    let figures = root.join("figures");
    for doc in subdirs(&figures) {
        let doc_name = name_of(&doc);
        for e in walkdir::WalkDir::new(&doc).min_depth(1).into_iter().flatten() {
            if !e.file_type().is_file() {
                continue;
            }
            let rel = e.path().strip_prefix(&doc).unwrap_or(e.path());
            let Some(owner) = owner_name(rel) else {
                continue;
            };
            let id = format!("{doc_name}/{owner}");
            let orphan = if invalid.contains(&id) {
                false
            } else {
                match built.get(id.as_str()) {
                    Some(true) => !recorded(root, &id, e.path()),
                    _ => true,
                }
            };
            if orphan {
                out.push(e.into_path());
            }
        }
    }
    out.extend(stale_stamps(root, loaded));
    out.sort();
    out
}

/// Remove the orphans [`find`] lists and the directories they leave empty; returns them.
pub fn remove(root: &Path, loaded: &Loaded) -> std::io::Result<Vec<PathBuf>> {
    let found = find(root, loaded);
    for p in &found {
        std::fs::remove_file(p)?;
        // Empty figure directories go too (never figures/ or data/cache/entries/ themselves).
        let mut dir = p.parent();
        while let Some(d) = dir {
            if d == root.join("figures") || d == root.join("data/cache/entries") || std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
    Ok(found)
}

/// The manifest name a file under `figures/<doc>/` belongs to: the first component of a nested
/// path, else the file name without its extension (`fig1.5.pgf.tex` → `fig1.5`). None for the
/// document's page.
fn owner_name(rel: &Path) -> Option<String> {
    let mut comps = rel.components();
    let first = comps.next()?.as_os_str().to_string_lossy().into_owned();
    if comps.next().is_some() {
        return Some(first);
    }
    if first == "index.html" {
        return None;
    }
    [".pgf.tex", ".png", ".svg", ".tex", ".csv"]
        .iter()
        .find_map(|ext| first.strip_suffix(ext))
        .map(str::to_string)
}

/// Whether the stamp of manifest `id` lists `path` among its outputs; true when there is no stamp
/// (not yet evaluated: nothing says the file is not its).
fn recorded(root: &Path, id: &str, path: &Path) -> bool {
    let Some(s) = crate::stamp::read(root, id) else {
        return true;
    };
    let rel = path
        .strip_prefix(root)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    s.outputs.contains_key(&rel)
}

/// Stamps `data/cache/entries/<doc>/<name>.json` of manifests that no longer exist.
fn stale_stamps(root: &Path, loaded: &Loaded) -> Vec<PathBuf> {
    let ids: BTreeSet<String> = loaded
        .entries
        .iter()
        .map(|e| e.manifest.id.clone())
        .chain(loaded.invalid.iter().map(invalid_id))
        .collect();
    let mut out = Vec::new();
    for doc in subdirs(&root.join("data/cache/entries")) {
        let Ok(rd) = std::fs::read_dir(&doc) else { continue };
        for f in rd.flatten() {
            let file = f.file_name().to_string_lossy().into_owned();
            let Some(name) = file.strip_suffix(".json") else {
                continue;
            };
            if !ids.contains(&format!("{}/{name}", name_of(&doc))) && f.path().is_file() {
                out.push(f.path());
            }
        }
    }
    out
}

/// The id an invalid manifest stands for: its own, else its file's `<doc>/<name>`.
fn invalid_id(i: &crate::entry::InvalidManifest) -> String {
    i.id.clone().unwrap_or_else(|| {
        i.file
            .trim_start_matches("experiments/")
            .trim_end_matches(".yaml")
            .to_string()
    })
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
