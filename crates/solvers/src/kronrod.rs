//! Adaptive Gauss–Kronrod (7–15 points) quadrature of a vector integrand on `[0, 1]`, with no
//! allocation: for integrals along the dense output of one integration step, whose integrand
//! may hold a boundary layer that a fixed rule would not resolve (the exponential integrator's
//! step in the relaxation variable spans a LuGre reversal's whole transient,
//! `crate::expint_periodic`).
//!
//! An interval is accepted when the 15-point Kronrod and the embedded 7-point Gauss values agree,
//! component by component, to `tol[i]` times its length (QUADPACK's QK15 difference, without its
//! heuristic rescaling: a plain, pessimistic bound), else it is halved, depth first, to at most
//! [`MAX_DEPTH`] halvings; an interval still not resolved there is accepted and counted.

/// The most halvings of `[0, 1]`.
pub const MAX_DEPTH: usize = 40;

/// Kronrod abscissae on `[−1, 1]`, the positive half (the last is the centre); the odd entries
/// (1, 3, 5) are the 7-point Gauss rule's, with the centre.
const XGK: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
/// Kronrod weights, as the abscissae.
const WGK: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_2,
    0.140_653_259_715_525_9,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_727_8,
];
/// Gauss weights at `XGK[1]`, `XGK[3]`, `XGK[5]` and the centre.
const WG: [f64; 4] = [
    0.129_484_966_168_869_7,
    0.279_705_391_489_276_7,
    0.381_830_050_505_118_9,
    0.417_959_183_673_469_4,
];

/// What [`integrate`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KronrodStats {
    /// Integrand evaluations.
    pub evals: usize,
    /// Intervals accepted at [`MAX_DEPTH`] without meeting the tolerance.
    pub unresolved: usize,
}

/// The 15-point Kronrod value and the 7-point Gauss value on `[x0, x0 + len]`.
fn qk15<const N: usize>(f: &mut impl FnMut(f64) -> [f64; N], x0: f64, len: f64) -> ([f64; N], [f64; N]) {
    let (c, r) = (x0 + 0.5 * len, 0.5 * len);
    let (mut k, mut g) = ([0.0; N], [0.0; N]);
    let mid = f(c);
    for i in 0..N {
        k[i] = WGK[7] * mid[i];
        g[i] = WG[3] * mid[i];
    }
    for j in 0..7 {
        let (lo, hi) = (f(c - r * XGK[j]), f(c + r * XGK[j]));
        for i in 0..N {
            let s = lo[i] + hi[i];
            k[i] += WGK[j] * s;
            if j % 2 == 1 {
                g[i] += WG[j / 2] * s;
            }
        }
    }
    for i in 0..N {
        k[i] *= r;
        g[i] *= r;
    }
    (k, g)
}

/// `∫_0^1 f`, component by component, each to about `tol[i]` (an absolute error per unit
/// length of the interval, so `tol[i]` in all); evaluations and unresolved intervals added to
/// `stats`.
pub fn integrate<const N: usize>(
    f: &mut impl FnMut(f64) -> [f64; N],
    tol: [f64; N],
    stats: &mut KronrodStats,
) -> [f64; N] {
    let mut total = [0.0; N];
    // Pending intervals (start, length, depth): depth first, at most one per level and the root.
    let mut stack = [(0.0, 0.0, 0usize); MAX_DEPTH + 2];
    stack[0] = (0.0, 1.0, 0);
    let mut top = 1;
    while top > 0 {
        top -= 1;
        let (x0, len, depth) = stack[top];
        let (k, g) = qk15(f, x0, len);
        stats.evals += 15;
        let ok = (0..N).all(|i| (k[i] - g[i]).abs() <= tol[i] * len);
        if ok || depth >= MAX_DEPTH {
            stats.unresolved += usize::from(!ok);
            for i in 0..N {
                total[i] += k[i];
            }
            continue;
        }
        let half = 0.5 * len;
        stack[top] = (x0 + half, half, depth + 1);
        stack[top + 1] = (x0, half, depth + 1);
        top += 2;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polynomials_of_degree_22_are_exact_and_a_boundary_layer_is_resolved() {
        let mut st = KronrodStats::default();
        // The Kronrod rule is exact to degree 22, the Gauss rule to 13: x^13 in one interval.
        let v = integrate(&mut |x: f64| [x.powi(13), x.powi(22)], [1e-15, 1.0], &mut st);
        assert!(
            (v[0] - 1.0 / 14.0).abs() < 1e-16 && (v[1] - 1.0 / 23.0).abs() < 1e-15,
            "{v:?}"
        );
        assert_eq!(
            st,
            KronrodStats {
                evals: 15,
                unresolved: 0
            }
        );
        // e^{−1000 x}: a layer 1e-3 wide at 0, to 1e-14.
        let mut st = KronrodStats::default();
        let v = integrate(&mut |x: f64| [(-1000.0 * x).exp()], [1e-14], &mut st);
        let want = (1.0 - (-1000f64).exp()) / 1000.0;
        assert!((v[0] - want).abs() < 1e-14, "{} vs {want}", v[0]);
        assert!(st.unresolved == 0 && st.evals > 15 && st.evals < 2000, "{st:?}");
    }
}
