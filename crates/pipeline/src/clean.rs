//! Removing what the pipeline wrote.

use std::path::{Path, PathBuf};

/// Remove every generated output and the cache.
pub fn clean(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    let cache = root.join("data/cache");
    if cache.exists() {
        std::fs::remove_dir_all(&cache)?;
        removed.push(cache);
    }
    let figs = root.join("figures");
    if let Ok(rd) = std::fs::read_dir(&figs) {
        for e in rd.flatten() {
            let p = e.path();
            // Keep the checked-in README.
            if p.file_name().is_some_and(|n| n == "README.md") {
                continue;
            }
            if p.is_dir() {
                std::fs::remove_dir_all(&p)?;
            } else {
                std::fs::remove_file(&p)?;
            }
            removed.push(p);
        }
    }
    Ok(removed)
}
