//! The periodic solution of a scalar affine ODE `z' = a(t) z + b(t)` with `T`-periodic
//! coefficients, in closed form from one pass of an exponential scheme (issue 51, design A of
//! s56): no shooting, no iteration over periods, no Floquet step.
//!
//! Every step of an exponential scheme is affine in its start value for given coefficients
//! ([`ExpStep::gain`]), so one pass from `z = 0` over the period gives the particular solution
//! `y(t)` and the running gain `G(t)` (the product of the steps' gains, continued inside a step by
//! its dense output, [`ExpStep::at_gain`]); the solution of the same steps from any start `z(t0)`
//! is `y(t) + z(t0) G(t)`, and the periodic one starts at
//!
//! `z* = y(T)/(1 − G(T))`.
//!
//! `G(T)` is the period map's derivative: the Floquet multiplier of the scalar equation, `exp ∫a`
//! to the steps' accuracy, below 1 for a contracting model (LuGre's `a = −σ0|v|/g(v) ≤ 0`); at
//! 1 or above there is no attracting periodic solution and the pass is an error. The pass's step
//! sizes are chosen for `y` (from 0); the solution from `z*` takes the same steps, whose error
//! estimates scale with the distance from `z` to the relaxation target (`crate::expquad`), at most
//! a few times `y`'s when `|z*|` is of the state's scale, as for LuGre (tests in `fric-experiments`:
//! `z*` against shooting and period-by-period iteration, `tests/exponential_df.rs`).
//!
//! Near `G(T) = 1` (a period map that barely contracts: LuGre in pre-sliding at a tiny
//! amplitude) `y(T)`'s error is amplified by `1/(1 − G(T))`. So `1 − G(T)` is computed as
//! `−expm1(Σ ln g_i)` from the steps' log-gains ([`ExpStep::log_gain`], `−W` of a step in the
//! relaxation variable: no cancellation), `y(T)`'s error is estimated along the pass (each step's
//! local estimate and a rounding `ε|y|` of its end, carried by the later steps' gains); a pass
//! whose `z*` estimate `err/(1 − G(T))` exceeds `√(tol.abs · z_scale)` (times `|z*|/z_scale`
//! where `|z*|` exceeds the state scale: half the tolerance's digits lost) is an error, not a
//! number. Why not `tol.abs` itself: the local estimates are those of the embedded order `S − 1`
//! solution, pessimistic for the propagated one by orders of magnitude (LuGre in pre-sliding,
//! `kA = 1e-3`, rtol 1e-10: each step's estimate near `tol.abs`, the amplified estimate 1e-6 of
//! the state scale, the error of `z*` against its closed form below 1e-14 of it, test
//! `near_a_gain_of_one_the_closed_form_is_right_or_refuses` in `fric-experiments`), and a pass
//! of `N` steps sums `N` of them: at `tol.abs` the guard refused states that are right to
//! rounding (`G(T)` = 0.59 and 0.67, tried). For LuGre in sliding `G(T)` underflows and nothing
//! is amplified.
//!
//! The coefficients must be smooth between consecutive `breaks` (the span is split there, as
//! the prescribed-motion driver splits at the input's extrema and the Stribeck speed).

use crate::expint::{solve_steps, ExpScheme, ExpStats, ExpStep, ExpTolerance};

/// One accepted step of the pass ([`solve_periodic`]), for a caller that integrates along it (the
/// describing function's Fourier integrals): it spans `[t, t_end]`, `θ = (s − t)/h`.
pub struct PeriodicStep<'a, S> {
    pub t: f64,
    pub h: f64,
    pub t_end: f64,
    /// The scheme's step (its dense output is that of `y`, from the pass's start value 0).
    pub step: &'a S,
    /// `G(t)`: the gain of the pass from its start to this step's start.
    pub gain: f64,
}

impl<S: ExpStep> PeriodicStep<'_, S> {
    /// `(y, G)` at `t + θh`, `0 ≤ θ ≤ 1`: the solution from `y(t0) = 0` and the gain from `t0`.
    pub fn at(&self, theta: f64) -> (f64, f64) {
        let (y, g) = self.step.at_gain(theta);
        (y, self.gain * g)
    }
}

