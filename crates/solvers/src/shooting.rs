//! Periodic steady states by shooting: Newton's method on the period map.
//!
//! A periodically forced system has a periodic steady state where `P(x) = x`, `P` the map over
//! one period. Iterating `P` converges only as fast as the slowest mode decays (lightly damped
//! plants need hundreds of periods); Newton on `R(x) = P(x) − x` with a finite-difference
//! Jacobian needs `dim + 1` period maps per step and converges quadratically where `P` is smooth.
//! The result carries its residual `max_i |P(x)_i − x_i| / (1 + |x_i|)`, the same measure as
//! [`crate::analysis::until_periodic`]'s period-to-period change, so the two can be compared.
//!
//! Generic: the period map is a closure (the caller integrates one period however it must, with
//! restarts at kinks of the input). Newton steps are damped by backtracking on the residual; if
//! Newton stalls (a non-smooth map: stick phases, events), the remaining budget iterates `P`.

use crate::linalg::{lu_factor, lu_solve};

/// Outcome of [`shoot`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    /// Residual of the returned state: `max_i |P(x)_i − x_i| / (1 + |x_i|)`.
    pub residual: f64,
    /// Period maps evaluated (Jacobian columns included).
    pub maps: usize,
    /// Newton steps taken.
    pub newton_steps: usize,
    pub converged: bool,
}

fn residual(x: &[f64], px: &[f64]) -> f64 {
    x.iter()
        .zip(px)
        .map(|(a, b)| (b - a).abs() / (1.0 + a.abs()))
        .fold(0.0, f64::max)
}

