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

/// Count assumptions by document and by what they carry (`carries:`; `undeclared` for an
/// assumption without it), and `blocking`: those that keep their manifest from `reproduced`.
pub fn assumptions(loaded: &Loaded) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut out: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for d in &loaded.documents {
        let m = out.entry(d.id.clone()).or_default();
        for c in Carries::ALL {
            m.insert(c.as_str().to_string(), 0);
        }
        m.insert("blocking".into(), 0);
    }
    for e in &loaded.entries {
        let doc = e.manifest.id.split('/').next().unwrap_or("").to_string();
        let m = out.entry(doc).or_default();
        for a in &e.manifest.assumptions {
            let key = a.carries.map_or("undeclared", Carries::as_str);
            *m.entry(key.to_string()).or_default() += 1;
            if a.carries.is_some_and(Carries::blocks_reproduced) {
                *m.entry("blocking".into()).or_default() += 1;
            }
        }
    }
    out
}
