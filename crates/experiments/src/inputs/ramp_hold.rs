//! `ramp-hold`: hold `from` until `start`, ramp linearly to `to` over `ramp` seconds, then hold
//! `to` (no period: the run lasts `sim.t_end`).

use super::*;
use crate::budget;
use fric_manifest::{opt_or, req, FieldDefault, FieldType::Number};
use fric_models::signal::Linear;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "ramp-hold",
        doc: "hold `from` until `start`, ramp linearly to `to` over `ramp`, then hold `to` (no period: sim.t_end)",
        fields: &[
            req("from", Number, "input", "value before and at the start of the ramp"),
            req("to", Number, "input", "value at the end of the ramp and after"),
            req("ramp", Number, "s", "duration of the ramp, > 0"),
            opt_or("start", Number, "s", FieldDefault::Number(0.0), "time the ramp starts"),
        ],
        example: "{kind: ramp-hold, from: 0, to: 1e-3, ramp: 2}",
    },
    role: Role::Signal,
    check,
    signal,
    period: no_period,
    budget: |req| budget::over_t_end(req, 2),
    reads_file: false,
};

fn check(input: &Input, errs: &mut Vec<Invalid>) {
    let (ramp, start) = (input.number("ramp"), input.number("start"));
    if !(ramp > 0.0) {
        errs.push(Invalid::new(
            "input.ramp",
            format!("ramp = {ramp} s must be positive"),
            "ramp > 0 (s)",
        ));
    }
    if !(start >= 0.0) {
        errs.push(Invalid::new(
            "input.start",
            format!("start = {start} s is negative"),
            "start ≥ 0 (s)",
        ));
    }
}

fn signal(i: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    let start = i.number("start");
    Ok(Signal::Linear(Linear {
        t: vec![start, start + i.number("ramp")],
        u: vec![i.number("from"), i.number("to")],
    }))
}
