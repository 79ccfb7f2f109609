//! The reference's own bin means and sech fit (4.68) of thesis Figs 4.10–4.11, written from the
//! manifests' description, not the production's code.

/// `(y1, y2, v_s)` of (4.68).
pub type Sech = (f64, f64, f64);

/// Bin means of `(v, y)` samples over `bins` equal velocity bins on `[−max|v|, max|v|]`, each
/// sample alike (the manifests' time weights); a stuck sample (`stuck`: `Some(side pulled to
/// is +)`) joins the bin next to 0 on that side (`bins` even). Returns `(bin centre, mean y)`
/// of the non-empty bins. Written from the manifests' description (`thesis/fig4.10`), not the
/// production's code.
pub fn bin_means(samples: &[(f64, f64, Option<bool>)], bins: usize) -> Vec<(f64, f64)> {
    let vmax = samples.iter().map(|s| s.0.abs()).fold(0.0, f64::max);
    let width = 2.0 * vmax / bins as f64;
    let mut sum = vec![(0.0, 0usize); bins];
    for &(v, y, stuck) in samples {
        let k = match stuck {
            Some(true) => bins / 2,
            Some(false) => bins / 2 - 1,
            None => (((v + vmax) / width).floor().max(0.0) as usize).min(bins - 1),
        };
        sum[k].0 += y;
        sum[k].1 += 1;
    }
    (0..bins)
        .filter(|&k| sum[k].1 > 0)
        .map(|k| (-vmax + (k as f64 + 0.5) * width, sum[k].0 / sum[k].1 as f64))
        .collect()
}

/// `(y1, y2, v_s)` of (4.68) `ȳ = y1 − y2 sech(v / v_s)` by least squares on the bin means:
/// for a fixed `v_s` the model is linear in `(y1, y2)` (solved in closed form); `v_s` is the best
/// of 4000 log-spaced values on [1e-3, 10] m/s, refined by bisection on the sign of the residual's
/// slope between its neighbours (written here, not the production's `separable_scale`).
pub fn sech_fit(means: &[(f64, f64)]) -> Sech {
    let solve = |vs: f64| {
        let n = means.len() as f64;
        let (mut sp, mut spp, mut sy, mut spy) = (0.0, 0.0, 0.0, 0.0);
        for &(v, y) in means {
            let p = 1.0 / (v / vs).cosh();
            (sp, spp, sy, spy) = (sp + p, spp + p * p, sy + y, spy + p * y);
        }
        // y = a + b p: b = −y2, a = y1.
        let b = (n * spy - sp * sy) / (n * spp - sp * sp);
        let a = (sy - b * sp) / n;
        let rss: f64 = means.iter().map(|&(v, y)| (y - a - b / (v / vs).cosh()).powi(2)).sum();
        (a, -b, rss)
    };
    let grid = |i: usize| 10f64.powf(-3.0 + 4.0 * i as f64 / 4000.0);
    let best = (0..=4000)
        .min_by(|&i, &j| solve(grid(i)).2.total_cmp(&solve(grid(j)).2))
        .unwrap();
    let (mut lo, mut hi) = (grid(best.saturating_sub(1)).ln(), grid((best + 1).min(4000)).ln());
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        let e = 1e-9 * (hi - lo).max(1e-12);
        if solve((mid + e).exp()).2 > solve((mid - e).exp()).2 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let vs = (0.5 * (lo + hi)).exp();
    let (y1, y2, _) = solve(vs);
    (y1, y2, vs)
}

/// `(k̃, h0)` of (4.67) `|F_f| = k̃ (h0 − y)`: the least-squares line of `|F_f|` on `y` over the
/// samples `(y, |F_f|)` (written here, not the production's `line_fit`).
pub fn friction_line(s: &[(f64, f64)]) -> (f64, f64) {
    let n = s.len() as f64;
    let (my, mf) = (
        s.iter().map(|p| p.0).sum::<f64>() / n,
        s.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxy: f64 = s.iter().map(|p| (p.0 - my) * (p.1 - mf)).sum();
    let sxx: f64 = s.iter().map(|p| (p.0 - my) * (p.0 - my)).sum();
    let slope = sxy / sxx;
    let icpt = mf - slope * my;
    (-slope, -icpt / slope)
}

/// `(k̃, h0)` of (4.67).
pub type Line = (f64, f64);
