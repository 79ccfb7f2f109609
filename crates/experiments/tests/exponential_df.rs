//! The periodic steady state in closed form (`fric_solvers::expint_periodic`, issue 51 item 1)
//! and the describing function's approach 1 by it (`describing-function-lugre`'s default there):
//! `z*` against shooting and period-by-period iteration of the exponential driver, the state
//! periodic under an independent pass, and `N(a, ω)` against Radau5's shooting at rtol 1e-11 on
//! report Fig 5.16's runs; the default and the refusal of `exponential` in approach 3.

mod common;

use fric_experiments::{exponential_segment, RunData};
use fric_manifest::{ParamValue, Scale, SimSpec};
use fric_models::lugre::LuGre;
use fric_models::InputDriven;
use fric_solvers::analysis::until_periodic;
use fric_solvers::expint::{solve_with, ExpStats, ExpTolerance};
use fric_solvers::expint_periodic::solve_periodic;
use fric_solvers::expquad::Relaxation;
use fric_solvers::shooting::shoot;
use std::f64::consts::PI;

/// LuGre under `u = A sin ωt`: `z*` at t = 0 by the closed form, by `until_periodic` and by
/// `shoot` on the exponential driver's period map (three monotone segments, each split at the
/// Stribeck speed by the driver), all at the same local error; the closed form's pieces split
/// at the same times. Returns the three and the closed form's gain.
fn three_ways(m: &LuGre, amp: f64, w: f64, rtol: f64) -> (f64, f64, f64, f64) {
    let period = 2.0 * PI / w;
    let (u, du) = (|t: f64| amp * (w * t).sin(), |t: f64| amp * w * (w * t).cos());
    let coef = |t: f64| m.affine(u(t), du(t)).expect("LuGre is affine along the input");
    let scheme = Relaxation::<4>::new();
    let tol = ExpTolerance {
        abs: rtol * m.state_scale(),
        z_scale: m.state_scale(),
        hmax: period / 100.0,
    };
    let ends = [0.0, 0.25 * period, 0.75 * period, period];
    let mut pieces = Vec::new();
    let mut stats = ExpStats::default();
    let mut period_map = |z: f64, stats: &mut ExpStats| -> Result<f64, String> {
        let mut z = z;
        for s in ends.windows(2) {
            z = exponential_segment(
                &scheme,
                &coef,
                &du,
                m.speed_scale(),
                (s[0], z, s[1]),
                &[],
                tol,
                stats,
                &mut pieces,
                &mut |_, _| {},
            )?;
        }
        Ok(z)
    };
    // The closed form on the pieces the driver takes: each segment's ends and its splits, where
    // |u'| crosses 6 v_s (|cos ωt| = 6 v_s/(A ω)).
    let mut breaks = vec![0.0];
    let c = 6.0 * m.vs / (amp * w);
    let split = |k: f64, sign: f64| (k * PI + sign * c.acos()) / w;
    let mut inner = if c < 1.0 {
        vec![split(0.0, 1.0), split(1.0, -1.0), split(1.0, 1.0), split(2.0, -1.0)]
    } else {
        vec![]
    };
    inner.extend([0.25 * period, 0.75 * period]);
    inner.sort_by(f64::total_cmp);
    breaks.extend(inner);
    breaks.push(period);
    let per = solve_periodic(&scheme, &coef, &breaks, tol, &mut stats, &mut |_| {}).unwrap();
    // Both in units of the state scale (their tolerances are relative to 1 + |x|).
    let sc = m.state_scale();
    let mut scaled = |x: &mut [f64]| period_map(x[0] * sc, &mut ExpStats::default()).map(|z| x[0] = z / sc);
    let mut x = [0.0];
    let it = until_periodic(&mut x, 1e-14, 100_000, |_, x| scaled(x)).unwrap();
    assert!(it.converged, "{it:?}");
    let mut y = [0.0];
    let shot = shoot(&mut y, &[1.0], 1e-14, 50, &mut scaled).unwrap();
    assert!(shot.converged, "{shot:?}");
    (per.z, x[0] * sc, y[0] * sc, per.gain)
}

