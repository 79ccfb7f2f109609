use super::*;
use fric_models::signal::{Signal, Sine};

/// Thesis Fig 3.9's rig: u = sin(0.05 t) on the bristles of Δ = 0.01 m, d = 1 m.
fn fig_3_9() -> (Signal, Bristles) {
    let u = Signal::Sine(Sine {
        amplitude: 1.0,
        omega: 0.05,
        phase: 0.0,
        offset: 0.0,
    });
    let b = Bristles {
        kappa: 0.1,
        h: 0.0995,
        lb: 0.1,
        delta: 0.01,
        d: 1.0,
    };
    (u, b)
}

/// Sawtooth rig: every stick point lies in the equilibria set (3.58) and the friction never
/// leaves [F_min, F_max] in magnitude (the tooth events fire).
#[test]
fn sawtooth_rig_stays_on_the_teeth() {
    let u = Signal::Sine(Sine {
        amplitude: 2.0,
        omega: 0.01,
        phase: 0.0,
        offset: 0.0,
    });
    let law = Law::Saw(Sawtooth {
        f_min: 0.5,
        f_max: 1.0,
        delta: 0.1,
    });
    let sys = DrbmSwitched {
        law,
        rig: Rig::Driven { m: 1.0, k: 1.0, u: &u },
    };
    let t1 = 700.0;
    let save: Vec<f64> = (0..=7000).map(|i| i as f64 * 0.1).collect();
    let tol = Tolerances {
        rtol: 1e-9,
        atol: 1e-12,
        hmax: 1.0,
        ..Default::default()
    };
    let r = run(&sys, &[0.0, 0.0], 0.0, t1, &save, 1e-6, 1e-3, Method::Dopri5, &tol).unwrap();
    assert!(r.lattice_events > 10, "{}", r.lattice_events);
    let mut worst = (0.0f64, 0.0, 0.0);
    for ((f, s), (t, x)) in r.friction.iter().zip(&r.stuck).zip(r.t.iter().zip(&r.state)) {
        if *s == 0.0 {
            let e = (f.abs() - 1.0).max(0.5 - f.abs());
            if e > worst.0 {
                worst = (e, *t, x[0]);
            }
        }
    }
    assert!(worst.0 < 1e-6, "{worst:?} events {}", r.lattice_events);
}

/// The force-driven rig's samples as the system writes them (the columns the energy
/// balance reads).
fn driven_data(r: &DrbmRun, u: &Signal) -> RunData {
    let c = |i: usize| r.state.iter().map(|s| s[i]).collect::<Vec<f64>>();
    let mut d = RunData {
        columns: vec![
            ("t".into(), r.t.clone()),
            ("u".into(), r.t.iter().map(|&t| u.value(t)).collect()),
            ("x".into(), c(0)),
            ("v".into(), c(1)),
            ("F".into(), r.friction.clone()),
            ("W_in".into(), r.w_in.clone()),
            ("W_f".into(), r.w_f.clone()),
            ("E".into(), r.stored.clone()),
        ],
        ..Default::default()
    };
    d.info.insert("steps".into(), r.stats.accepted as f64);
    d
}

