//! Separable least squares with one nonlinear parameter: `y ≈ a + b φ(x; s)`, linear in `(a, b)`
//! and nonlinear in `s > 0` (variable projection: for each `s` the best `(a, b)` is a 2 × 2
//! normal-equation solve; `s` minimises the residual over a log grid, refined by golden section).

/// Best `(a, b)` and the residual sum of squares for fixed basis values `phi`.
fn linear2(y: &[f64], phi: &[f64]) -> (f64, f64, f64) {
    let n = y.len() as f64;
    let (sp, sy) = (phi.iter().sum::<f64>(), y.iter().sum::<f64>());
    let spp = phi.iter().map(|p| p * p).sum::<f64>();
    let spy = phi.iter().zip(y).map(|(p, y)| p * y).sum::<f64>();
    let det = n * spp - sp * sp;
    if det.abs() < 1e-300 {
        return (sy / n, 0.0, f64::INFINITY);
    }
    let b = (n * spy - sp * sy) / det;
    let a = (sy - b * sp) / n;
    let rss = phi.iter().zip(y).map(|(p, y)| (y - a - b * p).powi(2)).sum();
    (a, b, rss)
}

/// Fit `y ≈ a + b φ(x/s)` for `s ∈ [s_lo, s_hi]`; returns `(a, b, s, rss)`.
pub fn separable_scale(x: &[f64], y: &[f64], phi: impl Fn(f64) -> f64, s_lo: f64, s_hi: f64) -> (f64, f64, f64, f64) {
    let mut buf = vec![0.0; x.len()];
    let mut eval = |s: f64| {
        for (b, &xi) in buf.iter_mut().zip(x) {
            *b = phi(xi / s);
        }
        linear2(y, &buf)
    };
    let n = 200;
    let (l0, l1) = (s_lo.ln(), s_hi.ln());
    let at = |i: usize| (l0 + (l1 - l0) * i as f64 / n as f64).exp();
    let mut best = 0;
    let mut best_r = f64::INFINITY;
    for i in 0..=n {
        let r = eval(at(i)).2;
        if r < best_r {
            best_r = r;
            best = i;
        }
    }
    let (mut lo, mut hi) = (at(best.saturating_sub(1)).ln(), at((best + 1).min(n)).ln());
    let g = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..80 {
        let (c, d) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if eval(c.exp()).2 <= eval(d.exp()).2 {
            hi = d;
        } else {
            lo = c;
        }
    }
    let s = (0.5 * (lo + hi)).exp();
    let (a, b, r) = eval(s);
    (a, b, s, r)
}

#[cfg(test)]
mod tests {
    use super::separable_scale;

    #[test]
    fn recovers_a_sech_profile() {
        let x: Vec<f64> = (0..101).map(|i| -0.3 + 0.006 * i as f64).collect();
        let y: Vec<f64> = x.iter().map(|&v| 0.4 - 0.3 / (v / 0.0955f64).cosh()).collect();
        let (a, b, s, r) = separable_scale(&x, &y, |u| 1.0 / u.cosh(), 0.001, 10.0);
        assert!(
            (a - 0.4).abs() < 1e-9 && (b + 0.3).abs() < 1e-9 && (s - 0.0955).abs() < 1e-8 && r < 1e-20,
            "{a} {b} {s} {r}"
        );
    }
}
