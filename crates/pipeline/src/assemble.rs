//! The report of a pipeline run assembled from its parts: the manifests evaluated now, the
//! current ones (from their stamps), the invalid ones, and with `--only` what the last report
//! said about the others.

use crate::entries::Built;
use crate::entry::{InvalidManifest, Loaded};
use crate::entry_report::registry_report;
use crate::selection::{invalid_id, Selection};
use crate::status;
use crate::summary::Summary;
use fric_report::{ExperimentReport, Report};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The experiments of the last `figures/report.json`, by id (none when it is unreadable).
fn previous(root: &Path) -> BTreeMap<String, ExperimentReport> {
    let mut by_id = BTreeMap::new();
    // Read and written back exactly: serde_json's float_roundtrip makes every number survive
    // the round trip.
    if let Ok(old) = std::fs::read(root.join("figures/report.json")) {
        if let Ok(old) = serde_json::from_slice::<Report>(&old) {
            for e in old.experiments {
                by_id.insert(e.id.clone(), e);
            }
        }
    }
    by_id
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
    fresh: Vec<(Built, f64)>,
    summary: &mut Summary,
) {
    for r in reused.into_iter().flatten() {
        // A computed manifest that is not built has no outputs: nothing drawn to be current.
        if !r.outputs.is_empty() {
            if r.kind == "figure" {
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
        if b.drawn {
            summary.figures_drawn += 1;
        } else if r.kind == "figure" && r.errors.is_empty() && !r.outputs.is_empty() {
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
    fresh: Vec<(Built, f64)>,
    summary: &mut Summary,
) -> Vec<ExperimentReport> {
    // With a selection, keep what the last report said about the others.
    let mut by_id = if only { previous(root) } else { BTreeMap::new() };
    for e in &chosen.selected {
        if !e.manifest.status.is_built() {
            by_id.insert(e.manifest.id.clone(), registry_report(e));
        }
    }
    add_built(&mut by_id, reused, fresh, summary);
    for e in &chosen.selected {
        if let Some(r) = by_id.get_mut(&e.manifest.id) {
            status::enforce(root, e, r);
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
    by_id.into_values().collect()
}
