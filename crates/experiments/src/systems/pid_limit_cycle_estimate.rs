//! `pid-limit-cycle-estimate`: the heuristic limit-cycle formulas of report §5.4, Property 5.1
//! (symmetric static friction, (5.12)–(5.13) and the inverse (5.15)) and Property 5.2
//! (asymmetric with equal stiction–kinetic differences, (5.23)–(5.24) and (5.25)–(5.26)).

use crate::input::table;
use crate::system::{nonneg, params, positive, Column, System, NONE};
use crate::{RunData, RunRequest};
use fric_models::pid::{property_5_1, property_5_1_inverse, property_5_2, property_5_2_inverse};

params! {
    pub struct Params {
        j: f64 = positive("kg-m^2", "inertia J: the physical gains are k = J k̄′ (5.4)"),
        kp_n: f64 = positive("1/s^2", "J-normalised proportional gain k̄′_p"),
        ki_n: f64 = positive("1/s^3", "J-normalised integral gain k̄′_i"),
        tau_s: f64 = positive("N-m", "stiction τ_s (τ_s⁻ when asymmetric)"),
        tau_k: f64 = positive("N-m", "kinetic level τ_k (τ_k⁻ when asymmetric)"),
        tau_s_plus: f64 = nonneg("N-m", "τ_s⁺ (0: symmetric, = tau_s)").default(0.0),
        tau_k_plus: f64 = nonneg("N-m", "τ_k⁺ (0: symmetric, = tau_k)").default(0.0),
    }
}

pub struct PidLimitCycleEstimate;

impl System for PidLimitCycleEstimate {
    const NAME: &'static str = "pid-limit-cycle-estimate";
    const DOC: &'static str = "Heuristic limit cycle of PID control with static friction, report §5.4: Property 5.1 a_e = (τs − τk)/(2kp), T = (4kp/ki)(τs + τk)/(τs − τk) (5.12)-(5.13) and its inverse (5.15); asymmetric (tau_s_plus, tau_k_plus given): Property 5.2 (5.23)-(5.24), which needs τs⁻ − τk⁻ = τs⁺ − τk⁺ (5.22), with T = 2T⁺, and its inverse (5.25)-(5.26) read with T⁺. Info: kp, ki (physical), a_e, period, t_half, and the inverses tau_s_back, tau_k_back (symmetric) or tau_d_back, sum_tau_k_back. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[("a_e", "rad", "error amplitude"), ("period", "s", "period T")];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, _: &RunRequest) -> Result<RunData, String> {
        let (kp, ki) = (p.j * p.kp_n, p.j * p.ki_n);
        if p.tau_s <= p.tau_k {
            return Err(format!("the formulas need τ_s > τ_k (got {} and {})", p.tau_s, p.tau_k));
        }
        let mut info = vec![("kp", kp), ("ki", ki)];
        let (a_e, period) = if p.tau_s_plus == 0.0 && p.tau_k_plus == 0.0 {
            let (a, t) = property_5_1(p.tau_s, p.tau_k, kp, ki);
            let (ts, tk) = property_5_1_inverse(a, t, kp, ki);
            info.extend([("tau_s_back", ts), ("tau_k_back", tk), ("t_half", t / 2.0)]);
            (a, t)
        } else {
            let (a, th) = property_5_2((p.tau_s, p.tau_k), (p.tau_s_plus, p.tau_k_plus), kp, ki, 1e-9).map_err(|e| {
                format!(
                    "Property 5.2 needs τ_s⁻ − τ_k⁻ = τ_s⁺ − τ_k⁺ (5.22); got {} and {}",
                    e.minus, e.plus
                )
            })?;
            let (d, sum) = property_5_2_inverse(a, th, kp, ki);
            info.extend([("tau_d_back", d), ("sum_tau_k_back", sum), ("t_half", th)]);
            (a, 2.0 * th)
        };
        info.extend([("a_e", a_e), ("period", period)]);
        let mut data = table(vec![("a_e", vec![a_e]), ("period", vec![period])]);
        for (k, v) in info {
            data.info.insert(k.into(), v);
        }
        Ok(data)
    }
}
