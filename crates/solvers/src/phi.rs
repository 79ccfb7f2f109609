//! The φ-functions of exponential integrators,
//!
//! `φ_0(z) = e^z`, `φ_k(z) = ∫_0^1 e^{(1−θ) z} θ^{k−1}/(k−1)! dθ = Σ_{n≥0} z^n/(n+k)!` (k ≥ 1),
//!
//! which satisfy `φ_{k+1}(z) = (φ_k(z) − 1/k!)/z` and `φ_k(0) = 1/k!`. They are the weights of
//! a polynomial forcing under exponential decay: `∫_0^c e^{λ(c−σ)} σ^k dσ = k! c^{k+1} φ_{k+1}(cλ)`.
//!
//! Evaluation, to a few units in the last place over the whole real line:
//! - `|z| < 2`: the Taylor series of the highest `φ` (its terms fall like `2^n/(n+k)!`, ~17
//!   terms), then the recurrence downwards, `φ_k = z φ_{k+1} + 1/k!`, which multiplies a
//!   rounding error by `|z| < 2` per step. The upward recurrence would cancel: `φ_k − 1/k!` is
//!   `O(z)` and dividing it by a small `z` amplifies the rounding error of `φ_k` by `k!/|z|`.
//! - `|z| ≥ 2`: the recurrence upwards from `e^z`, dividing by `|z| ≥ 2` per step (the relative
//!   error grows at most by `(k+1)/|z|` a step: ~11× over six functions at `|z| = 2`, less beyond).
//!   For stiff decay (`z → −∞`) `e^z` underflows to 0 harmlessly and `φ_k(z) → −1/((k−1)! z)`.

/// Below this `|z|`, the series and the downward recurrence (see the module docs).
const SERIES_BELOW: f64 = 2.0;

/// `1/k!` for `k = 0..=20`.
const INV_FACT: [f64; 21] = {
    let mut f = [1.0; 21];
    let mut k = 1;
    while k < 21 {
        f[k] = f[k - 1] / k as f64;
        k += 1;
    }
    f
};

/// `1/n` for `n = 0..=52` (entry 0 unused): the series multiplies by these instead of dividing,
/// a division being several times a multiplication's latency in the serial recurrence.
const INV: [f64; 53] = {
    let mut f = [0.0; 53];
    let mut n = 1;
    while n < 53 {
        f[n] = 1.0 / n as f64;
        n += 1;
    }
    f
};

/// `1/k!`, `k ≤ 20`.
pub fn inv_factorial(k: usize) -> f64 {
    INV_FACT[k]
}

/// `out[k] = φ_k(z)` for `k = 0..out.len()` (at most 12 functions).
pub fn phis(z: f64, out: &mut [f64]) {
    let m = out.len();
    debug_assert!((1..=12).contains(&m));
    if z.abs() < SERIES_BELOW {
        // φ_{M−1}(z) = Σ z^n/(n+M−1)!, summed until the terms stop mattering.
        let top = m - 1;
        let (mut term, mut sum) = (INV_FACT[top], INV_FACT[top]);
        for n in 1..40 {
            term *= z * INV[n + top];
            sum += term;
            if term.abs() <= 1e-18 * sum.abs() {
                break;
            }
        }
        out[top] = sum;
        for k in (0..top).rev() {
            out[k] = z * out[k + 1] + INV_FACT[k];
        }
    } else {
        // One division, then multiplications: the recurrence is serial, and a division's
        // latency is several multiplications'. The reciprocal adds half an ulp per step.
        let r = 1.0 / z;
        out[0] = z.exp();
        for k in 1..m {
            out[k] = (out[k - 1] - INV_FACT[k - 1]) * r;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// φ_k by its defining integral, with a 2000-panel composite 3-point Gauss–Legendre rule in
    /// θ (the integrand is entire; its scale `1/|z|` spans ≥ 20 panels for `|z| ≤ 100`).
    fn by_quadrature(k: usize, z: f64) -> f64 {
        let r = (0.6f64).sqrt();
        let (x, w) = ([-r, 0.0, r], [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0]);
        let n = 2000;
        let mut s = 0.0;
        for i in 0..n {
            for q in 0..3 {
                let th = (i as f64 + 0.5 + 0.5 * x[q]) / n as f64;
                s += 0.5 / n as f64 * w[q] * ((1.0 - th) * z).exp() * th.powi(k as i32 - 1);
            }
        }
        s * INV_FACT[k - 1]
    }

    #[test]
    fn agree_with_the_defining_integral_across_the_switch() {
        for z in [-100.0, -7.3, -2.0, -1.999, -0.3, -1e-9, 0.0, 1e-9, 0.7, 1.999, 2.0, 5.5] {
            let mut p = [0.0; 7];
            phis(z, &mut p);
            assert!((p[0] - z.exp()).abs() <= 1e-14 * z.exp(), "φ_0({z})");
            for (k, &got) in p.iter().enumerate().skip(1) {
                let want = by_quadrature(k, z);
                // The composite rule is accurate to ~1e-11 relative here; the two branches
                // of `phis` agree with each other far better (next test).
                assert!(
                    (got - want).abs() <= 1e-9 * want.abs(),
                    "φ_{k}({z}) = {got}, want {want}"
                );
            }
        }
    }

    #[test]
    fn the_two_branches_meet_continuously_at_the_switch() {
        // Both branches evaluated at |z| = 2 agree to rounding (the series branch is forced by
        // evaluating just below the switch and stepping the series by its derivative).
        for z in [-2.0f64, 2.0] {
            let below = z * (1.0 - 1e-15);
            let (mut a, mut b) = ([0.0; 7], [0.0; 7]);
            phis(z, &mut a);
            phis(below, &mut b);
            for k in 0..7 {
                assert!(
                    (a[k] - b[k]).abs() <= 4e-14 * a[k].abs(),
                    "k = {k}, z = {z}: {} vs {}",
                    a[k],
                    b[k]
                );
            }
        }
    }

    #[test]
    fn small_arguments_give_the_series_limit_and_large_ones_the_stiff_limit() {
        let mut p = [0.0; 6];
        phis(0.0, &mut p);
        for (k, v) in p.iter().enumerate() {
            assert_eq!(*v, INV_FACT[k]);
        }
        // φ_1(z) = (e^z − 1)/z at z = 1e-10: the naive formula loses 6 digits, the series none.
        phis(1e-10, &mut p);
        assert!((p[1] - (1.0 + 0.5e-10)).abs() < 1e-16);
        // z → −∞: φ_k(z) ≈ −1/((k−1)! z) (e^z underflows).
        phis(-1e6, &mut p);
        for k in 1..6 {
            let lead = -INV_FACT[k - 1] / -1e6;
            assert!((p[k] - lead).abs() <= 1e-5 * lead.abs(), "φ_{k}");
        }
    }
}
