//! A `fitted` metric's reference, `fit: <doc>/<name>#<fit>.<param>` (and a run parameter's,
//! `{fitted: <doc>/<name>#<fit>.<param>}`), read as text: the kind's
//! name, the reference's parts, the manifests a manifest's references name. Apart from
//! [`super::fit_refs`] (which checks and attaches them, with the loader's context), so that
//! what only reads a manifest (`unread.rs`, `refs/metrics.rs`) needs nothing of the loader and
//! no module circle runs through it.

use fric_manifest::Manifest;

/// The kind's name.
pub(crate) const KIND: &str = "fitted";

/// A parsed reference: the manifest, its fit and the parameter.
pub(crate) struct FitRef<'a> {
    pub id: &'a str,
    pub fit: &'a str,
    pub param: &'a str,
}

/// `<doc>/<name>#<fit>.<param>`; a fit's name has no `.`, a parameter may (`input.amplitude`).
pub(crate) fn parse(s: &str) -> Option<FitRef<'_>> {
    let (id, rest) = s.split_once('#')?;
    let (fit, param) = rest.split_once('.')?;
    let ok = id.contains('/') && !fit.is_empty() && !param.is_empty();
    ok.then_some(FitRef { id, fit, param })
}

/// The manifests `m`'s `fitted` metrics, `{fitted: ...}` run parameters and fit targets
/// (`manifest:`) refer to.
pub(in crate::load) fn sources(m: &Manifest) -> impl Iterator<Item = &str> {
    m.metrics
        .iter()
        .filter(|mt| mt.kind.0 == KIND)
        .filter_map(|mt| parse(mt.fit.as_deref()?).map(|r| r.id))
        .chain(run_sources(m))
        .chain(target_sources(m))
}

/// The other manifests `m`'s fit targets name (`targets[].manifest`).
pub(crate) fn target_sources(m: &Manifest) -> impl Iterator<Item = &str> {
    m.fit
        .iter()
        .flat_map(|f| f.targets.iter().filter_map(|t| t.manifest.as_deref()))
}

/// The manifests `m`'s `{fitted: ...}` run parameters refer to.
pub(crate) fn run_sources(m: &Manifest) -> impl Iterator<Item = &str> {
    fitted_params(m).filter_map(|(_, _, text)| parse(text).map(|r| r.id))
}

/// Every `{fitted: ...}` run parameter of `m`: (run index, parameter, reference).
pub(crate) fn fitted_params(m: &Manifest) -> impl Iterator<Item = (usize, &str, &str)> {
    m.runs.iter().enumerate().flat_map(|(i, r)| {
        r.params.iter().filter_map(move |(name, v)| match v {
            fric_manifest::ParamValue::Fitted(f) => Some((i, name.as_str(), f.fitted.as_str())),
            _ => None,
        })
    })
}

/// Whether `name` is `<metric>.sd` of a `fitted` metric (its standard error).
pub(in crate::load) fn is_fitted_sd(m: &Manifest, name: &str) -> bool {
    name.strip_suffix(".sd")
        .is_some_and(|b| m.metrics.iter().any(|mt| mt.name == b && mt.kind.0 == KIND))
}
