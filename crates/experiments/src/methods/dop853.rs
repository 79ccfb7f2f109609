//! The `dop853` method: the solver `fric_solvers::Method::Dop853` and its default tolerances.

use super::{How, MethodDecl, Ode};

/// `dop853`.
pub static DOP853: MethodDecl = MethodDecl {
    name: "dop853",
    doc: "explicit Dormand–Prince 8(5,3), adaptive step",
    example: "sim: {method: dop853} (rtol 1e-12, atol 1e-14 unless the run sets them; the CBM, CBM stick-slip, describing-function and PID-loop systems keep their own defaults)",
    how: How::Ode(Ode {
        solver: fric_solvers::Method::Dop853,
        rtol: 1e-12,
        atol: 1e-14,
    }),
};
