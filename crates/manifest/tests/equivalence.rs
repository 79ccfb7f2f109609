//! The manifest reader (a located tree and its own deserializer) reads every project manifest
//! exactly as serde_yaml reads it.

use std::path::Path;

#[test]
fn every_project_manifest_reads_as_serde_yaml_reads_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    let mut n = 0;
    for doc in std::fs::read_dir(&root).unwrap().flatten() {
        if !doc.path().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(doc.path()).unwrap().flatten() {
            let text = std::fs::read_to_string(f.path()).unwrap();
            let name = f.path().display().to_string();
            if f.file_name() == "document.yaml" {
                // A document's declaration, not a manifest (serde_yaml reads enums only from
                // tags, so it is not compared here).
                fric_manifest::parse_declaration(&name, &text).unwrap_or_else(|d| panic!("{d:#?}"));
                continue;
            }
            let reference: fric_manifest::Manifest = serde_yaml::from_str(&text).unwrap();
            let ours = fric_manifest::parse(&name, &text).unwrap_or_else(|d| panic!("{d:#?}"));
            assert_eq!(ours, reference, "{name}");
            n += 1;
        }
    }
    assert!(n > 200, "{n} manifests");
}
