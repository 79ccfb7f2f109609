//! Verification of event location against analytic solutions: a falling ball, a bouncing ball
//! (hybrid restarts), several events in one step, crossing pairs inside a step, restarts.

mod common;

use common::Oscillator;
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{solve, Direction, EventKind, Integrator, Method, OdeSystem, Tolerances};

struct Ball;
impl OdeSystem for Ball {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = -9.81;
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0];
    }
    fn event_kind(&self, _i: usize) -> EventKind {
        EventKind {
            direction: Direction::Falling,
            terminal: true,
        }
    }
}

/// Event located to 1e-10 on the analytic impact time of a falling ball.
#[test]
fn event_time_of_falling_ball() {
    let tol = Tolerances {
        rtol: 1e-8,
        atol: 1e-10,
        ..Default::default()
    };
    let o = solve(
        &Ball,
        Method::Dopri5,
        &tol,
        0.0,
        &[10.0, 0.0],
        100.0,
        &[],
        &mut |_, _| {},
    )
    .unwrap();
    let exact = (2.0 * 10.0 / 9.81f64).sqrt();
    assert_eq!(o.event, Some(0));
    assert!((o.t - exact).abs() < 1e-10, "{} vs {exact}", o.t);
}

/// A bouncing ball as a hybrid automaton with restitution 0.5: impact times are known in closed
/// form (each flight is half as long as the previous one; they accumulate at 3 t1 ≈ 4.285 s).
struct Bouncing;
impl HybridSystem for Bouncing {
    type Mode = ();
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _m: (), _t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = -9.81;
    }
    fn n_guards(&self, _m: ()) -> usize {
        1
    }
    fn guards(&self, _m: (), _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = -x[0];
    }
    fn jump(&self, _m: (), _g: usize, _t: f64, x: &mut [f64]) {
        x[0] = 0.0;
        x[1] *= -0.5;
    }
}

#[test]
fn bouncing_ball_impact_times() {
    let tol = Tolerances {
        rtol: 1e-10,
        atol: 1e-12,
        ..Default::default()
    };
    let o = simulate(
        &Bouncing,
        (),
        Method::Dopri5,
        &tol,
        0.0,
        &[10.0, 0.0],
        4.2,
        &[],
        100,
        &mut |_, _, _| {},
    )
    .unwrap();
    let t1 = (2.0 * 10.0 / 9.81f64).sqrt();
    let v1 = 9.81 * t1;
    let mut expected = vec![t1];
    let mut v = v1;
    while *expected.last().unwrap() < 4.2 {
        v *= 0.5;
        let next = expected.last().unwrap() + 2.0 * v / 9.81;
        expected.push(next);
    }
    expected.pop();
    assert_eq!(o.switches.len(), expected.len());
    for ((t, _), e) in o.switches.iter().zip(&expected) {
        assert!((t - e).abs() < 1e-9, "{t} vs {e}");
    }
}

/// `x' = 1`: event `i` is `x − c_i` with the thresholds listed out of time order, so that one
/// large step crosses several of them; non-terminal ones must come back in time order, those
/// after the terminal one must be dropped, and direction filters must hold.
struct Ramp;
const THRESHOLDS: [f64; 5] = [0.7, 0.45, 0.5, 0.9, 0.4];
impl OdeSystem for Ramp {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, _t: f64, _x: &[f64], dx: &mut [f64]) {
        dx[0] = 1.0;
    }
    fn n_events(&self) -> usize {
        THRESHOLDS.len() + 1
    }
    fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
        for (gi, c) in g.iter_mut().zip(THRESHOLDS) {
            *gi = x[0] - c;
        }
        // Falls through 0 at x = 0.3, but is declared Rising: must never fire.
        g[THRESHOLDS.len()] = 0.3 - x[0];
    }
    fn event_kind(&self, i: usize) -> EventKind {
        EventKind {
            direction: if i == THRESHOLDS.len() {
                Direction::Rising
            } else {
                Direction::Either
            },
            // x = 0.7 is terminal.
            terminal: i == 0,
        }
    }
}

