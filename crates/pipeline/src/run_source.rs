//! Where a manifest's evaluation finds its runs' data: held in memory (the runs of a batch
//! within the per-process limit, [`crate::batches`]) or, for the runs of a batch larger than
//! it, released once computed and read again from the cache when a metric, a drawn series or a
//! reading needs them, through a memo bounded by what the limit leaves ([`Lazy`]). Either way
//! the evaluation sees one [`RunView`] per manifest.

use crate::compute::checked;
use crate::entry::{Entry, ResolvedRun};
use crate::evaluate;
use crate::memory;
use crate::store::{Lookup, RunCache};
use fric_experiments::RunData;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The runs a pipeline step evaluates: the data it holds and the errors of the runs that
/// failed, both by key, and (for a batch over the per-process limit) the cache the released
/// runs are read from.
pub(crate) struct Source<'a> {
    pub(crate) data: &'a HashMap<String, Arc<RunData>>,
    pub(crate) failed: &'a HashMap<String, String>,
    lazy: Option<&'a Lazy<'a>>,
}

impl<'a> Source<'a> {
    /// Every run held in `data` (or failed).
    pub(crate) fn held(data: &'a HashMap<String, Arc<RunData>>, failed: &'a HashMap<String, String>) -> Self {
        Source {
            data,
            failed,
            lazy: None,
        }
    }
    /// The runs in `data`, the failed ones, and every other run read from `lazy` when needed.
    pub(crate) fn with_lazy(
        data: &'a HashMap<String, Arc<RunData>>,
        failed: &'a HashMap<String, String>,
        lazy: Option<&'a Lazy<'a>>,
    ) -> Self {
        Source { data, failed, lazy }
    }
}

/// Runs read from the cache on demand, with their `post` columns, the most recently used kept
/// while they fit in `capacity` bytes (shared by the threads evaluating at once).
pub(crate) struct Lazy<'a> {
    cache: &'a RunCache,
    capacity: f64,
    memo: Mutex<Memo>,
    /// The runs read back from the cache so far ([`Lazy::reads`]).
    reads: AtomicUsize,
    /// The keys of the runs read back so far ([`Lazy::was_read`]).
    read: Mutex<HashSet<String>>,
}

/// The memo of [`Lazy`]: (run key with its `post` steps, data, bytes), least recently used first.
#[derive(Default)]
struct Memo {
    items: VecDeque<(String, Arc<RunData>, f64)>,
    bytes: f64,
}

/// The bytes of `d`'s columns.
fn bytes_of(d: &RunData) -> f64 {
    d.columns.iter().map(|c| c.1.len() as f64 * 8.0).sum()
}

impl<'a> Lazy<'a> {
    /// Reads from `cache`, keeping at most `capacity` bytes of runs between reads.
    pub(crate) fn new(cache: &'a RunCache, capacity: f64) -> Self {
        Lazy {
            cache,
            capacity: capacity.max(0.0),
            memo: Mutex::new(Memo::default()),
            reads: AtomicUsize::new(0),
            read: Mutex::new(HashSet::new()),
        }
    }

    /// Whether the run under `key` was read back (and so checked as a cached run is).
    pub(crate) fn was_read(&self, key: &str) -> bool {
        self.read.lock().unwrap_or_else(|p| p.into_inner()).contains(key)
    }

    /// Check a released cached run nothing read (code review L11): read it alone, verified as
    /// a cache hit is and its invariants checked as a held cached run's are, then dropped (not
    /// kept in the memo, not counted in [`Lazy::reads`]).
    pub(crate) fn check_unread(&self, r: &ResolvedRun) -> Result<(), String> {
        match self.cache.get(&r.key, &r.request) {
            Lookup::Hit(d) => checked(r, d).map(drop),
            Lookup::Corrupt(why) => Err(format!("cache entry corrupted after it was verified: {why}")),
            Lookup::Miss => Err("no longer in the cache after it was verified".into()),
        }
    }

    /// How many times a run was read back from the cache (not found in the memo).
    pub(crate) fn reads(&self) -> usize {
        self.reads.load(Ordering::Relaxed)
    }

