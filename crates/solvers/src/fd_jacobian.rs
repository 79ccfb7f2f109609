//! Forward-difference Jacobians, written once: dense, column by column ([`fd_dense`]), of any
//! map `f` (fallible: a period map may fail), and banded, columns grouped
//! ([`fd_jacobian_banded`]). The implicit methods (Radau IIA, Rosenbrock 2(3)) take `∂f/∂x` of
//! their right-hand side ([`fd_jacobian_dense`], [`fd_jacobian_banded`]); shooting and Floquet
//! analysis take the monodromy matrix `∂P/∂x` of a period map (`shooting/floquet.rs`'s
//! `monodromy`, through [`fd_dense`]). The increment of each column is the caller's
//! (`incr(x_j)`: [`radau_increment`] or [`rosenbrock_increment`], both named here, or the
//! shooting's relative step), as is the storage ([`crate::linalg::Shape`]): row-major `n × n`, or
//! the band storage of [`OdeSystem::jacobian_banded`]. (The least-squares fits' Jacobian in
//! `fric-pipeline`'s `lsq.rs` steps inside a box, one side or the other, so it keeps its own.)

use std::convert::Infallible;

use crate::OdeSystem;

/// Radau IIA's increment of column `j`: `sqrt(eps) · max(|x_j|, 1e-5)`. (Hairer's
/// `sqrt(eps · max(1e-5, |x_j|))` is ~200 times the tiny intermediate of Robertson's problem at
/// late times and cost 20 times more rejections there.)
pub(crate) fn radau_increment(xj: f64) -> f64 {
    f64::EPSILON.sqrt() * xj.abs().max(1e-5)
}

/// Rosenbrock 2(3)'s increment of column `j`: Radau's, but at least `1e-12`.
pub(crate) fn rosenbrock_increment(xj: f64) -> f64 {
    (f64::EPSILON.sqrt() * xj.abs().max(1e-5)).max(1e-12)
}

/// What a dense difference quotient divides by: the increment actually taken, `(x_j + δ_j) − x_j`
/// (exact in floating point; Radau IIA and every banded Jacobian), or the nominal `δ_j`
/// (Rosenbrock 2(3)'s dense Jacobian, as it has always been; the two differ by the rounding of
/// `x_j + δ_j`, and keeping each as it is keeps every result bit for bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Divisor {
    Taken,
    Nominal,
}

/// Dense forward-difference Jacobian, column by column: `jac[i · n + j] = (f_i(x + δ_j e_j) −
/// f0_i) / δ_j` with `δ_j = incr(x_j)` (divided as `divisor` says). `f0 = f(t, x)`; `ytmp` and
/// `ftmp` are work vectors. Returns the number of evaluations of `f` (`n`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fd_jacobian_dense<S: OdeSystem>(
    sys: &S,
    t: f64,
    x: &[f64],
    f0: &[f64],
    incr: impl Fn(f64) -> f64,
    divisor: Divisor,
    ytmp: &mut [f64],
    ftmp: &mut [f64],
    jac: &mut [f64],
) -> usize {
    let rhs = |y: &[f64], out: &mut [f64]| {
        sys.rhs(t, y, out);
        Ok::<(), Infallible>(())
    };
    match fd_dense(x, f0, |_, xj| incr(xj), divisor, ytmp, ftmp, jac, rhs) {
        Ok(n) => n,
        Err(never) => match never {},
    }
}

/// Dense forward-difference Jacobian of the map `f` (`f(y, out)` writes `f(y)` into `out`),
/// column by column: `jac[i · n + j] = (f_i(x + δ_j e_j) − f0_i) / δ_j` with `δ_j = incr(j,
/// x_j)` (divided as `divisor` says). `f0 = f(x)`; `ytmp` and `ftmp` are work vectors (`ytmp` is
/// left as `x`). Returns the number of evaluations of `f` (`n`), or `f`'s first error.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fd_dense<E>(
    x: &[f64],
    f0: &[f64],
    incr: impl Fn(usize, f64) -> f64,
    divisor: Divisor,
    ytmp: &mut [f64],
    ftmp: &mut [f64],
    jac: &mut [f64],
    mut f: impl FnMut(&[f64], &mut [f64]) -> Result<(), E>,
) -> Result<usize, E> {
    let n = x.len();
    ytmp.copy_from_slice(x);
    for j in 0..n {
        let dj = incr(j, x[j]);
        ytmp[j] = x[j] + dj;
        let d = match divisor {
            Divisor::Taken => ytmp[j] - x[j],
            Divisor::Nominal => dj,
        };
        f(ytmp, ftmp)?;
        for i in 0..n {
            jac[i * n + j] = (ftmp[i] - f0[i]) / d;
        }
        ytmp[j] = x[j];
    }
    Ok(n)
}

