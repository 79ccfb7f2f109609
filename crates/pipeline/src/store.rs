//! Atomic file writes and the content-addressed run cache.
//!
//! A cached run is `<key>.parquet` (its columns) and `<key>.json` (period, diagnostics and the
//! sha256 of the Parquet bytes). Both are written to a temporary file in the same directory and
//! renamed into place, the JSON last, so an interrupted write leaves no entry that looks valid.
//! Reading verifies the checksum; a corrupted or partial entry is reported as absent and is
//! recomputed.

use crate::frames;
use crate::hash::sha256_hex;
use fric_experiments::RunData;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Write `bytes` to `path` atomically: a temporary file beside it, fsync'd, then renamed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(
        ".{}.{}.{n}.tmp",
        path.file_name().and_then(|s| s.to_str()).unwrap_or("out"),
        std::process::id()
    ));
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
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic(path, bytes)?;
    Ok(true)
}

#[derive(Serialize, Deserialize)]
struct Meta {
    sha256: String,
    period: Option<f64>,
    info: BTreeMap<String, f64>,
    /// The request, for traceability (not used for lookup).
    request: serde_json::Value,
}

pub struct RunCache {
    dir: PathBuf,
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
        Self { dir }
    }
    fn paths(&self, key: &str) -> (PathBuf, PathBuf) {
        let d = self.dir.join(&key[..2]);
        (d.join(format!("{key}.parquet")), d.join(format!("{key}.json")))
    }
    pub fn get(&self, key: &str) -> Lookup {
        let (pq, js) = self.paths(key);
        let Ok(meta) = std::fs::read(&js) else {
            return Lookup::Miss;
        };
        let meta: Meta = match serde_json::from_slice(&meta) {
            Ok(m) => m,
            Err(e) => return Lookup::Corrupt(format!("metadata: {e}")),
        };
        let bytes = match std::fs::read(&pq) {
            Ok(b) => b,
            Err(e) => return Lookup::Corrupt(format!("data: {e}")),
        };
        if sha256_hex(&bytes) != meta.sha256 {
            return Lookup::Corrupt("checksum mismatch".into());
        }
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
            sha256: sha256_hex(&bytes),
            period: data.period,
            info: data.info.clone(),
            request: serde_json::to_value(request).map_err(|e| e.to_string())?,
        };
        write_atomic(&pq, &bytes).map_err(|e| format!("{}: {e}", pq.display()))?;
        let mjson = serde_json::to_vec_pretty(&meta).map_err(|e| e.to_string())?;
        write_atomic(&js, &mjson).map_err(|e| format!("{}: {e}", js.display()))
    }
}
