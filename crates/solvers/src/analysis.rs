//! Analysis of sampled input–output data: signed loop areas, extremes, distances between curves,
//! reversal points, least-squares slopes, the periodic-steady-state loop and equilibrium sets.
//! Physics-free.

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

/// Least-squares slope of `y` against `x`.
pub fn slope(x: &[f64], y: &[f64]) -> Option<f64> {
    line_fit(x, y).map(|l| l.0)
}

/// Least-squares line `y ≈ a x + b`: `(a, b)`.
pub fn line_fit(x: &[f64], y: &[f64]) -> Option<(f64, f64)> {
    let n = x.len() as f64;
    if x.len() < 2 {
        return None;
    }
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let sxx: f64 = x.iter().map(|v| (v - mx).powi(2)).sum();
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    if sxx == 0.0 {
        None
    } else {
        Some((sxy / sxx, my - sxy / sxx * mx))
    }
}

/// Least-squares fit of `y ≈ floor + (peak − floor) exp(−(x/scale)²)` (a Gaussian decay from
/// `peak` at x = 0 to `floor` as |x| → ∞; with x a velocity, the Stribeck curve).
///
/// Variable projection: for a fixed `scale` the model is linear in (floor, peak − floor), solved
/// exactly; the residual is then minimised over ln(scale) by a log grid over
/// [1e-3, 10] × max|x| followed by golden-section refinement to a relative 1e-10.
/// `None` with fewer than three samples, no x ≠ 0, or a degenerate basis.
pub fn decay_fit(x: &[f64], y: &[f64]) -> Option<DecayFit> {
    let xmax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if x.len() < 3 || x.len() != y.len() || xmax == 0.0 {
        return None;
    }
    // Linear least squares of y ≈ a + d g with g = exp(−(x/s)²): returns (a, d, sum of squares).
    let solve = |s: f64| -> Option<(f64, f64, f64)> {
        let (mut n, mut sg, mut sgg, mut sy, mut sgy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (xi, yi) in x.iter().zip(y) {
            let g = (-(xi / s) * (xi / s)).exp();
            n += 1.0;
            sg += g;
            sgg += g * g;
            sy += yi;
            sgy += g * yi;
        }
        let det = n * sgg - sg * sg;
        if det.abs() <= 1e-12 * n * sgg.max(1e-300) {
            return None;
        }
        let d = (n * sgy - sg * sy) / det;
        let a = (sy - d * sg) / n;
        // The residual summed directly: the expanded form cancels catastrophically near a fit.
        let ss = x
            .iter()
            .zip(y)
            .map(|(xi, yi)| (yi - a - d * (-(xi / s) * (xi / s)).exp()).powi(2))
            .sum();
        Some((a, d, ss))
    };
    let cost = |ls: f64| solve(ls.exp()).map_or(f64::INFINITY, |r| r.2);
    let (lo, hi) = ((1e-3 * xmax).ln(), (10.0 * xmax).ln());
    let n = 81;
    let grid: Vec<f64> = (0..n).map(|k| lo + (hi - lo) * k as f64 / (n - 1) as f64).collect();
    let k = (0..n).min_by(|&i, &j| cost(grid[i]).total_cmp(&cost(grid[j])))?;
    let (mut a, mut b) = (grid[k.saturating_sub(1)], grid[(k + 1).min(n - 1)]);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    let (mut c, mut d) = (b - r * (b - a), a + r * (b - a));
    let (mut fc, mut fd) = (cost(c), cost(d));
    while b - a > 1e-10 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - r * (b - a);
            fc = cost(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + r * (b - a);
            fd = cost(d);
        }
    }
    let scale = (0.5 * (a + b)).exp();
    let (floor, rise, ss) = solve(scale)?;
    Some(DecayFit {
        floor,
        peak: floor + rise,
        scale,
        rms: (ss / x.len() as f64).sqrt(),
        at_bound: k == 0 || k == n - 1,
    })
}

/// The result of [`decay_fit`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecayFit {
    /// The limit as |x| → ∞.
    pub floor: f64,
    /// The value at x = 0.
    pub peak: f64,
    /// The decay scale (the Stribeck velocity).
    pub scale: f64,
    /// Root-mean-square residual.
    pub rms: f64,
    /// The best scale lies at an end of the searched range, so it is not a true minimum.
    pub at_bound: bool,
}