/// Banded finite-difference Jacobian by Curtis–Powell–Reid column grouping: the columns
/// `g, g + w, g + 2w, …` (`w = kl + ku + 1`) touch disjoint rows, so one evaluation of `f` per
/// group `g < w` gives all of them. `f0 = f(t, x)`; `incr(x_j)` is the nominal increment, rounded
/// so that `x_j + δ_j` is exact. `ytmp` and `ftmp` are work vectors; `jac` receives the band
/// storage of [`OdeSystem::jacobian_banded`]. Returns the number of evaluations of `f`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fd_jacobian_banded<S: OdeSystem>(
    sys: &S,
    t: f64,
    x: &[f64],
    f0: &[f64],
    (kl, ku): (usize, usize),
    incr: impl Fn(f64) -> f64,
    ytmp: &mut [f64],
    ftmp: &mut [f64],
    jac: &mut [f64],
) -> usize {
    let n = x.len();
    let w = kl + ku + 1;
    let groups = w.min(n);
    ytmp.copy_from_slice(x);
    for g in 0..groups {
        for j in (g..n).step_by(w) {
            ytmp[j] = x[j] + incr(x[j]);
        }
        sys.rhs(t, ytmp, ftmp);
        for j in (g..n).step_by(w) {
            let d = ytmp[j] - x[j];
            for i in j.saturating_sub(ku)..=(j + kl).min(n - 1) {
                jac[j * w + ku + i - j] = (ftmp[i] - f0[i]) / d;
            }
            ytmp[j] = x[j];
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `f(x) = (x0², x0 x1 + x2, sin x2)` on a chain: tridiagonal, known Jacobian.
    struct Chain;
    impl OdeSystem for Chain {
        fn dim(&self) -> usize {
            3
        }
        fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
            dx[0] = x[0] * x[0];
            dx[1] = x[0] * x[1] + x[2];
            dx[2] = x[2].sin();
        }
    }

    fn exact(x: &[f64]) -> [[f64; 3]; 3] {
        [[2.0 * x[0], 0.0, 0.0], [x[1], x[0], 1.0], [0.0, 0.0, x[2].cos()]]
    }

    #[test]
    fn dense_and_banded_differences_match_the_exact_jacobian() {
        let x = [0.7, -1.3, 0.4];
        let mut f0 = [0.0; 3];
        Chain.rhs(0.0, &x, &mut f0);
        let incr = |xj: f64| f64::EPSILON.sqrt() * xj.abs().max(1e-5);
        let (mut ytmp, mut ftmp) = ([0.0; 3], [0.0; 3]);
        let j = exact(&x);
        for divisor in [Divisor::Taken, Divisor::Nominal] {
            let mut jac = [0.0; 9];
            let evals = fd_jacobian_dense(&Chain, 0.0, &x, &f0, incr, divisor, &mut ytmp, &mut ftmp, &mut jac);
            assert_eq!(evals, 3);
            for r in 0..3 {
                for c in 0..3 {
                    assert!((jac[r * 3 + c] - j[r][c]).abs() < 1e-6, "{divisor:?} ({r}, {c})");
                }
            }
            // The work vector is left as `x`.
            assert_eq!(ytmp, x);
        }
        let (kl, ku) = (1, 1);
        let mut band = [f64::NAN; 9];
        let evals = fd_jacobian_banded(&Chain, 0.0, &x, &f0, (kl, ku), incr, &mut ytmp, &mut ftmp, &mut band);
        assert_eq!(evals, 3);
        for c in 0usize..3 {
            for r in c.saturating_sub(ku)..=(c + kl).min(2) {
                let v = band[crate::band_index(kl, ku, r, c)];
                assert!((v - j[r][c]).abs() < 1e-6, "band ({r}, {c}): {v}");
            }
        }
    }
}
