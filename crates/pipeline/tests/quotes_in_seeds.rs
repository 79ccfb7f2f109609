//! Every published number is printed at the line it cites (issue 44): a check's `printed`
//! occurs in its seed line (`published: {line}`), with the typographic variants the loader
//! allows between `printed` and its quote ([`fric_manifest::printed_in_quote`]). The seeds are
//! `../shared/seeds/` (each `document.yaml` names its file); they are read here, by a test, and
//! never by the pipeline at run time. A document whose seed is absent is named on one line
//! (`not checked: …`) and not checked; with `FRIC_REQUIRE_SEEDS=1` it fails the test.

mod common;

use fric_manifest::{printed_in_quote, DocSource, Provenance};
use std::collections::BTreeMap;

/// The lines of each document's seed, by document id: lines end at `\n` only, as the site and
/// the catalog count them (a `\r` from a converted `{\rm` is inside a line); and the documents
/// whose seed file could not be read, as `id (file)`.
fn seed_lines(loaded: &fric_pipeline::load::Loaded) -> (BTreeMap<String, Vec<String>>, Vec<String>) {
    let mut out = BTreeMap::new();
    let mut missing = Vec::new();
    for d in &loaded.documents {
        let DocSource::File(file) = &d.decl.source else {
            continue;
        };
        match std::fs::read_to_string(common::repo().join(file)) {
            Ok(text) => {
                out.insert(d.id.clone(), text.split('\n').map(str::to_string).collect());
            }
            Err(_) => missing.push(format!("{} ({file})", d.id)),
        }
    }
    (out, missing)
}

/// Says which documents' seeds were not read; fails when `require` (FRIC_REQUIRE_SEEDS=1).
fn report_unchecked(missing: &[String], require: bool) {
    if missing.is_empty() {
        return;
    }
    let line = format!("not checked, seed absent: {}", missing.join(", "));
    assert!(!require, "FRIC_REQUIRE_SEEDS=1: {line}");
    eprintln!("{line}");
}

/// `file: check on metric: printed "p" is not at line N ("…")` for every published number of
/// the project's manifests whose cited line does not print it.
fn misplaced(loaded: &fric_pipeline::load::Loaded, seeds: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut out = Vec::new();
    let entries = loaded
        .entries
        .iter()
        .flat_map(|e| std::iter::once(e).chain(&e.companions));
    for e in entries {
        let doc = e.file.split('/').nth(1).unwrap_or_default();
        let Some(lines) = seeds.get(doc) else { continue };
        for c in &e.manifest.checks {
            let Provenance::Published {
                line, printed: Some(p), ..
            } = &c.provenance
            else {
                continue;
            };
            let text = lines.get((*line as usize).wrapping_sub(1)).map_or("", String::as_str);
            if !printed_in_quote(p, text) {
                let shown: String = text.chars().take(120).collect();
                out.push(format!(
                    "{}: check on `{}`: `{p}` is not printed at line {line} ({shown:?})",
                    e.file, c.metric
                ));
            }
        }
    }
    out
}

#[test]
fn every_printed_number_is_at_its_cited_seed_line() {
    let loaded = fric_pipeline::load(&common::repo());
    assert!(loaded.entries.len() > 200, "the project's manifests were not found");
    let invalid: Vec<&String> = loaded
        .invalid
        .iter()
        .flat_map(|i| &i.diagnostics)
        .map(|d| &d.message)
        .collect();
    assert!(
        invalid.is_empty(),
        "manifests the loader refuses are not checked: {invalid:#?}"
    );
    let (seeds, missing) = seed_lines(&loaded);
    report_unchecked(&missing, std::env::var("FRIC_REQUIRE_SEEDS").is_ok_and(|v| v == "1"));
    let wrong = misplaced(&loaded, &seeds);
    assert!(
        wrong.is_empty(),
        "{} published numbers:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn an_absent_seed_is_named_and_fails_when_required() {
    report_unchecked(&[], true);
    report_unchecked(&["thesis (../shared/seeds/x.txt)".into()], false);
    let required = std::panic::catch_unwind(|| report_unchecked(&["thesis (../shared/seeds/x.txt)".into()], true));
    assert!(required.is_err(), "a missing seed passed with FRIC_REQUIRE_SEEDS=1");
}
