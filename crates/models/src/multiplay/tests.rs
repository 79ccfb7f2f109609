//! Unit tests of the multiplay, its DC map and its inverses.

use super::*;

#[test]
fn deadzone_is_2_2() {
    assert_eq!(deadzone(0.5, 0.2), 0.3);
    assert_eq!(deadzone(-0.5, 0.2), -0.3);
    assert_eq!(deadzone(0.19, 0.2), 0.0);
    assert_eq!(deadzone(0.2, 0.2), 0.0);
    assert_eq!(deadzone(0.7, 0.0), 0.7);
    assert_eq!(deadzone_slope(0.2, 0.2), 1.0);
    assert_eq!(deadzone_slope(-0.1, 0.2), 0.0);
}

/// (2.4) includes the gap offset: an element at rest touching its wall (`x = u − Δ`) exerts no
/// spring force through the deadzone but contributes `k Δ` to `y`.
#[test]
fn output_includes_the_gap_offset() {
    let mp = Multiplay::from_stiffness(vec![1.0, 2.0], vec![0.2, 0.5]);
    let u = 0.3;
    let x = [u - 0.2, 0.0, u + 0.5, 0.0];
    let mut dx = [0.0; 4];
    mp.rhs(u, 0.0, &x, &mut dx);
    assert_eq!(dx, [0.0; 4]);
    assert!((mp.output(u, 0.0, &x) - (1.0 * 0.2 - 2.0 * 0.5)).abs() < 1e-15);
    // The DC state of a touching element is saturated, with the same force.
    let dc = mp.dc_limit();
    let st = mp.dc_state(u, &x);
    assert!((dc.force(&st) - mp.output(u, 0.0, &x)).abs() < 1e-15);
}

#[test]
fn analytic_jacobian_matches_finite_differences() {
    let mp = Multiplay::new(
        vec![1.0, -2.0, 0.5],
        vec![0.3, -1.0, 2.0],
        vec![1.0, -2.0, 3.0],
        vec![0.2, 0.5, 0.8],
    );
    let u = 0.1;
    // Element 1 in contact, element 2 inside its gap, element 3 in contact from the other side.
    let x = [u - 0.5, 0.4, u + 0.1, -0.2, u + 1.3, 0.05];
    let n = 6;
    let mut jac = vec![f64::NAN; n * n];
    assert!(mp.jacobian(u, 0.0, &x, &mut jac));
    let h = 1e-7;
    let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
    for col in 0..n {
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[col] += h;
        xm[col] -= h;
        mp.rhs(u, 0.0, &xp, &mut fp);
        mp.rhs(u, 0.0, &xm, &mut fm);
        for row in 0..n {
            let fd = (fp[row] - fm[row]) / (2.0 * h);
            assert!(
                (jac[row * n + col] - fd).abs() < 1e-7,
                "({row}, {col}): {} vs {fd}",
                jac[row * n + col]
            );
        }
    }
}

