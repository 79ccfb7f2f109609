//! The README's two commands, `cargo xtask figures` (builds `xtask`) and
//! `cargo test --workspace --release`, must compile every dependency once: each dependency in
//! the test graph that is not a workspace member must already be in the `xtask` graph, with the
//! same features. Cargo unifies features over the packages a command builds, so a dev-dependency
//! of any member can add a feature to a shared crate (tempfile → rustix → `bitflags/std`) and
//! make the second command recompile it and all of its dependents. `crates/workspace-hack` adds such features to the `xtask` graph; this test
//! compares the two graphs with `cargo tree` and names what is missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Package (`name version`) → the feature sets it is built with; workspace members are marked by
/// the set `{"<member>"}` added to theirs.
fn graph(args: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root)
        .args(["tree", "--offline", "--prefix", "none", "-f", "{p}|{f}"])
        .args(args)
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let Some((p, f)) = line.trim_end_matches(" (*)").split_once('|') else {
            continue;
        };
        // Workspace members print their path after the version; the path is not part of the key.
        let member = p.contains(" (/");
        let p = p.split(" (").next().unwrap().to_string();
        let e = g.entry(p).or_default();
        e.insert(f.to_string());
        if member {
            e.insert("<member>".into());
        }
    }
    g
}

#[test]
fn xtask_and_workspace_tests_build_dependencies_with_the_same_features() {
    let xtask = graph(&["-p", "xtask", "-e", "normal,build"]);
    let tests = graph(&["--workspace", "-e", "normal,build,dev"]);
    assert!(
        xtask.len() > 100,
        "the xtask graph has {} packages: cargo tree output not parsed",
        xtask.len()
    );
    let mut differ = Vec::new();
    for (p, t) in &tests {
        if t.contains("<member>") {
            continue;
        }
        match xtask.get(p) {
            None => differ.push(format!("{p}: only cargo test --workspace builds it, with {t:?}")),
            Some(f) if f != t => differ.push(format!("{p}: xtask builds {f:?}, cargo test --workspace builds {t:?}")),
            Some(_) => {}
        }
    }
    assert!(
        differ.is_empty(),
        "add these features to crates/workspace-hack/Cargo.toml, or `cargo test --workspace` \
         compiles them (again, with other features) after `cargo xtask`, and everything that \
         depends on them:\n{}",
        differ.join("\n")
    );
}
