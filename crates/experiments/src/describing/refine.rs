//! The drawn DF curve refined where it moves fast or bends: consecutive points whose DF differs
//! by more than a stated change get the amplitude midway, recursively, so that every drawn chord
//! is short against the curve itself (a relative change of `−1/N` and a turn of its phase) at
//! every scale a zoom may show.

use fric_solvers::describing::distance;
use fric_solvers::roots::bisect_sign;

/// Halvings of one interval between drawn points at most (a width of 1/4096 of it).
pub const MAX_DEPTH: u32 = 12;

/// What a refinement did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Refined {
    /// Points added.
    pub added: usize,
    /// Chords left longer than the stated change: [`MAX_DEPTH`] reached, or a midpoint without
    /// a value (no steady state there).
    pub unresolved: usize,
}

/// `pts` (ascending amplitude) with every pair of consecutive points that no gap separates
/// (`broken[i]`: a gap lies between points `i − 1` and `i`) and whose DF (`n`) differs by more
/// than `delta` ([`distance`]: `|ln N₂/N₁|`) refined: the amplitude midway (`lo + 0.5 (hi − lo)`,
/// the bisections' own midpoints, so points they computed are reused) is evaluated by `at` and
/// both halves refined in turn, until each pair differs by at most `delta`, [`MAX_DEPTH`]
/// halvings were made, or `at` has no value at the midpoint (`None`). A zero DF (no pre-sliding:
/// `−1/N` infinite) is not refined towards. The points and their `broken` flags.
#[allow(clippy::type_complexity)]
pub fn refine<T: Copy, E>(
    pts: &[(f64, T)],
    broken: &[bool],
    n: impl Fn(&T) -> (f64, f64),
    mut at: impl FnMut(f64) -> Result<Option<T>, E>,
    delta: f64,
) -> Result<(Vec<(f64, T)>, Vec<bool>, Refined), E> {
    let mut out: Vec<(f64, T)> = Vec::with_capacity(pts.len());
    let mut out_broken = Vec::with_capacity(pts.len());
    let mut stats = Refined::default();
    for (i, &p) in pts.iter().enumerate() {
        if let Some(&q) = pts.get(i.wrapping_sub(1)).filter(|_| i > 0 && !broken[i]) {
            let mut inner = Vec::new();
            fill(q, p, 0, &n, &mut at, delta, &mut inner, &mut stats)?;
            for r in inner {
                out.push(r);
                out_broken.push(false);
            }
        }
        out.push(p);
        out_broken.push(broken[i]);
    }
    Ok((out, out_broken, stats))
}

/// The points strictly between `lo` and `hi` that [`refine`] adds, ascending, into `inner`.
#[allow(clippy::too_many_arguments)]
fn fill<T: Copy, E>(
    lo: (f64, T),
    hi: (f64, T),
    depth: u32,
    n: &impl Fn(&T) -> (f64, f64),
    at: &mut impl FnMut(f64) -> Result<Option<T>, E>,
    delta: f64,
    inner: &mut Vec<(f64, T)>,
    stats: &mut Refined,
) -> Result<(), E> {
    let (n_lo, n_hi) = (n(&lo.1), n(&hi.1));
    let zero = |v: (f64, f64)| v == (0.0, 0.0);
    if zero(n_lo) || zero(n_hi) || distance(n_lo, n_hi) <= delta {
        return Ok(());
    }
    let m = lo.0 + 0.5 * (hi.0 - lo.0);
    if depth == MAX_DEPTH || m <= lo.0 || m >= hi.0 {
        stats.unresolved += 1;
        return Ok(());
    }
    let Some(v) = at(m)? else {
        stats.unresolved += 1;
        return Ok(());
    };
    stats.added += 1;
    fill(lo, (m, v), depth + 1, n, at, delta, inner, stats)?;
    inner.push((m, v));
    fill((m, v), hi, depth + 1, n, at, delta, inner, stats)
}

