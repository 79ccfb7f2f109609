//! Unit tests of the factorisations: pivoting, complex arithmetic, band against dense.

use super::band::{band_factor, band_ldab, band_solve};
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
    let q = C64::new(1.0, 2.0) / C64::new(3.0, -4.0);
    // (1 + 2i) / (3 - 4i) = (1 + 2i)(3 + 4i) / 25 = (-5 + 10i) / 25
    assert!((q.re + 0.2).abs() < 1e-16 && (q.im - 0.4).abs() < 1e-16, "{q:?}");
    let q = C64::new(1.0, 2.0) / C64::new(1e-3, 5.0);
    let back = q * C64::new(1e-3, 5.0);
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
    assert!(lu_factor(&mut a, n, &mut piv));
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
                let p = orig[i * n + j] * x[j];
                s = C64::new(s.re + p.re, s.im + p.im);
            }
            s
        })
        .collect();
    lu_solve(&a, n, &piv, &mut b);
    for i in 0..n {
        assert!((b[i] - x[i]).abs1() < 1e-13, "{i}: {:?} vs {:?}", b[i], x[i]);
    }
    let mut z = vec![C64::default(); 4];
    assert!(!lu_factor(&mut z, 2, &mut piv));
}

/// Dense LU with partial pivoting without skipping any zero: the reference for the skips
/// of [`lu_factor`] and [`Lu::solve`].
fn reference_factor<T: Scalar>(a: &mut [T], n: usize, piv: &mut [usize]) {
    for k in 0..n {
        let p = (k..n).fold(k, |p, i| {
            if a[i * n + k].abs1() > a[p * n + k].abs1() {
                i
            } else {
                p
            }
        });
        piv[k] = p;
        for j in 0..n {
            a.swap(k * n + j, p * n + j);
        }
        let d = a[k * n + k];
        for i in k + 1..n {
            let l = a[i * n + k] / d;
            a[i * n + k] = l;
            for j in k + 1..n {
                a[i * n + j] = a[i * n + j] - l * a[k * n + j];
            }
        }
    }
}

/// `lu_factor` skips the zeros of the pivot row and `Lu::solve` runs over the factors'
/// nonzeros only: on sparse matrices (each entry zero with probability `p`, the diagonal
/// kept, as the iteration matrix of a system whose Fourier integrals and anchors are mostly
/// zero rows and columns) and on dense ones the factors equal those without skips and the
/// solution the dense loops' to the bit, real and complex, and it solves the system.
#[test]
fn lu_solves_over_the_nonzeros_as_the_dense_loops() {
    let mut rng = Rng(7);
    for n in [1, 2, 5, 7, 12] {
        for p in [0.0, 0.5, 0.8, 1.0] {
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    let keep = i == j || (rng.next() + 1.0) / 2.0 >= p;
                    a[i * n + j] = if keep {
                        rng.next() + if i == j { 3.0 } else { 0.0 }
                    } else {
                        0.0
                    };
                }
            }
            let x: Vec<f64> = (0..n).map(|_| rng.next()).collect();
            let b: Vec<f64> = (0..n).map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum()).collect();
            let mut lu = Lu::<f64>::new(n, Shape::Dense);
            lu.a.copy_from_slice(&a);
            assert!(lu.factor());
            let (mut dense, mut piv) = (a.clone(), vec![0; n]);
            reference_factor(&mut dense, n, &mut piv);
            assert!(lu.a == dense, "n {n}, p {p}: factors");
            let (mut xs, mut xd) = (b.clone(), b.clone());
            lu.solve(&mut xs);
            lu_solve(&dense, n, &piv, &mut xd);
            for i in 0..n {
                assert_eq!(xs[i].to_bits(), xd[i].to_bits(), "n {n}, p {p}, {i}");
                assert!((xs[i] - x[i]).abs() < 1e-12, "n {n}, p {p}, {i}");
            }
            let ac: Vec<C64> = a
                .iter()
                .enumerate()
                .map(|(k, &v)| C64::new(v, 0.1 * (k % 3) as f64 * v))
                .collect();
            let bc: Vec<C64> = b.iter().map(|&v| C64::new(v, -v)).collect();
            let mut luc = Lu::<C64>::new(n, Shape::Dense);
            luc.a.copy_from_slice(&ac);
            assert!(luc.factor());
            let (mut dc, mut pc) = (ac.clone(), vec![0; n]);
            reference_factor(&mut dc, n, &mut pc);
            assert!(luc.a == dc, "n {n}, p {p}: complex factors");
            let (mut ys, mut yd) = (bc.clone(), bc);
            luc.solve(&mut ys);
            lu_solve(&dc, n, &pc, &mut yd);
            for i in 0..n {
                assert_eq!(
                    (ys[i].re.to_bits(), ys[i].im.to_bits()),
                    (yd[i].re.to_bits(), yd[i].im.to_bits())
                );
            }
        }
    }
}

