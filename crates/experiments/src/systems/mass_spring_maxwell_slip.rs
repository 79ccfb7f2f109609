//! `mass-spring-maxwell-slip`: the force-driven mass–spring of duhem-paper (28) with Maxwell-slip friction (24)–(25).

use crate::laws::MaxwellSlipElements;
use crate::spring::{self, SpringPlant, SPRING_COLUMNS};
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
    const COLUMNS: &'static [Column] = SPRING_COLUMNS;
    const METHODS: &'static [fric_manifest::Method] = &[fric_manifest::Method::Dopri5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        spring::maxwell_slip(req, p.plant.setup(req)?, &p.law)
    }
}