/// The energy balance on thesis Fig 3.9's rig (Δ = 0.01 m, ω = 0.05 rad/s, 0–60 s: stick,
/// slip both ways, about 70 lattice events) holds with both methods the thesis runs use, and
/// fails on a deliberately broken run: a reported force 0.1 % above the applied one (a
/// bristle stiffness κ 0.1 % off in the friction written out), or a stored energy missing
/// its spring term. The quadrature leaves the step sequence alone: the same run without
/// ever reading the works has the same steps and the same states, bit for bit.
#[test]
fn energy_balance_holds_and_catches_a_force_not_applied() {
    let (u, b) = fig_3_9();
    let rig = |kappa: f64| DrbmSwitched {
        law: Law::Bristle(Bristles { kappa, ..b }),
        rig: Rig::Driven { m: 1.0, k: 1.0, u: &u },
    };
    let (sys, off) = (rig(0.1), rig(0.1 * 1.001));
    let save: Vec<f64> = (0..=6000).map(|i| i as f64 * 0.01).collect();
    let tol = Tolerances {
        rtol: 1e-9,
        atol: 1e-12,
        hmax: 0.1,
        ..Default::default()
    };
    let check = |d: &RunData| check_energy(&sys.law, 0.01, 1.0, 1.0, None, 1e-6, 1e-3, (1e-9, 1e-12), d);
    for method in [Method::Dopri5, Method::Dop853Radau5] {
        let r = run(&sys, &[0.0, 0.0], 0.0, 60.0, &save, 1e-6, 1e-3, method, &tol).unwrap();
        assert!(
            r.lattice_events > 20 && r.sticks > 0,
            "{method:?}: {} events, {} sticks",
            r.lattice_events,
            r.sticks
        );
        let d = driven_data(&r, &u);
        check(&d).unwrap_or_else(|e| panic!("{method:?}: {e}"));
        let broken = run_reporting(&sys, &off, &[0.0, 0.0], 0.0, 60.0, &save, 1e-6, 1e-3, method, &tol).unwrap();
        assert_eq!(broken.stats, r.stats, "{method:?}: reporting changed the integration");
        assert_eq!(broken.state, r.state, "{method:?}");
        let e = check(&driven_data(&broken, &u)).unwrap_err();
        assert!(e.message.contains("friction work"), "{method:?}: {e}");
        let mut dropped = d.clone();
        let x = dropped.column("x").unwrap().to_vec();
        let e_col = &mut dropped.columns.iter_mut().find(|c| c.0 == "E").unwrap().1;
        e_col.iter_mut().zip(&x).for_each(|(e, x)| *e -= 0.5 * x * x);
        assert!(
            check(&dropped).is_err(),
            "{method:?}: the balance without ½ K x² passed"
        );
    }
}

/// Thesis Fig 3.9's ω = 0.05 rad/s run over its first 7 s, where until 2026-12-05 the left
/// window's range went stale at x = 0.34 m (the right window's entry and the left window's
/// exit coincide there, d/2 = 50 Δ; the located state sat exactly on both thresholds and the
/// second guard, at zero, never rose) and from t = 6.965 s the body slid backward on a
/// bristle pushing it forward. Both invariants hold on the run, and each fails on a sample
/// with that stale force.
#[test]
fn coincident_thresholds_keep_both_windows_geometric() {
    let (u, b) = fig_3_9();
    let law = Law::Bristle(b);
    let sys = DrbmSwitched {
        law,
        rig: Rig::Driven { m: 1.0, k: 1.0, u: &u },
    };
    let save: Vec<f64> = (0..=7000).map(|i| i as f64 * 0.001).collect();
    let tol = Tolerances {
        rtol: 1e-12,
        atol: 1e-14,
        hmax: 0.1,
        ..Default::default()
    };
    let r = run(
        &sys,
        &[0.0, 0.0],
        0.0,
        7.0,
        &save,
        1e-6,
        1e-3,
        Method::Dop853Radau5,
        &tol,
    )
    .unwrap();
    let x: Vec<f64> = r.state.iter().map(|s| s[0]).collect();
    let v: Vec<f64> = r.state.iter().map(|s| s[1]).collect();
    let mut d = RunData {
        columns: vec![
            ("t".into(), r.t.clone()),
            ("x".into(), x.clone()),
            ("v".into(), v.clone()),
            ("F".into(), r.friction.clone()),
            ("stuck".into(), r.stuck.clone()),
        ],
        ..Default::default()
    };
    check_window(&law, 0.01, 1e-6, &d).unwrap();
    check_sign_rule(1e-6, &d).unwrap();
    // With the fix the body sticks at t = 6.965 s instead of sliding backward. A sample
    // sliding backward with a right-window force (what the stale run had: the bristle at
    // −0.16 m, right of the left corner, pushing forward) breaks both.
    assert!(
        r.stuck.iter().zip(&r.t).any(|(&k, &t)| k == 1.0 && t > 6.965),
        "no stick after t = 6.965 s"
    );
    let i = (0..r.t.len()).rev().find(|&i| v[i] > 1e-4).unwrap();
    let stale = b.force_in(Side::Minus, Range { first: -16, last: -16 }, 0.3435);
    assert!(stale > 0.0, "{stale}");
    d.columns[2].1[i] = -v[i];
    let e = check_window(&law, 0.01, 1e-6, &d).unwrap_err();
    assert_eq!(e.t, r.t[i], "{e}");
    assert!(check_sign_rule(1e-6, &d).is_err());
}

