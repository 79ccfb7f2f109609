//! `drum-dahl`: the DC-motor/drum testbed of duhem-paper (37)–(41) with Dahl friction (30).

use crate::laws::DahlLaw;
use crate::spring::{self, DrumPlant, DRUM_ENERGY_COLUMNS};
use crate::system::{params, Column, Group, System, ROTARY, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        plant: DrumPlant = Group(ROTARY),
        law: DahlLaw = Group(ROTARY),
    }
}

pub struct DrumDahl;

impl System for DrumDahl {
    const NAME: &'static str = "drum-dahl";
    const DOC: &'static str = "DC-motor/drum testbed, duhem-paper (37)-(41), with Dahl friction torque: the mass-spring of (28) with m = I, k_s = (k1 + k2) r^2, F_e = km i_m - (F10 - F20) r. Input: motor current i_m [A].";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = DRUM_ENERGY_COLUMNS;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of the kinetic and spring energy ((40) times the angular velocity, integrated; exact for any friction torque on the drum; the Dahl state T_f is the friction acting), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
    }, crate::invariants::Invariant {
        name: crate::invariants::DAHL_BOUND,
        doc: crate::invariants::DAHL_BOUND_DOC,
        check: |p, _, d| p.law.check_bound(d, "Tf"),
    }];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5, crate::methods::Method::Dop853, crate::methods::Method::Radau5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check_lipschitz(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        spring::dahl(req, p.plant.setup(req)?, &p.law)
    }
}

/// Invariant: the energy balance, `spring::check_dahl_energy` on the drum's columns (its
/// input work that of `km i_m − (F10 − F20) r`).
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), crate::invariants::Violation> {
    let pl = &p.plant;
    let plant = (pl.inertia, (pl.k1 + pl.k2) * pl.r * pl.r);
    spring::check_dahl_energy(plant, (pl.f10 - pl.f20) * pl.r, req, d, ["Tm", "theta", "omega", "Tf"])
}
