//! Jumps of the describing function between two amplitudes, refined by bisection (with probes
//! around holes where no steady state converges).

use super::distance;

/// Where in a bracket a bisection probes: the midpoint first, then nearby points when the
/// function has no value there (an isolated steady state that would not converge).
pub const PROBES: [f64; 5] = [0.5, 0.45, 0.55, 0.4, 0.6];

/// A jump of the DF between two amplitudes, refined by bisection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jump {
    pub lo: f64,
    pub hi: f64,
    pub n_lo: (f64, f64),
    pub n_hi: (f64, f64),
    /// [`distance`] between `n_lo` and `n_hi` at the final width.
    pub size: f64,
    pub evaluations: usize,
    /// The bisection stopped at an amplitude where `df` could not be computed (`None`).
    pub unresolved: bool,
}

impl Jump {
    /// The jump between `lo` and `hi`, its `size` the [`distance`] between `n_lo` and `n_hi`.
    pub fn between(lo: f64, hi: f64, n_lo: (f64, f64), n_hi: (f64, f64), evaluations: usize, unresolved: bool) -> Self {
        let size = distance(n_lo, n_hi);
        Jump {
            lo,
            hi,
            n_lo,
            n_hi,
            size,
            evaluations,
            unresolved,
        }
    }

    /// A gap: a change of at least `gap` that survived the bisection, or one of more than `jump`
    /// (the change between grid points that starts a refinement) across a bracket whose
    /// bisection stopped at uncomputed points (across a smaller change such a bracket is only
    /// uncomputed points inside one branch).
    pub fn is_gap(&self, gap: f64, jump: f64) -> bool {
        self.size >= gap && (!self.unresolved || self.size > jump)
    }
}

/// What a bisection learns from one evaluation of the DF.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sample<T = (f64, f64)> {
    /// The DF there (or what the caller computes with it).
    Value(T),
    /// No value at this amplitude (a steady state that would not converge): a point nearby
    /// may have one, so the next of [`PROBES`] is tried.
    Hole,
    /// No value, and none nearer the jump is to be expected: the amplitude lies on the boundary
    /// between two basins of attraction (the simulation from rest stays on the unstable orbit
    /// that separates them), and so does every point as close to the jump. The bisection stops.
    Boundary,
}

