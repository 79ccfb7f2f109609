//! Fuzzing the manifest loader: real manifests with random edits (lines deleted, duplicated,
//! swapped or re-indented, values replaced by text, numbers, huge numbers, NaN, negatives,
//! tabs, byte-order marks and other unicode inserted, files truncated) never make
//! `fric_pipeline::load` panic, and always give a valid entry or located diagnostics.

mod common;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::path::Path;

const SEEDS: [&str; 4] = [
    "thesis/fig1.7.yaml",
    "thesis/fig1.11.yaml",
    "duhem-paper/fig14.yaml",
    "ruderman-paper/fig7.yaml",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete(Index),
    Duplicate(Index),
    Swap(Index, Index),
    /// Add (positive) or remove spaces at the start of a line.
    Indent(Index, i8),
    /// Replace the value after a line's last `: ` (or the whole line).
    Value(Index, String),
    /// Replace one word anywhere in a line.
    Word(Index, Index, String),
    Insert(Index, String),
    Truncate(Index),
}

fn replacement() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,8}",
        "[ -~]{0,12}",
        any::<f64>().prop_map(|v| v.to_string()),
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| format!("{v}{v}")),
        Just("1e999".to_string()),
        Just("-1e999".to_string()),
        Just(".nan".to_string()),
        Just(".inf".to_string()),
        Just("-.inf".to_string()),
        Just("-1".to_string()),
        Just("0".to_string()),
        Just("~".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("\"\"".to_string()),
        Just("[1, [2, [3]]]".to_string()),
        Just("../../../x".to_string()),
        Just("&a 1".to_string()),
        Just("*a".to_string()),
        Just("!!str 1".to_string()),
        any::<char>().prop_map(|c| c.to_string()),
    ]
}

fn insertion() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\t".to_string()),
        Just("\u{feff}".to_string()),
        Just("é".to_string()),
        Just("\u{202e}".to_string()),
        Just("\u{0}".to_string()),
        Just("\r".to_string()),
        Just("\n".to_string()),
        Just("---\n".to_string()),
        Just(": ".to_string()),
        Just("- ".to_string()),
        Just("#".to_string()),
        any::<char>().prop_map(|c| c.to_string()),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<Index>().prop_map(Edit::Delete),
        any::<Index>().prop_map(Edit::Duplicate),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (any::<Index>(), -4i8..=4).prop_map(|(a, d)| Edit::Indent(a, d)),
        (any::<Index>(), replacement()).prop_map(|(a, r)| Edit::Value(a, r)),
        (any::<Index>(), any::<Index>(), replacement()).prop_map(|(a, w, r)| Edit::Word(a, w, r)),
        (any::<Index>(), insertion()).prop_map(|(a, s)| Edit::Insert(a, s)),
        any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for e in edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match e {
            Edit::Delete(i) => {
                lines.remove(i.index(n));
            }
            Edit::Duplicate(i) => {
                let l = lines[i.index(n)].clone();
                lines.insert(i.index(n), l);
            }
            Edit::Swap(a, b) => lines.swap(a.index(n), b.index(n)),
            Edit::Indent(i, d) => {
                let l = &mut lines[i.index(n)];
                if *d >= 0 {
                    l.insert_str(0, &" ".repeat(*d as usize));
                } else {
                    let k = l
                        .chars()
                        .take(d.unsigned_abs() as usize)
                        .take_while(|c| *c == ' ')
                        .count();
                    l.drain(..k);
                }
            }
            Edit::Value(i, r) => {
                let l = &mut lines[i.index(n)];
                let at = l.rfind(": ").map(|p| p + 2).unwrap_or(0);
                l.replace_range(at.., r);
            }
            Edit::Word(i, w, r) => {
                let l = &mut lines[i.index(n)];
                let words: Vec<(usize, usize)> = l
                    .char_indices()
                    .filter(|(_, c)| c.is_alphanumeric())
                    .map(|(p, c)| (p, p + c.len_utf8()))
                    .fold(Vec::new(), |mut v: Vec<(usize, usize)>, (a, b)| {
                        match v.last_mut() {
                            Some(last) if last.1 == a => last.1 = b,
                            _ => v.push((a, b)),
                        }
                        v
                    });
                if !words.is_empty() {
                    let (a, b) = words[w.index(words.len())];
                    l.replace_range(a..b, r);
                }
            }
            Edit::Insert(i, s) => {
                let l = &mut lines[i.index(n)];
                let cuts: Vec<usize> = l.char_indices().map(|(p, _)| p).chain([l.len()]).collect();
                let at = cuts[i.index(cuts.len())];
                l.insert_str(at, s);
            }
            Edit::Truncate(i) => {
                let mut all = lines.join("\n");
                let cuts: Vec<usize> = all.char_indices().map(|(p, _)| p).collect();
                if !cuts.is_empty() {
                    all.truncate(cuts[i.index(cuts.len())]);
                }
                lines = all.lines().map(String::from).collect();
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The mutated manifest is either valid or invalid with located, non-empty diagnostics.
fn check(root: &Path, file: &str, text: &str) -> Result<bool, TestCaseError> {
    let loaded = fric_pipeline::load(root);
    let lines = text.matches(['\n', '\r']).count() + 2;
    if loaded.entries.iter().any(|e| e.file == file) {
        return Ok(true);
    }
    let inv = loaded.invalid.iter().find(|i| i.file == file);
    let inv = inv.ok_or_else(|| TestCaseError::fail("neither valid nor invalid"))?;
    prop_assert!(!inv.diagnostics.is_empty());
    for d in &inv.diagnostics {
        prop_assert_eq!(&d.file, file);
        prop_assert!(d.line >= 1 && d.line <= lines, "line {} of {}: {}", d.line, lines, d);
        prop_assert!(d.column >= 1, "{}", d);
        prop_assert!(!d.message.trim().is_empty(), "{}", d);
    }
    Ok(false)
}

#[test]
fn mutated_manifests_never_panic_and_are_always_located() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    let seeds: Vec<String> = SEEDS
        .iter()
        .map(|s| std::fs::read_to_string(root.join(s)).unwrap())
        .collect();
    let ws = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    // FUZZ_CASES=<n> for a longer search.
    let cases = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok());
    let config = Config {
        cases: cases.unwrap_or(2000),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let (tried, valid) = (std::cell::Cell::new(0usize), std::cell::Cell::new(0usize));
    let strategy = (0..SEEDS.len(), proptest::collection::vec(edit(), 1..4));
    let result = runner.run(&strategy, |(k, edits)| {
        let text = apply(&seeds[k], &edits);
        let dir = ws.path().join("experiments");
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join(SEEDS[k]);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        common::declare_documents(&dir, &[(SEEDS[k], "")]);
        tried.set(tried.get() + 1);
        let ok = check(ws.path(), &format!("experiments/{}", SEEDS[k]), &text)?;
        valid.set(valid.get() + ok as usize);
        Ok(())
    });
    let (tried, valid) = (tried.get(), valid.get());
    println!(
        "fuzz: {tried} inputs ({valid} still valid) in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    result.unwrap();
    // The seeds themselves are valid, and most edits are caught.
    assert!(valid < tried / 2, "{valid} of {tried}");
}
