//! Approach 1 (a law driven by its velocity `v = a sin ωt`, report §5.3, L1899) by exponential
//! integration, the default of `describing-function-lugre` there (issue 51 item 1): the law's
//! single state is affine along the input ([`InputDriven::affine`]), so its periodic steady state
//! is in closed form from one pass over the period ([`solve_periodic`]: `z* = y(T)/(1 − G(T))`,
//! no shooting, no Floquet step; the period map's derivative `G(T)` is the point's multiplier).
//! The pass is the prescribed-motion driver's: the relaxation-variable scheme
//! ([`crate::drive::relaxation`]), split at the reversals (t = 0, T/2, T) and where `|v|` crosses
//! [`STRIBECK_SPLIT`] times the law's speed scale, steps capped at the period over
//! [`EXPONENTIAL_STEPS_PER_SCALE`], local error `rtol` times the law's state scale plus `atol·a`.
//!
//! The Fourier integrals `∫ F sin ωt dt` and `∫ F cos ωt dt` are taken along every accepted step
//! on its dense output by adaptive Gauss–Kronrod ([`fric_solvers::kronrod`]; a step in the
//! relaxation variable spans a reversal's whole transient, which a fixed rule would not resolve),
//! each step's integrals to `rtol/10` of the law's force scale per unit time. `F` is affine in `z`
//! (LuGre's `σ0 z + σ1 z' + σ2 v`; checked at the start), so with `z = y + z* G` the integrals are
//! those of `F(y)` plus `z*` times those of `(F(y + 1) − F(y)) G`, accumulated in the same pass.
//! The bristle bound is checked on 256 samples of the period, as the Radau path's orbit check.

use super::orbit_checks::{check_bounds, LawBounds};
use super::run::run_points;
use super::DfSetup;
use crate::drive::{relaxation, speed_splits, EXPONENTIAL_STEPS_PER_SCALE, STRIBECK_SPLIT};
use crate::{RunData, RunRequest};
use fric_models::InputDriven;
use fric_solvers::describing::{DfPoint, Orbit, ORBIT_SAMPLES};
use fric_solvers::expint::{ExpStats, ExpTolerance};
use fric_solvers::expint_periodic::solve_periodic;
use fric_solvers::kronrod::{integrate, KronrodStats};
use std::f64::consts::PI;

/// Run a DF system in approach 1 by exponential integration (see the module docs).
pub fn run<M: InputDriven + LawBounds>(setup: &DfSetup, law: &M, req: &RunRequest) -> Result<RunData, String> {
    let rtol = req.sim.rtol.unwrap_or(1e-8);
    let atol_per_a = req.sim.atol.unwrap_or(1e-13);
    run_points(setup, req, |a, w| velocity_point(law, a, w, rtol, atol_per_a))
}

