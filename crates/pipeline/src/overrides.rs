//! The one way to change a run: parameters or input fields set to new values, the request
//! revalidated against its system and re-keyed. Alternative readings, explanations and sweeps
//! of a changed manifest go through here.

use crate::entry::{run_key, Entry, ResolvedRun};
use fric_manifest::{InputSpec, ParamValue};
use std::collections::BTreeMap;

/// Whether the concrete run id `id` is `run` or a member `run[k]` of the swept run `run`.
pub(crate) fn is_run_or_member(id: &str, run: &str) -> bool {
    let member_of = id.strip_suffix(']').and_then(|s| s.rsplit_once('[')).map(|(b, _)| b);
    id == run || member_of == Some(run)
}

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

/// `input` with its numeric field `field` set to `value`.
pub(crate) fn set_input_field(input: &InputSpec, field: &str, value: f64) -> Result<InputSpec, String> {
    let mut v = serde_json::to_value(input).map_err(|e| e.to_string())?;
    let obj = v.as_object_mut().ok_or("input is not a mapping")?;
    if !obj.contains_key(field) || field == "kind" {
        let fields: Vec<String> = obj.keys().filter(|k| *k != "kind").map(|k| format!("`{k}`")).collect();
        return Err(format!(
            "the input has no numeric field `{field}` (fields: {})",
            fields.join(", ")
        ));
    }
    obj.insert(field.to_string(), serde_json::json!(value));
    serde_json::from_value(v).map_err(|_| format!("cannot set `input.{field}` to {value}"))
}
