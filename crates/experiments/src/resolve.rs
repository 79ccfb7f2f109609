//! Validation of a run request against its system's declaration: parameters (names, kinds,
//! ranges, units, defaults), input, simulation settings, then the system's cross-parameter
//! checks. Every problem is reported, each at its path inside the run.

use crate::inputs::Role;
use crate::{system, systems, Invalid, ParamKind, RunRequest};
use fric_manifest::{InputSpec, SimSpec};
use std::collections::BTreeMap;

/// Check a run's system, parameters, input and settings; fill in defaults. Returns the
/// resolved request or every problem found.
pub fn resolve(
    system_name: &str,
    params: &BTreeMap<String, fric_manifest::ParamValue>,
    input: Option<&InputSpec>,
    sim: Option<&SimSpec>,
) -> Result<RunRequest, Vec<Invalid>> {
    let mut errs = Vec::new();
    let Some(info) = system(system_name) else {
        let names: Vec<&str> = systems().iter().map(|s| s.name).collect();
        return Err(vec![Invalid {
            path: "system".into(),
            message: format!("unknown system `{system_name}`"),
            allowed: names.join(", "),
        }]);
    };
    let mut out = BTreeMap::new();
    for (name, value) in params {
        let Some(p) = info.params.iter().find(|p| p.name == name) else {
            let names: Vec<&str> = info.params.iter().map(|p| p.name).collect();
            errs.push(Invalid {
                path: format!("params.{name}"),
                message: format!("unknown parameter `{name}` for system `{}`", info.name),
                allowed: names.join(", "),
            });
            continue;
        };
        // A value the loader sets, left here, has none: every `{const: NAME}` is replaced by the
        // document's constant (an unknown one reported), every `{fitted: ...}` set first to its
        // fit's start, then to the fitted value.
        let unresolved = match value {
            fric_manifest::ParamValue::Const(c) => Some((
                format!("unresolved constant `{}`", c.name),
                "a constant of the document's document.yaml (`constants:`)",
            )),
            fric_manifest::ParamValue::Fitted(f) => Some((
                format!("unresolved fitted value `{}`", f.fitted),
                "a fit of another manifest, `<doc>/<name>#<fit>.<param>`",
            )),
            _ => None,
        };
        if let Some((message, allowed)) = unresolved {
            errs.push(Invalid {
                path: format!("params.{name}"),
                message,
                allowed: allowed.into(),
            });
            continue;
        }
        let vals = value.values();
        match p.kind {
            ParamKind::Scalar if value.is_list() => errs.push(Invalid {
                path: format!("params.{name}"),
                message: format!("`{name}` is a scalar, got a list"),
                allowed: format!("one number in {}", p.range_text()),
            }),
            ParamKind::Vector if vals.is_empty() => errs.push(Invalid {
                path: format!("params.{name}"),
                message: format!("`{name}` is an empty list"),
                allowed: format!("a non-empty list of numbers in {}", p.range_text()),
            }),
            _ => {}
        }
        for (i, v) in vals.iter().enumerate() {
            if !p.accepts(*v) {
                let at = if value.is_list() {
                    format!("params.{name}[{i}]")
                } else {
                    format!("params.{name}")
                };
                errs.push(Invalid {
                    path: at,
                    message: format!("`{name}` = {v} is out of range"),
                    allowed: p.range_text(),
                });
            }
        }
        if let (Some(u), Some(expected)) = (value.unit(), Some(p.unit)) {
            if u != expected {
                errs.push(Invalid {
                    path: format!("params.{name}"),
                    message: format!("`{name}` is given in `{u}`, the system uses `{expected}`"),
                    allowed: format!("unit `{expected}`"),
                });
            }
        }
        out.insert(name.clone(), vals);
    }
    for p in &info.params {
        if !out.contains_key(p.name) {
            match p.default {
                Some(d) => {
                    out.insert(p.name.to_string(), vec![d]);
                }
                None => errs.push(Invalid {
                    path: "params".into(),
                    message: format!("missing parameter `{}` ({}, {})", p.name, p.unit, p.doc),
                    allowed: format!("{} in {}", p.name, p.range_text()),
                }),
            }
        }
    }
    let Some(input) = input else {
        errs.push(Invalid {
            path: "input".into(),
            message: "missing input".into(),
            allowed: info.input_names().join(", "),
        });
        return Err(errs);
    };
    let input = match crate::inputs::typed(input) {
        Ok(i) => i,
        Err(mut e) => {
            errs.append(&mut e);
            return Err(errs);
        }
    };
    let kind = input.kind();
    let role = input.decl().role;
    if !info.accepts(kind) {
        errs.push(Invalid {
            path: "input.kind".into(),
            message: format!("input `{kind}` is not accepted by system `{}`", info.name),
            allowed: info.input_names().join(", "),
        });
    }
    (input.decl().check)(&input, &mut errs);
    let sim = sim.cloned().unwrap_or_default();
    let taken = info.all_methods();
    // The run's method, resolved here once (the request carries it): the name written, or the
    // system's default; an unknown or untaken name is an error, never another method.
    let method = match &sim.method {
        Some(name) => match crate::methods::find(&name.0) {
            None => {
                errs.push(Invalid {
                    path: "sim.method".into(),
                    message: format!("unknown method `{}`", name.0),
                    allowed: crate::methods::names(&crate::methods::all()),
                });
                None
            }
            Some(m) if !taken.contains(&m) => {
                errs.push(Invalid {
                    path: "sim.method".into(),
                    message: format!("system `{}` does not take method `{m}`", info.name),
                    allowed: crate::methods::names(&taken),
                });
                None
            }
            Some(m) => Some(m),
        },
        None => {
            let first = info.methods.first().copied();
            if first.is_none() {
                errs.push(Invalid {
                    path: "sim.method".into(),
                    message: format!("system `{}` declares no method", info.name),
                    allowed: String::new(),
                });
            }
            first
        }
    };
    let durations = [sim.periods.is_some(), sim.t_end.is_some(), sim.steady_state.is_some()];
    // A purely analytic system without an input (a closed-form map) has no duration.
    let timeless = taken.iter().all(|m| m.how() == crate::methods::How::Analytic);
    if role == Role::Autonomous && sim.t_end.is_none() && !timeless {
        errs.push(Invalid {
            path: "sim".into(),
            message: "an autonomous run needs `t_end`".into(),
            allowed: "t_end: <seconds>".into(),
        });
    } else if role == Role::Signal && !input.is_periodic() {
        if sim.t_end.is_none() || sim.periods.is_some() || sim.steady_state.is_some() {
            errs.push(Invalid {
                path: "sim".into(),
                message: format!(
                    "a `{kind}` input has no period: the run needs `t_end` (and no `periods` or `steady_state`)"
                ),
                allowed: "t_end: <seconds> (samples_per_period then counts samples over t_end)".into(),
            });
        }
    } else if role == Role::Signal && durations.iter().filter(|b| **b).count() != 1 {
        errs.push(Invalid {
            path: "sim".into(),
            message: "a simulation needs exactly one of `periods`, `t_end`, `steady_state`".into(),
            allowed: "periods: <number> | t_end: <seconds> | steady_state: {tol, max_periods}".into(),
        });
    }
    for (name, v) in [
        ("periods", sim.periods),
        ("t_end", sim.t_end),
        ("rtol", sim.rtol),
        ("atol", sim.atol),
    ] {
        if let Some(v) = v {
            if !(v > 0.0 && v.is_finite()) {
                errs.push(Invalid {
                    path: format!("sim.{name}"),
                    message: format!("`{name}` = {v} must be positive"),
                    allowed: "a positive number".into(),
                });
            }
        }
    }
    if let Some(n) = sim.samples_per_period {
        if !(2..=10_000_000).contains(&n) {
            errs.push(Invalid {
                path: "sim.samples_per_period".into(),
                message: format!("{n} samples per period"),
                allowed: "2 to 10000000".into(),
            });
        }
    }
    if let Some(ss) = &sim.steady_state {
        if !(ss.tol > 0.0) || ss.max_periods == 0 {
            errs.push(Invalid {
                path: "sim.steady_state".into(),
                message: "steady_state needs tol > 0 and max_periods ≥ 1".into(),
                allowed: "{tol: 1e-9, max_periods: 50}".into(),
            });
        }
    }
    let Some(method) = method.filter(|_| errs.is_empty()) else {
        return Err(errs);
    };
    // The system's default for these parameters (every one present and in range by now).
    let method = match sim.method {
        None => default_for(info.name, (info.default_method)(&out), &taken)
            .map_err(|e| vec![e])?
            .unwrap_or(method),
        Some(_) => method,
    };
    let req = RunRequest {
        system: info.name.to_string(),
        params: out,
        input,
        sim,
        method,
        input_data: None,
    };
    crate::budget::check(&req, info.columns.len(), &mut errs);
    (info.check)(&req, &mut errs);
    if errs.is_empty() {
        Ok(req)
    } else {
        Err(errs)
    }
}

