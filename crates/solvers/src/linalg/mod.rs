//! LU factorisations with partial pivoting, real and complex, for the iteration matrices of the
//! implicit steppers: dense (row-major) and banded (LAPACK `gbtrf` layout). Each algorithm is
//! written once, generic over the private [`Scalar`] trait implemented for `f64` and [`C64`].
//! Buffers are owned by the caller (or by [`Lu`], allocated once); nothing allocates per
//! factorisation or solve.
//!
//! # Band storage
//!
//! A matrix with `kl` sub- and `ku` super-diagonals is stored column by column with leading
//! dimension `ldab = 2 kl + ku + 1`, as LAPACK's `dgbtrf`/`zgbtrf`: entry `(i, j)`, for
//! `j − ku ≤ i ≤ j + kl`, is `ab[j · ldab + kl + ku + i − j]`. The first `kl` rows of each column
//! receive the fill-in of the upper factor (which has `kl + ku` super-diagonals);
//! [`band_factor`](band::band_factor) sets them to zero itself, so callers fill only the band. After factorisation
//! `U` occupies rows `0 ..= kl + ku` and the multipliers of `L` rows `kl + ku + 1 .. ldab`; `L` is
//! not stored permuted, so [`band_solve`](band::band_solve) applies the interchanges column by column, as `gbtrs`.
//!
//! Files: this one holds the [`Scalar`] trait; `dense.rs` and `band.rs` the two factorisations
//! and their solves, `complex.rs` the complex numbers [`C64`], `lu.rs` the factor storage [`Lu`]
//! chosen by the Jacobian's [`Shape`]; `tests.rs` their unit tests.

mod band;
mod complex;
mod dense;
mod lu;
#[cfg(test)]
mod tests;

pub use complex::C64;
pub use dense::{lu_factor, lu_solve};
pub use lu::{Lu, Shape};

use std::ops::{Div, Mul, Sub};

/// What the factorisations need of a number: the field operations and a modulus for pivoting.
pub trait Scalar: Copy + PartialEq + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self> {
    const ZERO: Self;
    /// The modulus compared in the pivot search (`|x|`; `|re| + |im|` for complex numbers, as
    /// LAPACK's `izamax`).
    fn abs1(self) -> f64;
}

impl Scalar for f64 {
    const ZERO: Self = 0.0;
    fn abs1(self) -> f64 {
        self.abs()
    }
}
