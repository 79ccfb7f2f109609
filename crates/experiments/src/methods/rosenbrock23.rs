//! The `rosenbrock23` method: the solver `fric_solvers::Method::Rosenbrock23` and its default tolerances.

use super::{How, MethodDecl, Ode};

/// `rosenbrock23`.
pub static ROSENBROCK23: MethodDecl = MethodDecl {
    name: "rosenbrock23",
    doc: "linearly implicit Rosenbrock 2(3), for stiff systems",
    example: "sim: {method: rosenbrock23} (rtol 1e-7, atol 1e-12 unless the run sets them; the CBM, CBM stick-slip, describing-function and PID-loop systems keep their own defaults)",
    how: How::Ode(Ode {
        solver: fric_solvers::Method::Rosenbrock23,
        rtol: 1e-7,
        atol: 1e-12,
    }),
};
