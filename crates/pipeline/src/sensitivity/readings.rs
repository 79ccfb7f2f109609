//! The alternative readings of a manifest's assumptions: each a variant of the manifest, and
//! every check's outcome under each recorded in the check.

use super::fetch::evaluate_in;
use crate::entry::Entry;
use crate::evaluate::metric_kinds::NOT_CLOSED;
use crate::overrides::variant;
use crate::run_source::Source;
use fric_report::CheckReport;
use serde::Serialize;
use std::collections::BTreeMap;

/// A reading with its variant of the manifest (`None`: the reading is invalid).
pub type Planned = (Reading, Option<Entry>);

/// One alternative reading and what the checks gave under it.
#[derive(Clone, Debug, Serialize)]
pub struct Reading {
    pub name: String,
    /// The assumption it belongs to (its `what`).
    pub assumption: String,
    pub set: BTreeMap<String, f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// One per check of the manifest, in its order (empty when the reading is invalid).
    pub checks: Vec<CheckReport>,
    pub errors: Vec<String>,
}

/// Whether a check's value meets its expectation; `None` when it could not be evaluated.
pub(super) fn met(c: &CheckReport) -> Option<bool> {
    c.computed.map(|_| c.pass)
}

/// The alternative readings of `e`'s assumptions, each with its variant of `e` (`None` when
/// the reading is invalid: its error is in the reading).
pub fn readings(e: &Entry) -> Vec<Planned> {
    let mut rs = Vec::new();
    for a in &e.manifest.assumptions {
        for alt in &a.alternatives {
            let set: Vec<(String, f64)> = alt.set.iter().map(|(k, v)| (k.clone(), *v)).collect();
            let mut reading = Reading {
                name: alt.name.clone(),
                assumption: a.what.clone(),
                set: alt.set.clone(),
                why: alt.why.clone(),
                checks: Vec::new(),
                errors: Vec::new(),
            };
            let changed = alt
                .run
                .ids()
                .iter()
                .try_fold(e.clone(), |v, run| variant(&v, run, &set));
            match changed {
                Ok(v) => rs.push((reading, Some(v))),
                Err(err) => {
                    reading
                        .errors
                        .push(format!("{}: alternative `{}`: {err}", e.file, alt.name));
                    rs.push((reading, None));
                }
            }
        }
    }
    rs
}

/// Evaluate every reading on `data` and record in each of `checks` (the manifest's own
/// reading) its outcome under each reading. Returns the readings with their checks.
pub(crate) fn attach(readings: &[Planned], checks: &mut [CheckReport], src: &Source) -> Vec<Reading> {
    let mut out = Vec::new();
    for (reading, v) in readings {
        let mut reading = reading.clone();
        if let Some(v) = v {
            let rep = evaluate_in(v, src);
            reading.checks = rep.checks;
            reading.errors.extend(rep.errors);
        }
        out.push(reading);
    }
    if out.is_empty() {
        return out;
    }
    // A reading whose only errors are cycles that do not close (and the metrics that read them)
    // is evaluated: its checks without a value are open under it, the others count.
    let only_open: Vec<bool> = out.iter().map(|r| only_open_cycles(&r.errors)).collect();
    for (k, c) in checks.iter_mut().enumerate() {
        let readings: Vec<fric_report::ReadingOutcome> = out
            .iter()
            .zip(&only_open)
            .map(|(r, open)| {
                let rc = r.checks.get(k).filter(|_| r.errors.is_empty() || *open);
                fric_report::ReadingOutcome {
                    name: r.name.clone(),
                    computed: rc.and_then(|x| x.computed),
                    met: rc.and_then(met),
                }
            })
            .collect();
        let own = met(c);
        // A reading that could not be evaluated says nothing either way: the check is not
        // robust, its reading is `failed` (or `open` when a cycle it reads does not close).
        let (mut open, mut failed) = (Vec::new(), Vec::new());
        for (r, o) in readings.iter().zip(&only_open).filter(|(r, _)| r.met.is_none()) {
            if *o { &mut open } else { &mut failed }.push(r.name.clone());
        }
        let robust = own.is_some() && failed.is_empty() && open.is_empty() && readings.iter().all(|r| r.met == own);
        c.sensitivity = Some(fric_report::Sensitivity {
            robust,
            failed,
            open,
            readings,
        });
    }
    out
}

/// Whether a reading's errors are all cycles that do not close ([`NOT_CLOSED`]) or metrics left
/// without a value by them (and there is at least one).
fn only_open_cycles(errors: &[String]) -> bool {
    let open = |e: &String| e.contains(NOT_CLOSED);
    errors.iter().any(open) && errors.iter().all(|e| open(e) || e.contains("has no value"))
}

#[cfg(test)]
mod tests {
    use super::only_open_cycles;

    #[test]
    fn a_reading_whose_cycle_does_not_close_is_open_not_failed() {
        let open = format!(
            "metric `area[1]`: {}the cycle over the window ends 68 % …",
            super::NOT_CLOSED
        );
        let follows = "metric `area_ratio`: metric `area[1]` has no value".to_string();
        assert!(only_open_cycles(std::slice::from_ref(&open)));
        assert!(only_open_cycles(&[open.clone(), follows.clone()]));
        // Anything else keeps the reading failed: a run that failed, or no open cycle at all.
        assert!(!only_open_cycles(&[open, "run `sim`: step size too small".into()]));
        assert!(!only_open_cycles(&[follows]));
        assert!(!only_open_cycles(&[]));
    }
}
