//! `lugre-lyapunov`: the level set `V̇ = 0` of a mass with LuGre friction and the set R of
//! Property 3.4, report §3.6 (3.21)–(3.25), (3.16) and Fig 3.7, on a grid of velocities.

use crate::input::{grid, table};
use crate::laws::ReportLuGre;
use crate::system::{invalid, params, positive, Column, Group, System, GRID, ROTARY};
use crate::{Invalid, RunData, RunRequest};
use fric_solvers::roots::{bisect, Side};
use std::convert::Infallible;

params! {
    pub struct Params {
        law: ReportLuGre = Group(ROTARY),
        z_extent: f64 = positive("rad", "half-length of the drawn branch v = 0 of the level set").default(0.005),
    }
}

pub struct LuGreLyapunov;

impl System for LuGreLyapunov {
    const NAME: &'static str = "lugre-lyapunov";
    const DOC: &'static str = "Level set dV/dt = 0 of a mass with symmetric LuGre friction and no input, report (3.21)-(3.25): the roots z+ >= z- of (3.23) at each grid velocity (NaN where (3.24) fails; mirrored for v < 0), the branch v = 0 (drawn over |z| <= z_extent) and the bound (alpha0 + alpha1)/sigma0 of the set R (3.16). Info: v_min of (3.24), z at v_min, the asymptote alpha0/sigma0 (1 + alpha2/sigma1) of z-, the speed where z- enters R, the R bound. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("v", "rad/s", "velocity"),
        ("z_plus", "rad", "upper root z+ of (3.23) (NaN without real roots)"),
        ("z_minus", "rad", "lower root z- of (3.23), from (3.25)"),
        ("r_upper", "rad", "(alpha0 + alpha1)/sigma0, the upper edge of R"),
        ("r_lower", "rad", "-(alpha0 + alpha1)/sigma0"),
        ("axis_v", "rad/s", "0: the branch v = 0 of the level set"),
        ("axis_z", "rad", "z along the branch v = 0, over [-z_extent, z_extent]"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.law.alpha0_plus > 0.0 {
            errs.push(invalid(
                "alpha0_plus",
                "the level set (3.23) is derived for the symmetric model",
                "alpha0_plus: 0 (symmetric LuGre)",
            ));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.law.model().plus;
        let mut v = grid(&req.input);
        // Add ±v_min, where z₊ = z₋, so the two roots join on the drawn curve.
        if let Some(vm) = m.lyapunov_v_min() {
            for x in [-vm, vm] {
                let (lo, hi) = (v.first().copied().unwrap_or(0.0), v.last().copied().unwrap_or(0.0));
                if x > lo && x < hi {
                    let i = v.partition_point(|&y| y < x);
                    v.insert(i, x);
                }
            }
        }
        let roots: Vec<Option<(f64, f64)>> = v.iter().map(|&v| m.lyapunov_roots(v)).collect();
        let r = m.fs / m.sigma0;
        let n = v.len();
        let (lo, hi) = (v.first().copied().unwrap_or(0.0), v.last().copied().unwrap_or(0.0));
        let axis_z = v
            .iter()
            .map(|&x| if hi > lo { p.z_extent * (2.0 * (x - lo) / (hi - lo) - 1.0) } else { 0.0 })
            .collect();
        let mut d = table(vec![
            ("v", v.clone()),
            ("z_plus", roots.iter().map(|x| x.map_or(f64::NAN, |x| x.0)).collect()),
            ("z_minus", roots.iter().map(|x| x.map_or(f64::NAN, |x| x.1)).collect()),
            ("r_upper", vec![r; n]),
            ("r_lower", vec![-r; n]),
            ("axis_v", vec![0.0; n]),
            ("axis_z", axis_z),
        ]);
        d.info.insert("r_bound".into(), r);
        d.info
            .insert("z_minus_limit".into(), m.fc / m.sigma0 * (1.0 + m.sigma2 / m.sigma1.max(f64::MIN_POSITIVE)));
        if let Some(vm) = m.lyapunov_v_min() {
            d.info.insert("v_min".into(), vm);
            d.info.insert("z_at_v_min".into(), m.sigma1 * vm / (2.0 * m.sigma0));
            // z₋ falls from σ1 v_min/(2σ0) toward its asymptote; where it crosses the edge of R.
            let below = |v: f64| m.lyapunov_roots(v).is_some_and(|x| x.1 < r);
            let (a, mut b) = (vm * (1.0 + 1e-12), vm);
            while !below(b) && b < 1e6 * vm {
                b *= 2.0;
            }
            if below(b) && !below(a) {
                // Bisected to rounding between `a` and `b`, `below` on `b`'s side (`b` is
                // `v_min`, below `a`, when z₋ starts below the edge).
                let side = |v: f64| Ok::<_, Infallible>(if below(v) == (a < b) { Side::Hi } else { Side::Lo });
                let Ok((lo, hi)) = bisect(side, a.min(b), a.max(b), 0.0, usize::MAX);
                d.info.insert("v_enter_r".into(), 0.5 * (lo + hi));
            }
        }
        Ok(d)
    }
}
