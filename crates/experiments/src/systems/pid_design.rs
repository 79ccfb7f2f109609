//! `pid-design`: the PID design rule of report (5.1)/(5.6): J-normalised gains from the desired
//! closed-loop poles, or `n_c` back-solved from a given `k̄′_p`.

use crate::input::table;
use crate::system::{nonneg, params, positive, Column, System, NONE};
use crate::{RunData, RunRequest};
use fric_models::pid::{design, n_c_of};

params! {
    pub struct Params {
        omega_c: f64 = positive("rad/s", "ω_c of (5.1)"),
        zeta_c: f64 = positive("1", "ζ_c of (5.1)"),
        n_c: f64 = nonneg("1", "n_c of (5.1); 0: back-solved from kp_n").default(0.0),
        kp_n: f64 = nonneg("1/s^2", "a given k̄′_p from which n_c is back-solved (with n_c = 0)").default(0.0),
        alpha: f64 = nonneg("N-m-s/rad", "viscous friction α in the loop (5.6)"),
        j: f64 = positive("kg-m^2", "inertia J"),
    }
}

pub struct PidDesign;

impl System for PidDesign {
    const NAME: &'static str = "pid-design";
    const DOC: &'static str = "PID design rule, report (5.1)/(5.6): s^3 + (kd + α/J) s^2 + kp s + ki = (s^2 + 2ζc ωc s + ωc^2)(s + nc ωc) for J-normalised gains; with n_c = 0, n_c is back-solved from kp_n. Info: kp_n, ki_n, kd_n, n_c, s2 (the s^2 coefficient kd + α/J), alpha_over_j. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("kp_n", "1/s^2", "k̄′_p"),
        ("ki_n", "1/s^3", "k̄′_i"),
        ("kd_n", "1/s", "k̄′_d"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, _: &RunRequest) -> Result<RunData, String> {
        let n_c = if p.n_c > 0.0 {
            p.n_c
        } else if p.kp_n > 0.0 {
            n_c_of(p.kp_n, p.omega_c, p.zeta_c)
        } else {
            return Err("pid-design needs n_c > 0 or kp_n > 0".into());
        };
        let aj = p.alpha / p.j;
        let g = design(p.omega_c, p.zeta_c, n_c, aj);
        let mut data = table(vec![("kp_n", vec![g.kp]), ("ki_n", vec![g.ki]), ("kd_n", vec![g.kd])]);
        for (k, v) in [("kp_n", g.kp), ("ki_n", g.ki), ("kd_n", g.kd), ("n_c", n_c), ("s2", g.kd + aj), ("alpha_over_j", aj)] {
            data.info.insert(k.into(), v);
        }
        Ok(data)
    }
}
