//! `ffbm-force-driven`: the force-driven block on a wall spring with the friction-force-based
//! model (FFBM), thesis (3.68)–(3.71), integrated one sawtooth cell at a time (the cell
//! boundaries are located events) so that the stiff integrator only sees smooth flows.
//!
//! **Energy balance.** (3.68)–(3.69) times `v`, integrated: `∫ u v dt = ∫ σ0 z v dt +
//! Δ(½ m v² + ½ K x²)`, exact for any friction force on the block (z's own energy is inside the
//! friction work; the thesis defines no stored energy of it); a cell event changes no state.

use crate::drbm::Law;
use crate::drive::{ode_of, periodic_plan, save_times, tolerances};
use crate::input::signal;
use crate::system::{initial, params, positive, Column, System, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::rbm::{Ffbm, Sawtooth};
use crate::energy_balance::{check, max_abs, Bound};
use crate::invariants::{col, Invariant, Violation};
use fric_solvers::hybrid::{simulate, HybridSystem, Quadratures, WithQuadratures};
use fric_models::signal::Signal;

params! {
    pub struct Params {
        m: f64 = positive("kg", "body mass"),
        k_spring: f64 = positive("N/m", "wall spring stiffness K"),
        f_min: f64 = positive("N", "F_min of the sawtooth (3.65)"),
        f_max: f64 = positive("N", "F_max of the sawtooth (3.65)"),
        delta: f64 = positive("m", "sawtooth period Δ (bristle spacing)"),
        sigma0: f64 = positive("N/m", "stiffness σ0 of the state z (3.66)-(3.67)"),
        v_rest: f64 = positive("m/s", "samples with |v| <= v_rest count as at rest for the column eq_excess").default(1.0e-4),
        x0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
        z0: f64 = initial("m", "initial state z"),
    }
}

pub struct FfbmForceDriven;

/// The closed loop (3.68)–(3.71) in the frozen sawtooth cell `k` (the mode).
struct Loop<'a> {
    f: Ffbm,
    m: f64,
    k: f64,
    u: &'a Signal,
}

impl HybridSystem for Loop<'_> {
    type Mode = i64;
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, cell: i64, t: f64, s: &[f64], ds: &mut [f64]) {
        let (x, v, z) = (s[0], s[1], s[2]);
        ds[0] = v;
        ds[1] = (self.u.value(t) - self.k * x - self.f.force(z)) / self.m;
        ds[2] = self.f.z_rate_in(cell, v, x, z);
    }
    fn n_guards(&self, _: i64) -> usize {
        2
    }
    fn guards(&self, cell: i64, _: f64, s: &[f64], g: &mut [f64]) {
        let d = self.f.saw.delta;
        g[0] = s[0] - (cell + 1) as f64 * d;
        g[1] = cell as f64 * d - s[0];
    }
    fn jump(&self, cell: i64, guard: usize, _: f64, _: &mut [f64]) -> i64 {
        if guard == 0 {
            cell + 1
        } else {
            cell - 1
        }
    }
}

/// The energy balance's works (`crate::energy_balance`) as quadrature outputs carried across the
/// cells: `W_in = ∫ u v dt` and `W_f = ∫ report · σ0 z v dt` (`report` = 1 in production; another
/// value only in the test that the balance catches a misreported force).
struct Works<'a> {
    f: Ffbm,
    u: &'a Signal,
    report: f64,
}

impl Quadratures<i64> for Works<'_> {
    fn count(&self) -> usize {
        2
    }
    fn integrands(&self, _: i64, t: f64, s: &[f64], q: &mut [f64]) {
        q[0] = self.u.value(t) * s[1];
        q[1] = self.report * self.f.force(s[2]) * s[1];
    }
}

