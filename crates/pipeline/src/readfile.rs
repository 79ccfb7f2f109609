//! Reading an input file with a size limit, refusing anything that is not a regular file.
//!
//! Every file the tool reads (manifests, `document.yaml`, CSV inputs, plans, baselines, reports,
//! stamps) comes through here: a FIFO would block the reader forever, `/dev/zero` would grow it
//! without end, and a 10 GB file named by mistake would be read whole. The file's type is checked
//! with `stat` (following symbolic links) before it is opened, so a FIFO is never opened, and at
//! most `limit + 1` bytes are read, so a file that grows while it is read is caught too.

use std::io::Read;
use std::path::Path;

pub use crate::limits::Limit;
/// Manifests and `document.yaml`.
pub const MANIFEST: Limit = crate::limits::MANIFEST_FILE;
/// Every other input file.
pub const INPUT: Limit = crate::limits::INPUT_FILE;

/// The bytes of `path`, a regular file of at most `limit` bytes. The error names the path, the
/// problem and, for a file too large, the limit and how to raise it.
pub fn read(path: &Path, limit: Limit) -> Result<Vec<u8>, String> {
    let max = limit.value();
    let shown = path.display();
    let md = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
    if !md.is_file() {
        return Err(format!(
            "{shown}: not a regular file ({}); a {} must be a regular file",
            kind(&md),
            limit.what
        ));
    }
    let too_large = |size: String| {
        format!(
            "{shown}: {size} bytes, more than the {} limit of {max} bytes (set {} to raise it)",
            limit.what, limit.env
        )
    };
    if md.len() > max {
        return Err(too_large(md.len().to_string()));
    }
    let f = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
    let mut bytes = Vec::with_capacity(md.len() as usize);
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{shown}: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(too_large(format!("more than {max}")));
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text.
pub fn read_to_string(path: &Path, limit: Limit) -> Result<String, String> {
    String::from_utf8(read(path, limit)?).map_err(|e| {
        format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// [`read`] of a file that may be absent: `None` when nothing is at `path`, the same error as
/// [`read`] for anything else that cannot be read (a FIFO, a device, a file over `limit`).
pub fn read_if_present(path: &Path, limit: Limit) -> Result<Option<Vec<u8>>, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read(path, limit).map(Some),
    }
}

/// What kind of file a non-regular file is.
fn kind(md: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = md.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if md.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Test helpers: a FIFO at a path, and a call that must finish in time (reading a FIFO blocks).
#[cfg(all(test, unix))]
pub(crate) mod testing {
    /// Make a FIFO at `path` with `mkfifo`.
    pub fn mkfifo(path: &std::path::Path) {
        let ok = std::process::Command::new("mkfifo").arg(path).status().unwrap();
        assert!(ok.success(), "mkfifo {}", path.display());
    }

    /// The result of `f`, which must return within 10 seconds (a blocked read fails the test
    /// instead of hanging it).
    pub fn within_10s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("blocked for 10 s (reading a FIFO?)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit {
        what: "test file",
        env: "FRIC_TEST_UNSET_LIMIT",
        default: 8,
    };

    #[test]
    fn a_small_regular_file_is_read() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a");
        std::fs::write(&p, "12345678").unwrap();
        assert_eq!(read(&p, SMALL).unwrap(), b"12345678");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_naming_the_limit() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a");
        std::fs::write(&p, "123456789").unwrap();
        let e = read(&p, SMALL).unwrap_err();
        assert!(
            e.contains("limit of 8 bytes") && e.contains("FRIC_TEST_UNSET_LIMIT"),
            "{e}"
        );
    }

    #[test]
    fn an_absent_file_is_none_and_a_present_one_is_read_with_the_limit() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a");
        assert_eq!(read_if_present(&p, SMALL).unwrap(), None);
        std::fs::write(&p, "123456789").unwrap();
        let e = read_if_present(&p, SMALL).unwrap_err();
        assert!(e.contains("limit of 8 bytes"), "{e}");
    }

    #[test]
    fn devices_and_directories_are_refused() {
        let e = read(Path::new("/dev/zero"), INPUT).unwrap_err();
        assert!(e.contains("not a regular file (a device)"), "{e}");
        let d = tempfile::tempdir().unwrap();
        let e = read(d.path(), INPUT).unwrap_err();
        assert!(e.contains("a directory"), "{e}");
    }
}
