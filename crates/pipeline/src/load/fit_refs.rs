//! `fitted` metrics: a fit result of another manifest, `fit: <doc>/<name>#<fit>.<param>`. The
//! reference names a manifest that parses (not this one) with a fit of that name fitting that
//! parameter, each problem at `metrics[i].fit`; only a `fitted` metric takes `fit`. The
//! manifests referred to are validated with the one that refers to them (their runs resolved)
//! and carried by its entry ([`attach`]), whose evaluation key covers them; so are the
//! manifests a fit target names (`targets[].manifest`, [`check_targets`]).

use super::ctx::Ctx;
use super::fit_ref_syntax::{parse, run_sources, sources, FitRef, KIND};
use crate::entry::Entry;
use fric_manifest::run_ref::RunRef;
use fric_manifest::Manifest;
use std::collections::{BTreeSet, HashMap};

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

/// Every fit target of another manifest (`targets[k].manifest`): a valid manifest, not this
/// one, with that metric and a run taken (`from:`) from a fitted run (else the metric would not
/// move with the fit), and a `value` (not points).
pub(in crate::load) fn check_targets(cx: &mut Ctx, by_id: &HashMap<&str, &Manifest>) {
    let m = cx.m;
    for (i, f) in m.fit.iter().enumerate() {
        for (k, t) in f.targets.iter().enumerate() {
            let Some(id) = t.manifest.as_deref() else { continue };
            let at = format!("fit[{i}].targets[{k}]");
            let Some(o) = by_id.get(id).filter(|_| id != m.id) else {
                let msg = format!("no valid manifest `{id}` other than this one");
                cx.err(format!("{at}.manifest"), msg, "another manifest's id, `<doc>/<name>`");
                continue;
            };
            if !o.metrics.iter().any(|x| x.name == t.metric) {
                let names: Vec<&str> = o.metrics.iter().map(|x| x.name.as_str()).collect();
                let msg = format!("`{id}` has no metric `{}`", t.metric);
                cx.err(
                    format!("{at}.metric"),
                    msg,
                    format!("a metric of `{id}`: {}", names.join(", ")),
                );
            }
            if crate::entry::runs_taken_from(o, &m.id, &f.run.ids()).is_empty() {
                let from: Vec<String> = f.run.ids().iter().map(|r| RunRef::new(&m.id, r).to_string()).collect();
                let msg = format!(
                    "no run of `{id}` is taken from a fitted run ({}): its metric would not move with the fit",
                    from.join(", ")
                );
                cx.err(
                    format!("{at}.manifest"),
                    msg,
                    "a manifest with a run `from:` a fitted run",
                );
            }
            if t.value.is_none() {
                let msg = "a target of another manifest needs `value`";
                cx.err(at.clone(), msg, "{metric, manifest, value}");
            }
        }
    }
}

/// What is wrong with reference `r`, if anything.
pub(super) fn problem(by_id: &HashMap<&str, &Manifest>, r: &FitRef) -> Option<String> {
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

/// The ids that the selected manifests' `fitted` metrics and run parameters refer to
/// (validated with them), with the manifests (of `all`) those fits' runs take fitted values
/// from, transitively: a fit is evaluated on runs whose own fitted values are set first.
pub(in crate::load) fn wanted_sources<'a>(
    selected: impl Iterator<Item = &'a Manifest>,
    all: &HashMap<&str, &Manifest>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut queue: Vec<String> = selected.flat_map(|m| sources(m).map(str::to_string)).collect();
    while let Some(id) = queue.pop() {
        if let Some(m) = all.get(id.as_str()).filter(|_| !out.contains(&id)) {
            queue.extend(run_sources(m).map(str::to_string));
        }
        out.insert(id);
    }
    out
}

/// Give every entry the entries its `fitted` metrics refer to (as loaded, without their own
/// sources: a fit is evaluated on its own manifest).
pub(super) fn attach(entries: &mut [Entry]) {
    let all: HashMap<&str, &Manifest> = entries.iter().map(|e| (e.manifest.id.as_str(), &e.manifest)).collect();
    let wanted = wanted_sources(entries.iter().map(|e| &e.manifest), &all);
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
