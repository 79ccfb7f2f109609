//! What several input kinds share: the sine family's fields (amplitude, omega, phase, offset),
//! their checks and the period `2π/omega`.

use super::Input;
use crate::Invalid;
use fric_manifest::{opt_or, req, FieldDefault, FieldDoc, FieldType::Number};
use fric_models::signal::Sine;
use std::f64::consts::PI;

pub const AMPLITUDE: FieldDoc = req("amplitude", Number, "input", "amplitude");
pub const OMEGA: FieldDoc = req("omega", Number, "rad/s", "angular frequency, > 0");
pub const PHASE: FieldDoc = opt_or("phase", Number, "rad", FieldDefault::Number(0.0), "phase");
pub const OFFSET: FieldDoc = opt_or("offset", Number, "input", FieldDefault::Number(0.0), "added constant");

/// `omega` is a positive finite frequency.
pub fn check_omega(input: &Input, errs: &mut Vec<Invalid>) {
    let omega = input.number("omega");
    if !(omega > 0.0 && omega.is_finite()) {
        errs.push(Invalid::new(
            "input.omega",
            format!("omega = {omega} must be positive"),
            "omega > 0 (rad/s)",
        ));
    }
}

/// `amplitude` is finite.
pub fn check_amplitude(input: &Input, errs: &mut Vec<Invalid>) {
    if !input.number("amplitude").is_finite() {
        errs.push(Invalid::new(
            "input.amplitude",
            "amplitude is not finite",
            "a finite number",
        ));
    }
}

/// The checks of the sine family: a positive `omega`, a finite `amplitude`.
pub fn check_sine_family(input: &Input, errs: &mut Vec<Invalid>) {
    check_omega(input, errs);
    check_amplitude(input, errs);
}

/// The period `2π/omega` of a kind with a frequency `omega`.
pub fn omega_period(input: &Input) -> Option<f64> {
    Some(2.0 * PI / input.number("omega"))
}

/// The sine `amplitude sin(omega t + phase) + offset` of the sine family's fields.
pub fn sine(input: &Input) -> Sine {
    Sine {
        amplitude: input.number("amplitude"),
        omega: input.number("omega"),
        phase: input.number("phase"),
        offset: input.number("offset"),
    }
}
