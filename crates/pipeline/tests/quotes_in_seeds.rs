//! Every published number is printed at the line it cites (issue 44): a check's `printed`
//! occurs in its seed line (`published: {line}`), with the typographic variants the loader
//! allows between `printed` and its quote ([`fric_manifest::printed_in_quote`]). The seeds are
//! `../shared/seeds/` (each `document.yaml` names its file); they are read here, by a test, and
//! never by the pipeline at run time. Without them the test says so and checks nothing.

mod common;

use fric_manifest::{printed_in_quote, DocSource, Provenance};
use std::collections::BTreeMap;

/// The lines of each document's seed, by document id: lines end at `\n` only, as the site and
/// the catalog count them (a `\r` from a converted `{\rm` is inside a line).
fn seed_lines(loaded: &fric_pipeline::load::Loaded) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for d in &loaded.documents {
        let DocSource::File(file) = &d.decl.source else {
            continue;
        };
        if let Ok(text) = std::fs::read_to_string(common::repo().join(file)) {
            out.insert(d.id.clone(), text.split('\n').map(str::to_string).collect());
        }
    }
    out
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
    let seeds = seed_lines(&loaded);
    if seeds.is_empty() {
        eprintln!("no seed texts under ../shared/seeds: nothing checked");
        return;
    }
    let wrong = misplaced(&loaded, &seeds);
    assert!(
        wrong.is_empty(),
        "{} published numbers:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
