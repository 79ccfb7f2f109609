//! The manifests to evaluate, split into batches whose runs' estimated memory together stays
//! within the per-process limit ([`crate::limits::PROCESS_BYTES`]): each batch is computed,
//! evaluated and released before the next starts. Manifests that share a run (or whose
//! alternative readings do) go into one batch, so that no run is computed or read twice and
//! the counts of runs add up.

use crate::entry::{Entry, ResolvedRun};
use crate::memory::Held;
use crate::sensitivity::Planned;
use std::collections::{BTreeMap, HashMap};

/// The runs of manifest `e`, of its companions (`related: companion-of`, whose runs its drawing
/// reads to choose its units) and of its alternative `readings` (a run each reading keeps
/// unchanged is listed again). Without the companions', a figure and its companion could land
/// in different batches and the figure find its companion's runs "not computed" (seen with
/// the project under a 0.55 GB limit: report/fig2.15, 2.16, 3.17, 3.18).
fn runs_of<'a>(e: &'a Entry, readings: &'a [Planned]) -> Vec<&'a ResolvedRun> {
    let own = crate::companions::runs_with_companions(e);
    let alt = readings
        .iter()
        .filter_map(|(_, v)| v.as_ref())
        .flat_map(|v| v.runs.values());
    own.chain(alt).collect()
}

/// The bytes manifest `e`'s figure holds while it is built ([`crate::memory::figure_bytes`]).
fn figure(e: &Entry) -> f64 {
    crate::memory::figure_bytes(&e.manifest, &e.runs, &e.sweeps)
}

/// Union–find root of `i`.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The groups of manifests (indices into `entries`) that share runs, each with the runs it
/// holds; groups in the order of their first manifest.
fn groups(entries: &[&Entry], readings: &[Vec<Planned>]) -> Vec<(Vec<usize>, Held)> {
    let runs: Vec<_> = entries.iter().zip(readings).map(|(e, r)| runs_of(e, r)).collect();
    let mut parent: Vec<usize> = (0..entries.len()).collect();
    let mut owner: HashMap<&str, usize> = HashMap::new();
    for (i, rs) in runs.iter().enumerate() {
        for k in rs.iter().map(|r| r.key.as_str()) {
            let j = *owner.entry(k).or_insert(i);
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut by_root: BTreeMap<usize, (Vec<usize>, Held)> = BTreeMap::new();
    for (i, rs) in runs.iter().enumerate() {
        let g = by_root.entry(root(&mut parent, i)).or_default();
        g.0.push(i);
        let e = entries[i];
        g.1.add_manifest(rs.iter().copied(), figure(e));
    }
    by_root.into_values().collect()
}

/// The manifests `entries` (with their `readings`) in batches of at most `max` estimated bytes
/// with `threads` evaluations at once ([`Held::bytes`]; indices into `entries`, each batch in
/// input order). A group of manifests sharing runs is never split: one larger than `max` is a
/// batch of its own (each manifest is within [`crate::limits::MANIFEST_BYTES`]). Every
/// manifest is in exactly one batch; with everything within `max`, there is one batch.
pub(crate) fn batches(entries: &[&Entry], readings: &[Vec<Planned>], max: f64, threads: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<(Vec<usize>, Held)> = Vec::new();
    for (members, held) in groups(entries, readings) {
        let joined = out.last().map(|(_, total)| {
            let mut t = total.clone();
            t.merge(&held);
            t
        });
        match (out.last_mut(), joined) {
            (Some((b, total)), Some(t)) if t.bytes(threads) <= max => {
                b.extend(members);
                *total = t;
            }
            _ => out.push((members, held)),
        }
    }
    out.into_iter()
        .map(|(mut b, _)| {
            b.sort_unstable();
            b
        })
        .collect()
}

/// The estimate of the runs of the manifests `entries` (with their `readings`) held together,
/// and those runs (a run listed again is listed once per listing).
pub(crate) fn held<'a>(entries: &[&'a Entry], readings: &'a [Vec<Planned>]) -> (Held, Vec<&'a ResolvedRun>) {
    let mut h = Held::default();
    let mut all = Vec::new();
    for (e, r) in entries.iter().zip(readings) {
        let rs = runs_of(e, r);
        h.add_manifest(rs.iter().copied(), figure(e));
        all.extend(rs);
    }
    (h, all)
}