    /// What the memo of the runs of a batch may hold under the per-process limit `max` with
    /// `threads` evaluations at once: the limit less, per thread, the largest run read
    /// ([`footprint`]).
    pub(crate) fn capacity_for<'r>(runs: impl IntoIterator<Item = &'r ResolvedRun>, max: f64, threads: usize) -> f64 {
        max - threads.max(1) as f64 * footprint(runs)
    }

    /// The data of run `r` with its `post` columns: from the memo, or read from the cache
    /// (checked as a cached run is) and post-processed. `Err((post, why))`: `post` when its
    /// `post` steps failed, else the run could not be read.
    fn get(&self, r: &ResolvedRun) -> Result<Arc<RunData>, (bool, String)> {
        let id = format!("{}{:?}", r.key, r.post);
        {
            let mut m = self.memo.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(i) = m.items.iter().position(|x| x.0 == id) {
                let item = m.items.remove(i).expect("position is in range");
                let d = item.1.clone();
                m.items.push_back(item);
                return Ok(d);
            }
        }
        self.reads.fetch_add(1, Ordering::Relaxed);
        self.read
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(r.key.clone());
        let d = match self.cache.get(&r.key, &r.request) {
            Lookup::Hit(d) => checked(r, d).map_err(|e| (false, e))?,
            Lookup::Corrupt(why) => return Err((false, format!("cache entry corrupted after it was written: {why}"))),
            Lookup::Miss => return Err((false, "not in the cache after it was computed".into())),
        };
        let d = if r.post.is_empty() {
            d
        } else {
            evaluate::post_process(&d, &r.post).map_err(|e| (true, e))?
        };
        let d = Arc::new(d);
        let b = bytes_of(&d);
        let mut m = self.memo.lock().unwrap_or_else(|p| p.into_inner());
        while !m.items.is_empty() && m.bytes + b > self.capacity {
            if let Some((_, _, old)) = m.items.pop_front() {
                m.bytes -= old;
            }
        }
        if b <= self.capacity {
            m.bytes += b;
            m.items.push_back((id, d.clone(), b));
        }
        Ok(d)
    }
}

/// The estimated bytes of the largest of `runs` while it is computed or read alone: its data,
/// their transient copies and the copy its `post` steps make ([`memory`]). No batch can hold
/// less than this at once.
pub(crate) fn footprint<'r>(runs: impl IntoIterator<Item = &'r ResolvedRun>) -> f64 {
    runs.into_iter().map(memory::read_alone).fold(0.0, f64::max)
}

/// The data of a manifest's runs by id, as its metrics and drawing read them: each run held,
/// or read when asked for ([`Lazy`]).
pub(crate) struct RunView<'a> {
    held: HashMap<String, Arc<RunData>>,
    lazy: HashMap<String, &'a ResolvedRun>,
    source: Option<&'a Lazy<'a>>,
}

impl RunView<'_> {
    /// The info values of run `id` (its step and event counts) without reading a released run
    /// back: from the held data, or from the metadata of its cache entry.
    pub(crate) fn info(&self, id: &str) -> Option<std::collections::BTreeMap<String, f64>> {
        if let Some(d) = self.held.get(id) {
            return Some(d.info.clone());
        }
        let (r, src) = (self.lazy.get(id)?, self.source?);
        src.cache.info(&r.key)
    }

    /// The data of run `id` (with its `post` columns), `Ok(None)` when it has none (it failed,
    /// as [`view`] reported), or why a released run could not be read back from the cache
    /// (e.g. its entry was removed or corrupted by another process since [`view`] read it).
    pub(crate) fn get(&self, id: &str) -> Result<Option<Arc<RunData>>, String> {
        if let Some(d) = self.held.get(id) {
            return Ok(Some(d.clone()));
        }
        let (Some(r), Some(src)) = (self.lazy.get(id), self.source) else {
            return Ok(None);
        };
        match src.get(r) {
            Ok(d) => Ok(Some(d)),
            Err((true, err)) => Err(format!("run `{id}` post-processing: {err}")),
            Err((false, err)) => Err(format!("run `{id}` could not be read back from the cache: {err}")),
        }
    }
}

