//! `mass-spring-maxwell-slip`: the force-driven mass–spring of duhem-paper (28) with Maxwell-slip friction (24)–(25).

use crate::laws::MaxwellSlipElements;
use crate::spring::{self, SpringPlant, SPRING_ENERGY_COLUMNS};
use crate::system::{params, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        plant: SpringPlant = Group(LINEAR),
        law: MaxwellSlipElements = Group(LINEAR),
    }
}

pub struct MassSpringMaxwellSlip;

impl System for MassSpringMaxwellSlip {
    const NAME: &'static str = "mass-spring-maxwell-slip";
    const DOC: &'static str = "Force-driven mass-spring with Maxwell-slip friction, duhem-paper (28) + (24)-(25): integrated between velocity reversals (located events) with the exact stop operators of the distance travelled since the last reversal, so |F| <= sum k_i delta_i holds exactly. Info: reversals.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = SPRING_ENERGY_COLUMNS;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of the kinetic and spring energy ((28) times the velocity, integrated; exact for any friction force on the mass), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
    }, crate::invariants::Invariant {
        name: crate::invariants::MAXWELL_SLIP_BOUND,
        doc: crate::invariants::MAXWELL_SLIP_BOUND_DOC,
        check: |p, _, d| p.law.check_bound(d, "F"),
    }];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        spring::maxwell_slip(req, p.plant.setup(req)?, &p.law)
    }
}

/// Invariant: the energy balance, `spring::check_maxwell_slip_energy`.
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), crate::invariants::Violation> {
    let b = spring::EnergyBound {
        m: p.plant.m,
        ks: p.plant.ks,
        k_sum: p.law.k.iter().map(|k| k.abs()).sum(),
        input_offset: 0.0,
        friction_state: false,
    };
    spring::check_maxwell_slip_energy(&b, spring::maxwell_slip_tolerance(req), d, ["u", "q", "v", "F"])
}