/// Find `x` with `P(x) ≈ x` to `tol` (residual as in [`Shot`]), starting from `x`, using at most
/// `max_maps` evaluations of `map` (which advances its argument by one period in place). On
/// return `x` holds `P` of the last iterate (the state one period later, on the orbit to within
/// the residual). `scale` gives each component's typical size for the finite-difference steps
/// (`h_j = 1e-7 · max(|x_j|, scale_j)`).
pub fn shoot<E>(
    x: &mut [f64],
    scale: &[f64],
    tol: f64,
    max_maps: usize,
    mut map: impl FnMut(&mut [f64]) -> Result<(), E>,
) -> Result<Shot, E> {
    let n = x.len();
    assert_eq!(scale.len(), n, "one scale per state");
    let mut maps = 0;
    let mut apply = |v: &mut [f64], maps: &mut usize| -> Result<(), E> {
        *maps += 1;
        map(v)
    };
    // Two plain periods first: transients that Newton's linear model would not capture.
    let mut px = x.to_vec();
    for _ in 0..2.min(max_maps) {
        x.copy_from_slice(&px);
        apply(&mut px, &mut maps)?;
    }
    let mut res = residual(x, &px);
    let mut jac = vec![0.0; n * n];
    let mut piv = vec![0; n];
    let mut col = vec![0.0; n];
    let mut step = vec![0.0; n];
    let mut trial = vec![0.0; n];
    let mut ptrial = vec![0.0; n];
    let mut newton_steps = 0;
    while res >= tol && maps + n < max_maps {
        // Jacobian of R(x) = P(x) − x, column by column.
        for j in 0..n {
            let h = 1e-7 * x[j].abs().max(scale[j]).max(f64::MIN_POSITIVE);
            col.copy_from_slice(x);
            col[j] += h;
            apply(&mut col, &mut maps)?;
            for i in 0..n {
                jac[i * n + j] = (col[i] - px[i]) / h - if i == j { 1.0 } else { 0.0 };
            }
        }
        for i in 0..n {
            step[i] = x[i] - px[i];
        }
        if !lu_factor(&mut jac, n, &mut piv) {
            break;
        }
        lu_solve(&jac, n, &piv, &mut step);
        // Backtracking: accept the first fraction of the step that lowers the residual.
        let mut lambda = 1.0;
        let mut accepted = false;
        while maps < max_maps {
            for i in 0..n {
                trial[i] = x[i] + lambda * step[i];
            }
            ptrial.copy_from_slice(&trial);
            apply(&mut ptrial, &mut maps)?;
            let r = residual(&trial, &ptrial);
            if r < res {
                x.copy_from_slice(&trial);
                px.copy_from_slice(&ptrial);
                res = r;
                accepted = true;
                break;
            }
            lambda /= 2.0;
            if lambda < 1.0 / 32.0 {
                break;
            }
        }
        newton_steps += 1;
        if !accepted {
            break;
        }
    }
    // Newton converged, stalled or ran out of budget: iterate P with what is left.
    while res >= tol && maps < max_maps {
        x.copy_from_slice(&px);
        apply(&mut px, &mut maps)?;
        res = residual(x, &px);
    }
    x.copy_from_slice(&px);
    Ok(Shot {
        residual: res,
        maps,
        newton_steps,
        converged: res < tol,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::until_periodic;

    /// Exact period map of a lightly damped forced oscillator x'' + 2ζω x' + ω² x = cos t over
    /// one period 2π, as an affine map (computed once by a tiny RK4 with many steps).
    fn oscillator_map(zeta: f64) -> impl FnMut(&mut [f64]) -> Result<(), String> {
        move |x: &mut [f64]| {
            let (w, steps) = (3.0f64, 20_000);
            let h = 2.0 * std::f64::consts::PI / steps as f64;
            let f = |t: f64, s: [f64; 2]| [s[1], t.cos() - 2.0 * zeta * w * s[1] - w * w * s[0]];
            let mut s = [x[0], x[1]];
            for k in 0..steps {
                let t = k as f64 * h;
                let k1 = f(t, s);
                let k2 = f(t + h / 2.0, [s[0] + h / 2.0 * k1[0], s[1] + h / 2.0 * k1[1]]);
                let k3 = f(t + h / 2.0, [s[0] + h / 2.0 * k2[0], s[1] + h / 2.0 * k2[1]]);
                let k4 = f(t + h, [s[0] + h * k3[0], s[1] + h * k3[1]]);
                for i in 0..2 {
                    s[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
                }
            }
            x.copy_from_slice(&s);
            Ok(())
        }
    }

    #[test]
    fn shooting_finds_the_steady_state_of_a_lightly_damped_oscillator_in_few_maps() {
        // Steady state of x'' + 2ζω x' + ω² x = cos t: x = A cos t + B sin t with
        // A = (ω² − 1)/D, B = 2ζω/D, D = (ω² − 1)² + (2ζω)².
        let zeta = 0.002;
        let w = 3.0f64;
        let d = (w * w - 1.0).powi(2) + (2.0 * zeta * w).powi(2);
        let exact = [(w * w - 1.0) / d, 2.0 * zeta * w / d];
        let mut x = [0.0, 0.0];
        let s = shoot(&mut x, &[1.0, 1.0], 1e-11, 50, oscillator_map(zeta)).unwrap();
        assert!(s.converged, "{s:?}");
        assert!(s.maps <= 12, "{s:?}");
        assert!(
            (x[0] - exact[0]).abs() < 1e-9 && (x[1] - exact[1]).abs() < 1e-9,
            "{x:?} vs {exact:?}"
        );
        // Plain iteration: the slowest mode decays by e^{−2π ζ ω} ≈ 0.963 per period, so the
        // same residual needs hundreds of periods.
        let mut y = [0.0, 0.0];
        let per = until_periodic(&mut y, 1e-11, 2000, |_, v| oscillator_map(zeta)(v)).unwrap();
        assert!(per.converged && per.periods > 400, "{per:?}");
        assert!((y[0] - exact[0]).abs() < 1e-8, "{y:?}");
    }

    #[test]
    fn a_map_with_a_kink_converges() {
        // A contraction with a kink at 0: the first Newton step crosses it, the second lands.
        let mut x = [5.0];
        let s = shoot(&mut x, &[1.0], 1e-12, 200, |v: &mut [f64]| {
            v[0] = if v[0] > 0.0 { 0.5 * v[0] - 1.0 } else { 0.1 * v[0] - 0.4 };
            Ok::<(), ()>(())
        })
        .unwrap();
        // Fixed point: x = 0.1 x − 0.4 → x = −4/9.
        assert!(s.converged, "{s:?}");
        assert!((x[0] + 4.0 / 9.0).abs() < 1e-11, "{x:?}");
    }
}
