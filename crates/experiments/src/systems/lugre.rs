//! `lugre`: the LuGre model driven by a position, thesis (1.24)–(1.26).

use crate::drive::driven;
use crate::input::signal;
use crate::invariants::Invariant;
use crate::laws::LuGreLaw;
use crate::system::{params, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::InputDriven;

params! {
    pub struct Params {
        law: LuGreLaw = Group(LINEAR),
    }
}

pub struct LuGre;

impl System for LuGre {
    const NAME: &'static str = "lugre";
    const DOC: &'static str = "LuGre model with prescribed displacement, thesis (1.24)-(1.26); stiff; integrated by default by exponential quadrature along the input (in the relaxation variable w = -int a: the stiff part in closed form, steps set by the smoothness of the input, not by sigma0), or exactly from its integrating factor (integrating-factor: adaptive quadrature, no time step), or with rosenbrock23/radau5/dopri5.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "m", "input position"),
        ("v", "m/s", "input velocity"),
        ("z", "m", "bristle deflection"),
        ("F", "N", "friction force"),
    ];
    const METHODS: crate::methods::Methods = crate::methods::LUGRE_DRIVEN;
    const INVARIANTS: &'static [Invariant<Params>] = &[Invariant {
        name: crate::invariants::LUGRE_BOUND,
        doc: crate::invariants::LUGRE_BOUND_DOC,
        check: |p, _, d| p.law.check_bound(d, "z"),
    }];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.curve.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.law.model();
        driven(
            req,
            &signal(req)?,
            &m,
            vec![p.law.z0],
            &["v", "z", "F"],
            |u, du, x, out| {
                out[0] = du;
                out[1] = x[0];
                out[2] = m.output(u, du, x);
            },
        )
    }
}
