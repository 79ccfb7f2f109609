//! Run parameters `{fitted: "<doc>/<name>#<fit>.<param>"}` at load: the reference names a
//! manifest that parses (not this one) with a fit of that name fitting that parameter, and no
//! chain of such parameters leads back to this manifest; each problem at
//! `runs[i].params.<name>` (a `from:` run taking one at `runs[i].from`). The run is resolved
//! with the fit's start in the parameter's place, validated against its system, and the
//! parameter recorded as a [`Placeholder`] of the run: [`crate::fitted_params`] sets the fitted
//! value before any run is planned, and a run still holding one is neither computed nor read
//! ([`crate::entry::ResolvedRun::runnable`]).

use super::fit_ref_syntax::{parse, run_sources};
use crate::entry::Placeholder;
use fric_manifest::{Manifest, ParamValue, RunSpec};
use std::collections::{BTreeSet, HashMap};

/// What may be written: the reference's form and what it must name.
const ALLOWED: &str = "`{fitted: \"<doc>/<name>#<fit>.<param>\"}`: a fit of another manifest that parses, one \
                       of its parameters, no manifest's fit depending on this one's runs again";

/// `spec` (a run of `m`) with every `{fitted: ...}` parameter set to its fit's start, and those
/// parameters (the run's [`Placeholder`]s), or the problem: (field under the run, message, allowed).
pub(super) fn placeholders(
    m: &Manifest,
    spec: &RunSpec,
    by_id: &HashMap<&str, &Manifest>,
) -> Result<(RunSpec, Vec<Placeholder>), (String, String, String)> {
    let mut s = spec.clone();
    let mut set = Vec::new();
    for (name, v) in &spec.params {
        let ParamValue::Fitted(f) = v else { continue };
        let at = format!("params.{name}");
        let fail = |msg: String| (at.clone(), msg, ALLOWED.to_string());
        let text = &f.fitted;
        let r = parse(text).ok_or_else(|| fail(format!("`{text}` is not `<doc>/<name>#<fit>.<param>`")))?;
        if r.id == m.id {
            return Err(fail(format!(
                "`{text}` is this manifest's own fit: a run set to its result belongs in another manifest"
            )));
        }
        if let Some(msg) = super::fit_refs::problem(by_id, &r) {
            return Err(fail(msg));
        }
        if let Some(chain) = cycle(&m.id, r.id, by_id) {
            return Err(fail(format!(
                "`{text}` depends on this manifest's runs again: {} (a cycle)",
                chain.join(" → ")
            )));
        }
        let start = by_id
            .get(r.id)
            .and_then(|o| o.fit.iter().find(|x| x.name == r.fit))
            .and_then(|x| x.params.iter().find(|p| p.param == r.param))
            .map(|p| p.start);
        let start = start.ok_or_else(|| fail(format!("no fit `{}` of `{}`", r.fit, r.id)))?;
        s.params.insert(name.clone(), ParamValue::Number(start));
        set.push(Placeholder {
            manifest: m.id.clone(),
            param: name.clone(),
            fitted: text.clone(),
        });
    }
    Ok((s, set))
}

/// Whether `spec` has a `{fitted: ...}` parameter.
pub(super) fn has_fitted(spec: &RunSpec) -> bool {
    spec.params.values().any(|v| matches!(v, ParamValue::Fitted(_)))
}

/// The chain `home → from → ... → home` when the runs of `from` (through fitted run
/// parameters, transitively) depend on `home`'s fits; none without a cycle.
fn cycle(home: &str, from: &str, by_id: &HashMap<&str, &Manifest>) -> Option<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![vec![home.to_string(), from.to_string()]];
    while let Some(path) = stack.pop() {
        let last = path.last().cloned().unwrap_or_default();
        if last == home {
            return Some(path);
        }
        if !seen.insert(last.clone()) {
            continue;
        }
        let Some(o) = by_id.get(last.as_str()) else { continue };
        let next: BTreeSet<&str> = run_sources(o).collect();
        for n in next.into_iter().rev() {
            let mut p = path.clone();
            p.push(n.to_string());
            stack.push(p);
        }
    }
    None
}
