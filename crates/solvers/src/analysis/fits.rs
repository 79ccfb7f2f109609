//! Least-squares fits: a line, and a Gaussian decay (the Stribeck curve).

/// Least-squares slope of `y` against `x`.
pub fn slope(x: &[f64], y: &[f64]) -> Option<f64> {
    line_fit(x, y).map(|l| l.0)
}

/// Least-squares line `y ≈ a x + b`: `(a, b)`.
pub fn line_fit(x: &[f64], y: &[f64]) -> Option<(f64, f64)> {
    let n = x.len() as f64;
    if x.len() < 2 {
        return None;
    }
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let sxx: f64 = x.iter().map(|v| (v - mx).powi(2)).sum();
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    if sxx == 0.0 {
        None
    } else {
        Some((sxy / sxx, my - sxy / sxx * mx))
    }
}

/// Least-squares fit of `y ≈ floor + (peak − floor) exp(−(x/scale)²)` (a Gaussian decay from
/// `peak` at x = 0 to `floor` as |x| → ∞; with x a velocity, the Stribeck curve).
///
/// Variable projection: for a fixed `scale` the model is linear in (floor, peak − floor), solved
/// exactly; the residual is then minimised over ln(scale) by a log grid over
/// [1e-3, 10] × max|x| followed by golden-section refinement to a relative 1e-10.
/// `None` with fewer than three samples, no x ≠ 0, or a degenerate basis.
pub fn decay_fit(x: &[f64], y: &[f64]) -> Option<DecayFit> {
    let xmax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if x.len() < 3 || x.len() != y.len() || xmax == 0.0 {
        return None;
    }
    // Linear least squares of y ≈ a + d g with g = exp(−(x/s)²): returns (a, d, sum of squares).
    let solve = |s: f64| -> Option<(f64, f64, f64)> {
        let (mut n, mut sg, mut sgg, mut sy, mut sgy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (xi, yi) in x.iter().zip(y) {
            let g = (-(xi / s) * (xi / s)).exp();
            n += 1.0;
            sg += g;
            sgg += g * g;
            sy += yi;
            sgy += g * yi;
        }
        let det = n * sgg - sg * sg;
        if det.abs() <= 1e-12 * n * sgg.max(1e-300) {
            return None;
        }
        let d = (n * sgy - sg * sy) / det;
        let a = (sy - d * sg) / n;
        // The residual summed directly: the expanded form cancels catastrophically near a fit.
        let ss = x
            .iter()
            .zip(y)
            .map(|(xi, yi)| (yi - a - d * (-(xi / s) * (xi / s)).exp()).powi(2))
            .sum();
        Some((a, d, ss))
    };
    let cost = |ls: f64| solve(ls.exp()).map_or(f64::INFINITY, |r| r.2);
    let (lo, hi) = ((1e-3 * xmax).ln(), (10.0 * xmax).ln());
    let n = 81;
    let grid: Vec<f64> = (0..n).map(|k| lo + (hi - lo) * k as f64 / (n - 1) as f64).collect();
    let k = (0..n).min_by(|&i, &j| cost(grid[i]).total_cmp(&cost(grid[j])))?;
    let (mut a, mut b) = (grid[k.saturating_sub(1)], grid[(k + 1).min(n - 1)]);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    let (mut c, mut d) = (b - r * (b - a), a + r * (b - a));
    let (mut fc, mut fd) = (cost(c), cost(d));
    while b - a > 1e-10 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - r * (b - a);
            fc = cost(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + r * (b - a);
            fd = cost(d);
        }
    }
    let scale = (0.5 * (a + b)).exp();
    let (floor, rise, ss) = solve(scale)?;
    Some(DecayFit {
        floor,
        peak: floor + rise,
        scale,
        rms: (ss / x.len() as f64).sqrt(),
        at_bound: k == 0 || k == n - 1,
    })
}

/// The result of [`decay_fit`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecayFit {
    /// The limit as |x| → ∞.
    pub floor: f64,
    /// The value at x = 0.
    pub peak: f64,
    /// The decay scale (the Stribeck velocity).
    pub scale: f64,
    /// Root-mean-square residual.
    pub rms: f64,
    /// The best scale lies at an end of the searched range, so it is not a true minimum.
    pub at_bound: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_fit_recovers_a_stribeck_curve() {
        // Exact data from floor 0.1, peak 0.133, scale 0.01 on 0 ≤ x ≤ 0.05: recovered to rounding.
        let x: Vec<f64> = (0..500).map(|k| k as f64 * 1e-4).collect();
        let f = |v: f64| 0.1 + 0.033 * (-(v / 0.01) * (v / 0.01)).exp();
        let y: Vec<f64> = x.iter().map(|&v| f(v)).collect();
        let fit = decay_fit(&x, &y).unwrap();
        assert!((fit.floor - 0.1).abs() < 1e-9, "{fit:?}");
        assert!((fit.peak - 0.133).abs() < 1e-9, "{fit:?}");
        assert!((fit.scale - 0.01).abs() < 1e-7, "{fit:?}");
        assert!(fit.rms < 1e-10 && !fit.at_bound, "{fit:?}");
        // With a deterministic ±1e-3 alternating perturbation the parameters move little and
        // the residual is the perturbation's size.
        let y2: Vec<f64> = y
            .iter()
            .enumerate()
            .map(|(k, v)| v + if k % 2 == 0 { 1e-3 } else { -1e-3 })
            .collect();
        let fit = decay_fit(&x, &y2).unwrap();
        assert!(
            (fit.floor - 0.1).abs() < 2e-4 && (fit.peak - 0.133).abs() < 5e-4,
            "{fit:?}"
        );
        assert!(
            (fit.scale - 0.01).abs() < 5e-4 && (fit.rms - 1e-3).abs() < 1e-5,
            "{fit:?}"
        );
        assert!(decay_fit(&[0.0; 5], &[1.0; 5]).is_none());
    }

    #[test]
    fn line_fit_and_slope() {
        assert_eq!(line_fit(&[0.0, 1.0, 2.0], &[1.0, 3.0, 5.0]), Some((2.0, 1.0)));
        assert_eq!(slope(&[0.0, 1.0, 2.0], &[1.0, 3.0, 5.0]), Some(2.0));
    }
}
