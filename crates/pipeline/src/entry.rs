//! What loading produces: a valid manifest with its runs resolved ([`Entry`]), an invalid one
//! with its diagnostics, the declared documents, and the cache key of a run.

use crate::fingerprint::RUNS_FINGERPRINT;
use crate::hash::sha256_hex;
use fric_experiments::methods::Method;
use fric_experiments::RunRequest;
use fric_manifest::run_ref::RunRef;
use fric_manifest::{Diagnostic, Manifest, RunSpec};
use std::collections::BTreeMap;

/// A valid manifest with its runs resolved.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Path relative to the root, `experiments/<doc>/<name>.yaml`.
    pub file: String,
    pub manifest: Manifest,
    /// Every concrete run (sweeps expanded) by id.
    pub runs: BTreeMap<String, ResolvedRun>,
    /// Swept runs: base id → member ids with their coordinates (parameter, value).
    pub sweeps: BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
    /// The figures drawn with this one's unit scaling (`related: companion-of`, its whole
    /// group), as loaded; their own `companions` are empty.
    pub companions: Vec<Entry>,
    /// The manifests whose fits this one's `fitted` metrics take a value of (as loaded, with
    /// their runs resolved; their own `fit_sources` empty).
    pub fit_sources: Vec<Entry>,
}

/// The runs of manifest `other` taken (`from: "<id>#<run>"`) from one of `runs` of manifest
/// `id`: where a fit of `id` fitting `runs` sets its values in another manifest (a fit target's
/// `manifest`, one of [`Entry::fit_sources`]). The one rule of the loader's refusal
/// (`load/fit_refs.rs`) and of the fit's evaluation (`fits.rs`).
pub fn runs_taken_from<'a>(other: &'a Manifest, id: &str, runs: &[&str]) -> Vec<&'a RunSpec> {
    let taken = |r: &RunSpec| {
        r.from
            .as_deref()
            .and_then(RunRef::parse)
            .is_some_and(|f| f.manifest == id && runs.contains(&f.run))
    };
    other.runs.iter().filter(|r| taken(r)).collect()
}

#[derive(Clone, Debug)]
pub struct ResolvedRun {
    pub request: RunRequest,
    /// Derived columns added after loading (not part of the key).
    pub post: Vec<fric_manifest::PostOp>,
    /// Cache key: sha256 of the canonical request and the code fingerprint.
    pub key: String,
    /// Its `{fitted: ...}` parameters still at their fit's start value, the loader's placeholder
    /// (none once [`crate::fitted_params::resolve`] has set them): such a run is neither computed
    /// nor read ([`ResolvedRun::runnable`]).
    pub placeholders: Vec<Placeholder>,
}

/// A `{fitted: ...}` run parameter at its fit's start value: what the loader puts in its place
/// until [`crate::fitted_params::resolve`] sets the fitted value.
#[derive(Clone, Debug, PartialEq)]
pub struct Placeholder {
    /// The manifest whose run it is.
    pub manifest: String,
    pub param: String,
    /// The reference, `<doc>/<name>#<fit>.<param>`.
    pub fitted: String,
}

impl ResolvedRun {
    /// The request this run is computed with or read from the cache by, or why it may not be:
    /// a parameter still holds its placeholder. Every path that computes or reads a run
    /// ([`crate::compute`]) asks this, so a caller that forgot
    /// [`crate::fitted_params::resolve`] gets this error, never the fit's start values.
    pub fn runnable(&self) -> Result<&RunRequest, String> {
        match self.placeholders.first() {
            None => Ok(&self.request),
            Some(p) => Err(format!(
                "`{}`: run parameter `{}` is `{{fitted: \"{}\"}}`, not yet set (it holds the fit's start \
                 value): call fric_pipeline::fitted_params::resolve on the load before computing or reading its runs",
                p.manifest, p.param, p.fitted
            )),
        }
    }
}

/// A manifest that could not be used.
#[derive(Clone, Debug)]
pub struct InvalidManifest {
    pub file: String,
    pub id: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Default)]
pub struct Loaded {
    pub entries: Vec<Entry>,
    pub invalid: Vec<InvalidManifest>,
    /// The declared documents (`experiments/<doc>/document.yaml` that parse), sorted by id.
    pub documents: Vec<Declared>,
    /// What this load knows of each manifest file, for a later `--only` run not to read it
    /// ([`crate::load::unread`]): written to `data/cache/manifests.json`.
    pub records: crate::load::unread::Records,
    /// The manifest files an `--only` load did not read and has no current record of: left out.
    pub left_out: Vec<String>,
    /// Why the record of an earlier run was ignored (corrupt, tampered, another format), if it was.
    pub record_warning: Option<String>,
}

/// A declared document.
#[derive(Clone, Debug)]
pub struct Declared {
    /// The folder name, `<doc>`.
    pub id: String,
    /// `experiments/<doc>/document.yaml`.
    pub file: String,
    pub decl: fric_manifest::DocumentDecl,
}

/// The file name that declares a document in its folder.
pub const DECLARATION: &str = "document.yaml";

impl Loaded {
    /// The declared document `id`.
    pub fn document(&self, id: &str) -> Option<&Declared> {
        self.documents.iter().find(|d| d.id == id)
    }
}

/// Cache key of a run request: the fingerprint of the code that computes runs and the canonical
/// request. A request carries its method (resolved at load); for a method registered at run time
/// ([`fric_experiments::methods::register`], declared outside the fingerprinted code) the key
/// also carries that declaration (name, doc, solver and tolerances), so that another method
/// registered under the same name (another study or test on the same cache) cannot hit the
/// entry. A project method's key is its request's alone, as before (its declaration is in the
/// fingerprint).
pub fn run_key(req: &RunRequest) -> String {
    run_key_by(req, Some(req.method))
}

/// [`run_key`] of `req` computed by `method` (`None`: the request's canonical form alone).
pub fn run_key_by(req: &RunRequest, method: Option<Method>) -> String {
    let canonical = serde_json::to_string(req).expect("requests serialise");
    let declared = match method {
        Some(Method::Registered(decl)) => format!("\nmethod {decl:?}"),
        _ => String::new(),
    };
    sha256_hex(format!("run-v1\n{RUNS_FINGERPRINT}\n{canonical}{declared}").as_bytes())
}
