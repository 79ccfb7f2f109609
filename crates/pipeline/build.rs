//! Fingerprints of the code behind the two caches:
//! - RUNS: the sources of the roots, models, solvers and experiments crates (what computes a run);
//! - RENDER: the sources of the plot, report and pipeline crates (what draws and exports it).
//!
//! A change to any file of a set invalidates every cache entry keyed by it.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn fingerprint(crates: &Path, names: &[&str]) -> String {
    let mut files = Vec::new();
    for c in names {
        let d = crates.join(c);
        for sub in ["src", "templates", "assets", "build.rs", "Cargo.toml"] {
            let p = d.join(sub);
            if !p.exists() {
                // Watching a path that does not exist makes cargo rerun this script, and rebuild
                // the crate, on every invocation.
                continue;
            }
            println!("cargo:rerun-if-changed={}", p.display());
            if p.is_dir() {
                collect(&p, &mut files);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut h = Sha256::new();
    for f in &files {
        h.update(f.strip_prefix(crates).unwrap().to_string_lossy().as_bytes());
        h.update([0]);
        h.update(std::fs::read(f).unwrap_or_default());
        h.update([0]);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// `rustc --version` of the compiler cargo builds with (empty when it cannot be run). A new
/// compiler rebuilds every crate, and so reruns this script.
fn rustc_version() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn main() {
    println!("cargo:rustc-env=FRIC_RUSTC_VERSION={}", rustc_version());
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let crates = here.parent().unwrap().to_path_buf();
    println!(
        "cargo:rustc-env=FRIC_RUNS_FINGERPRINT={}",
        fingerprint(&crates, &["roots", "models", "solvers", "experiments"])
    );
    println!(
        "cargo:rustc-env=FRIC_RENDER_FINGERPRINT={}",
        fingerprint(&crates, &["typeset", "plot", "report", "pipeline"])
    );
}
