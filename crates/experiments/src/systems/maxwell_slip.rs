//! `maxwell-slip`: the Maxwell-slip model driven by a position, thesis (1.20)–(1.22), as exact
//! stop operators or as the time-domain ODE (1.20).

use crate::drive::{driven, exact_pl, steps_in_time, StopOps, OPERATOR_COLUMNS, OPERATOR_METHODS};
use crate::input::signal;
use crate::laws::MaxwellSlipElements;
use crate::system::{initial, params, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::InputDriven;

params! {
    pub struct Params {
        elements: MaxwellSlipElements = Group(LINEAR),
        s0: f64 = initial("m", "initial element displacement u - x_i (clamped to the deadband)"),
    }
}

pub struct MaxwellSlip;

impl System for MaxwellSlip {
    const NAME: &'static str = "maxwell-slip";
    const DOC: &'static str = "Maxwell-slip model, thesis (1.20)-(1.22): F = sum k_i (u - x_i), |u - x_i| <= delta_i. `exact`: stop operators driven by the input samples (every extremum and every element's slip onset included, so F is linear in u between samples); `ode`: the time-domain ODE (1.20).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: crate::invariants::MAXWELL_SLIP_BOUND,
        doc: "|F| <= sum |k_i| Delta_i, the Maxwell-slip element bound (experiments/src/invariants.rs MAXWELL_SLIP_BOUND_DOC, thesis (1.20)-(1.21)), on both methods. `exact`: the stop operators, exact to rounding. `ode`: each element's deadband edge is located as an event and the element put on it (fric_models::Edges), so no step integrates across the jump of (1.20)'s right-hand side; until 2026-12-06 the steps did, carried duhem-paper Fig 6's ode_b elements 6.15e-8 N (2.0e-7 relative) past the bound, and this invariant exempted method ode",
        check: |p, _, d| p.elements.check_bound(d, "F"),
    }];
    const COLUMNS: &'static [Column] = OPERATOR_COLUMNS;
    const METHODS: crate::methods::Methods = OPERATOR_METHODS;

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.elements.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.elements.model();
        let sig = signal(req)?;
        if steps_in_time(req) {
            let u0 = sig.value(0.0);
            let x0: Vec<f64> = m.delta.iter().map(|d| u0 - p.s0.clamp(-d, *d)).collect();
            driven(req, &sig, &m, x0, &["v", "F"], |u, du, x, out| {
                out[0] = du;
                out[1] = m.output(u, du, x);
            })
        } else {
            let state = m.state(sig.value(0.0), p.s0);
            exact_pl(req, &sig, &mut StopOps { model: m, state })
        }
    }
}
