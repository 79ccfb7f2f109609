//! `cosine`: `offset + amplitude cos(omega t + phase)`, a sine a quarter period ahead.

use super::shared::{check_sine_family, omega_period, sine};
use super::*;
use crate::budget;
use std::f64::consts::PI;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "cosine",
        doc: "offset + amplitude cos(omega t + phase)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: cosine, amplitude: 5, omega: 0.25}",
    },
    role: Role::Signal,
    check: check_sine_family,
    signal,
    period: omega_period,
    budget: budget::periodic,
    reads_file: false,
};

fn signal(input: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    let mut s = sine(input);
    s.phase += PI / 2.0;
    Ok(Signal::Sine(s))
}
