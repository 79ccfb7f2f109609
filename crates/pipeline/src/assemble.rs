//! The report of a pipeline run assembled from its parts: the manifests evaluated now, the
//! current ones (from their stamps), the invalid ones, and with `--only` what the last report
//! said about the others.

use crate::entries::Built;
use crate::entry::{InvalidManifest, Loaded};
use crate::entry_report::registry_report;
use crate::selection::{invalid_id, Selection};
use crate::status;
use crate::summary::Summary;
use fric_report::{ExperimentReport, ItemKind, Report};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The experiments of the last `figures/report.json`, by id: none when it is absent or not a
/// report (it is replaced); an error when it cannot be read safely (not a regular file, or over
/// the input-file limit), since the entries of the manifests not selected would be lost.
fn previous(root: &Path) -> Result<BTreeMap<String, ExperimentReport>, String> {
    let mut by_id = BTreeMap::new();
    let path = root.join("figures/report.json");
    // Read and written back exactly: serde_json's float_roundtrip makes every number survive
    // the round trip.
    if let Some(old) = crate::readfile::read_if_present(&path, crate::readfile::INPUT)? {
        if let Ok(old) = serde_json::from_slice::<Report>(&old) {
            for e in old.experiments {
                by_id.insert(e.id.clone(), e);
            }
        }
    }
    Ok(by_id)
}

/// The report of an invalid manifest: its diagnostics as errors.
fn invalid_report(inv: &InvalidManifest) -> ExperimentReport {
    ExperimentReport {
        id: invalid_id(inv),
        status: "invalid".into(),
        errors: inv.diagnostics.iter().map(|d| d.to_string()).collect(),
        ..Default::default()
    }
}

/// Count the current manifests (`reused`) and the evaluated ones (`fresh`, with their seconds)
/// in `summary` and add their reports to `by_id`.
fn add_built(
    by_id: &mut BTreeMap<String, ExperimentReport>,
    reused: Vec<Option<ExperimentReport>>,
    fresh: Vec<(Built, crate::own_time::Spent)>,
    summary: &mut Summary,
) {
    for r in reused.into_iter().flatten() {
        // A computed manifest that is not built has no outputs: nothing drawn to be current.
        if !r.outputs.is_empty() {
            if r.kind == ItemKind::Figure {
                summary.figures_current += 1;
            } else {
                summary.tables += 1;
            }
        }
        by_id.insert(r.id.clone(), r);
    }
    for (b, secs) in fresh {
        let r = b.report;
        summary.evaluate_seconds.insert(r.id.clone(), secs);
        summary.draw_seconds.insert(r.id.clone(), b.draw);
        if b.drawn {
            summary.figures_drawn += 1;
        } else if r.kind == ItemKind::Figure && r.errors.is_empty() && !r.outputs.is_empty() {
            summary.figures_current += 1;
        }
        if b.table {
            summary.tables += 1;
        }
        by_id.insert(r.id.clone(), r);
    }
}

/// The experiments of the report, in id order: those `chosen` (the current ones `reused`, the
/// evaluated ones `fresh`, the others from the registry, the invalid ones) and, when `only`
/// restricted the selection, the others as the last report had them; counted in `summary`.
pub(crate) fn assemble(
    root: &Path,
    only: bool,
    loaded: &Loaded,
    chosen: &Selection,
    reused: Vec<Option<ExperimentReport>>,
    fresh: Vec<(Built, crate::own_time::Spent)>,
    summary: &mut Summary,
) -> Result<Vec<ExperimentReport>, String> {
    // With a selection, keep what the last report said about the others.
    let mut by_id = if only { previous(root)? } else { BTreeMap::new() };
    for e in &chosen.selected {
        if !e.manifest.status.is_built() {
            by_id.insert(e.manifest.id.clone(), registry_report(e));
        }
    }
    add_built(&mut by_id, reused, fresh, summary);
    let manifests: std::collections::HashMap<&str, &fric_manifest::Manifest> = loaded
        .entries
        .iter()
        .map(|e| (e.manifest.id.as_str(), &e.manifest))
        .collect();
    for e in &chosen.selected {
        if let Some(r) = by_id.get_mut(&e.manifest.id) {
            status::enforce(root, e, r, &manifests);
        }
    }
    for inv in &chosen.invalid {
        let r = invalid_report(inv);
        by_id.insert(r.id.clone(), r);
    }
    // Entries that no longer exist are dropped.
    let known: HashSet<String> = loaded
        .entries
        .iter()
        .map(|e| e.manifest.id.clone())
        .chain(loaded.invalid.iter().map(invalid_id))
        .collect();
    by_id.retain(|k, _| known.contains(k));
    summary.selected_ids = chosen
        .selected
        .iter()
        .map(|e| e.manifest.id.clone())
        .chain(chosen.invalid.iter().map(|i| invalid_id(i)))
        .collect();
    summary.only = only;
    Ok(by_id.into_values().collect())
}

#[cfg(all(test, unix))]
mod tests {
    use super::previous;
    use crate::readfile::testing::{mkfifo, within_10s};

    #[test]
    fn a_fifo_as_the_last_report_is_an_error_not_a_block() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join("figures")).unwrap();
        mkfifo(&d.path().join("figures/report.json"));
        let root = d.path().to_path_buf();
        let e = within_10s(move || previous(&root)).unwrap_err();
        assert!(e.contains("report.json: not a regular file (a FIFO)"), "{e}");
    }

    #[test]
    fn an_absent_or_garbled_last_report_is_empty() {
        let d = tempfile::tempdir().unwrap();
        assert!(previous(d.path()).unwrap().is_empty());
        std::fs::create_dir(d.path().join("figures")).unwrap();
        std::fs::write(d.path().join("figures/report.json"), "not json").unwrap();
        assert!(previous(d.path()).unwrap().is_empty());
    }
}
