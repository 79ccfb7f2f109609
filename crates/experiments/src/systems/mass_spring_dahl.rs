//! `mass-spring-dahl`: the force-driven mass–spring of duhem-paper (28) with Dahl friction (30).

use crate::laws::DahlLaw;
use crate::spring::{self, SpringPlant, SPRING_ENERGY_COLUMNS};
use crate::system::{params, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        plant: SpringPlant = Group(LINEAR),
        law: DahlLaw = Group(LINEAR),
    }
}

pub struct MassSpringDahl;

impl System for MassSpringDahl {
    const NAME: &'static str = "mass-spring-dahl";
    const DOC: &'static str = "Force-driven mass-spring with Dahl friction, duhem-paper (28) + (30): m q'' + k_s q = F_e - F, F' = sigma |1 - F/F_C sgn q'|^gamma sgn(...) q'.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = SPRING_ENERGY_COLUMNS;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of the kinetic and spring energy ((28) times the velocity, integrated; exact for any friction force on the mass; the Dahl state F is the friction acting), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: |p, req, d| spring::check_dahl_energy((p.plant.m, p.plant.ks), 0.0, req, d, ["u", "q", "v", "F"]),
    }, crate::invariants::Invariant {
        name: crate::invariants::DAHL_BOUND,
        doc: crate::invariants::DAHL_BOUND_DOC,
        check: |p, _, d| p.law.check_bound(d, "F"),
    }];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5, crate::methods::Method::Dop853, crate::methods::Method::Radau5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check_lipschitz(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        spring::dahl(req, p.plant.setup(req)?, &p.law)
    }
}
