//! The `exact` method: `crate::drive::exact` evaluates the operator on the input samples.

use super::{How, MethodDecl};

/// `exact`.
pub static EXACT: MethodDecl = MethodDecl {
    name: "exact",
    doc: "the rate-independent operator evaluated exactly on the input samples (a piecewise-linear one, maxwell-slip or multiplay, also at every slip onset between two samples)",
    example: "sim: {method: exact, samples_per_period: 400}",
    how: How::Exact,
};