/// The periodic solution found by [`solve_periodic`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Periodic {
    /// `z* = z(t0) = z(t0 + T)`.
    pub z: f64,
    /// `G(T)`: the period map's derivative (its Floquet multiplier).
    pub gain: f64,
    /// `y(T)`: the pass's end value from 0 (`z* = y(T) + z* G(T)`).
    pub end: f64,
    /// The estimate of `z*`'s error: `y(T)`'s (the steps' local estimates and roundings, each
    /// carried by the later steps' gains) over `1 − G(T)`.
    pub error: f64,
}

impl Periodic {
    /// `z(t) = y(t) + z* G(t)` from a step's `(y, G)` ([`PeriodicStep::at`]).
    pub fn value(&self, (y, g): (f64, f64)) -> f64 {
        y + self.z * g
    }
}

/// The periodic solution of `z' = a(t) z + b(t)` over the period `[breaks[0], breaks[n]]`
/// (`coef(t) = (a, b)` smooth between consecutive breaks, ascending), by one error-controlled pass
/// of `scheme` from `z = 0` (see the module docs); each accepted step is handed to `on_step`
/// (with `y` and `G` of the pass; `z = y + z* G` once `z*` is known). An error when a step fails,
/// the period map does not contract (`G(T) ≥ 1`) or `z*`'s amplified error estimate exceeds the
/// tolerance (see the module docs).
pub fn solve_periodic<X: ExpScheme, F: Fn(f64) -> (f64, f64)>(
    scheme: &X,
    coef: &F,
    breaks: &[f64],
    tol: ExpTolerance,
    stats: &mut ExpStats,
    on_step: &mut dyn FnMut(&PeriodicStep<X::Step>),
) -> Result<Periodic, String> {
    // y and G (the running product: each step is handed G at its start); ln G summed (for
    // 1 − G(T) without cancellation, which the product cannot give); y's error: the local
    // estimates and a rounding of each step's end, carried by the later steps' gains.
    let (mut y, mut g, mut log_g, mut err, mut steps) = (0.0, 1.0, 0.0, 0.0, 0usize);
    for p in breaks.windows(2) {
        y = solve_steps(
            scheme,
            coef,
            (p[0], y, p[1]),
            tol,
            &|_| f64::INFINITY,
            stats,
            &mut |t, h, t_end, st| {
                on_step(&PeriodicStep {
                    t,
                    h,
                    t_end,
                    step: st,
                    gain: g,
                });
                g *= st.gain();
                log_g += st.log_gain();
                err = err * st.gain().abs() + st.error() + f64::EPSILON * st.end().abs();
                steps += 1;
            },
        )?;
    }
    // 1 − G without cancellation (G = e^{Σ ln g_i}); not positive: G ≥ 1 or NaN.
    let one_minus_g = -log_g.exp_m1();
    if one_minus_g.is_nan() || one_minus_g <= 0.0 {
        return Err(format!(
            "no attracting periodic solution: the period map's derivative is {g:e} (at least 1 in magnitude)"
        ));
    }
    let z = y / one_minus_g;
    // Refused where the amplified estimate has lost half the tolerance's digits (module docs).
    let amplified = err / one_minus_g;
    let allowed = (tol.abs * tol.z_scale).sqrt() * (z.abs() / tol.z_scale).max(1.0);
    if amplified.is_nan() || amplified > allowed {
        return Err(format!(
            "the periodic state z* = y(T)/(1 − G(T)) = {z:e} is not determined: the period map barely \
             contracts (1 − G(T) = {one_minus_g:e}), and y(T)'s error estimate {err:e} ({steps} steps) over \
             it is {amplified:e}, above {allowed:e} (√(local tolerance × state scale), relative where |z*| \
             exceeds the state scale)"
        ));
    }
    Ok(Periodic {
        z,
        gain: g,
        end: y,
        error: amplified,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expquad::Relaxation;

    const TAU: f64 = 2.0 * std::f64::consts::PI;
    const TOL: ExpTolerance = ExpTolerance {
        abs: 1e-13,
        z_scale: 1.0,
        hmax: TAU / 100.0,
    };

    /// One pass over `[0, 2π]` at [`TOL`] by the 4-node relaxation scheme.
    fn over_period(coef: &impl Fn(f64) -> (f64, f64), stats: &mut ExpStats) -> Result<Periodic, String> {
        solve_periodic(&Relaxation::<4>::new(), coef, &[0.0, TAU], TOL, stats, &mut |_| {})
    }

    /// `z' = −k(t) z + b(t)` with `k = 1 + cos t / 2`, `b = sin t`: the periodic solution from its
    /// closed form `z*(0) = ∫_0^T e^{−(K(T) − K(s))} b(s) ds / (1 − e^{−K(T)})`, `K(t) = t + sin t / 2`,
    /// the integral by a fine composite Simpson rule; the gain is `e^{−K(T)} = e^{−2π}`.
    #[test]
    fn the_closed_form_periodic_state_of_a_scalar_equation() {
        let coef = |t: f64| (-(1.0 + 0.5 * t.cos()), t.sin());
        let kk = |t: f64| t + 0.5 * t.sin();
        let n = 200_000;
        let f = |s: f64| (-(kk(TAU) - kk(s))).exp() * s.sin();
        let hs = TAU / n as f64;
        let simpson: f64 = (0..=n)
            .map(|i| {
                let w = if i == 0 || i == n {
                    1.0
                } else if i % 2 == 1 {
                    4.0
                } else {
                    2.0
                };
                w * f(i as f64 * hs)
            })
            .sum::<f64>()
            * hs
            / 3.0;
        let want = simpson / (1.0 - (-kk(TAU)).exp());
        let mut stats = ExpStats::default();
        let (mut steps, mut last) = (0, (0.0, 1.0));
        let per = solve_periodic(
            &Relaxation::<4>::new(),
            &coef,
            &[0.0, TAU],
            TOL,
            &mut stats,
            &mut |st| {
                steps += 1;
                last = st.at(1.0);
            },
        )
        .unwrap();
        assert!((per.gain - (-TAU).exp()).abs() < 1e-12, "{per:?}");
        assert!((per.z - want).abs() < 1e-11, "{} vs {want}", per.z);
        // The last step's end is the pass's end, and z(T) = z*.
        assert_eq!(last, (per.end, per.gain));
        assert!((per.value(last) - per.z).abs() < 1e-15);
        assert_eq!(steps, stats.steps);
        // A growing equation has no attracting periodic solution.
        let grow = |t: f64| (0.1, t.sin());
        assert!(over_period(&grow, &mut stats).is_err());
    }

    /// Near `G(T) = 1`: `z' = −ε (z − 1)`, `ε` from 1e-6 down to 1e-15 (`1 − G(T) = 1 −
    /// e^{−2πε}`, to 6e-15): `β = 1` on every step (the scheme exact), `z* = 1`, computed to 1e-13
    /// at every `ε` (from the product of the gains, as before the log-gains, `1 − G(T)` cancelled:
    /// `z*` off by 6.8e-10 already at ε = 1e-6, tried). `z' = −k z + sin t`, `k = 1e-6 (1 + cos t /
    /// 2)`: `y` of order 1 along the pass, its error estimate over `1 − G(T) = 6e-6` is 3.6e-5,
    /// above √(1e-13): refused.
    #[test]
    fn near_a_gain_of_one_the_state_is_computed_or_refused() {
        let mut stats = ExpStats::default();
        for eps in [1e-6, 1e-9, 1e-12, 1e-15] {
            let coef = |_: f64| (-eps, eps);
            let per = over_period(&coef, &mut stats).unwrap_or_else(|e| panic!("ε = {eps:e}: {e}"));
            eprintln!(
                "ε = {eps:e}: z* − 1 = {:e}, error estimate {:e}",
                per.z - 1.0,
                per.error
            );
            assert!((per.z - 1.0).abs() <= 1e-13, "ε = {eps:e}: z* = {}", per.z);
        }
        let k = |t: f64| 1e-6 * (1.0 + 0.5 * t.cos());
        let coef = |t: f64| (-k(t), t.sin());
        let e = over_period(&coef, &mut stats).expect_err("y's error over 1 − G = 6e-6");
        eprintln!("{e}");
        assert!(e.contains("is not determined"), "{e}");
    }
}