/// The durations (in x) of the maximal runs of consecutive samples with `lo ≤ y ≤ hi` that lie
/// wholly inside the record (a run touching either end is cut and left out). NaN is in no run.
pub fn dwell_times(x: &[f64], y: &[f64], lo: f64, hi: f64) -> Vec<f64> {
    let inside = |v: f64| v >= lo && v <= hi;
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for i in 0..y.len() {
        match (start, inside(y[i])) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                if s > 0 {
                    out.push(x[i - 1] - x[s]);
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Exponentially weighted moving average with weight `beta` on the newest sample.
pub fn ewma(y: &[f64], beta: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(y.len());
    let mut m = y.first().copied().unwrap_or(0.0);
    for &v in y {
        m = beta * v + (1.0 - beta) * m;
        out.push(m);
    }
    out
}

/// Centred moving average over `w` samples, the window shrinking at the ends.
pub fn moving_average(y: &[f64], w: usize) -> Vec<f64> {
    let n = y.len();
    let half = w.max(1) / 2;
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    for v in y {
        prefix.push(prefix.last().unwrap() + v);
    }
    (0..n)
        .map(|i| {
            let a = i.saturating_sub(half);
            let b = (i + half + 1).min(n);
            (prefix[b] - prefix[a]) / (b - a) as f64
        })
        .collect()
}

/// dy/dx by central differences, one-sided at the ends.
pub fn gradient(x: &[f64], y: &[f64]) -> Vec<f64> {
    let n = y.len();
    if n < 2 {
        return vec![0.0; n];
    }
    (0..n)
        .map(|i| {
            let (a, b) = (i.saturating_sub(1), (i + 1).min(n - 1));
            (y[b] - y[a]) / (x[b] - x[a])
        })
        .collect()
}

/// Cumulative trapezoidal integral of y dx from the first sample.
pub fn cumulative_integral(x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(y.len());
    let mut acc = 0.0;
    for i in 0..y.len() {
        if i > 0 {
            acc += 0.5 * (y[i] + y[i - 1]) * (x[i] - x[i - 1]);
        }
        out.push(acc);
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

/// Mean `x`-interval between successive upward crossings of `y` through `level` (each located by
/// linear interpolation), and the number of crossings; `None` with fewer than two.
pub fn crossing_period(x: &[f64], y: &[f64], level: f64) -> Option<(f64, usize)> {
    let mut first = None;
    let mut last = 0.0;
    let mut n = 0;
    for i in 1..x.len().min(y.len()) {
        let (a, b) = (y[i - 1] - level, y[i] - level);
        if a < 0.0 && b >= 0.0 {
            let xc = x[i - 1] + (x[i] - x[i - 1]) * (-a / (b - a));
            first.get_or_insert(xc);
            last = xc;
            n += 1;
        }
    }
    (n >= 2).then(|| ((last - first.unwrap()) / (n - 1) as f64, n))
}

/// Linear interpolation of `y(x)` on the first segment of the sampled curve that brackets `x0`.
pub fn value_at(x: &[f64], y: &[f64], x0: f64) -> Option<f64> {
    for i in 1..x.len() {
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

/// Result of a periodic-steady-state search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Periodicity {
    /// Number of periods simulated before the period-to-period change fell below tolerance.
    pub periods: usize,
    /// The last period-to-period change (max norm, relative to `1 + |x|`).
    pub change: f64,
    pub converged: bool,
}

/// Advance `x` one period at a time with `advance` until the period-to-period change (max norm,
/// relative to `1 + |x|`) is below `tol`, at most `max_periods` times.
pub fn until_periodic<E>(
    x: &mut [f64],
    tol: f64,
    max_periods: usize,
    mut advance: impl FnMut(usize, &mut [f64]) -> Result<(), E>,
) -> Result<Periodicity, E> {
    let mut prev = x.to_vec();
    let mut change = f64::INFINITY;
    for k in 0..max_periods {
        advance(k, x)?;
        change = x
            .iter()
            .zip(&prev)
            .map(|(a, b)| (a - b).abs() / (1.0 + a.abs()))
            .fold(0.0, f64::max);
        if change < tol {
            return Ok(Periodicity {
                periods: k + 1,
                change,
                converged: true,
            });
        }
        prev.copy_from_slice(x);
    }
    Ok(Periodicity {
        periods: max_periods,
        change,
        converged: false,
    })
}

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
    let refine = |mut a: f64, mut b: f64, sa: Side| -> (f64, f64) {
        for _ in 0..200 {
            let m = 0.5 * (a + b);
            if m <= a || m >= b {
                break;
            }
            if side(bounds(m)) == sa {
                a = m;
            } else {
                b = m;
            }
        }
        (a, b)
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

#[cfg(test)]
mod crossing_tests {
    use super::curve_crossings;

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

#[cfg(test)]
mod tests {
    #[test]
    fn since_reversal_restarts_at_each_extremum() {
        let y = [0.0, 1.0, 2.0, 2.0, 1.5, 0.5, 1.0, 3.0];
        let s = super::since_reversal(&y);
        assert_eq!(s, vec![0.0, 1.0, 2.0, 2.0, -0.5, -1.5, 0.5, 2.5]);
    }

    #[test]
    fn dwell_times_are_the_complete_runs() {
        let x: Vec<f64> = (0..12).map(|k| k as f64).collect();
        let y = [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, f64::NAN, 1.0, 0.0, 1.0, 1.0];
        // Runs inside [0.5, 2]: 0-1 (cut at the start), 3-5, 8-8, 10-11 (cut at the end).
        assert_eq!(super::dwell_times(&x, &y, 0.5, 2.0), vec![2.0, 0.0]);
    }

    #[test]
    fn decay_fit_recovers_a_stribeck_curve() {
        // Exact data from floor 0.1, peak 0.133, scale 0.01 on 0 ≤ x ≤ 0.05: recovered to rounding.
        let x: Vec<f64> = (0..500).map(|k| k as f64 * 1e-4).collect();
        let f = |v: f64| 0.1 + 0.033 * (-(v / 0.01) * (v / 0.01)).exp();
        let y: Vec<f64> = x.iter().map(|&v| f(v)).collect();
        let fit = super::decay_fit(&x, &y).unwrap();
        assert!((fit.floor - 0.1).abs() < 1e-9, "{fit:?}");
        assert!((fit.peak - 0.133).abs() < 1e-9, "{fit:?}");
        assert!((fit.scale - 0.01).abs() < 1e-7, "{fit:?}");
        assert!(fit.rms < 1e-10 && !fit.at_bound, "{fit:?}");
        // With a deterministic ±1e-3 alternating perturbation the parameters move little and
        // the residual is the perturbation's size.
        let y2: Vec<f64> = y
            .iter()
            .enumerate()
            .map(|(k, v)| v + if k % 2 == 0 { 1e-3 } else { -1e-3 })
            .collect();
        let fit = super::decay_fit(&x, &y2).unwrap();
        assert!(
            (fit.floor - 0.1).abs() < 2e-4 && (fit.peak - 0.133).abs() < 5e-4,
            "{fit:?}"
        );
        assert!(
            (fit.scale - 0.01).abs() < 5e-4 && (fit.rms - 1e-3).abs() < 1e-5,
            "{fit:?}"
        );
        assert!(super::decay_fit(&[0.0; 5], &[1.0; 5]).is_none());
    }

    #[test]
    fn crossing_period_of_a_sampled_sine() {
        // sin(2π t / 0.018) + 0.3 sampled at 0.1 ms over 0.2 s: period 18 ms to interpolation error.
        let t: Vec<f64> = (0..2000).map(|k| k as f64 * 1e-4).collect();
        let y: Vec<f64> = t
            .iter()
            .map(|t| (2.0 * std::f64::consts::PI * t / 0.018).sin() + 0.3)
            .collect();
        let (p, n) = crossing_period(&t, &y, 0.3).unwrap();
        assert!((p - 0.018).abs() < 1e-7, "{p}");
        assert_eq!(n, 11); // at 18 ms, 36 ms, …, 198 ms (the start, exactly at the level, is not a crossing from below)
        assert_eq!(crossing_period(&t[..100], &y[..100], 0.3), None);
    }

    #[test]
    fn loop_areas_of_known_curves() {
        use std::f64::consts::PI;
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
    use super::*;
    use std::f64::consts::PI;

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

    #[test]
    fn post_processing_kernels() {
        let x = [0.0, 1.0, 2.0, 3.0];
        let y = [0.0, 1.0, 4.0, 9.0];
        assert_eq!(line_fit(&[0.0, 1.0, 2.0], &[1.0, 3.0, 5.0]), Some((2.0, 1.0)));
        assert_eq!(gradient(&x, &y), vec![1.0, 2.0, 4.0, 5.0]);
        assert_eq!(cumulative_integral(&x, &[1.0; 4]), vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(
            moving_average(&[1.0, 2.0, 3.0, 4.0, 5.0], 3),
            vec![1.5, 2.0, 3.0, 4.0, 4.5]
        );
        let e = ewma(&[1.0, 1.0, 0.0], 0.5);
        assert_eq!(e, vec![1.0, 1.0, 0.5]);
    }

    #[test]
    fn reversal_points_and_slope() {
        let u = [0.0, 1.0, 2.0, 1.0, 0.0, 0.5];
        assert_eq!(reversal_points(&u), vec![2, 4]);
        assert_eq!(slope(&[0.0, 1.0, 2.0], &[1.0, 3.0, 5.0]), Some(2.0));
        assert_eq!(value_at(&[0.0, 2.0, 0.0], &[0.0, 4.0, 0.0], 1.0), Some(2.0));
    }
}
