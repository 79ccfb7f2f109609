//! The `radau5` method: the solver `fric_solvers::Method::Radau5` and its default tolerances.

use super::{How, MethodDecl, Ode};

/// `radau5`.
pub static RADAU5: MethodDecl = MethodDecl {
    name: "radau5",
    doc: "implicit Radau IIA of order 5, for stiff systems",
    example: "sim: {method: radau5} (rtol 1e-8, atol 1e-12 unless the run sets them; the CBM, CBM stick-slip, describing-function and PID-loop systems keep their own defaults)",
    how: How::Ode(Ode {
        solver: fric_solvers::Method::Radau5,
        rtol: 1e-8,
        atol: 1e-12,
    }),
};
