//! The rule for a non-smooth cost ([`crate::lsq::Problem::scan`]): where the trust region stalls
//! (a stop, its radius shrunk below the tolerance or accepted steps shrinking onto a jump, where
//! the Gauss–Newton step promises a fall above `tol × cost` and above round-off; at a stop within
//! one difference step of a jump, the step from the smooth side's one-sided differences), the
//! cost has jumps at the scale of the steps (a stick-slip
//! metric moving by a slip's timing) and no local test can call the stop a minimum. Then:
//! (i) the cost at the Gauss–Newton point (how far the model is from the cost there) and at
//! `scan` evenly spaced values of each parameter over its bounds, the others held at the stall;
//! (ii) one restart of the trust region from the lowest of those points if it is lower than the
//! stall (a restart that stalls again is kept as it stops: the rule runs once);
//! (iii) the lowest point found is the result, flagged [`NonSmooth`] with the evidence, never
//! reported as a converged smooth minimum. With `scan` 0 the stall is an error (stagnation).

use crate::lsq::{descend, finish, predicted_fall, projected_step, Counted, Fitted, NonSmooth, Problem};
use crate::lsq_algebra::{normal, sum_sq};
use crate::lsq_trust::Scaled;

/// The rule applied to the descent that stopped at `stop` with `stall`.
pub(crate) fn non_smooth<F: FnMut(&[f64]) -> Result<Vec<f64>, String>>(
    pr: &Problem,
    stop: Stop,
    stall: Stall,
    mut c: Counted<F>,
) -> Result<Fitted, String> {
    if pr.scan == 0 {
        return Err(stall.message);
    }
    let stall_cost = sum_sq(&stop.r);
    let gn_cost = sum_sq(&c.eval(&stall.gn)?);
    let mut lowest = (stall.gn.clone(), gn_cost);
    let mut scan_best_cost = f64::INFINITY;
    let mut local_minima = 0;
    for j in 0..stop.p.len() {
        let (lo, hi) = (pr.lower[j], pr.upper[j]);
        let mut costs = Vec::with_capacity(pr.scan);
        for i in 0..pr.scan {
            let mut q = stop.p.clone();
            q[j] = if i + 1 == pr.scan {
                hi
            } else {
                lo + (hi - lo) * i as f64 / (pr.scan - 1) as f64
            };
            let cost = sum_sq(&c.eval(&q)?);
            if cost < lowest.1 {
                lowest = (q, cost);
            }
            scan_best_cost = scan_best_cost.min(cost);
            costs.push(cost);
        }
        local_minima += (0..costs.len())
            .filter(|&i| (i == 0 || costs[i] < costs[i - 1]) && (i + 1 == costs.len() || costs[i] < costs[i + 1]))
            .count();
    }
    let stalled = stop.p.clone();
    let mut iterations = stop.iterations;
    let mut best = stop;
    let mut restarted = false;
    if lowest.1 < stall_cost {
        let from = Problem {
            start: lowest.0,
            ..pr.clone()
        };
        let (again, c2) = descend(&from, c)?;
        c = c2;
        iterations += again.iterations;
        restarted = true;
        // The restart accepts only steps that lower the cost, so it ends below the stall.
        if sum_sq(&again.r) < stall_cost {
            best = again;
        }
    }
    let evidence = NonSmooth {
        stalled,
        stall_cost,
        predicted_fall: stall.predicted_fall,
        actual_fall: stall_cost - gn_cost,
        scan_best_cost,
        local_minima,
        restarted,
    };
    Ok(finish(pr, best, &c, iterations, Some(evidence)))
}

/// Where one descent of the trust region stopped: the parameters, their residuals and
/// Jacobian, the accepted steps, and the stall if it stalled.
pub(crate) struct Stop {
    pub(crate) p: Vec<f64>,
    pub(crate) r: Vec<f64>,
    pub(crate) jac: Vec<Vec<f64>>,
    pub(crate) iterations: usize,
    pub(crate) stall: Option<Stall>,
}

/// A stop where the Gauss–Newton step promises a fall of `Σr²` above `tol × cost` and above
/// `√ε ×` the start's cost: that step's point, the promised fall, and the stagnation error
/// (the result when the non-smooth rule is off).
#[derive(Clone, Debug)]
pub(crate) struct Stall {
    pub(crate) gn: Vec<f64>,
    pub(crate) predicted_fall: f64,
    pub(crate) message: String,
}

