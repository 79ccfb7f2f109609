//! A row of the coverage table (the HTML report's index, report.json's `coverage`): a
//! document's manifests by status and its checks by outcome, a known discrepancy's kind counted
//! apart.

use crate::checks::{CheckReport, Outcome};
use fric_manifest::DiscrepancyKind;
use serde::Serialize;

/// A row of the coverage table: manifests by status and checks by outcome.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CoverageRow {
    /// The document id, or `all` on the row of every document.
    pub doc: String,
    /// Whether this is the row of every document (the sum; the template marks it by this, never
    /// by comparing `doc` with `all`, which a document may be named).
    pub all_documents: bool,
    pub reproduced: usize,
    pub partial: usize,
    /// Built by a study of one's own: claims no reproduction.
    pub computed: usize,
    pub pending: usize,
    pub not_reproducible: usize,
    pub invalid: usize,
    pub total: usize,
    pub checks_passed: usize,
    /// Transcribed values read back: shown, not counted as passed checks.
    pub checks_transcribed: usize,
    pub checks_failed: usize,
    pub checks_known: usize,
    /// The known discrepancies by kind: source errors, assumptions, unresolved.
    pub known_source_error: usize,
    pub known_assumption: usize,
    pub known_unresolved: usize,
}

impl CoverageRow {
    /// Count one check's outcome (and a known discrepancy's kind).
    pub fn count_check(&mut self, c: &CheckReport) {
        match c.outcome {
            Outcome::Pass => self.checks_passed += 1,
            Outcome::Transcribed => self.checks_transcribed += 1,
            Outcome::KnownDiscrepancy => {
                self.checks_known += 1;
                match c.discrepancy {
                    Some(DiscrepancyKind::SourceError) => self.known_source_error += 1,
                    Some(DiscrepancyKind::Assumption) => self.known_assumption += 1,
                    Some(DiscrepancyKind::Unresolved) => self.known_unresolved += 1,
                    None => {}
                }
            }
            _ => self.checks_failed += 1,
        }
    }

    /// Add another row's counts to this one.
    pub fn add(&mut self, o: &CoverageRow) {
        for (a, b) in [
            (&mut self.reproduced, o.reproduced),
            (&mut self.partial, o.partial),
            (&mut self.computed, o.computed),
            (&mut self.pending, o.pending),
            (&mut self.not_reproducible, o.not_reproducible),
            (&mut self.invalid, o.invalid),
            (&mut self.total, o.total),
            (&mut self.checks_passed, o.checks_passed),
            (&mut self.checks_transcribed, o.checks_transcribed),
            (&mut self.checks_failed, o.checks_failed),
            (&mut self.checks_known, o.checks_known),
            (&mut self.known_source_error, o.known_source_error),
            (&mut self.known_assumption, o.known_assumption),
            (&mut self.known_unresolved, o.known_unresolved),
        ] {
            *a += b;
        }
    }
}
