//! Every change of a run's parameters or input fields: a sweep member's value set in its run
//! spec ([`apply_sweep`], before the run is resolved), and an alternative reading's or an
//! explanation step's values set in a resolved run ([`variant`], [`patch`]: the request
//! revalidated against its system and re-keyed). An input field is set by [`set_input_field`].

use crate::entry::{run_key, Entry, ResolvedRun};
use crate::member::is_run_or_member;
use fric_manifest::{InputSpec, ParamValue, RunSpec};
use std::collections::BTreeMap;

/// The manifest `e` with the run `run` (every member, for a swept run) changed by `set`
/// (parameter name or `input.<field>` → value), revalidated against its system and re-keyed.
pub fn variant(e: &Entry, run: &str, set: &[(String, f64)]) -> Result<Entry, String> {
    let mut v = e.clone();
    let mut hit = false;
    for (id, r) in v.runs.iter_mut() {
        if !is_run_or_member(id, run) {
            continue;
        }
        hit = true;
        *r = patch(r, set).map_err(|err| format!("run `{id}`: {err}"))?;
    }
    if !hit {
        return Err(format!("no run `{run}` in {}", e.manifest.id));
    }
    Ok(v)
}

/// The run `r` changed by `set` (parameter name or `input.<field>` → value), revalidated
/// against its system and re-keyed.
pub(crate) fn patch(r: &ResolvedRun, set: &[(String, f64)]) -> Result<ResolvedRun, String> {
    let req = &r.request;
    let mut params: BTreeMap<String, ParamValue> = req
        .params
        .iter()
        .map(|(k, v)| {
            let pv = if v.len() == 1 {
                ParamValue::Number(v[0])
            } else {
                ParamValue::List(v.clone())
            };
            (k.clone(), pv)
        })
        .collect();
    let mut input = req.input.clone();
    for (name, value) in set {
        if let Some(field) = name.strip_prefix("input.") {
            input = set_input_field(&input, field, *value)?;
        } else if params.contains_key(name) {
            params.insert(name.clone(), ParamValue::Number(*value));
        } else {
            let names: Vec<&str> = params.keys().map(String::as_str).collect();
            return Err(format!(
                "`{name}` is not a parameter of `{}` (parameters: {}; or input.<field>)",
                req.system,
                names.join(", ")
            ));
        }
    }
    let mut request =
        fric_experiments::resolve(&req.system, &params, Some(&input), Some(&req.sim)).map_err(|errs| {
            errs.iter()
                .map(|i| format!("{}: {} (allowed: {})", i.path, i.message, i.allowed))
                .collect::<Vec<_>>()
                .join("; ")
        })?;
    request.input_data = req.input_data.clone();
    let key = run_key(&request);
    Ok(ResolvedRun {
        request,
        post: r.post.clone(),
        key,
    })
}

/// `input` with its numeric field `field` set to `value` ([`InputSpec::set_number`]).
pub(crate) fn set_input_field(input: &InputSpec, field: &str, value: f64) -> Result<InputSpec, String> {
    let mut set = input.clone();
    set.set_number(field, value)?;
    Ok(set)
}

/// Apply one sweep value to a run spec.
pub(crate) fn apply_sweep(spec: &RunSpec, param: &str, value: f64) -> Result<RunSpec, String> {
    let mut s = spec.clone();
    s.sweep = None;
    if let Some(field) = param.strip_prefix("input.") {
        let input = s.input.as_ref().ok_or("sweep over an input field needs an input")?;
        s.input = Some(set_input_field(input, field, value)?);
    } else {
        if let Some(list) = s.params.get(param).filter(|v| v.is_list()) {
            return Err(format!(
                "`{param}` is a list parameter ({} values); a sweep sets one number",
                list.values().len()
            ));
        }
        s.params.insert(param.to_string(), ParamValue::Number(value));
    }
    Ok(s)
}
