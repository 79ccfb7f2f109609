//! The project's own bounded Levenberg–Marquardt iteration (Marquardt's diagonal scaling), the
//! one `fit` used until s61; kept as a cross-check of the trust-region fit of [`crate::lsq`] (argmin)
//! on every fit of the project. Same problem, budget, Jacobian, bounds (a step projected onto
//! them) and covariance; its own stopping rule: a damping past [`LAMBDA_MAX`] with no step
//! lowering the cost, or a step below the tolerance only because the damping grew since the last
//! accepted step, is stagnation (review N3).

use crate::lsq::{bound_flags, check_columns, jacobian, projected_step as step, small, Counted, Fitted, Problem};
use crate::lsq_algebra::{covariance, normal, sum_sq};

/// Marquardt's damping: its start, the factor it changes by, and the value past which no step
/// can lower the cost any more (the minimum is reached to the residuals' resolution).
const LAMBDA_START: f64 = 1e-3;
const LAMBDA_FACTOR: f64 = 10.0;
const LAMBDA_MAX: f64 = 1e16;

/// The error for a damping grown past [`LAMBDA_MAX`] with no step lowering the cost.
fn stalled(lambda: f64, p: &[f64], cost: f64) -> String {
    format!(
        "not converged: the damping λ = {lambda:e} passed {LAMBDA_MAX:e} with no step lowering \
         the cost {cost:e} at {p:?}: stagnation, e.g. residuals noisy at the solver's tolerance, \
         not a proven minimum"
    )
}

/// A step below the tolerance after rejected steps (damping `lambda` grown past `kept`, that of
/// the last accepted step) is convergence only when the step `d` at `kept` is small too, or when
/// the linear model predicts it to lower the cost by at most `tol × cost`
/// (`−2 gᵀd − dᵀ A d`, round-off at a true minimum): otherwise the damping, not the gradient,
/// made the step small, and the fit stalled (review N3).
fn shrunk_by_damping(
    pr: &Problem,
    p: &[f64],
    a: &[Vec<f64>],
    g: &[f64],
    lambda: f64,
    kept: f64,
    cost: f64,
) -> Result<(), String> {
    if lambda <= kept {
        return Ok(());
    }
    let d: Option<Vec<f64>> = step(pr, p, a, g, kept).map(|q| q.iter().zip(p).map(|(x, y)| x - y).collect());
    let predicted = d.as_ref().map(|d| {
        let gd: f64 = g.iter().zip(d).map(|(x, y)| x * y).sum();
        let dad: f64 = (0..d.len())
            .map(|j| (0..d.len()).map(|k| d[j] * a[j][k] * d[k]).sum::<f64>())
            .sum();
        -2.0 * gd - dad
    });
    match (&d, predicted) {
        (Some(d), Some(pred))
            if d.iter().zip(p).all(|(x, y)| x.abs() <= pr.tol * (y.abs() + pr.tol)) || pred <= pr.tol * cost =>
        {
            Ok(())
        }
        _ => Err(format!(
            "not converged: the step fell below the tolerance only because the damping grew \
             from λ = {kept:e} to {lambda:e} with no step lowering the cost {cost:e} at {p:?} \
             (the step at λ = {kept:e}, {d:?}, was predicted to lower it by {}): stagnation, \
             not a proven minimum",
            predicted.map_or("nothing (singular)".to_string(), |x| format!("{x:e}"))
        )),
    }
}

/// Fit `residuals(p)` to zero in the least-squares sense within the problem's bounds.
pub fn fit_lm(residuals: impl FnMut(&[f64]) -> Result<Vec<f64>, String>, pr: &Problem) -> Result<Fitted, String> {
    let mut c = Counted::checked(residuals, pr)?;
    let mut p = pr.start.clone();
    let mut r = c.eval(&p)?;
    let mut cost = sum_sq(&r);
    let mut lambda = LAMBDA_START;
    // The damping of the last accepted step (or the start): a small step at a larger one was
    // made small by the rejections since, not by the gradient.
    let mut lambda_kept = lambda;
    let mut iterations = 0;
    let mut jac = jacobian(&mut c, pr, &p, &r)?;
    check_columns(&jac, &p)?;
    while cost > 0.0 {
        let (a, g) = normal(&jac, &r);
        let Some(q) = step(pr, &p, &a, &g, lambda) else {
            lambda *= LAMBDA_FACTOR;
            if lambda > LAMBDA_MAX {
                return Err(stalled(lambda, &p, cost));
            }
            continue;
        };
        if small(&p, &q, pr.tol) {
            shrunk_by_damping(pr, &p, &a, &g, lambda, lambda_kept, cost)?;
            break;
        }
        let rq = c.eval(&q)?;
        let cq = sum_sq(&rq);
        if cq < cost {
            iterations += 1;
            let settled = cost - cq <= pr.tol * pr.tol * cost;
            (p, r, cost) = (q, rq, cq);
            lambda = (lambda / LAMBDA_FACTOR).max(1e-12);
            lambda_kept = lambda;
            jac = jacobian(&mut c, pr, &p, &r)?;
            if settled {
                break;
            }
        } else {
            lambda *= LAMBDA_FACTOR;
            if lambda > LAMBDA_MAX {
                return Err(stalled(lambda, &p, cost));
            }
        }
    }
    let on_bound = bound_flags(pr, &p);
    Ok(Fitted {
        norm: cost.sqrt(),
        covariance: covariance(&jac, &r, &on_bound),
        on_bound,
        params: p,
        residuals: r,
        evaluations: c.evaluations,
        iterations,
    })
}
