//! Companion figures (`related: [{id, relation: companion-of}]`): figures whose magnitudes the
//! text compares, drawn with one unit scaling. The relation is symmetric and transitive: a
//! figure's companions are every other figure of its group, and each entry carries them (their
//! manifests and resolved runs), so the figure's drawing can read their data.

use super::ctx::Ctx;
use crate::entry::Entry;
use fric_manifest::{Kind, Manifest, Relation};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The ids `m` names as companions.
fn named(m: &Manifest) -> impl Iterator<Item = &str> {
    m.related
        .iter()
        .filter(|r| r.relation == Relation::CompanionOf)
        .map(|r| r.id.as_str())
}

/// Every figure's companions (the other members of its group), by id, over the manifests that
/// parse (`by_id`); an id not among them is left out (reported by [`check`]).
pub(super) fn groups(by_id: &HashMap<&str, &Manifest>) -> BTreeMap<String, BTreeSet<String>> {
    let mut adjacent: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (id, m) in by_id {
        for other in named(m).filter(|o| by_id.contains_key(o) && o != id) {
            adjacent.entry(id).or_default().insert(other);
            adjacent.entry(other).or_default().insert(id);
        }
    }
    let mut out = BTreeMap::new();
    for &start in adjacent.keys() {
        let mut seen = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(n) = todo.pop() {
            for &next in adjacent.get(n).into_iter().flatten() {
                if seen.insert(next) {
                    todo.push(next);
                }
            }
        }
        seen.remove(start);
        out.insert(start.to_string(), seen.into_iter().map(str::to_string).collect());
    }
    out
}

/// A `companion-of` names a figure manifest that parses, from a figure manifest.
pub(super) fn check(cx: &mut Ctx, by_id: &HashMap<&str, &Manifest>) {
    let m = cx.m;
    for (i, r) in m.related.iter().enumerate() {
        if r.relation != Relation::CompanionOf {
            continue;
        }
        let path = format!("related[{i}].id");
        let problem = match by_id.get(r.id.as_str()) {
            _ if m.kind != Kind::Figure => Some(format!("`{}` is a table: only figures have companions", m.id)),
            _ if r.id == m.id => Some("a figure is not its own companion".to_string()),
            None => Some(format!("no valid manifest `{}`", r.id)),
            Some(o) if o.kind != Kind::Figure => Some(format!("`{}` is not a figure", r.id)),
            Some(_) => None,
        };
        if let Some(msg) = problem {
            cx.err(path, msg, "the id of a figure manifest that parses, <doc>/<name>");
        }
    }
}

/// Give every entry of a group its companions' entries (as loaded: resolved runs when
/// validated).
pub(super) fn attach(entries: &mut [Entry], groups: &BTreeMap<String, BTreeSet<String>>) {
    let loaded: HashMap<String, Entry> = entries
        .iter()
        .filter(|e| groups.contains_key(&e.manifest.id))
        .map(|e| (e.manifest.id.clone(), e.clone()))
        .collect();
    for e in entries.iter_mut() {
        if let Some(ids) = groups.get(&e.manifest.id) {
            e.companions = ids.iter().filter_map(|id| loaded.get(id).cloned()).collect();
        }
    }
}
