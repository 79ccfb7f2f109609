//! The `exponential` method: `crate::drive` integrates the run with `fric_solvers::expquad` (the
//! quadrature in the relaxation variable, through `fric_solvers::expint`'s driver).

use super::{How, MethodDecl};

/// `exponential`.
pub static EXPONENTIAL: MethodDecl = MethodDecl {
    name: "exponential",
    doc: "exponential quadrature along the input for a single-state model affine in its state, z' = a z + b: in the relaxation variable w = −∫a where a < 0 (4 Gauss nodes in time, b/a interpolated in w, φ-functions, error control; step set by the input, not the stiffness), exponential collocation in time elsewhere",
    example: "sim: {method: exponential} (local error 1e-10 of the state scale unless the run sets rtol)",
    how: How::Exponential,
};
