//! `drum-maxwell-slip`: the DC-motor/drum testbed of duhem-paper (37)–(41) with Maxwell-slip friction (24)–(25).

use crate::laws::MaxwellSlipElements;
use crate::spring::{self, DrumPlant, DRUM_ENERGY_COLUMNS};
use crate::system::{params, Column, Group, System, ROTARY, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        plant: DrumPlant = Group(ROTARY),
        law: MaxwellSlipElements = Group(ROTARY),
    }
}

pub struct DrumMaxwellSlip;

impl System for DrumMaxwellSlip {
    const NAME: &'static str = "drum-maxwell-slip";
    const DOC: &'static str = "DC-motor/drum testbed (37)-(41) with Maxwell-slip friction torque (hybrid; see mass-spring-maxwell-slip and drum-dahl).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = DRUM_ENERGY_COLUMNS;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of the kinetic and spring energy ((28) times the velocity, integrated; exact for any friction force on the mass), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
    }, crate::invariants::Invariant {
        name: crate::invariants::MAXWELL_SLIP_BOUND,
        doc: crate::invariants::MAXWELL_SLIP_BOUND_DOC,
        check: |p, _, d| p.law.check_bound(d, "Tf"),
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
        m: p.plant.inertia,
        ks: (p.plant.k1 + p.plant.k2) * p.plant.r * p.plant.r,
        k_sum: p.law.k.iter().map(|k| k.abs()).sum(),
        input_offset: (p.plant.f10 - p.plant.f20) * p.plant.r,
        friction_state: false,
    };
    spring::check_maxwell_slip_energy(&b, spring::maxwell_slip_tolerance(req), d, ["Tm", "theta", "omega", "Tf"])
}
