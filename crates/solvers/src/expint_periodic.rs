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
/// (with `y` and `G` of the pass; `z = y + z* G` once `z*` is known). An error when a step fails
/// or the period map does not contract (`G(T) ≥ 1`).
pub fn solve_periodic<X: ExpScheme, F: Fn(f64) -> (f64, f64)>(
    scheme: &X,
    coef: &F,
    breaks: &[f64],
    tol: ExpTolerance,
    stats: &mut ExpStats,
    on_step: &mut dyn FnMut(&PeriodicStep<X::Step>),
) -> Result<Periodic, String> {
    let (mut y, mut g) = (0.0, 1.0);
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
            },
        )?;
    }
    if g.is_nan() || g.abs() >= 1.0 {
        return Err(format!(
            "no attracting periodic solution: the period map's derivative is {g:e} (at least 1 in magnitude)"
        ));
    }
    Ok(Periodic {
        z: y / (1.0 - g),
        gain: g,
        end: y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expquad::Relaxation;

    /// `z' = −k(t) z + b(t)` with `k = 1 + cos t / 2`, `b = sin t`: the periodic solution from its
    /// closed form `z*(0) = ∫_0^T e^{−(K(T) − K(s))} b(s) ds / (1 − e^{−K(T)})`, `K(t) = t + sin t / 2`,
    /// the integral by a fine composite Simpson rule; the gain is `e^{−K(T)} = e^{−2π}`.
    #[test]
    fn the_closed_form_periodic_state_of_a_scalar_equation() {
        let coef = |t: f64| (-(1.0 + 0.5 * t.cos()), t.sin());
        let tau = 2.0 * std::f64::consts::PI;
        let kk = |t: f64| t + 0.5 * t.sin();
        let n = 200_000;
        let f = |s: f64| (-(kk(tau) - kk(s))).exp() * s.sin();
        let hs = tau / n as f64;
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
        let want = simpson / (1.0 - (-kk(tau)).exp());
        let tol = ExpTolerance {
            abs: 1e-13,
            z_scale: 1.0,
            hmax: tau / 100.0,
        };
        let mut stats = ExpStats::default();
        let (mut steps, mut last) = (0, (0.0, 1.0));
        let per = solve_periodic(
            &Relaxation::<4>::new(),
            &coef,
            &[0.0, tau],
            tol,
            &mut stats,
            &mut |st| {
                steps += 1;
                last = st.at(1.0);
            },
        )
        .unwrap();
        assert!((per.gain - (-tau).exp()).abs() < 1e-12, "{per:?}");
        assert!((per.z - want).abs() < 1e-11, "{} vs {want}", per.z);
        // The last step's end is the pass's end, and z(T) = z*.
        assert_eq!(last, (per.end, per.gain));
        assert!((per.value(last) - per.z).abs() < 1e-15);
        assert_eq!(steps, stats.steps);
        // A growing equation has no attracting periodic solution.
        let grow = |t: f64| (0.1, t.sin());
        let e = solve_periodic(
            &Relaxation::<4>::new(),
            &grow,
            &[0.0, tau],
            tol,
            &mut stats,
            &mut |_| {},
        );
        assert!(e.is_err());
    }
}
