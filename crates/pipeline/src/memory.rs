//! The estimated memory of runs held together, in bytes: what the per-manifest and per-process
//! limits ([`crate::limits::MANIFEST_BYTES`], [`crate::limits::PROCESS_BYTES`]) bound. Measured
//! against the peak heap (a counting allocator, `tests/memory_estimate.rs`), it is an upper
//! bound within a factor of two (1.47 there); counting the data once, as it did before, was
//! three times low.

use crate::entry::ResolvedRun;
use std::collections::HashSet;

/// Copies of a run's data that exist beside the data itself while it is computed or read from
/// the cache: reading one holds the Parquet file's bytes, the reader's copy of them and the
/// decoded columns. Measured (`tests/memory_estimate.rs`): one Dahl run of 10⁶ samples, 32 MB
/// of data, whose two `post` columns make a 48 MB copy, peaked at 97.7 MB of heap computed and
/// 97.6 MB read from the cache; this estimate says 144 MB, counting the data once said 32 MB.
pub const TRANSIENT_COPIES: f64 = 2.0;

/// The data of run `r`: samples × columns × 8 bytes.
pub fn data_bytes(r: &ResolvedRun) -> f64 {
    let columns = fric_experiments::system(&r.request.system).map_or(1, |s| s.columns.len());
    samples(r) * columns as f64 * 8.0
}

/// The copy of run `r`'s data that its `post` steps make, with their derived columns, while its
/// manifest is evaluated (none without `post`).
pub fn derived_bytes(r: &ResolvedRun) -> f64 {
    if r.post.is_empty() {
        return 0.0;
    }
    data_bytes(r) + samples(r) * r.post.len() as f64 * 8.0
}

/// The rows run `r` records ([`fric_experiments::budget::estimate`]).
fn samples(r: &ResolvedRun) -> f64 {
    fric_experiments::budget::estimate(&r.request).0
}

/// The runs held together by a process: their data (each run once, by key), the `post` copies
/// each manifest makes while it is evaluated, and the sizes of the runs, whose transient
/// copies exist while they are computed or read.
#[derive(Clone, Debug, Default)]
pub struct Held {
    keys: HashSet<String>,
    data: f64,
    /// Per manifest: the copies its `post` steps make, all held while it is evaluated.
    derived: Vec<f64>,
    /// The data of each distinct run.
    runs: Vec<f64>,
}

/// The sum of the `k` largest of `v`.
fn largest(v: &[f64], k: usize) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| b.total_cmp(a));
    v.iter().take(k).sum()
}

impl Held {
    /// Add the runs one manifest evaluates (its own and its alternative readings'; a run
    /// listed again, or already held, is held once; each listing with `post` is a copy).
    pub fn add_manifest<'a>(&mut self, runs: impl IntoIterator<Item = &'a ResolvedRun>) {
        let mut derived = 0.0;
        for r in runs {
            if self.keys.insert(r.key.clone()) {
                let data = data_bytes(r);
                self.data += data;
                self.runs.push(data);
            }
            derived += derived_bytes(r);
        }
        self.derived.push(derived);
    }
    /// Add the runs `other` holds (runs of other manifests, by other keys).
    pub fn merge(&mut self, other: &Held) {
        self.keys.extend(other.keys.iter().cloned());
        self.data += other.data;
        self.derived.extend(&other.derived);
        self.runs.extend(&other.runs);
    }
    /// The estimated bytes when `threads` manifests are evaluated, and `threads` runs computed
    /// or read, at once: the data of every run, the `post` copies of the `threads` manifests
    /// that make the largest, and the transient copies of the `threads` largest runs.
    pub fn bytes(&self, threads: usize) -> f64 {
        let k = threads.max(1);
        self.data + largest(&self.derived, k) + TRANSIENT_COPIES * largest(&self.runs, k)
    }
}

/// The estimated memory of the runs of one manifest (`runs`, a run listed more than once held
/// once) while it is evaluated, one run computed or read at a time: [`Held::bytes`].
pub fn estimate<'a>(runs: impl IntoIterator<Item = &'a ResolvedRun>) -> f64 {
    let mut h = Held::default();
    h.add_manifest(runs);
    h.bytes(1)
}
