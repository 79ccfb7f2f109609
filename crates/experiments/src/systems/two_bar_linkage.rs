//! `two-bar-linkage`: the preloaded two-bar linkage driven by a vertical force, thesis (5.16).

use crate::drive::driven;
use crate::input::signal;
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
    const DOC: &'static str = "Preloaded two-bar linkage, thesis (5.16) with input u = F (N): M(θ)θ'' + A sinθ cosθ θ'² + 2kl²(cos θ0 − cos θ) sin θ + 2cl² sin²θ θ' = −(l cos θ/2) F; outputs y = l sin θ, q = 2l cos θ (5.15). Info, over the last input period of the record: loop_area_y = ∮ y dF, loops of the (F, q) map (q_loop_pos, q_loop_neg: the largest positive and negative loop areas, q_net_area: their sum over all loops, q_loops: loops larger than 1e-3 of the largest, q_wings: larger than 1/10 of the largest), E_diss (dashpot energy ∫ c q'² dt over the record), F at the snap-throughs (F_snap_down, F_snap_up: F where y crosses 0 downwards and upwards; absent without a crossing). Invariants: none declared; the thesis states no bound or sign rule for the linkage (5.16).";
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
    ];
    const METHODS: crate::methods::Methods = &[&crate::methods::DOPRI5, &crate::methods::DOP853];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let s = Linkage {
            k: p.k,
            m: p.m,
            c: p.c,
            m_bar: p.m_bar,
            l: p.l,
            theta0: p.theta0,
        };
        let cols = ["theta", "y", "q", "E", "eq_residual"];
        let data = driven(req, &signal(req)?, &s, vec![p.th0, p.dth0, 0.0], &cols, |f, _, x, out| {
            out[0] = x[0];
            out[1] = s.y(x[0]);
            out[2] = s.q(x[0]);
            out[3] = x[2];
            out[4] = (f - s.equilibrium_force(x[0])).abs();
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
