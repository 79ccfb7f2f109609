//! Periodic steady states of system runs: shooting against the analytic steady state and
//! against the long run, and where shooting is refused.

mod common;

use common::*;
use fric_experiments::{execute, resolve};
use fric_manifest::{SimSpec, SteadyState};
use fric_solvers::analysis::{loop_area, max_abs_diff};

/// Shooting needs the prescribed-input driver's smooth period map: an exact operator says so.
#[test]
fn shooting_is_refused_where_it_does_not_apply() {
    let req = resolve(
        "dahl",
        &params(&[("sigma", n(1.0)), ("fc", n(1.0)), ("gamma", n(1.0))]),
        Some(&sine(1.0, 1.0)),
        Some(&steady(1e-9, 50, true)),
    )
    .unwrap();
    let e = execute(&req).unwrap_err();
    assert!(
        e.contains("steady_state.shooting is not available for system dahl"),
        "{e}"
    );
}

fn steady(tol: f64, max_periods: usize, shooting: bool) -> SimSpec {
    SimSpec {
        steady_state: Some(SteadyState {
            tol,
            max_periods,
            shooting,
        }),
        samples_per_period: Some(4000),
        ..Default::default()
    }
}

/// Shooting (Newton on the period map) against the analytic steady state and against long-run
/// iteration: the linear MSD of thesis Fig 1.1 with light damping (c = 0.05, ζ = 0.025, the
/// slowest mode decays by e^{−2πζ/ω} per input period), whose loop area is π|G| sin φ.
#[test]
fn shooting_matches_the_analytic_steady_state_in_few_periods() {
    let (m, c, k, w) = (1.0, 0.05, 1.0, 0.7f64);
    let p = [("m", n(m)), ("c", n(c)), ("k", n(k))];
    let shot = run("linear-msd", &p, sine(1.0, w), steady(1e-11, 40, true));
    let long = run("linear-msd", &p, sine(1.0, w), steady(1e-11, 5000, false));
    // y = x with m x'' + c x' + k (x − u) = 0: the loop area is π |G| sin φ of G = k/(m s² + c s + k).
    let exact = fric_models::linear::LinearMsd { m, c, k }.loop_area(1.0, w);
    let a = loop_area(shot.column("u").unwrap(), shot.column("y").unwrap());
    let b = loop_area(long.column("u").unwrap(), long.column("y").unwrap());
    // The polygon through 4000 samples of the ellipse misses (2π/4000)²/6 ≈ 4e-7 of its area.
    assert!((a - exact).abs() < 1e-6 * exact.abs(), "shooting {a} vs exact {exact}");
    assert!((b - a).abs() < 1e-8 * exact.abs(), "iteration {b} vs shooting {a}");
    let (ps, pl) = (
        shot.info["periods_to_steady_state"],
        long.info["periods_to_steady_state"],
    );
    assert!(shot.info["steady_state_residual"] < 1e-11);
    assert!(
        ps <= 20.0 && pl > 10.0 * ps,
        "period maps: shooting {ps}, iteration {pl}"
    );
}

/// Shooting on the duhem-paper Fig 20 drum with LuGre friction (σ0 = 1000, stick–slip-free
/// periodic motion): the same steady state as 1000-period iteration, in a fraction of the
/// periods.
#[test]
fn shooting_matches_long_run_iteration_on_the_lugre_drum() {
    let mut p = drum_plant();
    p.extend([
        ("fc", n(0.6)),
        ("fs", n(1.0)),
        ("vs", n(0.001)),
        ("sigma0", n(1000.0)),
        ("sigma1", n(1000f64.sqrt())),
        ("sigma2", n(1.3)),
    ]);
    let input = sine(0.05, 2.0 * std::f64::consts::PI / 10.0);
    let shot = run("drum-lugre", &p, input.clone(), steady(1e-9, 200, true));
    let long = run("drum-lugre", &p, input, steady(1e-9, 2000, false));
    let (ts, tl) = (shot.column("Tf").unwrap(), long.column("Tf").unwrap());
    let (qs, ql) = (shot.column("theta").unwrap(), long.column("theta").unwrap());
    let (a, b) = (loop_area(qs, ts), loop_area(ql, tl));
    assert!(
        (a - b).abs() < 1e-6 * b.abs(),
        "friction work per period: shooting {a}, iteration {b}"
    );
    let d = max_abs_diff(ts, tl).unwrap();
    assert!(d < 1e-5, "max |ΔTf| = {d}");
    let (ps, pl) = (
        shot.info["periods_to_steady_state"],
        long.info["periods_to_steady_state"],
    );
    eprintln!(
        "drum LuGre: shooting {ps} period maps ({} Newton steps), iteration {pl}",
        shot.info["newton_steps"]
    );
    assert!(ps < pl, "period maps: shooting {ps}, iteration {pl}");
}

