//! Quadrature outputs ([`crate::OdeSystem::n_quadratures`]): integrals `∫ q(t, x(t)) dt` of
//! integrands the system names (the work of a force, `∫ F v dt`), carried beside the state but
//! **outside** it, so that error control, step-size selection, stiffness detection and Newton
//! iterations never see them and the step sequence is bit for bit that of the same system without
//! them.
//!
//! **Choice: Gauss–Legendre on the dense output, not extra states.** Extra states kept out of the
//! error norm would still enter Radau IIA's Newton matrices (their LU pivoting) and the
//! stiffness detector's power iteration of `Dop853Radau5`, both of which mix components, so the
//! step sequences of the implicit and switched methods would change. Integrating the dense
//! output does not touch the stepper: after every accepted step `[t, t + h]` (cut at a terminal
//! event) the five-point Gauss–Legendre rule (exact for polynomials of degree 9) is applied to
//! `q(t, x̃(t))` with `x̃` the method's continuous extension (degree 4 for Dopri5, 7 for DOP853,
//! the collocation polynomial for Radau IIA). The integrand is smooth inside a step (every
//! discontinuity of a hybrid system is a located event, hence a step end), so the rule's own
//! error, `O(h^11 q⁽¹⁰⁾)`, is below the interpolant's, and the integral's error is that of
//! the dense output (`≤` the local error scale `atol + rtol |x|` per component and step, times
//! `h` and the integrand's sensitivity). **Why five points, measured:** the three-point rule
//! (degree 5) was used first; on DOP853's long steps (29–35 steps over the 2.1 s period of
//! report Fig 5.21's classical orbit at a = 0.380869 N·m, ω = 3) its own error dominated: the
//! orbit's energy balance missed by 3.4e-8 J at rtol 1e-9 (ratio 1.45 to the derived bound) and
//! 5.9e-9 J at rtol 1e-10 (ratio 2.43), falling only as `h⁷` (steps shrink as tol^(1/8)), while
//! with five points it misses by 6.6e-11 and 3.4e-12 J (ratios 0.09 and 0.07;
//! `fric-experiments` test `the_classical_orbit_balances_within_its_bound`). Costs one
//! dense-output preparation per step (3 right-hand sides for DOP853, none for Dopri5) and five
//! integrand evaluations per step and per save time inside a step.

use super::Stepper;
use crate::OdeSystem;

/// Five-point Gauss–Legendre nodes on `[0, 1]`: `1/2 ∓ √(5 + 2√(10/7))/6`, `1/2 ∓ √(5 − 2√(10/7))/6`, `1/2`.
const NODES: [f64; 5] = [
    0.5 - 0.453_089_922_969_332,
    0.5 - 0.269_234_655_052_841_55,
    0.5,
    0.5 + 0.269_234_655_052_841_55,
    0.5 + 0.453_089_922_969_332,
];
/// Their weights on `[0, 1]`: `(322 − 13√70)/1800`, `(322 + 13√70)/1800`, `64/225`.
const WEIGHTS: [f64; 5] = [
    0.118_463_442_528_094_54,
    0.239_314_335_249_683_24,
    0.284_444_444_444_444_44,
    0.239_314_335_249_683_24,
    0.118_463_442_528_094_54,
];

/// The running integrals of one integration and its buffers.
#[derive(Default)]
pub(super) struct Quadrature {
    /// `∫` from the integration's start to the start of the current step.
    pub(super) acc: Vec<f64>,
    /// The integrands at one node.
    q: Vec<f64>,
    /// The dense output at one node.
    xd: Vec<f64>,
    /// The state and the integrals up to a save time, as passed to the observer.
    pub(super) xq: Vec<f64>,
}

impl Quadrature {
    /// Zero integrals for `nq` integrands of a system of dimension `n`. Without integrands
    /// nothing is allocated (the driver then passes the state to the observer directly), so a
    /// reused integrator still allocates only its outcome per restart.
    pub(super) fn new(n: usize, nq: usize) -> Self {
        if nq == 0 {
            return Self::default();
        }
        Self {
            acc: vec![0.0; nq],
            q: vec![0.0; nq],
            xd: vec![0.0; n],
            xq: Vec::with_capacity(n + nq),
        }
    }