/// `N(a, ω)` of `law` driven by the velocity `a sin ωt` (position `(a/ω)(1 − cos ωt)`), from its
/// periodic steady state in closed form (see the module docs).
pub fn velocity_point<M: InputDriven + LawBounds>(
    law: &M,
    a: f64,
    w: f64,
    rtol: f64,
    atol_per_a: f64,
) -> Result<DfPoint, String> {
    let period = 2.0 * PI / w;
    let pos = |t: f64| a / w * (1.0 - (w * t).cos());
    let vel = |t: f64| a * (w * t).sin();
    let err = |e: String| format!("a = {a}, ω = {w}: {e}");
    if law.dim() != 1 || law.affine(0.0, a).is_none() {
        return Err("method exponential needs a single-state law affine along the input".into());
    }
    let force = |t: f64, z: f64| law.output(pos(t), vel(t), &[z]);
    // F affine in z: its second difference vanishes (to rounding) at a point of mid-slide.
    let slope = force(period / 4.0, 1.0) - force(period / 4.0, 0.0);
    let bend = force(period / 4.0, 2.0) - 2.0 * force(period / 4.0, 1.0) + force(period / 4.0, 0.0);
    if !(bend.abs() <= 1e-12 * slope.abs().max(1.0)) {
        return Err("method exponential needs the law's output affine in its state".into());
    }
    let coef = |t: f64| {
        law.affine(pos(t), vel(t))
            .expect("checked above: affine along the input")
    };
    // The period split at the reversals and, in each half, where |v| crosses the Stribeck split.
    let mut breaks = vec![0.0];
    for (lo, hi) in [(0.0, 0.5 * period), (0.5 * period, period)] {
        if let Some(vs) = law.speed_scale() {
            speed_splits(&vel, lo, hi, STRIBECK_SPLIT * vs, &mut breaks);
        }
        breaks.push(hi);
    }
    let scale = law.state_scale();
    let tol = ExpTolerance {
        abs: rtol * scale + atol_per_a * a,
        z_scale: scale,
        hmax: period / EXPONENTIAL_STEPS_PER_SCALE,
    };
    // Per unit time: the force's part to rtol/10 of its scale, the gain's part (times z*, at most
    // about the state scale) likewise.
    let f_tol = 0.1 * rtol * (force(0.0, 1.0) - force(0.0, 0.0)).abs() * scale;
    let mut acc = [0.0; 4];
    let mut quad = KronrodStats::default();
    let samples: Vec<f64> = (0..=ORBIT_SAMPLES)
        .map(|k| k as f64 * period / ORBIT_SAMPLES as f64)
        .collect();
    let mut recorded = Vec::with_capacity(samples.len());
    let mut stats = ExpStats::default();
    let mut quad_err = None;
    let per = solve_periodic(relaxation(), &coef, &breaks, tol, &mut stats, &mut |st| {
        let h = st.t_end - st.t;
        let q = match integrate(
            &mut |th: f64| {
                let t = st.t + th * h;
                let (y, g) = st.at(th * h / st.h);
                let (s, c) = (w * t).sin_cos();
                let f0 = force(t, y);
                let sg = (force(t, y + 1.0) - f0) * g;
                [f0 * s, f0 * c, sg * s, sg * c]
            },
            [f_tol, f_tol, f_tol / scale, f_tol / scale],
            &mut quad,
        ) {
            Ok(q) => q,
            Err(e) => {
                quad_err.get_or_insert(format!("the Fourier integrals on [{}, {}] s: {e}", st.t, st.t_end));
                [f64::NAN; 4]
            }
        };
        for (sum, v) in acc.iter_mut().zip(q) {
            *sum += h * v;
        }
        while recorded.len() < samples.len() && samples[recorded.len()] <= st.t_end {
            recorded.push(st.at((samples[recorded.len()] - st.t) / st.h));
        }
    })
    .map_err(err)?;
    if let Some(e) = quad_err {
        return Err(err(e));
    }
    if quad.unresolved > 0 {
        return Err(err(format!(
            "{} interval(s) of the Fourier integrals not resolved to {f_tol:e} per second",
            quad.unresolved
        )));
    }
    let z0 = per.z;
    let z_end = per.value((per.end, per.gain));
    // As the shooting path: the output's change over the period at v = 0 (0 to rounding).
    let drift = law.output(pos(period), 0.0, &[z_end]) - law.output(0.0, 0.0, &[z0]);
    let b1 = w / PI * (acc[0] + z0 * acc[2]) + drift / PI;
    let a1 = w / PI * (acc[1] + z0 * acc[3]);
    let orbit = Orbit {
        a,
        w,
        u: samples.iter().map(|&t| vel(t)).collect(),
        x: samples
            .iter()
            .zip(&recorded)
            .map(|(&t, &yg)| vec![pos(t), per.value(yg)])
            .collect(),
        t: samples,
        works: Vec::new(),
        dim: 1,
        steps: stats.steps,
        rtol,
        atol: tol.abs,
    };
    check_bounds(&orbit, &law.bounds(), |x| x[1..].to_vec()).map_err(err)?;
    Ok(DfPoint {
        n: (b1 / a, a1 / a),
        drift,
        // Not applicable: z(T) = y(T) + z* G(T) equals z* by construction (the closed form's
        // periodicity is tested against an independent pass, tests/exponential_df.rs).
        residual: f64::NAN,
        converged: true,
        multiplier: per.gain.abs(),
        maps: 1,
        steps: stats.steps,
        rejected: stats.rejected,
        unstable_maps: 0,
        predicted_periods: 0,
        contracted: false,
        orbit_margin: f64::NAN,
        orbit_steps: 0,
    })
}
