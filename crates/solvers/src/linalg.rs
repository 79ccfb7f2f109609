//! Dense LU with partial pivoting, real and complex, for the small systems of the implicit
//! steppers. Buffers are owned by the caller; nothing allocates per factorisation.

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

/// A complex number, just enough arithmetic for the complex block of Radau IIA.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct C64 {
    pub re: f64,
    pub im: f64,
}

impl C64 {
    pub const fn new(re: f64, im: f64) -> Self {
        Self { re, im }
    }
    /// `|re| + |im|`: the cheap modulus used for pivoting (as LAPACK's `izamax`).
    fn abs1(self) -> f64 {
        self.re.abs() + self.im.abs()
    }
    fn mul(self, o: C64) -> C64 {
        C64::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }
    fn sub(self, o: C64) -> C64 {
        C64::new(self.re - o.re, self.im - o.im)
    }
    /// Smith's algorithm: no overflow for large components.
    fn div(self, d: C64) -> C64 {
        if d.re.abs() >= d.im.abs() {
            let r = d.im / d.re;
            let den = d.re + d.im * r;
            C64::new((self.re + self.im * r) / den, (self.im - self.re * r) / den)
        } else {
            let r = d.re / d.im;
            let den = d.re * r + d.im;
            C64::new((self.re * r + self.im) / den, (self.im * r - self.re) / den)
        }
    }
}

/// Complex counterpart of [`lu_factor`]: factor the row-major `n × n` matrix `a` in place.
pub fn clu_factor(a: &mut [C64], n: usize, piv: &mut [usize]) -> bool {
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
            let l = a[i * n + k].div(d);
            a[i * n + k] = l;
            if l.re != 0.0 || l.im != 0.0 {
                for j in k + 1..n {
                    a[i * n + j] = a[i * n + j].sub(l.mul(a[k * n + j]));
                }
            }
        }
    }
    true
}

/// Solve `A x = b` in place with the factors of [`clu_factor`].
pub fn clu_solve(a: &[C64], n: usize, piv: &[usize], b: &mut [C64]) {
    for k in 0..n {
        b.swap(k, piv[k]);
    }
    for i in 0..n {
        let mut s = b[i];
        for j in 0..i {
            s = s.sub(a[i * n + j].mul(b[j]));
        }
        b[i] = s;
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in i + 1..n {
            s = s.sub(a[i * n + j].mul(b[j]));
        }
        b[i] = s.div(a[i * n + i]);
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
    #[test]
    fn complex_division_is_exact_on_simple_values() {
        let q = C64::new(1.0, 2.0).div(C64::new(3.0, -4.0));
        // (1 + 2i) / (3 - 4i) = (1 + 2i)(3 + 4i) / 25 = (-5 + 10i) / 25
        assert!((q.re + 0.2).abs() < 1e-16 && (q.im - 0.4).abs() < 1e-16, "{q:?}");
        let q = C64::new(1.0, 2.0).div(C64::new(1e-3, 5.0));
        let back = q.mul(C64::new(1e-3, 5.0));
        assert!((back.re - 1.0).abs() < 1e-15 && (back.im - 2.0).abs() < 1e-15);
    }

    #[test]
    fn solves_a_complex_pivoting_system() {
        let n = 4;
        // Deterministic, non-symmetric, with a zero leading entry so that pivoting is needed.
        let mut a: Vec<C64> = (0..n * n)
            .map(|k| {
                let (i, j) = ((k / n) as f64, (k % n) as f64);
                C64::new((1.3 * i - 0.7 * j + 0.1 * i * j).sin(), (0.4 * i + 1.1 * j).cos())
            })
            .collect();
        a[0] = C64::default();
        let orig = a.clone();
        let mut piv = [0; 4];
        assert!(clu_factor(&mut a, n, &mut piv));
        let x = [
            C64::new(1.0, -1.0),
            C64::new(0.5, 2.0),
            C64::new(-3.0, 0.25),
            C64::new(0.0, 1.0),
        ];
        let mut b: Vec<C64> = (0..n)
            .map(|i| {
                let mut s = C64::default();
                for j in 0..n {
                    let p = orig[i * n + j].mul(x[j]);
                    s = C64::new(s.re + p.re, s.im + p.im);
                }
                s
            })
            .collect();
        clu_solve(&a, n, &piv, &mut b);
        for i in 0..n {
            assert!(b[i].sub(x[i]).abs1() < 1e-13, "{i}: {:?} vs {:?}", b[i], x[i]);
        }
        let mut z = vec![C64::default(); 4];
        assert!(!clu_factor(&mut z, 2, &mut piv));
    }
}
