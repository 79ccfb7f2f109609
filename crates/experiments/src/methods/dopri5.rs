//! The `dopri5` method: the solver `fric_solvers::Method::Dopri5` and its default tolerances.

use super::{How, MethodDecl, Ode};

/// `dopri5`.
pub static DOPRI5: MethodDecl = MethodDecl {
    name: "dopri5",
    doc: "explicit Dormand–Prince 5(4), adaptive step",
    example: "sim: {method: dopri5} (rtol 1e-10, atol 1e-12 unless the run sets them; the CBM, CBM stick-slip, describing-function and PID-loop systems keep their own defaults)",
    how: How::Ode(Ode {
        solver: fric_solvers::Method::Dopri5,
        rtol: 1e-10,
        atol: 1e-12,
    }),
};