#[test]
fn several_events_in_one_step_come_in_time_order() {
    let tol = Tolerances {
        hmax: 10.0,
        ..Default::default()
    };
    let o = solve(&Ramp, Method::Dopri5, &tol, 0.0, &[0.0], 2.0, &[], &mut |_, _| {}).unwrap();
    // The constant field is integrated exactly, so every step grows fivefold from the initial
    // 2e-6: the ninth step spans x ≈ 0.195 … 0.976 and holds every threshold.
    assert_eq!(o.stats.accepted, 9, "{:?}", o.stats);
    assert_eq!(o.event, Some(0));
    assert!((o.t - 0.7).abs() < 1e-14);
    let idx: Vec<usize> = o.passed_events.iter().map(|e| e.0).collect();
    assert_eq!(idx, vec![4, 1, 2], "{:?}", o.passed_events);
    for ((_, t), want) in o.passed_events.iter().zip([0.4, 0.45, 0.5]) {
        assert!((t - want).abs() < 1e-14, "{t} vs {want}");
    }
}

/// `x' = 1` with the event `sin(2π·40 t) + 1/2`: two crossings per period of the event
/// function, 1/120 apart in time, 80 in t ∈ [0, 1]; the steps (up to hmax = 0.05, two periods)
/// are far longer than that.
struct FastEvent(usize);
impl OdeSystem for FastEvent {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, _t: f64, _x: &[f64], dx: &mut [f64]) {
        dx[0] = 1.0;
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, t: f64, _x: &[f64], g: &mut [f64]) {
        g[0] = (2.0 * std::f64::consts::PI * 40.0 * t).sin() + 0.5;
    }
    fn event_samples(&self) -> usize {
        self.0
    }
}

/// The times of the terminal events of `sys` from `(0, x0)` until `t1`, restarting at each, and
/// the right-hand sides spent.
fn crossings<S: OdeSystem>(sys: &S, method: Method, tol: &Tolerances, x0: f64, t1: f64) -> (Vec<f64>, usize) {
    restarts(x0, |t, x| {
        solve(sys, method, tol, t, x, t1, &[], &mut |_, _| {}).unwrap()
    })
}

/// The event times and right-hand sides of the integrations `from(t, x)` restarted at each
/// terminal event from `(0, x0)` until one ends without.
fn restarts(x0: f64, mut from: impl FnMut(f64, &[f64]) -> fric_solvers::Outcome) -> (Vec<f64>, usize) {
    let (mut t, mut x, mut times, mut evals) = (0.0, vec![x0], Vec::new(), 0);
    loop {
        let o = from(t, &x);
        evals += o.stats.rhs_evals;
        if o.event.is_none() {
            return (times, evals);
        }
        times.push(o.t);
        (t, x) = (o.t, o.x);
    }
}

