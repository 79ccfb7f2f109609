//! `coulomb-equilibria`: the equilibria band of the Coulomb mass–spring, thesis (1.19).

use crate::input::{grid, table};
use crate::system::{params, Column, Group, System, GRID, LINEAR};
use crate::{RunData, RunRequest};
use fric_models::coulomb::MassSpring;

use super::coulomb_mass_spring::SpringCoulomb;

params! {
    pub struct Params {
        law: SpringCoulomb = Group(LINEAR),
    }
}

pub struct CoulombEquilibria;

impl System for CoulombEquilibria {
    const NAME: &'static str = "coulomb-equilibria";
    const DOC: &'static str =
        "Equilibria band of the Coulomb mass-spring, thesis (1.19): (u - Fc)/K <= x <= (u + Fc)/K over a grid of u. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("u", "N", "constant input"),
        ("x_lo", "m", "lower edge"),
        ("x_hi", "m", "upper edge"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = MassSpring {
            m: 1.0,
            k: p.law.k,
            fc: p.law.fc,
        };
        let u = grid(&req.input);
        let (lo, hi): (Vec<f64>, Vec<f64>) = u.iter().map(|&u| m.equilibria(u)).unzip();
        Ok(table(vec![("u", u), ("x_lo", lo), ("x_hi", hi)]))
    }
}