/// A sign bisection of `f` along a drawn segment from `lo` to `hi` (`f` of opposite signs there)
/// to a width `xtol`: the final bracket `(lo, f(lo), hi, f(hi))`, or `None` where it met an
/// amplitude without a steady state (`f` gives `None`): a hole inside the segment, which is then
/// no drawn segment there but a gap, and the crossing an unresolved one (issue 43: with
/// `gap_edges`, a segment that reached into the holes near 0.287 N·m of report Fig 5.22 at
/// ω = 10 rad/s stopped the run at a = 0.28705).
pub fn bisect_drawn<E>(
    mut f: impl FnMut(f64) -> Result<Option<f64>, E>,
    lo: (f64, f64),
    hi: (f64, f64),
    xtol: f64,
) -> Result<Option<(f64, f64, f64, f64)>, E> {
    // [`bisect_sign`], a hole ending it as an error of its own (`None`; `f`'s error as `Some`).
    match bisect_sign(|m| f(m).map_err(Some)?.ok_or(None), lo, hi, xtol) {
        Ok(b) => Ok(Some(b)),
        Err(None) => Ok(None),
        Err(Some(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DF whose `ln N` rises by 3 within 0.01 around a = 0.5 (a steep but continuous bend)
    /// and jumps by 2 at a = 0.8 (a gap).
    fn n_of(a: f64) -> (f64, f64) {
        let ln = 1.5 * (1.0 + ((a - 0.5) * 200.0).tanh()) + if a >= 0.8 { 2.0 } else { 0.0 };
        (ln.exp(), 0.0)
    }

    #[test]
    fn chords_are_refined_to_the_stated_change_but_not_across_a_gap() {
        let grid: Vec<(f64, (f64, f64))> = (0..=10).map(|k| k as f64 / 10.0).map(|a| (a, n_of(a))).collect();
        // The gap lies between 0.7 and 0.8 (found by the jump bisection).
        let broken: Vec<bool> = grid.iter().map(|p| p.0 == 0.8).collect();
        let mut calls = 0;
        let (pts, brk, stats) = refine(
            &grid,
            &broken,
            |v| *v,
            |a| {
                calls += 1;
                Ok::<_, ()>(Some(n_of(a)))
            },
            0.05,
        )
        .unwrap();
        assert_eq!(stats.unresolved, 0, "{stats:?}");
        assert_eq!(stats.added, calls);
        assert!(pts.windows(2).all(|w| w[0].0 < w[1].0), "ascending");
        for (k, w) in pts.windows(2).enumerate() {
            if brk[k + 1] {
                // The gap is kept as it was: nothing evaluated inside it.
                assert_eq!((w[0].0, w[1].0), (0.7, 0.8));
            } else {
                assert!(distance(w[0].1, w[1].1) <= 0.05, "{w:?}");
            }
        }
        assert_eq!(brk.iter().filter(|b| **b).count(), 1);
        // The rise of 3 needs at least 60 chords; the flat parts none.
        assert!(stats.added >= 60 && stats.added < 200, "{stats:?}");
        // A hole at the midpoint leaves the chord, counted.
        let (_, _, holey) = refine(&grid[4..6], &[false, false], |v| *v, |_| Ok::<_, ()>(None), 0.05).unwrap();
        assert_eq!(
            holey,
            Refined {
                added: 0,
                unresolved: 1
            }
        );
    }

    #[test]
    fn a_hole_on_a_drawn_segment_stops_its_bisection() {
        let f = |a: f64| Ok::<_, ()>(Some(a - 2.5));
        let (lo, _, hi, _) = bisect_drawn(f, (2.0, -0.5), (3.0, 0.5), 1e-12).unwrap().unwrap();
        assert!(lo <= 2.5 && hi >= 2.5 && hi - lo <= 1e-12);
        let holey = |a: f64| Ok::<_, ()>((!(2.4..2.6).contains(&a)).then_some(a - 2.5));
        assert_eq!(bisect_drawn(holey, (2.0, -0.5), (3.0, 0.5), 1e-12), Ok(None));
    }
}