/// Thesis Fig 1.11's LuGre (σ0 = 1e4, F_s = 1.5, v_s = 0.04): sliding at A = 1 m, ω = 1 (the
/// gain underflows: z* is the pass's end), and in pre-sliding at A = 2e-5 m, ω = 0.01, where the
/// period map's gain is near 0.8 and the iteration needs a hundred periods.
#[test]
fn the_closed_form_periodic_state_is_the_shooting_s_and_the_iteration_s() {
    let m = common::fig_1_11_lugre(0.04);
    for (amp, w, gain) in [(1.0, 1.0, (0.0, 1e-300)), (2e-5, 0.01, (0.5, 0.95))] {
        let (closed, iterated, shot, g) = three_ways(&m, amp, w, 1e-13);
        assert!(g >= gain.0 && g <= gain.1, "A = {amp}: gain {g}");
        let scale = m.state_scale();
        eprintln!(
            "A = {amp}, ω = {w}: gain {g:e}, |closed − iterated| {:e}, |closed − shot| {:e} (scale {scale:e})",
            (closed - iterated).abs(),
            (closed - shot).abs()
        );
        for (name, z) in [("until_periodic", iterated), ("shoot", shot)] {
            assert!(
                (closed - z).abs() <= 1e-12 * scale,
                "A = {amp}, ω = {w}: closed form {closed:e} vs {name} {z:e} (scale {scale:e})"
            );
        }
    }
}

/// LuGre in pre-sliding at tiny amplitudes, where the period map's gain `G(T) = e^{−4kA}` (`k =
/// σ0/F_c`) tends to 1: with `F_s = F_c` (`g` constant) the periodic state is known in closed form,
/// `β = sign(u')/k` on each monotone segment and the turning values `±tanh(kA)/k`, so at `t = 0`
/// (`u = 0`, rising) `z* = (1 − sech kA)/k`. At every `kA` from 1e-1 down to 1e-9 (`1 − G(T)`
/// to 4e-9) the closed form either gives `z*` to the local tolerance (rtol 1e-10 of the state
/// scale) or refuses with the amplified-error message; never a wrong number. Measured: all five
/// computed, errors 3e-20 to 2.6e-19 (below 2e-15 of the state scale 1.5e-4; relative to `z*`
/// itself, `(kA)²/2` of the scale, 4e-14 at kA = 1e-1 and lost below kA = 1e-5: `y`'s rounding
/// over `1 − G(T)`, of no weight in the force `σ0 z`); amplified estimates ≤ 1.6e-10, under the
/// guard's 1.5e-9.
#[test]
fn near_a_gain_of_one_the_closed_form_is_right_or_refuses() {
    let m = LuGre {
        sigma0: 1e4,
        sigma1: 100.0,
        sigma2: 0.6,
        fc: 1.5,
        fs: 1.5,
        vs: 0.04,
    };
    let (k, w) = (m.sigma0 / m.fc, 1.0);
    let period = 2.0 * PI / w;
    let scheme = Relaxation::<4>::new();
    let tol = ExpTolerance {
        abs: 1e-10 * m.state_scale(),
        z_scale: m.state_scale(),
        hmax: period / 100.0,
    };
    let breaks = [0.0, 0.25 * period, 0.75 * period, period];
    for x in [1e-1, 1e-3, 1e-5, 1e-7, 1e-9] {
        let amp = x / k;
        let coef = |t: f64| m.affine(amp * (w * t).sin(), amp * w * (w * t).cos()).unwrap();
        let want = 2.0 * (0.5 * x).sinh().powi(2) / (k * x.cosh());
        match solve_periodic(&scheme, &coef, &breaks, tol, &mut ExpStats::default(), &mut |_| {}) {
            Ok(per) => {
                eprintln!(
                    "kA = {x:e}: 1 − G {:e}, z* {:e}, error {:e} (relative {:e}), estimate {:e}",
                    1.0 - per.gain,
                    per.z,
                    per.z - want,
                    (per.z - want) / want,
                    per.error
                );
                assert!(
                    (per.z - want).abs() <= tol.abs,
                    "kA = {x:e}: z* {:e} vs {want:e}",
                    per.z
                );
            }
            Err(e) => {
                eprintln!("kA = {x:e}: refused: {e}");
                assert!(e.contains("is not determined"), "kA = {x:e}: {e}");
            }
        }
    }
}

