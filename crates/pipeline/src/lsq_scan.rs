//! The rule for a non-smooth cost ([`crate::lsq::Problem::scan`]): where the trust region stalls
//! (its radius shrunk below the tolerance with no lower trial point, while the Gauss–Newton step
//! promises a fall above `tol × cost`), the cost has jumps at the scale of the steps (a stick-slip
//! metric moving by a slip's timing) and no local test can call the stop a minimum. Then:
//! (i) the cost at the Gauss–Newton point (how far the model is from the cost there) and at
//! `scan` evenly spaced values of each parameter over its bounds, the others held at the stall;
//! (ii) one restart of the trust region from the lowest of those points if it is lower than the
//! stall (a restart that stalls again is kept as it stops: the rule runs once);
//! (iii) the lowest point found is the result, flagged [`NonSmooth`] with the evidence, never
//! reported as a converged smooth minimum. With `scan` 0 the stall is an error (stagnation).

use crate::lsq::{descend, finish, Counted, Fitted, NonSmooth, Problem};
use crate::lsq_algebra::sum_sq;

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

/// A stop with the radius shrunk below the tolerance while the Gauss–Newton step promises a fall
/// of `Σr²` above `tol × cost`: that step's point, the promised fall, and the stagnation error
/// (the result when the non-smooth rule is off).
#[derive(Clone, Debug)]
pub(crate) struct Stall {
    pub(crate) gn: Vec<f64>,
    pub(crate) predicted_fall: f64,
    pub(crate) message: String,
}
