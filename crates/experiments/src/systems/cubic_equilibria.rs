//! `cubic-equilibria`: the equilibria map of the cubic example, thesis (1.8).

use crate::input::{grid, table};
use crate::system::{params, Column, System, GRID};
use crate::{RunData, RunRequest};
use fric_models::cubic::Cubic;

params! {
    pub struct Params {}
}

pub struct CubicEquilibria;

impl System for CubicEquilibria {
    const NAME: &'static str = "cubic-equilibria";
    const DOC: &'static str =
        "Equilibria map of the cubic example, thesis (1.8): u = x^3 - x over a grid of x; stable = 1 where 3x^2 - 1 > 0. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("x", "1", "equilibrium state"),
        ("u", "1", "equilibrium input"),
        ("stable", "1", "1 if stable, 0 if not"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(_: &Params, req: &RunRequest) -> Result<RunData, String> {
        let x = grid(&req.input);
        let u: Vec<f64> = x.iter().map(|&x| Cubic::equilibrium_input(x)).collect();
        let s: Vec<f64> = x.iter().map(|&x| if Cubic::is_stable(x) { 1.0 } else { 0.0 }).collect();
        Ok(table(vec![("x", x), ("u", u), ("stable", s)]))
    }
}
