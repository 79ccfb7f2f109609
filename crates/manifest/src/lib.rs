//! The experiment manifest: its schema, strict parsing and the mapping of error paths back to
//! file, line and column.
//!
//! This crate owns the YAML format only. It knows the shape of runs, panels, metrics and checks
//! but not which systems exist or what their parameters mean: that is checked by
//! `fric-experiments` and reported through [`Diagnostic`]s located with the [`Document`] that
//! [`parse_document`] returns.
//!
//! Reading goes: raw text (byte-order marks, `text.rs`) → libyaml's syntax check → a located
//! tree (`tree.rs`: duplicate keys, anchors, tags) → serde over the tree (`de.rs`, errors in
//! the manifest's words in `error.rs`), repeated to collect every error (`document.rs`) → the
//! rules a manifest follows on its own (`rules.rs`: safe ids, unique ids, tolerances).

mod de;
mod document;
mod error;
mod locate;
pub mod member;
mod named;
pub mod rules;
pub mod run_ref;
mod schema;
mod text;
mod tree;

pub use document::Document;
pub use locate::{parse_path, Locator, PathSeg};
pub use schema::*;

use tree::Issue;

use std::fmt;

/// The JSON Schema of the manifest format (draft 2020-12), generated from the schema types:
/// editors complete and validate manifests with it (`experiments/manifest.schema.json`, written
/// by `cargo xtask schema --json`).
///
/// `metric_kinds` are the metric kinds' declarations (they live with their evaluation, outside
/// this crate): `metrics[].kind` is one of their names, each described by its doc and example.
/// `input_kinds` likewise (they live with their signals): `runs[].input` is one of them;
/// `methods` (they live with the solvers): `sim.method` is one of their names; and `styles`
/// (they live with the renderers): a series' `style` is one of their names.
pub fn json_schema(
    metric_kinds: &[KindDoc],
    input_kinds: &[KindDoc],
    methods: &[KindDoc],
    styles: &[KindDoc],
) -> String {
    let mut generator = schemars::SchemaGenerator::default();
    let input = input_schema(input_kinds, &mut generator);
    let mut schema = generator.into_root_schema_for::<Manifest>();
    if let Some(def) = schema.pointer_mut("/$defs/InputSpec") {
        *def = input;
    }
    let alternatives: Vec<serde_json::Value> = metric_kinds
        .iter()
        .map(|k| serde_json::json!({"const": k.name, "description": format!("{}. Example: {}", k.doc, k.example)}))
        .collect();
    if let Some(def) = schema.pointer_mut("/$defs/MetricKind").and_then(|v| v.as_object_mut()) {
        def.insert("oneOf".into(), alternatives.into());
    }
    let methods: Vec<serde_json::Value> = methods
        .iter()
        .map(|m| {
            serde_json::json!({"description": format!("{}. Example: {}", m.doc, m.example), "type": "string", "const": m.name})
        })
        .collect();
    if let Some(def) = schema.pointer_mut("/$defs/Method") {
        *def = serde_json::json!({"description": METHOD_DOC, "oneOf": methods});
    }
    let styles: Vec<serde_json::Value> = styles
        .iter()
        .map(|s| {
            serde_json::json!({"description": format!("{}. Example: {}", s.doc, s.example), "type": "string", "const": s.name})
        })
        .collect();
    if let Some(def) = schema.pointer_mut("/$defs/Style") {
        *def = serde_json::json!({"description": STYLE_DOC, "oneOf": styles});
    }
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serialises");
    text.push('\n');
    text
}

/// A problem in a manifest, located in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// What is allowed (may be empty).
    pub allowed: String,
}

/// The longest message or list of allowed values a diagnostic shows: a value written into a
/// manifest (a 1 MB system name) is never echoed in full.
const MAX_SHOWN: usize = 2000;

/// `s`, or its first [`MAX_SHOWN`] characters and how many were left out.
fn shown(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(MAX_SHOWN) {
        None => s.into(),
        Some((cut, _)) => {
            let left = s[cut..].chars().count();
            format!("{}… ({left} more characters not shown)", &s[..cut]).into()
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file,
            self.line,
            self.column,
            shown(&self.message)
        )?;
        if !self.allowed.is_empty() {
            write!(f, "\n    allowed: {}", shown(&self.allowed))?;
        }
        Ok(())
    }
}

