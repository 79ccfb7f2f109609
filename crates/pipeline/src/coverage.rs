//! How many manifests each document has, by status (the report's coverage table), and how many
//! assumptions, by what they carry.

use crate::entry::Loaded;
use fric_manifest::{Carries, Status};
use std::collections::BTreeMap;

/// Count manifests by document and status.
pub fn coverage(loaded: &Loaded) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut out: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for d in &loaded.documents {
        let m = out.entry(d.id.clone()).or_default();
        for s in Status::ALL {
            m.insert(s.name().to_string(), 0);
        }
    }
    for e in &loaded.entries {
        let doc = e.manifest.id.split('/').next().unwrap_or("").to_string();
        *out.entry(doc)
            .or_default()
            .entry(e.manifest.status.name().to_string())
            .or_default() += 1;
    }
    for i in &loaded.invalid {
        let doc = i
            .file
            .trim_start_matches("experiments/")
            .split('/')
            .next()
            .unwrap_or("")
            .to_string();
        *out.entry(doc).or_default().entry("invalid".into()).or_default() += 1;
    }
    out
}

/// Count assumptions by document and by what they carry (`carries:`; `undeclared` for an
/// assumption without it), and `blocking`: those that keep their manifest from `reproduced`.
pub fn assumptions(loaded: &Loaded) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut out: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for d in &loaded.documents {
        let m = out.entry(d.id.clone()).or_default();
        for c in Carries::ALL {
            m.insert(c.name().to_string(), 0);
        }
        m.insert("blocking".into(), 0);
    }
    for e in &loaded.entries {
        let doc = e.manifest.id.split('/').next().unwrap_or("").to_string();
        let m = out.entry(doc).or_default();
        for a in &e.manifest.assumptions {
            let key = a.carries.map_or("undeclared", Carries::name);
            *m.entry(key.to_string()).or_default() += 1;
            if a.carries.is_some_and(Carries::blocks_reproduced) {
                *m.entry("blocking".into()).or_default() += 1;
            }
        }
    }
    out
}

/// [`coverage`], with a manifest that `experiments` (the report) lists as invalid counted as
/// invalid: under `--only` the manifests outside the selection are parsed, not validated, and
/// the report keeps what the last one said about them, so the table agrees with the list.
pub(crate) fn coverage_as_reported(
    loaded: &Loaded,
    experiments: &[fric_report::ExperimentReport],
) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut out = coverage(loaded);
    let invalid: std::collections::HashSet<&str> = experiments
        .iter()
        .filter(|r| r.status == "invalid")
        .map(|r| r.id.as_str())
        .collect();
    for e in loaded
        .entries
        .iter()
        .filter(|e| invalid.contains(e.manifest.id.as_str()))
    {
        let doc = e.manifest.id.split('/').next().unwrap_or("").to_string();
        let counts = out.entry(doc).or_default();
        if let Some(n) = counts.get_mut(e.manifest.status.name()) {
            *n = n.saturating_sub(1);
        }
        *counts.entry("invalid".into()).or_default() += 1;
    }
    out
}
