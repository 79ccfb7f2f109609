//! Bounded nonlinear least squares for `fit`: minimise `½ Σ r_i(p)²` over `p` in a box by the
//! maintained `levenberg-marquardt` crate (a port of MINPACK's `lmder`: Levenberg–Marquardt as a
//! trust region with Moré's diagonal scaling), a forward-difference Jacobian, each evaluation of
//! the residuals a caller-supplied function (in a manifest, one run per fitted run).
//!
//! What the crate does not have and this module adds: **bounds** — every evaluation is at the
//! projection of the crate's parameters onto the box, the Jacobian handed to the crate is that
//! of the projected problem (a parameter beyond its bound, or on it with the descent pointing
//! outwards, has a zero column: the active set), a derivative is taken towards the inside of
//! the box (a step is at most half the box, so one side always has room), and a round that ends
//! with a parameter on a bound while the cost falls inwards restarts from the projected point
//! ([`ROUNDS`]); a **budget** that counts the Jacobian's runs too; a **stall test** (review
//! N3): a stop after trial points that did not lower the cost is a fit only when the
//! Gauss–Newton step there is below the tolerance or predicted to lower the cost by at most
//! `tol × cost` ([`at_minimum`]); and the **covariance**.
//!
//! The iteration is serial and deterministic (the crate has no threads or randomness): the same
//! start, bounds and settings take the same steps whatever the job count. A residual that is not
//! finite, a parameter the residuals do not depend on, a budget spent before convergence, or a
//! stall is an error (the caller adds the manifest's file and line). A parameter that ends on a
//! bound has no standard error: `s² (JᵀJ)⁻¹` assumes an interior minimum.

use std::cell::{Cell, RefCell};

use levenberg_marquardt::{LeastSquaresProblem, LevenbergMarquardt, TerminationReason};
use nalgebra::{storage::Owned, DMatrix, DVector, Dyn};

use crate::lsq_algebra::{at_minimum, covariance, normal, small, sum_sq};

/// The settings of one fit: per parameter its start, bounds and forward-difference step.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub start: Vec<f64>,
    pub lower: Vec<f64>,
    pub upper: Vec<f64>,
    pub step: Vec<f64>,
    /// Converged when every step is below `tol (|p| + tol)` or the cost falls by less than
    /// `tol²` of itself.
    pub tol: f64,
    pub max_evaluations: usize,
}

/// What [`fit`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub params: Vec<f64>,
    /// The residuals at `params`.
    pub residuals: Vec<f64>,
    /// `√Σ r_i²` at `params`.
    pub norm: f64,
    /// `s² (JᵀJ)⁻¹` over the parameters not on a bound, with `s² = Σ r_i² / (m − n)`, or why
    /// there is none (m ≤ n, JᵀJ singular, every parameter on a bound). The rows and columns of
    /// a parameter on a bound are NaN: see [`Fitted::on_bound`].
    pub covariance: Result<Vec<Vec<f64>>, String>,
    /// Per parameter, whether it ended on one of its bounds (no uncertainty is valid there).
    pub on_bound: Vec<bool>,
    pub evaluations: usize,
    pub iterations: usize,
}

/// Check the settings: as many starts as bounds and steps, each start inside finite bounds
/// `lo < hi`, positive steps and tolerance, a budget.
fn validate(p: &Problem) -> Result<(), String> {
    let n = p.start.len();
    if n == 0 || p.lower.len() != n || p.upper.len() != n || p.step.len() != n {
        return Err("a fit needs at least one parameter, each with a start, bounds and a step".into());
    }
    for j in 0..n {
        let (lo, hi, x, h) = (p.lower[j], p.upper[j], p.start[j], p.step[j]);
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(format!(
                "parameter {j}: bounds [{lo}, {hi}] must be finite with lo < hi"
            ));
        }
        if !(lo <= x && x <= hi) {
            return Err(format!("parameter {j}: start {x} outside its bounds [{lo}, {hi}]"));
        }
        if !(h > 0.0 && h <= 0.5 * (hi - lo)) {
            return Err(format!(
                "parameter {j}: step {h} must be positive and at most half of hi − lo"
            ));
        }
    }
    if !(p.tol > 0.0 && p.tol.is_finite()) {
        return Err(format!("tol {}: a positive finite number", p.tol));
    }
    if p.max_evaluations < n + 2 {
        return Err(format!("max_evaluations {}: at least {}", p.max_evaluations, n + 2));
    }
    Ok(())
}

