//! Walking `experiments/`, parsing and validating every manifest, resolving runs (sweeps and
//! references to other manifests) and computing their cache keys.
//!
//! A manifest's problems are all reported in one pass: `fric_manifest::parse_document` gives
//! every syntax, schema and id problem and a partial manifest without the invalid parts; the
//! validation here (runs against their systems in `load/runs.rs`, panels, metrics and checks in
//! `load/refs.rs`) runs on that partial manifest, and a problem that only follows from an
//! earlier one (a panel drawing a run that is itself invalid) is not reported again.

mod carries;
mod companions;
mod csv;
mod ctx;
mod digits;
mod finds;
pub(crate) mod fit_ref_syntax;
pub(crate) mod fit_refs;
pub(crate) mod fits;
mod fitted_params;
mod quotes;
mod refs;
mod runs;
mod shared_panels;
mod table_metrics;
pub mod unread;
mod variants;

pub use crate::entry::{run_key, Declared, Entry, InvalidManifest, Loaded, ResolvedRun, DECLARATION};

use ctx::Ctx;
use fric_manifest::{parse_document, Diagnostic, Document, Manifest};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Read every `experiments/<doc>/document.yaml`: the declarations, and the ones that are invalid.
fn declarations(root: &Path, files: &mut Vec<PathBuf>) -> (Vec<Declared>, Vec<InvalidManifest>) {
    let mut docs = Vec::new();
    let mut bad = Vec::new();
    let (decl, rest): (Vec<PathBuf>, Vec<PathBuf>) = std::mem::take(files)
        .into_iter()
        .partition(|p| p.file_name().is_some_and(|n| n == DECLARATION));
    *files = rest;
    for path in decl {
        let file = relative(root, &path);
        let parts: Vec<&str> = file.split('/').collect();
        let [_, doc, _] = parts.as_slice() else {
            bad.push(file_error(
                file.clone(),
                "a document declaration belongs directly in a document's folder".into(),
                "experiments/<doc>/document.yaml",
            ));
            continue;
        };
        let doc = doc.to_string();
        if let Some(m) = fric_manifest::rules::id_problem(&doc) {
            bad.push(file_error(
                file,
                format!("folder name `{doc}`: {m}"),
                "[a-z0-9][a-z0-9._-]*",
            ));
            continue;
        }
        match read_text(&path, &file) {
            Err(e) => bad.push(e),
            Ok(text) => {
                match fric_manifest::parse_declaration(&file, &text).and_then(|d| title_math(&file, &text, d)) {
                    Ok(decl) => docs.push(Declared { id: doc, file, decl }),
                    Err(diagnostics) => bad.push(InvalidManifest {
                        file,
                        id: None,
                        diagnostics,
                    }),
                }
            }
        }
    }
    docs.sort_by(|a, b| a.id.cmp(&b.id));
    (docs, bad)
}

/// A declaration's title and authors reach `reproduction-body.tex` as captions do: their
/// `$...$` spans must pass `fric_report::pgf::check_math` (balanced, mathematical commands only),
/// refused at the line of the field (`title: "$\\input{/etc/passwd}$"` would otherwise be compiled).
fn title_math(
    file: &str,
    text: &str,
    d: fric_manifest::DocumentDecl,
) -> Result<fric_manifest::DocumentDecl, Vec<Diagnostic>> {
    let line_of = |key: &str, value: &str| {
        let lines: Vec<&str> = text.lines().collect();
        let key_line = lines.iter().position(|l| l.trim_start().starts_with(key));
        let value_line = lines.iter().position(|l| l.contains(value));
        value_line.or(key_line).map_or(1, |i| i + 1)
    };
    let fields = std::iter::once(("title", d.title.as_str())).chain(d.authors.iter().map(|a| ("authors", a.as_str())));
    let bad: Vec<Diagnostic> = fields
        .filter_map(|(key, value)| {
            let e = fric_report::pgf::check_math(value).err()?;
            Some(Diagnostic {
                file: file.to_string(),
                line: line_of(&format!("{key}:"), value),
                column: 1,
                message: format!("{key}: {e}"),
                allowed: "`$...$` with balanced braces and mathematical commands only".into(),
            })
        })
        .collect();
    if bad.is_empty() {
        Ok(d)
    } else {
        Err(bad)
    }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn file_error(file: String, message: String, allowed: &str) -> InvalidManifest {
    InvalidManifest {
        file: file.clone(),
        id: None,
        diagnostics: vec![Diagnostic {
            file,
            line: 1,
            column: 1,
            message,
            allowed: allowed.to_string(),
        }],
    }
}

/// The text of the manifest or declaration `path` (shown as `file`), or why it cannot be read:
/// a byte that is not UTF-8 at its line and column.
fn read_text(path: &Path, file: &str) -> Result<String, InvalidManifest> {
    read_hashed(path, file).1
}

/// [`read_text`], with the length and SHA-256 of the bytes when they could be read.
fn read_hashed(path: &Path, file: &str) -> (Option<(u64, String)>, Result<String, InvalidManifest>) {
    match crate::readfile::read(path, crate::readfile::MANIFEST) {
        Ok(bytes) => (Some((bytes.len() as u64, unread::digest(&bytes))), decode(bytes, file)),
        Err(e) => (None, Err(file_error(file.to_string(), format!("cannot read: {e}"), ""))),
    }
}

/// `bytes` as UTF-8 text, or where the first byte that is not UTF-8 stands.
fn decode(bytes: Vec<u8>, file: &str) -> Result<String, InvalidManifest> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&good[start..]).chars().count() + 1;
        let mut bad = file_error(
            file.to_string(),
            format!("a byte that is not UTF-8 (0x{:02X})", e.as_bytes()[good.len()]),
            "UTF-8 text",
        );
        bad.diagnostics[0].line = line;
        bad.diagnostics[0].column = column;
        bad
    })
}

