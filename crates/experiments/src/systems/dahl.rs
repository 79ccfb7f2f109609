//! `dahl`: the Dahl model driven by a position, thesis (1.23), in closed form along each monotone
//! input increment or as the time-domain ODE.

use crate::drive::{driven, exact, method_name, OPERATOR_COLUMNS, OPERATOR_METHODS};
use crate::input::signal;
use crate::laws::DahlLaw;
use crate::system::{invalid, params, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::dahl::DahlOperator;

params! {
    pub struct Params {
        law: DahlLaw = Group(LINEAR),
    }
}

pub struct Dahl;

impl System for Dahl {
    const NAME: &'static str = "dahl";
    const DOC: &'static str = "Dahl model, thesis (1.23). `exact`: closed-form integration along each monotone input increment; `ode`: the time-domain ODE with Dormand-Prince.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = OPERATOR_COLUMNS;
    const METHODS: &'static [fric_manifest::Method] = OPERATOR_METHODS;

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.law.f0.abs() > p.law.fc {
            errs.push(invalid("f0", "|f0| exceeds fc", "|f0| ≤ fc"));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.law.model();
        let sig = signal(req)?;
        if method_name(req) == fric_manifest::Method::Ode {
            driven(req, &sig, &m, vec![p.law.f0], &["v", "F"], |_, du, x, out| {
                out[0] = du;
                out[1] = x[0];
            })
        } else {
            let mut op = DahlOperator::new(m, sig.value(0.0), p.law.f0);
            exact(req, &sig, move |u| op.advance(u))
        }
    }
}
