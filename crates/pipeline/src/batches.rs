//! The manifests to evaluate, split into batches whose runs' estimated memory together stays
//! within the per-process limit ([`crate::limits::PROCESS_BYTES`]): each batch is computed,
//! evaluated and released before the next starts. Manifests that share a run (or whose
//! alternative readings do) go into one batch, so that no run is computed or read twice and
//! the counts of runs add up.

use crate::entry::{Entry, ResolvedRun};
use crate::sensitivity::Planned;
use std::collections::{BTreeMap, HashMap};

/// The estimated memory of one run's data, in bytes: samples × columns × 8 (what
/// [`crate::limits::MANIFEST_BYTES`] bounds per manifest).
pub(crate) fn run_bytes(r: &ResolvedRun) -> f64 {
    let columns = fric_experiments::system(&r.request.system).map_or(1, |s| s.columns.len());
    fric_experiments::budget::estimate(&r.request).0 * columns as f64 * 8.0
}

/// The runs of manifest `e` and of its alternative `readings`, by key.
fn runs_of<'a>(e: &'a Entry, readings: &'a [Planned]) -> BTreeMap<&'a str, &'a ResolvedRun> {
    let own = e.runs.values();
    let alt = readings
        .iter()
        .filter_map(|(_, v)| v.as_ref())
        .flat_map(|v| v.runs.values());
    own.chain(alt).map(|r| (r.key.as_str(), r)).collect()
}

/// Union–find root of `i`.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The groups of manifests (indices into `entries`) that share runs, each with the estimated
/// memory of its distinct runs; groups in the order of their first manifest.
fn groups(entries: &[&Entry], readings: &[Vec<Planned>]) -> Vec<(Vec<usize>, f64)> {
    let runs: Vec<_> = entries.iter().zip(readings).map(|(e, r)| runs_of(e, r)).collect();
    let mut parent: Vec<usize> = (0..entries.len()).collect();
    let mut owner: HashMap<&str, usize> = HashMap::new();
    for (i, rs) in runs.iter().enumerate() {
        for k in rs.keys() {
            let j = *owner.entry(k).or_insert(i);
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut by_root: BTreeMap<usize, (Vec<usize>, BTreeMap<&str, f64>)> = BTreeMap::new();
    for (i, rs) in runs.iter().enumerate() {
        let g = by_root.entry(root(&mut parent, i)).or_default();
        g.0.push(i);
        for (k, r) in rs {
            g.1.entry(k).or_insert_with(|| run_bytes(r));
        }
    }
    by_root
        .into_values()
        .map(|(members, bytes)| (members, bytes.values().sum()))
        .collect()
}

/// The manifests `entries` (with their `readings`) in batches of at most `max` estimated bytes
/// (indices into `entries`, each batch in input order). A group of manifests sharing runs is
/// never split: one larger than `max` is a batch of its own (each manifest is within
/// [`crate::limits::MANIFEST_BYTES`]). Every manifest is in exactly one batch; with
/// everything within `max`, there is one batch.
pub(crate) fn batches(entries: &[&Entry], readings: &[Vec<Planned>], max: f64) -> Vec<Vec<usize>> {
    let mut out: Vec<(Vec<usize>, f64)> = Vec::new();
    for (members, bytes) in groups(entries, readings) {
        match out.last_mut() {
            Some((b, total)) if *total + bytes <= max => {
                b.extend(members);
                *total += bytes;
            }
            _ => out.push((members, bytes)),
        }
    }
    out.into_iter()
        .map(|(mut b, _)| {
            b.sort_unstable();
            b
        })
        .collect()
}
