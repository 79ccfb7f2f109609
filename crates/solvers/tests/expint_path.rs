//! Exponential collocation in the path variable (`fric_solvers::expint_path`): equal to the exact
//! Dahl operator from a reversal, step counts that do not grow with the stiffness (where the time
//! form's do), the time cap honoured, and a clear error for an input that is not monotone.

use fric_solvers::expint::{solve_expint, ExpStats, ExpTolerance};
use fric_solvers::expint_path::{solve_path, Monotone};

fn tol(abs: f64) -> ExpTolerance {
    ExpTolerance {
        abs,
        z_scale: 1.0,
        hmax: f64::INFINITY,
    }
}

/// `u = A cos ω t`: decreasing on `[0, π/ω]`, from a reversal (`u' = 0` at `t = 0`) to the next.
const A: f64 = 2.0;
const W: f64 = 1.3;
fn u(t: f64) -> f64 {
    A * (W * t).cos()
}
fn du(t: f64) -> f64 {
    -A * W * (W * t).sin()
}

#[test]
fn dahl_gamma_1_from_a_reversal_equals_its_exact_operator() {
    // F' = σ u' − (σ |u'|/F_c) F; along a decreasing input F(s) = −F_c + (F0 + F_c) e^{−σ s/F_c}.
    let (sigma, fc, f0) = (3.0e4, 1.5, 0.8);
    let affine = |_u: f64, v: f64| (-sigma * v.abs() / fc, sigma * v);
    let t1 = std::f64::consts::PI / W;
    let saves: Vec<f64> = (0..=200).map(|k| t1 * k as f64 / 200.0).collect();
    let (mut st, mut buf, mut worst, mut n) = (ExpStats::default(), Vec::new(), 0.0f64, 0);
    let exact = |t: f64| -fc + (f0 + fc) * (-sigma * (A - u(t)) / fc).exp();
    let f1 = solve_path(
        &u,
        &du,
        &affine,
        0.0,
        f0,
        t1,
        &saves,
        tol(1e-12 * fc),
        f64::INFINITY,
        &mut buf,
        &mut st,
        &mut |t, f| {
            worst = worst.max((f - exact(t)).abs());
            n += 1;
        },
    )
    .unwrap();
    assert_eq!(n, saves.len());
    assert!(worst <= 1e-11 * fc, "largest error {worst:e}");
    assert!((f1 - exact(t1)).abs() <= 1e-11 * fc, "{f1} vs {}", exact(t1));
}

/// LuGre's state equation with constant `g` (`F_s = F_C`): `z' = u' − σ0 |u'| z / F_C`, from the
/// steady state of the other direction, over one half period with steps of at most 1/50 of it in
/// time (the drivers' cap: without it the time form takes one step from reversal to reversal,
/// where `a = b = 0`, and its estimate sees nothing). Steps taken and rejected.
fn lugre_steps(sigma0: f64, path: bool) -> usize {
    let fc = 1.0;
    let affine = |_u: f64, v: f64| (-sigma0 * v.abs() / fc, v);
    let t1 = std::f64::consts::PI / W;
    let z_scale = fc / sigma0;
    let tl = ExpTolerance {
        abs: 1e-10 * z_scale,
        z_scale,
        hmax: t1 / 50.0,
    };
    let mut st = ExpStats::default();
    if path {
        let tp = ExpTolerance {
            hmax: f64::INFINITY,
            ..tl
        };
        solve_path(
            &u,
            &du,
            &affine,
            0.0,
            z_scale,
            t1,
            &[],
            tp,
            tl.hmax,
            &mut Vec::new(),
            &mut st,
            &mut |_, _| {},
        )
        .unwrap();
    } else {
        let coef = |t: f64| affine(u(t), du(t));
        solve_expint(&coef, 0.0, z_scale, t1, &[], tl, &mut st, &mut |_, _| {}).unwrap();
    }
    st.steps + st.rejected
}

#[test]
fn path_steps_do_not_grow_with_the_stiffness() {
    // In time the coefficient −σ0|u'(t)| sweeps from 0 at the reversal to σ0 A ω: the time form
    // needs more steps the stiffer the bristles. In the path it is the constant −σ0/F_C: every
    // step is exact, the count is the cap's 50 and the growth from the cautious first step
    // (1 % of the time to change by the scale: log₄ of the stiffness, as in tests/expint.rs).
    let sig = [1e2, 1e4, 1e6];
    let path: Vec<usize> = sig.iter().map(|&s| lugre_steps(s, true)).collect();
    let time: Vec<usize> = sig.iter().map(|&s| lugre_steps(s, false)).collect();
    for (s, n) in sig.iter().zip(&path) {
        let bound = 50.0 + 4.0 + (100.0 * s * 2.0 * A).log(4.0);
        assert!(
            (*n as f64) <= bound,
            "σ0 = {s}: {n} path steps > {bound} (all {path:?}, time {time:?})"
        );
    }
    // At the benchmark's σ0 = 1e4 the time form takes 460 steps, the path 58.
    assert!(time[1] > 4 * path[1], "time steps {time:?} vs path {path:?}");
}

