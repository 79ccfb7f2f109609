//! `drum-lugre`: the DC-motor/drum testbed of duhem-paper (37)–(41) with LuGre friction (34)–(36).

use crate::laws::LuGreLaw;
use crate::spring::{self, DrumPlant, DRUM_COLUMNS};
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
    const COLUMNS: &'static [Column] = DRUM_COLUMNS;
    const METHODS: &'static [fric_manifest::Method] = &[fric_manifest::Method::Radau5, fric_manifest::Method::Rosenbrock23, fric_manifest::Method::Dopri5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.curve.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        spring::lugre(req, p.plant.setup(req)?, &p.law)
    }
}
