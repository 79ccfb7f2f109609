//! Band LU factorisation with partial pivoting (LAPACK's `gbtf2` layout, see the module
//! documentation of [`super`]) and its solve (`gbtrs`).

use super::Scalar;

/// Leading dimension of the factor storage of a band matrix: `2 kl + ku + 1`.
pub const fn band_ldab(kl: usize, ku: usize) -> usize {
    2 * kl + ku + 1
}

/// Factor the `n × n` band matrix `ab` (see the [module documentation](self) for the layout) in
/// place with partial pivoting (LAPACK's unblocked `gbtf2`); `piv[k]` is the row interchanged
/// with row `k` at step `k`. Returns `false` if the matrix is singular to working precision.
pub fn band_factor<T: Scalar>(ab: &mut [T], n: usize, kl: usize, ku: usize, piv: &mut [usize]) -> bool {
    let ldab = band_ldab(kl, ku);
    let kv = kl + ku;
    debug_assert!(ab.len() >= n * ldab);
    // A(i, j) for j − kv ≤ i ≤ j + kl.
    let at = |i: usize, j: usize| j * ldab + kv + i - j;
    for j in 0..n {
        ab[j * ldab..j * ldab + kl].fill(T::ZERO);
    }
    // Last column touched by the row interchanges so far.
    let mut ju = 0;
    for k in 0..n {
        let km = kl.min(n - 1 - k);
        let mut p = k;
        let mut best = ab[at(k, k)].abs1();
        for i in k + 1..=k + km {
            let v = ab[at(i, k)].abs1();
            if v > best {
                best = v;
                p = i;
            }
        }
        piv[k] = p;
        if best == 0.0 || !best.is_finite() {
            return false;
        }
        ju = ju.max((p + ku).min(n - 1));
        if p != k {
            for j in k..=ju {
                ab.swap(at(k, j), at(p, j));
            }
        }
        let d = ab[at(k, k)];
        for i in k + 1..=k + km {
            let l = ab[at(i, k)] / d;
            ab[at(i, k)] = l;
            if l != T::ZERO {
                for j in k + 1..=ju {
                    ab[at(i, j)] = ab[at(i, j)] - l * ab[at(k, j)];
                }
            }
        }
    }
    true
}

/// Solve `A x = b` in place with the factors of [`band_factor`].
pub fn band_solve<T: Scalar>(ab: &[T], n: usize, kl: usize, ku: usize, piv: &[usize], b: &mut [T]) {
    let ldab = band_ldab(kl, ku);
    let kv = kl + ku;
    let at = |i: usize, j: usize| j * ldab + kv + i - j;
    // L: interchanges and eliminations in the order of the factorisation.
    if kl > 0 {
        for k in 0..n.saturating_sub(1) {
            b.swap(k, piv[k]);
            let bk = b[k];
            if bk != T::ZERO {
                for i in k + 1..=(k + kl).min(n - 1) {
                    b[i] = b[i] - ab[at(i, k)] * bk;
                }
            }
        }
    }
    // U, with kl + ku super-diagonals, by columns.
    for j in (0..n).rev() {
        let x = b[j] / ab[at(j, j)];
        b[j] = x;
        if x != T::ZERO {
            for i in j.saturating_sub(kv)..j {
                b[i] = b[i] - ab[at(i, j)] * x;
            }
        }
    }
}
