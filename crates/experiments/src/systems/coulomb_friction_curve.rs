//! `coulomb-friction-curve`: Coulomb friction against velocity, thesis (1.17).

use crate::input::{curve_with_jump, grid, table};
use crate::system::{params, positive, Column, System, GRID};
use crate::{RunData, RunRequest};
use fric_models::coulomb;

params! {
    pub struct Params {
        fc: f64 = positive("N", "Coulomb level"),
    }
}

pub struct CoulombFrictionCurve;

impl System for CoulombFrictionCurve {
    const NAME: &'static str = "coulomb-friction-curve";
    const DOC: &'static str = "Coulomb friction force vs velocity, thesis (1.17): F = Fc sign(v), the set [-Fc, Fc] at v = 0 drawn as a vertical segment. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[("v", "m/s", "velocity"), ("F", "N", "friction force")];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let fc = p.fc;
        let (v, f) = curve_with_jump(&grid(&req.input), |v| coulomb::force(fc, v), -fc, fc);
        Ok(table(vec![("v", v), ("F", f)]))
    }
}
