//! `ffbm-force-driven`: the force-driven block on a wall spring with the friction-force-based
//! model (FFBM), thesis (3.68)–(3.71), integrated one sawtooth cell at a time (the cell
//! boundaries are located events) so that the stiff integrator only sees smooth flows.

use crate::drbm::Law;
use crate::drive::{ode_of, periodic_plan, save_times, tolerances};
use crate::input::signal;
use crate::system::{initial, params, positive, Column, System, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::rbm::{Ffbm, Sawtooth};
use fric_solvers::hybrid::{simulate, HybridSystem};
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

impl System for FfbmForceDriven {
    const NAME: &'static str = "ffbm-force-driven";
    const DOC: &'static str = "Force-driven block on a wall spring with the FFBM, thesis (3.68)-(3.71): m x'' = u - K x - σ0 z, z' = v - σ0 |v| z / S(v, x) with S the sawtooth (3.65); stiff (undamped presliding at sqrt(σ0/m)), Radau IIA by default, one sawtooth cell at a time with the cell boundaries as located events. Reports the boundary-equilibria curves u = K x + F_f^r(x), K x + F_f^l(x) of (3.76)-(3.78) (= (3.58)) at the sampled x. Invariants: none declared; §3.6 (3.65)-(3.71) states no bound on z (a LuGre-like |z| <= max S/sigma0 would be derived, not the thesis').";
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
    ];
    const METHODS: crate::methods::Methods = crate::methods::STIFF_FIRST;

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
        let mut rows: Vec<[f64; 4]> = Vec::with_capacity(save.len());
        let mut out = |t: f64, _: i64, s: &[f64]| rows.push([t, s[0], s[1], s[2]]);
        let first = saw.cell(p.x0);
        let r = simulate(&sys, first, method, &tol, 0.0, &[p.x0, p.v0, p.z0], plan.record.1, &save, 10_000_000, &mut out)
            .map_err(|e| e.to_string())?;
        let col = |j: usize| rows.iter().map(|r| r[j]).collect::<Vec<f64>>();
        let (t, x, v, z) = (col(0), col(1), col(2), col(3));
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
