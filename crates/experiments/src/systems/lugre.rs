//! `lugre`: the LuGre model driven by a position, thesis (1.24)–(1.26), optionally with the
//! velocity-dependent damping of report (3.27) and the asymmetric parameters of report §3.7
//! ([`LuGreForms`]).

use crate::drive::driven;
use crate::input::signal;
use crate::invariants::Invariant;
use crate::laws::{LuGreForms, LuGreLaw};
use crate::system::{params, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::InputDriven;

params! {
    pub struct Params {
        law: LuGreLaw = Group(LINEAR),
        forms: LuGreForms = Group(LINEAR),
    }
}

pub struct LuGre;

impl System for LuGre {
    const NAME: &'static str = "lugre";
    const DOC: &'static str = "LuGre model with prescribed displacement, thesis (1.24)-(1.26), optionally with the velocity-dependent damping sigma1(v) of report (3.27) (sigma1_vd, output only) and the asymmetric static and viscous parameters of report 3.7 (fc_plus, fs_plus, vs_plus, sigma2_plus for v >= 0); stiff; integrated by default by exponential quadrature along the input (in the relaxation variable w = -int a: the stiff part in closed form, steps set by the smoothness of the input, not by sigma0), or exactly from its integrating factor (integrating-factor: adaptive quadrature, no time step), or with rosenbrock23/radau5/dopri5.";
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
        check: |p, _, d| crate::invariants::lugre_bound(d, "z", p.law.z0, p.forms.g_max(&p.law), p.law.sigma0),
    }];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.curve.check(errs);
        p.forms.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.forms.model(&p.law);
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
