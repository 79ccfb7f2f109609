//! `lugre-steady-state`: the LuGre steady-state friction curve, thesis (1.27).

use crate::input::{curve_with_jump, grid, table};
use crate::laws::LuGreStatic;
use crate::system::{nonneg, params, positive, Column, Group, System, GRID, LINEAR};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        sigma0: f64 = positive("N/m", "bristle stiffness (cancels)").default(1.0),
        sigma1: f64 = nonneg("N-s/m", "bristle damping (unused in steady state)").default(0.0),
        curve: LuGreStatic = Group(LINEAR),
    }
}

pub struct LuGreSteadyState;

impl System for LuGreSteadyState {
    const NAME: &'static str = "lugre-steady-state";
    const DOC: &'static str = "LuGre steady-state friction, thesis (1.27): F_ss(v) = (Fc + (Fs - Fc) exp(-(v/vs)^2)) sign(v) + sigma2 v; the jump at v = 0 drawn as a vertical segment. sigma0 and sigma1 cancel and are accepted only to record the published set. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[("v", "m/s", "velocity"), ("F", "N", "steady-state friction")];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.curve.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.curve.with_bristles(p.sigma0, p.sigma1);
        let (v, f) = curve_with_jump(&grid(&req.input), |v| m.steady_state(v), -m.fs, m.fs);
        Ok(table(vec![("v", v), ("F", f)]))
    }
}
