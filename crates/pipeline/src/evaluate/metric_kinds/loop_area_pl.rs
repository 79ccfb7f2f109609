//! `loop-area-pl`: the signed ∮ y dx of a piecewise-linear loop (a stop or play operator, a
//! Maxwell-slip or Prandtl–Ishlinskii model driven by its input), exact where the samples miss
//! a kink: the trapezoid rule is exact on every sample interval where y is linear in x, and an
//! interval holding one kink (a slip onset) is split at the intersection of the lines of its
//! two straight neighbours. The exact drivers of `maxwell-slip`, `multiplay` and
//! `multiplay-inverse` sample every slip onset (`fric_experiments` `drive::exact_pl`), so on their
//! runs plain `loop-area` is exact too; this kind is for loops sampled without their kinks.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "loop-area-pl",
        doc: "signed ∮ y dx (positive clockwise) of a piecewise-linear loop: a sample interval holding one kink \
              is split where the lines of its two straight neighbours on each side meet (exact to rounding when \
              every kink has two straight intervals on each side that advance x the same way); a kink within two \
              samples of a reversal or of the window's ends, and the closing segment, keep the trapezoid rule of \
              loop-area; of a cycle that closed, as loop-area; unit x·y",
        fields: CURVE,
        example: "{name: area, kind: loop-area-pl, run: ms, x: u, y: F, window: last-period}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let (x, y) = closed_cycle(c)?;
    Ok(pl_loop_area(x, y))
}

/// Relative difference below which two slopes are the same line.
const SAME: f64 = 1e-9;

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME * a.abs().max(b.abs()).max(1.0)
}

/// ∮ y dx over the samples, closed from the last back to the first (the convention of
/// `fric_solvers::analysis::loop_area`), with each interval j that holds one kink split at it:
/// intervals j − 2, j − 1 share one line, j + 1, j + 2 another, the four and j advance x the same
/// way, and the lines meet strictly inside j. Samples cannot tell a kink inside j from kinks at
/// both ends of j (a third straight piece): such an interval is split as if it held one kink.
pub fn pl_loop_area(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len().min(y.len());
    if n < 2 {
        return 0.0;
    }
    let trap = |x0: f64, y0: f64, x1: f64, y1: f64| 0.5 * (y0 + y1) * (x1 - x0);
    let slope = |j: usize| (y[j + 1] - y[j]) / (x[j + 1] - x[j]);
    let dir = |j: usize| {
        let dx = x[j + 1] - x[j];
        (dx > 0.0) as i8 as f64 - (dx < 0.0) as i8 as f64
    };
    let mut a = trap(x[n - 1], y[n - 1], x[0], y[0]);
    for j in 0..n - 1 {
        let plain = trap(x[j], y[j], x[j + 1], y[j + 1]);
        a += kink_split(j, n, x, y, &slope, &dir).unwrap_or(plain);
    }
    a
}

/// The area of interval j split at its kink, or None when j is not an interval with one kink
/// between straight neighbours.
fn kink_split(
    j: usize,
    n: usize,
    x: &[f64],
    y: &[f64],
    slope: &dyn Fn(usize) -> f64,
    dir: &dyn Fn(usize) -> f64,
) -> Option<f64> {
    if j < 2 || j + 3 >= n {
        return None;
    }
    let d = dir(j);
    if d == 0.0 || (j - 2..=j + 2).any(|k| dir(k) != d) {
        return None;
    }
    let (s1, s2) = (slope(j - 1), slope(j + 1));
    if !same(slope(j - 2), s1) || !same(slope(j + 2), s2) || same(s1, s2) {
        return None;
    }
    // y = y_j + s1 (x − x_j) and y = y_{j+1} + s2 (x − x_{j+1}) meet at xk.
    let xk = (y[j + 1] - y[j] - s2 * x[j + 1] + s1 * x[j]) / (s1 - s2);
    let inside = (xk - x[j]) * d > 0.0 && (x[j + 1] - xk) * d > 0.0;
    if !inside || !xk.is_finite() {
        return None;
    }
    let yk = y[j] + s1 * (xk - x[j]);
    Some(0.5 * (y[j] + yk) * (xk - x[j]) + 0.5 * (yk + y[j + 1]) * (x[j + 1] - xk))
}

#[cfg(test)]
mod tests {
    use super::pl_loop_area;

    /// A stop operator's loop (k = 1, δ = 0.7) under u = 2 sin θ, its extrema sampled (as the
    /// exact operators sample them) and its slip onsets (u = ±0.6) not: the trapezoid rule cuts
    /// each onset's corner, the split finds it.
    #[test]
    fn a_stop_loop_sampled_between_its_onsets_is_exact() {
        let (k, delta, amp) = (1.0, 0.7, 2.0);
        let m = 1000;
        let mut w: f64 = 0.0;
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        // Two periods from the relaxed state; the second recorded.
        for i in 0..=2 * m {
            let u = amp * (2.0 * std::f64::consts::PI * i as f64 / m as f64).sin();
            w = w.clamp(u - delta, u + delta);
            if i >= m {
                xs.push(u);
                ys.push(k * (u - w));
            }
        }
        let exact = 4.0 * k * delta * (amp - delta);
        let plain = fric_solvers::analysis::loop_area(&xs, &ys);
        let pl = pl_loop_area(&xs, &ys);
        assert!(
            (plain - exact).abs() > 1e-6,
            "the trapezoid rule misses the onsets: {plain}"
        );
        assert!((pl - exact).abs() < 1e-9, "{pl} vs {exact}");
    }
}