impl System for FfbmForceDriven {
    const NAME: &'static str = "ffbm-force-driven";
    const DOC: &'static str = "Force-driven block on a wall spring with the FFBM, thesis (3.68)-(3.71): m x'' = u - K x - σ0 z, z' = v - σ0 |v| z / S(v, x) with S the sawtooth (3.65); stiff (undamped presliding at sqrt(σ0/m)), Radau IIA by default, one sawtooth cell at a time with the cell boundaries as located events. Reports the boundary-equilibria curves u = K x + F_f^r(x), K x + F_f^l(x) of (3.76)-(3.78) (= (3.58)) at the sampled x. Invariants: the energy balance; §3.6 (3.65)-(3.71) states no bound on z (a LuGre-like |z| <= max S/sigma0 would be derived, not the thesis').";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "N", "input force"),
        ("x", "m", "position"),
        ("v", "m/s", "velocity"),
        ("z", "m", "friction state"),
        ("F", "N", "friction force σ0 z"),
        ("u_r", "N", "boundary equilibria u = K x + F_f^r(x) at the sampled x"),
        ("u_l", "N", "boundary equilibria u = K x + F_f^l(x) at the sampled x"),
        ("eq_excess", "N", "at rest (|v| <= v_rest): distance of u - K x outside [F_f^l(x), F_f^r(x)] (0 inside, and 0 while moving)"),
        ("W_in", "J", "input work ∫ u v dt from the start of the integration (quadrature on the dense output)"),
        ("W_f", "J", "friction work ∫ σ0 z v dt from the start of the integration"),
        ("E", "J", "stored energy ½ m v² + ½ K x²"),
    ];
    const METHODS: crate::methods::Methods = crate::methods::STIFF_FIRST;
    const INVARIANTS: &'static [Invariant<Params>] = &[Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of ½ m v² + ½ K x² ((3.68)-(3.69) times v, integrated; z's energy is inside the friction work), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
    }];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.f_max <= p.f_min {
            errs.push(crate::system::invalid(
                "f_max",
                format!("F_max = {} is not above F_min = {}", p.f_max, p.f_min),
                "f_max > f_min > 0",
            ));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        run_reporting(p, req, 1.0)
    }
}

/// The run, with the friction work integrated from `report ×` the force acting ([`Works`]).
fn run_reporting(p: &Params, req: &RunRequest, report: f64) -> Result<RunData, String> {
    {
        let sig = signal(req)?;
        crate::drive::no_shooting(req)?;
        let (plan, steady) = periodic_plan(req, &sig);
        if steady.is_some() {
            return Err("ffbm-force-driven runs for `periods` or `t_end`".into());
        }
        let saw = Sawtooth {
            f_min: p.f_min,
            f_max: p.f_max,
            delta: p.delta,
        };
        let sys = Loop {
            f: Ffbm { saw, sigma0: p.sigma0 },
            m: p.m,
            k: p.k_spring,
            u: &sig,
        };
        let ode = ode_of(req)?;
        let (method, tol) = (ode.solver, tolerances(req, ode, plan.scale));
        let save = save_times(&plan);
        let mut rows: Vec<[f64; 6]> = Vec::with_capacity(save.len());
        let mut out = |t: f64, _: i64, s: &[f64]| rows.push([t, s[0], s[1], s[2], s[3], s[4]]);
        let first = saw.cell(p.x0);
        let works = Works { f: sys.f, u: &sig, report };
        let powered = WithQuadratures::new(sys, works);
        let sys = &powered.sys;
        let r = simulate(&powered, first, method, &tol, 0.0, &[p.x0, p.v0, p.z0], plan.record.1, &save, 10_000_000, &mut out)
            .map_err(|e| e.to_string())?;
        let col = |j: usize| rows.iter().map(|r| r[j]).collect::<Vec<f64>>();
        let (t, x, v, z, w_in, w_f) = (col(0), col(1), col(2), col(3), col(4), col(5));
        let e = (0..t.len()).map(|i| 0.5 * p.m * v[i] * v[i] + 0.5 * p.k_spring * x[i] * x[i]).collect();
        let u: Vec<f64> = t.iter().map(|&t| sig.value(t)).collect();
        let f: Vec<f64> = z.iter().map(|&z| sys.f.force(z)).collect();
        // The equilibria set (3.76)-(3.78) is the sawtooth's (3.58) (L1302): one implementation.
        let law = Law::Saw(saw);
        let u_r: Vec<f64> = x.iter().map(|&x| p.k_spring * x + saw.right(x)).collect();
        let u_l: Vec<f64> = x.iter().map(|&x| p.k_spring * x + saw.left(x)).collect();
        let eq_excess = (0..x.len())
            .map(|i| {
                if v[i].abs() > p.v_rest {
                    return 0.0;
                }
                law.equilibrium_excess(x[i], u[i] - p.k_spring * x[i], p.delta)
            })
            .collect();
        let mut data = RunData {
            columns: vec![
                ("t".into(), t),
                ("u".into(), u),
                ("x".into(), x),
                ("v".into(), v),
                ("z".into(), z),
                ("F".into(), f),
                ("u_r".into(), u_r),
                ("u_l".into(), u_l),
                ("eq_excess".into(), eq_excess),
                ("W_in".into(), w_in),
                ("W_f".into(), w_f),
                ("E".into(), e),
            ],
            period: plan.input_period,
            ..Default::default()
        };
        data.info.insert("cell_events".into(), r.switches.len() as f64);
        data.info.insert("steps".into(), r.stats.accepted as f64);
        data.info.insert("t_start".into(), plan.record.0);
        Ok(data)
    }
}