#[test]
fn a_reused_integrator_restarts_bit_for_bit_as_fresh_solves() {
    // 80 restarts at the crossings of `FastEvent`, with a 2-state solve between any two (the
    // integrator's buffers change size and back): times, states and right-hand sides are those
    // of a fresh `solve` per restart, exactly.
    let tol = Tolerances {
        hmax: 0.05,
        ..Default::default()
    };
    for method in [
        Method::Dopri5,
        Method::Dop853,
        Method::Rosenbrock23,
        Method::Radau5,
        Method::Dop853Radau5,
    ] {
        let (fresh, fresh_evals) = crossings(&FastEvent(16), method, &tol, 0.0, 1.0);
        assert_eq!(fresh.len(), 80, "{method:?}");
        let mut integrator = Integrator::new(method);
        let (times, evals) = restarts(0.0, |t, x| {
            let o = integrator
                .solve(&FastEvent(16), &tol, t, x, 1.0, &[], &mut |_, _| {})
                .unwrap();
            let between = integrator.solve(&Oscillator, &tol, 0.0, &[1.0, 0.0], 1.0, &[], &mut |_, _| {});
            let want = solve(&Oscillator, method, &tol, 0.0, &[1.0, 0.0], 1.0, &[], &mut |_, _| {});
            assert_eq!(between.unwrap().x, want.unwrap().x, "{method:?}");
            o
        });
        assert_eq!(times, fresh, "{method:?}");
        assert_eq!(evals, fresh_evals, "{method:?}");
        // The same restarts with nothing in between: the implicit methods' steppers are then
        // kept from one call to the next (same dimension, band and tolerances), and must restart
        // as fresh ones.
        let mut integrator = Integrator::new(method);
        let (times, evals) = restarts(0.0, |t, x| {
            integrator
                .solve(&FastEvent(16), &tol, t, x, 1.0, &[], &mut |_, _| {})
                .unwrap()
        });
        assert_eq!(times, fresh, "{method:?}, kept");
        assert_eq!(evals, fresh_evals, "{method:?}, kept");
    }
}

/// The crossings of [`FastEvent`] until t = 1.
fn fast_event_times(method: Method, samples: usize) -> Vec<f64> {
    let tol = Tolerances {
        hmax: 0.05,
        ..Default::default()
    };
    crossings(&FastEvent(samples), method, &tol, 0.0, 1.0).0
}

#[test]
fn event_samples_find_crossing_pairs_inside_a_step() {
    // Derived: sin(2π·40 t) = −1/2 at 40 t = k + 7/12 and k + 11/12.
    let exact: Vec<f64> = (0..40)
        .flat_map(|k| [(k as f64 + 7.0 / 12.0) / 40.0, (k as f64 + 11.0 / 12.0) / 40.0])
        .collect();
    for method in [Method::Dopri5, Method::Dop853, Method::Radau5] {
        // Without samples most pairs fall inside one step and are missed.
        let plain = fast_event_times(method, 0);
        assert!(
            plain.len() < 40,
            "{method:?}: {} crossings found without samples",
            plain.len()
        );
        // 16 samples of a step ≤ 0.05 are 0.0029 apart, closer than a pair (1/120): all found, in
        // order, each to the locator's precision.
        let sampled = fast_event_times(method, 16);
        assert_eq!(sampled.len(), 80, "{method:?}");
        for (t, want) in sampled.iter().zip(&exact) {
            assert!((t - want).abs() < 1e-13, "{method:?}: {t} vs {want}");
        }
    }
}

/// A body thrown up, `x' = v`, `v' = −1` from `(0, 1)`: it rises to x = 1/2 at t = 1 and falls
/// back. Guard 0, `x − (1/2 − 1e-6)`, rises through zero just before the top and falls back just
/// after it (t = 1 ∓ √2e-3); guard 1, `−v − 1e-4`, rises in between, at t = 1 + 1e-4. Both are
/// terminal. The field is integrated exactly, so the steps grow to `hmax` and one spans the whole
/// top: guard 0 is negative at both of its ends and brackets nothing there, while guard 1 stops
/// that step. The stop must be the threshold passed first, as with the CBM's bristle thresholds
/// before a stick: a bristle missed that way changed the friction (thesis Fig 4.7's run).
struct Thrown;
impl OdeSystem for Thrown {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = -1.0;
    }
    fn n_events(&self) -> usize {
        2
    }
    fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0] - (0.5 - 1e-6);
        g[1] = -x[1] - 1e-4;
    }
}

