//! Running the built runner, and small workspaces to run it on.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../../../crates/pipeline/tests/common/fixtures.rs"]
mod fixtures;
#[allow(unused_imports)] // each test binary uses some of them
pub use fixtures::{declare_documents, DAHL, DAHL_GRID, LINEAR};

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

/// [`xtask`] that must succeed: its output, or a failed test showing its stdout and stderr.
pub fn xtask_ok(dir: &Path, args: &[&str]) -> Out {
    succeeded(xtask(dir, args), args)
}

/// `o` when its code is 0, else a failed test naming `args` with the output.
fn succeeded(o: Out, args: &[&str]) -> Out {
    assert_eq!(o.code, 0, "xtask {args:?} failed:\n{}{}", o.stdout, o.stderr);
    o
}

/// The checkout these tests belong to.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A temporary workspace (`Cargo.toml` and `experiments/`) holding `manifests` (path under
/// `experiments/`, text).
pub fn workspace(manifests: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[workspace]\n").unwrap();
    std::fs::create_dir_all(dir.path().join("experiments")).unwrap();
    for (name, text) in manifests {
        write(&dir.path().join("experiments").join(name), text);
    }
    declare_documents(&dir.path().join("experiments"), manifests);
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

/// Run `xtask` with `args` in `dir` and the environment `env`, killed after `limit` (a hang is
/// a failure, reported as code -9 with "timed out" in stderr).
pub fn xtask_within(dir: &Path, args: &[&str], env: &[(&str, &str)], limit: Duration) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the runner starts");
    let pipe = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = pipe(Box::new(child.stdout.take().unwrap()));
    let err = pipe(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code().unwrap_or(-1);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break -9;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = err.join().unwrap();
    if code == -9 {
        stderr.push_str(&format!("\n(timed out after {limit:?}: killed)"));
    }
    Out {
        code,
        stdout: out.join().unwrap(),
        stderr,
    }
}

/// [`xtask_within`] with a two-minute limit.
pub fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Out {
    xtask_within(dir, args, env, Duration::from_secs(120))
}

/// [`run`] that must succeed: its output, or a failed test showing its stdout and stderr.
pub fn run_ok(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Out {
    succeeded(run(dir, args, env), args)
}

/// A named pipe at `path` (its directories made).
pub fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let st = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(st.success());
}
