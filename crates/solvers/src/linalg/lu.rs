//! The factor storage of an iteration matrix, dense or banded as the Jacobian's [`Shape`].

use super::band::{band_factor, band_ldab, band_solve};
use super::dense::{lu_factor, substitute};
use super::Scalar;

/// Structure of a Jacobian and of the iteration matrices built from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Row-major `n × n`.
    Dense,
    /// `kl` sub- and `ku` super-diagonals (both `< n`); the Jacobian in LAPACK's general band
    /// storage (`jac[j · (kl + ku + 1) + ku + i − j] = ∂f_i/∂x_j`, see [`crate::band_index`]),
    /// the factors in the `gbtrf` layout of the module documentation.
    Band { kl: usize, ku: usize },
}

impl Shape {
    /// The shape declared by a system of dimension `n` (bandwidths clamped to `n − 1`).
    pub fn of(n: usize, band: Option<(usize, usize)>) -> Self {
        match band {
            None => Shape::Dense,
            Some((kl, ku)) => {
                let m = n.saturating_sub(1);
                Shape::Band {
                    kl: kl.min(m),
                    ku: ku.min(m),
                }
            }
        }
    }
    /// Length of the Jacobian storage.
    pub fn jac_len(self, n: usize) -> usize {
        match self {
            Shape::Dense => n * n,
            Shape::Band { kl, ku } => n * (kl + ku + 1),
        }
    }
}

/// An iteration matrix and its LU factors, dense or banded, with its storage allocated once.
///
/// A dense factorisation also records, row by row, the columns where its factors are not zero
/// (ascending, `L` and `U` apart): [`Lu::solve`] then runs over those only. The iteration
/// matrices of systems with quadrature-like states (Fourier integrals, anchors constant between
/// events) are mostly zeros; a term skipped is `s − 0·b = s`, so the solution is the dense
/// loop's to the bit (up to the sign of a zero).
pub struct Lu<T> {
    n: usize,
    shape: Shape,
    /// The matrix (row-major, or band storage of the module documentation), then its factors.
    pub a: Vec<T>,
    piv: Vec<usize>,
    /// Dense shape: row `i` of `L` has its nonzeros in columns `cols[lo[i]..mid[i]]`, of `U`
    /// (right of the diagonal) in `cols[mid[i]..lo[i + 1]]`.
    lo: Vec<usize>,
    mid: Vec<usize>,
    cols: Vec<usize>,
}

impl<T: Scalar> Lu<T> {
    pub fn new(n: usize, shape: Shape) -> Self {
        let len = match shape {
            Shape::Dense => n * n,
            Shape::Band { kl, ku } => n * band_ldab(kl, ku),
        };
        let dense = matches!(shape, Shape::Dense);
        Self {
            n,
            shape,
            a: vec![T::ZERO; len],
            piv: vec![0; n],
            lo: vec![0; if dense { n + 1 } else { 0 }],
            mid: vec![0; if dense { n } else { 0 }],
            cols: Vec::with_capacity(if dense { n * n } else { 0 }),
        }
    }

    /// Banded shape only: set the matrix to `off(J_ij)` inside the band of `jac` (Jacobian band
    /// storage, see [`Shape::Band`]) plus `diag` on the diagonal.
    pub fn set_band(&mut self, jac: &[f64], off: impl Fn(f64) -> T, diag: impl Fn(T) -> T) {
        let Shape::Band { kl, ku } = self.shape else {
            unreachable!("set_band on a dense matrix")
        };
        let (n, ldj, ldab) = (self.n, kl + ku + 1, band_ldab(kl, ku));
        for j in 0..n {
            // Rows max(0, j − ku) ..= min(n − 1, j + kl) of column j.
            let lo = j.saturating_sub(ku);
            let hi = (j + kl).min(n - 1);
            for i in lo..=hi {
                let v = off(jac[j * ldj + ku + i - j]);
                self.a[j * ldab + kl + ku + i - j] = if i == j { diag(v) } else { v };
            }
        }
    }

    /// Factor the matrix in place; `false` if it is singular to working precision.
    pub fn factor(&mut self) -> bool {
        match self.shape {
            Shape::Dense => {
                let n = self.n;
                if !lu_factor(&mut self.a, n, &mut self.piv) {
                    return false;
                }
                // Within the capacity `n²` reserved in `new`: no allocation.
                self.cols.clear();
                for i in 0..n {
                    self.lo[i] = self.cols.len();
                    let row = &self.a[i * n..(i + 1) * n];
                    self.cols.extend((0..i).filter(|&j| row[j] != T::ZERO));
                    self.mid[i] = self.cols.len();
                    self.cols.extend((i + 1..n).filter(|&j| row[j] != T::ZERO));
                }
                self.lo[n] = self.cols.len();
                true
            }
            Shape::Band { kl, ku } => band_factor(&mut self.a, self.n, kl, ku, &mut self.piv),
        }
    }

    /// Solve `A x = b` in place with the factors of [`Lu::factor`].
    pub fn solve(&self, b: &mut [T]) {
        match self.shape {
            Shape::Dense => substitute(
                &self.a,
                self.n,
                &self.piv,
                b,
                |i| self.cols[self.lo[i]..self.mid[i]].iter().copied(),
                |i| self.cols[self.mid[i]..self.lo[i + 1]].iter().copied(),
            ),
            Shape::Band { kl, ku } => band_solve(&self.a, self.n, kl, ku, &self.piv, b),
        }
    }
}
