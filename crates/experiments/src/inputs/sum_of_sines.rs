//! `sum-of-sines`: `offset + Σ amplitude_k sin(omega_k t + phase_k)` (no period: the run lasts
//! `sim.t_end`).

use super::*;
use crate::budget;
use fric_manifest::{req, FieldType::Components, SineComponent};
use fric_models::signal::{Sine, SumOfSines};
use std::f64::consts::PI;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "sum-of-sines",
        doc: "offset + Σ amplitude_k sin(omega_k t + phase_k) (no period: sim.t_end)",
        fields: &[
            req(
                "components",
                Components,
                "input, rad/s, rad",
                "the terms: amplitude, omega (> 0), phase (default 0)",
            ),
            OFFSET,
        ],
        example: "{kind: sum-of-sines, components: [{amplitude: 1, omega: 1}, {amplitude: 0.2, omega: 7, phase: 0.5}]}",
    },
    role: Role::Signal,
    check,
    signal,
    period: no_period,
    budget,
    reads_file: false,
};

fn components(input: &Input) -> &[SineComponent] {
    match input.get("components") {
        Some(Value::Components(c)) => c,
        _ => &[],
    }
}

fn check(input: &Input, errs: &mut Vec<Invalid>) {
    let components = components(input);
    if components.is_empty() {
        errs.push(Invalid::new(
            "input.components",
            "no components",
            "[{amplitude, omega, phase}, ...]",
        ));
    }
    for (i, c) in components.iter().enumerate() {
        if !(c.omega > 0.0) {
            errs.push(Invalid::new(
                format!("input.components[{i}].omega"),
                format!("omega = {} must be positive", c.omega),
                "omega > 0 (rad/s)",
            ));
        }
    }
}

fn signal(input: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    Ok(Signal::SumOfSines(SumOfSines {
        terms: components(input)
            .iter()
            .map(|c| Sine {
                amplitude: c.amplitude,
                omega: c.omega,
                phase: c.phase,
                offset: 0.0,
            })
            .collect(),
        offset: input.number("offset"),
    }))
}

/// No period: `t_end` is recorded with `samples_per_period` samples; the integration is measured
/// in periods of the fastest term.
fn budget(req: &RunRequest) -> (f64, f64) {
    let fastest = components(&req.input).iter().map(|c| c.omega).fold(0.0, f64::max);
    let t = req.sim.t_end.unwrap_or(0.0);
    (budget::samples_per_period(req) + 1.0, t * fastest / (2.0 * PI))
}