/// Report Fig 5.16's LuGre (Table 5.10) in approach 1 at `omega`, on `points` log-spaced
/// amplitudes 0.1…10 rad/s (no jump refinement), by `method` (None: the default) at `rtol`.
fn fig_5_16(
    omega: f64,
    points: usize,
    approach: f64,
    method: Option<&str>,
    rtol: Option<f64>,
) -> Result<RunData, String> {
    let mut p = vec![
        ("approach", common::n(approach)),
        ("omega", common::n(omega)),
        ("jump", common::n(1e3)),
        ("h_num", ParamValue::List(vec![1.0, 0.0, 0.0])),
        ("h_den", ParamValue::List(vec![0.0025, 0.030, 0.18, 0.54])),
    ];
    p.extend(common::table_5_10_lugre(0.0));
    let sim = SimSpec {
        method: method.map(|m| m.parse().expect("a method name")),
        rtol,
        ..Default::default()
    };
    common::try_run(
        "describing-function-lugre",
        &p,
        common::grid(0.1, 10.0, points, Scale::Log),
        sim,
    )
}

/// N by exponential integration against Radau5's shooting, both at rtol 1e-11, on Fig 5.16's
/// three frequencies at 5 amplitudes each: relative difference of N at most 1e-9; the residual
/// column NaN (the closed form has none), the multiplier `G(T)` that of an independent quadrature
/// of `∫a` to 1e-9 in its logarithm.
#[test]
fn approach_1_by_exponential_agrees_with_radau5_at_rtol_1e_11() {
    let mut worst: f64 = 0.0;
    for omega in [0.1, 1.0, 10.0] {
        let e = fig_5_16(omega, 5, 1.0, None, Some(1e-11)).unwrap();
        let r = fig_5_16(omega, 5, 1.0, Some("radau5"), Some(1e-11)).unwrap();
        let col = |d: &RunData, c: &str| d.column(c).unwrap().to_vec();
        let (a, ea, eb) = (col(&e, "a"), col(&e, "re_n"), col(&e, "im_n"));
        let (ra, rb) = (col(&r, "re_n"), col(&r, "im_n"));
        assert_eq!((a.len(), ra.len()), (5, 5), "ω = {omega}: one row per amplitude");
        for i in 0..5 {
            let d = (ea[i] - ra[i]).hypot(eb[i] - rb[i]) / ra[i].hypot(rb[i]);
            worst = worst.max(d);
            assert!(
                d <= 1e-9,
                "ω = {omega}, a = {}: N {:?} vs Radau5 {:?}: {d:e}",
                a[i],
                (ea[i], eb[i]),
                (ra[i], rb[i])
            );
        }
        // One pass a point (the grid's and the crossing bisection's), no shooting: a period map
        // each, no residual (NaN: not applicable).
        assert_eq!(e.info["period_maps"], e.info["df_evaluations"], "ω = {omega}");
        let res = col(&e, "residual");
        assert!(res.iter().all(|x| x.is_nan()), "ω = {omega}: residuals {res:?}");
        // The multiplier G(T) = exp(−∫ σ0 |v|/g(v) dt) against that integral by Simpson's rule
        // (each half period, 20 000 intervals), where it does not underflow.
        let mult = col(&e, "multiplier");
        for (ai, gi) in a.iter().zip(&mult) {
            let w_quad = table_5_10_decay(*ai, omega);
            assert!((0.0..1.0).contains(gi), "ω = {omega}, a = {ai}: {gi}");
            if w_quad < 700.0 {
                assert!(
                    (gi.ln() + w_quad).abs() <= 1e-9 * w_quad,
                    "ω = {omega}, a = {ai}: ln G(T) {} vs −∫σ0|v|/g {}",
                    gi.ln(),
                    -w_quad
                );
            }
        }
    }
    eprintln!("largest relative difference of N: {worst:e}");
}

