//! The docs that map the code name files that exist: every path in backquotes in
//! ARCHITECTURE.md that starts at a committed top-level folder of the repository.

use std::path::Path;

/// The top-level folders whose paths the docs may name (generated ones, `figures/` and
/// `data/`, are left out: they exist only after a run).
const ROOTS: [&str; 6] = ["crates/", "xtask/", "experiments/", "docs/", "bench/", "paper/"];

/// The backquoted spans of `text` that are paths under [`ROOTS`], with their line numbers
/// (placeholders such as `<doc>` and globs are skipped).
fn named_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for (k, span) in line.split('`').enumerate() {
            let is_code = k % 2 == 1;
            let path = span.trim_end_matches(['.', ',', ':']);
            if is_code && ROOTS.iter().any(|r| path.starts_with(r)) && !path.contains(['<', '*', ' ', '{']) {
                out.push((i + 1, path.to_string()));
            }
        }
    }
    out
}

#[test]
fn architecture_names_only_paths_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let paths = named_paths(&text);
    assert!(paths.len() > 5, "too few paths found: {paths:?}");
    let missing: Vec<String> = paths
        .iter()
        .filter(|(_, p)| !root.join(p).exists())
        .map(|(l, p)| format!("ARCHITECTURE.md:{l}: `{p}`"))
        .collect();
    assert!(missing.is_empty(), "paths that do not exist:\n{}", missing.join("\n"));
}

#[test]
fn a_missing_path_is_found() {
    let paths = named_paths("see `crates/nowhere/x.rs`, and `load.rs` or `experiments/<doc>/`.");
    assert_eq!(paths, vec![(1, "crates/nowhere/x.rs".to_string())]);
}
