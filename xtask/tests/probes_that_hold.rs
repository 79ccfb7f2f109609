//! Runner probes of the December reliability review that held (`reliability-2026-12.md`, first
//! paragraph), kept as tests so that they keep holding: two `figures` at once on one workspace,
//! and SIGINT / SIGTERM at any moment of a run: the next run leaves no temporary file (it
//! removes those a cut-short write left) and writes the same outputs as an uninterrupted one.

mod common;

use common::{workspace, xtask, xtask_ok, DAHL, LINEAR};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The temporary files under `dir` (`.<name>.<pid>-<host>.<n>.tmp`).
fn temps(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else { return vec![] };
    rd.flatten()
        .flat_map(|e| {
            let p = e.path();
            if p.is_dir() {
                temps(&p)
            } else if p.to_string_lossy().ends_with(".tmp") {
                vec![p.display().to_string()]
            } else {
                vec![]
            }
        })
        .collect()
}

/// The drawn outputs of the two manifests, by name.
fn outputs(root: &Path) -> Vec<(String, Vec<u8>)> {
    ["fig9.1.svg", "fig9.2.svg", "fig9.1.pgf.tex", "fig9.2.pgf.tex"]
        .iter()
        .map(|n| {
            let p = root.join("figures/thesis").join(n);
            (n.to_string(), std::fs::read(&p).unwrap_or_default())
        })
        .collect()
}

/// What an uninterrupted run on a fresh workspace draws.
fn reference() -> Vec<(String, Vec<u8>)> {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    xtask_ok(ws.path(), &["figures"]);
    let out = outputs(ws.path());
    assert!(out.iter().all(|(_, b)| !b.is_empty()));
    out
}

#[test]
fn two_figures_at_once_on_one_workspace_agree() {
    let want = reference();
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path().to_path_buf();
    let both: Vec<_> = (0..2)
        .map(|_| {
            let r = root.clone();
            std::thread::spawn(move || xtask(&r, &["figures"]))
        })
        .collect();
    for h in both {
        let o = h.join().unwrap();
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    assert_eq!(temps(&root), Vec::<String>::new());
    assert!(outputs(&root) == want, "two runs at once drew other outputs");
}

#[test]
fn an_interrupted_run_leaves_no_temporary_file_and_the_next_draws_the_same() {
    let want = reference();
    for (signal, after_ms) in [("INT", 30), ("INT", 150), ("TERM", 80), ("TERM", 400)] {
        let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
        let root = ws.path();
        let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .current_dir(root)
            .args(["figures", "--force"])
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(after_ms));
        let _ = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status();
        let _ = child.wait();
        // A write cut short may leave its temporary file; the next run removes it.
        let o = xtask(root, &["figures"]);
        assert_eq!(o.code, 0, "SIG{signal} after {after_ms} ms: {}", o.stderr);
        assert_eq!(temps(root), Vec::<String>::new(), "SIG{signal} after {after_ms} ms");
        assert!(outputs(root) == want, "SIG{signal} after {after_ms} ms: other outputs");
    }
}
