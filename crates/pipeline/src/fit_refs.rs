//! `fitted` metrics evaluated: the fit of another manifest each one names evaluated again on
//! that manifest ([`crate::fits::fitted`]: the same serial steps, its runs read from the run
//! cache or computed into it), once per fit, and its parameter's value and standard error
//! (`<metric>.sd`) recorded before the manifest's own metrics, so that arithmetic, checks,
//! tables and captions read them.

use crate::entry::Entry;
use crate::fits::{fitted, standard_error, unit};
use crate::load::fit_ref_syntax::{parse, FitRef, KIND};
use crate::lsq::Fitted;
use crate::metric_tables::record;
use crate::store::RunCache;
use fric_manifest::FitSpec;
use fric_report::ExperimentReport;
use std::collections::BTreeMap;

/// Record the value (and standard error) of every `fitted` metric of `e` into `rep`; a fit that
/// fails is an error of the metric (its checks then fail).
pub(crate) fn evaluate_fit_refs(cache: &RunCache, e: &Entry, rep: &mut ExperimentReport) {
    let mut done: BTreeMap<(String, String), Result<(FitSpec, Fitted), String>> = BTreeMap::new();
    for mt in e.manifest.metrics.iter().filter(|m| m.kind.0 == KIND) {
        let Some((text, r)) = mt.fit.as_deref().and_then(|s| Some((s, parse(s)?))) else {
            continue;
        };
        let key = (r.id.to_string(), r.fit.to_string());
        let res = done.entry(key).or_insert_with(|| fit_of(cache, e, &r));
        let value = res.as_ref().map_err(Clone::clone).and_then(|(f, x)| {
            let j = f.params.iter().position(|p| p.param == r.param);
            let j = j.ok_or_else(|| format!("fit `{}` fits no `{}`", r.fit, r.param))?;
            Ok((x.params[j], standard_error(f, x, j)))
        });
        match value {
            Ok((v, sd)) => {
                record(rep, &mt.name, Ok(v));
                if let Some(sd) = sd {
                    let name = format!("{}.sd", mt.name);
                    record(rep, &name, sd);
                    unit(rep, &name, mt.unit.clone());
                }
            }
            Err(err) => rep.errors.push(format!("metric `{}`: `{text}`: {err}", mt.name)),
        }
    }
}

/// Fit `r.fit` of the manifest `r.id`, which `e` carries.
fn fit_of(cache: &RunCache, e: &Entry, r: &FitRef) -> Result<(FitSpec, Fitted), String> {
    let src = e.fit_sources.iter().find(|s| s.manifest.id == r.id);
    let src = src.ok_or_else(|| format!("manifest `{}` is not loaded (invalid?)", r.id))?;
    let f = src.manifest.fit.iter().find(|f| f.name == r.fit);
    let f = f.ok_or_else(|| format!("`{}` has no fit `{}`", r.id, r.fit))?;
    fitted(cache, src, f)
}
