//! Floquet analysis of a periodic orbit: the monodromy matrix `∂P/∂x` by finite differences, its
//! spectral radius and its dominant multiplier with the left and right eigenvectors.

use super::residual;

/// The spectral radius of the monodromy matrix `M = ∂P/∂x` at `x` (the largest Floquet
/// multiplier's modulus), with `px = P(x)` given: `M` by forward differences (`n` period maps,
/// steps as in [`shoot`], but never below `1e3` times the residual of `x`: where the shooting
/// stalled on a map rough at the level `r` of its residual, a step of `1e-7` would turn that
/// roughness into an error of `r/1e-7` in each entry of `M`, spurious multipliers above 1 at
/// `r ≈ 1e-7`; the wider step keeps it near `1e-3`) and `ρ(M) = lim ‖M^k‖^(1/k)` evaluated at
/// `k = 2^20` by repeated squaring (the bound exceeds ρ by a factor `C^(1/k)`, under 1e-5 for any conditioning `C` up
/// to 1e4). A periodic orbit with `ρ > 1` is unstable: a simulation does not settle on it, however
/// small its shooting residual. Returns `ρ` and the maps spent.
pub fn spectral_radius<E>(
    x: &[f64],
    px: &[f64],
    scale: &[f64],
    map: impl FnMut(&mut [f64]) -> Result<(), E>,
) -> Result<(f64, usize), E> {
    let f = floquet(x, px, scale, map)?;
    Ok((f.radius, f.maps))
}

/// The monodromy matrix of a periodic orbit and what follows from it ([`floquet`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Floquet {
    /// `M = ∂P/∂x`, row-major.
    pub monodromy: Vec<f64>,
    /// Its spectral radius, as [`spectral_radius`].
    pub radius: f64,
    /// Period maps spent: the dimension, one map per column.
    pub maps: usize,
}

/// [`spectral_radius`] with the monodromy matrix kept: the same maps, the same `ρ`.
pub fn floquet<E>(
    x: &[f64],
    px: &[f64],
    scale: &[f64],
    mut map: impl FnMut(&mut [f64]) -> Result<(), E>,
) -> Result<Floquet, E> {
    let n = x.len();
    let mut m = vec![0.0; n * n];
    let h_rel = (1e3 * residual(x, px)).max(1e-7);
    monodromy(x, px, scale, h_rel, &mut vec![0.0; n], &mut m, &mut map)?;
    Ok(Floquet {
        radius: radius(&m, n),
        monodromy: m,
        maps: n,
    })
}

/// A real dominant Floquet multiplier `mu` with its right and left eigenvectors (`left · right =
/// 1`, `right` scaled to a largest component of 1): near the orbit a deviation `d` has the
/// coordinate `c = left · d` along `right`, multiplied by `mu` at every period once the other
/// multipliers' components have died out.
#[derive(Clone, Debug, PartialEq)]
pub struct Dominant {
    pub mu: f64,
    pub right: Vec<f64>,
    pub left: Vec<f64>,
}

impl Floquet {
    /// The dominant multiplier by power iteration on `M` and on `Mᵀ`, if it is real, positive and
    /// separated from the others: `None` unless both iterations reach a relative eigen-residual
    /// of 1e-12 within 200 steps (a complex or negative dominant pair, or a second multiplier of
    /// nearly the same modulus, never does: the power iteration converges as `(|λ2|/μ)^k`).
    pub fn dominant(&self) -> Option<Dominant> {
        let (n, m) = (self.maps, &self.monodromy);
        if n == 0 {
            return None;
        }
        let right = power(n, |i, j| m[i * n + j])?;
        let left = power(n, |i, j| m[j * n + i])?;
        if (right.0 - left.0).abs() > 1e-8 * right.0 {
            return None;
        }
        let dot: f64 = left.1.iter().zip(&right.1).map(|(a, b)| a * b).sum();
        // Right and left eigenvectors of a simple eigenvalue are never orthogonal; nearly so
        // means an ill-conditioned one.
        if dot.abs() < 1e-6 {
            return None;
        }
        Some(Dominant {
            mu: right.0,
            left: left.1.iter().map(|v| v / dot).collect(),
            right: right.1,
        })
    }
}

