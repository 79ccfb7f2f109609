//! `inertia-lugre`: an inertia driven by a torque with (asymmetric) LuGre friction, report
//! (3.29)/(4.1) and Fig C.2 with (3.4): `J θ'' = u − σ0 z − σ1 z' − α2 θ'`. Also the Lyapunov
//! function (3.20) and its derivative, for report §3.6 (Figs 3.8, 3.9).
//!
//! **Energy balance.** `J θ'' = u − F` times `θ'`, integrated: `∫ u θ' dt = ∫ F θ' dt +
//! Δ(½ J θ'²)`, exact for any friction torque acting on the inertia (`F` the total,
//! `σ0 z + σ1 z' + α2 θ'`). What it does not split is `∫ F θ' dt` into the bristles'
//! `Δ(½ σ0 z²)` and a dissipation: that dissipation, `∫ (F θ' − σ0 z z') dt`, need not be
//! non-negative for every σ1 (LuGre is not passive in general; report §3.6 and the
//! `lugre-passivity` system), so only the mechanical balance is an invariant.

use crate::drive::{driven_with_works, Works};
use crate::energy_balance::{check, max_abs, Bound};
use crate::input::signal;
use crate::invariants::{col, Invariant, Violation};
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
        ("W_in", "J", "input work: integral of u theta' dt from the first sample"),
        ("W_f", "J", "friction work: integral of F_total theta' dt from the first sample"),
        ("E", "J", "kinetic energy J theta'^2/2"),
    ];
    const METHODS: crate::methods::Methods = crate::methods::STIFF_FIRST;

    const INVARIANTS: &'static [Invariant<Params>] = &[Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of J theta'^2/2 (the equation of motion times theta', integrated; exact for any friction torque on the inertia; the LuGre bristles' energy sigma0 z^2/2 is part of the friction work, which LuGre does not keep non-negative for every sigma1), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
    }, Invariant {
        name: crate::invariants::LUGRE_BOUND,
        doc: crate::invariants::LUGRE_BOUND_DOC,
        check: |p, _, d| crate::invariants::lugre_bound(d, "z", p.z0, p.law.g_max(), p.law.sigma0),
    }];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        run_reporting(p, req, 1.0)
    }
}

/// The run, with the friction work integrated from `report ×` the friction torque acting (1 in
/// production; another value only in the test that the balance catches a misreported force).
fn run_reporting(p: &Params, req: &RunRequest, report: f64) -> Result<RunData, String> {
    {
        let m = Inertia {
            j: p.j,
            alpha: 0.0,
            friction: p.law.model(),
        };
        let (s0, s1) = (p.law.sigma0, p.law.sigma1);
        let integrands = |u: f64, _: f64, x: &[f64], q: &mut [f64]| {
            q[0] = u * x[1];
            q[1] = report * m.friction_torque(x) * x[1];
        };
        let works = Works {
            n: 2,
            integrands: &integrands,
        };
        driven_with_works(
            req,
            &signal(req)?,
            &m,
            vec![p.theta0, p.omega0, p.z0],
            &["theta", "omega", "z", "zdot", "F", "F_total", "V", "Vdot", "W_in", "W_f", "E"],
            Some(&works),
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
                out[8] = x[3];
                out[9] = x[4];
                out[10] = 0.5 * p.j * x[1] * x[1];
            },
        )
    }
}

/// Invariant: the energy balance (`crate::energy_balance`) with the bound derived there. The
/// stored energy `½ J θ'²` has `G_θ' = J max|θ'|`; the integrand `θ' (u − F)` has
/// `∂/∂θ' = u − F − θ' ∂F/∂θ'` and `∂/∂z = −θ' ∂F/∂z`, taken as their largest magnitude over the
/// samples by central differences of the law (steps 1e-6 of the state's scale); nothing depends
/// on θ.
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), Violation> {
    let (t, u, th, w, z) = (col(d, "t")?, col(d, "u")?, col(d, "theta")?, col(d, "omega")?, col(d, "z")?);
    let m = Inertia {
        j: p.j,
        alpha: 0.0,
        friction: p.law.model(),
    };
    let power = |u: f64, w: f64, z: f64| w * (u - m.friction_torque(&[0.0, w, z]));
    let (hw, hz) = (1e-6 * (1.0 + max_abs(w)), 1e-6 * (1.0 + max_abs(z)));
    let (mut dw, mut dz) = (0.0f64, 0.0f64);
    for i in 0..t.len() {
        dw = dw.max(((power(u[i], w[i] + hw, z[i]) - power(u[i], w[i] - hw, z[i])) / (2.0 * hw)).abs());
        dz = dz.max(((power(u[i], w[i], z[i] + hz) - power(u[i], w[i], z[i] - hz)) / (2.0 * hz)).abs());
    }
    let tol = crate::energy_balance::driver_tolerance(req)?;
    // The record window's steps (`Bound::for_run`: a run cached before they were recorded
    // counts all its steps).
    let bound = Bound::for_run(
        d,
        tol,
        vec![
            (max_abs(th), 0.0, 0.0),
            (max_abs(w), p.j * max_abs(w), dw),
            (max_abs(z), 0.0, dz),
        ],
    );
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ParamSet;
    use fric_manifest::{InputSpec, ParamValue, SimSpec, InputValue};

    /// Report Fig 4.10's asymmetric LuGre inertia (L1527–L1528, J = 0.0025 kg m² L2545)
    /// under its sine torque, two periods at rtol 1e-8: the energy balance holds, and breaks when
    /// the friction work is integrated from a torque 0.1 % off the one acting.
    #[test]
    fn energy_balance_holds_and_catches_a_misreported_torque() {
        let params = [
            ("j", 0.0025),
            ("sigma0", 650.0),
            ("sigma1", 1.0),
            ("v0", 0.1),
            ("alpha0", 0.5),
            ("alpha1", 0.11),
            ("alpha2", 0.016),
            ("alpha0_plus", 0.58),
            ("alpha1_plus", 0.14),
            ("alpha2_plus", 0.02),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
        .collect();
        let input = InputSpec::new("sine", [("amplitude", InputValue::from(1.0)), ("omega", InputValue::from(10.0)), ("phase", InputValue::from(0.0)), ("offset", InputValue::from(0.06))]);
        let sim = SimSpec {
            periods: Some(2.0),
            samples_per_period: Some(4000),
            rtol: Some(1e-8),
            ..Default::default()
        };
        let req = crate::resolve("inertia-lugre", &params, Some(&input), Some(&sim)).unwrap();
        let p = Params::read(&req.params);
        let d = run_reporting(&p, &req, 1.0).unwrap();
        check_energy(&p, &req, &d).unwrap();
        let w = d.column("W_in").unwrap();
        assert!(max_abs(w) > 0.1, "the input does work: {}", max_abs(w));
        let e = check_energy(&p, &req, &run_reporting(&p, &req, 1.001).unwrap()).unwrap_err();
        assert!(e.message.contains("beyond the solver's bound"), "{e}");
    }
}
