//! `fitted` metrics: a fit result of another manifest, `fit: <doc>/<name>#<fit>.<param>`. The
//! reference names a manifest that parses (not this one) with a fit of that name fitting that
//! parameter, each problem at `metrics[i].fit`; only a `fitted` metric takes `fit`. The
//! manifests referred to are validated with the one that refers to them (their runs resolved)
//! and carried by its entry ([`attach`]), whose evaluation key covers them.

use super::ctx::Ctx;
use crate::entry::Entry;
use fric_manifest::Manifest;
use std::collections::{BTreeSet, HashMap};

/// The kind's name.
pub(crate) const KIND: &str = "fitted";

/// A parsed reference: the manifest, its fit and the parameter.
pub(crate) struct FitRef<'a> {
    pub id: &'a str,
    pub fit: &'a str,
    pub param: &'a str,
}

/// `<doc>/<name>#<fit>.<param>`; a fit's name has no `.`, a parameter may (`input.amplitude`).
pub(crate) fn parse(s: &str) -> Option<FitRef<'_>> {
    let (id, rest) = s.split_once('#')?;
    let (fit, param) = rest.split_once('.')?;
    let ok = id.contains('/') && !fit.is_empty() && !param.is_empty();
    ok.then_some(FitRef { id, fit, param })
}

/// The manifests `m`'s `fitted` metrics refer to.
pub(in crate::load) fn sources(m: &Manifest) -> impl Iterator<Item = &str> {
    m.metrics
        .iter()
        .filter(|mt| mt.kind.0 == KIND)
        .filter_map(|mt| parse(mt.fit.as_deref()?).map(|r| r.id))
}

/// Whether `name` is `<metric>.sd` of a `fitted` metric (its standard error).
pub(in crate::load) fn is_fitted_sd(m: &Manifest, name: &str) -> bool {
    name.strip_suffix(".sd")
        .is_some_and(|b| m.metrics.iter().any(|mt| mt.name == b && mt.kind.0 == KIND))
}

/// Every `fit` field of the manifest's metrics.
pub(in crate::load) fn check(cx: &mut Ctx, by_id: &HashMap<&str, &Manifest>) {
    let m = cx.m;
    for (i, mt) in m.metrics.iter().enumerate() {
        let Some(s) = &mt.fit else { continue };
        let at = format!("metrics[{i}].fit");
        if mt.kind.0 != KIND {
            let msg = format!("a `{}` metric takes no `fit`", mt.kind.0);
            cx.err(at, msg, "`fit` only on `kind: fitted`");
            continue;
        }
        let problem = match parse(s) {
            None => Some(format!("`{s}` is not `<doc>/<name>#<fit>.<param>`")),
            Some(r) if r.id == m.id => Some(format!(
                "`{s}` is this manifest's own fit: its result is the metric `{}.{}`",
                r.fit, r.param
            )),
            Some(r) => problem(by_id, &r),
        };
        if let Some(msg) = problem {
            let allowed =
                "`<doc>/<name>#<fit>.<param>`: a fit of another manifest that parses, and one of its parameters";
            cx.err(at, msg, allowed);
        }
    }
}

/// What is wrong with reference `r`, if anything.
fn problem(by_id: &HashMap<&str, &Manifest>, r: &FitRef) -> Option<String> {
    let Some(o) = by_id.get(r.id) else {
        return Some(format!("no valid manifest `{}`", r.id));
    };
    let Some(f) = o.fit.iter().find(|f| f.name == r.fit) else {
        let fits: Vec<&str> = o.fit.iter().map(|f| f.name.as_str()).collect();
        return Some(format!(
            "`{}` has no fit `{}` (its fits: {})",
            r.id,
            r.fit,
            names(&fits)
        ));
    };
    if f.params.iter().any(|p| p.param == r.param) {
        return None;
    }
    let params: Vec<&str> = f.params.iter().map(|p| p.param.as_str()).collect();
    Some(format!(
        "fit `{}` of `{}` fits no `{}` (it fits {})",
        r.fit,
        r.id,
        r.param,
        names(&params)
    ))
}

fn names(v: &[&str]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// The ids that the selected manifests' `fitted` metrics refer to (validated with them).
pub(in crate::load) fn wanted_sources<'a>(selected: impl Iterator<Item = &'a Manifest>) -> BTreeSet<String> {
    selected.flat_map(|m| sources(m).map(str::to_string)).collect()
}

/// Give every entry the entries its `fitted` metrics refer to (as loaded, without their own
/// sources: a fit is evaluated on its own manifest).
pub(super) fn attach(entries: &mut [Entry]) {
    let wanted = wanted_sources(entries.iter().map(|e| &e.manifest));
    if wanted.is_empty() {
        return;
    }
    let loaded: HashMap<String, Entry> = entries
        .iter()
        .filter(|e| wanted.contains(&e.manifest.id))
        .map(|e| {
            let mut c = e.clone();
            c.fit_sources.clear();
            (e.manifest.id.clone(), c)
        })
        .collect();
    for e in entries.iter_mut() {
        let ids: BTreeSet<String> = sources(&e.manifest).map(str::to_string).collect();
        e.fit_sources = ids.iter().filter_map(|id| loaded.get(id).cloned()).collect();
    }
}
