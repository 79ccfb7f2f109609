//! What the pipeline's integration tests share: small manifests and a temporary workspace
//! holding given manifests.
#![allow(dead_code)]

pub mod counting;
pub mod drawn_checks;
pub mod figures;
mod fixtures;
mod forms;
#[allow(unused_imports)] // each test binary uses some of them
pub use fixtures::{declaration, declare_documents, DAHL, DAHL_GRID, DAHL_TABLE, DAHL_TRIANGLE, LINEAR};
#[allow(unused_imports)]
pub use forms::{
    diagnostics, diagnostics_with_data, evaluated, evaluated_in, only_diagnostic, only_one, reports, run_in,
    run_manifest, unchecked, FIND, FIND_FILE, FIT, FIT_FILE,
};

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

/// The manifests of `o`'s workspace loaded as the pipeline loads them: the `{fitted: ...}` run
/// parameters set from their fits (followup/fig8), not left at their start values.
#[allow(dead_code)]
pub fn load_resolved(o: &fric_pipeline::Options) -> fric_pipeline::Loaded {
    let mut l = fric_pipeline::load(&o.root);
    fric_pipeline::fitted_params::resolve(&o.root, &o.run_cache(), &mut l);
    l
}

/// A temporary copy of the project's `experiments/`: the workspace is `<dir>/ws`, and
/// `<dir>/shared` links to `../shared` when the seeds are present (so quotes resolve as in the
/// repository).
pub fn project_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    // The manifests and the measured inputs they read (`data/`, without the run cache).
    let cache = repo().join("data/cache");
    for dir in ["experiments", "data"] {
        let walk = walkdir::WalkDir::new(repo().join(dir)).into_iter();
        for e in walk.filter_entry(|e| e.path() != cache).flatten() {
            let rel = e.path().strip_prefix(repo()).unwrap();
            if e.file_type().is_file() {
                std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
                std::fs::copy(e.path(), root.join(rel)).unwrap();
            }
        }
    }
    let seeds = repo().join("../shared");
    if seeds.join("seeds").is_dir() {
        std::os::unix::fs::symlink(seeds.canonicalize().unwrap(), t.path().join("shared")).unwrap();
    }
    (t, root)
}

/// Options for a run over [`project_copy`]: the run cache is shared by every test binary of this
/// package (`CARGO_TARGET_TMPDIR/project-runs`), so the project's runs are computed once per build
/// of the computing code, not once per test. Safe because run keys include the fingerprint of the
/// computing code and every entry is verified on read; what these tests check (drawing, the site,
/// PGFPlots, metrics and checks) is still done from scratch in the temporary workspace.
pub fn project_options(root: &std::path::Path) -> fric_pipeline::Options {
    let mut o = fric_pipeline::Options::new(root);
    o.cache_dir = Some(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("project-runs"));
    o
}
