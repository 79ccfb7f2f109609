//! `cargo xtask sensitivity`: every check of the selected manifests with alternative readings
//! evaluated under each, a verdict per check, merged into [`REPORT`].

use super::fetch::{evaluate, fetch};
use super::readings::{attach, met, readings, Planned, Reading};
use crate::entry::{Entry, InvalidManifest};
use crate::load;
use crate::options::Options;
use crate::selection::{invalid_id, select, selector};
use fric_report::CheckReport;
use serde::Serialize;

/// One check's verdict across the readings.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    pub metric: String,
    /// Where the check is written.
    pub location: Option<String>,
    /// Passes (or fails) under the manifest's reading and every alternative.
    pub robust: bool,
    /// The readings under which the check's result differs from the manifest's reading.
    pub flipped_by: Vec<String>,
    /// The readings under which the check could not be evaluated (then it is not robust).
    pub failed: Vec<String>,
    /// The readings under which a cycle the check reads does not close (reported, not failed).
    pub open: Vec<String>,
}

/// The sensitivity of one manifest's checks to its assumptions.
#[derive(Clone, Debug, Serialize)]
pub struct ManifestSensitivity {
    pub id: String,
    /// The checks under the manifest's own reading.
    pub baseline: Vec<CheckReport>,
    pub readings: Vec<Reading>,
    pub verdicts: Vec<Verdict>,
}

impl ManifestSensitivity {
    pub fn robust(&self) -> usize {
        self.verdicts.iter().filter(|v| v.robust).count()
    }
    /// The checks that could not be evaluated under some reading.
    pub fn failed(&self) -> usize {
        self.verdicts.iter().filter(|v| !v.failed.is_empty()).count()
    }
    /// The checks evaluated under every reading but with a cycle that does not close under some.
    pub fn open(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| v.failed.is_empty() && !v.open.is_empty())
            .count()
    }
}

/// What [`sensitivity`] found for the selected manifests.
#[derive(Debug, Default)]
pub struct Sensitivities {
    /// The selected manifests with alternative readings, by id.
    pub manifests: Vec<ManifestSensitivity>,
    /// Runs computed (the others came from the cache).
    pub computed: usize,
    /// The selected manifests that are invalid (an invalid alternative among them): errors.
    pub invalid: Vec<InvalidManifest>,
    /// The ids this run was about (selected, valid or not): their entries in [`REPORT`] are
    /// replaced; the others are kept.
    pub scope: std::collections::BTreeSet<String>,
    /// Every manifest id of the workspace: entries of [`REPORT`] for any other are dropped.
    pub known: std::collections::BTreeSet<String>,
    /// The manifest files `--only` neither read nor had a current record of ([`crate::entry::Loaded::left_out`]).
    pub left_out: Vec<String>,
}

/// Where [`write`] puts the sensitivity report.
pub const REPORT: &str = "figures/sensitivity.json";

/// Merge the sensitivity of `s` into [`REPORT`] (written only if its text changed): the entries
/// of the manifests `s` was about are replaced, those of other manifests kept (as `--only` does
/// for report.json), those of manifests that no longer exist dropped. An old file that is not
/// a sensitivity report is replaced; one that cannot be read safely (not a regular file, or
/// over the input-file limit) is an error.
pub fn write(root: &std::path::Path, s: &Sensitivities) -> Result<(), String> {
    let p = crate::store::output_path(root, REPORT)?;
    let old: Vec<serde_json::Value> = crate::readfile::read_if_present(&p, crate::readfile::INPUT)?
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let id = |v: &serde_json::Value| v.get("id").and_then(|x| x.as_str()).map(String::from);
    let mut all: Vec<serde_json::Value> = old
        .into_iter()
        .filter(|v| id(v).is_some_and(|i| s.known.contains(&i) && !s.scope.contains(&i)))
        .collect();
    for m in &s.manifests {
        all.push(serde_json::to_value(m).map_err(|e| e.to_string())?);
    }
    all.sort_by_key(id);
    let json = serde_json::to_string_pretty(&all).map_err(|e| e.to_string())? + "\n";
    crate::store::write_if_changed(&p, json.as_bytes())
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", p.display()))
}

