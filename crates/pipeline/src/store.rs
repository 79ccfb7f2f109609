//! Atomic file writes and the content-addressed run cache.
//!
//! A cached run is `<key>.parquet` (its columns) and `<key>.json` (its own key, the full request,
//! period, diagnostics and the sha256 of the Parquet bytes). Both are written to a temporary file
//! in the same directory and renamed into place, the JSON last, so an interrupted write leaves no
//! entry that looks valid. Reading verifies the checksum (the two files belong together), the
//! recorded key (the pair belongs at this key: a swapped or copied pair is caught) and the
//! recorded request (it is the run asked for); a failing entry is reported and recomputed.

use crate::frames;
use crate::hash::sha256_hex;
use fric_experiments::RunData;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// This machine, as it is written into temporary names: the first 8 hex digits of the sha256
/// of its host name (a shared cache is written from several machines, whose process ids say
/// nothing about each other).
pub fn host_tag() -> &'static str {
    static TAG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TAG.get_or_init(|| {
        #[cfg(unix)]
        {
            let mut buf = [0u8; 256];
            // SAFETY: `buf` is writable for its whole length, which is what is passed.
            if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0 {
                let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
                return sha256_hex(&buf[..end])[..8].to_string();
            }
        }
        sha256_hex(b"unknown")[..8].to_string()
    })
}

/// The name of the temporary file a write of `path` goes through: hidden, beside it, and
/// unique to this write: the process id and this machine ([`host_tag`]: two processes writing
/// one shared cache, on one machine or two) and a counter (two threads of one process, or two
/// writes one after the other) are all in it, so no two writes ever share a temporary file
/// (code review L1), and a leftover's writer can be told dead ([`remove_stale_temps`]).
fn tmp_name(path: &Path) -> String {
    let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    format!(
        ".{}.{}-{}.{n}.tmp",
        path.file_name().and_then(|s| s.to_str()).unwrap_or("out"),
        std::process::id(),
        host_tag()
    )
}

/// Whether the temporary file `name` (`.<name>.<pid>-<host>.<n>.tmp`) was written by a process
/// of this machine that is no longer alive: its write can never finish.
fn writer_dead(name: &str) -> bool {
    let Some(owner) = name.strip_suffix(".tmp").and_then(|s| s.rsplit('.').nth(1)) else {
        return false;
    };
    let Some((pid, host)) = owner.split_once('-') else {
        return false;
    };
    if host != host_tag() {
        return false;
    }
    #[cfg(unix)]
    if let Ok(pid) = pid.parse::<libc::pid_t>() {
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let r = pid > 0 && unsafe { libc::kill(pid, 0) } != 0;
        return r && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
    }
    let _ = pid;
    false
}

/// Write `bytes` to `path` atomically: a temporary file beside it, fsync'd, then renamed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(tmp_name(path));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Write only when the content differs (keeps file times of unchanged outputs).
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    // Through the size-limited reader: a FIFO there is replaced, never opened (it would block).
    if crate::readfile::read(path, crate::readfile::INPUT).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic(path, bytes)?;
    Ok(true)
}

#[derive(Serialize, Deserialize)]
struct Meta {
    /// The key the entry was written under (absent in entries of an older format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key: Option<String>,
    sha256: String,
    period: Option<f64>,
    info: BTreeMap<String, f64>,
    /// The request the entry answers; a read checks it against the request asked for.
    request: serde_json::Value,
    /// The fingerprint of the computing code that wrote the entry (part of its key): entries of
    /// other builds can never be hit again by this one, and `prune_stale` removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    code: Option<String>,
}

pub struct RunCache {
    dir: PathBuf,
    /// The first failed write and how many writes failed ([`RunCache::keep`]).
    failed_writes: std::sync::Mutex<(Option<String>, usize)>,
    /// The same for the manifest records beside the cache (`data/cache/entries`: stamps and the
    /// tidy files' hashes, [`RunCache::note_record_failure`]).
    failed_records: std::sync::Mutex<(Option<String>, usize)>,
}

/// Record a failed write `e` in `m`: the first error and how many.
fn note_failure(m: &std::sync::Mutex<(Option<String>, usize)>, e: String) {
    let mut g = m.lock().unwrap_or_else(|p| p.into_inner());
    g.0.get_or_insert(e);
    g.1 += 1;
}

