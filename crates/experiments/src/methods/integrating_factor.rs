//! The `integrating-factor` method: `crate::drive` integrates the run with `fric_solvers::affine`.

use super::{How, MethodDecl};

/// `integrating-factor`.
pub static INTEGRATING_FACTOR: MethodDecl = MethodDecl {
    name: "integrating-factor",
    doc: "exact along the input from the integrating factor of a single-state model affine in its state (adaptive quadrature, no time step)",
    example: "sim: {method: integrating-factor} (error 1e-10 of the state scale unless the run sets rtol)",
    how: How::IntegratingFactor,
};
