//! `experiments/REVIEW.md` covers every drawn figure (issue 46 item 4): one row per figure a
//! manifest draws (`kind: figure` with `panels:` or `panels_from:`), none for a figure nothing
//! draws, each with a verdict (good / fix / wrong) and a stamp naming the commit it was
//! reviewed at.

use std::collections::BTreeMap;
use std::path::Path;

/// The ids (`<doc>/fig<N>`) of the manifests that draw a figure.
fn drawn(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for doc in std::fs::read_dir(root.join("experiments")).unwrap().flatten() {
        if !doc.file_type().unwrap().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(doc.path()).unwrap().flatten() {
            let p = f.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".yaml") else {
                continue;
            };
            if stem == "document" {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let top = |key: &str| text.lines().any(|l| l.starts_with(key));
            if top("kind: figure") && (top("panels:") || top("panels_from:")) {
                out.push(format!("{}/{stem}", doc.file_name().to_string_lossy()));
            }
        }
    }
    out.sort();
    out
}

/// The log's rows: figure id → (line, verdict, stamp).
fn rows(text: &str) -> Vec<(String, usize, String, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("| ") else { continue };
        let cells: Vec<&str> = rest
            .trim_end()
            .trim_end_matches('|')
            .split(" | ")
            .map(str::trim)
            .collect();
        let Some((doc, fig)) = cells[0].split_once(' ') else {
            continue;
        };
        // A record row (`thesis fig3.6 (thinning)`, `stribeck-paper fig5, 6, …`: the log's own
        // notes, named under its totals) is not a figure's row.
        if !fig.starts_with("fig") || fig.contains([' ', ',']) || cells.len() < 4 {
            continue;
        }
        out.push((
            format!("{doc}/{fig}"),
            i + 1,
            cells[1].to_string(),
            cells[cells.len() - 1].to_string(),
        ));
    }
    out
}

fn is_commit(word: &str) -> bool {
    (7..=40).contains(&word.len())
        && word.chars().all(|c| c.is_ascii_hexdigit())
        && word.chars().any(|c| c.is_ascii_digit())
}

#[test]
fn every_drawn_figure_has_one_reviewed_row() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let figures = drawn(root);
    assert!(figures.len() > 100, "too few drawn figures found: {}", figures.len());
    let text = std::fs::read_to_string(root.join("experiments/REVIEW.md")).unwrap();
    let mut by_id: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut bad = Vec::new();
    for (id, line, verdict, stamp) in rows(&text) {
        if !["good", "fix", "wrong"].contains(&verdict.as_str()) {
            bad.push(format!(
                "REVIEW.md:{line}: {id}: verdict `{verdict}` (allowed: good, fix, wrong)"
            ));
        }
        if !stamp.split(|c: char| !c.is_ascii_alphanumeric()).any(is_commit) {
            bad.push(format!("REVIEW.md:{line}: {id}: the stamp names no commit ({stamp})"));
        }
        by_id.entry(id).or_default().push(line);
    }
    for f in &figures {
        match by_id.get(f).map(Vec::len) {
            None => bad.push(format!("{f}: drawn, but REVIEW.md has no row for it")),
            Some(1) => {}
            Some(_) => bad.push(format!("{f}: REVIEW.md has several rows (lines {:?})", by_id[f])),
        }
    }
    for (id, lines) in &by_id {
        if !figures.contains(id) {
            bad.push(format!("REVIEW.md:{}: {id}: no manifest draws this figure", lines[0]));
        }
    }
    assert!(
        bad.is_empty(),
        "the review log does not cover the drawn figures:\n{}",
        bad.join("\n")
    );
}
