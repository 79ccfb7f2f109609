//! `two-bar-linkage-equilibria`: the equilibrium sets of the preloaded two-bar linkage, thesis
//! (5.12)–(5.14).

use crate::input::{grid, table};
use crate::system::{any, between, params, positive, Column, System, GRID};
use crate::{RunData, RunRequest};
use fric_models::two_bar_linkage::Linkage;

params! {
    pub struct Params {
        k: f64 = positive("N/m", "spring stiffness").default(1.0),
        l: f64 = positive("m", "bar length").default(1.0),
        theta0: f64 = between("rad", 0.0, 1.5, "angle at which the spring is relaxed").default(std::f64::consts::FRAC_PI_4),
        probe: f64 = any("N", "a constant force at which the equilibria are counted (info n_equilibria)").default(0.0),
    }
}

pub struct TwoBarLinkageEquilibria;

impl System for TwoBarLinkageEquilibria {
    const NAME: &'static str = "two-bar-linkage-equilibria";
    const DOC: &'static str = "Equilibrium set of the preloaded two-bar linkage, thesis (5.12)-(5.14): F = 4kl sin θ (1 − cos θ0/cos θ) over a grid of θ in (−π/2, π/2), with y = l sin θ and q = 2l cos θ; stable = 1 where dF/dθ < 0. Info: the fold (theta_fold, F_fold: cos³θ = cos θ0), n_equilibria (sign changes of F(θ) − probe on the grid). Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("theta", "rad", "angle θ"),
        ("F", "N", "equilibrium force (5.12)"),
        ("y", "m", "y = l sin θ"),
        ("q", "m", "q = 2l cos θ"),
        ("stable", "1", "1 if stable (dF/dθ < 0), 0 if not"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let s = Linkage {
            k: p.k,
            m: 1.0,
            c: 0.0,
            m_bar: 1.0,
            l: p.l,
            theta0: p.theta0,
        };
        let th = grid(&req.input);
        if th.iter().any(|t| t.abs() >= std::f64::consts::FRAC_PI_2) {
            return Err("the θ grid must lie inside (−π/2, π/2)".into());
        }
        let f: Vec<f64> = th.iter().map(|&t| s.equilibrium_force(t)).collect();
        let n_eq = f
            .windows(2)
            .filter(|w| (w[0] - p.probe).signum() != (w[1] - p.probe).signum())
            .count();
        let (tc, fc) = s.fold();
        Ok(table(vec![
            ("theta", th.clone()),
            ("F", f),
            ("y", th.iter().map(|&t| s.y(t)).collect()),
            ("q", th.iter().map(|&t| s.q(t)).collect()),
            (
                "stable",
                th.iter().map(|&t| f64::from(u8::from(s.equilibrium_slope(t) < 0.0))).collect(),
            ),
        ])
        .with_info(&[("theta_fold", tc), ("F_fold", fc), ("n_equilibria", n_eq as f64)]))
    }
}
