//! The `dop853-radau5` method: the solver `fric_solvers::Method::Dop853Radau5` and its default tolerances.

use super::{How, MethodDecl, Ode};

/// `dop853-radau5`.
pub static DOP853_RADAU5: MethodDecl = MethodDecl {
    name: "dop853-radau5",
    doc: "dop853, switching to radau5 where the steps show stiffness",
    example: "sim: {method: dop853-radau5} (rtol 1e-8, atol 1e-12 unless the run sets them; the CBM, CBM stick-slip, describing-function and PID-loop systems keep their own defaults)",
    how: How::Ode(Ode {
        solver: fric_solvers::Method::Dop853Radau5,
        rtol: 1e-8,
        atol: 1e-12,
    }),
};
