//! How many manifests each document has, by status (the report's coverage table).

use crate::entry::Loaded;
use fric_manifest::Status;
use std::collections::BTreeMap;

/// Count manifests by document and status.
pub fn coverage(loaded: &Loaded) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut out: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for d in &loaded.documents {
        let m = out.entry(d.id.clone()).or_default();
        for s in Status::ALL {
            m.insert(s.as_str().to_string(), 0);
        }
    }
    for e in &loaded.entries {
        let doc = e.manifest.id.split('/').next().unwrap_or("").to_string();
        *out.entry(doc)
            .or_default()
            .entry(e.manifest.status.as_str().to_string())
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