    /// `∫` of the integrands over the fractions `[0, th]` of the accepted step `(t, h)` (dense
    /// output prepared), added to `sum`.
    fn step_integral<S: OdeSystem, M: Stepper>(&mut self, sys: &S, st: &M, t: f64, h: f64, th: f64, sum: &mut [f64]) {
        let w = th * h;
        for (node, weight) in NODES.iter().zip(WEIGHTS) {
            let f = node * th;
            st.dense(f, &mut self.xd);
            sys.integrands(t + f * h, &self.xd, &mut self.q);
            for (s, q) in sum.iter_mut().zip(&self.q) {
                *s += weight * w * q;
            }
        }
    }

    /// Fill [`Quadrature::xq`] with `x` and the integrals up to fraction `th` of the step.
    pub(super) fn at<S: OdeSystem, M: Stepper>(&mut self, sys: &S, st: &M, t: f64, h: f64, th: f64, x: &[f64]) {
        let mut sum = std::mem::take(&mut self.xq);
        sum.clear();
        sum.extend_from_slice(&self.acc);
        if th > 0.0 {
            self.step_integral(sys, st, t, h, th, &mut sum);
        }
        sum.splice(0..0, x.iter().copied());
        self.xq = sum;
    }

    /// Add the integral over the fractions `[0, th]` of the step to the running integrals.
    pub(super) fn advance<S: OdeSystem, M: Stepper>(&mut self, sys: &S, st: &M, t: f64, h: f64, th: f64) {
        let mut acc = std::mem::take(&mut self.acc);
        self.step_integral(sys, st, t, h, th, &mut acc);
        self.acc = acc;
    }
}

#[cfg(test)]
mod tests {
    use crate::{solve, Method, OdeSystem, Tolerances};

    /// `x'' = −x`, optionally with the quadrature output `∫ x² dt`.
    struct Spring(bool);
    impl OdeSystem for Spring {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
            dx[0] = x[1];
            dx[1] = -x[0];
        }
        fn n_quadratures(&self) -> usize {
            usize::from(self.0)
        }
        fn integrands(&self, _t: f64, x: &[f64], q: &mut [f64]) {
            q[0] = x[0] * x[0];
        }
    }

    /// With every method: the states at the save times and the accepted and rejected steps are
    /// bit for bit those without the quadrature, and `∫₀ᵗ cos² = t/2 + sin 2t / 4` holds at
    /// every save time to the tolerance's order.
    #[test]
    fn quadrature_leaves_the_steps_alone_and_integrates() {
        let tol = Tolerances {
            rtol: 1e-10,
            atol: 1e-12,
            ..Default::default()
        };
        let save: Vec<f64> = (0..=40).map(|i| i as f64 * 0.25).collect();
        let exact = |t: f64| t / 2.0 + (2.0 * t).sin() / 4.0;
        for method in [
            Method::Dopri5,
            Method::Dop853,
            Method::Radau5,
            Method::Rosenbrock23,
            Method::Dop853Radau5,
        ] {
            let run = |q: bool| {
                let mut out = Vec::new();
                let o = solve(&Spring(q), method, &tol, 0.0, &[1.0, 0.0], 10.0, &save, &mut |t, x| {
                    out.push((t, x.to_vec()))
                })
                .unwrap();
                (o, out)
            };
            let ((plain, a), (with, b)) = (run(false), run(true));
            assert_eq!(
                (plain.stats.accepted, plain.stats.rejected),
                (with.stats.accepted, with.stats.rejected),
                "{method:?}"
            );
            assert_eq!(plain.x, with.x, "{method:?}");
            let worst = a
                .iter()
                .zip(&b)
                .map(|((ta, xa), (tb, xb))| {
                    assert_eq!((ta, &xa[..]), (tb, &xb[..2]), "{method:?}");
                    (xb[2] - exact(*tb)).abs()
                })
                .fold(0.0, f64::max);
            let bound = if method == Method::Rosenbrock23 { 1e-5 } else { 1e-8 };
            assert!(worst < bound, "{method:?}: |∫ x² − exact| up to {worst:e}");
            assert!(
                (with.quadrature[0] - exact(10.0)).abs() < bound,
                "{method:?}: {:?}",
                with.quadrature
            );
        }
    }
}
