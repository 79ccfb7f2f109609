//! The step loop does not allocate: a counting global allocator (its own test binary, so that it
//! sees only this file's tests; counts are per thread, so tests may run in parallel) shows the
//! same number of heap allocations for a 1,000-step and a 100,000-step `solve`, for every method.

use fric_solvers::{solve, Integrator, Method, OdeSystem, Tolerances};

mod counting;
use counting::allocations;

/// A nonlinear planar system with a stable limit cycle (finite-difference Jacobian for the
/// implicit methods).
struct Cycle;
impl OdeSystem for Cycle {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        let r2 = x[0] * x[0] + x[1] * x[1];
        dx[0] = x[0] * (1.0 - r2) - x[1];
        dx[1] = x[1] * (1.0 - r2) + x[0];
    }
}

/// An open, diffusively coupled chain of 8 such oscillators, state `(x_0, y_0, x_1, y_1, …)`,
/// declared banded with 2 sub- and 2 super-diagonals: the implicit methods take their band path
/// (band factorisations, column-grouped finite differences).
struct CycleChain;
const CHAIN: usize = 8;
impl OdeSystem for CycleChain {
    fn dim(&self) -> usize {
        2 * CHAIN
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        for i in 0..CHAIN {
            Cycle.rhs(t, &x[2 * i..2 * i + 2], &mut dx[2 * i..2 * i + 2]);
            for c in 2 * i..2 * i + 2 {
                let l = if i > 0 { x[c - 2] } else { x[c] };
                let r = if i + 1 < CHAIN { x[c + 2] } else { x[c] };
                dx[c] += 0.5 * (l - 2.0 * x[c] + r);
            }
        }
    }
    fn jacobian_band(&self) -> Option<(usize, usize)> {
        Some((2, 2))
    }
}

/// Allocations made by one `solve` forced to take about `steps` steps, and the steps taken.
fn count(method: Method, steps: usize, saveat: &[f64]) -> (usize, usize) {
    count_on(&Cycle, &[0.2, 0.0], method, steps, saveat)
}

fn count_on<S: OdeSystem>(sys: &S, x0: &[f64], method: Method, steps: usize, saveat: &[f64]) -> (usize, usize) {
    let t1 = 10.0;
    let tol = Tolerances {
        rtol: 1e-6,
        atol: 1e-9,
        hmax: t1 / steps as f64,
        ..Default::default()
    };
    let mut sink = 0.0;
    let before = allocations();
    let o = solve(sys, method, &tol, 0.0, x0, t1, saveat, &mut |_, x| sink += x[0]).unwrap();
    let after = allocations();
    assert!(sink.is_finite());
    (after - before, o.stats.accepted)
}

fn check(method: Method) {
    check_with(method, |steps, saveat| count(method, steps, saveat), "");
}

fn check_with(method: Method, count: impl Fn(usize, &[f64]) -> (usize, usize), what: &str) {
    let save: Vec<f64> = (0..100).map(|i| 0.1 * i as f64 + 0.0123).collect();
    for saveat in [&[][..], &save[..]] {
        let (a1, n1) = count(1_000, saveat);
        let (a2, n2) = count(100_000, saveat);
        eprintln!(
            "{method:?}{what} ({} save times): {a1} allocations for {n1} steps, {a2} for {n2} steps",
            saveat.len()
        );
        assert!(n1 >= 1_000 && n2 >= 100_000, "{method:?}: {n1}, {n2} steps");
        assert!(a1 > 0, "the counting allocator is not active");
        assert_eq!(a1, a2, "{method:?}: allocations grow with the number of steps");
    }
}

#[test]
fn dopri5_step_loop_does_not_allocate() {
    check(Method::Dopri5);
}

#[test]
fn dop853_step_loop_does_not_allocate() {
    check(Method::Dop853);
}

#[test]
fn rosenbrock23_step_loop_does_not_allocate() {
    check(Method::Rosenbrock23);
}

#[test]
fn radau5_step_loop_does_not_allocate() {
    check(Method::Radau5);
}

/// The band path: band iteration matrices and column-grouped finite-difference Jacobians.
fn check_banded(method: Method) {
    let x0: Vec<f64> = (0..2 * CHAIN)
        .map(|k| if k % 2 == 0 { 0.2 + 0.01 * k as f64 } else { 0.0 })
        .collect();
    check_with(
        method,
        |steps, saveat| count_on(&CycleChain, &x0, method, steps, saveat),
        ", banded",
    );
}

#[test]
fn banded_radau5_step_loop_does_not_allocate() {
    check_banded(Method::Radau5);
}

#[test]
fn banded_rosenbrock23_step_loop_does_not_allocate() {
    check_banded(Method::Rosenbrock23);
}

#[test]
fn dop853_radau5_step_loop_does_not_allocate() {
    check(Method::Dop853Radau5);
}

