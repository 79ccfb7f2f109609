//! `inertia-lugre`: an inertia driven by a torque with (asymmetric) LuGre friction, report
//! (3.29)/(4.1) and Fig C.2 with (3.4): `J θ'' = u − σ0 z − σ1 z' − α2 θ'`. Also the Lyapunov
//! function (3.20) and its derivative, for report §3.6 (Figs 3.8, 3.9).

use crate::drive::driven;
use crate::input::signal;
use crate::laws::ReportLuGre;
use crate::system::{any, params, positive, Column, Group, System, PRESCRIBED, ROTARY};
use crate::{RunData, RunRequest};
use fric_models::inertia::Inertia;
use fric_models::InputDriven;

params! {
    pub struct Params {
        j: f64 = positive("kg-m^2", "inertia J"),
        law: ReportLuGre = Group(ROTARY),
        theta0: f64 = any("rad", "initial angle").default(0.0),
        omega0: f64 = any("rad/s", "initial velocity").default(0.0),
        z0: f64 = any("rad", "initial bristle deflection").default(0.0),
    }
}

pub struct InertiaLuGre;

impl System for InertiaLuGre {
    const NAME: &'static str = "inertia-lugre";
    const DOC: &'static str = "Inertia with LuGre friction driven by a torque u(t), report (3.29) with (3.4) and Fig C.2: J theta'' = u - (sigma0 z + sigma1 z' + alpha2 theta'), z' = theta' - sigma0 |theta'| z / g(theta'), g = alpha0 + alpha1 exp(-(theta'/v0)^2); (alpha0, alpha1, alpha2) switched on the sign of theta' when alpha0_plus is given (report §3.7); initial state theta0, omega0, z0 (default zero); V = J theta'^2/2 + sigma0 z^2/2 (3.20) and its derivative (3.21 for u = 0); Radau IIA by default.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "N-m", "input torque"),
        ("theta", "rad", "angle"),
        ("omega", "rad/s", "angular velocity"),
        ("z", "rad", "bristle deflection"),
        ("zdot", "rad/s", "bristle deflection rate"),
        ("F", "N-m", "LuGre friction sigma0 z + sigma1 z' (without the viscous part)"),
        ("F_total", "N-m", "total friction F + alpha2 theta'"),
        ("V", "J", "Lyapunov function (3.20): J theta'^2/2 + sigma0 z^2/2"),
        ("Vdot", "W", "dV/dt = theta' (u - F_total) + sigma0 z z' ((3.21) when u = 0)"),
    ];
    const METHODS: &'static [fric_manifest::Method] = &[fric_manifest::Method::Radau5, fric_manifest::Method::Rosenbrock23, fric_manifest::Method::Dopri5];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = Inertia {
            j: p.j,
            alpha: 0.0,
            friction: p.law.model(),
        };
        let (s0, s1) = (p.law.sigma0, p.law.sigma1);
        driven(
            req,
            &signal(req)?,
            &m,
            vec![p.theta0, p.omega0, p.z0],
            &["theta", "omega", "z", "zdot", "F", "F_total", "V", "Vdot"],
            |u, _, x, out| {
                let mut dz = [0.0];
                m.friction.rhs(x[0], x[1], &x[2..], &mut dz);
                let total = m.friction_torque(x);
                out[0] = x[0];
                out[1] = x[1];
                out[2] = x[2];
                out[3] = dz[0];
                out[4] = s0 * x[2] + s1 * dz[0];
                out[5] = total;
                out[6] = 0.5 * p.j * x[1] * x[1] + 0.5 * s0 * x[2] * x[2];
                out[7] = x[1] * (u - total) + s0 * x[2] * dz[0];
            },
        )
    }
}