/// `∫_0^T σ0 |v|/g(v) dt` of Table 5.10's LuGre under `v = a sin ωt` (`g = α0 + α1 e^{−(v/v0)²}`),
/// by composite Simpson on each half period (`|v|` smooth there).
fn table_5_10_decay(a: f64, w: f64) -> f64 {
    let f = |t: f64| {
        let v = a * (w * t).sin();
        280.0 * v.abs() / (0.22 + 0.17 * (-(v / 0.1).powi(2)).exp())
    };
    let (n, half) = (20_000, PI / w);
    let h = half / n as f64;
    (0..2)
        .map(|k| {
            let t0 = k as f64 * half;
            (0..=n)
                .map(|i| {
                    let c = if i == 0 || i == n {
                        1.0
                    } else {
                        (2 + 2 * (i % 2)) as f64
                    };
                    c * f(t0 + i as f64 * h)
                })
                .sum::<f64>()
                * h
                / 3.0
        })
        .sum()
}

/// The closed form's state is periodic for the ODE, not only for the pass's steps: one more
/// period from z* by an independent integration (its own steps, from z*) returns to it.
#[test]
fn the_closed_form_state_returns_after_an_independent_period() {
    let m = common::table_5_10_model();
    let scheme = Relaxation::<4>::new();
    for (a, w) in [(0.1, 0.1), (1.0, 1.0), (10.0, 10.0), (0.3, 10.0)] {
        let period = 2.0 * PI / w;
        let coef = |t: f64| m.affine(a / w * (1.0 - (w * t).cos()), a * (w * t).sin()).unwrap();
        let tol = ExpTolerance {
            abs: 1e-12 * m.state_scale(),
            z_scale: m.state_scale(),
            hmax: period / 100.0,
        };
        let breaks = [0.0, 0.5 * period, period];
        let mut stats = ExpStats::default();
        let per = solve_periodic(&scheme, &coef, &breaks, tol, &mut stats, &mut |_| {}).unwrap();
        // Independent: from z*, with a tighter tolerance and a cap ten times smaller (its own
        // step sequence; without a cap the first step from a reversal, where a = b = 0 and the
        // estimate is blind, spans the half period, `drive::EXPONENTIAL_STEPS_PER_SCALE`).
        let fine = ExpTolerance {
            abs: 1e-14 * m.state_scale(),
            hmax: period / 1000.0,
            ..tol
        };
        let mut z = per.z;
        for p in breaks.windows(2) {
            z = solve_with(&scheme, &coef, p[0], z, p[1], &[], fine, &mut stats, &mut |_, _| {}).unwrap();
        }
        eprintln!("a = {a}, ω = {w}: |z(T) − z*| {:e}", (z - per.z).abs());
        assert!(
            (z - per.z).abs() <= 1e-11 * m.state_scale(),
            "a = {a}, ω = {w}: z* {:e}, after a period {z:e}",
            per.z
        );
    }
}

/// Approach 1 defaults to `exponential`, approach 3 to Radau5; `exponential` in approach 3 is
/// refused at `params.approach`.
#[test]
fn exponential_is_approach_1_s_default_and_refused_in_approach_3() {
    let e = fig_5_16(1.0, 2, 1.0, None, None).unwrap();
    assert_eq!(e.info["period_maps"], e.info["df_evaluations"], "one pass a point");
    let r = fig_5_16(1.0, 2, 1.0, Some("radau5"), None).unwrap();
    assert!(
        r.info["period_maps"] > r.info["df_evaluations"],
        "Radau5 still selectable: shooting"
    );
    let err = fig_5_16(1.0, 2, 3.0, Some("exponential"), None).unwrap_err();
    assert!(err.contains("params.approach") && err.contains("approach 1"), "{err}");
}
