//! The known discrepancies counted by kind and by document.

use crate::checks::{CheckReport, Outcome};
use crate::experiment::ExperimentReport;
use fric_manifest::DiscrepancyKind;
use std::collections::BTreeMap;

/// Per document (the id's part before `/`), the known discrepancies of these experiments by
/// kind (see [`count_by_kind`]); every document of `documents` is listed, with zeros.
pub fn discrepancies_by_document<'a>(
    documents: impl IntoIterator<Item = &'a str>,
    experiments: &[ExperimentReport],
) -> BTreeMap<String, BTreeMap<DiscrepancyKind, usize>> {
    let mut out: BTreeMap<String, BTreeMap<DiscrepancyKind, usize>> = documents
        .into_iter()
        .map(|d| (d.to_string(), count_by_kind([])))
        .collect();
    for e in experiments {
        let doc = e.id.split('/').next().unwrap_or("").to_string();
        let counts = out.entry(doc).or_insert_with(|| count_by_kind([]));
        for (k, n) in count_by_kind(&e.checks) {
            *counts.entry(k).or_default() += n;
        }
    }
    out
}

/// Count known discrepancies by kind: every kind present (zero included); a check marked as a
/// known discrepancy without a kind is not counted.
pub fn count_by_kind<'a>(checks: impl IntoIterator<Item = &'a CheckReport>) -> BTreeMap<DiscrepancyKind, usize> {
    let mut out: BTreeMap<DiscrepancyKind, usize> = DiscrepancyKind::ALL.iter().map(|k| (*k, 0)).collect();
    for c in checks {
        if c.outcome == Outcome::KnownDiscrepancy {
            if let Some(k) = c.discrepancy {
                *out.entry(k).or_default() += 1;
            }
        }
    }
    out
}
