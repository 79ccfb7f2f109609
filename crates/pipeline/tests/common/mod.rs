//! What the pipeline's integration tests share: small manifests and a temporary workspace
//! holding given manifests.
#![allow(dead_code)]

mod fixtures;
#[allow(unused_imports)] // each test binary uses some of them
pub use fixtures::{DAHL, DAHL_TRIANGLE, LINEAR};

/// A temporary workspace whose `experiments/` holds `files` (`(path under experiments/, text)`).
pub fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join("experiments").join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}