/// Flipping the signs of `(m_i, c_i, k_i)` leaves the dynamics unchanged and negates the
/// output (derived, catalog M8).
#[test]
fn sign_flip_negates_the_output_only() {
    let a = Multiplay::from_stiffness(vec![2.0, 4.0], vec![1.0, 3.0]);
    let b = Multiplay::from_stiffness(vec![-2.0, -4.0], vec![1.0, 3.0]);
    let (u, x) = (0.7, [-0.9, 0.2, 4.1, -0.3]);
    let (mut da, mut db) = ([0.0; 4], [0.0; 4]);
    a.rhs(u, 0.0, &x, &mut da);
    b.rhs(u, 0.0, &x, &mut db);
    assert_eq!(da, db);
    assert_eq!(a.output(u, 0.0, &x), -b.output(u, 0.0, &x));
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

/// Fig 2.5 (L698, L707): slopes 6, 4, 0 and −6, −4, 0, breakpoints u = −3 and 1 on the loop
/// between −5 and 5, vertices (−5, −14), (−3, −2), (1, 14), (5, 14) (catalog, derived).
#[test]
fn fig_2_5_slopes_breakpoints_and_vertices() {
    let a = DcMap::new(&[2.0, 4.0], &[1.0, 3.0]);
    assert_eq!(a.slopes(), vec![6.0, 4.0, 0.0]);
    let v = a.vertices(5.0);
    assert_eq!(v, vec![(-5.0, -14.0), (-3.0, -2.0), (1.0, 14.0), (5.0, 14.0)]);
    assert_eq!(a.loop_area(5.0), 128.0);
    let b = DcMap::new(&[-2.0, -4.0], &[1.0, 3.0]);
    assert_eq!(b.slopes(), vec![-6.0, -4.0, 0.0]);
    assert_eq!(b.loop_area(5.0), -128.0);
}

/// Fig 2.4 lists Δ descending (0.8, 0.2; L607): sorted before (2.22).
#[test]
fn widths_are_sorted() {
    let m = DcMap::new(&[1.0, 3.0], &[0.8, 0.2]);
    assert_eq!(m.delta, vec![0.2, 0.8]);
    assert_eq!(m.k, vec![3.0, 1.0]);
    assert_eq!(m.slopes(), vec![4.0, 1.0, 0.0]);
}

/// Fig 2.6 (L709): slopes, cumulative rises, saturation and area (catalog, derived).
#[test]
fn fig_2_6_derived_values() {
    let k = [-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
    let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
    let m = DcMap::new(&k, &d);
    assert_eq!(m.slopes(), vec![5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 8.0, 6.0, 4.0, 2.0, 0.0]);
    let r = [10.0, 34.0, 62.0, 94.0, 130.0, 170.0, 202.0, 226.0, 242.0, 250.0];
    assert_eq!(m.rises(), r.to_vec());
    assert_eq!(m.saturation(), 125.0);
    assert_eq!(m.loop_area(20.0), 1340.0);
    // C2 symmetry of the vertices: the loop top equals minus its bottom.
    let v = m.vertices(20.0);
    assert_eq!(v.first().unwrap().1, -v.last().unwrap().1);
}

/// The ascending branch agrees with the exact stop operators (M9) on the periodic loop.
#[test]
fn branch_matches_stop_operators() {
    let k = [-2.0, -2.0, -2.0, -2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0];
    let d = [1.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0];
    let m = DcMap::new(&k, &d);
    let ms = MaxwellSlip::new(k.to_vec(), d.to_vec());
    let mut st = ms.state(0.0, 0.0);
    for u in [20.0, -20.0] {
        ms.advance(&mut st, u);
    }
    for j in 0..=400 {
        let u = -20.0 + 0.1 * j as f64;
        let f = ms.advance(&mut st, u);
        assert!((f - m.ascending(20.0, u)).abs() < 1e-9, "u = {u}: {f}");
    }
    assert_eq!(m.loop_area(20.0), 2184.0);
}

/// (2.24)–(2.26) recover k and Δ exactly from the vertices of the Fig 2.6 map, and from
/// vertices detected in samples that straddle the breakpoints (the Fig 2.7 procedure, L732).
#[test]
fn identification_round_trip() {
    let k = [-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
    let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
    let m = DcMap::new(&k, &d);
    let id = DcMap::identify(&m.vertices(20.0));
    assert!(close(&id.k, &m.k, 1e-12) && close(&id.delta, &m.delta, 1e-12), "{id:?}");
    // Samples with spacing 40/997 never fall on a breakpoint.
    let n = 997;
    let u: Vec<f64> = (0..=n).map(|j| -20.0 + 40.0 * j as f64 / n as f64).collect();
    let y: Vec<f64> = u.iter().map(|u| m.ascending(20.0, *u)).collect();
    let v = branch_vertices(&u, &y, 1e-9);
    assert_eq!(v.len(), 12, "{v:?}");
    let id = DcMap::identify(&v);
    assert!(close(&id.k, &m.k, 1e-9) && close(&id.delta, &m.delta, 1e-9), "{id:?}");
}

/// Fig 2.9 parameters (catalog, derived): k', Δ', Σ k' Δ' = 19; the zero slope is explicit.
#[test]
fn slope_inverse_of_fig_2_6() {
    let k = [-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
    let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
    let inv = DcMap::new(&k, &d).slope_inverse().unwrap();
    let kp = [
        1.0 / 30.0,
        1.0 / 42.0,
        1.0 / 56.0,
        1.0 / 72.0,
        1.0 / 90.0,
        -1.0 / 40.0,
        -1.0 / 24.0,
        -1.0 / 12.0,
        -1.0 / 4.0,
        1.0 / 2.0,
    ];
    assert!(close(&inv.k, &kp, 1e-15), "{:?}", inv.k);
    let dp = [5.0, 17.0, 31.0, 47.0, 65.0, 85.0, 101.0, 113.0, 121.0, 125.0];
    assert_eq!(inv.delta, dp.to_vec());
    let kd: f64 = inv.k.iter().zip(&inv.delta).map(|(k, d)| k * d).sum();
    assert!((kd - 19.0).abs() < 1e-12);
    assert_eq!(inv.vertical_at, 125.0);
    // An interior zero slope is reported, not divided by.
    let z = DcMap::new(&[1.0, -1.0, 1.0], &[1.0, 2.0, 3.0]);
    assert_eq!(z.slope_inverse(), Err(InverseError::ZeroSlope { index: 1 }));
    let nm = DcMap::new(&[3.0, -2.0], &[1.0, 2.0]);
    assert_eq!(nm.slope_inverse(), Err(InverseError::NotMonotone { index: 1 }));
}

/// inverse ∘ model = identity on the invertible range (|u| ≤ 18 < Δ_10 = 19 for the Fig 2.10
/// map, no zero-slope segment): the forward stop operators driven by u, the inverse ones by y,
/// along an arbitrary reversal sequence, from the relaxed state.
#[test]
fn slope_inverse_composed_with_model_is_identity() {
    let k = [-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
    let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
    let inv = DcMap::new(&k, &d).slope_inverse().unwrap();
    let fwd = MaxwellSlip::new(k.to_vec(), d.clone());
    let back = MaxwellSlip::new(inv.k.clone(), inv.delta.clone());
    let (mut sf, mut sb) = (fwd.state(0.0, 0.0), back.state(0.0, 0.0));
    let turns = [18.0, -18.0, 7.0, -3.0, 12.5, -17.0, 17.9, 0.3, -18.0, 18.0];
    let mut u0 = 0.0;
    let mut worst = 0.0f64;
    for t in turns {
        for j in 1..=200 {
            let u = u0 + (t - u0) * j as f64 / 200.0;
            let y = fwd.advance(&mut sf, u);
            worst = worst.max((back.advance(&mut sb, y) - u).abs());
        }
        u0 = t;
    }
    assert!(worst < 1e-12, "max |u_rec − u| = {worst}");
}

#[test]
fn dynamic_inverse_output_solves_2_30() {
    let mp = Multiplay::from_stiffness(vec![-1.0, 2.0, 2.0], vec![1.0, 3.0, 5.0]);
    let inv = DynamicInverse::new(mp.clone()).unwrap();
    let (u, x) = (0.7, [0.2, 0.1, -1.5, 0.0, 3.0, -0.2]);
    let y = mp.output(u, 0.0, &x);
    assert!((inv.output(y, 0.0, &x) - u).abs() < 1e-14);
    let (mut a, mut b) = ([0.0; 6], [0.0; 6]);
    mp.rhs(u, 0.0, &x, &mut a);
    inv.rhs(y, 0.0, &x, &mut b);
    assert!(close(&a, &b, 1e-14));
    assert!(DynamicInverse::new(Multiplay::from_stiffness(vec![1.0, -1.0], vec![1.0, 2.0])).is_err());
}
