//! What the pipeline's integration tests share: small manifests and a temporary workspace
//! holding given manifests.
#![allow(dead_code)]

mod fixtures;
#[allow(unused_imports)] // each test binary uses some of them
pub use fixtures::{declaration, declare_documents, DAHL, DAHL_GRID, DAHL_TABLE, DAHL_TRIANGLE, LINEAR};

/// A temporary workspace whose `experiments/` holds `files` (`(path under experiments/, text)`).
pub fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join("experiments").join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    declare_documents(&dir.path().join("experiments"), files);
    dir
}

/// The repository root.
pub fn repo() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A temporary copy of the project's `experiments/`: the workspace is `<dir>/ws`, and
/// `<dir>/shared` links to `../shared` when the seeds are present (so quotes resolve as in the
/// repository).
pub fn project_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    for e in walkdir::WalkDir::new(repo().join("experiments")).into_iter().flatten() {
        let rel = e.path().strip_prefix(repo()).unwrap();
        if e.file_type().is_file() {
            std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
            std::fs::copy(e.path(), root.join(rel)).unwrap();
        }
    }
    let seeds = repo().join("../shared");
    if seeds.join("seeds").is_dir() {
        std::os::unix::fs::symlink(seeds.canonicalize().unwrap(), t.path().join("shared")).unwrap();
    }
    (t, root)
}
