//! Limit cycles from a Poincaré section and equilibrium sets, against analytic results.

use fric_solvers::analysis::equilibrium_set;
use fric_solvers::limit_cycle::{limit_cycle, CycleOptions};
use fric_solvers::{Method, OdeSystem, Tolerances};
use std::f64::consts::PI;

/// Hopf normal form `ẋ = x(1 − r²) − ω y`, `ẏ = y(1 − r²) + ω x`: the circle r = 1 is a stable
/// limit cycle of period 2π/ω (derived: in polar form ṙ = r(1 − r²), θ̇ = ω).
struct Hopf(f64);
impl OdeSystem for Hopf {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        let r2 = x[0] * x[0] + x[1] * x[1];
        dx[0] = x[0] * (1.0 - r2) - self.0 * x[1];
        dx[1] = x[1] * (1.0 - r2) + self.0 * x[0];
    }
}

#[test]
fn hopf_limit_cycle_period_and_amplitude() {
    let tol = Tolerances {
        rtol: 1e-12,
        atol: 1e-14,
        ..Default::default()
    };
    for (omega, x0) in [(1.0, [0.1, 0.0]), (3.0, [2.5, -1.0])] {
        // Section: y = 0 crossed upwards (x > 0 there).
        let lc = limit_cycle(
            &Hopf(omega),
            |_, x: &[f64]| x[1],
            Method::Dop853,
            &tol,
            0.0,
            &x0,
            &CycleOptions::default(),
        )
        .unwrap();
        assert!(lc.converged, "{lc:?}");
        assert!(lc.returns >= 3);
        assert!(
            (lc.period - 2.0 * PI / omega).abs() < 1e-9,
            "ω = {omega}: T = {}",
            lc.period
        );
        assert!(
            (lc.point[0] - 1.0).abs() < 1e-8 && lc.point[1].abs() < 1e-12,
            "{:?}",
            lc.point
        );
        // Amplitudes from 4000 samples per cycle: relative error ≤ (π/4000)²/2 ≈ 3e-7.
        for i in 0..2 {
            assert!((lc.amplitude(i) - 1.0).abs() < 5e-7, "ω = {omega}: {}", lc.amplitude(i));
        }
    }
}

/// Van der Pol `ẍ − μ(1 − x²)ẋ + x = 0` with μ = 1: period 6.6632868593… and amplitude
/// 2.0086198… (values from the literature, e.g. computed to high precision by shooting; used
/// here as a cross-check of the section machinery on a non-circular cycle).
struct VdP(f64);
impl OdeSystem for VdP {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = self.0 * (1.0 - x[0] * x[0]) * x[1] - x[0];
    }
}

#[test]
fn van_der_pol_limit_cycle() {
    let tol = Tolerances {
        rtol: 1e-12,
        atol: 1e-14,
        ..Default::default()
    };
    // Section x = 0 crossed upwards; from a point off the cycle.
    let lc = limit_cycle(
        &VdP(1.0),
        |_, x: &[f64]| x[0],
        Method::Dop853,
        &tol,
        0.0,
        &[0.5, 0.0],
        &CycleOptions::default(),
    )
    .unwrap();
    assert!(lc.converged);
    assert!((lc.period - 6.663_286_859_323).abs() < 1e-8, "T = {}", lc.period);
    assert!((lc.max[0] - 2.008_619_860).abs() < 1e-6, "max x = {}", lc.max[0]);
    assert!((lc.max[0] + lc.min[0]).abs() < 1e-6, "symmetric cycle");
}

/// A trajectory that never returns is an error, not a fake cycle.
#[test]
fn no_return_is_an_error() {
    struct Drift;
    impl OdeSystem for Drift {
        fn dim(&self) -> usize {
            1
        }
        fn rhs(&self, _t: f64, _x: &[f64], dx: &mut [f64]) {
            dx[0] = 1.0;
        }
    }
    let opts = CycleOptions {
        t_max: 10.0,
        ..Default::default()
    };
    let r = limit_cycle(
        &Drift,
        |_, x: &[f64]| x[0] - 5.0,
        Method::Dopri5,
        &Tolerances::default(),
        0.0,
        &[0.0],
        &opts,
    );
    assert!(r.is_err(), "{r:?}");
}