/// A system's default method for a run's parameters ([`system::System::default_method`]), which
/// must be one the system takes (`taken`): a default it does not take is the system's defect, an
/// error at `sim.method`, never a run by a method the system was not written for.
fn default_for(
    system: &str,
    default: Option<crate::methods::Method>,
    taken: &[crate::methods::Method],
) -> Result<Option<crate::methods::Method>, Invalid> {
    match default {
        Some(m) if !taken.contains(&m) => Err(Invalid {
            path: "sim.method".into(),
            message: format!("system `{system}`'s default method for these parameters, `{m}`, is not one it takes (a defect of the system: name a method)"),
            allowed: crate::methods::names(taken),
        }),
        d => Ok(d),
    }
}

/// Why the `path` of a `csv` input is not allowed, if it is not: a relative path under `data/`
/// (`data/<dir>/<file>.csv`) made of plain names, so that a manifest cannot read outside the
/// workspace's data (`..`, absolute paths, drive prefixes and backslashes are refused) or the
/// generated cache (`data/cache/`).
pub fn csv_path_problem(path: &str) -> Option<String> {
    use std::path::{Component, Path};
    let allowed = "a relative path under data/ such as `data/measured/run1.csv`";
    if path.contains('\\') || path.contains('\0') {
        return Some(format!("`{path}` contains a backslash or NUL; use `/`; {allowed}"));
    }
    let p = Path::new(path);
    if p.is_absolute() || path.starts_with('/') {
        return Some(format!("`{path}` is absolute; {allowed}"));
    }
    let mut parts = Vec::new();
    for c in p.components() {
        match c {
            Component::Normal(n) => parts.push(n.to_string_lossy().to_string()),
            Component::CurDir => {}
            _ => return Some(format!("`{path}` leaves its directory (`..` or a root); {allowed}")),
        }
    }
    if parts.first().map(String::as_str) != Some("data") || parts.len() < 2 {
        return Some(format!("`{path}` is not under data/; {allowed}"));
    }
    if parts.get(1).map(String::as_str) == Some("cache") {
        return Some(format!("`{path}` is in the generated cache data/cache/; {allowed}"));
    }
    if !path.ends_with(".csv") {
        return Some(format!("`{path}` does not end in `.csv`; {allowed}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::default_for;
    use crate::methods::Method;

    /// A default the system takes is used; one it does not take is an error naming it.
    #[test]
    fn a_default_method_must_be_one_the_system_takes() {
        let taken = [Method::Radau5, Method::Exponential];
        assert_eq!(
            default_for("s", Some(Method::Exponential), &taken).unwrap(),
            Some(Method::Exponential)
        );
        assert_eq!(default_for("s", None, &taken).unwrap(), None);
        let e = default_for("s", Some(Method::Dopri5), &taken[..1]).unwrap_err();
        assert!(e.path == "sim.method" && e.message.contains("`dopri5`"), "{e:?}");
    }
}
