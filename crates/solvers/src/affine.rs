//! Exact-along-the-input integration of a scalar affine ODE `z' = a(t) z + b(t)`.
//!
//! Single-state friction models under prescribed motion (LuGre and its variants, Dahl with unit
//! exponent) are affine in their state once the input is known: `a` and `b` are functions of
//! `u(t), u'(t)` only. The solution over `[p, q]` is the affine map `z ↦ Φ z + ψ` with the
//! integrating factor
//!
//! `Φ = exp(∫_p^q a)`, `ψ = ∫_p^q exp(∫_s^q a) b(s) ds`,
//!
//! and maps compose: on `[p, m] ∪ [m, q]`, `Φ = Φ_R Φ_L` and `ψ = Φ_R ψ_L + ψ_R`. This module
//! evaluates both integrals by adaptive quadrature: on a leaf interval, an 8-point
//! Gauss–Legendre rule for `ψ`, with the inner integrals `∫_p^{s_i} a` at its own nodes from the
//! spectral integration matrix of the same nodes (exact for the degree-7 interpolant of `a`);
//! the leaf result is compared with the composition of its two halves, and the interval is
//! bisected until they agree within the tolerance.
//!
//! Why this has no stiffness and no step cap: the halves are processed right to left, and the
//! error of the left half reaches `z(q)` multiplied by `Φ_R`, so the left half's tolerance is
//! divided by `Φ_R`. In fast relaxation (`∫ a ≪ −1`) `Φ_R` is tiny, the left half is accepted at
//! once, and refinement only follows the boundary layer at `q`: the work grows with the
//! logarithm of the stiffness, not with it. Accuracy is the quadrature's, set by the tolerance,
//! with no time step anywhere. No allocation: the recursion lives on the call stack (depth ≤
//! [`MAX_DEPTH`]).

/// Gauss–Legendre nodes on `[−1, 1]` (8 points).
const X: [f64; 8] = [
    -0.960_289_856_497_536_3,
    -0.796_666_477_413_626_7,
    -0.525_532_409_916_329,
    -0.183_434_642_495_649_8,
    0.183_434_642_495_649_8,
    0.525_532_409_916_329,
    0.796_666_477_413_626_7,
    0.960_289_856_497_536_3,
];
/// Their weights.
const W: [f64; 8] = [
    0.101_228_536_290_376_26,
    0.222_381_034_453_374_47,
    0.313_706_645_877_887_3,
    0.362_683_783_378_362,
    0.362_683_783_378_362,
    0.313_706_645_877_887_3,
    0.222_381_034_453_374_47,
    0.101_228_536_290_376_26,
];

/// Deepest bisection (an interval of `2^-48` of the one given).
pub const MAX_DEPTH: u32 = 48;

/// `S[i][j] = ∫_{-1}^{x_i} ℓ_j(x) dx`, `ℓ_j` the Lagrange basis on the nodes: `Σ_j S[i][j] f(x_j)`
/// is the integral from −1 to `x_i` of the interpolant of `f`. Computed once, exactly (each
/// integrand has degree 7 and the 8-point rule on `[−1, x_i]` is exact to degree 15).
fn spectral_matrix() -> &'static [[f64; 8]; 8] {
    static S: std::sync::OnceLock<[[f64; 8]; 8]> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let lagrange = |j: usize, x: f64| {
            (0..8)
                .filter(|&k| k != j)
                .map(|k| (x - X[k]) / (X[j] - X[k]))
                .product::<f64>()
        };
        let mut s = [[0.0; 8]; 8];
        for (i, row) in s.iter_mut().enumerate() {
            let half = (X[i] + 1.0) / 2.0;
            for (j, v) in row.iter_mut().enumerate() {
                *v = (0..8)
                    .map(|k| W[k] * lagrange(j, -1.0 + half * (X[k] + 1.0)))
                    .sum::<f64>()
                    * half;
            }
        }
        s
    })
}

/// The affine map `z ↦ phi z + psi` of one interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Map {
    pub phi: f64,
    pub psi: f64,
}

impl Map {
    pub const IDENTITY: Map = Map { phi: 1.0, psi: 0.0 };
    /// `self` after `first`.
    pub fn after(self, first: Map) -> Map {
        Map {
            phi: self.phi * first.phi,
            psi: self.phi * first.psi + self.psi,
        }
    }
    pub fn apply(self, z: f64) -> f64 {
        self.phi * z + self.psi
    }
}

/// Accuracy of [`propagate`].
#[derive(Clone, Copy, Debug)]
pub struct AffineTolerance {
    /// The error allowed in `z(q)`, absolute: the caller sets it from the scale of `z`.
    pub abs: f64,
    /// The size of `z` the error in `Φ` multiplies (`|δΦ| z_scale + |δψ| ≤ abs`).
    pub z_scale: f64,
}