/// The manifest files under `<root>/experiments` (sorted) and the entries that cannot be read
/// as one: symbolic links (never followed, so a manifest is always the file at its path) and
/// unreadable directories.
fn walk(root: &Path) -> (Vec<PathBuf>, Vec<InvalidManifest>) {
    let mut files = Vec::new();
    let mut bad = Vec::new();
    if std::fs::symlink_metadata(root.join("experiments")).is_err() {
        return (files, bad);
    }
    for e in walkdir::WalkDir::new(root.join("experiments")).sort_by_file_name() {
        match e {
            Ok(e) if e.path_is_symlink() => bad.push(file_error(
                relative(root, e.path()),
                "a symbolic link; experiments/ holds manifests as regular files (links are not followed)".into(),
                "the manifest itself at experiments/<doc>/<name>.yaml",
            )),
            Ok(e) => {
                if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "yaml" || x == "yml") {
                    files.push(e.into_path());
                }
            }
            Err(err) => {
                let file = err
                    .path()
                    .map(|p| relative(root, p))
                    .unwrap_or_else(|| "experiments".into());
                bad.push(file_error(file, format!("cannot read: {err}"), ""));
            }
        }
    }
    files.sort();
    (files, bad)
}

/// Every `*.yaml` (and misnamed `*.yml`) regular file under `<root>/experiments`, sorted.
pub fn manifest_files(root: &Path) -> Vec<PathBuf> {
    walk(root).0
}

/// `experiments/<doc>/document.yaml` of the manifest file `file` when that declaration exists
/// (so its document is undeclared because the declaration is invalid).
fn undeclared_because_invalid(root: &Path, file: &str) -> Option<String> {
    let doc = file.strip_prefix("experiments/")?.split_once('/')?.0;
    let decl = format!("experiments/{doc}/{DECLARATION}");
    root.join(&decl).is_file().then_some(decl)
}

/// Why a manifest's file path breaks the naming rule `experiments/<doc>/<name>.yaml`.
fn file_problem(file: &str, documents: &[&str]) -> Option<(String, String)> {
    let rel = file.strip_prefix("experiments/").unwrap_or(file);
    let Some(id) = rel.strip_suffix(".yaml") else {
        return Some((
            format!("`{file}`: manifest files end in `.yaml`"),
            "experiments/<doc>/<name>.yaml".into(),
        ));
    };
    fric_manifest::rules::manifest_id_problem(id, documents).map(|(m, a)| (format!("file `{file}`: {m}"), a))
}

struct Parsed {
    file: String,
    /// The file's length and the SHA-256 of the bytes read.
    at: Option<(u64, String)>,
    manifest: Option<Manifest>,
    document: Document,
    diagnostics: Vec<Diagnostic>,
}

/// The declared document a manifest file (`experiments/<doc>/<name>.yaml`) belongs to.
fn document_of<'a>(documents: &'a [Declared], file: &str) -> Option<&'a Declared> {
    let rel = file.strip_prefix("experiments/")?;
    documents.iter().find(|d| rel.starts_with(&format!("{}/", d.id)))
}