#[test]
fn steps_span_at_most_the_time_cap() {
    let affine = |_u: f64, v: f64| (-10.0 * v.abs(), v);
    let t1 = std::f64::consts::PI / W;
    let run = |cap: f64| {
        let mut st = ExpStats::default();
        solve_path(
            &u,
            &du,
            &affine,
            0.0,
            0.0,
            t1,
            &[],
            tol(1e-8),
            cap,
            &mut Vec::new(),
            &mut st,
            &mut |_, _| {},
        )
        .unwrap();
        st.steps
    };
    // The cap in time, not in the path: t1/cap steps at least.
    let capped = run(t1 / 40.0);
    assert!(capped >= 40, "{capped} steps under a cap of 1/40 of the span");
    assert!(run(f64::INFINITY) < 40);
}

#[test]
fn the_inverse_of_the_path_variable_is_found() {
    let m = Monotone::new(&u, &du, 0.0, std::f64::consts::PI / W);
    for s in [0.0, 1e-12, 1e-6, 0.3, 2.0, 3.999_999, 4.0] {
        let (t, v) = m.invert(s);
        assert!((m.s_of(t) - s).abs() <= 1e-14, "s = {s}: s(t) = {}", m.s_of(t));
        assert!((v - du(t)).abs() <= 1e-14 && v <= 0.0, "s = {s}: u' = {v}");
    }
}

#[test]
fn an_input_that_is_not_monotone_is_an_error() {
    // Over a whole period the cosine turns at t = π/ω: the piece is not monotone.
    let affine = |_u: f64, v: f64| (-v.abs(), v);
    let t1 = 2.0 * std::f64::consts::PI / W;
    let saves: Vec<f64> = (0..=20).map(|k| t1 * k as f64 / 20.0).collect();
    let e = solve_path(
        &u,
        &du,
        &affine,
        0.0,
        0.0,
        t1,
        &saves,
        tol(1e-8),
        f64::INFINITY,
        &mut Vec::new(),
        &mut ExpStats::default(),
        &mut |_, _| {},
    )
    .unwrap_err();
    assert!(e.contains("not monotone"), "{e}");
}

/// `solve_path` on `[t0, t1]` of `u = A cos ω t` without save points (so only the inversions and
/// the end of the integration can see the input turn).
fn unsaved(t0: f64, t1: f64) -> Result<f64, String> {
    let affine = |_u: f64, v: f64| (-v.abs(), v);
    solve_path(
        &u,
        &du,
        &affine,
        t0,
        0.0,
        t1,
        &[],
        tol(1e-8),
        f64::INFINITY,
        &mut Vec::new(),
        &mut ExpStats::default(),
        &mut |_, _| {},
    )
}

#[test]
fn a_turn_between_save_points_is_an_error() {
    let pi_w = std::f64::consts::PI / W;
    // On [0, 1.5π/ω] the cosine falls from A to −A and rises back to 0: u(t1) < u(t0), a path
    // length of 2 that the first quarter period covers alone (the input leaves its end value).
    let e = unsaved(0.0, 1.5 * pi_w).unwrap_err();
    assert!(e.contains("not monotone") && e.contains("reaches its end value"), "{e}");
    // Over a whole period (path length 0, not an input at rest).
    let e = unsaved(0.0, 2.0 * pi_w).unwrap_err();
    assert!(e.contains("not monotone"), "{e}");
    // On [0, 2.2π/ω] the first inversion bisects from the reversal at t = 0 to 1.1π/ω, where
    // u' > 0 on a piece that decreases.
    let e = unsaved(0.0, 2.2 * pi_w).unwrap_err();
    assert!(e.contains("not monotone") && e.contains("u'("), "{e}");
    // The monotone half period and a piece inside it pass.
    unsaved(0.0, pi_w).unwrap();
    unsaved(0.5, 1.5).unwrap();
}

#[test]
fn a_finite_hmax_in_the_path_tolerance_is_refused() {
    let affine = |_u: f64, v: f64| (-v.abs(), v);
    let t1 = std::f64::consts::PI / W;
    let e = solve_path(
        &u,
        &du,
        &affine,
        0.0,
        0.0,
        t1,
        &[],
        ExpTolerance { hmax: 0.1, ..tol(1e-8) },
        f64::INFINITY,
        &mut Vec::new(),
        &mut ExpStats::default(),
        &mut |_, _| {},
    )
    .unwrap_err();
    assert!(e.contains("hmax"), "{e}");
}