/// The residuals and their count, counted against the budget; an error when one is not finite.
struct Counted<F> {
    f: F,
    evaluations: usize,
    max: usize,
    m: Option<usize>,
}

impl<F: FnMut(&[f64]) -> Result<Vec<f64>, String>> Counted<F> {
    fn eval(&mut self, p: &[f64]) -> Result<Vec<f64>, String> {
        if self.evaluations >= self.max {
            return Err(format!(
                "no convergence within {} evaluations (last parameters {p:?})",
                self.max
            ));
        }
        self.evaluations += 1;
        let r = (self.f)(p)?;
        if let Some(bad) = r.iter().find(|x| !x.is_finite()) {
            return Err(format!("a residual is {bad} at {p:?}: a fit needs finite values"));
        }
        match self.m {
            Some(m) if m != r.len() => {
                return Err(format!("{} residuals at {p:?}, {m} before", r.len()));
            }
            _ => self.m = Some(r.len()),
        }
        Ok(r)
    }
}

/// The forward-difference Jacobian `J[i][j] = ∂r_i/∂p_j` at `p` (residuals `r`), each step
/// taken towards the inside of the bounds.
fn jacobian<F: FnMut(&[f64]) -> Result<Vec<f64>, String>>(
    c: &mut Counted<F>,
    pr: &Problem,
    p: &[f64],
    r: &[f64],
) -> Result<Vec<Vec<f64>>, String> {
    let mut jac = vec![vec![0.0; p.len()]; r.len()];
    for j in 0..p.len() {
        // `validate` keeps the step within half the box, so one side has room.
        let h = if p[j] + pr.step[j] <= pr.upper[j] {
            pr.step[j]
        } else {
            -pr.step[j]
        };
        debug_assert!(p[j] + h >= pr.lower[j] && p[j] + h <= pr.upper[j]);
        let mut q = p.to_vec();
        q[j] += h;
        let rq = c.eval(&q)?;
        for i in 0..r.len() {
            jac[i][j] = (rq[i] - r[i]) / h;
        }
    }
    Ok(jac)
}

/// Per parameter, whether it sits on its lower or upper bound.
fn bound_flags(pr: &Problem, p: &[f64]) -> Vec<bool> {
    (0..p.len())
        .map(|j| p[j] == pr.lower[j] || p[j] == pr.upper[j])
        .collect()
}

/// A parameter none of the residuals depends on (a zero column of J) cannot be fitted.
fn check_columns(jac: &[Vec<f64>], p: &[f64]) -> Result<(), String> {
    for j in 0..p.len() {
        if jac.iter().all(|row| row[j] == 0.0) {
            return Err(format!(
                "parameter {j} (at {}) changes no residual: it cannot be fitted by these targets",
                p[j]
            ));
        }
    }
    Ok(())
}

/// Per parameter on a bound, whether the cost falls towards the inside (`−g_j` pointing inwards,
/// `g = Jᵀr` with the inward one-sided `J`): such a parameter must not stay on its bound.
fn pulled_inwards(pr: &Problem, p: &[f64], jac: &[Vec<f64>], r: &[f64]) -> Vec<bool> {
    let (_, g) = normal(jac, r);
    (0..p.len())
        .map(|j| (p[j] == pr.lower[j] && g[j] < 0.0) || (p[j] == pr.upper[j] && g[j] > 0.0))
        .collect()
}

/// The accepted point of the optimizer (where it last asked for the Jacobian): the point, its
/// residuals and the one-sided Jacobian there.
type Accepted = (Vec<f64>, Vec<f64>, Vec<Vec<f64>>);

/// The problem as the `levenberg-marquardt` crate sees it. The crate's parameters `θ` are
/// unconstrained; every evaluation is at their projection `clamp(θ)` onto the bounds, so no run
/// is ever made outside the box. The Jacobian handed to the crate is that of `r ∘ clamp`: a
/// column is zero for a parameter beyond its bound, and for one on its bound whose descent
/// points outwards (the active set), so the crate moves only the free parameters.
struct Bounded<'a, F> {
    pr: &'a Problem,
    counted: RefCell<Counted<F>>,
    theta: DVector<f64>,
    /// The last point evaluated by `residuals` and its residuals (a trial projected onto the
    /// point already evaluated costs no run).
    last: RefCell<Option<(Vec<f64>, Vec<f64>)>>,
    accepted: RefCell<Option<Accepted>>,
    /// Jacobians over all rounds (each follows an accepted step or a round's start).
    jacobians: Cell<usize>,
    /// Trial points since the last Jacobian.
    trials: Cell<usize>,
    /// The first error of an evaluation (budget, a non-finite residual, a failed run).
    failure: RefCell<Option<String>>,
    /// Our own stop: a trial within the tolerance of the accepted point that did not lower the
    /// cost, judged by [`at_minimum`].
    stop: RefCell<Option<Result<(), String>>>,
}