/// A manifest file read as far as it goes: the manifest (partial when parts of it were
/// invalid and dropped; None when the file is unusable as a whole), every problem found, and
/// the [`Document`] that locates paths of the manifest in the file and tells knock-on errors
/// (at a part that was dropped) from new ones.
#[derive(Debug)]
pub struct Parsed {
    pub manifest: Option<Manifest>,
    pub diagnostics: Vec<Diagnostic>,
    pub document: Document,
}

/// The located tree of a YAML file (empty when its syntax is broken) and the problems found
/// reading it (byte-order marks, syntax, duplicate keys, anchors, tags).
fn read_tree(file: &str, text: &str) -> (Document, Vec<Diagnostic>) {
    let diag = |i: Issue| locate_issue(file, i);
    let (text, issues) = text::strip_bom(text);
    let mut diagnostics: Vec<Diagnostic> = issues.into_iter().map(diag).collect();
    let mut document = Document::default();
    let syntax = text::syntax(&text)
        .map(Err)
        .unwrap_or_else(|| tree::build(&text).map_err(|i| text::scanner_issue(&text, i)));
    match syntax {
        Err(i) => diagnostics.push(diag(i)),
        Ok((root, issues)) => {
            diagnostics.extend(issues.into_iter().map(diag));
            document = Document::new(root);
        }
    }
    (document, diagnostics)
}

fn locate_issue(file: &str, i: Issue) -> Diagnostic {
    Diagnostic {
        file: file.to_string(),
        line: i.line,
        column: i.col,
        message: i.message,
        allowed: i.allowed,
    }
}

/// Read a manifest's text and report every problem of its syntax, structure and schema, and of
/// the [`rules`] a manifest follows on its own, each located, sorted by line. A byte-order mark
/// at the very start is dropped.
pub fn parse_document(file: &str, text: &str) -> Parsed {
    let diag = |i: Issue| locate_issue(file, i);
    let (mut document, mut diagnostics) = read_tree(file, text);
    let mut manifest = None;
    if document.is_empty() {
        if diagnostics.is_empty() {
            diagnostics.push(diag(Issue::new(
                1,
                1,
                "the file is empty",
                "a manifest: id, kind, source, ...",
            )));
        }
    } else {
        let (m, errors) = document.deserialize();
        for e in errors {
            let (message, allowed) = e.message();
            let (line, col) = e.at.as_ref().map(|a| (a.line, a.col)).unwrap_or((1, 1));
            diagnostics.push(diag(Issue::new(line, col, message, allowed)));
        }
        if let Some(m) = &m {
            for (path, message, allowed) in rules::check(m) {
                if rules::follows_from(&path).is_some_and(|p| document.is_knock_on(&p)) {
                    continue;
                }
                diagnostics.extend(document.diagnostic(file, &path, message, allowed));
            }
        }
        manifest = m;
    }
    if manifest.is_none() && diagnostics.is_empty() {
        diagnostics.push(diag(Issue::new(1, 1, "the manifest cannot be read", "")));
    }
    diagnostics.sort_by_key(|d| (d.line, d.column));
    Parsed {
        manifest,
        diagnostics,
        document,
    }
}

/// Read a document declaration (`experiments/<doc>/document.yaml`): the declaration, or its
/// problems, located (file, line, column, what is allowed).
pub fn parse_declaration(file: &str, text: &str) -> Result<DocumentDecl, Vec<Diagnostic>> {
    let diag = |i: Issue| locate_issue(file, i);
    let (document, mut diagnostics) = read_tree(file, text);
    if document.is_empty() && !diagnostics.is_empty() {
        return Err(diagnostics);
    }
    let shape = "title, authors, year, source: {file: <path>} | {doi: <doi>} | none";
    if document.is_empty() {
        diagnostics.push(diag(Issue::new(1, 1, "the file is empty", shape)));
        return Err(diagnostics);
    }
    match document.deserialize_as::<DocumentDecl>() {
        Ok(d) if diagnostics.is_empty() => Ok(d),
        Ok(_) => Err(diagnostics),
        Err(e) => {
            let (message, allowed) = e.message();
            let (line, col) = e.at.as_ref().map(|a| (a.line, a.col)).unwrap_or((1, 1));
            diagnostics.push(diag(Issue::new(line, col, message, allowed)));
            Err(diagnostics)
        }
    }
}

/// Parse a manifest's text: the manifest, or every problem found (see [`parse_document`]).
pub fn parse(file: &str, text: &str) -> Result<Manifest, Vec<Diagnostic>> {
    let p = parse_document(file, text);
    match p.manifest {
        Some(m) if p.diagnostics.is_empty() => Ok(m),
        _ => Err(p.diagnostics),
    }
}
