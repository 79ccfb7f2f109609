//! Under `--only`, only the selected manifests and what they reference are read (review D13):
//! the others stand as `figures/manifests.json` recorded them, so a broken or costly manifest
//! outside the selection is not read and stops nothing, and the site and coverage table after
//! an `--only` run are the full run's, byte for byte.

mod common;

use common::{repo, workspace, DAHL, LINEAR};
use fric_pipeline::{run, Options, Summary};
use std::collections::BTreeMap;
use std::path::Path;

fn go(root: &Path, only: &[&str], force: bool) -> Summary {
    let mut o = Options::new(root);
    o.jobs = Some(2);
    o.only = only.iter().map(|s| s.to_string()).collect();
    o.force = force;
    run(&o).unwrap()
}

/// The files the run writes for the whole project: everything directly in `figures/` and each
/// document's page.
fn project_outputs(root: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root.join("figures"))
        .max_depth(2)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter(|e| e.depth() == 1 || e.file_name() == "index.html")
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap().to_string_lossy().into_owned();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// Figure 9.7 draws Figure 9.1's run through `runs: from:` and checks its loop area.
fn borrowing() -> String {
    let head = &DAHL[..DAHL.find("runs:").unwrap()];
    let tail = &DAHL[DAHL.find("panels:").unwrap()..];
    format!("{head}runs:\n  - {{id: dahl, from: \"thesis/fig9.1#dahl\"}}\n{tail}")
        .replace("id: thesis/fig9.1\n", "id: thesis/fig9.7\n")
        .replace("\"9.1\"", "\"9.7\"")
}

/// A manifest that does not parse, added after the full run (so no run has read it), is not
/// read by `--only` another: the run succeeds, names it once as left out, and neither the
/// report nor the coverage table counts it. On main (every manifest parsed under `--only`) the
/// table counted it invalid: shown with main's binary in the commit message.
#[test]
fn a_broken_manifest_outside_the_selection_is_not_read_and_stops_nothing() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    assert!(go(root, &[], false).ok());
    std::fs::write(
        root.join("experiments/thesis/fig9.4.yaml"),
        "id: thesis/fig9.4\nkind: [figure\n",
    )
    .unwrap();
    std::fs::write(root.join("experiments/thesis/fig9.5.yaml"), b"id: \xff\xfe\n").unwrap();
    let s = go(root, &["thesis/fig9.1"], true);
    assert!(s.ok(), "{:?}", s.invalid);
    assert_eq!(
        s.left_out,
        ["experiments/thesis/fig9.4.yaml", "experiments/thesis/fig9.5.yaml"]
    );
    assert_eq!((s.manifests, s.selected), (2, 1));
    let invalid = s.report.coverage["thesis"].get("invalid").copied().unwrap_or(0);
    assert_eq!(invalid, 0, "{:?}", s.report.coverage);
    assert!(s.report.experiments.iter().all(|e| !e.id.starts_with("thesis/fig9.4")));
    // Selected, the broken manifest is read and reported where it is wrong.
    let s = go(root, &["thesis/fig9.4"], false);
    assert_eq!(s.invalid.len(), 1);
    assert_eq!(s.invalid[0].file, "experiments/thesis/fig9.4.yaml");
    assert!(s.left_out.is_empty() || s.left_out == ["experiments/thesis/fig9.5.yaml"]);
}

/// A selected manifest whose run is another's (`from:`) is built from it whether or not a run
/// ever recorded that one: what a selected manifest references is read.
#[test]
fn a_selected_manifest_borrowing_from_an_unselected_one_still_works() {
    let ws = workspace(&[
        ("thesis/fig9.1.yaml", DAHL),
        ("thesis/fig9.2.yaml", LINEAR),
        ("thesis/fig9.7.yaml", &borrowing()),
    ]);
    let root = ws.path();
    let s = go(root, &["thesis/fig9.7"], false);
    assert!(s.ok(), "{:?}", s.invalid);
    assert_eq!(s.figures_drawn, 1);
    assert_eq!(s.count(fric_report::Outcome::Pass), 1);
    assert_eq!(
        s.left_out,
        ["experiments/thesis/fig9.2.yaml"],
        "no record yet: the unreferenced one is left out, the referenced one read"
    );
    assert!(s.report.experiments.iter().any(|e| e.id == "thesis/fig9.7"));
}

