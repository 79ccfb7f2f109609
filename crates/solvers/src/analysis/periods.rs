//! Periods and dwell times of sampled records, and the search for a periodic steady state.

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

/// Mean `x`-interval between successive upward crossings of `y` through `level` (each located by
/// linear interpolation), and the number of crossings; `None` with fewer than two.
pub fn crossing_period(x: &[f64], y: &[f64], level: f64) -> Option<(f64, usize)> {
    let mut first = None;
    let mut last = 0.0;
    let mut n = 0;
    for xc in upward_crossings(x, y, level) {
        first.get_or_insert(xc);
        last = xc;
        n += 1;
    }
    (n >= 2).then(|| ((last - first.unwrap()) / (n - 1) as f64, n))
}

/// The `x` of each upward crossing of `y` through `level` (from below to at-or-above), located by
/// linear interpolation between the two samples, in order.
pub fn upward_crossings<'a>(x: &'a [f64], y: &'a [f64], level: f64) -> impl Iterator<Item = f64> + 'a {
    (1..x.len().min(y.len())).filter_map(move |i| {
        let (a, b) = (y[i - 1] - level, y[i] - level);
        (a < 0.0 && b >= 0.0).then(|| x[i - 1] + (x[i] - x[i - 1]) * (-a / (b - a)))
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dwell_times_are_the_complete_runs() {
        let x: Vec<f64> = (0..12).map(|k| k as f64).collect();
        let y = [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, f64::NAN, 1.0, 0.0, 1.0, 1.0];
        // Runs inside [0.5, 2]: 0-1 (cut at the start), 3-5, 8-8, 10-11 (cut at the end).
        assert_eq!(dwell_times(&x, &y, 0.5, 2.0), vec![2.0, 0.0]);
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
}
