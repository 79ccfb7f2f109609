//! `signed-square-sine`: `offset + amplitude sin θ |sin θ|`, `θ = omega t + phase`: a signed
//! squared sine, whose derivative `2 amplitude omega |sin θ| cos θ` is the report's passivity test
//! velocity `A sgn(sin 2πt) sin 4πt` (L930) for `amplitude = A/(2π)`, `omega = 2π`.

use super::shared::{check_sine_family, omega_period, sine};
use super::*;
use crate::budget;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "signed-square-sine",
        doc: "offset + amplitude sin(θ) |sin(θ)|, θ = omega t + phase: rate 2 amplitude omega |sin θ| cos θ (report L930: \
              amplitude A/(2π), omega 2π give the velocity A sgn(sin 2πt) sin 4πt)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: signed-square-sine, amplitude: 7.957747154594767e-5, omega: 6.283185307179586}",
    },
    role: Role::Signal,
    check: check_sine_family,
    signal,
    period: omega_period,
    budget: budget::periodic,
    reads_file: false,
};

fn signal(input: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    Ok(Signal::SignedSquare(sine(input)))
}
