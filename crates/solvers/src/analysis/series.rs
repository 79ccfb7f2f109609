//! Features of sampled series: extremes, pointwise distance, reversal points, values at a point,
//! crossings of two polylines.

/// `(min, max)` of a series; NaN samples are skipped (`f64::min`/`max` ignore them).
pub fn extremes(y: &[f64]) -> (f64, f64) {
    y.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    })
}

/// Largest pointwise `|a_i − b_i|` of two equally sampled series.
pub fn max_abs_diff(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    Some(a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max))
}

/// Indices where the input changes direction (local extrema of `u`).
pub fn reversal_points(u: &[f64]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut dir = 0.0;
    for i in 1..u.len() {
        let d = u[i] - u[i - 1];
        if d == 0.0 {
            continue;
        }
        let s = d.signum();
        if dir != 0.0 && s != dir {
            out.push(i - 1);
        }
        dir = s;
    }
    out
}

/// `y` minus its value at its last reversal: the last sample where it changed direction (a
/// local extremum; a flat stretch keeps the direction it had). Before any reversal, relative to
/// the first sample.
pub fn since_reversal(y: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(y.len());
    let (mut anchor, mut dir) = (y.first().copied().unwrap_or(0.0), 0.0f64);
    for i in 0..y.len() {
        if i > 0 {
            let d = y[i] - y[i - 1];
            if d != 0.0 {
                if dir != 0.0 && d.signum() != dir {
                    anchor = y[i - 1];
                }
                dir = d.signum();
            }
        }
        out.push(y[i] - anchor);
    }
    out
}

/// Linear interpolation of `y(x)` on the first segment of the sampled curve that brackets `x0`.
pub fn value_at(x: &[f64], y: &[f64], x0: f64) -> Option<f64> {
    value_at_where(x, y, x0, |_| true)
}

/// [`value_at`] on the first segment `i` (from sample `i − 1` to `i`) that `keep(i)` keeps and
/// that brackets `x0` (a loop's branch: the segments along which x increases, or decreases).
pub fn value_at_where(x: &[f64], y: &[f64], x0: f64, keep: impl Fn(usize) -> bool) -> Option<f64> {
    for i in (1..x.len().min(y.len())).filter(|&i| keep(i)) {
        let (a, b) = (x[i - 1], x[i]);
        if (a <= x0 && x0 <= b) || (b <= x0 && x0 <= a) {
            if a == b {
                return Some(y[i]);
            }
            let w = (x0 - a) / (b - a);
            return Some(y[i - 1] + w * (y[i] - y[i - 1]));
        }
    }
    None
}

/// How many times the polyline `(x1, y1)` crosses the polyline `(x2, y2)` (segment pairs that
/// intersect; a point with a NaN coordinate breaks a polyline). Touching at an end point counts
/// once per segment pair, so a crossing exactly through a vertex may count twice.
pub fn curve_crossings(x1: &[f64], y1: &[f64], x2: &[f64], y2: &[f64]) -> usize {
    let segs = |x: &[f64], y: &[f64]| -> Vec<[f64; 4]> {
        (1..x.len().min(y.len()))
            .map(|i| [x[i - 1], y[i - 1], x[i], y[i]])
            .filter(|s| s.iter().all(|v| v.is_finite()))
            .collect()
    };
    let (a, b) = (segs(x1, y1), segs(x2, y2));
    let cross = |o: (f64, f64), p: (f64, f64), q: (f64, f64)| (p.0 - o.0) * (q.1 - o.1) - (p.1 - o.1) * (q.0 - o.0);
    let mut n = 0;
    for s in &a {
        let (sx0, sx1) = (s[0].min(s[2]), s[0].max(s[2]));
        let (sy0, sy1) = (s[1].min(s[3]), s[1].max(s[3]));
        for t in &b {
            if t[0].max(t[2]) < sx0 || t[0].min(t[2]) > sx1 || t[1].max(t[3]) < sy0 || t[1].min(t[3]) > sy1 {
                continue;
            }
            let (p, q, r, u) = ((s[0], s[1]), (s[2], s[3]), (t[0], t[1]), (t[2], t[3]));
            let (d1, d2) = (cross(p, q, r), cross(p, q, u));
            let (d3, d4) = (cross(r, u, p), cross(r, u, q));
            if d1 * d2 <= 0.0 && d3 * d4 <= 0.0 && !(d1 == 0.0 && d2 == 0.0) {
                n += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_reversal_restarts_at_each_extremum() {
        let y = [0.0, 1.0, 2.0, 2.0, 1.5, 0.5, 1.0, 3.0];
        let s = since_reversal(&y);
        assert_eq!(s, vec![0.0, 1.0, 2.0, 2.0, -0.5, -1.5, 0.5, 2.5]);
    }

    #[test]
    fn reversal_points_and_value_at() {
        let u = [0.0, 1.0, 2.0, 1.0, 0.0, 0.5];
        assert_eq!(reversal_points(&u), vec![2, 4]);
        assert_eq!(value_at(&[0.0, 2.0, 0.0], &[0.0, 4.0, 0.0], 1.0), Some(2.0));
    }

    #[test]
    fn counts_plane_crossings_and_respects_breaks() {
        // The unit circle against the x axis from −2 to 2: two crossings.
        let t: Vec<f64> = (0..=400)
            .map(|i| i as f64 * std::f64::consts::TAU / 400.0 + 0.01)
            .collect();
        let (cx, cy): (Vec<f64>, Vec<f64>) = t.iter().map(|t| (t.cos(), t.sin())).unzip();
        assert_eq!(curve_crossings(&cx, &cy, &[-2.0, 2.0], &[0.0, 0.0]), 2);
        // A line that stays outside: none.
        assert_eq!(curve_crossings(&cx, &cy, &[-2.0, 2.0], &[1.5, 1.5]), 0);
        // A NaN row removes the segments around it: the crossing at x = 1 disappears.
        let (mut bx, mut by) = (cx.clone(), cy.clone());
        bx[400] = f64::NAN;
        by[400] = f64::NAN;
        assert_eq!(curve_crossings(&bx, &by, &[-2.0, 2.0], &[0.0, 0.0]), 1);
    }
}
