//! Signed areas of hysteresis loops: of a whole closed record and of each simple loop of a
//! self-crossing one.

/// Signed loop area `∮ y du` by the trapezoidal rule along the samples in time order, closed
/// from the last sample back to the first. Positive for a clockwise loop in the (u, y) plane.
pub fn loop_area(u: &[f64], y: &[f64]) -> f64 {
    assert_eq!(u.len(), y.len());
    let n = u.len();
    if n < 2 {
        return 0.0;
    }
    let mut a = 0.0;
    for i in 0..n - 1 {
        a += 0.5 * (y[i] + y[i + 1]) * (u[i + 1] - u[i]);
    }
    a + 0.5 * (y[n - 1] + y[0]) * (u[0] - u[n - 1])
}

/// Signed areas of the loops of a closed polygon (the samples in order, closed from the last back
/// to the first), one per simple loop, positive for a clockwise loop in the (x, y) plane (the sign
/// convention of [`loop_area`]). The polygon is walked once; whenever the current edge crosses an
/// earlier edge of the path still open, the part of the path between the two crossing points is
/// a closed loop: it is cut out, its area computed by the shoelace formula, and replaced by the
/// crossing point. What remains at the end is the last loop. A figure-eight gives its two lobes,
/// a butterfly its two wings, a simple closed curve one loop; the areas sum to [`loop_area`] of the
/// whole polygon. Loops are returned in the order they close. `O(n·m)` for `n` samples and an
/// open path of at most `m` points; no allocation beyond the path stack and the result.
pub fn loop_areas(x: &[f64], y: &[f64]) -> Vec<f64> {
    assert_eq!(x.len(), y.len());
    let n = x.len();
    let mut loops = Vec::new();
    if n < 3 {
        return loops;
    }
    // Clockwise-positive shoelace of a closed point list: −½ Σ (x_i y_{i+1} − x_{i+1} y_i).
    fn shoelace(p: &[(f64, f64)]) -> f64 {
        let mut a = 0.0;
        for i in 0..p.len() {
            let (x0, y0) = p[i];
            let (x1, y1) = p[(i + 1) % p.len()];
            a += x0 * y1 - x1 * y0;
        }
        -0.5 * a
    }
    // Crossing of segments p0→p1 and q0→q1 strictly inside p (t ∈ (0, 1]) and in q (s ∈ [0, 1)).
    fn cross(p0: (f64, f64), p1: (f64, f64), q0: (f64, f64), q1: (f64, f64)) -> Option<(f64, f64)> {
        let r = (p1.0 - p0.0, p1.1 - p0.1);
        let s = (q1.0 - q0.0, q1.1 - q0.1);
        let den = r.0 * s.1 - r.1 * s.0;
        if den == 0.0 {
            return None;
        }
        let d = (q0.0 - p0.0, q0.1 - p0.1);
        let t = (d.0 * s.1 - d.1 * s.0) / den;
        let u = (d.0 * r.1 - d.1 * r.0) / den;
        (t > 0.0 && t <= 1.0 && (0.0..1.0).contains(&u)).then_some((p0.0 + t * r.0, p0.1 + t * r.1))
    }
    let mut path: Vec<(f64, f64)> = vec![(x[0], y[0])];
    let mut lp: Vec<(f64, f64)> = Vec::new();
    for i in 1..=n {
        let next = (x[i % n], y[i % n]);
        loop {
            let m = path.len();
            let last = path[m - 1];
            // Earlier edges, newest first, skipping the edge adjacent to the new one; at the
            // closing edge (i = n) the first edge shares the start point and is skipped too.
            let first = usize::from(i == n);
            let mut hit = None;
            for j in (first..m.saturating_sub(2)).rev() {
                if let Some(c) = cross(last, next, path[j], path[j + 1]) {
                    hit = Some((j, c));
                    break;
                }
            }
            match hit {
                Some((j, c)) => {
                    lp.clear();
                    lp.push(c);
                    lp.extend_from_slice(&path[j + 1..]);
                    loops.push(shoelace(&lp));
                    path.truncate(j + 1);
                    path.push(c);
                }
                None => break,
            }
        }
        if i < n {
            path.push(next);
        }
    }
    if path.len() >= 3 {
        loops.push(shoelace(&path));
    }
    loops
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn loop_areas_of_known_curves() {
        let n = 4000;
        let s: Vec<f64> = (0..n).map(|k| 2.0 * PI * k as f64 / n as f64).collect();
        // Counterclockwise unit circle: one loop of area −π (clockwise positive).
        let (cx, cy): (Vec<f64>, Vec<f64>) = s.iter().map(|t| (t.cos(), t.sin())).unzip();
        let l = loop_areas(&cx, &cy);
        assert_eq!(l.len(), 1);
        assert!((l[0] + PI).abs() < 1e-5, "{l:?}");
        // Lemniscate of Gerono x = cos t, y = sin t cos t: two lobes of area 2/3 each, opposite
        // orientation (∫ |y| dx over one lobe = ∫_0^1 x sqrt(1 − x²) dx · 2 = 2/3).
        let (gx, gy): (Vec<f64>, Vec<f64>) = s.iter().map(|t| (t.cos(), t.sin() * t.cos())).unzip();
        let mut l = loop_areas(&gx, &gy);
        assert_eq!(l.len(), 2, "{l:?}");
        l.sort_by(f64::total_cmp);
        assert!(
            (l[0] + 2.0 / 3.0).abs() < 1e-5 && (l[1] - 2.0 / 3.0).abs() < 1e-5,
            "{l:?}"
        );
        assert!(loop_area(&gx, &gy).abs() < 1e-9);
        // Lemniscate of Bernoulli (a = 1): two lobes of area a²/2 = 1/2 each; start mid-lobe.
        let (bx, by): (Vec<f64>, Vec<f64>) = s
            .iter()
            .map(|t| {
                let d = 1.0 + t.sin().powi(2);
                (t.cos() / d, t.sin() * t.cos() / d)
            })
            .unzip();
        let l = loop_areas(&bx, &by);
        assert_eq!(l.len(), 2, "{l:?}");
        assert!(
            l.iter().all(|a| (a.abs() - 0.5).abs() < 1e-5) && l[0] * l[1] < 0.0,
            "{l:?}"
        );
        // x = cos t, y = ½ sin t (4cos²t − 1): crossings at x = ±1/2, three loops with
        // alternating orientation; their areas sum to the total.
        let (tx, ty): (Vec<f64>, Vec<f64>) = s
            .iter()
            .map(|t| (t.cos(), 0.5 * t.sin() * (4.0 * t.cos().powi(2) - 1.0)))
            .unzip();
        let l = loop_areas(&tx, &ty);
        assert_eq!(l.len(), 3, "{l:?}");
        let total: f64 = l.iter().sum();
        assert!((total - loop_area(&tx, &ty)).abs() < 1e-12);
        let mut by_sign = l.clone();
        by_sign.sort_by(f64::total_cmp);
        assert!(by_sign[0] < 0.0 && by_sign[2] > 0.0);
    }

    #[test]
    fn circle_area_and_orientation() {
        let n = 10_000;
        let t: Vec<f64> = (0..n).map(|i| 2.0 * PI * i as f64 / n as f64).collect();
        let u: Vec<f64> = t.iter().map(|t| t.cos()).collect();
        let y: Vec<f64> = t.iter().map(|t| t.sin()).collect();
        // Counterclockwise: negative.
        assert!((loop_area(&u, &y) + PI).abs() < 1e-6);
        let y2: Vec<f64> = y.iter().map(|v| -v).collect();
        assert!((loop_area(&u, &y2) - PI).abs() < 1e-6);
    }
}