/// The view of `e`'s runs in `src`, and the errors of those without data: a run failed or its
/// `post` steps did. A released run is not read here: it is read when first used, and a failure
/// to read it back (or of its `post` steps) is the error of the metric or drawing that used it
/// (before, each was read here once more only to find those errors: review M4).
pub(crate) fn view<'a>(e: &'a Entry, src: &Source<'a>) -> (RunView<'a>, Vec<String>) {
    let mut v = RunView {
        held: HashMap::new(),
        lazy: HashMap::new(),
        source: src.lazy,
    };
    let mut errors = Vec::new();
    // Runs with post-processing get their own copy with the derived columns.
    for (id, r) in &e.runs {
        if let (false, Some(d)) = (r.post.is_empty(), src.data.get(&r.key)) {
            match evaluate::post_process(d, &r.post) {
                Ok(p) => {
                    v.held.insert(id.clone(), Arc::new(p));
                }
                Err(err) => errors.push(format!("run `{id}` post-processing: {err}")),
            }
        }
    }
    for (id, r) in &e.runs {
        if v.held.contains_key(id) || (!r.post.is_empty() && src.data.contains_key(&r.key)) {
            continue;
        }
        if let Some(d) = src.data.get(&r.key) {
            v.held.insert(id.clone(), d.clone());
            continue;
        }
        let failed = || {
            format!(
                "run `{id}` failed: {}",
                src.failed.get(&r.key).map(String::as_str).unwrap_or("not computed")
            )
        };
        // A released run is read when a metric or a drawn series first needs it (each read
        // is a whole run decoded): its errors are reported there ([`RunView::get`]).
        match src.lazy.filter(|_| !src.failed.contains_key(&r.key)) {
            None => errors.push(failed()),
            Some(_) => {
                v.lazy.insert(id.clone(), r);
            }
        }
    }
    (v, errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fric_experiments::RunRequest;

    /// A run of a system without invariants, stored under `key` in `cache`.
    fn stored(cache: &RunCache, key: &str) -> ResolvedRun {
        let written = fric_manifest::InputSpec::new("sine", [("amplitude", 0.002.into()), ("omega", 1.0.into())]);
        let r = ResolvedRun {
            request: RunRequest {
                system: "no-such-system".into(),
                params: Default::default(),
                input: fric_experiments::inputs::resolve(&written).expect("a sine input"),
                sim: Default::default(),
                method: fric_experiments::methods::Method::Dopri5,
                input_data: None,
            },
            post: Vec::new(),
            key: key.into(),
            placeholders: Vec::new(),
        };
        let d = RunData {
            columns: vec![("t".into(), vec![0.0, 1.0])],
            period: None,
            info: Default::default(),
        };
        cache.put(key, &r.request, &d).expect("a writable cache");
        r
    }

    /// A released run whose cache entry is corrupted after it was first read: `get` says why,
    /// instead of the run seeming to have no data.
    #[test]
    fn a_released_run_that_cannot_be_read_back_says_why() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let cache = RunCache::new(dir.path().to_path_buf());
        let key = "ab".repeat(32);
        let r = stored(&cache, &key);
        // A memo of no bytes: every use reads the cache again.
        let lazy = Lazy::new(&cache, 0.0);
        let v = RunView {
            held: HashMap::new(),
            lazy: HashMap::from([("x".to_string(), &r)]),
            source: Some(&lazy),
        };
        assert_eq!(v.get("x").expect("readable").expect("data").len(), 2);
        assert!(v.get("other").expect("no read").is_none());
        let pq = dir.path().join(&key[..2]).join(format!("{key}.parquet"));
        std::fs::write(&pq, b"not parquet").expect("a writable cache entry");
        let err = v.get("x").expect_err("a corrupted entry is an error");
        assert!(err.contains("run `x`") && err.contains("checksum mismatch"), "{err}");
    }
}