/// Work done, for benchmarks and run metadata.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AffineStats {
    /// Leaf rules evaluated (8 evaluations of the coefficients each).
    pub leaves: usize,
    /// Intervals accepted.
    pub accepted: usize,
    /// Intervals that reached [`MAX_DEPTH`] without meeting the tolerance (accepted anyway and
    /// reported: the caller decides whether that is an error).
    pub unresolved: usize,
}

impl std::ops::AddAssign for AffineStats {
    fn add_assign(&mut self, o: AffineStats) {
        self.leaves += o.leaves;
        self.accepted += o.accepted;
        self.unresolved += o.unresolved;
    }
}

/// Largest `|∫ a|` over each half of a leaf pair for which agreement is trusted: `exp` then
/// varies by at most `e⁸` across the half, so its nodes (the last 0.02 h from the end) sample
/// any boundary layer and a disagreement shows. A stiffer pair that agrees is only accepted when
/// its whole contribution is below the tolerance (see `refine`): agreement alone would accept two
/// rules that both miss a boundary layer narrower than their node spacing. (8 rather than 2:
/// the same accuracy on the LuGre benchmark, 5e-8 N, with 40 % less work.)
const STIFF: f64 = 8.0;

/// One leaf: its map, `|∫ a|` over it, and a bound on how much the map can move `z(q)`.
#[derive(Clone, Copy)]
struct Leaf {
    map: Map,
    stiffness: f64,
    reach: f64,
}

/// The 8-point leaf rule on `[p, q]`; `coef(t) = (a(t), b(t))`; `z_scale` as in
/// [`AffineTolerance`].
fn leaf<F: Fn(f64) -> (f64, f64)>(coef: &F, p: f64, q: f64, z_scale: f64) -> Leaf {
    let s = spectral_matrix();
    let (c, h) = ((p + q) / 2.0, (q - p) / 2.0);
    let mut a = [0.0; 8];
    let mut b = [0.0; 8];
    for k in 0..8 {
        (a[k], b[k]) = coef(c + h * X[k]);
    }
    let total: f64 = h * (0..8).map(|k| W[k] * a[k]).sum::<f64>();
    let mut psi = 0.0;
    let mut growth = total.max(0.0);
    let mut bmax = 0.0f64;
    for i in 0..8 {
        let inner: f64 = h * (0..8).map(|j| s[i][j] * a[j]).sum::<f64>();
        psi += W[i] * (total - inner).exp() * b[i];
        growth = growth.max(total - inner);
        bmax = bmax.max(b[i].abs());
    }
    let phi = total.exp();
    Leaf {
        map: Map { phi, psi: h * psi },
        stiffness: total.abs(),
        // |Φ| z_scale + (q − p) max|b| max e^{∫_s^q a}: the size of what the map does to z(q).
        reach: phi.abs() * z_scale + 2.0 * h * bmax * growth.exp(),
    }
}

fn refine<F: Fn(f64) -> (f64, f64)>(
    coef: &F,
    p: f64,
    q: f64,
    whole: Leaf,
    tol: AffineTolerance,
    depth: u32,
    stats: &mut AffineStats,
) -> Map {
    let m = 0.5 * (p + q);
    let left = leaf(coef, p, m, tol.z_scale);
    let right = leaf(coef, m, q, tol.z_scale);
    stats.leaves += 2;
    let halves = right.map.after(left.map);
    let err = (halves.phi - whole.map.phi).abs() * tol.z_scale + (halves.psi - whole.map.psi).abs();
    // Trusted: the rules agree and resolve the exponential, or whatever they missed cannot
    // matter (both estimates and the true map are smaller than the tolerance).
    let resolved = left.stiffness.max(right.stiffness) <= STIFF;
    let negligible = 2.0 * whole.reach <= tol.abs;
    if (err <= tol.abs && resolved) || negligible {
        stats.accepted += 1;
        return halves;
    }
    if depth >= MAX_DEPTH || m <= p || m >= q || !err.is_finite() {
        stats.unresolved += 1;
        stats.accepted += 1;
        return halves;
    }
    // Right half first: the left half's error reaches z(q) through Φ_R.
    let r = refine(
        coef,
        m,
        q,
        right,
        AffineTolerance {
            abs: tol.abs / 2.0,
            ..tol
        },
        depth + 1,
        stats,
    );
    let shrink = r.phi.abs().max(f64::MIN_POSITIVE);
    let l = refine(
        coef,
        p,
        m,
        left,
        AffineTolerance {
            abs: tol.abs / 2.0 / shrink,
            ..tol
        },
        depth + 1,
        stats,
    );
    r.after(l)
}

