//! Magnetostrictive transforms of thesis ch. V, eqs. (5.18)–(5.22) (L2167–L2225): from the
//! measured rod elongation to the magnetostriction `λ`, from `λ` to the magnetization `M` through
//! the quadratic law, and from the coil current to the field `H`. Used to turn the butterfly
//! `I → ΔL` of a Terfenol-D actuator into a simple hysteresis loop `H → M` (Thm 5.3.3 with the
//! ∨-unimodal `f(M) = a1 M² + b1`).

/// `λ = ΔL / L_rod` (5.18).
pub fn strain(dl: f64, l_rod: f64) -> f64 {
    dl / l_rod
}

/// `λ = a M² + b` (5.19) (and (5.22) with `a2, b2`).
pub fn quadratic_strain(m: f64, a: f64, b: f64) -> f64 {
    a * m * m + b
}

/// `a1 = λ_s / M_s²` (L2206).
pub fn saturation_coefficient(lambda_s: f64, m_s: f64) -> f64 {
    lambda_s / (m_s * m_s)
}

/// `H = c0 I + H_bias` (5.20).
pub fn field(i: f64, c0: f64, h_bias: f64) -> f64 {
    c0 * i + h_bias
}

/// `|M| = sqrt((λ − b)/a)` (5.21), clamped at 0 below `b`.
pub fn magnetization_magnitude(lambda: f64, a: f64, b: f64) -> f64 {
    ((lambda - b) / a).max(0.0).sqrt()
}

/// (5.21) along a sampled closed butterfly `λ(t_k)`: `M = ±sqrt((λ − b)/a)` with the sign flipped
/// at every local minimum of `λ` (where `M` passes through 0, L2214: the sign that makes `H → M`
/// piecewise monotonically increasing), starting with `sign0 = ±1`.
pub fn unfold_butterfly(lambda: &[f64], a: f64, b: f64, sign0: f64) -> Vec<f64> {
    let n = lambda.len();
    let mut sign = sign0.signum();
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let m = magnetization_magnitude(lambda[k], a, b);
        // A local minimum at sample k: the sign flips after it (the minimum itself is ≈ 0).
        out.push(sign * m);
        if k > 0 && k + 1 < n && lambda[k] <= lambda[k - 1] && lambda[k] < lambda[k + 1] {
            sign = -sign;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_of_the_thesis() {
        // a1 = λ_s / M_s² = 1.313e-3 / (7.87e5)² = 2.1199e-15 m²/A² (catalog M12).
        let a1 = saturation_coefficient(1.313e-3, 7.87e5);
        assert!((a1 - 2.1199e-15).abs() < 1e-19, "{a1}");
        assert_eq!(field(0.0, 1.54e4, 1.23e4), 1.23e4);
        assert!((field(1.0, 1.54e4, 1.23e4) - 2.77e4).abs() < 1e-9);
        assert!((strain(5.13e-5, 5.13e-2) - 1e-3).abs() < 1e-15);
    }

    /// Synthetic data: a counterclockwise H → M loop (two shifted tanh branches), mapped through
    /// (5.19) into a butterfly, is recovered by (5.21) with the sign flipped at the minima.
    #[test]
    fn butterfly_unfolds_back_to_the_loop() {
        let (ms, a1, b1) = (7.87e5, saturation_coefficient(1.313e-3, 7.87e5), 1e-5);
        let n = 4000;
        let mut m = Vec::with_capacity(n);
        for k in 0..n {
            let t = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
            let h = t.sin();
            let rising = t.cos() > 0.0 || k == 0;
            let hc = if rising { 0.2 } else { -0.2 };
            m.push(ms * 0.8 * ((h - hc) / 0.3).tanh());
        }
        // (The branches jump at the two input reversals; only the zero crossings matter here.)
        let lambda: Vec<f64> = m.iter().map(|&v| quadratic_strain(v, a1, b1)).collect();
        // λ ≥ b1, with local minima where M crosses 0.
        assert!(lambda.iter().all(|&l| l >= b1));
        let sign0 = m[0].signum();
        let back = unfold_butterfly(&lambda, a1, b1, sign0);
        let dm = 2.0 * std::f64::consts::PI / n as f64 * ms * 0.8 / 0.3 * 2.0;
        for k in 0..n {
            assert!((back[k] - m[k]).abs() <= dm, "k {k}: {} vs {}", back[k], m[k]);
        }
        // (5.22) on the other branch with a2, b2 closing the loop gives the same |M| where it is
        // used: λ = a2 M² + b2 inverted with a2, b2.
        let (a2, b2) = (1.1 * a1, 0.5 * b1);
        let l2 = quadratic_strain(3e5, a2, b2);
        assert!((magnetization_magnitude(l2, a2, b2) - 3e5).abs() < 1e-6);
    }
}