impl<T> Sample<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Sample<U> {
        match self {
            Sample::Value(v) => Sample::Value(f(v)),
            Sample::Hole => Sample::Hole,
            Sample::Boundary => Sample::Boundary,
        }
    }

    pub fn value(self) -> Option<T> {
        match self {
            Sample::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// One step of a bisection of `(lo, hi)` (either order): `f` at the midpoint, or at the next of
/// the [`PROBES`] while it finds a [`Sample::Hole`], until a [`Sample::Boundary`]. The first point
/// with a value (none if every probe failed or a boundary was met) and the evaluations spent.
pub fn probe<T, E>(
    lo: f64,
    hi: f64,
    mut f: impl FnMut(f64) -> Result<Sample<T>, E>,
) -> Result<(Option<(f64, T)>, usize), E> {
    let mut evaluations = 0;
    for p in PROBES {
        let m = lo + p * (hi - lo);
        if m == lo || m == hi {
            continue;
        }
        evaluations += 1;
        match f(m)? {
            Sample::Value(v) => return Ok((Some((m, v)), evaluations)),
            Sample::Hole => {}
            Sample::Boundary => break,
        }
    }
    Ok((None, evaluations))
}

/// Bisect `[lo, hi]` towards the larger change of `df` (by [`distance`]) until the interval is
/// narrower than `rel · hi`, or the change across it has fallen below `continuous` (then the
/// change is steep but continuous, and the bisection stops early). A discontinuity keeps a finite
/// `size` down to the final width. Where `df` has no value at any of the [`PROBES`] near the
/// midpoint, or returns [`Sample::Boundary`], the bisection stops with `unresolved`.
pub fn refine_jump<E>(
    df: impl FnMut(f64) -> Result<Sample, E>,
    lo: (f64, (f64, f64)),
    hi: (f64, (f64, f64)),
    rel: f64,
    continuous: f64,
) -> Result<Jump, E> {
    bisect_jump(df, lo, hi, rel, continuous, |_, _| {})
}

/// Every jump of `df` in `[lo, hi]`: [`refine_jump`]'s bisection, and each half it leaves whose
/// change still exceeds `trigger` (the change between grid points that starts a refinement)
/// refined in turn, with the halves those leave, until none is left. The bisection follows the
/// larger change, so where one bracket holds two features (a jump and a steep but continuous
/// rise beside it, or two jumps) it finds only one, and which one depended on where the grid
/// points fell (report Fig 5.22 at ω = 10 rad/s: the second gap found on a grid of 81
/// amplitudes, lost on one of 161). The jumps, sorted by amplitude, their brackets disjoint.
pub fn refine_jumps<E>(
    mut df: impl FnMut(f64) -> Result<Sample, E>,
    lo: (f64, (f64, f64)),
    hi: (f64, (f64, f64)),
    rel: f64,
    continuous: f64,
    trigger: f64,
) -> Result<Vec<Jump>, E> {
    type End = (f64, (f64, f64));
    let mut todo: Vec<(End, End)> = vec![(lo, hi)];
    let mut jumps = Vec::new();
    while let Some((lo, hi)) = todo.pop() {
        let mut left = Vec::new();
        jumps.push(bisect_jump(&mut df, lo, hi, rel, continuous, |a: End, b: End| {
            if distance(a.1, b.1) > trigger {
                left.push((a, b));
            }
        })?);
        todo.extend(left);
    }
    jumps.sort_by(|a, b| a.lo.total_cmp(&b.lo));
    Ok(jumps)
}

/// The edges of an `unresolved` jump (its bisection stopped where `df` had no value, at the
/// bracket's midpoint) narrowed onto the uncomputed band between them: from each computed end
/// towards the band, a plain bisection between the last amplitude with a value and the first
/// without, to a width of `rel` times the larger end. Each end only moves towards the band
/// (`lo` up, `hi` down), so the band's first and last computed neighbours are found however far
/// the jump's bisection stopped from them (report Fig 5.24 at ω = 1.9 rad/s: a two-sided branch
/// that starts at a fold at 0.358411 N·m, its gap bisection stopped at 0.3585). One point per
/// step (no [`PROBES`] around a hole): a hole on the computed side stops that end's narrowing
/// there, nearer the band than before. A step is taken only while the DF stays on its end's
/// branch: a value that differs by more than `jump` (the change between grid points that
/// starts a refinement) from the end's lies across the jump and stops that end like a hole, so
/// among scattered holes an end cannot step past the jump onto the other branch (report
/// Fig 5.22 at ω = 10 rad/s: from 0.287825 N·m the upper end stepped to 0.287003, a change of
/// 2.53, back onto pre-sliding, and the gap of 2.6 at 0.28705 became a change of 0.05).
///
/// Such a value is a point of the other end's branch, nearer the jump than that end: an end is
/// where its branch ends, the last value on it (by the same rule: within `jump` of the end's
/// DF) that either end's bisection met before the other branch, not the first hole its own
/// bisection met. So each end then moves on to the furthest value of its branch that the other
/// end met across the jump, if any, and is bisected on from there towards the other end. Where
/// the holes lie dense in front of the jump with a few values among them, the end no longer
/// depends on where the jump's bisection, and so the grid, left it (report Fig 5.22 at ω = 10
/// rad/s: the shooting stalls at most amplitudes of 0.2795…0.28704 N·m, a few converge on
/// pre-sliding; the lower end stayed at the first stalled point, 0.279484 N·m, on grids of 161
/// and 321 amplitudes, and reached the jump, 0.287047, on one of 81, where the jump's
/// bisection had stepped through the band). A band with no value inside (a region with no
/// steady state) keeps its computed neighbours as ends. A jump that is not `unresolved` is
/// returned unchanged.
pub fn narrow_edges<E>(mut df: impl FnMut(f64) -> Result<Sample, E>, j: Jump, rel: f64, jump: f64) -> Result<Jump, E> {
    if !j.unresolved {
        return Ok(j);
    }
    type End = (f64, (f64, f64));
    let mut evaluations = 0;
    // Every value met that stopped an end (it lay across the jump from it).
    let mut across: Vec<End> = Vec::new();
    // The midpoint of the stopped bracket: the first of the PROBES, without a value.
    let band = j.lo + 0.5 * (j.hi - j.lo);
    // (computed end, its DF, uncomputed end), bisected until `rel` apart (a relative width,
    // and the computed end's DF carried: not `crate::roots::bisect`).
    let mut side = |(mut known, mut n): End, mut none: f64, across: &mut Vec<End>| -> Result<End, E> {
        while (none - known).abs() > rel * known.abs().max(none.abs()) {
            let m = 0.5 * (known + none);
            if m == known || m == none {
                break;
            }
            evaluations += 1;
            match df(m)? {
                Sample::Value(nm) if distance(n, nm) <= jump => (known, n) = (m, nm),
                Sample::Value(nm) => {
                    across.push((m, nm));
                    none = m;
                }
                Sample::Hole | Sample::Boundary => none = m,
            }
        }
        Ok((known, n))
    };
    let (mut lo, mut n_lo) = side((j.lo, j.n_lo), band, &mut across)?;
    let (mut hi, mut n_hi) = side((j.hi, j.n_hi), band, &mut across)?;
    // The furthest value of the lower end's branch between the ends, then of the upper's.
    let on = |n: (f64, f64), lo: f64, hi: f64, e: &&End| lo < e.0 && e.0 < hi && distance(n, e.1) <= jump;
    if let Some(&e) = across
        .iter()
        .filter(|e| on(n_lo, lo, hi, e))
        .max_by(|x, y| x.0.total_cmp(&y.0))
    {
        (lo, n_lo) = side(e, hi, &mut across)?;
    }
    if let Some(&e) = across
        .iter()
        .filter(|e| on(n_hi, lo, hi, e))
        .min_by(|x, y| x.0.total_cmp(&y.0))
    {
        (hi, n_hi) = side(e, lo, &mut across)?;
    }
    Ok(Jump::between(lo, hi, n_lo, n_hi, j.evaluations + evaluations, true))
}

/// A jump between grid points judged: with `rel` > 0 an `unresolved` one has its edges narrowed
/// ([`narrow_edges`]), and it is a gap ([`Jump::is_gap`]) where its bisection stopped or on its
/// narrowed edges. Narrowing only adds gaps: one whose change across the stopped bracket was at
/// most `jump` may exceed it on the edges (report Fig 5.24's search at ω = 1.8466 rad/s: 0.25
/// at most across 0.357547…0.359438 N·m, 0.325 across 0.357558…0.358802), and one whose edges
/// moved along a steep start of the next branch keeps the change it was judged on (report
/// Fig 5.22 at ω = 10 rad/s: 0.436 across 0.334965…0.359489, where the two-sided branch falls
/// by 0.08 to its start at 0.357504; 0.238 across the band). The jump, and whether it is a gap.
pub fn judge_jump<E>(
    df: impl FnMut(f64) -> Result<Sample, E>,
    j: Jump,
    rel: f64,
    gap: f64,
    jump: f64,
) -> Result<(Jump, bool), E> {
    let stopped = j.is_gap(gap, jump);
    let j = if j.unresolved && rel > 0.0 {
        narrow_edges(df, j, rel, jump)?
    } else {
        j
    };
    Ok((j, stopped || j.is_gap(gap, jump)))
}

/// [`refine_jump`]'s bisection, handing each half it leaves to `leave` (its ends, in order). Not
/// [`crate::roots::bisect`]: the point taken is the midpoint or a probe beside it, the side is
/// the end whose DF is nearer, and it stops on a relative width or a change below `continuous`.
fn bisect_jump<E>(
    mut df: impl FnMut(f64) -> Result<Sample, E>,
    (mut lo, mut n_lo): (f64, (f64, f64)),
    (mut hi, mut n_hi): (f64, (f64, f64)),
    rel: f64,
    continuous: f64,
    mut leave: impl FnMut((f64, (f64, f64)), (f64, (f64, f64))),
) -> Result<Jump, E> {
    let mut evaluations = 0;
    let mut unresolved = false;
    while hi - lo > rel * hi && distance(n_lo, n_hi) >= continuous {
        // The midpoint, or a point near it where the midpoint has no value.
        let (found, spent) = probe(lo, hi, &mut df)?;
        evaluations += spent;
        let Some((m, nm)) = found else {
            unresolved = true;
            break;
        };
        if distance(n_lo, nm) >= distance(nm, n_hi) {
            leave((m, nm), (hi, n_hi));
            (hi, n_hi) = (m, nm);
        } else {
            leave((lo, n_lo), (m, nm));
            (lo, n_lo) = (m, nm);
        }
    }
    Ok(Jump::between(lo, hi, n_lo, n_hi, evaluations, unresolved))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` as a DF with a hole wherever `hole` holds.
    fn holey(
        n: impl Fn(f64) -> (f64, f64) + Copy,
        hole: impl Fn(f64) -> bool + Copy,
    ) -> impl Fn(f64) -> Result<Sample, ()> + Copy {
        move |a| Ok(if hole(a) { Sample::Hole } else { Sample::Value(n(a)) })
    }

    #[test]
    fn a_probe_skips_holes_and_stops_at_a_boundary() {
        // Either order of the bracket: the drift-edge bisection probes from its quiet end.
        let mut seen = Vec::new();
        let (found, spent) = probe(1.0, 0.0, |m| {
            seen.push(m);
            Ok::<_, ()>(if seen.len() < 3 {
                Sample::Hole
            } else {
                Sample::Value(2.0 * m)
            })
        })
        .unwrap();
        let near = |x: f64, y: f64| (x - y).abs() < 1e-15;
        assert!(
            seen.len() == 3 && seen.iter().zip([0.5, 0.55, 0.45]).all(|(&x, y)| near(x, y)),
            "{seen:?}"
        );
        let (m, v) = found.unwrap();
        assert!(near(m, 0.45) && v == 2.0 * m && spent == 3);
        let mut calls = 0;
        let (found, spent) = probe(0.0, 1.0, |_| {
            calls += 1;
            Ok::<Sample<f64>, ()>(if calls == 1 { Sample::Hole } else { Sample::Boundary })
        })
        .unwrap();
        assert_eq!((found, spent), (None, 2));
        // A bracket too narrow to hold a point between its ends is not evaluated.
        let (found, spent) = probe(1.0, 1.0 + f64::EPSILON, |_| Ok::<Sample<f64>, ()>(Sample::Hole)).unwrap();
        assert_eq!((found, spent), (None, 0));
    }

    #[test]
    fn jumps_are_told_from_steep_slopes() {
        let n = |a: f64| if a < 0.4 { (1.0, 0.0) } else { (0.1, -0.2) };
        let step = |a: f64| Ok::<_, ()>(Sample::Value(n(a)));
        let j = refine_jump(step, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
        assert!(j.lo < 0.4 && j.hi >= 0.4 && j.hi - j.lo <= 1e-12);
        assert!(j.size > 1.0 && !j.unresolved);
        // A hole at the midpoint is stepped around; where no nearby probe has a value either, the
        // bisection stops there.
        let small_hole = holey(n, |a| (0.399..0.401).contains(&a));
        let k = refine_jump(small_hole, (0.3, (1.0, 0.0)), (0.5, (0.1, -0.2)), 1e-12, 1e-3).unwrap();
        // It narrows from 0.2 to about the hole's size around the jump, then stops.
        assert!(k.unresolved && k.lo < 0.4 && k.hi > 0.4 && k.hi - k.lo < 0.01, "{k:?}");
        let holed = holey(n, |a| (0.37..0.43).contains(&a));
        let h = refine_jump(holed, (0.3, (1.0, 0.0)), (0.5, (0.1, -0.2)), 1e-12, 1e-3).unwrap();
        assert!(h.unresolved && h.lo == 0.3 && h.hi == 0.5, "{h:?}");
        // On a basin boundary the points around the midpoint are not tried: the bisection stops
        // at the first boundary point, one evaluation per step (a jump at 0.41 whose ±2e-4 are
        // a boundary; the same as a hole, the bisection would try every probe there).
        let n2 = |a: f64| if a < 0.41 { (1.0, 0.0) } else { (0.1, -0.2) };
        let mut calls = 0;
        let boundary = |a: f64| {
            calls += 1;
            Ok::<_, ()>(if (0.4098..0.4102).contains(&a) {
                Sample::Boundary
            } else {
                Sample::Value(n2(a))
            })
        };
        let b = refine_jump(boundary, (0.3, n2(0.3)), (0.5, n2(0.5)), 1e-12, 1e-3).unwrap();
        assert!(
            b.unresolved && b.lo < 0.41 && b.hi > 0.41 && b.hi - b.lo < 0.002,
            "{b:?}"
        );
        assert_eq!(calls, b.evaluations);
        let as_hole = holey(n2, |a| (0.4098..0.4102).contains(&a));
        let k = refine_jump(as_hole, (0.3, n2(0.3)), (0.5, n2(0.5)), 1e-12, 1e-3).unwrap();
        assert!(k.unresolved && k.evaluations >= b.evaluations + 4, "{k:?} vs {b:?}");
        let sn = |a: f64| ((1.0 + ((a - 0.4) * 1e4).tanh()) + 0.1, 0.0);
        let steep = |a: f64| Ok::<_, ()>(Sample::Value(sn(a)));
        let j = refine_jump(steep, (0.3, sn(0.3)), (0.5, sn(0.5)), 1e-12, 0.0).unwrap();
        assert!(j.size < 1e-6, "{j:?}");
        // With a threshold the bisection stops once the change is below it.
        let k = refine_jump(steep, (0.3, sn(0.3)), (0.5, sn(0.5)), 1e-12, 1e-3).unwrap();
        assert!(k.size < 1e-3 && k.evaluations < j.evaluations, "{k:?}");
    }

    #[test]
    fn an_unresolved_jump_is_narrowed_to_the_band_of_uncomputed_points() {
        // A hole band [0.37, 0.4312345) in front of a branch (N jumps across it): the jump's
        // bisection stops at once (0.4 and every probe are holes) with the grid points 0.3, 0.5.
        let n = |a: f64| if a < 0.4 { (1.0, 0.0) } else { (0.1, -0.2) };
        let (from, to) = (0.37, 0.4312345);
        let holed = holey(n, |a| (from..to).contains(&a));
        let h = refine_jump(holed, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
        assert!(h.unresolved && h.lo == 0.3 && h.hi == 0.5, "{h:?}");
        let e = narrow_edges(holed, h, 1e-6, 0.25).unwrap();
        // The last computed amplitude before the band and the first after it, each within 1e-6
        // relative (the old stopping rule left them 0.07 and 0.069 away).
        assert!(e.lo < from && from - e.lo <= 1e-6 * 0.371, "{e:?}");
        assert!(e.hi >= to && e.hi - to <= 1e-6 * e.hi, "{e:?}");
        assert!(e.unresolved && e.n_lo == n(0.3) && e.n_hi == n(0.5) && e.size == h.size);
        assert!(
            e.evaluations > h.evaluations + 30 && e.evaluations < h.evaluations + 50,
            "{e:?}"
        );
        // A boundary band the same; a resolved jump is left as it is.
        let boundary = |a: f64| {
            Ok::<_, ()>(if (from..to).contains(&a) {
                Sample::Boundary
            } else {
                Sample::Value(n(a))
            })
        };
        let b = narrow_edges(boundary, h, 1e-6, 0.25).unwrap();
        assert_eq!((b.lo, b.hi), (e.lo, e.hi));
        let step = |a: f64| Ok::<_, ()>(Sample::Value(n(a)));
        let j = refine_jump(step, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
        assert_eq!(narrow_edges(|_| Err(()), j, 1e-6, 0.25), Ok(j));
    }

    #[test]
    fn an_end_does_not_step_past_the_jump_among_scattered_holes() {
        // N jumps at 0.44; holes [0.379, 0.421) (the band the jump's bisection stopped at: 0.4
        // and every probe) and [0.425, 0.435), with values of the lower branch between 0.435 and
        // the jump (report Fig 5.22 at ω = 10 rad/s: from 0.287825 N·m the upper end met holes
        // at 0.2856 and 0.2867, then pre-sliding at 0.287003, below the jump at 0.28705).
        let n = |a: f64| if a < 0.44 { (1.0, 0.0) } else { (0.1, -0.2) };
        let df = holey(n, |a| (0.379..0.421).contains(&a) || (0.425..0.435).contains(&a));
        let h = refine_jump(df, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
        assert!(
            h.unresolved && h.lo == 0.3 && h.hi == 0.5 && h.is_gap(1e-3, 0.25),
            "{h:?}"
        );
        // The upper end's bisection meets 0.45 (upper branch), 0.425 (a hole), then 0.4375 on
        // the lower branch: a change of 2.3 > 0.25, across the jump, so it stops there like a
        // hole and the end settles on the jump's upper side. Stepping onto it instead (the rule
        // before), the end was 0.435 with the lower branch's N: a change of 0, no gap.
        let e = narrow_edges(df, h, 1e-6, 0.25).unwrap();
        assert!(e.hi >= 0.44 && e.hi - 0.44 <= 1e-6 * e.hi && e.n_hi == n(0.5), "{e:?}");
        // The values of the lower branch it met there (0.4375, then ever nearer 0.44) move the
        // lower end on from the first hole, 0.379, to where its branch ends.
        assert!(e.lo < 0.44 && 0.44 - e.lo <= 1e-6 * 0.44 && e.n_lo == n(0.3), "{e:?}");
        assert!(e.size == h.size, "{e:?}");
        assert!(judge_jump(df, h, 1e-6, 1e-3, 0.25).unwrap() == (e, true));
    }

    #[test]
    fn a_gap_edge_among_dense_holes_does_not_depend_on_the_grid() {
        // N jumps at 0.44; in front of it, from 0.40, no value but on three small islands:
        // [0.4205, 0.4215), [0.433, 0.4332) and [0.4395, 0.44) (report Fig 5.22 at ω = 10
        // rad/s: the shooting stalls at most amplitudes of 0.2795…0.28704 N·m, a few converge).
        let n = |a: f64| if a < 0.44 { (1.0, 0.0) } else { (0.1, -0.2) };
        let islands = [(0.4205, 0.4215), (0.433, 0.4332), (0.4395, 0.44)];
        let hole = move |a: f64| (0.40..0.44).contains(&a) && !islands.iter().any(|&(x, y)| (x..y).contains(&a));
        let df = holey(n, hole);
        // The gaps on `points` log-spaced amplitudes in 0.1…1, found as the DF runs find them:
        // each pair of neighbouring computed points whose N changes by more than 0.25, every
        // jump between them refined and judged.
        let gaps = |points: usize| -> Vec<Jump> {
            let pts: Vec<(f64, (f64, f64))> = (0..points)
                .map(|k| 10f64.powf(-1.0 + k as f64 / (points - 1) as f64))
                .filter(|&a| !hole(a))
                .map(|a| (a, n(a)))
                .collect();
            let mut out = Vec::new();
            for w in pts.windows(2) {
                if distance(w[0].1, w[1].1) > 0.25 {
                    for j in refine_jumps(df, w[0], w[1], 1e-12, 1e-3, 0.25).unwrap() {
                        let (j, gap) = judge_jump(df, j, 1e-6, 1e-3, 0.25).unwrap();
                        if gap {
                            out.push(j);
                        }
                    }
                }
            }
            out
        };
        // Before the ends moved on to the values met across the jump, the lower end stayed at
        // the first hole it met: 0.40 on 81 amplitudes, 0.4215 on 161 and 321.
        for points in [81, 161, 321] {
            let g = gaps(points);
            assert_eq!(g.len(), 1, "{points}: {g:?}");
            let g = g[0];
            assert!(g.lo < 0.44 && 0.44 - g.lo <= 1e-6 * 0.44, "{points}: {g:?}");
            assert!(g.hi >= 0.44 && g.hi - 0.44 <= 1e-6 * g.hi, "{points}: {g:?}");
            assert!(g.n_lo == n(0.3) && g.n_hi == n(0.5), "{points}: {g:?}");
        }
    }

    #[test]
    fn every_unresolved_jump_is_narrowed_then_judged() {
        // ln N: 0 below a hole band [0.379, 0.421), and on the branch after it `top` at 0.421
        // falling linearly to `top - 0.158` at 0.5. The jump's bisection stops at once (0.4 and
        // every probe are holes) with the grid points 0.3 and 0.5 as ends.
        let run = |top: f64| {
            let n = |a: f64| {
                if a < 0.4 {
                    (1.0, 0.0)
                } else {
                    ((top - 2.0 * (a - 0.421)).exp(), 0.0)
                }
            };
            let df = holey(n, |a| (0.379..0.421).contains(&a));
            let h = refine_jump(df, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
            assert!(h.unresolved && h.lo == 0.3 && h.hi == 0.5, "{h:?}");
            let (on, gap_on) = judge_jump(df, h, 1e-6, 1e-3, 0.25).unwrap();
            let (off, gap_off) = judge_jump(df, h, 0.0, 1e-3, 0.25).unwrap();
            assert!(off == h && gap_off == h.is_gap(1e-3, 0.25));
            assert!(
                on.unresolved && on.lo < 0.379 && on.hi >= 0.421 && on.hi - on.lo < 0.0421,
                "{on:?}"
            );
            (h.size, on.size, gap_on, gap_off)
        };
        // 0.142 across the stopped bracket, 0.3 across the band: a gap only on the narrowed edges
        // (report Fig 5.24's search at ω = 1.8466 rad/s: 0.25 at most, then 0.325).
        let (stopped, narrowed, on, off) = run(0.3);
        assert!((stopped - 0.142).abs() < 1e-9 && (narrowed - 0.3).abs() < 1e-5);
        assert!(on && !off);
        // 0.4 across the stopped bracket, 0.2 on a steep start after the band: a gap where it
        // stopped, which narrowing does not take back (report Fig 5.22 at ω = 10 rad/s: 0.436
        // across 0.334965…0.359489 N·m, 0.238 across the band).
        let n = |a: f64| {
            let f = if a < 0.4 {
                0.0
            } else {
                0.2 + 0.2 * ((a - 0.421) / 0.029).min(1.0)
            };
            (f.exp(), 0.0)
        };
        let df = holey(n, |a| (0.379..0.421).contains(&a));
        let h = refine_jump(df, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
        let (j, gap) = judge_jump(df, h, 1e-6, 1e-3, 0.25).unwrap();
        assert!(
            (h.size - 0.4).abs() < 1e-12 && (j.size - 0.2).abs() < 1e-5 && gap,
            "{h:?} {j:?}"
        );
        assert!(!j.is_gap(1e-3, 0.25));
        // Scattered holes inside one branch (a change of 0.2 at most across them) stay no gap.
        assert!(!run(0.2).2);
    }

    #[test]
    fn every_jump_in_a_bracket_is_found_whatever_the_grid() {
        // ln N jumps by 0.5 at 0.33 and rises continuously by 0.7 around 0.45 (width 1e-4).
        let f = |a: f64| if a >= 0.33 { 0.5 } else { 0.0 } + 0.35 * (1.0 + ((a - 0.45) * 1e4).tanh());
        let n = |a: f64| (f(a).exp(), 0.0);
        let df = |a: f64| Ok::<_, ()>(Sample::Value(n(a)));
        let gaps = |js: &[Jump]| js.iter().filter(|j| j.size >= 1e-3).count();
        // From 0.4 the rise is the larger change: the single bisection follows it, ends on a
        // continuous change and loses the jump.
        let one = refine_jump(df, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
        assert!(one.size < 1e-3 && one.lo > 0.44, "{one:?}");
        // Refining the half it left (a change of 0.5 > 0.25) finds it.
        let all = refine_jumps(df, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3, 0.25).unwrap();
        assert_eq!(gaps(&all), 1, "{all:?}");
        let j = all.iter().find(|j| j.size >= 1e-3).unwrap();
        assert!(
            j.lo < 0.33 && j.hi >= 0.33 && j.hi - j.lo <= 1e-12 && (j.size - 0.5).abs() < 1e-9,
            "{j:?}"
        );
        assert!(all.windows(2).all(|w| w[0].hi <= w[1].lo), "sorted, disjoint: {all:?}");
        // A grid twice as fine, the jump and the rise in brackets of their own: the same gap.
        let fine: Vec<Jump> = [(0.3, 0.4), (0.4, 0.5)]
            .iter()
            .flat_map(|&(a, b)| refine_jumps(df, (a, n(a)), (b, n(b)), 1e-12, 1e-3, 0.25).unwrap())
            .collect();
        assert_eq!(gaps(&fine), 1, "{fine:?}");
    }
}