/// Replace every run parameter `{const: NAME}` by the constant `NAME` of the manifest's
/// document (its `document.yaml`, `constants:`): value, unit and source line. An unknown name
/// is a diagnostic at the parameter, listing the document's constants.
fn resolve_constants(p: &mut Parsed, documents: &[Declared]) {
    let Some(m) = p.manifest.as_mut() else { return };
    let doc = document_of(documents, &p.file);
    for (i, run) in m.runs.iter_mut().enumerate() {
        let mut unknown = Vec::new();
        for (name, v) in run.params.iter_mut() {
            let fric_manifest::ParamValue::Const(c) = v else {
                continue;
            };
            match doc.and_then(|d| d.decl.constants.get(&c.name)) {
                Some(k) => *v = fric_manifest::ParamValue::Long(k.clone()),
                None => {
                    unknown.push(name.clone());
                    let allowed = match doc {
                        Some(d) if !d.decl.constants.is_empty() => {
                            let names: Vec<&str> = d.decl.constants.keys().map(String::as_str).collect();
                            format!("a constant of {}: {}", d.file, names.join(", "))
                        }
                        Some(d) => format!("no constants are declared in {} (`constants:`)", d.file),
                        None => "constants are declared in the document's document.yaml".into(),
                    };
                    let message = format!("unknown constant `{}`", c.name);
                    p.diagnostics.extend(p.document.diagnostic(
                        &p.file,
                        &format!("runs[{i}].params.{name}"),
                        message,
                        allowed,
                    ));
                }
            }
        }
        // Dropped as invalid: the run is not resolved with it, and its absence is no second
        // error ("missing parameter").
        for name in unknown {
            run.params.remove(&name);
            p.document.drop_invalid(&format!("runs[{i}].params.{name}"));
        }
    }
}

/// Load and validate every manifest under `root`.
pub fn load(root: &Path) -> Loaded {
    load_selected(root, None)
}

/// [`load_selected`] with the `--only` patterns `only` (every manifest when empty).
pub fn load_only(root: &Path, only: &[String]) -> Result<Loaded, String> {
    Ok(load_selected(root, crate::selection::selector(only)?.as_ref()))
}

/// The id the path of manifest file `file` gives (`experiments/<doc>/<name>.yaml`).
pub(crate) fn path_id(file: &str) -> &str {
    file.trim_start_matches("experiments/").trim_end_matches(".yaml")
}

/// Whether the manifest of file `file` (id `id`) is selected by `sel` (every one without it):
/// by its id or by the id its path gives.
fn wanted(sel: Option<&globset::GlobSet>, file: &str, id: &str) -> bool {
    sel.is_none_or(|g| g.is_match(id) || g.is_match(path_id(file)))
}

/// A manifest outside the selection that was read (a selected one references it, or no
/// selection): parsed (the report and the site show it, the coverage counts it), not validated; its runs are not resolved and its inputs not read.
fn unvalidated(p: &Parsed, m: &Manifest, diagnostics: Vec<Diagnostic>) -> Result<Entry, InvalidManifest> {
    if diagnostics.is_empty() {
        return Ok(Entry {
            file: p.file.clone(),
            manifest: m.clone(),
            runs: BTreeMap::new(),
            sweeps: BTreeMap::new(),
            companions: vec![],
            fit_sources: vec![],
        });
    }
    let id = (!p.document.is_knock_on("id")).then(|| m.id.clone());
    Err(InvalidManifest {
        file: p.file.clone(),
        id,
        diagnostics,
    })
}

