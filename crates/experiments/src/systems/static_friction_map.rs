//! `static-friction-map`: the classical static friction maps of the report (1.2)–(1.5) on a
//! velocity grid: Coulomb, stiction, linear or nonlinear viscous friction and a Stribeck drop.

use crate::input::{curve_with_jump, grid, table};
use crate::system::{between, nonneg, params, positive, Column, System, GRID};
use crate::{Invalid, RunData, RunRequest};
use fric_models::coulomb::static_map;

params! {
    pub struct Params {
        fc: f64 = positive("N-m", "Coulomb level F_C (1.2)"),
        fs: f64 = nonneg("N-m", "stiction level F_s (1.3): the set [-F_s, F_s] at v = 0; F_s = F_C for none"),
        fv: f64 = nonneg("N-m-s/rad", "viscous coefficient F_v (1.4)-(1.5)").default(0.0),
        delta: f64 = between("1", 0.0, 1.0, "viscous exponent delta_v of (1.5); 1 is linear (1.4)").default(1.0),
        vs: f64 = nonneg("rad/s", "Stribeck velocity of the drop (F_s - F_C) exp(-(v/v_s)^2); 0: no Stribeck effect").default(0.0),
    }
}

pub struct StaticFrictionMap;

impl System for StaticFrictionMap {
    const NAME: &'static str = "static-friction-map";
    const DOC: &'static str = "Classical static friction maps, report (1.2)-(1.5): F(v) = sgn(v) (F_C + (F_s - F_C) exp(-(v/v_s)^2) [v_s > 0] + F_v |v|^delta) for v != 0, the stiction set [-F_s, F_s] at v = 0 drawn as a vertical segment. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[("v", "rad/s", "velocity"), ("F", "N-m", "friction torque")];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.fs < p.fc {
            errs.push(crate::system::invalid(
                "fs",
                format!("F_s = {} is below F_C = {}", p.fs, p.fc),
                "fs ≥ fc (fs = fc: no stiction)",
            ));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let (v, f) = curve_with_jump(
            &grid(&req.input),
            |v| static_map(v, p.fc, p.fs, p.fv, p.delta, p.vs),
            -p.fs,
            p.fs,
        );
        Ok(table(vec![("v", v), ("F", f)]))
    }
}