#[test]
fn a_crossing_undone_later_in_the_step_stops_it() {
    let tol = Tolerances {
        hmax: 1.0,
        ..Default::default()
    };
    // Derived: x(t) = t − t²/2 = 1/2 − 1e-6 at t = 1 − √(2e-6).
    let want = 1.0 - 2e-6f64.sqrt();
    for method in [Method::Dopri5, Method::Dop853, Method::Radau5, Method::Rosenbrock23] {
        let o = solve(&Thrown, method, &tol, 0.0, &[0.0, 1.0], 3.0, &[], &mut |_, _| {}).unwrap();
        assert_eq!(o.event, Some(0), "{method:?}: stopped at t = {}", o.t);
        // Rosenbrock23's dense output is of second order only (3.6e-7 off over a step of ~1).
        let close = if method == Method::Rosenbrock23 { 1e-6 } else { 1e-10 };
        assert!((o.t - want).abs() < close, "{method:?}: {} vs {want}", o.t);
    }
}

/// A restart that begins with the last step of the segment before it (`Tolerances::h0` =
/// `Outcome::h`) does not climb again from the heuristic's small first step: fewer steps for
/// the same accuracy.
#[test]
fn a_restart_with_the_last_step_skips_the_climb() {
    let base = Tolerances {
        rtol: 1e-9,
        atol: 1e-11,
        ..Default::default()
    };
    for method in [Method::Dopri5, Method::Dop853, Method::Radau5, Method::Rosenbrock23] {
        // The oscillator over [0, 20] in 40 segments, each a new call of `solve`.
        let run = |carry: bool| {
            let (mut x, mut steps, mut tol) = (vec![1.0, 0.0], 0, base);
            for k in 0..40 {
                let (t0, t1) = (0.5 * k as f64, 0.5 * (k + 1) as f64);
                let o = solve(&Oscillator, method, &tol, t0, &x, t1, &[], &mut |_, _| {}).unwrap();
                assert!(o.h > 0.0 && o.h.is_finite(), "{method:?}: last step {}", o.h);
                steps += o.stats.accepted;
                x = o.x;
                if carry {
                    tol.h0 = o.h;
                }
            }
            ((x[0] - 20f64.cos()).abs().max((x[1] + 20f64.sin()).abs()), steps)
        };
        let ((e_fresh, n_fresh), (e_carry, n_carry)) = (run(false), run(true));
        assert!(
            n_carry < n_fresh,
            "{method:?}: {n_carry} steps carried vs {n_fresh} fresh"
        );
        // Both as accurate as the tolerance asks (Rosenbrock23 is of second order only).
        let close = if method == Method::Rosenbrock23 { 1e-5 } else { 1e-7 };
        assert!(
            e_fresh < close && e_carry < close,
            "{method:?}: errors {e_fresh:e}, {e_carry:e}"
        );
    }
}

/// `v' = −sin t + 600 r cos 600t`, so `v = cos t + r sin 600t` from `v(0) = 1`, with the event
/// `v = 0`: a slow velocity reversing at t ≈ π/2 + kπ with a fast ringing on it, whose reversals
/// come in pairs, some inside one step, where `|cos t| < r`. With `event_component` declared, the
/// steps where `|v|` exceeds twice the step times the stages' largest `|v'|` skip their interior
/// samples (and DOP853 the three extra stages of its dense output); every crossing must still be
/// found, at the same time.
struct RingingReversal {
    r: f64,
    samples: usize,
    declared: bool,
}
impl OdeSystem for RingingReversal {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, t: f64, _x: &[f64], dx: &mut [f64]) {
        dx[0] = -t.sin() + 600.0 * self.r * (600.0 * t).cos();
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0];
    }
    fn event_samples(&self) -> usize {
        self.samples
    }
    fn event_component(&self, _i: usize) -> Option<usize> {
        self.declared.then_some(0)
    }
}

