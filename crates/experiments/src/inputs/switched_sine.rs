//! `switched-sine`: sinusoidal pieces of one frequency, each starting after a number of periods.

use super::shared::{check_omega, omega_period};
use super::*;
use crate::budget;
use fric_manifest::{req, FieldType::Pieces, SinePiece};
use fric_models::signal::{Piecewise, Sine};
use std::f64::consts::PI;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "switched-sine",
        doc: "sinusoidal pieces of one frequency, each starting after a number of periods",
        fields: &[
            OMEGA,
            req("pieces", Pieces, "periods, input", "from_period (the first is 0) and amplitude of each piece"),
        ],
        example: "{kind: switched-sine, omega: 1, pieces: [{from_period: 0, amplitude: 2}, {from_period: 1.5, amplitude: 1}]}",
    },
    role: Role::Signal,
    check,
    signal,
    period: omega_period,
    budget: budget::periodic,
    reads_file: false,
};

fn pieces(input: &Input) -> &[SinePiece] {
    match input.get("pieces") {
        Some(Value::Pieces(p)) => p,
        _ => &[],
    }
}

fn check(input: &Input, errs: &mut Vec<Invalid>) {
    check_omega(input, errs);
    let pieces = pieces(input);
    if pieces.is_empty() || pieces[0].from_period != 0.0 {
        errs.push(Invalid::new(
            "input.pieces",
            "the first piece must start at from_period: 0",
            "pieces: [{from_period: 0, amplitude}, ...]",
        ));
    }
    if pieces.windows(2).any(|w| w[1].from_period <= w[0].from_period) {
        errs.push(Invalid::new(
            "input.pieces",
            "pieces must start at increasing from_period",
            "ascending from_period",
        ));
    }
}

fn signal(input: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    let omega = input.number("omega");
    Ok(Signal::Piecewise(Piecewise {
        pieces: pieces(input)
            .iter()
            .map(|p| {
                (
                    p.from_period * 2.0 * PI / omega,
                    Sine {
                        amplitude: p.amplitude,
                        omega,
                        phase: 0.0,
                        offset: 0.0,
                    },
                )
            })
            .collect(),
    }))
}