/// Coulomb mass–spring `m ẍ = u − K x − F_c sgn(ẋ)`: at rest the equilibria are the states with
/// `0 ∈ u − K x − F_c [−1, 1]`, the interval `[(u − F_c)/K, (u + F_c)/K]` (derived).
#[test]
fn coulomb_equilibrium_interval() {
    let (k, fc) = (2.0, 1.5);
    for u in [-3.0, 0.0, 0.7] {
        let set = equilibrium_set(-10.0, 10.0, 1000, |x| (u - k * x - fc, u - k * x + fc));
        assert_eq!(set.len(), 1, "{set:?}");
        let (a, b) = set[0];
        assert!((a - (u - fc) / k).abs() < 1e-14, "{a}");
        assert!((b - (u + fc) / k).abs() < 1e-14, "{b}");
    }
}

/// Cubic `ẋ = −x³ + x + u` (thesis (1.7)): three equilibria for |u| < 2/(3√3), one outside;
/// closed form (derived, trigonometric solution of x³ − x − u = 0):
/// `x_k = (2/√3) cos(acos(3√3 u / 2)/3 − 2πk/3)`.
#[test]
fn cubic_equilibria() {
    for u in [0.0, 0.2, -0.35] {
        let set = equilibrium_set(-3.0, 3.0, 600, |x| {
            let r = -x * x * x + x + u;
            (r, r)
        });
        let phi = (3.0 * 3f64.sqrt() * u / 2.0).acos() / 3.0;
        let mut exact: Vec<f64> = (0..3)
            .map(|k| 2.0 / 3f64.sqrt() * (phi - 2.0 * PI * k as f64 / 3.0).cos())
            .collect();
        exact.sort_by(f64::total_cmp);
        assert_eq!(set.len(), 3, "u = {u}: {set:?}");
        for ((a, b), e) in set.iter().zip(&exact) {
            assert!(
                (b - a).abs() < 1e-14 && (a - e).abs() < 1e-13,
                "u = {u}: [{a}, {b}] vs {e}"
            );
        }
    }
    // Beyond the saddle-node at u = 2/(3√3) ≈ 0.3849 only one equilibrium is left.
    let set = equilibrium_set(-3.0, 3.0, 600, |x| {
        let r = -x * x * x + x + 0.5;
        (r, r)
    });
    assert_eq!(set.len(), 1);
}

/// The Van der Pol cycle (μ = 1) by shooting on the return map: the literature's period and the
/// same section point as the iterated return map.
#[test]
fn van_der_pol_limit_cycle_by_shooting() {
    let tol = Tolerances {
        rtol: 1e-12,
        atol: 1e-14,
        ..Default::default()
    };
    let opts = CycleOptions {
        tol: 1e-11,
        ..Default::default()
    };
    let section = |_: f64, x: &[f64]| x[0];
    let (x, period, shot) =
        fric_solvers::limit_cycle::shoot_limit_cycle(&VdP(1.0), section, Method::Dop853, &tol, 0.0, &[0.5, 0.0], &opts)
            .unwrap();
    assert!(shot.converged && shot.residual < 1e-11, "{shot:?}");
    assert!((period - 6.663_286_859_323).abs() < 1e-8, "T = {period}");
    let long = limit_cycle(&VdP(1.0), section, Method::Dop853, &tol, 0.0, &[0.5, 0.0], &opts).unwrap();
    assert!(long.converged);
    assert!(
        (x[1] - long.point[1]).abs() < 1e-9 * (1.0 + x[1].abs()),
        "{x:?} vs {:?}",
        long.point
    );
    assert!(x[0].abs() < 1e-12, "on the section: {x:?}");
    // No saving here: this cycle attracts so fast that the iteration reaches 1e-11 in 6
    // returns (measured), against 3 plain returns, the shot's 5 maps and one more return.
}
