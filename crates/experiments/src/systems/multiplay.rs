//! `multiplay`: the multiplay model (2.3)–(2.4) driven by the bar position, as the time-domain ODE
//! (finite frequency) or as its DC limit (2.11)–(2.13), the Maxwell-slip stop operators (exact).

use crate::drive::{driven, exact_pl, steps_in_time, StopOps};
use crate::input::signal;
use crate::laws::MultiplayElements;
use crate::system::{Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::InputDriven;

crate::system::params! {
    pub struct Params {
        elements: MultiplayElements = Group(LINEAR),
    }
}

pub struct Multiplay;

/// Rename the operator column `F` to the multiplay's output `y` (2.4).
pub(crate) fn rename_f_to_y(mut d: RunData) -> RunData {
    for c in &mut d.columns {
        if c.0 == "F" {
            c.0 = "y".into();
        }
    }
    d
}

impl System for Multiplay {
    const NAME: &'static str = "multiplay";
    const DOC: &'static str = "Multiplay model, thesis (2.3)-(2.4): m_i x_i'' + c_i x_i' + k_i d_2Δi(x_i - u) = 0, y = sum k_i (u - x_i), every element starting at rest at x_i = u(0). `dopri5`: the ODE (finite frequency); `exact`: its DC limit (2.11)-(2.13), the Maxwell-slip stop operators on the input samples and every element's slip onset. Invariants: none declared; the thesis states no bound for the finite-frequency multiplay's elements (2.3)-(2.4), whose masses and stiffnesses may be negative (L700).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "m", "input (bar position)"),
        ("v", "m/s", "input velocity u'"),
        ("y", "N", "output (2.4)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5, crate::methods::Method::Exact];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.elements.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.elements.model();
        let sig = signal(req)?;
        let u0 = sig.value(0.0);
        if !steps_in_time(req) {
            let model = m.dc_limit();
            let state = model.state(u0, 0.0);
            exact_pl(req, &sig, &mut StopOps { model, state }).map(rename_f_to_y)
        } else {
            let x0 = m.state_at_rest(&vec![u0; m.len()]);
            driven(req, &sig, &m, x0, &["v", "y"], |u, du, x, out| {
                out[0] = du;
                out[1] = m.output(u, du, x);
            })
        }
    }
}