impl<F: FnMut(&[f64]) -> Result<Vec<f64>, String>> Bounded<'_, F> {
    fn point(&self) -> Vec<f64> {
        (0..self.pr.start.len())
            .map(|j| self.theta[j].clamp(self.pr.lower[j], self.pr.upper[j]))
            .collect()
    }

    fn fail(&self, e: String) {
        self.failure.borrow_mut().get_or_insert(e);
    }

    fn eval(&self, p: &[f64]) -> Option<Vec<f64>> {
        if let Some((q, r)) = &*self.last.borrow() {
            if q == p {
                return Some(r.clone());
            }
        }
        let r = self.counted.borrow_mut().eval(p).map_err(|e| self.fail(e)).ok()?;
        *self.last.borrow_mut() = Some((p.to_vec(), r.clone()));
        Some(r)
    }
}

impl<F: FnMut(&[f64]) -> Result<Vec<f64>, String>> LeastSquaresProblem<f64, Dyn, Dyn> for Bounded<'_, F> {
    type ResidualStorage = Owned<f64, Dyn>;
    type JacobianStorage = Owned<f64, Dyn, Dyn>;
    type ParameterStorage = Owned<f64, Dyn>;

    fn set_params(&mut self, x: &DVector<f64>) {
        self.theta.copy_from(x);
    }

    fn params(&self) -> DVector<f64> {
        self.theta.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        let p = self.point();
        let r = self.eval(&p)?;
        self.trials.set(self.trials.get() + 1);
        if let Some((q, rq, jac)) = &*self.accepted.borrow() {
            let (cost, cq) = (sum_sq(&r), sum_sq(rq));
            if &p != q && cost >= cq && small(q, &p, self.pr.tol) {
                *self.stop.borrow_mut() = Some(at_minimum(self.pr, q, jac, rq, cq));
                return None;
            }
        }
        Some(DVector::from_vec(r))
    }

    fn jacobian(&self) -> Option<DMatrix<f64>> {
        let p = self.point();
        let r = self.eval(&p)?;
        let raw = jacobian(&mut self.counted.borrow_mut(), self.pr, &p, &r)
            .map_err(|e| self.fail(e))
            .ok()?;
        if self.jacobians.get() == 0 {
            check_columns(&raw, &p).map_err(|e| self.fail(e)).ok()?;
        }
        let (_, g) = normal(&raw, &r);
        let held: Vec<bool> = (0..p.len())
            .map(|j| {
                let (lo, hi) = (self.pr.lower[j], self.pr.upper[j]);
                let t = self.theta[j];
                t < lo || t > hi || (t == lo && g[j] > 0.0) || (t == hi && g[j] < 0.0)
            })
            .collect();
        let jm = DMatrix::from_fn(r.len(), p.len(), |i, j| if held[j] { 0.0 } else { raw[i][j] });
        *self.accepted.borrow_mut() = Some((p, r, raw));
        self.jacobians.set(self.jacobians.get() + 1);
        self.trials.set(0);
        Some(jm)
    }
}

/// Rounds of the optimizer: a round that ends with a parameter on its bound while the cost falls
/// inwards (it went past the bound while another parameter still moved) restarts from the
/// projected point.
const ROUNDS: usize = 4;

