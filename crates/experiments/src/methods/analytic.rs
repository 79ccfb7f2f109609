//! The `analytic` method: the system evaluates its closed form on the input grid.

use super::{How, MethodDecl};

/// `analytic`.
pub static ANALYTIC: MethodDecl = MethodDecl {
    name: "analytic",
    doc: "a closed-form evaluation, no integration",
    example: "sim: {method: analytic}",
    how: How::Analytic,
};
