//! Unit tests of the CBM body, its windows and its configurations.

use super::*;

/// `stretched_contact` against every bristle of the window by (4.2)/(4.3) directly, for the
/// Fig 4.4 body (h0 = 2.69 m, w = 1 m: tension needs y > h0 − w/2 = 2.19 m, up to a lattice
/// step of slant), on both branches and many positions.
#[test]
fn stretched_contact_is_the_highest_window_bristle_above_h0() {
    let c = Cbm::fig_4_4();
    let d1 = c.d1();
    let mut found = 0;
    for j in 0..400 {
        let x = -0.7 + 0.0037 * j as f64;
        for y in [1.0, 2.1, 2.18, 2.2, 2.5] {
            for sigma in [Branch::Plus, Branch::Minus] {
                let win = c.window(sigma, x);
                let highest = (win.first..=win.last)
                    .map(|i| {
                        let xb = i as f64 * c.delta;
                        match sigma {
                            Branch::Plus => y - 0.5 * c.w + c.w / d1 * (xb - (x + 0.5 * c.d - d1)),
                            Branch::Minus => y - 0.5 * c.w + c.w / d1 * (x - 0.5 * c.d + d1 - xb),
                        }
                    })
                    .fold(y - 0.5 * c.w, f64::max);
                let want = (highest > c.h0).then_some(highest - c.h0);
                let got = c.stretched_contact(sigma, x, y);
                match (got, want) {
                    (None, None) => {}
                    (Some(a), Some(b)) => {
                        assert!((a - b).abs() < 1e-12, "x {x} y {y}: {a} vs {b}");
                        found += 1;
                    }
                    _ => panic!("x {x} y {y} {sigma:?}: {got:?} vs {want:?}"),
                }
                if y < 2.19 {
                    assert_eq!(got, None, "no tension below h0 − w/2");
                }
            }
        }
    }
    // Every y = 2.5 case (800) and the y = 2.2 cases whose tip bristle lies within
    // 0.01 d1/w = 2.7 mm of the tip (about three in four of Δ = 3.5 mm).
    assert!(found > 800 && found < 1600, "{found}");
}

#[test]
fn the_trig_memo_returns_the_libm_values_for_whichever_angle_is_asked() {
    // Alternating angles must not return a stale entry; every value bit-identical.
    for alpha in [0.2618, 0.3, 0.2618, -0.1, 0.0, 0.2618] {
        let (t, s, c) = trig(alpha);
        assert_eq!(t.to_bits(), alpha.tan().to_bits());
        assert_eq!(s.to_bits(), alpha.sin().to_bits());
        assert_eq!(c.to_bits(), alpha.cos().to_bits());
    }
}

/// The Switch Model's normals take both fields from [`Configuration::fields`] (the input or
/// height evaluated once): they are [`Configuration::f`]'s, bit for bit, for every configuration.
#[test]
fn both_fields_at_once_are_each_field_bit_for_bit() {
    fn same<C: Configuration>(c: &C, t: f64, state: &[f64]) {
        let n = c.dim();
        let win = Windows::locate(c.cbm(), state[0]);
        let (mut p, mut m, mut fp, mut fm) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        c.fields(t, state, &win, &mut p, &mut m);
        c.f(Branch::Plus, t, state, &win, &mut fp);
        c.f(Branch::Minus, t, state, &win, &mut fm);
        let bits = |v: &[f64]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&p), bits(&fp), "f+ at t = {t}");
        assert_eq!(bits(&m), bits(&fm), "f− at t = {t}");
    }
    let cbm = Cbm {
        h0: 1.65,
        ..Cbm::fig_4_4()
    };
    let sine = |amplitude: f64, omega: f64| crate::signal::Sine {
        amplitude,
        omega,
        phase: 0.3,
        offset: 0.1,
    };
    let fd = ForceDriven {
        cbm,
        input: sine(2.0, 0.01),
    };
    let ph = PrescribedHeight {
        cbm,
        vp: 0.1,
        height: sine(0.05, 2.0),
    };
    let ss = StickSlip { cbm, vp: 0.1 };
    for (t, x, v) in [
        (0.0, 0.0, 0.0),
        (48.3, 0.012, 3e-7),
        (151.7, -0.31, -0.02),
        (600.0, 1.7, 0.4),
    ] {
        same(&fd, t, &[x, v, 1.6, 1e-3]);
        same(&ph, t, &[x, v, 0.2]);
        same(&ss, t, &[x, v, 0.2, 1.6, -1e-3]);
    }
}
