//! `two-bar-linkage`: the preloaded two-bar linkage driven by a vertical force, thesis (5.16).
//!
//! **Energy balance.** (5.16) times `2θ'`, integrated (`fric_models::two_bar_linkage`: half of
//! Lagrange's equation): `∫ −F y' dt = Δ(M(θ) θ'² + ½ k (q − q0)²) + ∫ c q'² dt`, the work of the
//! vertical force = change of the kinetic and spring energy + the dashpot's dissipation (the state
//! `E`, under error control); exact for (5.16) whatever the force.

use crate::drive::{driven_with_works, Works};
use crate::energy_balance::{check, max_abs, Bound};
use crate::input::signal;
use crate::invariants::{col, Invariant, Violation};
use crate::system::{between, initial, nonneg, params, positive, Column, System, PRESCRIBED};
use crate::{RunData, RunRequest};
use fric_models::two_bar_linkage::Linkage;
use fric_solvers::analysis::{loop_area, loop_areas};

params! {
    pub struct Params {
        k: f64 = positive("N/m", "spring stiffness").default(1.0),
        m: f64 = positive("kg", "mass on the q motion").default(1.0),
        c: f64 = nonneg("N-s/m", "dashpot on the q motion").default(1.0),
        m_bar: f64 = positive("kg", "inertia of each bar").default(0.5),
        l: f64 = positive("m", "bar length").default(1.0),
        theta0: f64 = between("rad", 0.0, 1.5, "angle at which the spring is relaxed").default(std::f64::consts::FRAC_PI_4),
        th0: f64 = initial("rad", "initial angle θ(0)"),
        dth0: f64 = initial("rad/s", "initial angular velocity"),
    }
}

pub struct TwoBarLinkage;

impl System for TwoBarLinkage {
    const NAME: &'static str = "two-bar-linkage";
    const DOC: &'static str = "Preloaded two-bar linkage, thesis (5.16) with input u = F (N): M(θ)θ'' + A sinθ cosθ θ'² + 2kl²(cos θ0 − cos θ) sin θ + 2cl² sin²θ θ' = −(l cos θ/2) F; outputs y = l sin θ, q = 2l cos θ (5.15). Info, over the last input period of the record: loop_area_y = ∮ y dF, loops of the (F, q) map (q_loop_pos, q_loop_neg: the largest positive and negative loop areas, q_net_area: their sum over all loops, q_loops: loops larger than 1e-3 of the largest, q_wings: larger than 1/10 of the largest), E_diss (dashpot energy ∫ c q'² dt over the record), F at the snap-throughs (F_snap_down, F_snap_up: F where y crosses 0 downwards and upwards; absent without a crossing). Invariants: the energy balance (work of F = change of M(θ)θ'² + k(q − q0)²/2 + dashpot energy E); the thesis states no bound or sign rule for the linkage (5.16).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "N", "vertical force F"),
        ("theta", "rad", "angle θ"),
        ("y", "m", "vertical displacement y = l sin θ"),
        ("q", "m", "horizontal displacement q = 2l cos θ"),
        ("E", "J", "dashpot energy dissipated since t = 0"),
        ("eq_residual", "N", "|F − F_eq(θ)|: distance in F from the equilibrium set (5.12)"),
        ("W_in", "J", "work of the force: integral of −F y' dt from the first sample (quadrature on the dense output)"),
        ("E_stored", "J", "kinetic and spring energy M(θ) θ'^2 + k (q − q0)^2/2"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5, crate::methods::Method::Dop853];
    const INVARIANTS: &'static [Invariant<Params>] = &[Invariant {
        name: "energy-balance",
        doc: "work of the vertical force -F y' = change of M(theta) theta'^2 + k (q - q0)^2/2 + dashpot energy E ((5.16) times 2 theta', integrated), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
    }];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        run_reporting(p, req, 1.0)
    }
}

fn linkage(p: &Params) -> Linkage {
    Linkage {
        k: p.k,
        m: p.m,
        c: p.c,
        m_bar: p.m_bar,
        l: p.l,
        theta0: p.theta0,
    }
}

/// `M(θ) θ'² + ½ k (q − q0)²`.
fn stored(s: &Linkage, th: f64, dth: f64) -> f64 {
    let dq = s.q(th) - s.q0();
    s.mass(th) * dth * dth + 0.5 * s.k * dq * dq
}

