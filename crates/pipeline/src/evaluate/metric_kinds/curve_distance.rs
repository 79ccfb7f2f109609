//! `curve-distance`: the closest approach of two curves in the plane.

use super::*;
use fric_manifest::FieldType::Other;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "curve-distance",
        doc: "the least distance between the polyline (x, y) and the polyline (other.x, other.y) in the plane, such as a describing-function curve −1/N and a Nyquist curve: 0 where they cross or touch (a NaN row breaks a curve); unit of x and y, which must share one",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            req("other", Other, "", "{run, x, y, window}: the other curve"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: d, kind: curve-distance, run: df, x: re, y: im, other: {run: h1, x: re, y: im}}",
    },
    other: OtherSeries::Xy,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let o = c.other()?;
    let ox = o.x.ok_or("needs `other.x`")?;
    curve_distance(s.x()?, s.y, ox, o.y).ok_or_else(|| "a curve has no segment with finite end points".to_string())
}

/// The least distance between the polylines `(x1, y1)` and `(x2, y2)` in the plane (a point with
/// a NaN coordinate breaks a polyline): 0 where two segments cross, otherwise the smallest
/// distance from an end point of a segment of either to a segment of the other (the least
/// distance of two segments that do not cross is attained at an end point of one). None when
/// either has no segment.
pub fn curve_distance(x1: &[f64], y1: &[f64], x2: &[f64], y2: &[f64]) -> Option<f64> {
    let segs = |x: &[f64], y: &[f64]| -> Vec<[f64; 4]> {
        (1..x.len().min(y.len()))
            .map(|i| [x[i - 1], y[i - 1], x[i], y[i]])
            .filter(|s| s.iter().all(|v| v.is_finite()))
            .collect()
    };
    let (a, b) = (segs(x1, y1), segs(x2, y2));
    if a.is_empty() || b.is_empty() {
        return None;
    }
    // Distance from (px, py) to the segment s.
    let to_seg = |px: f64, py: f64, s: &[f64; 4]| -> f64 {
        let (dx, dy) = (s[2] - s[0], s[3] - s[1]);
        let len2 = dx * dx + dy * dy;
        let t = if len2 > 0.0 {
            (((px - s[0]) * dx + (py - s[1]) * dy) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (px - s[0] - t * dx).hypot(py - s[1] - t * dy)
    };
    let cross = |o: (f64, f64), p: (f64, f64), q: (f64, f64)| (p.0 - o.0) * (q.1 - o.1) - (p.1 - o.1) * (q.0 - o.0);
    let mut best = f64::INFINITY;
    for s in &a {
        for t in &b {
            let (p, q, r, u) = ((s[0], s[1]), (s[2], s[3]), (t[0], t[1]), (t[2], t[3]));
            let (d1, d2) = (cross(p, q, r), cross(p, q, u));
            let (d3, d4) = (cross(r, u, p), cross(r, u, q));
            if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
                return Some(0.0);
            }
            let d = to_seg(s[0], s[1], t)
                .min(to_seg(s[2], s[3], t))
                .min(to_seg(t[0], t[1], s))
                .min(to_seg(t[2], t[3], s));
            best = best.min(d);
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::curve_distance;

    #[test]
    fn closest_approach_and_zero_on_a_crossing() {
        let t: Vec<f64> = (0..=400)
            .map(|i| i as f64 * std::f64::consts::TAU / 400.0 + 0.01)
            .collect();
        let (cx, cy): (Vec<f64>, Vec<f64>) = t.iter().map(|t| (t.cos(), t.sin())).unzip();
        // The line y = 1.5 keeps 0.5 from the circle (its inscribed polygon is within
        // 1 − cos(π/400) ≈ 3.1e-5 of it).
        let d = curve_distance(&cx, &cy, &[-2.0, 2.0], &[1.5, 1.5]).unwrap();
        assert!((d - 0.5).abs() < 4e-5, "{d}");
        // The same with the curves swapped: the nearest point is inside the line's segment.
        let d = curve_distance(&[-2.0, 2.0], &[1.5, 1.5], &cx, &cy).unwrap();
        assert!((d - 0.5).abs() < 4e-5, "{d}");
        // Crossing: 0.
        assert_eq!(curve_distance(&cx, &cy, &[-2.0, 2.0], &[0.0, 0.0]), Some(0.0));
        // Two parallel segments 0.25 apart, overlapping in x: the distance from an end point.
        let d = curve_distance(&[0.0, 1.0], &[0.0, 0.0], &[0.5, 3.0], &[0.25, 0.25]).unwrap();
        assert!((d - 0.25).abs() < 1e-15, "{d}");
        // A NaN row breaks a curve; no segment left: none.
        assert_eq!(
            curve_distance(&[1.0, f64::NAN], &[1.0, 0.0], &[0.0, 1.0], &[0.0, 0.0]),
            None
        );
    }
}
