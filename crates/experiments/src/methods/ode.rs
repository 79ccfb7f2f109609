//! The `ode` method: a rate-independent operator stepped in time by `fric_solvers::Method::Dopri5`.

use super::{How, MethodDecl, Ode};

/// `ode`.
pub static ODE: MethodDecl = MethodDecl {
    name: "ode",
    doc: "the rate-independent operator integrated in time as an ODE (dopri5)",
    example: "sim: {method: ode} (dopri5's tolerances, rtol 1e-10, atol 1e-12, unless the run sets them; the CBM, CBM stick-slip, describing-function and PID-loop systems keep their own defaults)",
    how: How::Ode(Ode {
        solver: fric_solvers::Method::Dopri5,
        rtol: 1e-10,
        atol: 1e-12,
    }),
};