/// Shooting against the long run on the report's PID loop (issue 18, item 2): the hunting limit
/// cycle of report Fig 5.9 (Table 5.2's PID gains, the asymmetric LuGre of Table 5.6, r = 1 rad,
/// from rest) as the fixed point of its Poincaré return map (θ' = 0.05 rad/s upward, the start
/// of each positive slip) by Newton–Broyden, and by iterating the return map until successive
/// section points agree to 1e-10: the same section point and period.
#[test]
fn pid_limit_cycle_by_shooting_matches_the_long_run() {
    use fric_models::lugre::LuGre;
    use fric_solvers::limit_cycle::{limit_cycle, shoot_limit_cycle, CycleOptions};
    use fric_solvers::{Method, OdeSystem, Tolerances};
    struct Loop(fric_models::pid::PidLoop<fric_models::BySign<LuGre>>);
    impl OdeSystem for Loop {
        fn dim(&self) -> usize {
            4
        }
        fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
            self.0.rhs(x, dx)
        }
    }
    let side = |a0: f64, a1: f64| LuGre {
        sigma0: 280.0,
        sigma1: 1.0,
        sigma2: 0.0,
        fc: a0,
        fs: a0 + a1,
        vs: 0.1,
    };
    let j = 0.0025;
    let sys = Loop(fric_models::pid::PidLoop {
        plant: fric_models::inertia::Inertia {
            j,
            alpha: 0.017,
            friction: fric_models::BySign {
                minus: side(0.14, 0.16),
                plus: side(0.30, 0.16),
            },
        },
        kp: j * 72.0,
        ki: j * 216.0,
        kd: j * 5.2,
        r: 1.0,
    });
    let tol = Tolerances {
        rtol: 1e-11,
        atol: 1e-14,
        ..Default::default()
    };
    let opts = CycleOptions {
        tol: 1e-10,
        max_returns: 2000,
        t_max: 1e5,
        samples: 200,
    };
    let section = |_: f64, x: &[f64]| x[1] - 0.05;
    let x0 = [0.0; 4];
    let long = limit_cycle(&sys, section, Method::Radau5, &tol, 0.0, &x0, &opts).unwrap();
    let (x, period, shot) = shoot_limit_cycle(&sys, section, Method::Radau5, &tol, 0.0, &x0, &opts).unwrap();
    assert!(long.converged, "{long:?}");
    assert!(shot.converged && shot.residual < 1e-10, "{shot:?}");
    // The long run stops at a change of 1e-10 between returns and contracts fast (16 returns
    // from rest, measured), so its section point is that close to the cycle; 1e-8 leaves room
    // for the integration error of a cycle at rtol 1e-11 (measured: 1.4e-11 in θ, 1.2e-10 s in
    // the period of 5.263 s).
    for i in 0..4 {
        assert!(
            (x[i] - long.point[i]).abs() < 1e-8 * (1.0 + x[i].abs()),
            "{x:?} vs {:?}",
            long.point
        );
    }
    assert!(
        (period - long.period).abs() < 1e-8 * period,
        "{period} vs {}",
        long.period
    );
    assert!((x[1] - 0.05).abs() < 1e-12, "on the section: {x:?}");
    // Three plain returns, the shot's maps and one return for the period (measured 3 + 9 + 1)
    // against the long run's returns.
    assert!(3 + shot.maps + 1 < long.returns, "{shot:?} vs {} returns", long.returns);
}
