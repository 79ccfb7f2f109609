//! `drum-maxwell-slip`: the DC-motor/drum testbed of duhem-paper (37)–(41) with Maxwell-slip friction (24)–(25).

use crate::laws::MaxwellSlipElements;
use crate::spring::{self, DrumPlant, DRUM_COLUMNS};
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
    const COLUMNS: &'static [Column] = DRUM_COLUMNS;
    const METHODS: &'static [fric_manifest::Method] = &[fric_manifest::Method::Dopri5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        spring::maxwell_slip(req, p.plant.setup(req)?, &p.law)
    }
}