/// After a full run, `--only` one manifest (recomputed) leaves the report, its site, the LaTeX
/// body, the coverage and the records byte-identical: the manifests it did not read stand as
/// recorded. A companion naming the selected figure (a reverse reference) is read with it.
#[test]
fn the_site_and_coverage_after_only_equal_the_full_runs() {
    let companion = DAHL
        .replace("id: thesis/fig9.1\n", "id: thesis/fig9.3\n")
        .replace("\"9.1\"", "\"9.3\"")
        .replace(
            "content: simulation\n",
            "content: simulation\nrelated:\n  - {id: thesis/fig9.1, relation: companion-of}\n",
        )
        .replace(
            "checks:",
            "assumptions:\n  - {what: \"sigma\", why: \"not given\", carries: plotting}\nchecks:",
        );
    let ws = workspace(&[
        ("thesis/fig9.1.yaml", DAHL),
        ("thesis/fig9.2.yaml", LINEAR),
        ("thesis/fig9.3.yaml", &companion),
    ]);
    let root = ws.path();
    let full = go(root, &[], false);
    assert!(full.ok(), "{:?}", full.invalid);
    let before = project_outputs(root);
    assert!(before.contains_key("figures/manifests.json") && before.contains_key("figures/index.html"));
    assert!(before.contains_key("figures/thesis/index.html"), "{:?}", before.keys());
    for only in ["thesis/fig9.1", "thesis/fig9.2"] {
        let s = go(root, &[only], true);
        assert!(
            s.ok() && s.left_out.is_empty(),
            "{only}: {:?} {:?}",
            s.invalid,
            s.left_out
        );
        let after = project_outputs(root);
        assert_eq!(before.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>());
        for (k, v) in &before {
            assert!(after[k] == *v, "--only {only}: {k} differs from the full run's");
        }
    }
    // The reverse reference: selecting Figure 9.1 reads Figure 9.3, which names it.
    let g = globset::GlobSetBuilder::new()
        .add(globset::Glob::new("thesis/fig9.1").unwrap())
        .build()
        .unwrap();
    let loaded = fric_pipeline::load::load_selected(root, Some(&g));
    let e = loaded
        .entries
        .iter()
        .find(|e| e.manifest.id == "thesis/fig9.1")
        .unwrap();
    let companions: Vec<&str> = e.companions.iter().map(|c| c.manifest.id.as_str()).collect();
    assert_eq!(companions, ["thesis/fig9.3"]);
    let recorded = loaded
        .entries
        .iter()
        .find(|e| e.manifest.id == "thesis/fig9.2")
        .unwrap();
    assert!(
        recorded.manifest.runs.is_empty(),
        "fig9.2 stands as recorded (slim), not read"
    );
}

/// Every project manifest survives the record's round trip (else it is read by every `--only`
/// run instead of standing as recorded).
#[test]
fn every_project_manifest_is_recorded() {
    let root = repo();
    let loaded = fric_pipeline::load(&root);
    let files = fric_pipeline::load::manifest_files(&root).len();
    let declarations = loaded.documents.len();
    assert!(files > 200, "{files}");
    let missing: Vec<String> = fric_pipeline::load::manifest_files(&root)
        .iter()
        .map(|p| p.strip_prefix(&root).unwrap().to_string_lossy().into_owned())
        .filter(|f| !f.ends_with("/document.yaml") && !loaded.records.contains_key(f))
        .collect();
    assert!(missing.is_empty(), "not recorded: {missing:?}");
    assert_eq!(loaded.records.len(), files - declarations);
}
