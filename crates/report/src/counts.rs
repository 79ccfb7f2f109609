//! Per document, the checks of report.json by outcome: passed checks, transcribed values
//! (counted apart), failures and known discrepancies.

use crate::checks::Outcome;
use crate::experiment::ExperimentReport;
use std::collections::BTreeMap;

/// Every outcome, in the order the counts list them.
const OUTCOMES: [Outcome; 6] = [
    Outcome::Pass,
    Outcome::Transcribed,
    Outcome::KnownDiscrepancy,
    Outcome::Fail,
    Outcome::UnexpectedPass,
    Outcome::Error,
];

/// Per document (the id's part before `/`), the checks of these experiments by outcome; every
/// document of `documents` and every outcome is listed, with zeros.
pub fn checks_by_document<'a>(
    documents: impl IntoIterator<Item = &'a str>,
    experiments: &[ExperimentReport],
) -> BTreeMap<String, BTreeMap<String, usize>> {
    let zeros = || {
        OUTCOMES
            .iter()
            .map(|o| (o.name().to_string(), 0))
            .collect::<BTreeMap<_, _>>()
    };
    let mut out: BTreeMap<String, BTreeMap<String, usize>> =
        documents.into_iter().map(|d| (d.to_string(), zeros())).collect();
    for e in experiments {
        let doc = e.id.split('/').next().unwrap_or("").to_string();
        let counts = out.entry(doc).or_insert_with(zeros);
        for c in &e.checks {
            *counts.entry(c.outcome.name().to_string()).or_default() += 1;
        }
    }
    out
}
