//! The status rule of `experiments/README.md` ("Status: the rule"), applied after the checks
//! are evaluated: a manifest may claim `reproduced` only when every number or claim it takes
//! from the source (each check with `published` or `claim` provenance) is met, or is a known
//! discrepancy proven to be the source's error (`discrepancy: source-error`), and when none of
//! its assumptions carries (`carries:`) a replaced stated quantity (`replaced`) or a value the
//! source does not state (`unstated-parameter`, `unstated-input`).

use crate::entry::Entry;
use fric_manifest::{Assumption, Carries, Status};
use fric_report::{CheckReport, DiscrepancyKind, ExperimentReport, Outcome};

/// Why a check of the source keeps its manifest from being `reproduced`, or None when it does
/// not (a derived check, a pass, a transcription read back, a proven source error).
fn blocks_reproduced(c: &CheckReport) -> Option<String> {
    if c.provenance == "derived" {
        return None;
    }
    match (c.outcome, c.discrepancy) {
        (Outcome::Pass | Outcome::Transcribed, _) | (Outcome::KnownDiscrepancy, Some(DiscrepancyKind::SourceError)) => {
            None
        }
        (Outcome::KnownDiscrepancy, Some(kind)) => Some(format!(
            "{} check `{}` is a known discrepancy of kind {}",
            c.provenance,
            c.metric,
            kind.as_str()
        )),
        (o, _) => Some(format!("{} check `{}` is {}", c.provenance, c.metric, o.as_str())),
    }
}

/// Why an assumption keeps its manifest from being `reproduced`: what it carries (its
/// `carries:` class) replaces a stated quantity or supplies one the source does not state.
fn replaces(a: &Assumption) -> Option<String> {
    let c = a.carries.filter(|c| c.blocks_reproduced())?;
    let what = match c {
        Carries::Replaced => "replaces what the source states",
        _ => "supplies what the source does not state",
    };
    let text = a.replaces.as_deref().or(a.supplies.as_deref()).unwrap_or(&a.what);
    Some(format!("an assumption ({}) {what} ({text})", c.as_str()))
}

/// Why the declared status disagrees with the rule, or None: the checks and assumptions that
/// keep a manifest declared `reproduced` from it (the rule then gives `partial`).
pub fn problem(status: Status, assumptions: &[Assumption], checks: &[CheckReport]) -> Option<String> {
    if status != Status::Reproduced {
        return None;
    }
    let why: Vec<String> = assumptions
        .iter()
        .filter_map(replaces)
        .chain(checks.iter().filter_map(blocks_reproduced))
        .collect();
    (!why.is_empty()).then(|| {
        format!(
            "status `reproduced` disagrees with the status rule (experiments/README.md): {}; only met \
             checks or known discrepancies of kind source-error, and no assumption that replaces a stated \
             quantity or supplies an unstated one, allow `reproduced`, so the rule gives `partial` (with a reason)",
            why.join("; ")
        )
    })
}

/// Record in the report, as an error at the manifest's `status:` line, that its declared status
/// disagrees with the rule (once: a report read back from an earlier run may already say so).
pub fn enforce(root: &std::path::Path, e: &Entry, rep: &mut ExperimentReport) {
    let Some(why) = problem(e.manifest.status, &e.manifest.assumptions, &rep.checks) else {
        return;
    };
    let line = crate::readfile::read_to_string(&root.join(&e.file), crate::readfile::MANIFEST)
        .map(|text| fric_manifest::Locator::new(&text).find(&["status".into()]).0)
        .unwrap_or(0);
    let msg = format!("{}:{line}: {why}", e.file);
    if !rep.errors.contains(&msg) {
        rep.errors.push(msg);
    }
}
