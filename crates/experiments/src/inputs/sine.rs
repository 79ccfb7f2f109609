//! `sine`: `offset + amplitude sin(omega t + phase)`.

use super::shared::{check_sine_family, omega_period, sine};
use super::*;
use crate::budget;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "sine",
        doc: "offset + amplitude sin(omega t + phase)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: sine, amplitude: 5, omega: 2}",
    },
    role: Role::Signal,
    check: check_sine_family,
    signal,
    period: omega_period,
    budget: budget::periodic,
    reads_file: false,
};

fn signal(input: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    Ok(Signal::Sine(sine(input)))
}
