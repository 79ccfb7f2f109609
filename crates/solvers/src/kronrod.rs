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
//!
//! Limits, so that no tolerance makes it run for long: the tolerance of an interval is raised to
//! its rounding floor, [`ROUNDING_ULPS`] ulps of `∫|f|` over it (QUADPACK's `50 ε resabs`: below
//! it the two rules' difference is rounding, and halving does not reduce it); at most
//! [`MAX_INTERVALS`] intervals are integrated, beyond them the quadrature is an error; a
//! non-finite value of the integrand is an error at once.

/// The most halvings of `[0, 1]`.
pub const MAX_DEPTH: usize = 40;

/// The rounding floor of an interval's tolerance, in units of `ε ∫|f|` over it.
pub const ROUNDING_ULPS: f64 = 50.0;

/// The most intervals one integral may take (15 evaluations each); the describing function's
/// steps take 1 to a few tens.
pub const MAX_INTERVALS: usize = 20_000;

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

/// The 15-point Kronrod value, the 7-point Gauss value and the Kronrod value of `|f|` on
/// `[x0, x0 + len]`.
fn qk15<const N: usize>(f: &mut impl FnMut(f64) -> [f64; N], x0: f64, len: f64) -> [[f64; N]; 3] {
    let (c, r) = (x0 + 0.5 * len, 0.5 * len);
    let (mut k, mut g, mut a) = ([0.0; N], [0.0; N], [0.0; N]);
    let mid = f(c);
    for i in 0..N {
        k[i] = WGK[7] * mid[i];
        g[i] = WG[3] * mid[i];
        a[i] = WGK[7] * mid[i].abs();
    }
    for j in 0..7 {
        let (lo, hi) = (f(c - r * XGK[j]), f(c + r * XGK[j]));
        for i in 0..N {
            let s = lo[i] + hi[i];
            k[i] += WGK[j] * s;
            a[i] += WGK[j] * (lo[i].abs() + hi[i].abs());
            if j % 2 == 1 {
                g[i] += WG[j / 2] * s;
            }
        }
    }
    for i in 0..N {
        k[i] *= r;
        g[i] *= r;
        a[i] *= r;
    }
    [k, g, a]
}

/// `∫_0^1 f`, component by component, each to about `tol[i]` (an absolute error per unit
/// length of the interval, so `tol[i]` in all; raised to the rounding floor, see the module
/// docs); evaluations and unresolved intervals added to `stats`. An error when the integrand is
/// not finite or the integral needs more than [`MAX_INTERVALS`] intervals.
pub fn integrate<const N: usize>(
    f: &mut impl FnMut(f64) -> [f64; N],
    tol: [f64; N],
    stats: &mut KronrodStats,
) -> Result<[f64; N], String> {
    let mut total = [0.0; N];
    // Pending intervals (start, length, depth): depth first, at most one per level and the root.
    let mut stack = [(0.0, 0.0, 0usize); MAX_DEPTH + 2];
    stack[0] = (0.0, 1.0, 0);
    let mut top = 1;
    let mut intervals = 0;
    while top > 0 {
        top -= 1;
        let (x0, len, depth) = stack[top];
        intervals += 1;
        if intervals > MAX_INTERVALS {
            return Err(format!(
                "Gauss–Kronrod quadrature: more than {MAX_INTERVALS} intervals for the tolerance {tol:?} (at x = {x0:e} of [0, 1])"
            ));
        }
        let [k, g, a] = qk15(f, x0, len);
        stats.evals += 15;
        if !k.iter().chain(&a).all(|v| v.is_finite()) {
            return Err(format!(
                "Gauss–Kronrod quadrature: the integrand is not finite on [{x0:e}, {:e}] of [0, 1]",
                x0 + len
            ));
        }
        let ok = (0..N).all(|i| (k[i] - g[i]).abs() <= (tol[i] * len).max(ROUNDING_ULPS * f64::EPSILON * a[i]));
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
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polynomials_of_degree_22_are_exact_and_a_boundary_layer_is_resolved() {
        let mut st = KronrodStats::default();
        // The Kronrod rule is exact to degree 22, the Gauss rule to 13: x^13 in one interval.
        let v = integrate(&mut |x: f64| [x.powi(13), x.powi(22)], [1e-15, 1.0], &mut st).unwrap();
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
        let v = integrate(&mut |x: f64| [(-1000.0 * x).exp()], [1e-14], &mut st).unwrap();
        let want = (1.0 - (-1000f64).exp()) / 1000.0;
        assert!((v[0] - want).abs() < 1e-14, "{} vs {want}", v[0]);
        assert!(st.unresolved == 0 && st.evals > 15 && st.evals < 2000, "{st:?}");
    }

    /// A tolerance below rounding (1e-16 relative, and 0) stops at the rounding floor: the
    /// boundary layer's integral to a few ulps, within the budget and every interval resolved
    /// (555 and 11 205 evaluations: at 0 each interval down the tail is resolved to its own
    /// rounding). Without the floor (tried) the budget ends it, an error.
    #[test]
    fn a_tolerance_below_rounding_stops_at_the_floor() {
        let want = (1.0 - (-1000f64).exp()) / 1000.0;
        for tol in [1e-16 * want, 0.0] {
            let mut st = KronrodStats::default();
            let v = integrate(&mut |x: f64| [(-1000.0 * x).exp()], [tol], &mut st).unwrap();
            eprintln!("tol {tol:e}: {st:?}, error {:e}", v[0] - want);
            assert!((v[0] - want).abs() < 4.0 * f64::EPSILON * want, "{} vs {want}", v[0]);
            assert!(st.unresolved == 0 && st.evals < 15 * MAX_INTERVALS, "{st:?}");
        }
    }

    /// A NaN anywhere, or an integrand that no halving resolves (noise), is an error, promptly.
    #[test]
    fn a_non_finite_or_unresolvable_integrand_is_an_error() {
        let mut st = KronrodStats::default();
        let e = integrate(&mut |x: f64| [if x > 0.7 { f64::NAN } else { x }], [1e-10], &mut st).unwrap_err();
        assert!(e.contains("not finite"), "{e}");
        assert!(st.evals <= 15 * MAX_DEPTH, "{st:?}");
        let mut st = KronrodStats::default();
        let noise = |x: f64| [((x * 1e6).sin() * 43_758.545_3).fract()];
        let e = integrate(&mut { noise }, [1e-12], &mut st).unwrap_err();
        assert!(e.contains("more than"), "{e}");
        assert_eq!(st.evals, 15 * MAX_INTERVALS, "{st:?}");
    }
}
