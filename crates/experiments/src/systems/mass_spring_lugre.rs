//! `mass-spring-lugre`: the force-driven mass–spring of duhem-paper (28) with LuGre friction (34)–(36).

use crate::laws::LuGreLaw;
use crate::spring::{self, SpringPlant, MASS_SPRING_LUGRE_COLUMNS};
use crate::system::{params, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        plant: SpringPlant = Group(LINEAR),
        law: LuGreLaw = Group(LINEAR),
    }
}

pub struct MassSpringLuGre;

impl System for MassSpringLuGre {
    const NAME: &'static str = "mass-spring-lugre";
    const DOC: &'static str = "Force-driven mass-spring with LuGre friction, duhem-paper (28) + (34)-(36); stiff, Radau IIA by default.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = MASS_SPRING_LUGRE_COLUMNS;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of the kinetic and spring energy ((28) times the velocity, integrated; exact for any friction force on the mass; the bristles' sigma0 z^2/2 is part of the friction work), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: |p, req, d| spring::check_lugre_energy((p.plant.m, p.plant.ks), 0.0, &p.law, req, d, ["u", "q", "v"]),
    }, crate::invariants::Invariant {
        name: crate::invariants::LUGRE_BOUND,
        doc: crate::invariants::LUGRE_BOUND_DOC,
        check: |p, _, d| p.law.check_bound(d, "z"),
    }];
    const METHODS: crate::methods::Methods = crate::methods::STIFF_FIRST;

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.curve.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let d = spring::lugre(req, p.plant.setup(req)?, &p.law)?;
        Ok(spring::with_rest_friction(d, p.plant.ks))
    }
}
