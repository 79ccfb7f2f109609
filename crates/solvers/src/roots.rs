//! Root finders on a bracket `[lo, hi]` of a sign change: bisection ([`bisect_sign`]) and the
//! Illinois variant of regula falsi ([`illinois`]).

/// Bisection of a sign change of `f` on `[lo, hi]` (`f(lo)` and `f(hi)` of opposite signs) to a
/// width of `xtol`: the final bracket `(lo, f(lo), hi, f(hi))`. Across a discontinuity the
/// bracket closes on the jump and the values keep their size.
pub fn bisect_sign<E>(
    mut f: impl FnMut(f64) -> Result<f64, E>,
    (mut lo, mut f_lo): (f64, f64),
    (mut hi, mut f_hi): (f64, f64),
    xtol: f64,
) -> Result<(f64, f64, f64, f64), E> {
    while hi - lo > xtol {
        let m = 0.5 * (lo + hi);
        if m <= lo || m >= hi {
            break;
        }
        let fm = f(m)?;
        if (fm > 0.0) == (f_lo > 0.0) {
            (lo, f_lo) = (m, fm);
        } else {
            (hi, f_hi) = (m, fm);
        }
    }
    Ok((lo, f_lo, hi, f_hi))
}

/// The Illinois variant of regula falsi for a sign change of `f` on `[lo, hi]`, to `xtol`: the
/// root estimate and the number of evaluations. Superlinear where `f` is smooth, never leaves
/// the bracket.
pub fn illinois<E>(
    mut f: impl FnMut(f64) -> Result<f64, E>,
    (mut lo, mut f_lo): (f64, f64),
    (mut hi, mut f_hi): (f64, f64),
    xtol: f64,
    max_evals: usize,
) -> Result<(f64, usize), E> {
    let mut side = 0;
    let mut evals = 0;
    let mut x = lo;
    while (hi - lo).abs() > xtol && evals < max_evals {
        x = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
        if !(x > lo.min(hi) && x < lo.max(hi)) {
            x = 0.5 * (lo + hi);
        }
        let fx = f(x)?;
        evals += 1;
        if fx == 0.0 {
            return Ok((x, evals));
        }
        if (fx > 0.0) == (f_hi > 0.0) {
            (hi, f_hi) = (x, fx);
            if side == -1 {
                f_lo /= 2.0;
            }
            side = -1;
        } else {
            (lo, f_lo) = (x, fx);
            if side == 1 {
                f_hi /= 2.0;
            }
            side = 1;
        }
    }
    Ok((x, evals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_finders_bracket_and_converge() {
        let f = |x: f64| Ok::<_, ()>(x * x * x - 2.0);
        let (lo, _, hi, _) = bisect_sign(f, (0.0, -2.0), (2.0, 6.0), 1e-12).unwrap();
        assert!(lo <= 2f64.cbrt() && hi >= 2f64.cbrt() && hi - lo <= 1e-12);
        let (x, evals) = illinois(f, (0.0, -2.0), (2.0, 6.0), 1e-13, 100).unwrap();
        assert!((x - 2f64.cbrt()).abs() < 1e-12, "{x}");
        assert!(evals < 20, "{evals}");
    }
}