/// Evaluate every check of every selected manifest that has alternative readings, under each;
/// the selected manifests that are invalid are returned with their diagnostics.
pub fn sensitivity(opts: &Options) -> Result<Sensitivities, String> {
    let sel = selector(&opts.only)?;
    // Only the selected manifests and what they reference are read (as `figures --only`).
    let mut loaded = load::load_selected(&opts.root, sel.as_ref());
    crate::fitted_params::resolve(&opts.root, &opts.run_cache(), &mut loaded);
    let chosen = select(&loaded, sel.as_ref());
    let invalid: Vec<InvalidManifest> = chosen.invalid.iter().map(|i| (*i).clone()).collect();
    let mut scope: std::collections::BTreeSet<String> = chosen.selected.iter().map(|e| e.manifest.id.clone()).collect();
    scope.extend(chosen.invalid.iter().map(|i| invalid_id(i)));
    let mut known: std::collections::BTreeSet<String> = loaded.entries.iter().map(|e| e.manifest.id.clone()).collect();
    known.extend(loaded.invalid.iter().map(invalid_id));
    // A manifest an `--only` load left out (changed since a run read it) still exists: its entry is kept.
    known.extend(loaded.left_out.iter().map(|f| load::path_id(f).to_string()));
    let with_alts: Vec<&Entry> = chosen
        .built
        .iter()
        .copied()
        .filter(|e| e.manifest.assumptions.iter().any(|a| !a.alternatives.is_empty()))
        .collect();
    let plans: Vec<(&Entry, Vec<Planned>)> = with_alts.iter().map(|e| (*e, readings(e))).collect();
    let mut all: Vec<&Entry> = with_alts.clone();
    for (_, rs) in &plans {
        all.extend(rs.iter().filter_map(|(_, v)| v.as_ref()));
    }
    let (data, failed, computed) = fetch(opts, &all)?;
    let mut out = Vec::new();
    for (e, rs) in plans {
        let mut base = evaluate(e, &data, &failed);
        crate::evaluate::locate_checks(&opts.root, &e.file, &mut base.checks);
        let readings = attach(&rs, &mut base.checks, &crate::run_source::Source::held(&data, &failed));
        let verdicts = base
            .checks
            .iter()
            .map(|c| {
                let s = c.sensitivity.as_ref();
                let own = met(c).unwrap_or(false);
                Verdict {
                    metric: c.metric.clone(),
                    location: c.location.clone(),
                    robust: s.is_some_and(|s| s.robust),
                    flipped_by: s.map_or_else(Vec::new, |s| s.flipped_by(own).into_iter().map(String::from).collect()),
                    failed: s.map_or_else(Vec::new, |s| s.failed.clone()),
                    open: s.map_or_else(Vec::new, |s| s.open.clone()),
                }
            })
            .collect();
        out.push(ManifestSensitivity {
            id: e.manifest.id.clone(),
            baseline: base.checks,
            readings,
            verdicts,
        });
    }
    Ok(Sensitivities {
        manifests: out,
        computed,
        invalid,
        scope,
        known,
        left_out: loaded.left_out.clone(),
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::{write, Sensitivities, REPORT};
    use crate::readfile::testing::{mkfifo, within_10s};

    #[test]
    fn a_fifo_as_the_old_sensitivity_report_is_an_error_not_a_block() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join("figures")).unwrap();
        mkfifo(&d.path().join(REPORT));
        let root = d.path().to_path_buf();
        let e = within_10s(move || write(&root, &Sensitivities::default())).unwrap_err();
        assert!(e.contains("sensitivity.json: not a regular file (a FIFO)"), "{e}");
    }
}
