//! Dense LU with partial pivoting for the small systems of the implicit steppers. Buffers are
//! owned by the caller; nothing allocates per factorisation.

/// Factor the row-major `n × n` matrix `a` in place; `piv` receives the row permutation.
/// Returns `false` if the matrix is singular to working precision.
pub fn lu_factor(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
    for k in 0..n {
        let mut p = k;
        let mut best = a[k * n + k].abs();
        for i in k + 1..n {
            let v = a[i * n + k].abs();
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
            if l != 0.0 {
                for j in k + 1..n {
                    a[i * n + j] -= l * a[k * n + j];
                }
            }
        }
    }
    true
}

/// Solve `A x = b` in place with the factors of [`lu_factor`].
pub fn lu_solve(a: &[f64], n: usize, piv: &[usize], b: &mut [f64]) {
    for k in 0..n {
        b.swap(k, piv[k]);
    }
    for i in 0..n {
        let mut s = b[i];
        for j in 0..i {
            s -= a[i * n + j] * b[j];
        }
        b[i] = s;
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in i + 1..n {
            s -= a[i * n + j] * b[j];
        }
        b[i] = s / a[i * n + i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_pivoting_system() {
        let mut a = vec![0.0, 2.0, 1.0, 1.0, 1.0, 1.0, 2.0, 1.0, 3.0];
        let orig = a.clone();
        let mut piv = [0; 3];
        assert!(lu_factor(&mut a, 3, &mut piv));
        let x = [1.0, -2.0, 0.5];
        let mut b: Vec<f64> = (0..3).map(|i| (0..3).map(|j| orig[i * 3 + j] * x[j]).sum()).collect();
        lu_solve(&a, 3, &piv, &mut b);
        for i in 0..3 {
            assert!((b[i] - x[i]).abs() < 1e-14);
        }
    }
}
