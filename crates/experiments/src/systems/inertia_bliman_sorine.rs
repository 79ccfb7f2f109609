//! `inertia-bliman-sorine`: an inertia driven by a torque with Bliman & Sorine and viscous
//! friction, report Appendix C (L2545) with (2.12): `J θ'' = u − α θ' − F`.

use crate::drive::driven;
use crate::input::signal;
use crate::laws::BlimanSorineLaw;
use crate::system::{any, nonneg, params, positive, Column, Group, System, PRESCRIBED, ROTARY};
use crate::{Invalid, RunData, RunRequest};
use fric_models::inertia::Inertia;

params! {
    pub struct Params {
        j: f64 = positive("kg-m^2", "inertia J"),
        alpha: f64 = nonneg("N-m-s/rad", "viscous friction alpha (alpha_2 of the plant)"),
        law: BlimanSorineLaw = Group(ROTARY),
        theta0: f64 = any("rad", "initial angle").default(0.0),
        omega0: f64 = any("rad/s", "initial velocity").default(0.0),
        x10: f64 = any("N-m", "initial friction state x1").default(0.0),
        x20: f64 = any("N-m", "initial friction state x2").default(0.0),
    }
}

pub struct InertiaBlimanSorine;

impl System for InertiaBlimanSorine {
    const NAME: &'static str = "inertia-bliman-sorine";
    const DOC: &'static str = "Inertia with Bliman & Sorine and viscous friction driven by a torque u(t), report App. C (L2545) and (2.12): J theta'' = u - alpha theta' - (x1 + x2), friction states x10, x20 at the start (default zero); Radau IIA (order 5) by default (the friction states are stiff at high speed). Invariants: none declared; the report states no bound on the B&S states x1, x2 nor a sign rule for the friction (§2.2-2.9).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "N-m", "input torque"),
        ("theta", "rad", "angle"),
        ("omega", "rad/s", "angular velocity"),
        ("F", "N-m", "B&S friction torque x1 + x2"),
        ("F_total", "N-m", "total friction F + alpha theta'"),
        ("x1", "N-m", "fast friction state x1"),
        ("x2", "N-m", "slow friction state x2"),
    ];
    const METHODS: crate::methods::Methods = crate::methods::STIFF_FIRST;

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = Inertia {
            j: p.j,
            alpha: p.alpha,
            friction: p.law.model(),
        };
        let mut d = driven(
            req,
            &signal(req)?,
            &m,
            vec![p.theta0, p.omega0, p.x10, p.x20],
            &["theta", "omega", "F", "F_total", "x1", "x2"],
            |_, _, x, out| {
                out[0] = x[0];
                out[1] = x[1];
                out[2] = m.friction_torque(x);
                out[3] = m.friction_torque(x) + m.alpha * x[1];
                out[4] = x[2];
                out[5] = x[3];
            },
        )?;
        d.info.insert("sigma".into(), m.friction.sigma());
        Ok(d)
    }
}
