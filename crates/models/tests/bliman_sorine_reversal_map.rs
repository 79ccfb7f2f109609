//! The quasi-static reversal map of the Bliman & Sorine law under a force-controlled sine, the
//! closed-form reference of report Fig 2.16 (`experiments/report/fig2.16.yaml`).
//!
//! With the inertia and viscous friction left out (`J = α = 0`), `u = F = x₁ + x₂` at every
//! instant, and the law is rate independent, so between two reversals of `u` the state follows
//! (2.25) exactly ([`BlimanSorine::advance`]): each half period is one root `s` of
//! `x₁(s) + x₂(s) = ±A` along a monotone branch, and θ moves by `±s`. No ODE is integrated. The
//! manifest quotes these numbers as derived values; this test recomputes them in the repository.

use fric_models::bliman_sorine::BlimanSorine;

/// The B&S set of Figs 2.15–2.16: identified from [f_k f_s s_e s_p] = [0.5261 0.7077 0.0297
/// 0.0604] (report L1493) by (2.22), as the manifest's run `sim` has it.
fn report_set() -> BlimanSorine {
    BlimanSorine {
        f1: 1.6117270100125536,
        f2: 1.0856270100125536,
        eps: 0.020133333333333333,
        eta: 0.6343534563586422,
    }
}

/// The first displacement `s > 0` in direction `sign` from state `x` at which the friction
/// reaches `target`: the first sign change on a geometric grid, then bisection to 1e-15 rad.
fn first_root(bs: &BlimanSorine, x: [f64; 2], sign: f64, target: f64) -> f64 {
    let f = |s: f64| {
        let y = bs.advance(x, sign * s);
        y[0] + y[1] - target
    };
    let (mut lo, mut hi) = (0.0, 1e-9);
    while f(hi).signum() == f(0.0).signum() {
        lo = hi;
        hi *= 1.01;
        assert!(hi < 1.0, "no root: |A| above the reachable friction");
    }
    while hi - lo > 1e-15 {
        let mid = 0.5 * (lo + hi);
        if f(mid).signum() == f(lo).signum() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// θ at the reversals of `u = A sin ωt` from the zero state, `2 n` of them: `(θ at u = +A,
/// θ at u = −A)` for periods 1..=n.
fn reversals(bs: &BlimanSorine, a: f64, n: usize) -> Vec<(f64, f64)> {
    let (mut x, mut theta) = ([0.0, 0.0], 0.0);
    let mut half = |target: f64| {
        let sign = (target - (x[0] + x[1])).signum();
        let s = first_root(bs, x, sign, target);
        x = bs.advance(x, sign * s);
        theta += sign * s;
        theta
    };
    (0..n).map(|_| (half(a), half(-a))).collect()
}

/// Centre of a period's θ range over its width.
fn centre_over_range((max, min): (f64, f64)) -> f64 {
    (max + min) / (max - min)
}

#[test]
fn period_12_extremes_are_the_values_the_manifest_quotes() {
    let bs = report_set();
    let small = reversals(&bs, 0.2, 12)[11];
    let large = reversals(&bs, 0.5, 12)[11];
    // experiments/report/fig2.16.yaml, checks theta_max[0], theta_min[0], theta_max[1], theta_min[1]
    assert!((small.0 - 0.00338653).abs() < 1e-8, "{small:?}");
    assert!((small.1 + 0.00227875).abs() < 1e-8, "{small:?}");
    assert!((large.0 - 0.01408512).abs() < 1e-8, "{large:?}");
    assert!((large.1 + 0.00264614).abs() < 1e-8, "{large:?}");
}

#[test]
fn the_drift_decays_to_an_off_centre_limit_loop() {
    let bs = report_set();
    for (a, ratio, limit) in [(0.2, 0.73, 0.197), (0.5, 0.49, 0.684)] {
        let r = reversals(&bs, a, 60);
        // successive maxima approach the limit geometrically at about `ratio` per period
        let q = (r[5].0 - r[4].0) / (r[4].0 - r[3].0);
        assert!((q - ratio).abs() < 0.03, "A = {a}: ratio {q}");
        // the limit loop (period 60, converged) is centred off θ = 0 by `limit` of its range
        let c = centre_over_range(r[59]);
        assert!((c - limit).abs() < 0.002, "A = {a}: centre/range {c}");
        assert!((r[59].0 - r[58].0).abs() < 1e-9, "A = {a}: not converged");
    }
}
