//! Validation of a run request against its system's declaration: parameters (names, kinds,
//! ranges, units, defaults), input, simulation settings, then the system's cross-parameter
//! checks. Every problem is reported, each at its path inside the run.

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
        if let fric_manifest::ParamValue::Const(c) = value {
            // The loader replaces every `{const: NAME}` by the document's constant and reports
            // an unknown one; one left here has no value.
            errs.push(Invalid {
                path: format!("params.{name}"),
                message: format!("unresolved constant `{}`", c.name),
                allowed: "a constant of the document's document.yaml (`constants:`)".into(),
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
            allowed: info.inputs.join(", "),
        });
        return Err(errs);
    };
    let kind = input.kind();
    if !info.inputs.contains(&kind) {
        errs.push(Invalid {
            path: "input.kind".into(),
            message: format!("input `{kind}` is not accepted by system `{}`", info.name),
            allowed: info.inputs.join(", "),
        });
    }
    check_input(input, &mut errs);
    let sim = sim.cloned().unwrap_or_default();
    if let Some(m) = sim.method {
        if !info.methods.contains(&m) {
            errs.push(Invalid {
                path: "sim.method".into(),
                message: format!("system `{}` does not take method `{m}`", info.name),
                allowed: fric_manifest::method_names(info.methods),
            });
        }
    }
    let durations = [sim.periods.is_some(), sim.t_end.is_some(), sim.steady_state.is_some()];
    // A purely analytic system without an input (a closed-form map) has no duration.
    let timeless = info.methods.iter().all(|m| *m == fric_manifest::Method::Analytic);
    if kind == "none" && sim.t_end.is_none() && !timeless {
        errs.push(Invalid {
            path: "sim".into(),
            message: "an autonomous run needs `t_end`".into(),
            allowed: "t_end: <seconds>".into(),
        });
    } else if kind != "grid" && kind != "none" && !input.is_periodic() {
        if sim.t_end.is_none() || sim.periods.is_some() || sim.steady_state.is_some() {
            errs.push(Invalid {
                path: "sim".into(),
                message: format!(
                    "a `{kind}` input has no period: the run needs `t_end` (and no `periods` or `steady_state`)"
                ),
                allowed: "t_end: <seconds> (samples_per_period then counts samples over t_end)".into(),
            });
        }
    } else if kind != "grid" && kind != "none" && durations.iter().filter(|b| **b).count() != 1 {
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
    let req = RunRequest {
        system: info.name.to_string(),
        params: out,
        input: input.clone(),
        sim,
        input_data: None,
    };
    if errs.is_empty() {
        crate::budget::check(&req, info.columns.len(), &mut errs);
        (info.check)(&req, &mut errs);
    }
    if errs.is_empty() {
        Ok(req)
    } else {
        Err(errs)
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

fn check_input(input: &InputSpec, errs: &mut Vec<Invalid>) {
    let mut bad = |path: &str, msg: String, allowed: &str| {
        errs.push(Invalid {
            path: path.into(),
            message: msg,
            allowed: allowed.into(),
        })
    };
    match input {
        InputSpec::Sine { omega, amplitude, .. } | InputSpec::Cosine { omega, amplitude, .. } => {
            if !(*omega > 0.0 && omega.is_finite()) {
                bad(
                    "input.omega",
                    format!("omega = {omega} must be positive"),
                    "omega > 0 (rad/s)",
                );
            }
            if !amplitude.is_finite() {
                bad("input.amplitude", "amplitude is not finite".into(), "a finite number");
            }
        }
        InputSpec::SwitchedSine { omega, pieces } => {
            if !(*omega > 0.0 && omega.is_finite()) {
                bad(
                    "input.omega",
                    format!("omega = {omega} must be positive"),
                    "omega > 0 (rad/s)",
                );
            }
            if pieces.is_empty() || pieces[0].from_period != 0.0 {
                bad(
                    "input.pieces",
                    "the first piece must start at from_period: 0".into(),
                    "pieces: [{from_period: 0, amplitude}, ...]",
                );
            }
            if pieces.windows(2).any(|w| w[1].from_period <= w[0].from_period) {
                bad(
                    "input.pieces",
                    "pieces must start at increasing from_period".into(),
                    "ascending from_period",
                );
            }
        }
        InputSpec::None => {}
        InputSpec::Triangle { omega, amplitude, .. }
        | InputSpec::Sawtooth { omega, amplitude, .. }
        | InputSpec::SignedSquareSine { omega, amplitude, .. } => {
            if !(*omega > 0.0 && omega.is_finite()) {
                bad(
                    "input.omega",
                    format!("omega = {omega} must be positive"),
                    "omega > 0 (rad/s)",
                );
            }
            if !amplitude.is_finite() {
                bad("input.amplitude", "amplitude is not finite".into(), "a finite number");
            }
            if let InputSpec::Sawtooth { width, .. } = input {
                if !(*width > 0.0 && *width < 1.0) {
                    bad(
                        "input.width",
                        format!("width = {width} is outside (0, 1)"),
                        "0 < width < 1 (the rising fraction of the period; a jump in a prescribed position cannot be driven)",
                    );
                }
            }
        }
        InputSpec::RampHold { ramp, start, .. } => {
            if !(*ramp > 0.0) {
                bad(
                    "input.ramp",
                    format!("ramp = {ramp} s must be positive"),
                    "ramp > 0 (s)",
                );
            }
            if !(*start >= 0.0) {
                bad("input.start", format!("start = {start} s is negative"), "start ≥ 0 (s)");
            }
        }
        InputSpec::PiecewiseLinear { points } => {
            if points.len() < 2 {
                bad(
                    "input.points",
                    format!("{} point(s)", points.len()),
                    "at least two [t, u] points",
                );
            }
            if let Some(i) = (1..points.len()).find(|&i| !(points[i][0] > points[i - 1][0])) {
                bad(
                    &format!("input.points[{i}]"),
                    format!(
                        "t = {} does not come after the previous point's t = {}",
                        points[i][0],
                        points[i - 1][0]
                    ),
                    "strictly increasing t",
                );
            }
        }
        InputSpec::SumOfSines { components, .. } => {
            if components.is_empty() {
                bad(
                    "input.components",
                    "no components".into(),
                    "[{amplitude, omega, phase}, ...]",
                );
            }
            for (i, c) in components.iter().enumerate() {
                if !(c.omega > 0.0) {
                    bad(
                        &format!("input.components[{i}].omega"),
                        format!("omega = {} must be positive", c.omega),
                        "omega > 0 (rad/s)",
                    );
                }
            }
        }
        InputSpec::Csv {
            path,
            t_column,
            u_column,
        } => {
            if let Some(p) = csv_path_problem(path) {
                bad("input.path", p, "data/<dir>/<file>.csv");
            }
            if t_column == u_column {
                bad(
                    "input.u_column",
                    format!("t_column and u_column are both `{t_column}`"),
                    "two different columns",
                );
            }
        }
        InputSpec::Grid {
            from,
            to,
            points,
            scale,
        } => {
            if !(from < to) {
                bad("input", format!("grid from {from} to {to} is empty"), "from < to");
            }
            if *points < 2 {
                bad("input.points", format!("{points} grid points"), "points ≥ 2");
            }
            if *scale == fric_manifest::Scale::Log && *from <= 0.0 {
                bad("input.from", "a log grid needs from > 0".into(), "from > 0");
            }
        }
    }
}
