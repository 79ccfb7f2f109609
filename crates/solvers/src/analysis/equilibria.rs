//! Equilibrium sets of a scalar residual that may be set-valued (Filippov/Coulomb).

use crate::roots;
use std::convert::Infallible;

/// Where a set-valued residual `[lower(x), upper(x)]` stands relative to 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Above,
    Inside,
    Below,
}

fn side(b: (f64, f64)) -> Side {
    if b.0 > 0.0 {
        Side::Above
    } else if b.1 < 0.0 {
        Side::Below
    } else {
        Side::Inside
    }
}

/// The equilibrium set of a scalar residual that may be set-valued: the maximal intervals of
/// `[lo, hi]` on which `0 ∈ [lower(x), upper(x)]`, with `bounds(x) = (lower, upper)`.
///
/// A Filippov/Coulomb equilibrium condition such as `0 ∈ u − K x − F_c·[−1, 1]` gives intervals;
/// a single-valued residual (`lower = upper`) gives its zeros as degenerate intervals `[x*, x*]`.
/// The range is scanned on `n` equal cells and every change of side is refined by bisection to
/// the resolution of `f64`; features narrower than a cell may be missed (choose `n` accordingly).
pub fn equilibrium_set(lo: f64, hi: f64, n: usize, bounds: impl Fn(f64) -> (f64, f64)) -> Vec<(f64, f64)> {
    assert!(hi > lo && n > 0, "equilibrium_set needs lo < hi and n > 0");
    let at = |i: usize| lo + (hi - lo) * i as f64 / n as f64;
    // Bisect between a (side sa) and b (side sb ≠ sa) for the point where the side changes.
    let refine = |a: f64, b: f64, sa: Side| -> (f64, f64) {
        let half = |m: f64| {
            Ok::<_, Infallible>(if side(bounds(m)) == sa {
                roots::Side::Lo
            } else {
                roots::Side::Hi
            })
        };
        let Ok(ab) = roots::bisect(half, a, b, 0.0, 200);
        ab
    };
    let mut out = Vec::new();
    let mut start: Option<f64> = None;
    let mut x0 = at(0);
    let mut s0 = side(bounds(x0));
    if s0 == Side::Inside {
        start = Some(x0);
    }
    for i in 1..=n {
        let x1 = at(i);
        let s1 = side(bounds(x1));
        if s1 != s0 {
            let (a, b) = refine(x0, x1, s0);
            match (s0, s1) {
                (Side::Inside, _) => {
                    // Leaving the set; it may be entered and left again inside one cell only if
                    // the cell is too coarse.
                    out.push((start.take().unwrap_or(a), a));
                }
                (_, Side::Inside) => start = Some(b),
                // Straight through a single-valued zero.
                _ => out.push((a, b)),
            }
        }
        x0 = x1;
        s0 = s1;
    }
    if let Some(a) = start {
        out.push((a, hi));
    }
    out
}
