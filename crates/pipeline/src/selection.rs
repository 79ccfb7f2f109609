//! Which manifests a run is about: the `--only` patterns, the manifests they select, and the
//! ones among those whose runs are computed.

use crate::entry::{Entry, InvalidManifest, Loaded};

/// The glob set of the `--only` patterns (`None`: every manifest).
pub(crate) fn selector(only: &[String]) -> Result<Option<globset::GlobSet>, String> {
    if only.is_empty() {
        return Ok(None);
    }
    let mut b = globset::GlobSetBuilder::new();
    for p in only {
        b.add(globset::Glob::new(p).map_err(|e| format!("bad pattern `{p}`: {e}"))?);
    }
    b.build().map(Some).map_err(|e| e.to_string())
}

/// The manifests a run selects with its `--only` patterns.
pub(crate) struct Selection<'a> {
    pub selected: Vec<&'a Entry>,
    pub invalid: Vec<&'a InvalidManifest>,
    /// The selected manifests that are computed ([`computed`]).
    pub built: Vec<&'a Entry>,
    /// The distinct run keys of the built ones (and of their companion figures, whose data
    /// their units are chosen with).
    pub run_keys: std::collections::BTreeSet<&'a str>,
}

/// Whether a manifest's runs are computed and its metrics and checks evaluated: every built one
/// (reproduced or partial), and one that is not but declares runs (a drawing whose text prints
/// numbers that follow from others, e.g. report Fig C.1's setup constants). Only a built one is
/// drawn.
fn computed(e: &Entry) -> bool {
    e.manifest.status.is_built() || !e.runs.is_empty()
}

pub(crate) fn select<'a>(loaded: &'a Loaded, sel: Option<&globset::GlobSet>) -> Selection<'a> {
    let selects = |id: &str| sel.is_none_or(|g| g.is_match(id));
    let selected: Vec<&Entry> = loaded.entries.iter().filter(|e| selects(&e.manifest.id)).collect();
    let built: Vec<&Entry> = selected.iter().copied().filter(|e| computed(e)).collect();
    Selection {
        invalid: loaded.invalid.iter().filter(|i| selects(&invalid_id(i))).collect(),
        run_keys: built
            .iter()
            .flat_map(|e| std::iter::once(*e).chain(&e.companions))
            .flat_map(|e| e.runs.values().map(|r| r.key.as_str()))
            .collect(),
        selected,
        built,
    }
}

/// The id under which an invalid manifest is reported.
pub(crate) fn invalid_id(i: &InvalidManifest) -> String {
    i.id.clone().unwrap_or_else(|| {
        i.file
            .trim_start_matches("experiments/")
            .trim_end_matches(".yaml")
            .to_string()
    })
}
