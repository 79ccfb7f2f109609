//! Under `--only`, only the selected manifests and what they reference are read (review D13):
//! the others stand as `data/cache/manifests.json` recorded them (by content hash, outside
//! `figures/`), so a broken or costly manifest outside the selection is not read and stops
//! nothing, and the site and coverage table after an `--only` run are the full run's, byte for
//! byte. `figures`, `sensitivity` and `compute` of an `--only` plan load alike.

mod common;

use common::{repo, workspace, DAHL, LINEAR};
use fric_pipeline::load::unread::RECORD;
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
/// body and the coverage byte-identical: the manifests it did not read stand as
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
    assert!(before.contains_key("figures/index.html"));
    // The record is the workspace's cache, not an output (s53's figures/manifests.json held
    // modification times, so figures/ differed between copies, --jobs and shards).
    assert!(!root.join("figures/manifests.json").exists() && root.join(RECORD).is_file());
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

/// A broken manifest under `experiments/thesis/`, added after the full run (no run read it).
fn add_broken(root: &Path) {
    std::fs::write(
        root.join("experiments/thesis/fig9.4.yaml"),
        "id: thesis/fig9.4\nkind: [figure\n",
    )
    .unwrap();
}

/// The record decides by content, not by modification time: a copy of the workspace (every file
/// written anew) and a touched file find their records current, a change of the same length
/// does not. With s53's record (length and mtime) the copy left both unselected manifests out
/// and its report differed from the original's; with no check of the content, the same-length
/// edit would stand as the old record.
#[test]
fn the_record_is_keyed_by_content_and_survives_a_copy() {
    let ws = workspace(&[
        ("thesis/fig9.1.yaml", DAHL),
        ("thesis/fig9.2.yaml", LINEAR),
        (
            "thesis/fig9.3.yaml",
            &LINEAR.replace("fig9.2", "fig9.3").replace("\"9.2\"", "\"9.3\""),
        ),
    ]);
    let root = ws.path();
    assert!(go(root, &[], false).ok());
    let full = project_outputs(root);
    // A copy: new files, new modification times, the same content.
    let copy = tempfile::tempdir().unwrap();
    for e in walkdir::WalkDir::new(root)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
    {
        let to = copy.path().join(e.path().strip_prefix(root).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(&to, std::fs::read(e.path()).unwrap()).unwrap();
    }
    let s = go(copy.path(), &["thesis/fig9.1"], true);
    assert!(s.ok() && s.left_out.is_empty(), "{:?} {:?}", s.invalid, s.left_out);
    assert!(
        project_outputs(copy.path()) == full,
        "the copy's outputs differ from the original's"
    );
    // A touched file (a later modification time) is still current.
    let f = std::fs::File::options()
        .append(true)
        .open(root.join("experiments/thesis/fig9.2.yaml"))
        .unwrap();
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(60))
        .unwrap();
    drop(f);
    let s = go(root, &["thesis/fig9.1"], false);
    assert!(s.left_out.is_empty(), "{:?}", s.left_out);
    // The same length, another content: not current, left out.
    let p = root.join("experiments/thesis/fig9.3.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    let changed = text.replacen("9.3", "9.8", 1);
    assert_eq!(changed.len(), text.len());
    std::fs::write(&p, changed).unwrap();
    let s = go(root, &["thesis/fig9.1"], false);
    assert_eq!(s.left_out, ["experiments/thesis/fig9.3.yaml"]);
}

/// A record that does not parse, or whose checksum does not match its content (a hand edit),
/// is ignored with a warning and rebuilt; the run succeeds and reads what it must.
#[test]
fn a_corrupt_or_edited_record_is_rebuilt_with_a_warning() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    assert!(go(root, &[], false).ok());
    let good = std::fs::read_to_string(root.join(RECORD)).unwrap();
    assert!(good.contains("experiments/thesis/fig9.2.yaml"), "{good}");
    for (what, bad) in [
        ("truncated", good[..good.len() / 2].to_string()),
        ("edited", good.replace("\"reproduced\"", "\"partial\"")),
    ] {
        assert_ne!(bad, good, "{what}");
        std::fs::write(root.join(RECORD), &bad).unwrap();
        let s = go(root, &["thesis/fig9.1"], false);
        assert!(s.ok(), "{what}: {:?}", s.invalid);
        let w = s.record_warning.unwrap_or_else(|| panic!("{what}: no warning"));
        assert!(w.contains(RECORD) && w.contains("rebuilt"), "{what}: {w}");
        assert_eq!(s.left_out, ["experiments/thesis/fig9.2.yaml"], "{what}");
        // Rebuilt: the next run reads it without a warning.
        let s = go(root, &[], false);
        assert!(s.record_warning.is_none() && s.left_out.is_empty(), "{what}");
    }
}

/// `sensitivity --only` and `compute` of a plan made with `--only` load as `figures --only`
/// does: a broken manifest outside the selection is neither read nor fatal (audit s53 item
/// 1: both called the loader of every manifest, so the broken one was parsed, and `left_out`
/// was empty; shown by reverting the two `load_selected` calls).
#[test]
fn sensitivity_and_compute_under_only_read_only_the_selection() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    assert!(go(root, &[], false).ok());
    add_broken(root);
    let mut o = Options::new(root);
    o.jobs = Some(2);
    o.only = vec!["thesis/fig9.1".into()];
    let s = fric_pipeline::sensitivity::sensitivity(&o).unwrap();
    assert!(s.invalid.is_empty(), "{:?}", s.invalid);
    assert_eq!(s.left_out, ["experiments/thesis/fig9.4.yaml"]);
    o.force = true;
    let (plan, _) = fric_pipeline::shard::PlanFile::new(&o).unwrap();
    assert_eq!(plan.only, ["thesis/fig9.1"]);
    let c = fric_pipeline::shard::compute(&Options::new(root), &plan, 1, 1).unwrap();
    assert!(c.failed.is_empty(), "{:?}", c.failed);
    assert_eq!(c.left_out, ["experiments/thesis/fig9.4.yaml"]);
}
