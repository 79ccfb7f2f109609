//! The connectors from an inset's region to the inset: one corner choice for every case.

use crate::series::K;

/// A drawing point.
type Point = (f64, f64);
/// A line from one drawing point to another.
pub(crate) type Segment = [Point; 2];

/// The corners of a box (left, top, right, bottom).
pub(super) fn corners(b: [f64; 4]) -> [(f64, f64); 4] {
    [(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])]
}

/// Whether boxes `a` and `b` (left, top, right, bottom) overlap.
fn overlaps(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// The lines that bound boxes `r` and `b` together: the edges of their convex hull from a
/// corner of the one to a corner of the other (two; none when the boxes overlap).
fn bridges(r: [f64; 4], b: [f64; 4]) -> Vec<Segment> {
    if overlaps(r, b) {
        return vec![];
    }
    let points: Vec<(f64, f64)> = corners(r).into_iter().chain(corners(b)).collect();
    let mut out: Vec<Segment> = Vec::new();
    for a in corners(r) {
        for c in corners(b) {
            let len = ((c.0 - a.0).powi(2) + (c.1 - a.1).powi(2)).sqrt();
            let side = |p: (f64, f64)| ((c.0 - a.0) * (p.1 - a.1) - (c.1 - a.1) * (p.0 - a.0)) / len.max(1e-12);
            let eps = 1e-9;
            let hull = points.iter().all(|&p| side(p) <= eps) || points.iter().all(|&p| side(p) >= -eps);
            // Of collinear corners the ones nearest each other (a region of no size: one line).
            let dup = out.iter().any(|e| {
                let d = |p: (f64, f64)| ((c.0 - a.0) * (p.1 - a.1) - (c.1 - a.1) * (p.0 - a.0)).abs();
                d(e[0]) < 1e-6 * len && d(e[1]) < 1e-6 * len
            });
            if len > 0.0 && hull && !dup {
                out.push([a, c]);
            }
        }
    }
    out.truncate(2);
    out
}

/// Whether segment `s` passes inside box `o` (by more than half a pixel) before its end.
pub(super) fn enters(s: Segment, o: [f64; 4]) -> bool {
    let m = 0.5 * K;
    (0..200).any(|k| {
        let t = f64::from(k) / 200.0;
        let (x, y) = (s[0].0 + t * (s[1].0 - s[0].0), s[0].1 + t * (s[1].1 - s[0].1));
        let near_end = ((x - s[1].0).powi(2) + (y - s[1].1).powi(2)).sqrt() < m;
        !near_end && x > o[0] + m && x < o[2] - m && y > o[1] + m && y < o[3] - m
    })
}

/// The ends a pair of connectors may take: the corners of the inset's axes `f`, where the lines
/// meet the frame itself; and, for each side of the axes that has tick labels beyond it, that
/// side's two corners moved out along the frame's edges to the box with the labels `o` (past
/// the x labels below, past the y labels on their side), the side moved least first, so that
/// the lines end beside the frame's corners, not at a corner of the labels' box in white space (report 5.24's close-up
/// and ruderman-paper Fig 7's window, below their insets: under the axes' lower corners, below
/// the x labels, rev59c; report 4.8 and 4.9 had ended ~80 px left of the frame, rev59d).
fn ends(f: [f64; 4], o: [f64; 4]) -> ([Point; 4], Vec<[Point; 2]>) {
    let mut sides = [
        (o[3] - f[3], [(f[0], o[3]), (f[2], o[3])]),
        (f[0] - o[0], [(o[0], f[1]), (o[0], f[3])]),
        (o[2] - f[2], [(o[2], f[1]), (o[2], f[3])]),
    ];
    sides.sort_by(|a, b| a.0.total_cmp(&b.0));
    let moved = sides.into_iter().filter(|s| s.0 > 0.0).map(|s| s.1).collect();
    (corners(f), moved)
}

/// The connectors from a region's frame `r` to its inset, whose axes are `f`, whose tick labels
/// occupy the boxes `labels` and whose box with its labels is `o` (each left, top, right,
/// bottom): two lines, each from a corner of the region to one of the [`ends`], clear of the
/// tick labels, the axes and the region. One rule for every placement: the two lines that bound
/// the region and the axes together (edges of their convex hull, so that neither crosses
/// either) where both are clear; else the shortest pair of clear lines from two corners of the
/// region to two corners of the axes that neither cross, nor run along each other, nor take
/// their ends in the other order ([`twisted`]; report 5.27: to the inset's top corners, not to
/// the corner of its labels' box, rev59c); else the shortest such pair to the moved corners of
/// the first side that has one; failing all, the hull of the region and the box with its labels. None where the
/// region overlaps the axes.
pub(crate) fn connectors(r: [f64; 4], f: [f64; 4], labels: &[[f64; 4]], o: [f64; 4]) -> Vec<Segment> {
    if overlaps(r, f) {
        return vec![];
    }
    // Clear: through no tick label and not through the axes or the region themselves.
    let clear = |s: Segment| !labels.iter().any(|&b| enters(s, b)) && !enters(s, f) && !enters([s[1], s[0]], r);
    let to_axes = bridges(r, f);
    if to_axes.len() == 2 && to_axes.iter().all(|&s| clear(s)) {
        return to_axes;
    }
    let len = |s: &Segment| ((s[1].0 - s[0].0).powi(2) + (s[1].1 - s[0].1).powi(2)).sqrt();
    // The shortest pair of clear lines from two corners of the region to two of `set`.
    let shortest = |set: &[(f64, f64)]| {
        let lines: Vec<Segment> = corners(r)
            .into_iter()
            .flat_map(|a| set.iter().map(move |&c| [a, c]))
            .filter(|&s| clear(s))
            .collect();
        let mut best: Option<(f64, [Segment; 2])> = None;
        for (i, a) in lines.iter().enumerate() {
            for b in &lines[i + 1..] {
                if a[0] == b[0] || a[1] == b[1] || cross(*a, *b) || along(*a, *b) || twisted(*a, *b) {
                    continue;
                }
                let l = len(a) + len(b);
                if best.is_none_or(|(m, _)| l < m) {
                    best = Some((l, [*a, *b]));
                }
            }
        }
        best
    };
    let (axes, sides) = ends(f, o);
    if let Some((_, pair)) = shortest(&axes).or_else(|| sides.iter().find_map(|s| shortest(s))) {
        return pair.to_vec();
    }
    bridges(r, o)
}

/// Whether lines `a` and `b` take their ends in the other order than their starts: the left
/// end from the right one of two corners side by side, the upper end from the lower one of two
/// corners one above the other (two lines that fan out from a region read as its frame's
/// continuation; a pair that swaps sides reads as a crossing even where it does not cross).
fn twisted(a: Segment, b: Segment) -> bool {
    (b[1].0 - a[1].0) * (b[0].0 - a[0].0) < 0.0 || (b[1].1 - a[1].1) * (b[0].1 - a[0].1) < 0.0
}

/// Whether segment `b` lies along segment `a` (both ends within half a pixel of `a`'s line):
/// two connectors drawn over each other read as one (report 5.34's, both along the panel's top).
fn along(a: Segment, b: Segment) -> bool {
    let len = ((a[1].0 - a[0].0).powi(2) + (a[1].1 - a[0].1).powi(2))
        .sqrt()
        .max(1e-12);
    let d = |p: (f64, f64)| ((a[1].0 - a[0].0) * (p.1 - a[0].1) - (a[1].1 - a[0].1) * (p.0 - a[0].0)).abs() / len;
    d(b[0]) < 0.5 * K && d(b[1]) < 0.5 * K
}

/// Whether segments `a` and `b` cross at a point inside both (not at a shared end).
fn cross(a: Segment, b: Segment) -> bool {
    let side = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0);
    let (d1, d2) = (side(a[0], a[1], b[0]), side(a[0], a[1], b[1]));
    let (d3, d4) = (side(b[0], b[1], a[0]), side(b[0], b[1], a[1]));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connectors_bound_the_region_and_the_inset_without_crossing_its_labels() {
        // A region above right of an inset (report 5.27): to the axes' upper-left and
        // lower-right corners, clear of the labels left of and below the axes.
        let strips = |f: [f64; 4], o: [f64; 4]| [[o[0], f[1], f[0], f[3]], [o[0], f[3], o[2], o[3]]];
        let (f, o) = ([100.0, 300.0, 200.0, 380.0], [60.0, 300.0, 210.0, 400.0]);
        let c = connectors([300.0, 100.0, 304.0, 104.0], f, &strips(f, o), o);
        assert_eq!(
            c,
            vec![[(300.0, 100.0), (100.0, 300.0)], [(304.0, 104.0), (200.0, 380.0)]]
        );
        // A region below left of an inset (report 5.24's close-up): every line to a corner of
        // the axes would cross a label strip, so both run from the region's right corners to
        // the points under the axes' lower corners, below the x labels (the side moved least:
        // the y labels' is 40 wide, the x labels' 20 high).
        let (f, o) = ([300.0, 50.0, 400.0, 150.0], [260.0, 50.0, 410.0, 170.0]);
        let c = connectors([100.0, 200.0, 110.0, 204.0], f, &strips(f, o), o);
        assert_eq!(
            c,
            vec![[(110.0, 200.0), (300.0, 170.0)], [(110.0, 204.0), (400.0, 170.0)]]
        );
        // A tall region below (ruderman-paper Fig 7's window): from its top corners, not down
        // its sides.
        let c = connectors([100.0, 200.0, 110.0, 340.0], f, &strips(f, o), o);
        assert_eq!(
            c,
            vec![[(100.0, 200.0), (300.0, 170.0)], [(110.0, 200.0), (400.0, 170.0)]]
        );
        let b = [o[0], f[1], f[2], o[3]];
        assert!(c.iter().all(|s| !enters(*s, b)), "{c:?}");
        // Overlapping boxes: none.
        let (f, o) = ([5.0, 5.0, 20.0, 20.0], [0.0, 0.0, 30.0, 30.0]);
        assert!(connectors([0.0, 0.0, 10.0, 10.0], f, &strips(f, o), o).is_empty());
        // A tall region right of an inset whose top it shares (report 5.34): two lines ending on
        // the axes' corners, clear of the labels, not drawn along each other on the shared top.
        let (f, o) = ([100.0, 50.0, 300.0, 150.0], [60.0, 50.0, 310.0, 170.0]);
        let labels = [[60.0, 50.0, 100.0, 150.0], [90.0, 150.0, 280.0, 170.0]];
        let c = connectors([500.0, 50.0, 520.0, 300.0], f, &labels, o);
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(c.iter().all(|s| corners(f).contains(&s[1])), "{c:?}");
        assert!(c.iter().all(|&s| !labels.iter().any(|&b| enters(s, b))), "{c:?}");
        assert!(!along(c[0], c[1]) && !cross(c[0], c[1]), "{c:?}");
    }

    /// Report 4.8's upper-right inset, its region left of it, level with it: with the y labels
    /// on the left the only clear lines end left of the labels, ~70 px from the frame (what
    /// rev59d found; the layout then takes the labels to the right, `inset::layout`); with the
    /// labels on the right both end on the frame's left corners, the hull of the two boxes.
    #[test]
    fn a_region_beside_the_labelled_side_ends_beside_the_frame() {
        let r = [650.0, 130.0, 660.0, 190.0];
        // Labels left: a tall label column over the whole left edge and the x labels below.
        let (f, o) = ([800.0, 40.0, 1000.0, 240.0], [730.0, 40.0, 1012.0, 270.0]);
        let labels = [[730.0, 30.0, 792.0, 250.0], [780.0, 245.0, 1012.0, 270.0]];
        let c = connectors(r, f, &labels, o);
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(
            c.iter().all(|s| s[1].1 == f[1] || s[1].1 == f[3]),
            "at the frame's levels: {c:?}"
        );
        assert!(c.iter().all(|s| s[1].0 == o[0]), "past the labels: {c:?}");
        // Labels right: the hull of the region and the axes.
        let (f, o) = ([742.0, 40.0, 942.0, 240.0], [730.0, 40.0, 1012.0, 270.0]);
        let labels = [[950.0, 30.0, 1012.0, 250.0], [730.0, 245.0, 960.0, 270.0]];
        let c = connectors(r, f, &labels, o);
        assert_eq!(
            c,
            vec![[(650.0, 130.0), (742.0, 40.0)], [(650.0, 190.0), (742.0, 240.0)]]
        );
    }
}
