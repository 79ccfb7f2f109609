//! The `exponential` method: `crate::drive` integrates the run with `fric_solvers::expint`.

use super::{How, MethodDecl};

/// `exponential`.
pub static EXPONENTIAL: MethodDecl = MethodDecl {
    name: "exponential",
    doc: "exponential collocation along the input for a single-state model affine in its state (4 Gauss nodes, φ-functions, error control; step set by the input, not the stiffness)",
    example: "sim: {method: exponential} (local error 1e-10 of the state scale unless the run sets rtol)",
    how: How::Exponential,
};
