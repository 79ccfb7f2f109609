//! `sawtooth`: a continuous sawtooth, rising for `width` of the period and falling for the rest;
//! 0 at t = 0 rising (phase 0). `width: 0.5` is the triangle.

use super::shared::{check_sine_family, omega_period};
use super::*;
use crate::budget;
use fric_manifest::{req, FieldType::Number};
use fric_models::signal::Sawtooth;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "sawtooth",
        doc: "continuous sawtooth: rises for `width` of the period, falls for the rest; 0 at t = 0 rising",
        fields: &[
            AMPLITUDE,
            OMEGA,
            PHASE,
            OFFSET,
            req(
                "width",
                Number,
                "1",
                "rising fraction of the period, 0 < width < 1 (0.5: triangle)",
            ),
        ],
        example: "{kind: sawtooth, amplitude: 1, omega: 6.283185307179586, width: 0.9}",
    },
    role: Role::Signal,
    check,
    signal,
    period: omega_period,
    budget: budget::periodic,
    reads_file: false,
};

fn check(input: &Input, errs: &mut Vec<Invalid>) {
    check_sine_family(input, errs);
    let width = input.number("width");
    if !(width > 0.0 && width < 1.0) {
        errs.push(Invalid::new(
            "input.width",
            format!("width = {width} is outside (0, 1)"),
            "0 < width < 1 (the rising fraction of the period; a jump in a prescribed position cannot be driven)",
        ));
    }
}

fn signal(i: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    Ok(Signal::Sawtooth(Sawtooth {
        amplitude: i.number("amplitude"),
        omega: i.number("omega"),
        phase: i.number("phase"),
        offset: i.number("offset"),
        width: i.number("width"),
    }))
}
