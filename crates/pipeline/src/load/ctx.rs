//! One manifest under validation: what the checks of `load/` share.

use crate::entry::ResolvedRun;
use fric_manifest::{Document, Manifest};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// A problem at a path of the manifest: (path, message, allowed).
pub(super) type Errs = Vec<(String, String, String)>;

pub(super) fn err(errs: &mut Errs, path: impl Into<String>, msg: impl Into<String>, allowed: impl Into<String>) {
    errs.push((path.into(), msg.into(), allowed.into()));
}

/// One manifest under validation.
pub(super) struct Ctx<'a> {
    /// The workspace root (sampled inputs are read under its `data/`).
    pub(super) root: &'a Path,
    pub(super) file: &'a str,
    pub(super) m: &'a Manifest,
    pub(super) doc: &'a Document,
    /// Whether the manifest's document has a source text (its manifests cite seed lines).
    pub(super) has_text: bool,
    /// Whether the manifest's document is a study of one's own (`source: none`).
    pub(super) own_study: bool,
    pub(super) errs: Errs,
    pub(super) runs: BTreeMap<String, ResolvedRun>,
    pub(super) sweeps: BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
    /// Runs and metrics that are invalid themselves: what refers to them is not checked.
    pub(super) failed_runs: HashSet<String>,
    pub(super) failed_metrics: HashSet<String>,
}

impl Ctx<'_> {
    pub(super) fn err(&mut self, path: impl Into<String>, msg: impl Into<String>, allowed: impl Into<String>) {
        err(&mut self.errs, path, msg, allowed);
    }
}
