//! Running the built runner, and small workspaces to run it on.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `xtask` with `args` in `dir`.
pub fn xtask(dir: &Path, args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the runner starts");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The checkout these tests belong to.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

pub const DAHL: &str = r#"id: thesis/fig9.1
kind: figure
source: {document: thesis, number: "9.1", caption: "test figure", lines: [1]}
content: simulation
status: reproduced
runs:
  - id: dahl
    system: dahl
    params: {sigma: 7.5, fc: 1.5, gamma: 1}
    input: {kind: sine, amplitude: 5, omega: 2}
    sim: {periods: 2, samples_per_period: 400}
panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: {periods: [1, 2]}, label: LABEL}
metrics:
  - {name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [1, 2]}}
checks:
  - {metric: area, expected: 28.8, tol: {rel: 1.0e-3}, provenance: {derived: "4(A Fc - Fr Fc/sigma)"}}
"#;

pub const LINEAR: &str = r#"id: thesis/fig9.2
kind: figure
source: {document: thesis, number: "9.2", caption: "second figure", lines: [2]}
content: simulation
status: reproduced
runs:
  - id: msd
    system: linear-msd
    params: {m: 1, c: 2, k: 1}
    input: {kind: sine, amplitude: 1, omega: 1}
    sim: {periods: 3, samples_per_period: 200}
    sweep: {param: input.omega, values: [1, 0.5]}
panels:
  - id: main
    x: {label: u}
    y: {label: y}
    series:
      - {run: msd, x: u, y: y, label: "w = {value}"}
"#;

/// A temporary workspace (`Cargo.toml` and `experiments/`) holding `manifests` (path under
/// `experiments/`, text).
pub fn workspace(manifests: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[workspace]\n").unwrap();
    std::fs::create_dir_all(dir.path().join("experiments")).unwrap();
    for (name, text) in manifests {
        write(&dir.path().join("experiments").join(name), text);
    }
    dir
}

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Every file under `root` with its bytes.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, &mut out);
    out
}
