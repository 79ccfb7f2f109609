//! The status rule of `experiments/README.md` ("Status: the rule"), applied after the checks
//! are evaluated. The rule derives a built manifest's status from what it declares: it is
//! `reproduced` when every number or claim it takes from the source (each check with
//! `published` or `claim` provenance) and every derived check is met, or is a known discrepancy
//! proven to be the source's error (`discrepancy: source-error`), when no assumption carries (`carries:`) a
//! replaced stated quantity (`replaced`) or a value the source does not state
//! (`unstated-parameter`, `unstated-input`) — its own, or one of a manifest whose run it takes
//! by `from:`, transitively, unless it settles one by name (`settles:`) —, when nothing of the
//! source is declared `not_built`, and when it has a check that is not a transcription (a
//! manifest with no check, or whose checks are only transcriptions, compares nothing), and,
//! for a table, when it has a published or claimed check; otherwise `partial`. A declared `reproduced` or
//! `partial` that disagrees is refused, in either direction.

use crate::entry::Entry;
use fric_manifest::run_ref::RunRef;
use fric_manifest::{Assumption, Carries, Manifest, Status};
use fric_report::{CheckReport, DiscrepancyKind, ExperimentReport, Outcome};
use std::collections::HashMap;

/// Why a check keeps its manifest from being `reproduced`, or None when it does not (a pass, a
/// transcription read back, a proven source error). A check of the source (published, claim)
/// that is not met leaves the source's number unreproduced; a derived check that is not met (a
/// known discrepancy of kind unresolved or assumption: a cycle read before it closed, a bound
/// the run exceeds) leaves what was computed unconfirmed, and derived checks are what a
/// figure the source prints no number for is reproduced through.
fn blocks_reproduced(c: &CheckReport) -> Option<String> {
    // A derived check that simply fails is the run's failure, reported as such (`check` fails);
    // the status follows from what is declared, its known discrepancies.
    if c.provenance == "derived" && c.outcome != Outcome::KnownDiscrepancy {
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
            kind.name()
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
    Some(format!("an assumption ({}) {what} ({text})", c.name()))
}

/// Whether assumption `a` sets values of run `id` (an assumption without `runs:` sets all).
fn names_run(a: &Assumption, id: &str) -> bool {
    a.runs.as_ref().is_none_or(|r| r.ids().contains(&id))
}

/// Whether `m` settles the inherited assumption `a` of its run `run`: one of its own `implied`
/// assumptions names the run (`runs:`) and the assumption it answers (`settles:` equal to
/// `a`'s `what`). A `replaced` assumption is never settled: the source states another value.
fn settles(m: &Manifest, run: &str, a: &Assumption) -> bool {
    a.carries != Some(Carries::Replaced)
        && m.assumptions.iter().any(|s| {
            s.carries == Some(Carries::Implied)
                && s.settles.as_deref() == Some(a.what.as_str())
                && s.runs.as_ref().is_some_and(|r| r.ids().contains(&run))
        })
}

/// The assumptions `m` inherits through the runs it takes by `from:`: for each such run, the
/// assumptions of the run's manifest that supply or replace a value of that run (and, should
/// that run itself be taken by `from:`, what it inherits, transitively), with the reference
/// (`<doc>/<name>#<run>`), each once, less those `m` settles ([`settles`]). An owner that is
/// not among the valid manifests of `by_id` is an error: its assumptions cannot be read, so
/// the borrower cannot be said to inherit nothing.
pub fn inherited<'a>(
    m: &Manifest,
    by_id: &HashMap<&str, &'a Manifest>,
) -> Result<Vec<(String, &'a Assumption)>, String> {
    let mut out: Vec<(String, &'a Assumption)> = Vec::new();
    for run in &m.runs {
        let mut next = run.from.clone();
        let mut seen: Vec<String> = Vec::new();
        while let Some(r) = next.take() {
            let Some(RunRef {
                manifest: mid,
                run: rid,
            }) = RunRef::parse(&r)
            else {
                break;
            };
            if seen.contains(&r) {
                return Err(format!("the run `{}` takes `{r}` by `from:` in a cycle", run.id));
            }
            seen.push(r.clone());
            let Some(other) = by_id.get(mid) else {
                return Err(format!(
                    "the run `{}` borrows from an invalid manifest `{mid}` (by `from: {r}`): what that run's \
                     values rest on cannot be read; fix `{mid}` first",
                    run.id
                ));
            };
            for a in &other.assumptions {
                let blocks = a.carries.is_some_and(Carries::blocks_reproduced);
                if blocks
                    && names_run(a, rid)
                    && !settles(m, &run.id, a)
                    && !out.iter().any(|(_, b)| std::ptr::eq(*b, a))
                {
                    out.push((RunRef::new(mid, rid).to_string(), a));
                }
            }
            next = other.runs.iter().find(|o| o.id == rid).and_then(|o| o.from.clone());
        }
    }
    Ok(out)
}

/// The status the rule gives a built manifest of a document with a source, with the facts that
/// make it `partial` (none for `reproduced`).
pub fn derive(m: &Manifest, inherited: &[(String, &Assumption)], checks: &[CheckReport]) -> (Status, Vec<String>) {
    let mut why: Vec<String> = m.assumptions.iter().filter_map(replaces).collect();
    why.extend(
        inherited
            .iter()
            .filter_map(|(r, a)| replaces(a).map(|w| format!("the run {r} it takes by `from:` brings {w}"))),
    );
    why.extend(
        m.not_built
            .iter()
            .map(|n| format!("a part of the source is not built ({n})")),
    );
    why.extend(checks.iter().filter_map(blocks_reproduced));
    // Nothing of the source is tested without a check that is not a transcription (code review
    // M2 of s53): no check at all, or only transcriptions, is `partial`.
    if checks.is_empty() {
        why.push("it has no check (nothing it shows is tested)".into());
    } else if checks.iter().all(|c| c.provenance == "transcribed") {
        why.push("its checks are only transcriptions (no published, claimed or derived check)".into());
    } else if m.kind == fric_manifest::Kind::Table
        && !checks
            .iter()
            .any(|c| matches!(c.provenance.as_str(), "published" | "claim"))
    {
        // A table prints numbers: it is reproduced through one the project computes and the
        // source prints, not through derived checks alone (a table of stated inputs whose only
        // checks are the project's own round trips reproduces none of its numbers; issue 44).
        why.push(
            "it is a table with no published or claimed check (derived checks alone reproduce none of \
             its printed numbers)"
                .into(),
        );
    }
    let status = if why.is_empty() {
        Status::Reproduced
    } else {
        Status::Partial
    };
    (status, why)
}

/// Why the declared status disagrees with the rule, or None. Only `reproduced` and `partial`
/// are derived; `pending`, `not-reproducible` and `computed` (load rules) are not.
pub fn problem(m: &Manifest, inherited: &[(String, &Assumption)], checks: &[CheckReport]) -> Option<String> {
    if !matches!(m.status, Status::Reproduced | Status::Partial) {
        return None;
    }
    let (derived, why) = derive(m, inherited, checks);
    match (m.status, derived) {
        (Status::Reproduced, Status::Partial) => Some(format!(
            "status `reproduced` disagrees with the status rule (experiments/README.md): {}; only met \
             checks or known discrepancies of kind source-error, and no assumption (its own or one of a \
             run taken by `from:`) that replaces a stated quantity or supplies an unstated one, nothing \
             `not_built` and a check that is not a transcription (a table: a published or claimed one), allow `reproduced`, so the rule gives `partial` \
             (with a reason)",
            why.join("; ")
        )),
        (Status::Partial, Status::Reproduced) => Some(
            "status `partial` disagrees with the status rule (experiments/README.md): every check is \
             met (or a known discrepancy of kind source-error), no assumption (its own \
             or one of a run taken by `from:`) replaces a stated quantity or supplies an unstated one, \
             nothing is declared `not_built`, and it has a check that is not a transcription (a table: \
             a published or claimed one), so the rule gives `reproduced`; declare the fact that makes it partial (an assumption's \
             `carries:`, `not_built:`) or declare `reproduced`"
                .to_string(),
        ),
        _ => None,
    }
}

/// Record in the report, as an error at the manifest's `status:` line, that its declared status
/// disagrees with the rule (once: a report read back from an earlier run may already say so).
/// `by_id` holds every valid manifest, for the runs taken by `from:`; a run borrowed from a
/// manifest not among them is an error at the `status:` line whatever the status.
pub fn enforce(root: &std::path::Path, e: &Entry, rep: &mut ExperimentReport, by_id: &HashMap<&str, &Manifest>) {
    let why = match inherited(&e.manifest, by_id) {
        Ok(inherited) => problem(&e.manifest, &inherited, &rep.checks),
        Err(why) => Some(why),
    };
    let Some(why) = why else {
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