/// Load every manifest under `root`, validating only those `sel` selects (`--only`; every one
/// without it). Under `--only`, only the selected manifests and what they reference are read
/// ([`unread`]); a referenced one is parsed, not validated ([`unvalidated`]: a `from:`
/// reference needs only its parse), and every other one stands as recorded by the last run
/// that read it, or is left out ([`Loaded::left_out`]): a broken or costly manifest outside the
/// selection (50 MB, a large CSV input, thousands of sweep members) costs nothing.
pub fn load_selected(root: &Path, sel: Option<&globset::GlobSet>) -> Loaded {
    let (mut files, mut invalid) = walk(root);
    let (documents, bad) = declarations(root, &mut files);
    invalid.extend(bad);
    let mut out = Loaded {
        entries: Vec::new(),
        invalid,
        documents,
        ..Loaded::default()
    };
    let doc_ids: Vec<String> = out.documents.iter().map(|d| d.id.clone()).collect();
    let doc_ids: Vec<&str> = doc_ids.iter().map(String::as_str).collect();
    let listed: BTreeSet<String> = files.iter().map(|p| relative(root, p)).collect();
    // Under `--only`: the selected files, then what they reference, transitively
    // ([`unread`]); every file otherwise.
    let (records, record_warning) = sel.map(|_| unread::read(root)).unwrap_or_default();
    out.record_warning = record_warning;
    let mut queue: Vec<String> = listed
        .iter()
        .filter(|f| sel.is_none_or(|g| g.is_match(path_id(f))))
        .rev()
        .cloned()
        .collect();
    let mut read = BTreeSet::new();
    let mut parsed = Vec::new();
    while let Some(file) = queue.pop() {
        if !read.insert(file.clone()) {
            continue;
        }
        let path = root.join(&file);
        let (at, text) = read_hashed(&path, &file);
        match text {
            Ok(text) => {
                let p = parse_document(&file, &text);
                if sel.is_some() {
                    let id = path_id(&file);
                    let named = p
                        .manifest
                        .iter()
                        .flat_map(unread::named)
                        .map(|id| format!("experiments/{id}.yaml"));
                    let companions = unread::naming_as_companion(&records, &listed, id).cloned();
                    let more: Vec<String> = named.chain(companions).collect();
                    queue.extend(more.into_iter().filter(|f| listed.contains(f) && !read.contains(f)));
                }
                parsed.push(Parsed {
                    file,
                    at,
                    manifest: p.manifest,
                    document: p.document,
                    diagnostics: p.diagnostics,
                });
            }
            Err(e) => {
                if let Some(r) = at.and_then(|(len, sha)| unread::record(len, &sha, None, None)) {
                    out.records.insert(file, r);
                }
                out.invalid.push(e)
            }
        }
    }
    parsed.sort_by(|a, b| a.file.cmp(&b.file));
    // The files not read stand as recorded, or are left out.
    for file in listed.iter().filter(|f| !read.contains(*f)) {
        match unread::current(&records, root, file) {
            Some(r) => {
                out.records.insert(file.clone(), r.clone());
                match &r.manifest {
                    Some(m) => out.entries.push(Entry {
                        file: file.clone(),
                        manifest: m.clone(),
                        runs: BTreeMap::new(),
                        sweeps: BTreeMap::new(),
                        companions: vec![],
                        fit_sources: vec![],
                    }),
                    None => out.invalid.push(InvalidManifest {
                        file: file.clone(),
                        id: r.invalid_id.clone(),
                        diagnostics: vec![Diagnostic {
                            file: file.clone(),
                            line: 1,
                            column: 1,
                            message: "invalid when last read (not read under --only)".into(),
                            allowed: String::new(),
                        }],
                    }),
                }
            }
            None => out.left_out.push(file.clone()),
        }
    }
    // A fit another selected manifest takes a value of (`kind: fitted`) is evaluated again there
    // on its runs: its manifest is validated too (its CSV targets read).
    let all: HashMap<&str, &Manifest> = parsed
        .iter()
        .filter_map(|p| p.manifest.as_ref().map(|m| (m.id.as_str(), m)))
        .collect();
    let fit_sources = fit_refs::wanted_sources(
        parsed
            .iter()
            .filter_map(|p| p.manifest.as_ref().filter(|m| wanted(sel, &p.file, &m.id))),
        &all,
    );
    for p in &mut parsed {
        resolve_constants(p, &out.documents);
        // A fit's measured points, read only for a validated manifest (like a `csv` input).
        let read = |m: &&mut Manifest| wanted(sel, &p.file, &m.id) || fit_sources.contains(&m.id);
        if let Some(m) = p.manifest.as_mut().filter(read) {
            let d = fits::read_csv_targets(root, &p.file, m, &p.document);
            p.diagnostics.extend(d);
        }
    }
    // Manifests that parse without a problem can be referred to by `from:`.
    let by_id: HashMap<&str, &Manifest> = parsed
        .iter()
        .filter(|p| p.diagnostics.is_empty())
        .filter_map(|p| p.manifest.as_ref().map(|m| (m.id.as_str(), m)))
        .collect();
    let groups = companions::groups(&by_id);
    // A companion of a selected figure is validated too: its runs are what the figure's units
    // are chosen with.
    let validated = |file: &str, id: &str| {
        wanted(sel, file, id)
            || fit_sources.contains(id)
            || groups.get(id).is_some_and(|c| c.iter().any(|c| wanted(sel, c, c)))
    };
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for p in &parsed {
        let mut diagnostics = p.diagnostics.clone();
        if let Some((message, allowed)) = file_problem(&p.file, &doc_ids) {
            // A document whose declaration exists but is invalid is not "missing" it.
            // (Only when the document is not among the declared ones: a declared document's
            // manifest can break the naming rule on its own.)
            let invalid_declaration = document_of(&out.documents, &p.file)
                .is_none()
                .then(|| undeclared_because_invalid(root, &p.file))
                .flatten();
            let (message, allowed) = match invalid_declaration {
                Some(decl) => (
                    format!("the declaration of its document, {decl}, is invalid (its errors are reported there)"),
                    "a valid document.yaml".into(),
                ),
                None => (message, allowed),
            };
            let (line, column) = p.document.position("id");
            diagnostics.push(Diagnostic {
                file: p.file.clone(),
                line,
                column,
                message,
                allowed,
            });
        }
        let Some(m) = &p.manifest else {
            if let Some(r) =
                p.at.as_ref()
                    .and_then(|(len, sha)| unread::record(*len, sha, None, None))
            {
                out.records.insert(p.file.clone(), r);
            }
            diagnostics.sort_by_key(|d| (d.line, d.column));
            out.invalid.push(InvalidManifest {
                file: p.file.clone(),
                id: None,
                diagnostics,
            });
            continue;
        };
        let inherited = shared_panels::inherit(m, &by_id).unwrap_or_else(|(at, message, allowed)| {
            diagnostics.extend(p.document.diagnostic(&p.file, at, message, allowed));
            None
        });
        let m_full = inherited.as_ref().unwrap_or(m);
        let as_unselected = diagnostics.is_empty().then_some(m_full);
        let invalid_id = (!p.document.is_knock_on("id")).then(|| m.id.clone());
        let invalid_id = invalid_id.filter(|_| as_unselected.is_none());
        if let Some(r) =
            p.at.as_ref()
                .and_then(|(len, sha)| unread::record(*len, sha, as_unselected, invalid_id))
        {
            out.records.insert(p.file.clone(), r);
        }
        if !validated(&p.file, &m.id) {
            match unvalidated(p, m_full, diagnostics) {
                Ok(e) => out.entries.push(e),
                Err(i) => out.invalid.push(i),
            }
            continue;
        }
        let mut cx = Ctx {
            root,
            file: &p.file,
            m: m_full,
            doc: &p.document,
            // Unknown under a missing or invalid declaration: no "source lines" demand then
            // (the manifest is already told its declaration is missing or invalid; D18).
            has_text: document_of(&out.documents, &p.file).is_some_and(|d| d.decl.has_text()),
            own_study: document_of(&out.documents, &p.file).is_some_and(|d| d.decl.is_own_study()),
            errs: Vec::new(),
            runs: BTreeMap::new(),
            sweeps: BTreeMap::new(),
            failed_runs: p.document.damaged_items("runs", "id").into_iter().collect(),
            failed_metrics: p.document.damaged_items("metrics", "name").into_iter().collect(),
        };
        if let Some(first) = seen.insert(&m.id, &p.file).filter(|_| !p.document.is_knock_on("id")) {
            cx.err("id", format!("duplicate id `{}` (also in {first})", m.id), "");
        }
        refs::registry(&mut cx);
        companions::check(&mut cx, &by_id);
        carries::assumptions(&mut cx);
        carries::own_study(&mut cx);
        runs::resolve_runs(&mut cx, &by_id);
        carries::settles(&mut cx, &by_id);
        carries::not_built(&mut cx);
        runs::check_post(&mut cx);
        variants::check_alternatives(&mut cx);
        variants::check_explain_ranges(&mut cx);
        refs::panels(&mut cx);
        refs::metrics(&mut cx);
        fit_refs::check(&mut cx, &by_id);
        fit_refs::check_targets(&mut cx, &by_id);
        finds::finds(&mut cx);
        fits::fits(&mut cx);
        refs::checks(&mut cx);
        digits::published_digits(&mut cx);
        refs::table(&mut cx);
        quotes::check_quotes(&mut cx);
        let Ctx { errs, runs, sweeps, .. } = cx;
        for (path, message, allowed) in errs {
            diagnostics.extend(p.document.diagnostic(&p.file, &path, message, allowed));
        }
        if diagnostics.is_empty() {
            out.entries.push(Entry {
                file: p.file.clone(),
                manifest: m_full.clone(),
                runs,
                sweeps,
                companions: vec![],
                fit_sources: vec![],
            });
        } else {
            diagnostics.sort_by_key(|d| (d.line, d.column));
            // An id that was invalid itself (a stand-in) is not the manifest's.
            let id = (!p.document.is_knock_on("id")).then(|| m.id.clone());
            out.invalid.push(InvalidManifest {
                file: p.file.clone(),
                id,
                diagnostics,
            });
        }
    }
    companions::attach(&mut out.entries, &groups);
    fit_refs::attach(&mut out.entries);
    out.entries.sort_by(|a, b| a.manifest.id.cmp(&b.manifest.id));
    out.invalid.sort_by(|a, b| a.file.cmp(&b.file));
    out
}
