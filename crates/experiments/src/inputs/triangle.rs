//! `triangle`: a triangle wave with the sine's phase convention.

use super::shared::{check_sine_family, omega_period};
use super::*;
use crate::budget;
use fric_models::signal::Sawtooth;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "triangle",
        doc: "triangle wave with the sine's phase convention: 0 at t = 0 rising, extrema where the sine has them",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: triangle, amplitude: 1.5, omega: 1.5707963267948966}",
    },
    role: Role::Signal,
    check: check_sine_family,
    signal,
    period: omega_period,
    budget: budget::periodic,
    reads_file: false,
};

fn signal(i: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    Ok(Signal::Sawtooth(Sawtooth::triangle(
        i.number("amplitude"),
        i.number("omega"),
        i.number("phase"),
        i.number("offset"),
    )))
}