/// The affine map of `z' = a(t) z + b(t)` over `[p, q]`, `coef(t) = (a(t), b(t))`, with
/// `|δΦ| z_scale + |δψ| ≤ tol.abs` estimated. `a` and `b` must be smooth on `[p, q]` (split the
/// interval at kinks of the input first).
pub fn propagate<F: Fn(f64) -> (f64, f64)>(
    coef: &F,
    p: f64,
    q: f64,
    tol: AffineTolerance,
    stats: &mut AffineStats,
) -> Map {
    if q <= p {
        return Map::IDENTITY;
    }
    let whole = leaf(coef, p, q, tol.z_scale);
    stats.leaves += 1;
    refine(coef, p, q, whole, tol, 0, stats)
}

/// `z` at every save time in `[t0, t1]` (each passed to `out`) and at `t1`, from `z(t0) = z0`,
/// by [`propagate`] from one save time to the next: the values are exact maps of the previous
/// value, so the sampling does not affect accuracy. Returns `z(t1)`.
#[allow(clippy::too_many_arguments)]
pub fn solve_affine<F: Fn(f64) -> (f64, f64)>(
    coef: &F,
    t0: f64,
    z0: f64,
    t1: f64,
    saveat: &[f64],
    tol: AffineTolerance,
    stats: &mut AffineStats,
    out: &mut dyn FnMut(f64, f64),
) -> f64 {
    let (mut t, mut z) = (t0, z0);
    for &s in saveat.iter().filter(|&&s| s >= t0 && s <= t1) {
        z = propagate(coef, t, s, tol, stats).apply(z);
        t = s;
        out(s, z);
    }
    propagate(coef, t, t1, tol, stats).apply(z)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(abs: f64) -> AffineTolerance {
        AffineTolerance { abs, z_scale: 1.0 }
    }

    #[test]
    fn the_spectral_matrix_integrates_polynomials_of_degree_7_exactly() {
        let s = spectral_matrix();
        for deg in 0..8 {
            for i in 0..8 {
                let got: f64 = (0..8).map(|j| s[i][j] * X[j].powi(deg)).sum();
                let want = (X[i].powi(deg + 1) - (-1f64).powi(deg + 1)) / (deg + 1) as f64;
                assert!((got - want).abs() < 1e-14, "deg {deg} node {i}: {got} vs {want}");
            }
        }
    }

    #[test]
    fn constant_coefficients_give_the_closed_form() {
        // z' = −λ z + c: z(t) = c/λ + (z0 − c/λ) e^{−λ t}, over five decades of λ.
        for lambda in [1e-3, 1.0, 1e2, 1e4, 1e7] {
            let (c, z0, t) = (2.0, -1.0, 0.37);
            let mut st = AffineStats::default();
            let z = propagate(&|_| (-lambda, c), 0.0, t, tol(1e-13), &mut st).apply(z0);
            let want = c / lambda + (z0 - c / lambda) * (-lambda * t).exp();
            assert!(
                (z - want).abs() <= 1e-12 * (1.0 + want.abs()),
                "λ = {lambda}: {z} vs {want}"
            );
            // No step cap: the work grows like log(λ t), not like λ t.
            assert!(st.leaves < 400, "λ = {lambda}: {} leaves", st.leaves);
        }
    }

    #[test]
    fn time_varying_coefficients_match_the_closed_form() {
        // z' = −2t z + t: z = 1/2 + (z0 − 1/2) e^{−t²}.
        let mut st = AffineStats::default();
        let z = propagate(&|t| (-2.0 * t, t), 0.0, 3.0, tol(1e-14), &mut st).apply(4.0);
        let want = 0.5 + 3.5 * (-9f64).exp();
        assert!((z - want).abs() < 1e-13, "{z} vs {want}");
        // Sampled propagation gives the same end value.
        let save: Vec<f64> = (1..30).map(|k| k as f64 * 0.1).collect();
        let mut n = 0;
        let z2 = solve_affine(
            &|t| (-2.0 * t, t),
            0.0,
            4.0,
            3.0,
            &save,
            tol(1e-14),
            &mut st,
            &mut |s, z| {
                n += 1;
                let w = 0.5 + 3.5 * (-s * s).exp();
                assert!((z - w).abs() < 1e-13, "t = {s}: {z} vs {w}");
            },
        );
        assert_eq!(n, save.len());
        assert!((z2 - want).abs() < 1e-13);
    }

    #[test]
    fn the_error_falls_with_the_tolerance() {
        // A stiff, rapidly varying relaxation: z' = −1e4 (1 + 0.9 sin 50t) z + cos 7t.
        let coef = |t: f64| (-1e4 * (1.0 + 0.9 * (50.0 * t).sin()), (7.0 * t).cos());
        let mut st = AffineStats::default();
        let reference = propagate(&coef, 0.0, 1.0, tol(1e-16), &mut st).apply(0.3);
        for t in [1e-6, 1e-8, 1e-10, 1e-12] {
            let z = propagate(&coef, 0.0, 1.0, tol(t), &mut st).apply(0.3);
            let e = (z - reference).abs();
            assert!(e <= t, "tolerance {t}: error {e}");
        }
    }
}
