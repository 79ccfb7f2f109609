//! Documents are declared by `experiments/<doc>/document.yaml`: a manifest elsewhere is refused
//! with the declared documents listed, a bad declaration is reported at its line, seed lines are
//! required only when the document has a source text, and coverage lists declared documents.

mod common;

use common::{workspace, DAHL};

/// DAHL as a manifest of document `doc`, without seed lines.
fn in_doc(doc: &str) -> String {
    DAHL.replace("thesis/fig9.1", &format!("{doc}/fig9.1"))
        .replace("document: thesis", &format!("document: {doc}"))
        .replace(", lines: [1]}", "}")
}

#[test]
fn a_document_without_a_source_text_needs_no_seed_lines() {
    let decl = "title: \"A study\"\nauthors: [A. B.]\nyear: 2026\nsource: none\n";
    // A study of one's own computes, it does not reproduce (the status rule).
    let own = in_doc("study").replace("status: reproduced", "status: computed");
    let ws = workspace(&[("study/document.yaml", decl), ("study/fig9.1.yaml", &own)]);
    let loaded = fric_pipeline::load(ws.path());
    assert!(loaded.invalid.is_empty(), "{:#?}", loaded.invalid);
    let d = loaded.document("study").unwrap();
    assert_eq!((d.decl.title.as_str(), d.decl.year), ("A study", Some(2026)));
    assert!(!d.decl.has_text());
    let cov = fric_pipeline::coverage(&loaded);
    assert_eq!(cov.keys().collect::<Vec<_>>(), ["study"]);
    assert_eq!(cov["study"]["computed"], 1);

    // The same manifest in a document with a source text: its seed lines are required.
    let ws = workspace(&[("thesis/fig9.1.yaml", &in_doc("thesis"))]);
    let loaded = fric_pipeline::load(ws.path());
    let d = &loaded.invalid[0].diagnostics;
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(d[0].message.contains("non-empty list of seed line numbers"), "{}", d[0]);
}

#[test]
fn undeclared_folders_and_bad_declarations_are_reported_at_their_line() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    // A folder without a declaration.
    let dir = ws.path().join("experiments/followup2");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fig9.1.yaml"), in_doc("followup2")).unwrap();
    // A declaration with an unknown field and one with a bad source.
    let bad = ws.path().join("experiments/bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("document.yaml"), "title: x\nsource: none\nyaer: 2026\n").unwrap();
    let worse = ws.path().join("experiments/worse");
    std::fs::create_dir_all(&worse).unwrap();
    std::fs::write(worse.join("document.yaml"), "title: x\nsource: {url: y}\n").unwrap();
    let loaded = fric_pipeline::load(ws.path());
    let by_file = |f: &str| {
        loaded
            .invalid
            .iter()
            .find(|i| i.file == f)
            .unwrap_or_else(|| panic!("{f}: {:#?}", loaded.invalid))
    };
    let d = &by_file("experiments/followup2/fig9.1.yaml").diagnostics[0];
    assert!(
        d.message
            .contains("`followup2` is not a document directory (no experiments/followup2/document.yaml)"),
        "{d}"
    );
    assert!(d.allowed.contains("thesis"), "{d}");
    let d = &by_file("experiments/bad/document.yaml").diagnostics[0];
    assert_eq!(d.line, 3, "{d}");
    assert!(d.message.contains("yaer"), "{d}");
    let d = &by_file("experiments/worse/document.yaml").diagnostics[0];
    assert_eq!(d.line, 2, "{d}");
    assert!(d.allowed.contains("file") && d.allowed.contains("doi"), "{d}");
    // The valid declarations are documents; the bad ones are not.
    let ids: Vec<&str> = loaded.documents.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, ["thesis"]);
}

/// Issue 45 item 4: a document's title and authors reach `reproduction-body.tex`, so their
/// `$...$` is checked at load as a caption's is, at the field's line (before, the title below
/// loaded and was written into the LaTeX body through `tex_escape`, which keeps `$...$`). The
/// same title without `$` and with allowed math loads.
#[test]
fn a_documents_title_and_authors_are_checked_as_captions() {
    let hostile = "title: \"Study\"\nauthors: [A. B., \"$\\\\input{/etc/passwd}$\"]\nsource: none\n";
    let ws = workspace(&[
        ("study/document.yaml", hostile),
        ("study/fig9.1.yaml", &in_doc("study")),
    ]);
    let loaded = fric_pipeline::load(ws.path());
    let bad = loaded
        .invalid
        .iter()
        .find(|i| i.file == "experiments/study/document.yaml")
        .unwrap_or_else(|| panic!("{:#?}", loaded.invalid));
    let d = &bad.diagnostics;
    assert_eq!((d.len(), d[0].line), (1, 2), "{d:#?}");
    assert!(d[0].message.contains("`\\input` is not allowed"), "{}", d[0]);
    let title = "title: \"$\\\\wedge$-unimodal maps {\"\nsource: none\n";
    let ws = workspace(&[("study/document.yaml", title)]);
    let loaded = fric_pipeline::load(ws.path());
    assert!(loaded.invalid.is_empty(), "{:#?}", loaded.invalid);
}

#[test]
fn the_project_declares_its_documents() {
    let loaded = fric_pipeline::load(&common::repo());
    let ids: Vec<&str> = loaded.documents.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "duhem-paper",
            "followup",
            "report",
            "ruderman-paper",
            "stribeck-paper",
            "thesis"
        ]
    );
    for d in &loaded.documents {
        let with_text = d.id != "followup";
        assert_eq!(d.decl.has_text(), with_text, "{}", d.id);
    }
}
