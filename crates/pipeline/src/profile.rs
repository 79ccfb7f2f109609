//! Profiles of a fit's parameters: at `p̂_j ± k·sd_j`, the cost `Σ r²` minimised over the other
//! parameters (parameter `j` held at that value, the others started at their fitted values and
//! fitted by [`crate::lsq::fit`] with the fit's own settings). Where the quadratic approximation
//! behind `sd = √(s² (JᵀJ)⁻¹)` holds, the cost rises by `k² s²` (`s² = Σ r̂² / (m − n)`); the
//! profile reports the ratio `(cost − ĉ) / (k² s²)`, so 1 means the standard error is
//! trustworthy at that distance and a ratio far from 1, or different on the two sides, shows
//! where it misleads (a curved or lopsided valley).

use crate::lsq::{fit, Fitted, Problem};

/// One point of a profile.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfilePoint {
    /// The signed multiple of the standard error: `value = p̂_j + k·sd`.
    pub k: f64,
    pub value: f64,
    /// `Σ r²` minimised over the other parameters at `value`.
    pub cost: f64,
    /// `(cost − ĉ) / (k² s²)`: 1 where the quadratic approximation holds.
    pub ratio: f64,
}

/// The profile of parameter `j` of the fit `x` of problem `pr` at `p̂_j + k·sd` for each `k` of
/// `ks` (nonzero), or why there is none: a value outside the parameter's bounds, no degree of
/// freedom (`m ≤ n`), a sub-fit that fails.
pub fn profile(
    residuals: &mut impl FnMut(&[f64]) -> Result<Vec<f64>, String>,
    pr: &Problem,
    x: &Fitted,
    j: usize,
    sd: f64,
    ks: &[f64],
) -> Result<Vec<ProfilePoint>, String> {
    let (m, n) = (x.residuals.len(), x.params.len());
    if m <= n {
        return Err(format!(
            "{m} residuals for {n} parameters: no s² to compare the profile with"
        ));
    }
    if !(sd.is_finite() && sd > 0.0) {
        return Err(format!("standard error {sd}: a profile needs a positive one"));
    }
    let best = x.norm * x.norm;
    let s2 = best / (m - n) as f64;
    let others: Vec<usize> = (0..n).filter(|&i| i != j).collect();
    let mut out = Vec::with_capacity(ks.len());
    for &k in ks {
        let value = x.params[j] + k * sd;
        if k == 0.0 || !(pr.lower[j]..=pr.upper[j]).contains(&value) {
            return Err(format!(
                "p̂ {:+} sd = {value} is outside the bounds [{}, {}] (or k = 0)",
                k, pr.lower[j], pr.upper[j]
            ));
        }
        let full = |q: &[f64]| {
            let mut p = x.params.clone();
            p[j] = value;
            for (&i, &v) in others.iter().zip(q) {
                p[i] = v;
            }
            p
        };
        let cost = if others.is_empty() {
            residuals(&full(&[]))?.iter().map(|r| r * r).sum::<f64>()
        } else {
            let sub = Problem {
                start: others.iter().map(|&i| x.params[i]).collect(),
                lower: others.iter().map(|&i| pr.lower[i]).collect(),
                upper: others.iter().map(|&i| pr.upper[i]).collect(),
                step: others.iter().map(|&i| pr.step[i]).collect(),
                tol: pr.tol,
                max_evaluations: pr.max_evaluations,
                scan: pr.scan,
            };
            let f = fit(|q: &[f64]| residuals(&full(q)), &sub)
                .map_err(|e| format!("the profile at p̂ {k:+} sd = {value}: {e}"))?;
            f.norm * f.norm
        };
        out.push(ProfilePoint {
            k,
            value,
            cost,
            ratio: (cost - best) / (k * k * s2),
        });
    }
    Ok(out)
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
            max_evaluations: 400,
            scan: 21,
        }
    }

    fn sd(x: &Fitted, j: usize) -> f64 {
        x.covariance.as_ref().unwrap()[j][j].sqrt()
    }

    /// A model linear in its parameters has a quadratic cost: the profile ratio is 1 at every
    /// distance, on both sides, even with correlated parameters (the other one re-fitted).
    #[test]
    fn a_linear_model_has_a_flat_profile_of_one() {
        let xs = [0.0, 1.0, 2.0, 3.0, 4.0];
        let ys = [1.1, 2.9, 5.2, 6.8, 9.1];
        let mut res = |p: &[f64]| Ok(xs.iter().zip(&ys).map(|(x, y)| p[0] + p[1] * x - y).collect());
        let pr = problem(&[0.0, 0.0], &[-10.0, -10.0], &[10.0, 10.0]);
        let x = fit(&mut res, &pr).unwrap();
        for j in 0..2 {
            let prof = profile(&mut res, &pr, &x, j, sd(&x, j), &[-2.0, -1.0, 1.0, 2.0]).unwrap();
            for q in &prof {
                assert!((q.ratio - 1.0).abs() < 1e-5, "{j}: {prof:?}");
            }
        }
    }

    /// An exponential decay `y = e^{−a t}`: the cost rises faster than the parabola on the side
    /// of small `a` and slower on the side of large `a` (the curve flattens as `a` grows): the
    /// ratio departs from 1, in opposite directions on the two sides.
    #[test]
    fn a_curved_valley_shows_a_lopsided_profile() {
        let ts = [0.5, 1.0, 1.5, 2.0, 3.0];
        let ys = [0.62, 0.35, 0.24, 0.12, 0.06];
        let mut res = |p: &[f64]| Ok(ts.iter().zip(&ys).map(|(t, y)| (-p[0] * t).exp() - y).collect());
        let pr = problem(&[0.5], &[0.01], &[10.0]);
        let x = fit(&mut res, &pr).unwrap();
        let prof = profile(&mut res, &pr, &x, 0, sd(&x, 0), &[-3.0, 3.0]).unwrap();
        assert!(prof[0].ratio > 1.02 && prof[1].ratio < 0.98, "{prof:?}");
        // Close to the minimum the quadratic approximation holds.
        let near = profile(&mut res, &pr, &x, 0, sd(&x, 0), &[-0.01, 0.01]).unwrap();
        assert!(near.iter().all(|q| (q.ratio - 1.0).abs() < 2e-3), "{near:?}");
        let e = profile(&mut res, &pr, &x, 0, 100.0, &[1.0]).unwrap_err();
        assert!(e.contains("outside the bounds"), "{e}");
    }
}
