//! The linear algebra of [`crate::lsq`] around the optimizer crate: the normal equations, the
//! covariance `s² (JᵀJ)⁻¹` of the fitted parameters, and the stall test (review N3) that tells a
//! minimum from a trust region that shrank without lowering the cost.

use crate::lsq::Problem;

/// The damping of the reference Gauss–Newton step that tells a minimum from a stall
/// ([`at_minimum`]): Marquardt's usual start, `λ diag(JᵀJ)` with λ = 1e-3.
const LAMBDA_REF: f64 = 1e-3;

/// `Σ r_i²`.
pub(crate) fn sum_sq(r: &[f64]) -> f64 {
    r.iter().map(|x| x * x).sum()
}

/// `(JᵀJ, Jᵀr)`.
pub(crate) fn normal(jac: &[Vec<f64>], r: &[f64]) -> (Vec<Vec<f64>>, Vec<f64>) {
    let n = jac.first().map_or(0, Vec::len);
    let mut a = vec![vec![0.0; n]; n];
    let mut g = vec![0.0; n];
    for (row, ri) in jac.iter().zip(r) {
        for j in 0..n {
            g[j] += row[j] * ri;
            for k in 0..n {
                a[j][k] += row[j] * row[k];
            }
        }
    }
    (a, g)
}

/// Solve `a x = b` by Gaussian elimination with partial pivoting; `None` when `a` is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    let scale = a.iter().flatten().fold(0.0f64, |s, x| s.max(x.abs()));
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &k| a[i][col].abs().total_cmp(&a[k][col].abs()))?;
        if a[piv][col].abs() <= 1e-14 * scale || scale == 0.0 {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        let pivot = a[col].clone();
        for i in col + 1..n {
            let f = a[i][col] / pivot[col];
            for (x, p) in a[i][col..].iter_mut().zip(&pivot[col..]) {
                *x -= f * p;
            }
            b[i] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| a[i][k] * x[k]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    Some(x)
}

/// The inverse of `a` column by column; `None` when singular.
fn inverse(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let cols: Option<Vec<Vec<f64>>> = (0..n)
        .map(|j| solve(a.to_vec(), (0..n).map(|i| f64::from(u8::from(i == j))).collect()))
        .collect();
    let cols = cols?;
    Some((0..n).map(|i| (0..n).map(|j| cols[j][i]).collect()).collect())
}

/// The covariance `s² (JᵀJ)⁻¹` of the fitted parameters not on a bound (the others' rows and
/// columns NaN), or why there is none.
pub(crate) fn covariance(jac: &[Vec<f64>], r: &[f64], on_bound: &[bool]) -> Result<Vec<Vec<f64>>, String> {
    let n = on_bound.len();
    let free: Vec<usize> = (0..n).filter(|&j| !on_bound[j]).collect();
    if free.is_empty() {
        return Err("every parameter ended on a bound: no uncertainty is valid there".into());
    }
    let (m, k) = (r.len(), free.len());
    if m <= n {
        return Err(format!(
            "{m} residuals for {n} parameters: no degree of freedom left to estimate the covariance"
        ));
    }
    let s2 = sum_sq(r) / (m - n) as f64;
    let reduced: Vec<Vec<f64>> = jac.iter().map(|row| free.iter().map(|&j| row[j]).collect()).collect();
    let (a, _) = normal(&reduced, r);
    let inv = inverse(&a).ok_or("JᵀJ is singular at the fit: the parameters are not separately identifiable")?;
    let mut cov = vec![vec![f64::NAN; n]; n];
    for a in 0..k {
        for b in 0..k {
            cov[free[a]][free[b]] = s2 * inv[a][b];
        }
    }
    Ok(cov)
}

/// The damped Gauss–Newton step `(JᵀJ + λ diag(JᵀJ)) δ = −Jᵀr`, projected onto the bounds:
/// the new point.
pub(crate) fn step(pr: &Problem, p: &[f64], a: &[Vec<f64>], g: &[f64], lambda: f64) -> Option<Vec<f64>> {
    let mut damped = a.to_vec();
    for (j, row) in damped.iter_mut().enumerate() {
        row[j] += lambda * a[j][j];
    }
    let delta = solve(damped, g.iter().map(|x| -x).collect())?;
    Some(
        (0..p.len())
            .map(|j| (p[j] + delta[j]).clamp(pr.lower[j], pr.upper[j]))
            .collect(),
    )
}

/// After trial points that did not lower the cost, the optimizer's stop is a minimum only when
/// the Gauss–Newton step at `p` (damping [`LAMBDA_REF`], projected onto the bounds) is small
/// too, or when the linear model predicts it to lower the cost by at most `tol × cost`
/// (`−2 gᵀd − dᵀ A d`, round-off at a true minimum): otherwise the shrinking trust region, not
/// the gradient, made the steps small, and the fit stalled (review N3).
pub(crate) fn at_minimum(pr: &Problem, p: &[f64], jac: &[Vec<f64>], r: &[f64], cost: f64) -> Result<(), String> {
    let (a, g) = normal(jac, r);
    let d: Option<Vec<f64>> = step(pr, p, &a, &g, LAMBDA_REF).map(|q| q.iter().zip(p).map(|(x, y)| x - y).collect());
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
            "not converged: the optimizer stopped after trial points that did not lower the cost \
             {cost:e} at {p:?}, but the Gauss–Newton step there, {d:?}, is predicted to lower it \
             by {}: stagnation, e.g. residuals noisy at the solver's tolerance, not a proven minimum",
            predicted.map_or("nothing (singular)".to_string(), |x| format!("{x:e}"))
        )),
    }
}

/// Whether the move from `p` to `q` is below the tolerance in every parameter.
pub(crate) fn small(p: &[f64], q: &[f64], tol: f64) -> bool {
    p.iter().zip(q).all(|(a, b)| (a - b).abs() <= tol * (a.abs() + tol))
}