/// The first failed write recorded in `m` and how many failed, if any did.
fn first_failure(m: &std::sync::Mutex<(Option<String>, usize)>) -> Option<(String, usize)> {
    let g = m.lock().unwrap_or_else(|p| p.into_inner());
    g.0.clone().map(|e| (e, g.1))
}

/// Result of a cache probe (no data decoded).
pub enum Probe {
    Hit,
    Miss,
    Corrupt(String),
}

/// Result of a cache lookup.
pub enum Lookup {
    Hit(RunData),
    Miss,
    /// An entry existed but failed verification.
    Corrupt(String),
}

impl RunCache {
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            failed_writes: std::sync::Mutex::new((None, 0)),
            failed_records: std::sync::Mutex::new((None, 0)),
        }
    }
    /// The cache's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
    /// Store a computed run, best effort: a cache that cannot be written (full, read-only) must
    /// not throw the computed run away, so a failed write is only recorded, for one warning
    /// ([`RunCache::write_failure`]), and the caller goes on with the data it holds. Whether the
    /// run was stored.
    pub fn keep(&self, key: &str, request: &impl Serialize, data: &RunData) -> bool {
        match self.put(key, request, data) {
            Ok(()) => true,
            Err(e) => {
                note_failure(&self.failed_writes, e);
                false
            }
        }
    }
    /// The first failed write of [`RunCache::keep`] and how many failed, if any did.
    pub fn write_failure(&self) -> Option<(String, usize)> {
        first_failure(&self.failed_writes)
    }
    /// Record a manifest record (a stamp, the tidy files' hashes) that could not be written:
    /// like a run the cache cannot store, it costs only work next time (the manifest is
    /// evaluated again), so it is one warning with the cache's, not an error per manifest.
    pub fn note_record_failure(&self, e: String) {
        note_failure(&self.failed_records, e);
    }
    /// The first failed write of [`RunCache::note_record_failure`] and how many, if any.
    pub fn record_failure(&self) -> Option<(String, usize)> {
        first_failure(&self.failed_records)
    }
    fn paths(&self, key: &str) -> (PathBuf, PathBuf) {
        let d = self.dir.join(&key[..2]);
        (d.join(format!("{key}.parquet")), d.join(format!("{key}.json")))
    }
    /// Verify the entry at `key` for the run `request` without decoding its data: its metadata,
    /// recorded key and request, and the checksum of its Parquet bytes.
    pub fn probe(&self, key: &str, request: &impl Serialize) -> Probe {
        match self.verified(key, request) {
            Ok(Some(_)) => Probe::Hit,
            Ok(None) => Probe::Miss,
            Err(why) => Probe::Corrupt(why),
        }
    }

    /// The verified metadata and Parquet bytes of an entry, `None` for a miss.
    fn verified(&self, key: &str, request: &impl Serialize) -> Result<Option<(Meta, Vec<u8>)>, String> {
        let (pq, js) = self.paths(key);
        let Ok(meta) = crate::readfile::read(&js, crate::readfile::INPUT) else {
            return Ok(None);
        };
        let meta: Meta = serde_json::from_slice(&meta).map_err(|e| format!("metadata: {e}"))?;
        match &meta.key {
            // Written before entries recorded their key: not trusted, recomputed silently.
            None => return Ok(None),
            Some(k) if k != key => {
                return Err(format!(
                    "the entry records key {}…: a swapped or copied entry",
                    &k[..k.len().min(12)]
                ))
            }
            Some(_) => {}
        }
        match serde_json::to_value(request) {
            Ok(r) if r == meta.request => {}
            Ok(_) => return Err("the entry records another request".into()),
            Err(e) => return Err(format!("request: {e}")),
        }
        // Through the bounded reader: a FIFO or a link to a device there is refused, not read.
        let bytes = crate::readfile::read(&pq, crate::limits::CACHED_RUN_FILE).map_err(|e| format!("data: {e}"))?;
        if sha256_hex(&bytes) != meta.sha256 {
            return Err("checksum mismatch".into());
        }
        Ok(Some((meta, bytes)))
    }

    /// The info values (step and event counts) an entry's metadata records, read without its
    /// data: what a report shows of a released run without reading it back (review s50 crev 1).
    /// `None` when the entry has no readable metadata; its data are verified when they are read.
    pub fn info(&self, key: &str) -> Option<BTreeMap<String, f64>> {
        let (_, js) = self.paths(key);
        let meta = crate::readfile::read(&js, crate::readfile::INPUT).ok()?;
        serde_json::from_slice::<Meta>(&meta).ok().map(|m| m.info)
    }

    /// Look up the run `request` at `key`.
    pub fn get(&self, key: &str, request: &impl Serialize) -> Lookup {
        let (meta, bytes) = match self.verified(key, request) {
            Ok(Some(v)) => v,
            Ok(None) => return Lookup::Miss,
            Err(why) => return Lookup::Corrupt(why),
        };
        match frames::from_parquet(&bytes) {
            Ok(columns) => Lookup::Hit(RunData {
                columns,
                period: meta.period,
                info: meta.info,
            }),
            Err(e) => Lookup::Corrupt(format!("parquet: {e}")),
        }
    }
    pub fn put(&self, key: &str, request: &impl Serialize, data: &RunData) -> Result<(), String> {
        let (pq, js) = self.paths(key);
        let bytes = frames::to_parquet(&data.columns)?;
        let meta = Meta {
            key: Some(key.to_string()),
            sha256: sha256_hex(&bytes),
            period: data.period,
            info: data.info.clone(),
            request: serde_json::to_value(request).map_err(|e| e.to_string())?,
            code: Some(crate::fingerprint::RUNS_FINGERPRINT.to_string()),
        };
        write_atomic(&pq, &bytes).map_err(|e| format!("{}: {e}", pq.display()))?;
        let mjson = serde_json::to_vec_pretty(&meta).map_err(|e| e.to_string())?;
        write_atomic(&js, &mjson).map_err(|e| format!("{}: {e}", js.display()))
    }
}