/// The dominant eigenpair of the `n × n` matrix `a(i, j)` by power iteration, the vector scaled
/// to a largest component of 1, if the eigenvalue is positive and the iteration converges (see
/// [`Floquet::dominant`]).
fn power(n: usize, a: impl Fn(usize, usize) -> f64) -> Option<(f64, Vec<f64>)> {
    // A start with no special direction (not orthogonal to an eigenvector of a small integer matrix).
    let mut v: Vec<f64> = (0..n).map(|i| 1.0 + 0.1 * (i as f64 + 1.0).sqrt()).collect();
    let mut w = vec![0.0; n];
    for _ in 0..200 {
        for (i, wi) in w.iter_mut().enumerate() {
            *wi = (0..n).map(|j| a(i, j) * v[j]).sum();
        }
        // `v`'s largest component (1 after the first step): `w` there over it is the eigenvalue's
        // estimate.
        let (k, vmax) = largest(&v);
        let mu = w[k] / vmax;
        let big = largest(&w).1;
        if !(big.is_finite() && big != 0.0) {
            return None;
        }
        let err = w.iter().zip(&v).map(|(x, y)| (x - mu * y).abs()).fold(0.0, f64::max);
        if mu > 0.0 && err <= 1e-12 * mu * vmax.abs() {
            return Some((mu, v.iter().map(|x| x / vmax).collect()));
        }
        for (vi, wi) in v.iter_mut().zip(&w) {
            *vi = wi / big;
        }
    }
    None
}

/// The index and value (with its sign) of the component of largest modulus (the first of equals).
fn largest(v: &[f64]) -> (usize, f64) {
    let k = (0..v.len()).fold(0, |k, i| if v[i].abs() > v[k].abs() { i } else { k });
    (k, v[k])
}

/// The monodromy matrix `∂P/∂x` at `x` (row-major into `m`), with `px = P(x)` given, by forward
/// differences with steps `h_j = h_rel · max(|x_j|, scale_j)`: `n` period maps; `col` is scratch.
/// The differences are the crate's one dense finite-difference Jacobian
/// ([`crate::fd_jacobian::fd_dense`]), divided by the nominal step.
pub(super) fn monodromy<E>(
    x: &[f64],
    px: &[f64],
    scale: &[f64],
    h_rel: f64,
    col: &mut [f64],
    m: &mut [f64],
    mut map: impl FnMut(&mut [f64]) -> Result<(), E>,
) -> Result<(), E> {
    use crate::fd_jacobian::{fd_dense, Divisor};
    let step = |j: usize, xj: f64| h_rel * xj.abs().max(scale[j]).max(f64::MIN_POSITIVE);
    let period = |y: &[f64], out: &mut [f64]| {
        out.copy_from_slice(y);
        map(out)
    };
    fd_dense(x, px, step, Divisor::Nominal, &mut x.to_vec(), col, m, period)?;
    Ok(())
}

/// `‖A^k‖^(1/k)` (max norm) at `k = 2^20`, by squaring with renormalisation.
pub(super) fn radius(a: &[f64], n: usize) -> f64 {
    let mut a = a.to_vec();
    let mut b = vec![0.0; n * n];
    // log ‖A^(2^s)‖ accumulated over the squarings, divided by 2^s at the end.
    let mut log = 0.0f64;
    let norm = |m: &[f64]| m.iter().map(|v| v.abs()).fold(0.0, f64::max);
    let first = norm(&a);
    if first == 0.0 || !first.is_finite() {
        return first;
    }
    a.iter_mut().for_each(|v| *v /= first);
    log += first.ln();
    for _ in 0..20 {
        for i in 0..n {
            for j in 0..n {
                b[i * n + j] = (0..n).map(|k| a[i * n + k] * a[k * n + j]).sum();
            }
        }
        let nb = norm(&b);
        if nb == 0.0 {
            return 0.0;
        }
        log = 2.0 * log + nb.ln();
        for (x, y) in a.iter_mut().zip(&b) {
            *x = y / nb;
        }
    }
    (log / f64::from(1u32 << 20)).exp()
}