/// Uniform numbers in [−1, 1) from a fixed linear congruential sequence.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// Random `n × n` band matrices (entries uniform, so that sub-diagonal entries often exceed
/// the diagonal one): the band solve equals the dense solve of the same matrix, and the
/// pivoting is exercised. Returns the number of row interchanges.
fn band_matches_dense<T: Scalar + std::fmt::Debug>(
    n: usize,
    kl: usize,
    ku: usize,
    rng: &mut Rng,
    draw: impl Fn(&mut Rng) -> T,
) -> usize {
    let ldab = band_ldab(kl, ku);
    let mut dense = vec![T::ZERO; n * n];
    // Fill-in rows start as garbage: the factorisation must clear them itself.
    let mut ab = vec![draw(rng); n * ldab];
    for j in 0..n {
        for i in j.saturating_sub(ku)..=(j + kl).min(n - 1) {
            let v = draw(rng);
            dense[i * n + j] = v;
            ab[j * ldab + kl + ku + i - j] = v;
        }
    }
    let b: Vec<T> = (0..n).map(|_| draw(rng)).collect();
    let (mut pd, mut pb) = (vec![0; n], vec![0; n]);
    assert!(lu_factor(&mut dense, n, &mut pd));
    assert!(band_factor(&mut ab, n, kl, ku, &mut pb));
    // Same pivot choices: the band algorithm is the dense one restricted to the band.
    assert_eq!(pd, pb, "n {n}, kl {kl}, ku {ku}");
    let (mut xd, mut xb) = (b.clone(), b.clone());
    lu_solve(&dense, n, &pd, &mut xd);
    band_solve(&ab, n, kl, ku, &pb, &mut xb);
    let scale = xd.iter().fold(0.0f64, |m, v| m.max(v.abs1()));
    for i in 0..n {
        let d = (xd[i] - xb[i]).abs1();
        assert!(
            d <= 1e-12 * scale,
            "n {n}, kl {kl}, ku {ku}, i {i}: {:?} vs {:?}",
            xd[i],
            xb[i]
        );
    }
    pb.iter().enumerate().filter(|&(k, &p)| p != k).count()
}

fn all_bands<T: Scalar + std::fmt::Debug>(draw: impl Fn(&mut Rng) -> T) {
    let mut rng = Rng(12345);
    let mut swaps = 0;
    for n in [1, 2, 3, 7, 40] {
        for (kl, ku) in [
            (0, 0),
            (1, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (1, 3),
            (3, 2),
            (0, 4),
            (5, 0),
            (4, 4),
        ] {
            let (kl, ku) = (kl.min(n - 1), ku.min(n - 1));
            for _ in 0..3 {
                swaps += band_matches_dense(n, kl, ku, &mut rng, &draw);
            }
        }
    }
    assert!(swaps > 100, "pivoting was hardly exercised: {swaps} interchanges");
}

#[test]
fn real_band_solve_equals_dense_solve() {
    all_bands(|r: &mut Rng| r.next());
}

#[test]
fn complex_band_solve_equals_dense_solve() {
    all_bands(|r: &mut Rng| C64::new(r.next(), r.next()));
}

#[test]
fn band_solve_recovers_a_known_solution_after_pivoting() {
    // Tridiagonal with a zero diagonal: every step must interchange rows.
    let (n, kl, ku) = (6, 1, 1);
    let ldab = band_ldab(kl, ku);
    let mut ab = vec![0.0; n * ldab];
    let x: Vec<f64> = (0..n).map(|i| 1.0 + i as f64).collect();
    let mut b = vec![0.0; n];
    for j in 0..n {
        for i in j.saturating_sub(ku)..=(j + kl).min(n - 1) {
            let v = if i == j { 0.0 } else { 1.0 + (i + 2 * j) as f64 };
            ab[j * ldab + kl + ku + i - j] = v;
            b[i] += v * x[j];
        }
    }
    let mut piv = vec![0; n];
    assert!(band_factor(&mut ab, n, kl, ku, &mut piv));
    assert!(piv.iter().enumerate().take(n - 1).all(|(k, &p)| p == k + 1), "{piv:?}");
    band_solve(&ab, n, kl, ku, &piv, &mut b);
    for i in 0..n {
        assert!((b[i] - x[i]).abs() < 1e-13 * x[i], "{b:?}");
    }
}

#[test]
fn singular_band_matrices_are_reported() {
    // A zero column.
    let (n, kl, ku) = (5, 1, 2);
    let ldab = band_ldab(kl, ku);
    let mut ab = vec![1.0; n * ldab];
    for r in 0..ldab {
        ab[2 * ldab + r] = 0.0;
    }
    let mut piv = vec![0; n];
    assert!(!band_factor(&mut ab, n, kl, ku, &mut piv));
    let mut z = vec![C64::ZERO; ldab];
    assert!(!band_factor(&mut z, 1, 0, 0, &mut piv));
}

#[test]
fn shifted_band_matrix_from_jacobian_band_storage() {
    // J = tridiag(1, −2, 3) on n = 4; set 5 I − J and compare with the dense matrix.
    let (n, kl, ku) = (4, 1, 1);
    let shape = Shape::of(n, Some((kl, ku)));
    let mut jac = vec![f64::NAN; shape.jac_len(n)];
    for j in 0..n {
        for i in j.saturating_sub(ku)..=(j + kl).min(n - 1) {
            jac[crate::band_index(kl, ku, i, j)] = [3.0, -2.0, 1.0][1 + i - j];
        }
    }
    let mut lu = Lu::<f64>::new(n, shape);
    lu.set_band(&jac, |v| -v, |d| d + 5.0);
    let ldab = band_ldab(kl, ku);
    for j in 0..n {
        for i in j.saturating_sub(ku)..=(j + kl).min(n - 1) {
            let want = if i == j {
                7.0
            } else if i > j {
                -1.0
            } else {
                -3.0
            };
            assert_eq!(lu.a[j * ldab + kl + ku + i - j], want, "({i}, {j})");
        }
    }
    let mut b = vec![1.0; n];
    assert!(lu.factor());
    lu.solve(&mut b);
    // Residual against the dense matrix.
    for i in 0..n {
        let mut r = -1.0;
        for j in 0..n {
            let a = if i == j {
                7.0
            } else if i == j + 1 {
                -1.0
            } else if j == i + 1 {
                -3.0
            } else {
                0.0
            };
            r += a * b[j];
        }
        assert!(r.abs() < 1e-15, "{r}");
    }
    assert_eq!(Shape::of(3, Some((5, 7))), Shape::Band { kl: 2, ku: 2 });
}
