//! The linearisation (2.14)–(2.20) of the report's B&S model coupled to an inertia, checked
//! against the nonlinear model: released from the zero friction state with a small velocity, the
//! inertia oscillates with the period 2π√(J/σ) of (2.19), σ = (f₁ − η f₂)/(ε_f η) (2.16), and
//! with α > 0 its amplitude decays at the rate ζω of (2.20). The nonlinear terms (the |θ'|
//! factors and the hysteresis they make at each reversal) vanish as the amplitude → 0, so the
//! deviation from the linear prediction must shrink with the amplitude.

use fric_models::bliman_sorine::BlimanSorine;
use fric_models::inertia::Inertia;
use fric_models::InputDriven;
use fric_solvers::analysis::crossing_period;
use fric_solvers::{solve, Method, OdeSystem, Tolerances};

struct Free<'a>(&'a Inertia<BlimanSorine>);

impl OdeSystem for Free<'_> {
    fn dim(&self) -> usize {
        4
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(0.0, 0.0, x, dx)
    }
    fn jacobian(&self, _t: f64, x: &[f64], j: &mut [f64]) -> bool {
        self.0.jacobian(0.0, 0.0, x, j)
    }
}

/// Table 2.1 row 3 of the report (L561) on the chapter-2 inertia J = 0.0025 (L2545).
fn plant(alpha: f64) -> Inertia<BlimanSorine> {
    Inertia {
        j: 0.0025,
        alpha,
        friction: BlimanSorine {
            f1: 0.4139,
            f2: 0.1296,
            eps: 0.0019,
            eta: 0.5185,
        },
    }
}

/// Period (from the upward zero crossings of θ') and the samples `(t, θ')` of the free
/// oscillation started at θ' = v0 from the zero state.
fn oscillate(m: &Inertia<BlimanSorine>, v0: f64, t_end: f64) -> (f64, Vec<f64>, Vec<f64>) {
    let tol = Tolerances {
        rtol: 1e-10,
        atol: 1e-14,
        ..Default::default()
    };
    let save: Vec<f64> = (0..=20000).map(|k| t_end * k as f64 / 20000.0).collect();
    let (mut t, mut w) = (Vec::new(), Vec::new());
    solve(
        &Free(m),
        Method::Radau5,
        &tol,
        0.0,
        &[0.0, v0, 0.0, 0.0],
        t_end,
        &save,
        &mut |s, x| {
            t.push(s);
            w.push(x[1]);
        },
    )
    .unwrap();
    let (p, _) = crossing_period(&t, &w, 0.0).expect("oscillates");
    (p, t, w)
}

/// `(t, |θ'|)` of the largest |θ'| among the samples `range`.
fn peak(t: &[f64], w: &[f64], range: std::ops::Range<usize>) -> (f64, f64) {
    range
        .map(|k| (t[k], w[k].abs()))
        .fold((0.0, 0.0), |a, b| if b.1 > a.1 { b } else { a })
}

#[test]
fn small_oscillations_have_the_linearised_period_and_the_error_shrinks_with_amplitude() {
    let m = plant(0.0);
    let sigma = m.friction.sigma();
    let predicted = 2.0 * std::f64::consts::PI * (m.j / sigma).sqrt();
    let mut last = f64::INFINITY;
    for v0 in [1e-3, 1e-4, 1e-5, 1e-6] {
        let (p, _, _) = oscillate(&m, v0, 0.2);
        let err = (p - predicted).abs() / predicted;
        eprintln!("θ'(0) = {v0:e} rad/s: period {p:.6e} s, (2.19) {predicted:.6e} s, relative error {err:.2e}");
        assert!(err < last, "the deviation did not shrink: {err} after {last}");
        last = err;
    }
    assert!(last < 1e-8, "at the smallest amplitude the period is (2.19) to {last}");
}

#[test]
fn viscous_friction_damps_small_oscillations_at_the_linearised_rate() {
    // (2.20): ζ = α/(2√(Jσ)); the envelope of θ' decays as e^{−ζω t}. Without α the small
    // oscillation keeps its amplitude to the order of the (vanishing) hysteresis.
    let alpha = 0.0177;
    let m = plant(alpha);
    let sigma = m.friction.sigma();
    let omega = (sigma / m.j).sqrt();
    let zeta = alpha / (2.0 * (m.j * sigma).sqrt());
    let t_end = 0.2;
    let (_, t, w) = oscillate(&m, 1e-6, t_end);
    let n = w.len();
    let (t1, first) = peak(&t, &w, 0..n / 10);
    let (t2, last) = peak(&t, &w, n * 9 / 10..n);
    let measured = (first / last).ln() / (t2 - t1);
    let expected = zeta * omega;
    eprintln!("decay rate {measured:.4} 1/s, (2.20) ζω = {expected:.4} 1/s (ζ = {zeta:.4})");
    // Peaks sampled every 10 µs of a 16.7 ms period: amplitude read to 1.4e-3 relative.
    assert!(
        (measured - expected).abs() < 0.01 * expected,
        "{measured} vs {expected}"
    );
    let (_, t0, w0) = oscillate(&plant(0.0), 1e-6, t_end);
    let undamped = peak(&t0, &w0, 0..n / 10).1 / peak(&t0, &w0, n * 9 / 10..n).1;
    assert!((undamped - 1.0).abs() < 0.02, "α = 0: envelope ratio {undamped}");
}