/// Remove temporary files (`.<name>.<pid>-<host>.<n>.tmp`, left by an interrupted write) under
/// `dir` whose writer is a dead process of this machine ([`writer_dead`]) or that were last
/// modified longer than [`IN_FLIGHT`] ago. Any other may be a live process's write in flight (a
/// concurrent `figures`, a shard on a shared cache, possibly on another machine): it is left
/// for a later run. Returns how many were removed.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let mut removed = 0;
    for e in walkdir::WalkDir::new(dir).into_iter().filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy();
        if !(e.file_type().is_file() && name.starts_with('.') && name.ends_with(".tmp")) {
            continue;
        }
        let stale = writer_dead(&name) || e.metadata().is_ok_and(|m| settled(&m));
        if stale && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// `root/rel`, provided `rel` stays inside `figures/` or `data/`: relative, made only of plain
/// names (no `..`, no root, no drive prefix, no hidden component). Every output path built
/// from a manifest's ids goes through here, so no id can direct a write elsewhere.
pub fn output_path(root: &Path, rel: &str) -> Result<PathBuf, String> {
    use std::path::Component;
    let p = Path::new(rel);
    let mut comps = p.components();
    let first_ok = matches!(comps.next(), Some(Component::Normal(c)) if c == "figures" || c == "data");
    let plain = p.components().all(|c| match c {
        Component::Normal(n) => !n.to_string_lossy().starts_with('.'),
        _ => false,
    });
    if first_ok && plain && !rel.contains('\\') {
        Ok(root.join(p))
    } else {
        Err(format!(
            "refusing to write `{rel}`: outputs stay inside figures/ and data/ (ids may use a-z, 0-9, `.`, `_`, `-`)"
        ))
    }
}

/// How long a temporary file or a Parquet file without its metadata may be a write in flight
/// (another process's, on this machine or another sharing the cache): [`RunCache::prune_stale`]
/// removes only older ones. A write takes seconds; an hour leaves room for a slow shared
/// filesystem, and a younger leftover is removed by a later `clean --stale`.
pub const IN_FLIGHT: std::time::Duration = std::time::Duration::from_secs(3600);

/// Whether the file `md` describes was last modified longer than [`IN_FLIGHT`] ago.
fn settled(md: &std::fs::Metadata) -> bool {
    md.modified()
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > IN_FLIGHT)
}

/// Whether the entry whose metadata is at `json` was written by this build's computing code
/// (false when it cannot be read or parsed).
pub(crate) fn by_this_build(json: &Path) -> bool {
    crate::readfile::read(json, crate::readfile::INPUT)
        .ok()
        .and_then(|b| serde_json::from_slice::<Meta>(&b).ok())
        .is_some_and(|m| m.code.as_deref() == Some(crate::fingerprint::RUNS_FINGERPRINT))
}