/// Thesis Fig 3.7 (verification): the Switch Model's stick–slip converges to the exact
/// event-driven solution (exact stick, every switch located) as the band η and the time
/// constant τ shrink, over the first 150 s (several stick–slip cycles, before the
/// circle-map sensitivity of the later motion). Measured: 3.1e-7, 1.7e-9, 4.6e-10 m at
/// (η, τ) = (1e-6, 1e-3), (1e-8, 1e-4), (1e-10, 1e-5), the last at the integration tolerance.
#[test]
fn switch_model_tends_to_the_exact_stick_slip() {
    let law = Law::Bristle(Bristles {
        kappa: 0.1,
        h: 0.0995,
        lb: 0.1,
        delta: 0.005,
        d: 0.5,
    });
    let (m, k, vp, t1) = (1.0, 1.0, 0.002, 150.0);
    let save: Vec<f64> = (0..=3000).map(|i| t1 * i as f64 / 3000.0).collect();
    let tol = Tolerances {
        rtol: 1e-10,
        atol: 1e-13,
        ..Default::default()
    };
    let exact = run_exact_pulled(law, m, k, vp, [0.0, 0.0, 0.0], t1, &save, &tol).unwrap();
    let xs: Vec<f64> = exact.iter().map(|s| s.1[0]).collect();
    let (lo, hi) = fric_solvers::analysis::extremes(&xs);
    assert!(hi - lo > 0.05, "no slip in the window: x in [{lo}, {hi}]");
    let sys = DrbmSwitched {
        law,
        rig: Rig::Pulled { m, k, vp },
    };
    let errors: Vec<f64> = [(1e-6, 1e-3), (1e-8, 1e-4), (1e-10, 1e-5)]
        .iter()
        .map(|&(eta, tau)| {
            let r = run(&sys, &[0.0, 0.0, 0.0], 0.0, t1, &save, eta, tau, Method::Dopri5, &tol).unwrap();
            r.state
                .iter()
                .zip(&exact)
                .map(|(a, b)| (a[0] - b.1[0]).abs())
                .fold(0.0, f64::max)
        })
        .collect();
    eprintln!("max |x − x_exact| over 0-150 s at (η, τ) = (1e-6, 1e-3), (1e-8, 1e-4), (1e-10, 1e-5): {errors:?}");
    assert!(errors[1] < errors[0] && errors[2] < errors[1], "{errors:?}");
}

/// The energy-balance wrapper watches the Switch Model's grazes: it declares the guard
/// rates and forwards each one (issue 43; until 2026-12-05 the hand-written `Powered` kept the trait's
/// defaults, no rates, so a reversal grazing the stick band inside one step went unseen on
/// every DRBM run). Thesis Fig 3.9's rig sliding forward (v = 0.5 m/s, above the band): the
/// distance-to-band guard's rate is the Switch Model's, `−∇g·f`, and nonzero.
#[test]
fn powered_forwards_the_switch_models_guard_rates() {
    use fric_solvers::hybrid::HybridSystem;
    let (u, b) = fig_3_9();
    let sys = DrbmSwitched {
        law: Law::Bristle(b),
        rig: Rig::Driven { m: 1.0, k: 1.0, u: &u },
    };
    let (t, x) = (1.0, [0.02, 0.5]);
    let powered = WithQuadratures::new(SwitchModel::new(&sys, 1e-6, 1e-3), Works { sys: &sys, tau: 1e-3 });
    let bare = SwitchModel::new(&sys, 1e-6, 1e-3);
    let mode = (Region::Above, sys.law.locate(x[0]));
    let mut f = [0.0; 2];
    powered.rhs(mode, t, &x, &mut f);
    assert!(
        bare.guard_rates() && powered.guard_rates(),
        "Powered declares no guard rates"
    );
    let want = bare
        .guard_rate(mode, 0, t, &x, &f)
        .expect("the Switch Model's rate above the band");
    assert!(want != 0.0, "{want}");
    assert_eq!(powered.guard_rate(mode, 0, t, &x, &f), Some(want));
}
