//! One monotone segment of a driven run by the exponential integrator (`fric_solvers::expint`),
//! split where `|u'|` crosses [`STRIBECK_SPLIT`] times the model's speed scale: the project's
//! one exponential driver, also the benchmark's (`bench/src/own.rs` calls [`exponential_segment`]
//! with the scheme it compares).

use fric_solvers::expint::{solve_with, ExpScheme, ExpStats, ExpTolerance, NODES};
use fric_solvers::expquad::Relaxation;
use fric_solvers::roots::bisect_sign;
use std::convert::Infallible;

/// The exponential driver splits each monotone piece of the input where `|u'|` crosses this
/// multiple of the model's speed scale ([`fric_models::InputDriven::speed_scale`], LuGre's
/// `v_s`): above it `g(u')` is `F_c` to `e^{−36}` of `F_s − F_c`, so the relaxation target
/// `−b/a` is constant and any step is exact there, and the Stribeck region is a piece of its own
/// whose nodes see it (at 3 `v_s` the bench prototype's error stalled at 1.7e-6 N,
/// docs/benchmarks.md).
pub const STRIBECK_SPLIT: f64 = 6.0;

/// `z' = a(t) z + b(t)` (`coef(t) = (a, b)`) from `z0` at `a` to `b` by `scheme`, the segment
/// `[a, b]` monotone in the input (its derivative `du`), split at the times where `|u'|` crosses
/// [`STRIBECK_SPLIT`] times `speed_scale` (none without one); `pieces` is the caller's buffer for
/// the pieces' ends (cleared and refilled, so that no segment allocates it). The outputs at
/// `saveat` (ascending, in `(a, b]`) go to `out`; returns `z(b)`.
#[allow(clippy::too_many_arguments)]
pub fn exponential_segment<X: ExpScheme>(
    scheme: &X,
    coef: &impl Fn(f64) -> (f64, f64),
    du: &impl Fn(f64) -> f64,
    speed_scale: Option<f64>,
    (a, z0, b): (f64, f64, f64),
    saveat: &[f64],
    tol: ExpTolerance,
    stats: &mut ExpStats,
    pieces: &mut Vec<f64>,
    out: &mut dyn FnMut(f64, f64),
) -> Result<f64, String> {
    pieces.clear();
    pieces.push(a);
    if let Some(vs) = speed_scale {
        speed_splits(du, a, b, STRIBECK_SPLIT * vs, pieces);
    }
    pieces.push(b);
    let (mut z, mut k) = (z0, 0);
    for p in pieces.windows(2) {
        let kj = k + saveat[k..].partition_point(|&s| s <= p[1]);
        z = solve_with(scheme, coef, p[0], z, p[1], &saveat[k..kj], tol, stats, out)?;
        k = kj;
    }
    Ok(z)
}

/// The times in `(a, b)` where `|u'|` crosses `level`, ascending, into `out`: `|u'|` on 32
/// equal intervals, each change of side bisected to rounding ([`bisect_sign`] on `|u'| − level`,
/// whose sign is the side: `x > y` exactly when `x − y > 0`; one crossing per interval; an
/// excursion shorter than an interval, which a monotone piece of a sine never has, is not seen).
pub(crate) fn speed_splits(du: &impl Fn(f64) -> f64, a: f64, b: f64, level: f64, out: &mut Vec<f64>) {
    const INTERVALS: usize = 32;
    let excess = |t: f64| du(t).abs() - level;
    let (mut t0, mut e0) = (a, excess(a));
    for i in 1..=INTERVALS {
        let t1 = if i == INTERVALS {
            b
        } else {
            a + (b - a) * i as f64 / INTERVALS as f64
        };
        let e1 = excess(t1);
        if (e1 > 0.0) != (e0 > 0.0) {
            let Ok((_, _, hi, _)) = bisect_sign(|t| Ok::<_, Infallible>(excess(t)), (t0, e0), (t1, e1), 0.0);
            if hi > a && hi < b {
                out.push(hi);
            }
        }
        (t0, e0) = (t1, e1);
    }
}

/// The `exponential` method's scheme: the quadrature in the relaxation variable with `NODES`
/// Gauss nodes (`fric_solvers::expquad`; a step where the variable change does not apply is the
/// collocation in time with the same nodes), its constants computed once.
pub fn relaxation() -> &'static Relaxation<NODES> {
    static R: std::sync::OnceLock<Relaxation<NODES>> = std::sync::OnceLock::new();
    R.get_or_init(Relaxation::new)
}
