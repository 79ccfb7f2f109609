//! The small dense linear algebra of `fit` (lsq.rs, lsq_scan.rs): normal equations, Gaussian
//! elimination, the inverse and the covariance `s² (JᵀJ)⁻¹`. Parameters are few (one to a
//! handful), so plain `Vec`s serve; no linear-algebra crate is needed.

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
pub(crate) fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
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
pub(crate) fn inverse(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
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
