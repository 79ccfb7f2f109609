//! `ruderman-omega`: Ω(x) of Ruderman (3.10) and its linear approximation (3.11).

use crate::input::{grid, table};
use crate::ruderman::Friction;
use crate::system::{params, ratio, Column, Group, System, GRID, LINEAR};
use crate::{RunData, RunRequest};
use fric_models::ruderman as r;

params! {
    pub struct Params {
        law: Friction = Group(LINEAR),
        a: f64 = ratio("|F_i|/F_c at the last reversal"),
    }
}

pub struct RudermanOmega;

impl System for RudermanOmega {
    const NAME: &'static str = "ruderman-omega";
    const DOC: &'static str = "Ruderman (3.10)-(3.11): Omega(x) = exp(-sigma x/F_c) and its linear approximation 1 - K x, K = (sigma/F_c)(F_c/(F_c - F_i))^0.6, over a grid of x. Info: x_next (exact root of (3.10)) and gap = |Omega*(x_next) - Omega(x_next)|. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("x", "m", "distance from the force zero crossing"),
        ("omega", "1", "Omega(x)"),
        ("omega_lin", "1", "Omega*(x)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let (fc, sigma, a) = (p.law.fc, p.law.sigma, p.a);
        let x = grid(&req.input);
        let k = r::omega_linear_slope(a, fc, sigma);
        let om = x.iter().map(|&x| r::omega(x, fc, sigma)).collect();
        let lin = x.iter().map(|&x| 1.0 - k * x).collect();
        let xn = r::exact_next(a).0 * fc / sigma;
        let gap = (1.0 - k * xn - r::omega(xn, fc, sigma)).abs();
        Ok(table(vec![("x", x), ("omega", om), ("omega_lin", lin)]).with_info(&[("x_next", xn), ("gap", gap)]))
    }
}
