//! Energy at motion reversals of the unforced pre-sliding oscillator `m x'' + f[x] = 0` with Dahl
//! (γ = 1) friction, after M. Ruderman, eqs. (2.1)–(3.14).
//!
//! Quantities are normalised: `a = |F_i|/F_c` is the magnitude of the force at reversal `i`, and
//! energies are in units of `F_c²/σ`. Sign convention (catalog M-R2): (3.9) and (3.14) are
//! evaluated with the mirrored force `F_i = −|F_i|`, the only reading under which the energy is
//! bounded and decreasing.

/// Potential energy at a reversal, (3.9) with `F_i = −a F_c`: `(F_c²/σ)(a − ln(1 + a))`.
pub fn potential_energy(a: f64, fc: f64, sigma: f64) -> f64 {
    fc * fc / sigma * (a - a.ln_1p())
}

/// Largest potential energy, at `a = 1`: `(1 − ln 2) F_c²/σ` (the published 0.3069 F_c²/σ).
pub fn max_potential_energy(fc: f64, sigma: f64) -> f64 {
    potential_energy(1.0, fc, sigma)
}

/// The exact reversal map in normalised variables (independent of σ/F_c): the next reversal force
/// `b` solves `−b − ln(1 − b) = a − ln(1 + a)`. With `y = σ x_{i+1}/F_c` (distance from the zero
/// crossing) this is `y + e^{−y} = c`, `c = 1 + a − ln(1 + a)`, positive root; `b = 1 − e^{−y}`.
/// Returns `(y, b)`.
pub fn exact_next(a: f64) -> (f64, f64) {
    let c = 1.0 + a - a.ln_1p();
    if c <= 1.0 {
        return (0.0, 0.0);
    }
    // φ(y) = y + e^{−y} − c is convex with minimum at 0; Newton from the right converges
    // monotonically to the positive root. Start above it: y0 = c. (Newton, not the bracketing
    // root finder `fric_roots`: φ' is at hand, no bracket is, and the convergence is quadratic.)
    let mut y = c;
    for _ in 0..100 {
        let e = (-y).exp();
        let phi = y + e - c;
        let d = 1.0 - e;
        let step = phi / d;
        y -= step;
        if step.abs() <= 1e-16 * y.max(1e-300) {
            break;
        }
    }
    // For tiny a, c − 1 ≈ a²/2 and y ≈ a: guard the cancellation with the series.
    if a < 1e-6 {
        y = a - a * a / 3.0;
    }
    (y, -(-y).exp_m1())
}

/// Which formula gives the next reversal point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The exact root of (3.10).
    Exact,
    /// (3.13) derived from (3.11)–(3.12): `x_{i+1} = (E_p/F_c)(1 − (F_c/(F_c − F_i))^{3/5})^{−1}`.
    Corrected,
    /// (3.13) as printed, with the extra factor `F_c/σ` in the bracket.
    Printed,
}

/// Next reversal `(x_{i+1}, a_{i+1})` in physical units (x from the zero crossing) for `a = |F_i|/F_c`.
/// `None` when the printed formula's denominator is not positive.
pub fn next_reversal(a: f64, fc: f64, sigma: f64, variant: Variant) -> Option<(f64, f64)> {
    let s = sigma / fc;
    let x = match variant {
        Variant::Exact => exact_next(a).0 / s,
        Variant::Corrected | Variant::Printed => {
            let ep = potential_energy(a, fc, sigma);
            // F_i = −a F_c: F_c/(F_c − F_i) = 1/(1 + a).
            let p = (1.0 / (1.0 + a)).powf(0.6);
            let denom = if variant == Variant::Corrected {
                1.0 - p
            } else {
                1.0 - p / s
            };
            if denom <= 0.0 {
                return None;
            }
            ep / fc / denom
        }
    };
    Some((x, -(-s * x).exp_m1()))
}

/// The approximation constant of (3.11): `K = (σ/F_c)(F_c/(F_c − F_i))^{0.6}` with `F_i = −a F_c`.
pub fn omega_linear_slope(a: f64, fc: f64, sigma: f64) -> f64 {
    sigma / fc * (1.0 / (1.0 + a)).powf(0.6)
}

/// Ω(x) = exp(−σx/F_c), (3.10).
pub fn omega(x: f64, fc: f64, sigma: f64) -> f64 {
    (-sigma / fc * x).exp()
}

/// The ascending Dahl branch from the reversal `(x_i, F_i = −a F_c)` with the zero crossing at the
/// origin, (3.5) and (3.8): returns `(x_i, f(x))` generator data: `x_i` and the closure's value.
pub fn branch_start(a: f64, fc: f64, sigma: f64) -> f64 {
    -(fc / sigma) * a.ln_1p()
}

/// f₊[x] on the branch through the zero crossing at the origin: `F_c (1 − e^{−σx/F_c})`.
pub fn branch_force(x: f64, fc: f64, sigma: f64) -> f64 {
    -fc * (-sigma / fc * x).exp_m1()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_bound_and_catalog_sequence() {
        assert!((max_potential_energy(1.0, 1.0) - 0.30685282).abs() < 1e-8);
        // Catalog (derived) exact sequence from a0 = 1.
        let expect = [0.593624, 0.423954, 0.330079, 0.270351, 0.228969];
        let mut a = 1.0;
        for e in expect {
            a = exact_next(a).1;
            assert!((a - e).abs() < 1e-6, "{a} vs {e}");
        }
    }

    #[test]
    fn exact_map_conserves_the_branch_energy() {
        // ∫_{x_i}^{x_{i+1}} f dx = 0 along the branch: the energy at x_{i+1} equals E_p(a).
        for a in [0.01, 0.3, 1.0] {
            let (y, b) = exact_next(a);
            assert!(((-b - (-b).ln_1p()) - (a - a.ln_1p())).abs() < 1e-14, "a = {a}");
            assert!(y > 0.0 && b < a);
        }
    }

    #[test]
    fn corrected_and_printed_variants() {
        let (x, b) = next_reversal(1.0, 1.0, 1.0, Variant::Corrected).unwrap();
        assert!((x - 0.90186).abs() < 1e-4 && (b - 0.594184).abs() < 1e-5);
        // The printed form equals the corrected one for σ/F_c = 1 and fails for σ/F_c < 0.66.
        let (xp, _) = next_reversal(1.0, 1.0, 1.0, Variant::Printed).unwrap();
        assert!((xp - x).abs() < 1e-15);
        assert!(next_reversal(1.0, 1.0, 0.6, Variant::Printed).is_none());
    }
}
