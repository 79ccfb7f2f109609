//! Geometry of the data layer in drawing units: clipping polylines to the frame, thinning dense
//! runs to what a column of pixels shows, and hit tests for legend placement.

/// A polyline with every run of consecutive points inside one column of width `w` (drawing
/// units) reduced to its first, lowest, highest and last points, in their order (M4, Jugel et
/// al., VLDB 2014). The line drawn through them covers the same vertical extent in each column
/// as the whole run, and no point moves by more than `w` sideways, so at a quarter pixel the
/// drawing is the same while a dense sawtooth (thesis Fig 3.3: two million samples, every one
/// an eighth of a pixel or more from the last) keeps a few points per column. Solid lines only:
/// a dash pattern runs along the path's length, which thinning shortens.
pub(crate) fn thin_columns(line: Vec<(f64, f64)>, w: f64) -> Vec<(f64, f64)> {
    if line.len() <= 4 {
        return line;
    }
    let col = |p: (f64, f64)| (p.0 / w).floor();
    let mut out = Vec::with_capacity(line.len().min(1 << 16));
    let mut start = 0;
    while start < line.len() {
        let c = col(line[start]);
        let (mut lo, mut hi, mut end) = (start, start, start);
        while end + 1 < line.len() && col(line[end + 1]) == c {
            end += 1;
            if line[end].1 < line[lo].1 {
                lo = end;
            }
            if line[end].1 > line[hi].1 {
                hi = end;
            }
        }
        let mut keep = [start, lo, hi, end];
        keep.sort_unstable();
        let mut last = usize::MAX;
        for k in keep {
            if k != last {
                out.push(line[k]);
                last = k;
            }
        }
        start = end + 1;
    }
    out
}

/// The parameters `t0 ≤ t1` in [0, 1] of the part of the segment p–q inside the rectangle
/// `r = [left, top, right, bottom]` (Liang–Barsky), if it meets it.
fn clip_params(p: (f64, f64), q: (f64, f64), r: [f64; 4]) -> Option<(f64, f64)> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (num, den) in [(p.0 - r[0], -dx), (r[2] - p.0, dx), (p.1 - r[1], -dy), (r[3] - p.1, dy)] {
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else {
            let t = num / den;
            if den < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    Some((t0, t1))
}

/// The parts of each polyline inside the rectangle `r` (the frame), with the crossings of its
/// edges interpolated. A curve running on beyond the axes was drawn whole and cut by the clip
/// path, so its dash pattern (fitted to end on a dash, `series::fitted_dash`) met the frame at an
/// arbitrary phase and its last samples inside could lie in a gap (report Fig 3.2).
pub(crate) fn clip_lines(lines: Vec<Vec<(f64, f64)>>, r: [f64; 4]) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    for l in lines {
        if l.len() < 2 {
            if l.first().is_some_and(|&p| segment_meets(p, p, r)) {
                out.push(l);
            }
            continue;
        }
        let mut cur: Vec<(f64, f64)> = Vec::new();
        for w in l.windows(2) {
            let (p, q) = (w[0], w[1]);
            let Some((t0, t1)) = clip_params(p, q, r) else {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                continue;
            };
            let at = |t: f64| (p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1));
            if t0 > 0.0 {
                // Enters the frame inside this segment.
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                cur.push(at(t0));
            } else if cur.is_empty() {
                cur.push(p);
            }
            if t1 < 1.0 {
                cur.push(at(t1));
                out.push(std::mem::take(&mut cur));
            } else {
                cur.push(q);
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

/// True if the segment p–q meets the rectangle (Liang–Barsky).
pub(crate) fn segment_meets(p: (f64, f64), q: (f64, f64), r: [f64; 4]) -> bool {
    clip_params(p, q, r).is_some()
}

pub(crate) fn point_in_polygon(pt: (f64, f64), poly: &[(f64, f64)]) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.1 > pt.1) != (b.1 > pt.1) && pt.0 < (b.0 - a.0) * (pt.1 - a.1) / (b.1 - a.1) + a.0 {
            inside = !inside;
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_meet_rectangles() {
        let r = [0.0, 0.0, 10.0, 10.0];
        assert!(segment_meets((-5.0, 5.0), (15.0, 5.0), r));
        assert!(segment_meets((5.0, 5.0), (5.0, 5.0), r));
        assert!(!segment_meets((-5.0, -5.0), (-1.0, 20.0), r));
        assert!(!segment_meets((11.0, 0.0), (20.0, 10.0), r));
        assert!(segment_meets((-1.0, 5.0), (5.0, -1.0), r));
        assert!(!segment_meets((-3.0, 2.0), (2.0, -3.0), r));
    }

    #[test]
    fn a_dense_run_in_one_column_keeps_its_ends_and_extremes() {
        // A sawtooth of 1000 teeth inside one column of width 1, then a step to the next column.
        let mut l: Vec<(f64, f64)> = (0..2000)
            .map(|i| {
                (
                    0.2 + 0.0003 * i as f64,
                    if i % 2 == 0 { 0.0 } else { 5.0 + (i % 7) as f64 },
                )
            })
            .collect();
        l.push((1.5, 2.0));
        let t = thin_columns(l.clone(), 1.0);
        // First, lowest (the first 0), highest (the first 11), last of the column; then the next.
        let hi = (0..2000).find(|&i| i % 2 == 1 && i % 7 == 6).unwrap();
        assert_eq!(t, vec![l[0], l[hi], l[1999], l[2000]]);
        // Every point is within the column of a kept point and inside the kept vertical extent.
        for p in &l[..2000] {
            assert!(p.1 >= 0.0 && p.1 <= 11.0 && (p.0 - t[0].0).abs() < 1.0);
        }
        // Points in distinct columns are all kept.
        let sparse: Vec<(f64, f64)> = (0..10).map(|i| (i as f64 + 0.5, (i * i) as f64)).collect();
        assert_eq!(thin_columns(sparse.clone(), 1.0), sparse);
    }

    #[test]
    fn lines_are_cut_at_the_frame() {
        let r = [0.0, 0.0, 10.0, 10.0];
        // In from the left, out at the right: one piece, ends on the edges.
        let l = vec![(-10.0, 5.0), (5.0, 5.0), (15.0, 5.0)];
        assert_eq!(clip_lines(vec![l], r), vec![vec![(0.0, 5.0), (5.0, 5.0), (10.0, 5.0)]]);
        // Out through the top and back in: two pieces; wholly outside: none.
        let l = vec![(2.0, 5.0), (2.0, -5.0), (8.0, -5.0), (8.0, 5.0)];
        assert_eq!(
            clip_lines(vec![l], r),
            vec![vec![(2.0, 5.0), (2.0, 0.0)], vec![(8.0, 0.0), (8.0, 5.0)]]
        );
        assert!(clip_lines(vec![vec![(20.0, 1.0), (30.0, 2.0)]], r).is_empty());
        // Inside throughout: unchanged.
        let l = vec![(1.0, 1.0), (2.0, 3.0), (4.0, 2.0)];
        assert_eq!(clip_lines(vec![l.clone()], r), vec![l]);
    }

    #[test]
    fn polygons_contain_points() {
        let sq = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        assert!(point_in_polygon((5.0, 5.0), &sq));
        assert!(!point_in_polygon((15.0, 5.0), &sq));
    }
}