/// Invariant: the energy balance (`crate::energy_balance`) with the bound derived there, on the
/// state `[x, v, z]`: the stored `½ m v² + ½ K x²` has `G_x = K max|x|`, `G_v = m max|v|`; the
/// rate `(u − σ0 z) v` has `H_v = max|u − σ0 z|`, `H_z = σ0 max|v|` (u depends on time only).
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), Violation> {
    let (t, u, x, v, z) = (col(d, "t")?, col(d, "u")?, col(d, "x")?, col(d, "v")?, col(d, "z")?);
    let tol = crate::energy_balance::driver_tolerance(req)?;
    let (xm, vm) = (max_abs(x), max_abs(v));
    let hv = (0..t.len()).fold(0.0f64, |a, i| a.max((u[i] - p.sigma0 * z[i]).abs()));
    let bound = Bound::for_run(
        d,
        tol,
        vec![(xm, p.k_spring * xm, 0.0), (vm, p.m * vm, hv), (max_abs(z), 0.0, p.sigma0 * vm)],
    );
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ParamSet;
    use fric_manifest::{InputSpec, InputValue, ParamValue, SimSpec};

    /// Thesis Fig 3.12's FFBM rig (L1306) under u = 2 sin(0.01 t), a quarter period at rtol 1e-10.
    fn request() -> RunRequest {
        let params = [("m", 1.0), ("k_spring", 1.0), ("f_min", 1.0), ("f_max", 1.5), ("delta", 0.05), ("sigma0", 100000.0), ("x0", 0.0), ("v0", 0.0), ("z0", 0.0)]
            .iter()
            .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
            .collect();
        let input = InputSpec::new("sine", [("amplitude", InputValue::from(2.0)), ("omega", InputValue::from(0.01))]);
        let sim = SimSpec {
            periods: Some(0.25),
            samples_per_period: Some(20000),
            rtol: Some(1e-10),
            atol: Some(1e-13),
            ..Default::default()
        };
        crate::resolve("ffbm-force-driven", &params, Some(&input), Some(&sim)).unwrap()
    }

    /// The declared energy balance holds on the production run and fails when the work is
    /// integrated from a force 0.1 % off the one acting.
    #[test]
    fn energy_balance_holds_and_catches_a_misreported_force() {
        let req = request();
        let p = Params::read(&req.params);
        crate::energy_balance::assert_holds_and_catches_misreport(FfbmForceDriven::INVARIANTS, &p, &req, "W_in", 0.1, |r| run_reporting(&p, &req, r));
    }
}