#[test]
fn event_samples_are_skipped_only_where_the_sign_cannot_change() {
    let tol = Tolerances {
        rtol: 1e-5,
        atol: 1e-7,
        ..Default::default()
    };
    let r = 0.01;
    let v = |t: f64| t.cos() + r * (600.0 * t).sin();
    let run = |samples: usize, declared: bool| {
        crossings(
            &RingingReversal { r, samples, declared },
            Method::Dop853,
            &tol,
            1.0,
            20.0,
        )
    };
    // Derived: the sign changes of the closed form on a grid of 1e-5 (the crossings are at least
    // 1e-3 apart).
    let exact = (0..2_000_000)
        .filter(|&k| (v(k as f64 * 1e-5) > 0.0) != (v((k + 1) as f64 * 1e-5) > 0.0))
        .count();
    assert!(exact > 6, "{exact} crossings: the ringing adds pairs");
    let (plain, _) = run(0, false);
    assert!(plain.len() < exact, "without samples {} of {exact} found", plain.len());
    let (all, evals_all) = run(8, false);
    let (skipping, evals_skipping) = run(8, true);
    assert_eq!(all.len(), exact, "{all:?}");
    assert_eq!(skipping, all);
    for &t in &all {
        // Zeros of the closed form to the global error of rtol 1e-5 on the ringing (|v'| ≤ 7).
        assert!(v(t).abs() < 2e-3, "v({t}) = {}", v(t));
    }
    assert!(
        (evals_skipping as f64) < 0.85 * evals_all as f64,
        "{evals_skipping} vs {evals_all} right-hand sides"
    );
}

/// A ball thrown up to just above a ceiling: `x(t) = t − t²/2` peaks at `1/2` (t = 1), the
/// ceiling is at `1/2 − c`. With `hmax` 4 the first steps span the whole flight, so both ends of
/// the step are below the ceiling: only the guard's rate (`ẋ`, from +1 to −1 across the step)
/// shows the crossing pair inside it.
struct Ceiling(f64);
impl OdeSystem for Ceiling {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = -1.0;
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0] - (0.5 - self.0);
    }
    fn event_kind(&self, _i: usize) -> EventKind {
        EventKind {
            direction: Direction::Rising,
            terminal: true,
        }
    }
    fn event_rates(&self) -> bool {
        true
    }
    fn event_rate(&self, _i: usize, _t: f64, _x: &[f64], f: &[f64]) -> Option<f64> {
        Some(f[0])
    }
}

/// A terminal event whose function rises to zero and falls back inside one step fires at its
/// first zero (derived: `t = 1 − √(2c)`) with every method, however small the excursion above
/// zero (`c` down to 1e-12); an excursion that stays short of zero (`c < 0`) fires nothing.
#[test]
fn a_guard_grazing_zero_inside_a_step_fires_at_its_first_zero() {
    let tol = Tolerances {
        hmax: 4.0,
        h0: 4.0,
        ..Default::default()
    };
    for method in [Method::Dopri5, Method::Dop853, Method::Radau5, Method::Rosenbrock23] {
        for c in [1e-3, 1e-6, 1e-12] {
            let o = solve(&Ceiling(c), method, &tol, 0.0, &[0.0, 1.0], 4.0, &[], &mut |_, _| {}).unwrap();
            let want = 1.0 - (2.0 * c).sqrt();
            assert_eq!(
                o.event,
                Some(0),
                "{method:?}, c = {c}: no event (stopped at t = {})",
                o.t
            );
            // The first zero, on the way up, where the state is the ceiling's height.
            assert!(
                o.x[1] > 0.0 && (o.x[0] - (0.5 - c)).abs() < 1e-12,
                "{method:?}, c = {c}: {:?}",
                o.x
            );
            // Its time, located on the dense output of a step of ~4 (Rosenbrock23's is of
            // second order only); at c = 1e-12 the time is ill-conditioned (ẋ = √(2c)).
            let close = if method == Method::Rosenbrock23 { 1e-5 } else { 1e-9 };
            assert!(
                c < 1e-9 || (o.t - want).abs() < close,
                "{method:?}, c = {c}: {} vs {want}",
                o.t
            );
        }
        let o = solve(
            &Ceiling(-1e-9),
            method,
            &tol,
            0.0,
            &[0.0, 1.0],
            4.0,
            &[],
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(
            (o.event, o.t),
            (None, 4.0),
            "{method:?}: an excursion short of zero fired"
        );
    }
}
