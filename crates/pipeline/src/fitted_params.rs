//! Run parameters set to another manifest's fitted value (`{fitted: "<doc>/<name>#<fit>.<param>"}`),
//! set after loading and before any run is planned or any evaluation key computed: each source
//! fit evaluated first ([`crate::fits::fitted`]: the same serial steps as on its own manifest,
//! its runs read from the run cache or computed into it), a manifest only after the manifests
//! its fits' runs take values from (the loader refused cycles), so the same values at any
//! `--jobs`. The runs are re-keyed with the values ([`crate::overrides::variant`]): a changed
//! fit (its manifest, its CSV) changes the keys, so no stale run is read. A fit that fails makes
//! the manifest invalid, at the parameter's line.

use crate::entry::{Entry, InvalidManifest, Loaded};
use crate::fits::fitted;
use crate::load::fit_ref_syntax::{fitted_params, parse, run_sources};
use crate::overrides::variant;
use crate::store::RunCache;
use fric_manifest::Diagnostic;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Set every `{fitted: ...}` run parameter of `loaded`'s entries; a manifest whose value cannot
/// be found moves to `loaded.invalid`.
pub fn resolve(root: &Path, cache: &RunCache, loaded: &mut Loaded) {
    let mut pending: BTreeSet<String> = loaded
        .entries
        .iter()
        .filter(|e| fitted_params(&e.manifest).next().is_some())
        .map(|e| e.manifest.id.clone())
        .collect();
    if pending.is_empty() {
        return;
    }
    let mut fits = BTreeMap::new();
    let mut failed = Vec::new();
    let mut bad = BTreeSet::new();
    // In dependency order: a manifest once none of its sources is pending.
    while let Some(id) = pending
        .iter()
        .find(|id| {
            let e = loaded.entries.iter().find(|e| &e.manifest.id == *id);
            e.is_some_and(|e| run_sources(&e.manifest).all(|s| !pending.contains(s)))
        })
        .cloned()
    {
        pending.remove(&id);
        let Some(i) = loaded.entries.iter().position(|e| e.manifest.id == id) else {
            continue;
        };
        let e = &loaded.entries[i];
        let lost = fitted_params(&e.manifest).find(|(_, _, t)| parse(t).is_some_and(|r| bad.contains(r.id)));
        if let Some((run, param, text)) = lost {
            let msg = format!("`{text}`: its manifest's own fitted values could not be set");
            failed.push((i, run, param.to_string(), msg));
            bad.insert(id);
            continue;
        }
        match set(cache, &loaded.entries, e, &mut fits) {
            Ok(e) => loaded.entries[i] = e,
            Err((run, param, msg)) => {
                failed.push((i, run, param, msg));
                bad.insert(id);
            }
        }
    }
    // Left pending: a source that is itself invalid (the loader reported cycles).
    for id in &pending {
        if let Some(i) = loaded.entries.iter().position(|e| &e.manifest.id == id) {
            let (run, param, _) = fitted_params(&loaded.entries[i].manifest).next().unwrap_or_default();
            let msg = "a manifest its fitted values come from has no value (invalid)".to_string();
            failed.push((i, run, param.to_string(), msg));
        }
    }
    failed.sort_by_key(|f| std::cmp::Reverse(f.0));
    for (i, run, param, message) in failed {
        let e = loaded.entries.remove(i);
        loaded.invalid.push(invalid(root, &e, run, &param, message));
    }
    // The sources other manifests carry: as set here.
    let by_id: BTreeMap<String, Entry> = loaded
        .entries
        .iter()
        .map(|e| {
            let mut c = e.clone();
            c.fit_sources.clear();
            (e.manifest.id.clone(), c)
        })
        .collect();
    for e in &mut loaded.entries {
        for s in &mut e.fit_sources {
            if let Some(c) = by_id.get(&s.manifest.id) {
                *s = c.clone();
            }
        }
    }
}

/// A fit's found values by (manifest, fit), or why there are none.
type Fits = BTreeMap<(String, String), Result<Vec<(String, f64)>, String>>;

/// `e` with its fitted run parameters set, or (run index, parameter, why not).
fn set(cache: &RunCache, entries: &[Entry], e: &Entry, fits: &mut Fits) -> Result<Entry, (usize, String, String)> {
    let mut per_run: BTreeMap<usize, Vec<(String, f64)>> = BTreeMap::new();
    for (run, param, text) in fitted_params(&e.manifest) {
        let fail = |msg: String| (run, param.to_string(), format!("`{text}`: {msg}"));
        let r = parse(text).ok_or_else(|| fail("not `<doc>/<name>#<fit>.<param>`".into()))?;
        let key = (r.id.to_string(), r.fit.to_string());
        let found = fits.entry(key).or_insert_with(|| {
            let src = entries.iter().find(|s| s.manifest.id == r.id);
            let src = src.ok_or_else(|| format!("manifest `{}` is not loaded (invalid?)", r.id))?;
            let f = src.manifest.fit.iter().find(|f| f.name == r.fit);
            let f = f.ok_or_else(|| format!("`{}` has no fit `{}`", r.id, r.fit))?;
            let (f, x) = fitted(cache, src, f).map_err(|err| format!("fit `{}` of `{}`: {err}", r.fit, r.id))?;
            Ok(f.params.iter().map(|p| p.param.clone()).zip(x.params).collect())
        });
        let found = found.as_ref().map_err(|err| fail(err.clone()))?;
        let value = found.iter().find(|(p, _)| p == r.param).map(|(_, v)| *v);
        let value = value.ok_or_else(|| fail(format!("fit `{}` fits no `{}`", r.fit, r.param)))?;
        per_run.entry(run).or_default().push((param.to_string(), value));
    }
    let mut out = e.clone();
    for (run, set) in per_run {
        let id = &e.manifest.runs[run].id;
        out = variant(&out, id, &set).map_err(|err| (run, set[0].0.clone(), err))?;
    }
    Ok(out)
}

/// `e` as an invalid manifest: `message` at run `run`'s parameter `param`.
fn invalid(root: &Path, e: &Entry, run: usize, param: &str, message: String) -> InvalidManifest {
    let (line, column) = crate::readfile::read_to_string(&root.join(&e.file), crate::readfile::MANIFEST)
        .ok()
        .map(|text| {
            fric_manifest::Locator::new(&text).find(&["runs".into(), run.into(), "params".into(), param.into()])
        })
        .unwrap_or((1, 1));
    InvalidManifest {
        file: e.file.clone(),
        id: Some(e.manifest.id.clone()),
        diagnostics: vec![Diagnostic {
            file: e.file.clone(),
            line,
            column,
            message: format!(
                "run `{}`: the fitted value of `{param}`: {message}",
                e.manifest.runs[run].id
            ),
            allowed: "a fit that converges; run its manifest alone to see why it does not".into(),
        }],
    }
}
