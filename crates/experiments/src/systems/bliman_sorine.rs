//! `bliman-sorine`: the free Bliman & Sorine model driven by a displacement, report (2.7)/(2.12):
//! exact along each monotone input increment (2.25) (it is rate independent), or the time form
//! (2.12) integrated in time (`ode`) to test that.

use crate::drive::{driven, exact, steps_in_time, OPERATOR_METHODS};
use crate::input::signal;
use crate::laws::BlimanSorineLaw;
use crate::system::{any, params, Column, Group, System, PRESCRIBED, ROTARY};
use crate::{Invalid, RunData, RunRequest};
use fric_models::bliman_sorine::BlimanSorineOperator;

params! {
    pub struct Params {
        law: BlimanSorineLaw = Group(ROTARY),
        x10: f64 = any("N-m", "initial x1").default(0.0),
        x20: f64 = any("N-m", "initial x2").default(0.0),
    }
}

pub struct BlimanSorine;

impl System for BlimanSorine {
    const NAME: &'static str = "bliman-sorine";
    const DOC: &'static str = "Free Bliman & Sorine model driven by a displacement u (rad), report (2.7)/(2.12): dx1/ds = (f1 sgn v - x1)/(eps eta), dx2/ds = -(f2 sgn v + x2)/eps, F = x1 + x2. `exact`: closed form (2.25) along each monotone input increment; `ode`: the time form (2.12) integrated in time. Invariants: none declared; the report states no bound on the states x1, x2 nor a sign rule for F (§2.2-2.9).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "rad", "input displacement"),
        ("v", "rad/s", "input velocity u'"),
        ("x1", "N-m", "fast state x1"),
        ("x2", "N-m", "slow state x2"),
        ("F", "N-m", "friction torque x1 + x2"),
    ];
    const METHODS: crate::methods::Methods = OPERATOR_METHODS;

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.law.model();
        let sig = signal(req)?;
        let x0 = [p.x10, p.x20];
        if steps_in_time(req) {
            let mut d = driven(req, &sig, &m, x0.to_vec(), &["v", "x1", "x2", "F"], |_, du, x, out| {
                out[0] = du;
                out[1] = x[0];
                out[2] = x[1];
                out[3] = x[0] + x[1];
            })?;
            d.info.insert("sigma".into(), m.sigma());
            return Ok(d);
        }
        if req.sim.steady_state.is_some() {
            return Err("bliman-sorine `exact` records from the start: use `periods` or `t_end`, not `steady_state`".into());
        }
        let mut op = BlimanSorineOperator::new(m, sig.value(0.0), x0);
        // Without a steady state `exact` calls the operator once per recorded sample, in order,
        // so the states are recorded as it goes.
        let (mut x1, mut x2) = (Vec::new(), Vec::new());
        let mut d = exact(req, &sig, |u| {
            let f = op.advance(u);
            x1.push(op.x[0]);
            x2.push(op.x[1]);
            f
        })?;
        if x1.len() != d.columns[0].1.len() {
            return Err(format!("{} operator calls for {} samples", x1.len(), d.columns[0].1.len()));
        }
        let f = d.columns.pop().expect("F");
        d.columns.push(("x1".into(), x1));
        d.columns.push(("x2".into(), x2));
        d.columns.push(f);
        for (k, v) in [
            ("sigma", m.sigma()),
            ("kinetic", m.kinetic()),
            ("peak_saturated", m.peak_saturated()),
            ("peak_from_zero", m.peak_from_zero()),
            ("peak_distance", m.peak_distance()),
        ] {
            d.info.insert(k.into(), v);
        }
        Ok(d)
    }
}
