//! What a no-op compares instead of hashing an output: the file's size, modification and
//! change times and inode, recorded when the output was written (git's index and cargo's
//! fingerprints do the same). Any difference (a rewrite, a copy, a `touch`, a file replaced by
//! rename) sends the output to the hash check; the change time (`ctime`) cannot be set from
//! user space, so an output edited in place whose modification time was then forged back still
//! differs. `--verify` ignores the recorded stats and hashes every output.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The identity of a file's current content as the file system reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStat {
    pub len: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: i128,
    /// Status change time, nanoseconds since the epoch (0 where the platform has none).
    pub ctime_ns: i128,
    /// Inode number (0 where the platform has none).
    pub ino: u64,
}

impl FileStat {
    /// The stat of `path`, `None` if it cannot be read.
    pub fn of(path: &Path) -> Option<FileStat> {
        let m = std::fs::metadata(path).ok()?;
        Some(from_metadata(&m))
    }
}

#[cfg(unix)]
fn from_metadata(m: &std::fs::Metadata) -> FileStat {
    use std::os::unix::fs::MetadataExt;
    let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
    FileStat {
        len: m.size(),
        mtime_ns: ns(m.mtime(), m.mtime_nsec()),
        ctime_ns: ns(m.ctime(), m.ctime_nsec()),
        ino: m.ino(),
    }
}

#[cfg(not(unix))]
fn from_metadata(m: &std::fs::Metadata) -> FileStat {
    let mtime_ns = m
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128);
    FileStat {
        len: m.len(),
        mtime_ns,
        ctime_ns: 0,
        ino: 0,
    }
}

/// How recently changed a file may be for its stat to be recorded. File times have a coarse
/// granularity (a kernel tick, or 2 s on FAT), so a file changed again within it could keep
/// its stat; like git's "racy" entries, such a file is not recorded now but hashed on the next
/// check, which records it then.
const RACY_NS: i128 = 2_000_000_000;

/// The stats of the outputs `rels` (paths relative to `root`) as they are now; an output that
/// cannot be read, or changed too recently to be told apart from a later change, is left out
/// (it is then hashed on the next check).
pub fn stats_of<'a>(root: &Path, rels: impl Iterator<Item = &'a String>) -> BTreeMap<String, FileStat> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    rels.filter_map(|rel| {
        let p = crate::store::output_path(root, rel).ok()?;
        let s = FileStat::of(&p)?;
        (now - s.mtime_ns.max(s.ctime_ns) >= RACY_NS).then(|| (rel.clone(), s))
    })
    .collect()
}
