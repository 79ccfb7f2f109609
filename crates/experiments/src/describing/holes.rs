//! The drawn DF curve broken at its holes: two drawn points with an amplitude between them where
//! the DF could not be computed (the shooting stalled, or only an unstable orbit was found) are
//! not joined, so no solid chord reads as computed data across amplitudes that were not
//! (report Fig 5.22 at ω = 10 rad/s: one straight chord over 0.26607…0.2870466 N·m, where most
//! amplitudes of 0.2795…0.28704 stalled and a few converged). The converged points computed
//! inside such a stretch (by the bisections) become points of the curve, joined where no hole
//! lies between them, and are dots (columns `dot_re`, `dot_im`), as is every point left without
//! a joined neighbour: at the panel's scale a few converged points among the holes are often
//! shorter than a pixel as a line (0.2870027…0.2870466 N·m there, 0.05 N·m/rad).

/// The curve `pts` (ascending amplitude) with `broken` (a gap lies before each point), broken
/// again wherever an amplitude of `holes` (computed at the curve's ω, without a value) lies
/// strictly between two consecutive points. Into each stretch so broken, the points of `values`
/// (every point computed there with a value) strictly inside it are merged, and the merged
/// points are broken only where a hole lies between them. The points, whether a gap or a hole
/// lies before each, and whether each is a dot: merged so, or lone (no joined neighbour on either
/// side).
#[allow(clippy::type_complexity)]
pub fn break_at_holes<T: Copy>(
    pts: &[(f64, T)],
    broken: &[bool],
    holes: &[f64],
    values: &[(f64, T)],
) -> (Vec<(f64, T)>, Vec<bool>, Vec<bool>) {
    let hole_between = |lo: f64, hi: f64| holes.iter().any(|&h| lo < h && h < hi);
    let mut out: Vec<(f64, T)> = Vec::with_capacity(pts.len());
    let mut out_broken = Vec::with_capacity(pts.len());
    let mut merged = Vec::with_capacity(pts.len());
    for (i, &p) in pts.iter().enumerate() {
        if i > 0 && !broken[i] && hole_between(pts[i - 1].0, p.0) {
            let lo = pts[i - 1].0;
            let mut inside: Vec<(f64, T)> = values.iter().copied().filter(|v| lo < v.0 && v.0 < p.0).collect();
            inside.sort_by(|x, y| x.0.total_cmp(&y.0));
            inside.dedup_by(|x, y| x.0 == y.0);
            let k = inside.len();
            for (j, v) in inside.into_iter().chain(std::iter::once(p)).enumerate() {
                let prev = out.last().map_or(lo, |q: &(f64, T)| q.0);
                out_broken.push(hole_between(prev, v.0));
                out.push(v);
                merged.push(j < k);
            }
        } else {
            out.push(p);
            out_broken.push(broken[i]);
            merged.push(false);
        }
    }
    let n = out.len();
    let dot = (0..n)
        .map(|i| merged[i] || ((i == 0 || out_broken[i]) && (i + 1 == n || out_broken[i + 1])))
        .collect();
    (out, out_broken, dot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hole_breaks_the_curve_and_the_values_inside_join_where_no_hole_parts_them() {
        // Drawn 1, 2, 5, 6, 7 (tagged by their amplitude); a gap before 7; holes at 3.5 and 4.5;
        // values computed at 3, 3.2 (no hole between: joined to 2) and 4 (between the holes),
        // dots all three; 5 lies between the second hole and 6 (joined to 6); a hole at 0.5
        // before the curve changes nothing; 7 after the gap at the curve's end is lone: a dot.
        let p = |a: f64| (a, a);
        let pts = [p(1.0), p(2.0), p(5.0), p(6.0), p(7.0)];
        let broken = [false, false, false, false, true];
        let values = [p(1.0), p(3.2), p(3.0), p(4.0), p(5.0), p(6.0)];
        let (out, brk, dot) = break_at_holes(&pts, &broken, &[0.5, 4.5, 3.5], &values);
        let a: Vec<f64> = out.iter().map(|q| q.0).collect();
        assert_eq!(a, vec![1.0, 2.0, 3.0, 3.2, 4.0, 5.0, 6.0, 7.0]);
        assert!(out.iter().all(|q| q.0 == q.1));
        assert_eq!(brk, vec![false, false, false, false, true, true, false, true]);
        assert_eq!(dot, vec![false, false, true, true, true, false, false, true]);
    }

    #[test]
    fn without_holes_nothing_changes() {
        let pts = [(1.0, ()), (2.0, ()), (3.0, ())];
        let (out, brk, dot) = break_at_holes(&pts, &[false, false, true], &[], &[(1.5, ())]);
        assert_eq!(out.len(), 3);
        assert_eq!(brk, vec![false, false, true]);
        assert_eq!(dot, vec![false, false, true]);
        // A single point is lone.
        assert_eq!(break_at_holes(&[(1.0, ())], &[false], &[], &[]).2, vec![true]);
    }
}
