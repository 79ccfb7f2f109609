//! `dahl`: the Dahl model driven by a position, thesis (1.23), in closed form along each monotone
//! input increment or as the time-domain ODE.

use crate::drive::{driven, exact, steps_in_time, OPERATOR_COLUMNS};
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
    const DOC: &'static str = "Dahl model, thesis (1.23). `exact`: closed-form integration along each monotone input increment; `ode`: the time-domain ODE with Dormand-Prince; `exponential` (gamma = 1 only, where the ODE is affine in F along the input): the time-domain ODE by exponential collocation, the stiff part sigma |u'|/fc in closed form.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = OPERATOR_COLUMNS;
    /// The operator's methods, and exponential collocation for the affine case γ = 1.
    const METHODS: crate::methods::Methods = &[
        crate::methods::Method::Exact,
        crate::methods::Method::Ode,
        crate::methods::Method::Exponential,
    ];

    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: crate::invariants::DAHL_BOUND,
        doc: crate::invariants::DAHL_BOUND_DOC,
        check: |p, _, d| p.law.check_bound(d, "F"),
    }];

    fn check(p: &Params, req: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.law.f0.abs() > p.law.fc {
            errs.push(invalid("f0", "|f0| exceeds fc", "|f0| ≤ fc"));
        }
        if req.method.how() == crate::methods::How::Exponential && p.law.gamma != 1.0 {
            errs.push(invalid(
                "gamma",
                "method exponential needs the Dahl ODE affine in F along the input, which it is only for gamma = 1",
                "gamma = 1 (or method exact / ode)",
            ));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.law.model();
        let sig = signal(req)?;
        if steps_in_time(req) {
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