/// At a stop at `p`: converged (`None`) when the Gauss–Newton step there is small or predicted
/// to lower the cost by at most `tol × cost` or `√ε ×` the start's cost; otherwise the stall.
/// A converged stop is tested once more with the other one-sided differences
/// ([`one_sided`]): a jump of the residuals within one difference step of `p` makes the
/// forward column huge and its Gauss–Newton step fall below the tolerance, so a stop at a jump's
/// edge would be called converged; with the smooth side's columns it stalls. A singular
/// Gauss–Newton system is an error.
pub(crate) fn gauss_newton_stall<F: FnMut(&[f64]) -> Result<Vec<f64>, String>>(
    op: &Scaled<F>,
    p: &[f64],
) -> Result<Option<Stall>, String> {
    let (r, jac) = op.jacobian(p)?;
    if let Some(stall) = gauss_newton_test(op, p, &r, &jac, "")? {
        return Ok(Some(stall));
    }
    let Some((smooth, cols)) = one_sided(op, p, &r, &jac)? else {
        return Ok(None);
    };
    let why = format!(
        " (the forward and backward differences of parameter(s) {cols:?} disagree: the residuals \
         jump within one difference step, and this step is the smooth side's)"
    );
    gauss_newton_test(op, p, &r, &smooth, &why)
}

/// The test of [`gauss_newton_stall`] with the Jacobian `jac` at `p`; `why` is added to the
/// message.
fn gauss_newton_test<F: FnMut(&[f64]) -> Result<Vec<f64>, String>>(
    op: &Scaled<F>,
    p: &[f64],
    r: &[f64],
    jac: &[Vec<f64>],
    why: &str,
) -> Result<Option<Stall>, String> {
    let pr = op.pr;
    let cost = sum_sq(r);
    let (mut a, mut g) = normal(jac, r);
    // Held (no step): a parameter on a bound whose descent points out of the box, as in the
    // model, and one the residuals do not feel here (a flat direction: the least-norm step).
    let top = (0..p.len()).fold(0.0f64, |m, j| m.max(a[j][j]));
    for j in 0..p.len() {
        let out = (p[j] == pr.lower[j] && g[j] > 0.0) || (p[j] == pr.upper[j] && g[j] < 0.0);
        if out || a[j][j] <= 1e-14 * top {
            g[j] = 0.0;
            for k in (0..p.len()).filter(|&k| k != j) {
                (a[j][k], a[k][j]) = (0.0, 0.0);
            }
            a[j][j] = top;
        }
    }
    let Some(q) = projected_step(pr, p, &a, &g, 0.0) else {
        return Err(format!(
            "not converged: the trust region shrank below the tolerance at {p:?} (cost {cost:e}) \
             where the Gauss–Newton system is singular"
        ));
    };
    let d: Vec<f64> = q.iter().zip(p).map(|(x, y)| x - y).collect();
    let fall = predicted_fall(&a, &g, &d);
    // Round-off: a fall below √ε of the start's Σr² is below what the forward differences
    // (steps ≈ √ε) resolve, however small the cost has become (a cost at an integrator's
    // round-off, e.g. followup fig5's Σr² ≈ 1.6e-15).
    let floor = f64::EPSILON.sqrt() * op.start_cost();
    if d.iter().zip(p).all(|(x, y)| x.abs() <= pr.tol * (y.abs() + pr.tol)) || fall <= pr.tol * cost || fall <= floor {
        return Ok(None);
    }
    let message = format!(
        "not converged: the trust region shrank below the tolerance (or to the cost's rounding) \
         with no trial point lowering the cost {cost:e} at {p:?}, where the Gauss–Newton step \
         {d:?} is predicted to lower it by {fall:e}: stagnation, not a proven minimum (the rule \
         for a non-smooth cost is off: scan 0){why}"
    );
    Ok(Some(Stall {
        gn: q,
        predicted_fall: fall,
        message,
    }))
}

/// A Jacobian, one row per residual.
type Jacobian = Vec<Vec<f64>>;

