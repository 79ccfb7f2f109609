//! `drum-lugre`: the DC-motor/drum testbed of duhem-paper (37)–(41) with LuGre friction (34)–(36).

use crate::laws::LuGreLaw;
use crate::spring::{self, DrumPlant, DRUM_LUGRE_COLUMNS};
use crate::system::{params, Column, Group, System, ROTARY, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        plant: DrumPlant = Group(ROTARY),
        law: LuGreLaw = Group(ROTARY),
    }
}

pub struct DrumLuGre;

impl System for DrumLuGre {
    const NAME: &'static str = "drum-lugre";
    const DOC: &'static str = "DC-motor/drum testbed (37)-(41) with LuGre friction torque (see drum-dahl for the mapping); stiff, Radau IIA by default.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = DRUM_LUGRE_COLUMNS;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of the kinetic and spring energy ((40) times the angular velocity, integrated; exact for any friction torque on the drum; the bristles' sigma0 z^2/2 is part of the friction work), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
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
        spring::lugre(req, p.plant.setup(req)?, &p.law)
    }
}

/// Invariant: the energy balance, `spring::check_lugre_energy` on the drum's columns (its
/// input work that of `km i_m − (F10 − F20) r`).
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), crate::invariants::Violation> {
    let pl = &p.plant;
    let plant = (pl.inertia, (pl.k1 + pl.k2) * pl.r * pl.r);
    spring::check_lugre_energy(plant, (pl.f10 - pl.f20) * pl.r, &p.law, req, d, ["Tm", "theta", "omega"])
}