/// A stiff, lightly damped spring under a slow sinusoid (ω_n = 300, ζ = 0.01, ω = 1), from
/// rest: ringing at the start, then slow, so `Dop853Radau5` switches methods.
struct SlowSpring;
impl OdeSystem for SlowSpring {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = 9e4 * (t.sin() - x[0]) - 6.0 * x[1];
    }
}

#[test]
fn dop853_radau5_switching_does_not_allocate() {
    let count = |t1: f64| {
        let tol = Tolerances {
            rtol: 1e-8,
            atol: 1e-12,
            ..Default::default()
        };
        let before = allocations();
        let o = solve(
            &SlowSpring,
            Method::Dop853Radau5,
            &tol,
            0.0,
            &[0.0, 0.0],
            t1,
            &[],
            &mut |_, _| {},
        )
        .unwrap();
        (allocations() - before, o.stats)
    };
    let (a1, s1) = count(10.0);
    let (a2, s2) = count(100.0);
    eprintln!("Dop853Radau5 on a slow spring: {a1} allocations for {s1:?}, {a2} for {s2:?}");
    assert!(s1.switches >= 1 && s2.accepted > 5 * s1.accepted / 2, "{s1:?} {s2:?}");
    assert!(a1 > 0, "the counting allocator is not active");
    assert_eq!(a1, a2, "allocations grow with the number of steps");
}

/// A state that falls linearly and is reset on reaching 0: a terminal event every 0.01 time
/// units, so a run to `t1` restarts `100 t1` times.
struct Sawtooth;
impl OdeSystem for Sawtooth {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, _t: f64, _x: &[f64], dx: &mut [f64]) {
        dx[0] = -1.0;
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0];
    }
    fn event_samples(&self) -> usize {
        4
    }
}

/// Heap allocations of a sawtooth run to `t1` through one reused [`Integrator`], and its
/// restarts.
fn restart_allocations(method: Method, t1: f64) -> (usize, usize) {
    let tol = Tolerances::default();
    let mut integrator = Integrator::new(method);
    let before = allocations();
    let (mut t, mut x, mut restarts) = (0.0, vec![0.01], 0);
    loop {
        let o = integrator
            .solve(&Sawtooth, &tol, t, &x, t1, &[], &mut |_, _| {})
            .unwrap();
        if o.event.is_none() {
            break;
        }
        restarts += 1;
        t = o.t;
        x[0] = 0.01;
    }
    (allocations() - before, restarts)
}

#[test]
fn a_reused_integrator_allocates_only_its_outcome_per_restart() {
    // The explicit methods keep their stage vectors and the driver its buffers: one allocation
    // per restart (the outcome's state), whatever the restart count.
    for method in [Method::Dopri5, Method::Dop853] {
        let (short, n_short) = restart_allocations(method, 0.2);
        let (long, n_long) = restart_allocations(method, 2.0);
        assert!(
            n_long >= 190 && n_short >= 19,
            "{method:?}: {n_short} and {n_long} restarts"
        );
        let per_restart = (long - short) as f64 / (n_long - n_short) as f64;
        assert!(per_restart <= 1.0, "{method:?}: {per_restart} allocations per restart");
    }
}

/// The exponential schemes' step loop (`expint`'s driver with the collocation in time and with
/// the quadrature in the relaxation variable) does not allocate: a span 100 times longer (~100
/// times the steps and the dense outputs) makes no more allocations, and the solve itself none.
#[test]
fn exponential_step_loops_do_not_allocate() {
    use fric_solvers::expint::{solve_with, ExpScheme, ExpStats, ExpTolerance, Scheme};
    use fric_solvers::expquad::Relaxation;
    fn run<X: ExpScheme>(scheme: &X, t1: f64, saves: &[f64]) -> (usize, ExpStats) {
        let coef = |t: f64| (-50.0 * (2.0 + (3.0 * t).sin()), (t).cos());
        let tol = ExpTolerance {
            abs: 1e-10,
            z_scale: 1.0,
            hmax: 0.05,
        };
        let mut st = ExpStats::default();
        let mut sum = 0.0;
        let before = allocations();
        solve_with(scheme, &coef, 0.0, 0.3, t1, saves, tol, &mut st, &mut |_, z| sum += z).unwrap();
        let n = allocations() - before;
        assert!(sum.is_finite());
        (n, st)
    }
    let saves: Vec<f64> = (0..=20_000).map(|i| i as f64 * 0.01).collect();
    let (rel, col) = (Relaxation::<4>::new(), Scheme::<4>::new());
    for (name, short, long) in [
        ("relaxation", run(&rel, 2.0, &saves), run(&rel, 200.0, &saves)),
        ("collocation", run(&col, 2.0, &saves), run(&col, 200.0, &saves)),
    ] {
        eprintln!(
            "{name}: {} / {} allocations, {:?} / {:?}",
            short.0, long.0, short.1, long.1
        );
        assert!(
            long.1.steps >= 50 * short.1.steps,
            "{name}: {:?} vs {:?}",
            short.1,
            long.1
        );
        assert_eq!((short.0, long.0), (0, 0), "{name}: the step loop allocates");
    }
}
