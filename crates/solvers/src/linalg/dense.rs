//! Dense LU factorisation with partial pivoting (row-major) and its triangular solves.

use super::Scalar;

/// Factor the row-major `n × n` matrix `a` in place; `piv` receives the row permutation.
/// Returns `false` if the matrix is singular to working precision.
pub fn lu_factor<T: Scalar>(a: &mut [T], n: usize, piv: &mut [usize]) -> bool {
    for k in 0..n {
        let mut p = k;
        let mut best = a[k * n + k].abs1();
        for i in k + 1..n {
            let v = a[i * n + k].abs1();
            if v > best {
                best = v;
                p = i;
            }
        }
        piv[k] = p;
        if best == 0.0 || !best.is_finite() {
            return false;
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        let d = a[k * n + k];
        for i in k + 1..n {
            let l = a[i * n + k] / d;
            a[i * n + k] = l;
            if l != T::ZERO {
                for j in k + 1..n {
                    // A zero of the pivot row changes nothing (`a − l·0 = a`): skipped, as the
                    // iteration matrices of systems with quadrature states are mostly zeros.
                    let u = a[k * n + j];
                    if u != T::ZERO {
                        a[i * n + j] = a[i * n + j] - l * u;
                    }
                }
            }
        }
    }
    true
}

/// Solve `A x = b` in place with the factors of [`lu_factor`].
pub fn lu_solve<T: Scalar>(a: &[T], n: usize, piv: &[usize], b: &mut [T]) {
    substitute(a, n, piv, b, |i| 0..i, |i| i + 1..n);
}

/// The row interchanges, then forward and back substitution with the factors of
/// [`lu_factor`], row `i` running over the columns `lower(i)` of `L` and `upper(i)` of `U`
/// (ascending): all of them ([`lu_solve`]), or only the nonzeros ([`Lu::solve`]).
pub(super) fn substitute<T: Scalar, L: IntoIterator<Item = usize>, U: IntoIterator<Item = usize>>(
    a: &[T],
    n: usize,
    piv: &[usize],
    b: &mut [T],
    lower: impl Fn(usize) -> L,
    upper: impl Fn(usize) -> U,
) {
    for k in 0..n {
        b.swap(k, piv[k]);
    }
    for i in 0..n {
        let mut s = b[i];
        for j in lower(i) {
            s = s - a[i * n + j] * b[j];
        }
        b[i] = s;
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in upper(i) {
            s = s - a[i * n + j] * b[j];
        }
        b[i] = s / a[i * n + i];
    }
}