/// The Jacobian at `p` with the other one-sided difference where the two disagree, and which
/// columns: per parameter whose mirrored point `p − h` lies in the box (`h` the forward step
/// of [`crate::lsq::jacobian`]), the backward column replaces the forward one when the two
/// differ by more than half the larger norm and by more than rounding, and the backward one is
/// the smaller (the forward difference crossed the jump; where the backward one crossed it the
/// forward column is already the smooth side's). `None` when no column is replaced. One
/// evaluation per parameter, at a converged stop only.
fn one_sided<F: FnMut(&[f64]) -> Result<Vec<f64>, String>>(
    op: &Scaled<F>,
    p: &[f64],
    r: &[f64],
    jac: &[Vec<f64>],
) -> Result<Option<(Jacobian, Vec<usize>)>, String> {
    let pr = op.pr;
    let norm = |v: &[f64]| sum_sq(v).sqrt();
    let mut smooth = jac.to_vec();
    let mut cols = Vec::new();
    for j in 0..p.len() {
        let h = if p[j] + pr.step[j] <= pr.upper[j] {
            pr.step[j]
        } else {
            -pr.step[j]
        };
        let mut q = p.to_vec();
        q[j] -= h;
        if q[j] < pr.lower[j] || q[j] > pr.upper[j] {
            continue;
        }
        let rb = op.residuals(&q)?;
        let back: Vec<f64> = r.iter().zip(&rb).map(|(a, b)| (a - b) / h).collect();
        let fwd: Vec<f64> = jac.iter().map(|row| row[j]).collect();
        let diff: Vec<f64> = fwd.iter().zip(&back).map(|(a, b)| a - b).collect();
        let rounding = 8.0 * f64::EPSILON * (norm(r) + norm(&rb)) / h.abs();
        let (d, nf, nb) = (norm(&diff), norm(&fwd), norm(&back));
        if d > 0.5 * nf.max(nb) && d > rounding && nb < nf {
            for (row, b) in smooth.iter_mut().zip(&back) {
                row[j] = *b;
            }
            cols.push(j);
        }
    }
    Ok((!cols.is_empty()).then_some((smooth, cols)))
}

#[cfg(test)]
mod tests {
    use crate::lsq::{fit, Problem};

    fn problem(start: f64, step: f64, tol: f64) -> Problem {
        Problem {
            start: vec![start],
            lower: vec![0.0],
            upper: vec![10.0],
            step: vec![step],
            tol,
            max_evaluations: 200,
            scan: 21,
        }
    }

    /// The tooth edge of `r = 3 − p + 1.5 ⌊p⌋` with a difference step of 0.01, from p = 0.995,
    /// within one step below the edge at p = 1: the forward difference crosses the jump
    /// (column ≈ 149), its Gauss–Newton step (−0.013, back up the trend) raises the cost, the
    /// trust region shrinks, and the step is below the tolerance 0.1: before the one-sided
    /// check that stop was called converged (non_smooth None). The backward difference gives the
    /// trend's slope −1 and a step that promises the trend's fall: flagged non-smooth.
    #[test]
    fn a_stop_within_one_difference_step_of_a_jump_is_flagged() {
        let saw = |p: &[f64]| Ok(vec![3.0 - p[0] + 1.5 * p[0].floor()]);
        let f = fit(saw, &problem(0.995, 0.01, 0.1)).unwrap();
        let ns = f.non_smooth.clone().expect("non-smooth");
        assert!(ns.stalled[0] < 1.0 && ns.stalled[0] > 0.99, "{f:?}");
        assert!(ns.predicted_fall > 1.0, "{ns:?}");
    }

    /// A smooth minimum at p = 0.995 with a jump at p = 1 inside its forward difference step
    /// (0.01): the forward column is ≈ 500, the backward one 1, and both Gauss–Newton steps are
    /// at the minimum: converged, not flagged.
    #[test]
    fn a_smooth_minimum_beside_a_jump_is_converged() {
        let near = |p: &[f64]| Ok(vec![p[0] - 0.995 + if p[0] >= 1.0 { 5.0 } else { 0.0 }]);
        let f = fit(near, &problem(0.2, 0.01, 1e-10)).unwrap();
        assert!(f.non_smooth.is_none() && (f.params[0] - 0.995).abs() < 1e-9, "{f:?}");
    }
}
