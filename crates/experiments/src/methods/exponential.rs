//! The `exponential` method: `crate::drive` integrates the run with `fric_solvers::expquad` (the
//! quadrature in the relaxation variable, through `fric_solvers::expint`'s driver); the DF systems'
//! approach 1 by `crate::describing`'s `exponential.rs`, the periodic state in closed form.

use super::{How, MethodDecl};

/// `exponential`.
pub static EXPONENTIAL: MethodDecl = MethodDecl {
    name: "exponential",
    doc: "exponential quadrature along the input for a single-state model affine in its state, z' = a z + b: in the relaxation variable w = −∫a where a < 0 (4 Gauss nodes in time, b/a interpolated in w, φ-functions, error control; step set by the input, not the stiffness), exponential collocation in time elsewhere; a periodic steady state of the describing function's approach 1 in closed form from one pass (fric_solvers::expint_periodic)",
    example: "sim: {method: exponential} (local error rtol times the state scale: rtol 1e-10 under prescribed motion, 1e-8 in the describing function's approach 1, unless the run sets rtol)",
    how: How::Exponential,
};