/// What [`RunCache::prune_stale`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    pub entries: usize,
    pub files: usize,
    pub bytes: u64,
}

impl RunCache {
    /// Remove the entries that this build can never hit: written by other computing code (the
    /// code fingerprint is part of every key) or before entries recorded it, and the files left
    /// without a partner (a Parquet file without its metadata, an interrupted write's temporary)
    /// once they are older than [`IN_FLIGHT`]: a younger one may be another process's write in
    /// flight (its temporary, or its Parquet file renamed into place before its metadata), so it
    /// is safe to run while other processes write to the cache. Entries of this build stay,
    /// whatever manifest asked for them.
    pub fn prune_stale(&self) -> std::io::Result<Pruned> {
        let mut p = Pruned::default();
        let Ok(shards) = std::fs::read_dir(&self.dir) else {
            return Ok(p);
        };
        for shard in shards.flatten() {
            if !shard.path().is_dir() {
                continue;
            }
            for f in std::fs::read_dir(shard.path())?.flatten() {
                let path = f.path();
                // A Parquet file already removed with its stale metadata.
                if !path.exists() {
                    continue;
                }
                let name = f.file_name().to_string_lossy().into_owned();
                let stale = if let Some(key) = name.strip_suffix(".json") {
                    let current = by_this_build(&path);
                    if !current {
                        p.entries += 1;
                        let pq = shard.path().join(format!("{key}.parquet"));
                        if let Ok(md) = pq.metadata() {
                            p.bytes += md.len();
                            p.files += 1;
                            std::fs::remove_file(&pq)?;
                        }
                    }
                    !current
                } else if let Some(key) = name.strip_suffix(".parquet") {
                    !shard.path().join(format!("{key}.json")).exists() && f.metadata().is_ok_and(|m| settled(&m))
                } else {
                    name.ends_with(".tmp") && f.metadata().is_ok_and(|m| settled(&m))
                };
                if stale {
                    p.bytes += f.metadata().map(|m| m.len()).unwrap_or(0);
                    p.files += 1;
                    std::fs::remove_file(&path)?;
                }
            }
        }
        Ok(p)
    }
}

#[cfg(all(test, unix))]
mod fifo_tests {
    use super::write_if_changed;
    use crate::readfile::testing::{mkfifo, within_10s};

    #[test]
    fn a_fifo_where_an_output_goes_is_replaced_not_opened() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.json");
        mkfifo(&p);
        let q = p.clone();
        assert!(within_10s(move || write_if_changed(&q, b"x")).unwrap());
        assert_eq!(std::fs::read(&p).unwrap(), b"x");
    }
}

#[cfg(test)]
mod tmp_name_tests {
    use super::tmp_name;
    use std::collections::HashSet;
    use std::path::Path;

    /// A write's temporary name carries this process's id (another process writing the same
    /// entry of a shared cache uses another) and a counter: every name taken, by threads at
    /// once or one after the other, is distinct. The separate-process test
    /// (`xtask/tests/shard_processes.rs`) sees a name without the pid only when two writes
    /// overlap; this sees it always.
    #[test]
    fn a_temporary_name_carries_the_pid_and_is_never_reused() {
        let p = Path::new("/cache/runs/ab/abcd.parquet");
        let pid = std::process::id().to_string();
        let name = tmp_name(p);
        let parts: Vec<&str> = name.split('.').collect();
        // ".abcd.parquet.<pid>-<host>.<n>.tmp"
        assert_eq!(parts.len(), 6, "{name}");
        assert_eq!(
            (parts[0], parts[1], parts[2], parts[5]),
            ("", "abcd", "parquet", "tmp"),
            "{name}"
        );
        assert_eq!(
            parts[3],
            format!("{pid}-{}", super::host_tag()),
            "the process id and the machine are in {name}"
        );
        assert!(parts[4].parse::<u64>().is_ok(), "a counter ends {name}");
        let names: Vec<String> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..8)
                .map(|_| s.spawn(|| (0..500).map(|_| tmp_name(p)).collect::<Vec<_>>()))
                .collect();
            hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let distinct: HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "a temporary name was taken twice");
        assert!(names.iter().all(|n| n.contains(&format!(".{pid}-"))));
    }
}