/// The run, with the force's work integrated from `report ×` the force acting (1 in production;
/// another value only in the test that the balance catches a misreported force).
fn run_reporting(p: &Params, req: &RunRequest, report: f64) -> Result<RunData, String> {
    {
        let s = linkage(p);
        let integrands = |f: f64, _: f64, x: &[f64], q: &mut [f64]| {
            q[0] = -report * f * s.l * x[0].cos() * x[1];
        };
        let works = Works {
            n: 1,
            integrands: &integrands,
        };
        let cols = ["theta", "y", "q", "E", "eq_residual", "W_in", "E_stored"];
        let data = driven_with_works(req, &signal(req)?, &s, vec![p.th0, p.dth0, 0.0], &cols, Some(&works), |f, _, x, out| {
            out[0] = x[0];
            out[1] = s.y(x[0]);
            out[2] = s.q(x[0]);
            out[3] = x[2];
            out[4] = (f - s.equilibrium_force(x[0])).abs();
            out[5] = x[3];
            out[6] = stored(&s, x[0], x[1]);
        })?;
        // The info is measured over the last input period of the record (all of it when the input
        // is not periodic).
        let t = data.column("t").unwrap_or(&[]);
        let t_last = t.last().copied().unwrap_or(0.0);
        let start = data.period.map_or(0, |p| t.partition_point(|&s| s < t_last - p - 1e-9 * p));
        let col = |n: &str| data.column(n).unwrap_or(&[])[start..].to_vec();
        let (f, y, q, e) = (col("u"), col("y"), col("q"), col("E"));
        let loops = loop_areas(&f, &q);
        let big = loops.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let pos = loops.iter().cloned().fold(0.0f64, f64::max);
        let neg = loops.iter().cloned().fold(0.0f64, f64::min);
        let n_big = loops.iter().filter(|a| a.abs() > 1e-3 * big).count();
        let n_wings = loops.iter().filter(|a| a.abs() > 0.1 * big).count();
        let mut down = f64::NAN;
        let mut up = f64::NAN;
        for i in 1..y.len() {
            if (y[i - 1] > 0.0) != (y[i] > 0.0) {
                let w = y[i - 1] / (y[i - 1] - y[i]);
                let fc = f[i - 1] + w * (f[i] - f[i - 1]);
                if y[i] < y[i - 1] {
                    down = fc;
                } else {
                    up = fc;
                }
            }
        }
        let e_diss = e.last().copied().unwrap_or(0.0) - e.first().copied().unwrap_or(0.0);
        let mut info = vec![];
        if down.is_finite() {
            info.push(("F_snap_down", down));
        }
        if up.is_finite() {
            info.push(("F_snap_up", up));
        }
        Ok(data.with_info(&info).with_info(&[
            ("loop_area_y", loop_area(&f, &y)),
            ("q_loop_pos", pos),
            ("q_loop_neg", neg),
            ("q_net_area", loops.iter().sum()),
            ("q_loops", n_big as f64),
            ("q_wings", n_wings as f64),
            ("E_diss", e_diss),
        ]))
    }
}

/// Invariant: the energy balance (`crate::energy_balance`) with the bound derived there, on the
/// state `[θ, θ', E]`: `G_θ = max |M'(θ) θ'² − 2 k l sin θ (q − q0)|` (`M' = 2A sin θ cos θ`,
/// `A = M(π/2) − M(0)`), `G_θ' = 2 max |M θ'|`, `G_E = 1` (the dashpot energy enters the residual
/// as it is); the work's rate `−F l cos θ θ'` has `H_θ = max |F l sin θ θ'|`,
/// `H_θ' = max |F l cos θ|`.
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), Violation> {
    let s = linkage(p);
    let (t, f, th, e) = (col(d, "t")?, col(d, "u")?, col(d, "theta")?, col(d, "E")?);
    let a = s.mass(std::f64::consts::FRAC_PI_2) - s.mass(0.0);
    // Only |θ'| enters the bound: read back from the kinetic part, M θ'² = E_stored − k (q − q0)²/2.
    let es = col(d, "E_stored")?;
    let dth: Vec<f64> = (0..t.len())
        .map(|i| {
            let dq = s.q(th[i]) - s.q0();
            ((es[i] - 0.5 * s.k * dq * dq).max(0.0) / s.mass(th[i])).sqrt()
        })
        .collect();
    let (mut g_th, mut g_w, mut h_th, mut h_w) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for i in 0..t.len() {
        let (sn, cs, w) = (th[i].sin(), th[i].cos(), dth[i]);
        let dq = s.q(th[i]) - s.q0();
        g_th = g_th.max((2.0 * a * sn * cs * w * w).abs() + (2.0 * s.k * s.l * sn * dq).abs());
        g_w = g_w.max(2.0 * s.mass(th[i]) * w);
        h_th = h_th.max((f[i] * s.l * sn * w).abs());
        h_w = h_w.max((f[i] * s.l * cs).abs());
    }
    let tol = crate::energy_balance::driver_tolerance(req)?;
    let bound = Bound::for_run(
        d,
        tol,
        vec![(max_abs(th), g_th, h_th), (max_abs(&dth), g_w, h_w), (max_abs(e), 1.0, 0.0)],
    );
    check(t, col(d, "W_in")?, col(d, "E")?, es, bound.tolerance())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ParamSet;
    use fric_manifest::{InputSpec, InputValue, ParamValue, SimSpec};

    /// Thesis Fig 5.12's linkage (default parameters, θ(0) = π/4) under F = sin t, 2 periods.
    fn request() -> RunRequest {
        let params = [("th0", std::f64::consts::FRAC_PI_4), ("dth0", 0.0)]
            .iter()
            .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
            .collect();
        let input = InputSpec::new("sine", [("amplitude", InputValue::from(1.0)), ("omega", InputValue::from(1.0))]);
        let sim = SimSpec {
            periods: Some(2.0),
            samples_per_period: Some(4000),
            ..Default::default()
        };
        crate::resolve("two-bar-linkage", &params, Some(&input), Some(&sim)).unwrap()
    }

    /// The declared energy balance holds on the production run and fails when the work is
    /// integrated from a force 0.1 % off the one acting.
    #[test]
    fn energy_balance_holds_and_catches_a_misreported_force() {
        let req = request();
        let p = Params::read(&req.params);
        let inv: &Invariant<Params> = TwoBarLinkage::INVARIANTS.iter().find(|i| i.name == "energy-balance").unwrap();
        let d = run_reporting(&p, &req, 1.0).unwrap();
        (inv.check)(&p, &req, &d).unwrap();
        assert!(max_abs(d.column("W_in").unwrap()) > 0.1, "{}", max_abs(d.column("W_in").unwrap()));
        let e = (inv.check)(&p, &req, &run_reporting(&p, &req, 1.001).unwrap()).unwrap_err();
        assert!(e.message.contains("beyond the solver's bound"), "{e}");
    }
}
