//! The run cache kept bounded: the entries of other builds (other computing code, whose keys
//! this build never asks for) beyond [`crate::limits::STALE_CACHE_BYTES`] are removed, the
//! least recently written first. An entry written within [`IN_FLIGHT`] is never removed (it may
//! be another live process's, of another build, sharing the cache), nor is any entry of this
//! build, nor a file without its partner (`clean --stale` handles those).

use crate::store::{by_this_build, Pruned, RunCache, IN_FLIGHT};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The file in the cache directory whose modification time says when the cache was last
/// bounded: [`RunCache::bound_stale_at_most_hourly`] scans it at most once per [`IN_FLIGHT`].
const MARK: &str = ".bounded";

/// One complete entry of another build.
struct Stale {
    json: PathBuf,
    parquet: PathBuf,
    bytes: u64,
    written: SystemTime,
}

/// The complete entries of other builds under the cache directory `dir`.
fn stale_entries(dir: &Path) -> Vec<Stale> {
    let Ok(shards) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for shard in shards.flatten().filter(|s| s.path().is_dir()) {
        let Ok(files) = std::fs::read_dir(shard.path()) else {
            continue;
        };
        for f in files.flatten() {
            let json = f.path();
            let Some(key) = json.file_name().and_then(|n| n.to_str()?.strip_suffix(".json")) else {
                continue;
            };
            let parquet = shard.path().join(format!("{key}.parquet"));
            let (Ok(jm), Ok(pm)) = (f.metadata(), parquet.metadata()) else {
                continue;
            };
            if by_this_build(&json) {
                continue;
            }
            let written = [jm.modified(), pm.modified()].into_iter().flatten().max();
            out.push(Stale {
                bytes: jm.len() + pm.len(),
                written: written.unwrap_or_else(SystemTime::now),
                json,
                parquet,
            });
        }
    }
    out
}

/// Remove the file at `p`; one already gone (another process bounding the same cache) is not
/// an error.
fn remove(p: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(p) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Whether `t` is longer than [`IN_FLIGHT`] ago.
fn settled(t: SystemTime) -> bool {
    t.elapsed().is_ok_and(|age| age > IN_FLIGHT)
}

impl RunCache {
    /// Remove the entries of other builds beyond `keep` bytes, keeping the most recently
    /// written ones: those written within [`IN_FLIGHT`] are kept whatever their size.
    pub fn bound_stale(&self, keep: u64) -> std::io::Result<Pruned> {
        let mut entries = stale_entries(self.dir());
        entries.sort_by_key(|e| std::cmp::Reverse(e.written));
        let (mut kept, mut p) = (0u64, Pruned::default());
        for e in entries {
            if kept + e.bytes <= keep || !settled(e.written) {
                kept += e.bytes;
                continue;
            }
            // The metadata first: without it the entry is a miss, whatever happens next.
            remove(&e.json)?;
            remove(&e.parquet)?;
            p.entries += 1;
            p.files += 2;
            p.bytes += e.bytes;
        }
        Ok(p)
    }

    /// [`RunCache::bound_stale`] at the limit [`crate::limits::STALE_CACHE_BYTES`], at most once
    /// per [`IN_FLIGHT`] (reading every entry's metadata costs time on a large cache): what was
    /// removed, None when it was not time, the cache is absent or a removal failed.
    pub fn bound_stale_at_most_hourly(&self) -> Option<Pruned> {
        let mark = self.dir().join(MARK);
        let recent = mark.metadata().and_then(|m| m.modified()).is_ok_and(|t| !settled(t));
        if recent || !self.dir().is_dir() {
            return None;
        }
        // Removed first: rewriting an empty file need not change its modification time.
        let _ = std::fs::remove_file(&mark);
        std::fs::write(&mark, b"").ok()?;
        self.bound_stale(crate::limits::STALE_CACHE_BYTES.value()).ok()
    }
}
