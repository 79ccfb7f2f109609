//! `ruderman-potential`: the potential energy at a motion reversal, Ruderman (3.9).

use crate::input::{grid, table};
use crate::ruderman::Friction;
use crate::system::{params, Column, Group, System, GRID, LINEAR};
use crate::{RunData, RunRequest};
use fric_models::ruderman as r;

params! {
    pub struct Params {
        law: Friction = Group(LINEAR),
    }
}

pub struct RudermanPotential;

impl System for RudermanPotential {
    const NAME: &'static str = "ruderman-potential";
    const DOC: &'static str = "Potential energy at a motion reversal, Ruderman (3.9) with F_i = -a F_c: E_p = (F_c^2/sigma)(a - ln(1 + a)) over a grid of a = |F_i|/F_c. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[("a", "1", "|F_i|/F_c"), ("Ep", "J", "potential energy at the reversal")];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let (fc, sigma) = (p.law.fc, p.law.sigma);
        let a = grid(&req.input);
        let ep = a.iter().map(|&a| r::potential_energy(a, fc, sigma)).collect();
        Ok(table(vec![("a", a), ("Ep", ep)]).with_info(&[
            ("max_Ep", r::max_potential_energy(fc, sigma)),
            ("bound", fc * fc / (2.0 * sigma)),
        ]))
    }
}
