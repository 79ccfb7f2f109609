//! The dynamic inverse (2.32)–(2.33) composed with the multiplay (2.3)–(2.4) is the identity: the
//! forward model driven by `u(t)` and the inverse driven by `ū = y(t)`, started from the same state,
//! are integrated together as one ODE (dimension 4N), and `ȳ(t)` must recreate `u(t)`.
//!
//! Derivation (catalog M14): with `ū = y = Σ k_j (u − x_j)`, (2.33) gives `ȳ = u` whenever the
//! inverse's positions equal the forward ones, and then both obey the same ODE; so `ȳ ≡ u` exactly
//! and the numerical error is the integrator's, amplified by the inverse's collective mode
//! `ẅ + ẇ + (s/K) w`, stable on positive-slope segments and marginal on the zero-slope one.
//! Fig 2.6 parameters (L709): on the invertible range (A = 18 < Δ_10 = 19: no zero-slope segment)
//! the error stays at the tolerance level; with A = 20 (zero-slope segment) it stays bounded.

use std::f64::consts::PI;

use fric_models::multiplay::{DynamicInverse, Multiplay};
use fric_models::InputDriven;
use fric_solvers::{solve, Method, OdeSystem, Tolerances};

struct Pair {
    fwd: Multiplay,
    inv: DynamicInverse,
    amp: f64,
    omega: f64,
}

impl Pair {
    fn u(&self, t: f64) -> f64 {
        self.amp * (self.omega * t).sin()
    }
}

impl OdeSystem for Pair {
    fn dim(&self) -> usize {
        2 * self.fwd.dim()
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        let n = self.fwd.dim();
        let u = self.u(t);
        self.fwd.rhs(u, 0.0, &x[..n], &mut dx[..n]);
        let y = self.fwd.output(u, 0.0, &x[..n]);
        self.inv.rhs(y, 0.0, &x[n..], &mut dx[n..]);
    }
}

fn max_error(amp: f64, periods: f64, perturb: f64) -> f64 {
    let k = vec![-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
    let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
    let fwd = Multiplay::from_stiffness(k, d);
    let inv = DynamicInverse::new(fwd.clone()).unwrap();
    let omega = 0.01;
    let sys = Pair { fwd, inv, amp, omega };
    let t1 = periods * 2.0 * PI / omega;
    let tol = Tolerances {
        rtol: 1e-10,
        atol: 1e-12,
        hmax: t1 / 4000.0,
        ..Default::default()
    };
    // The inverse may start off the forward state by `perturb` in every position.
    let x0: Vec<f64> = (0..40)
        .map(|i| if i >= 20 && i % 2 == 0 { perturb } else { 0.0 })
        .collect();
    let save: Vec<f64> = (0..=4000).map(|j| t1 * j as f64 / 4000.0).collect();
    let mut worst = 0.0f64;
    solve(&sys, Method::Dopri5, &tol, 0.0, &x0, t1, &save, &mut |t, x| {
        let u = sys.u(t);
        let y = sys.fwd.output(u, 0.0, &x[..20]);
        worst = worst.max((sys.inv.output(y, 0.0, &x[20..]) - u).abs());
    })
    .unwrap();
    worst
}

#[test]
fn dynamic_inverse_recreates_the_input_on_the_invertible_range() {
    let e = max_error(18.0, 2.0, 0.0);
    assert!(e < 1e-9, "max |ȳ − u| = {e}");
    // Started off by 1e-3 in every position: a uniform shift c of the inverse positions shifts ȳ
    // by Σ k_j c / Σ k_j = c and leaves every d(x_i − ȳ) unchanged, so the error is exactly the
    // offset for all time (a neutral mode: neither damped nor amplified).
    let e = max_error(18.0, 2.0, 1e-3);
    assert!((e - 1e-3).abs() < 1e-9, "max |ȳ − u| = {e}");
}

#[test]
fn dynamic_inverse_drift_is_bounded_with_a_zero_slope_segment() {
    let e = max_error(20.0, 2.0, 0.0);
    assert!(e < 1e-9, "max |ȳ − u| = {e}");
    eprintln!("A = 20: max |ȳ − u| = {e:e}");
}
