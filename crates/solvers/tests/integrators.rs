//! Verification of the integrators against analytic solutions: observed orders, conservation,
//! stiff problems, step-size growth on a ringing. (Events: `tests/events.rs`.)

mod common;

use common::Oscillator;
use fric_solvers::{solve, Method, OdeSystem, Tolerances};

fn error_at(method: Method, rtol: f64) -> (f64, usize) {
    let tol = Tolerances {
        rtol,
        atol: rtol * 1e-2,
        ..Default::default()
    };
    let save: Vec<f64> = (0..=100).map(|i| i as f64 * 0.2).collect();
    let mut err = 0.0f64;
    let o = solve(&Oscillator, method, &tol, 0.0, &[1.0, 0.0], 20.0, &save, &mut |t, x| {
        err = err.max((x[0] - t.cos()).abs()).max((x[1] + t.sin()).abs());
    })
    .unwrap();
    (err, o.stats.accepted)
}

/// Observed order: error vs number of steps as the tolerance tightens (dense output included).
#[test]
fn observed_order_matches_method_order() {
    for (method, order, rtols) in [
        (Method::Dopri5, 5.0, [1e-6, 1e-9]),
        (Method::Rosenbrock23, 2.0, [1e-5, 1e-7]),
    ] {
        let (e1, n1) = error_at(method, rtols[0]);
        let (e2, n2) = error_at(method, rtols[1]);
        let p = (e1 / e2).ln() / (n2 as f64 / n1 as f64).ln();
        assert!(
            p > order - 0.8 && p < order + 1.2,
            "{method:?}: observed order {p} ({e1:e}@{n1}, {e2:e}@{n2})"
        );
        assert!(e2 < 1e3 * rtols[1], "{method:?}: error {e2} at rtol {}", rtols[1]);
    }
}

/// Energy of the harmonic oscillator is conserved to the tolerance over 100 periods.
#[test]
fn energy_conserved_on_oscillator() {
    let tol = Tolerances {
        rtol: 1e-11,
        atol: 1e-13,
        ..Default::default()
    };
    let o = solve(
        &Oscillator,
        Method::Dopri5,
        &tol,
        0.0,
        &[1.0, 0.0],
        200.0 * std::f64::consts::PI,
        &[],
        &mut |_, _| {},
    )
    .unwrap();
    let e = 0.5 * (o.x[0] * o.x[0] + o.x[1] * o.x[1]);
    assert!((e - 0.5).abs() < 1e-8, "{e}");
}

/// Report ch. 2 (L668-L675): with α = 0 the inertia with B&S friction rings at ~18 ms with zero
/// linearised damping, so the solver must not damp it numerically. Energy drift of the implicit
/// methods on an undamped oscillator of that period over 3 s (167 periods) at the tolerances the
/// B&S figures use: Radau5 at rtol 1e-8 loses 7.5e-9 of the energy (bound 1e-6), Rosenbrock23
/// 8.8e-7 (bound 1e-4), measured 2026-11-24.
#[test]
fn implicit_methods_do_not_damp_an_18_ms_ringing() {
    struct Ringing(f64);
    impl OdeSystem for Ringing {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
            dx[0] = x[1];
            dx[1] = -self.0 * self.0 * x[0];
        }
        fn jacobian(&self, _t: f64, _x: &[f64], j: &mut [f64]) -> bool {
            j.copy_from_slice(&[0.0, 1.0, -self.0 * self.0, 0.0]);
            true
        }
    }
    let w = 2.0 * std::f64::consts::PI / 0.018;
    let energy = |x: &[f64]| 0.5 * (x[1] * x[1] + w * w * x[0] * x[0]);
    let x0 = [1e-3, 0.0];
    for (method, rtol, bound) in [(Method::Radau5, 1e-8, 1e-6), (Method::Rosenbrock23, 1e-8, 1e-4)] {
        let tol = Tolerances {
            rtol,
            atol: rtol * 1e-4,
            ..Default::default()
        };
        let o = solve(&Ringing(w), method, &tol, 0.0, &x0, 3.0, &[], &mut |_, _| {}).unwrap();
        let drift = (energy(&o.x) - energy(&x0)) / energy(&x0);
        eprintln!(
            "{method:?} rtol {rtol:e}: energy drift {drift:.2e} over 167 periods, {} steps",
            o.stats.accepted
        );
        assert!(drift.abs() < bound, "{method:?}: relative energy drift {drift:e}");
    }
}

struct VanDerPol(f64);
impl OdeSystem for VanDerPol {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = self.0 * ((1.0 - x[0] * x[0]) * x[1]) - x[0];
    }
}

/// Van der Pol μ = 1000 over one relaxation period: the stiff method completes in a modest
/// number of steps, and agrees with itself at a tighter tolerance.
#[test]
fn stiff_van_der_pol() {
    let run = |rtol: f64| {
        let tol = Tolerances {
            rtol,
            atol: rtol * 1e-2,
            ..Default::default()
        };
        solve(
            &VanDerPol(1000.0),
            Method::Rosenbrock23,
            &tol,
            0.0,
            &[2.0, 0.0],
            1000.0,
            &[],
            &mut |_, _| {},
        )
        .unwrap()
    };
    let a = run(1e-6);
    let b = run(1e-9);
    assert!(a.stats.accepted < 20_000, "{}", a.stats.accepted);
    assert!((a.x[0] - b.x[0]).abs() < 1e-3, "{} vs {}", a.x[0], b.x[0]);
}

/// Report ch. 5's pre-sliding ringing (ω_n = 290 rad/s, ζ = 0.012) under a slow torque: DOP853's
/// error estimate swings with the phase of the oscillation inside a step, and growing the step
/// after each low reading ends in a rejection. Growth trusts a step's error only down to half the
/// previous step's (measured 2026-11-29, below).
#[test]
fn dop853_does_not_grow_into_rejections_on_a_ringing() {
    struct Ringing;
    impl OdeSystem for Ringing {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
            let (wn, zeta) = (290.0, 0.012);
            dx[0] = x[1];
            dx[1] = 0.3 * (0.1 * t).sin() - 2.0 * zeta * wn * x[1] - wn * wn * x[0];
        }
    }
    let tol = Tolerances {
        rtol: 1e-8,
        atol: 1e-13,
        ..Default::default()
    };
    let run = |tol: &Tolerances| {
        solve(
            &Ringing,
            Method::Dop853,
            tol,
            0.0,
            &[0.0, 1e-3],
            2.0,
            &[],
            &mut |_, _| {},
        )
        .unwrap()
    };
    let o = run(&tol);
    let fine = run(&Tolerances {
        rtol: 1e-12,
        atol: 1e-17,
        ..tol
    });
    let mut err = 0.0f64;
    for i in 0..2 {
        err = err.max((o.x[i] - fine.x[i]).abs() / fine.x[i].abs());
    }
    // Without the rule: 911 accepted, 215 rejected (19 %), 13 513 evaluations of f, end state
    // 5.9e-5 off the rtol-1e-12 one; with it 927, 51 (5 %), 11 737 and 5.1e-5.
    assert!(o.stats.rejected * 10 < o.stats.accepted, "{:?}", o.stats);
    assert!(err < 1e-4, "end state {err:e} off the fine solution");
}
