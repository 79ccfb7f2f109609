//! Smoothing, differentiation and integration of sampled series.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_processing_kernels() {
        let x = [0.0, 1.0, 2.0, 3.0];
        let y = [0.0, 1.0, 4.0, 9.0];
        assert_eq!(gradient(&x, &y), vec![1.0, 2.0, 4.0, 5.0]);
        assert_eq!(cumulative_integral(&x, &[1.0; 4]), vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(
            moving_average(&[1.0, 2.0, 3.0, 4.0, 5.0], 3),
            vec![1.5, 2.0, 3.0, 4.0, 4.5]
        );
        let e = ewma(&[1.0, 1.0, 0.0], 0.5);
        assert_eq!(e, vec![1.0, 1.0, 0.5]);
    }
}
