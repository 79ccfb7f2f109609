//! The docs that map the code stay true: every path in backquotes in ARCHITECTURE.md and
//! README.md that starts at a committed top-level folder of the repository exists, and
//! ARCHITECTURE.md's code map names every module of every crate and nothing else.

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

/// The code map's sections: each `### `crates/<name>`` heading with the module names of the
/// lines under it (the backquoted names before each clause's colon), up to the next heading.
fn code_map(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("### `").and_then(|h| h.strip_suffix('`')) {
            out.push((h.to_string(), Vec::new()));
        } else if line.starts_with('#') {
            if !out.is_empty() {
                break;
            }
        } else if let Some((_, names)) = out.last_mut() {
            if let Some(item) = line.strip_prefix("- ") {
                // `a.rs`, `b/`: what they are; `c.rs`: ... (the names before each clause's colon)
                for clause in item.split("; ") {
                    let head = clause.split(": ").next().unwrap_or("");
                    names.extend(head.split('`').skip(1).step_by(2).map(str::to_string));
                }
            }
        }
    }
    out
}

/// The modules of a crate: every file and folder directly under its `src/`, as `name.rs` or
/// `name/`.
fn modules(src: &Path) -> Vec<String> {
    let mut m: Vec<String> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                format!("{name}/")
            } else {
                name
            }
        })
        .filter(|n| n.ends_with('/') || n.ends_with(".rs"))
        .collect();
    m.sort();
    m
}

/// ARCHITECTURE.md's code map names every module of every crate, one line each, and nothing that
/// is not one: a module added, renamed or removed without its line fails here.
#[test]
fn the_code_map_names_every_module_of_every_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let map = code_map(&text);
    let mut crates: Vec<String> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| format!("crates/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    crates.sort();
    let mapped: Vec<&String> = map.iter().map(|(c, _)| c).collect();
    assert_eq!(
        mapped.len(),
        crates.len(),
        "code map sections {mapped:?}, crates {crates:?}"
    );
    let mut problems = Vec::new();
    for (krate, names) in &map {
        assert!(crates.contains(krate), "`{krate}` in the code map is not a crate");
        let have = modules(&root.join(krate).join("src"));
        let named = |n: &str| names.iter().any(|x| x == n);
        problems.extend(
            have.iter()
                .filter(|m| !named(m))
                .map(|m| format!("{krate}: `{m}` has no line")),
        );
        let files = names.iter().filter(|n| n.ends_with(".rs") || n.ends_with('/'));
        let stale = files.filter(|n| !n.contains(' ') && !have.contains(n));
        problems.extend(stale.map(|n| format!("{krate}: `{n}` is not a module")));
    }
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md's code map:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_code_map_is_read_by_section() {
    let map =
        code_map("x\n### `crates/a`\n- `m.rs`, `n/`: text `v`; `w.rs`: y\n### `crates/b`\n- `k.rs`\n## Next\n- `z.rs`");
    assert_eq!(
        map,
        vec![
            ("crates/a".to_string(), vec!["m.rs".into(), "n/".into(), "w.rs".into()]),
            ("crates/b".to_string(), vec!["k.rs".into()]),
        ]
    );
}

/// README's paths exist too (but `bench/out/`, which the benchmark writes).
#[test]
fn the_readme_names_only_paths_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let text = std::fs::read_to_string(root.join("README.md")).unwrap();
    let missing: Vec<String> = named_paths(&text)
        .iter()
        .filter(|(_, p)| !p.starts_with("bench/out/") && !root.join(p).exists())
        .map(|(l, p)| format!("README.md:{l}: `{p}`"))
        .collect();
    assert!(missing.is_empty(), "paths that do not exist:\n{}", missing.join("\n"));
}

/// ARCHITECTURE.md's boundary "no file in `crates/` over 600 lines" holds.
#[test]
fn no_file_in_crates_is_over_600_lines() {
    fn walk(dir: &Path, long: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() && p.file_name().is_some_and(|n| n != "target") {
                walk(&p, long);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let n = std::fs::read_to_string(&p).unwrap().lines().count();
                if n > 600 {
                    long.push(format!("{} ({n} lines)", p.display()));
                }
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut long = vec![];
    walk(&root.join("crates"), &mut long);
    assert!(long.is_empty(), "files over 600 lines:\n{}", long.join("\n"));
}

/// The crate edges ARCHITECTURE.md's diagram draws (its first code block): on each line
/// `a ──► b, c (note), d`, the edges from `a` to every workspace crate named after the arrow
/// (notes in parentheses left out); lines without an arrow are prose.
fn drawn_edges(text: &str) -> Vec<(String, String)> {
    let block = text.split("```").nth(1).unwrap_or_default();
    let mut out = Vec::new();
    for line in block.lines() {
        let Some((from, to)) = line.split_once("──►") else {
            continue;
        };
        let Some(from) = from.split_whitespace().last() else {
            continue;
        };
        let mut depth = 0;
        let to: String = to
            .chars()
            .filter(|&c| {
                depth += i32::from(c == '(') - i32::from(c == ')');
                depth == 0 && c != ')'
            })
            .collect();
        for dep in to.split(',').map(str::trim) {
            if dep.starts_with("fric-") || dep == "xtask" {
                out.push((from.to_string(), dep.to_string()));
            }
        }
    }
    out.sort();
    out
}

/// The workspace crates' own edges: each member's `[dependencies]` on another member
/// (`fric-x.workspace = true` or `fric-x = { … }`), dev-dependencies left out.
fn cargo_edges(root: &Path) -> Vec<(String, String)> {
    let mut manifests: Vec<_> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("Cargo.toml"))
        .collect();
    manifests.push(root.join("xtask/Cargo.toml"));
    let mut out = Vec::new();
    for m in manifests {
        let text = std::fs::read_to_string(&m).unwrap();
        let name = text
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .and_then(|n| n.strip_suffix('"'))
            .unwrap()
            .to_string();
        let mut section = "";
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line;
            } else if section == "[dependencies]" && line.starts_with("fric-") {
                let dep = line.split(['.', ' ', '=']).next().unwrap();
                out.push((name.clone(), dep.to_string()));
            }
        }
    }
    out.sort();
    out
}

/// ARCHITECTURE.md's crate diagram draws every edge between workspace crates and no other: a
/// dependency added or dropped in a `Cargo.toml` without the diagram fails here.
#[test]
fn the_crate_diagram_draws_every_edge() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let (drawn, cargo) = (drawn_edges(&text), cargo_edges(root));
    assert!(cargo.len() > 10, "too few edges read: {cargo:?}");
    let missing: Vec<_> = cargo.iter().filter(|e| !drawn.contains(e)).collect();
    let extra: Vec<_> = drawn.iter().filter(|e| !cargo.contains(e)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "ARCHITECTURE.md's diagram lacks {missing:?} and draws {extra:?}, which no Cargo.toml has"
    );
}

#[test]
fn the_diagram_is_read_by_arrow() {
    let e =
        drawn_edges("x\n```\na ──► fric-b (notes, fric-z), fric-c\nfric-d, fric-e: none\nout: fric-f ──► rayon\n```\n");
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(e, vec![pair("a", "fric-b"), pair("a", "fric-c")]);
}