/// Fit `residuals(p)` to zero in the least-squares sense within the problem's bounds, by the
/// `levenberg-marquardt` crate (MINPACK's `lmder`: a trust region with Moré's scaling) on the
/// projected problem of [`Bounded`].
pub fn fit(residuals: impl FnMut(&[f64]) -> Result<Vec<f64>, String>, pr: &Problem) -> Result<Fitted, String> {
    validate(pr)?;
    let lm = LevenbergMarquardt::new()
        .with_xtol(pr.tol)
        .with_ftol(pr.tol * pr.tol)
        // Our budget (which counts the Jacobian's runs as well) ends the fit first.
        .with_patience(pr.max_evaluations);
    let mut problem = Bounded {
        pr,
        counted: RefCell::new(Counted {
            f: residuals,
            evaluations: 0,
            max: pr.max_evaluations,
            m: None,
        }),
        theta: DVector::from_column_slice(&pr.start),
        last: RefCell::new(None),
        accepted: RefCell::new(None),
        jacobians: Cell::new(0),
        trials: Cell::new(0),
        failure: RefCell::new(None),
        stop: RefCell::new(None),
    };
    let mut round = 0;
    loop {
        let (done, report) = lm.minimize(problem);
        problem = done;
        if let Some(e) = problem.failure.take() {
            return Err(e);
        }
        let stopped = problem.stop.take();
        let accepted = problem.accepted.take();
        let (p, r, jac) = match (stopped, accepted) {
            (Some(verdict), Some((q, rq, jac))) => {
                verdict?;
                problem.theta = DVector::from_column_slice(&q);
                (q, rq, jac)
            }
            (_, accepted) => {
                match report.termination {
                    TerminationReason::ResidualsZero
                    | TerminationReason::Orthogonal
                    | TerminationReason::Converged { .. }
                    | TerminationReason::NoImprovementPossible(_) => {}
                    TerminationReason::LostPatience => {
                        return Err(format!("no convergence within {} evaluations", pr.max_evaluations));
                    }
                    other => return Err(format!("the optimizer stopped: {other:?}")),
                }
                let p = problem.point();
                let r = problem
                    .eval(&p)
                    .ok_or_else(|| problem.failure.take().unwrap_or_default())?;
                let moved = accepted.as_ref().is_none_or(|(q, _, _)| q != &p);
                let rejected = problem.trials.get().saturating_sub(usize::from(moved));
                let jac = match accepted {
                    Some((q, _, jac)) if q == p => jac,
                    _ => jacobian(&mut problem.counted.borrow_mut(), pr, &p, &r)?,
                };
                if report.termination != TerminationReason::ResidualsZero
                    && report.termination != TerminationReason::Orthogonal
                    && rejected > 0
                {
                    at_minimum(pr, &p, &jac, &r, sum_sq(&r))?;
                }
                (p, r, jac)
            }
        };
        let inwards = pulled_inwards(pr, &p, &jac, &r);
        if !inwards.contains(&true) || round + 1 == ROUNDS {
            if let Some(j) = inwards.iter().position(|&x| x) {
                return Err(format!(
                    "parameter {j} ends on its bound at {} though the cost falls inwards, after \
                     {ROUNDS} rounds of the optimizer",
                    p[j]
                ));
            }
            let on_bound = bound_flags(pr, &p);
            let cost = sum_sq(&r);
            return Ok(Fitted {
                norm: cost.sqrt(),
                covariance: covariance(&jac, &r, &on_bound),
                on_bound,
                params: p,
                residuals: r,
                evaluations: problem.counted.borrow().evaluations,
                iterations: problem.jacobians.get().saturating_sub(round + 1),
            });
        }
        problem.theta = DVector::from_column_slice(&p);
        round += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(start: &[f64], lower: &[f64], upper: &[f64]) -> Problem {
        Problem {
            start: start.to_vec(),
            lower: lower.to_vec(),
            upper: upper.to_vec(),
            step: lower.iter().zip(upper).map(|(l, u)| 1e-7 * (u - l)).collect(),
            tol: 1e-10,
            max_evaluations: 200,
        }
    }

    /// The Dahl ascending branch `F(u) = Fs − (Fs + F0) e^{−σ(u − u0)/Fs}`: points from σ = 1000,
    /// Fs = 1 are fitted back to both values from a start far off.
    #[test]
    fn exact_points_give_back_the_parameters_that_made_them() {
        let branch = |s: f64, fs: f64, u: f64| fs - (fs + 0.5) * (-s * (u + 2e-3) / fs).exp();
        let us = [-1.5e-3, -1e-3, 0.0, 1e-3, 2e-3];
        let data: Vec<f64> = us.iter().map(|&u| branch(1000.0, 1.0, u)).collect();
        let res = |p: &[f64]| Ok(us.iter().zip(&data).map(|(&u, d)| branch(p[0], p[1], u) - d).collect());
        let f = fit(res, &problem(&[400.0, 0.6], &[100.0, 0.55], &[5000.0, 5.0])).unwrap();
        assert!((f.params[0] - 1000.0).abs() < 1e-6, "{f:?}");
        assert!((f.params[1] - 1.0).abs() < 1e-9, "{f:?}");
        assert!(f.norm < 1e-9 && f.iterations > 2, "{f:?}");
        // Deterministic: the same call takes the same steps.
        assert_eq!(
            fit(res, &problem(&[400.0, 0.6], &[100.0, 0.55], &[5000.0, 5.0])).unwrap(),
            f
        );
    }

    /// A straight line through points with known scatter: the least-squares slope and intercept,
    /// their standard errors and the residual norm are the closed-form ones.
    #[test]
    fn a_linear_fit_has_the_closed_form_estimates_and_covariance() {
        let xs = [0.0, 1.0, 2.0, 3.0];
        let ys = [1.0, 3.1, 4.9, 7.2];
        let res = |p: &[f64]| Ok(xs.iter().zip(&ys).map(|(x, y)| p[0] + p[1] * x - y).collect());
        let f = fit(res, &problem(&[0.0, 0.0], &[-10.0, -10.0], &[10.0, 10.0])).unwrap();
        // Normal equations: Σx = 6, Σx² = 14, Σy = 16.2, Σxy = 34.5, n = 4; det = 20.
        let slope = (4.0 * 34.5 - 6.0 * 16.2) / 20.0;
        let icpt = (16.2 - slope * 6.0) / 4.0;
        assert!(
            (f.params[1] - slope).abs() < 1e-8 && (f.params[0] - icpt).abs() < 1e-8,
            "{f:?}"
        );
        let ssr: f64 = xs.iter().zip(&ys).map(|(x, y)| (icpt + slope * x - y).powi(2)).sum();
        assert!((f.norm - ssr.sqrt()).abs() < 1e-9, "{f:?}");
        let cov = f.covariance.as_ref().unwrap();
        let s2 = ssr / 2.0;
        assert!((cov[1][1] - s2 * 4.0 / 20.0).abs() < 1e-6 * s2, "{cov:?}");
        assert!((cov[0][0] - s2 * 14.0 / 20.0).abs() < 1e-6 * s2, "{cov:?}");
    }

    #[test]
    fn bounds_hold_and_the_optimum_on_a_bound_is_that_bound() {
        // The unconstrained minimum p = 3 lies outside [0, 2]: the fit stops at 2.
        let res = |p: &[f64]| Ok(vec![p[0] - 3.0, 0.5 * (p[0] - 3.0)]);
        let f = fit(res, &problem(&[1.0], &[0.0], &[2.0])).unwrap();
        assert_eq!(f.params, vec![2.0]);
    }

    #[test]
    fn bad_settings_idle_parameters_and_bad_values_are_errors() {
        let res = |p: &[f64]| Ok(vec![p[0] - 1.0, p[0] + 1.0]);
        let e = fit(res, &problem(&[5.0], &[0.0], &[2.0])).unwrap_err();
        assert!(e.contains("outside its bounds"), "{e}");
        let e = fit(res, &problem(&[1.0], &[2.0], &[0.0])).unwrap_err();
        assert!(e.contains("lo < hi"), "{e}");
        let idle = |p: &[f64]| Ok(vec![p[0] - 1.0, 2.0]);
        let e = fit(idle, &problem(&[1.0, 1.0], &[0.0, 0.0], &[2.0, 2.0])).unwrap_err();
        assert!(e.contains("parameter 1") && e.contains("changes no residual"), "{e}");
        let nan = |p: &[f64]| Ok(vec![if p[0] > 1.5 { f64::NAN } else { p[0] }]);
        let e = fit(nan, &problem(&[1.9], &[0.0], &[2.0])).unwrap_err();
        assert!(e.contains("NaN"), "{e}");
        let boom = |_: &[f64]| Err::<Vec<f64>, _>("run failed".to_string());
        assert_eq!(fit(boom, &problem(&[1.0], &[0.0], &[2.0])).unwrap_err(), "run failed");
        let mut pr = problem(&[0.1], &[0.0], &[2.0]);
        pr.max_evaluations = 3;
        let slow = |p: &[f64]| Ok(vec![(p[0] - 1.7).powi(3)]);
        let e = fit(slow, &pr).unwrap_err();
        assert!(e.contains("no convergence within 3 evaluations"), "{e}");
    }

    /// A residual with a jump everywhere but at the start 0: every step raises the cost, the
    /// damping passes its limit while the step (≈ 1/3 ÷ λ) stays above the tolerance there, and
    /// that is stagnation, not convergence.
    #[test]
    fn a_stalled_damping_is_an_error_not_a_fit() {
        let jump = |p: &[f64]| Ok(vec![if p[0] == 0.0 { -1.0 } else { 1.0 + p[0] }]);
        let mut pr = problem(&[0.0], &[-10.0], &[10.0]);
        pr.step = vec![1.0];
        let e = fit(jump, &pr).unwrap_err();
        assert!(e.contains("not converged") && e.contains("stagnation"), "{e}");
    }

    /// Review N3: the same jump with a loose tolerance. Each rejection shrinks the trust region,
    /// so a trial point soon lies within the tolerance of the start: small because the region
    /// shrank, not because the gradient vanished (the Gauss–Newton step there is still 1/3).
    #[test]
    fn a_step_made_small_by_damping_alone_is_stagnation_not_convergence() {
        let jump = |p: &[f64]| Ok(vec![if p[0] == 0.0 { -1.0 } else { 1.0 + p[0] }]);
        let mut pr = problem(&[0.0], &[-10.0], &[10.0]);
        pr.step = vec![1.0];
        pr.tol = 1e-2;
        let e = fit(jump, &pr).unwrap_err();
        assert!(
            e.contains("not converged") && e.contains("trial points that did not lower the cost"),
            "{e}"
        );
        // A minimum on a bound stays a fit: the undamped step is projected back onto it.
        let res = |p: &[f64]| Ok(vec![p[0] - 3.0, 0.5 * (p[0] - 3.0)]);
        let mut pr = problem(&[1.0], &[0.0], &[2.0]);
        pr.tol = 1e-2;
        assert_eq!(fit(res, &pr).unwrap().params, vec![2.0]);
    }

    /// A step over half the box would take a difference outside the bounds from mid-box: refused.
    #[test]
    fn a_step_over_half_the_box_is_refused_and_differences_stay_inside() {
        let mut pr = problem(&[1.0], &[0.0], &[2.0]);
        pr.step = vec![1.2];
        let seen = std::cell::RefCell::new(Vec::new());
        let res = |p: &[f64]| {
            seen.borrow_mut().push(p[0]);
            Ok(vec![p[0] - 1.7, 2.0 * (p[0] - 1.7)])
        };
        let e = fit(res, &pr).unwrap_err();
        assert!(e.contains("at most half"), "{e}");
        pr.step = vec![1.0];
        fit(res, &pr).unwrap();
        assert!(seen.borrow().iter().all(|&x| (0.0..=2.0).contains(&x)), "{seen:?}");
    }

    /// A parameter on a bound has no covariance row; the free one keeps its own.
    #[test]
    fn a_parameter_on_a_bound_has_no_uncertainty() {
        let res = |p: &[f64]| Ok(vec![p[0] - 3.0, p[1] - 1.0, p[1] - 1.2, 0.5 * (p[0] - 3.0)]);
        let f = fit(res, &problem(&[1.0, 0.0], &[0.0, -5.0], &[2.0, 5.0])).unwrap();
        assert_eq!(f.params[0], 2.0);
        assert_eq!(f.on_bound, vec![true, false]);
        let cov = f.covariance.as_ref().unwrap();
        assert!(cov[0][0].is_nan() && cov[0][1].is_nan(), "{cov:?}");
        // Free column J = (0, 1, 1, 0): s² = Σr²/(m − n) over (JᵀJ)₁₁ = 2.
        let s2 = f.norm * f.norm / 2.0;
        assert!((cov[1][1] - s2 / 2.0).abs() < 1e-6 * s2, "{cov:?}");
        let one = |p: &[f64]| Ok(vec![p[0] - 3.0, 0.5 * (p[0] - 3.0)]);
        let f = fit(one, &problem(&[1.0], &[0.0], &[2.0])).unwrap();
        assert!(f.covariance.unwrap_err().contains("on a bound"));
    }

    #[test]
    fn as_many_residuals_as_parameters_have_no_covariance() {
        let res = |p: &[f64]| Ok(vec![p[0] - 1.0]);
        let f = fit(res, &problem(&[0.0], &[-5.0], &[5.0])).unwrap();
        assert!((f.params[0] - 1.0).abs() < 1e-9, "{f:?}");
        assert!(f.covariance.unwrap_err().contains("no degree of freedom"));
    }
}
