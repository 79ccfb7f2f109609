//! `cubic`: the cubic feedback example, thesis (1.5)–(1.6).

use crate::drive::driven;
use crate::input::signal;
use crate::system::{initial, params, Column, System, PRESCRIBED};
use crate::{RunData, RunRequest};
use fric_models::cubic::Cubic as Model;

params! {
    pub struct Params {
        x0: f64 = initial("1", "initial state"),
    }
}

pub struct Cubic;

impl System for Cubic {
    const NAME: &'static str = "cubic";
    const DOC: &'static str = "Cubic feedback example, thesis (1.5)-(1.6): x' = -x^3 + x + u, y = x. Invariants: none (thesis (1.5)-(1.6) states no bound on x).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "1", "input"),
        ("x", "1", "state = output"),
        ("eq_residual", "1", "|u - (x^3 - x)| = |x'|: distance from the equilibria map (1.8)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5, crate::methods::Method::Rosenbrock23];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        driven(req, &signal(req)?, &Model, vec![p.x0], &["x", "eq_residual"], |u, _, x, out| {
            out[0] = x[0];
            out[1] = (u - Model::equilibrium_input(x[0])).abs();
        })
    }
}
