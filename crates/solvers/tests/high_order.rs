//! Verification of the high-order pairs, DOP853 (explicit, order 8) and Radau IIA (implicit,
//! order 5): observed orders and dense output on a nonlinear problem with a closed-form
//! solution, event location, the stiff Van der Pol oscillator and Robertson's chemical kinetics.

use fric_solvers::{solve, Direction, EventKind, Method, OdeSystem, Outcome, Tolerances};

/// A planar system with a stable limit cycle: `r' = r(1 − r²)`, `θ' = 1`. Nonlinear (so the
/// order conditions of nonlinear problems are exercised), smooth, and solvable in closed form.
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
    // x[1] = r sin t falls through zero at t = π exactly.
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[1];
    }
    fn event_kind(&self, _i: usize) -> EventKind {
        EventKind {
            direction: Direction::Falling,
            terminal: true,
        }
    }
}

const R0: f64 = 0.2;

fn exact(t: f64) -> [f64; 2] {
    let r = 1.0 / (1.0 + (1.0 / (R0 * R0) - 1.0) * (-2.0 * t).exp()).sqrt();
    [r * t.cos(), r * t.sin()]
}

/// The same flow without the event.
struct CycleNoEvent;
impl OdeSystem for CycleNoEvent {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        Cycle.rhs(t, x, dx)
    }
}

struct Errors {
    /// Error at the end point (a step end).
    end: f64,
    /// Largest error at 199 save times that fall inside steps (dense output).
    dense: f64,
    outcome: Outcome,
}

fn cycle_run(method: Method, tol: &Tolerances) -> Errors {
    let t1 = 10.0;
    let save: Vec<f64> = (1..200)
        .map(|i| i as f64 * t1 / 200.0 * (1.0 - 1e-3 / std::f64::consts::E))
        .collect();
    let mut dense = 0.0f64;
    let outcome = solve(&CycleNoEvent, method, tol, 0.0, &[R0, 0.0], t1, &save, &mut |t, x| {
        let ex = exact(t);
        dense = dense.max((x[0] - ex[0]).abs()).max((x[1] - ex[1]).abs());
    })
    .unwrap();
    let ex = exact(t1);
    let end = (outcome.x[0] - ex[0]).abs().max((outcome.x[1] - ex[1]).abs());
    Errors { end, dense, outcome }
}

fn order(e1: f64, n1: f64, e2: f64, n2: f64) -> f64 {
    (e1 / e2).ln() / (n2 / n1).ln()
}

/// Fixed steps `10 / n`: tolerances so loose that every step is accepted and `hmax` sets the
/// step (after a few growing steps from the initial guess, which contribute nothing measurable).
fn fixed(n: usize) -> Tolerances {
    Tolerances {
        rtol: 1e10,
        atol: 1e10,
        hmax: 10.0 / n as f64,
        ..Default::default()
    }
}

/// DOP853 with fixed steps: error ∝ h⁸ at the step ends and on the 7th-degree dense output.
#[test]
fn dop853_fixed_step_order_is_8() {
    let (n1, n2) = (28, 80);
    let a = cycle_run(Method::Dop853, &fixed(n1));
    let b = cycle_run(Method::Dop853, &fixed(n2));
    let p_end = order(a.end, n1 as f64, b.end, n2 as f64);
    let p_dense = order(a.dense, n1 as f64, b.dense, n2 as f64);
    eprintln!(
        "DOP853, {n1} -> {n2} steps: end {:.2e} -> {:.2e} (order {p_end:.2}), dense {:.2e} -> {:.2e} (order {p_dense:.2})",
        a.end, b.end, a.dense, b.dense
    );
    assert!((7.5..8.6).contains(&p_end), "end-point order {p_end}");
    assert!((7.3..8.7).contains(&p_dense), "dense-output order {p_dense}");
    assert!(b.dense < 10.0 * b.end.max(1e-13), "dense {} vs end {}", b.dense, b.end);
}

/// Radau5, adaptive: error vs number of steps as the tolerance tightens. The solution at step
/// ends converges with order 5; the cubic collocation polynomial (stage order 3) with order 4.
#[test]
fn radau5_observed_order_is_5() {
    let run = |rtol: f64| {
        cycle_run(
            Method::Radau5,
            &Tolerances {
                rtol,
                atol: rtol,
                ..Default::default()
            },
        )
    };
    let (a, b) = (run(1e-6), run(1e-9));
    let (n1, n2) = (a.outcome.stats.accepted as f64, b.outcome.stats.accepted as f64);
    let p_end = order(a.end, n1, b.end, n2);
    let p_dense = order(a.dense, n1, b.dense, n2);
    eprintln!(
        "Radau5, rtol 1e-6 -> 1e-9, {n1} -> {n2} steps: end {:.2e} -> {:.2e} (order {p_end:.2}), dense {:.2e} -> {:.2e} (order {p_dense:.2})",
        a.end, b.end, a.dense, b.dense
    );
    assert!((4.4..5.6).contains(&p_end), "end-point order {p_end}");
    assert!((3.5..4.6).contains(&p_dense), "dense-output order {p_dense}");
    assert!(b.end < 1e-9 && b.dense < 1e-8, "{} {}", b.end, b.dense);
}

/// At a tight tolerance DOP853 meets it with far fewer evaluations than Dopri5.
#[test]
fn dop853_is_cheaper_than_dopri5_at_tight_tolerance() {
    let tol = Tolerances {
        rtol: 1e-11,
        atol: 1e-11,
        ..Default::default()
    };
    let a = cycle_run(Method::Dop853, &tol);
    let b = cycle_run(Method::Dopri5, &tol);
    eprintln!(
        "rtol 1e-11: DOP853 {} steps, {} f-evals, error {:.1e} (dense {:.1e}); Dopri5 {} steps, {} f-evals, error {:.1e}",
        a.outcome.stats.accepted,
        a.outcome.stats.rhs_evals,
        a.end,
        a.dense,
        b.outcome.stats.accepted,
        b.outcome.stats.rhs_evals,
        b.end
    );
    assert!(a.end < 1e-9 && a.dense < 1e-9, "{} {}", a.end, a.dense);
    assert!(2 * a.outcome.stats.rhs_evals < b.outcome.stats.rhs_evals);
}

/// Events are located on the dense output (DOP853 computes its extra stages on demand).
#[test]
fn event_time_on_dense_output() {
    let tol = Tolerances {
        rtol: 1e-10,
        atol: 1e-12,
        ..Default::default()
    };
    for method in [Method::Dop853, Method::Radau5] {
        let o = solve(&Cycle, method, &tol, 0.0, &[R0, 0.0], 10.0, &[], &mut |_, _| {}).unwrap();
        assert_eq!(o.event, Some(0));
        assert!((o.t - std::f64::consts::PI).abs() < 1e-9, "{method:?}: {}", o.t);
    }
}

struct VanDerPol(f64);
impl OdeSystem for VanDerPol {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = self.0 * ((1.0 - x[0] * x[0]) * x[1]) - x[0];
    }
    fn jacobian(&self, _t: f64, x: &[f64], j: &mut [f64]) -> bool {
        j[0] = 0.0;
        j[1] = 1.0;
        j[2] = -2.0 * self.0 * x[0] * x[1] - 1.0;
        j[3] = self.0 * (1.0 - x[0] * x[0]);
        true
    }
}

/// x₁ of Van der Pol μ = 1000 from (2, 0) at t = 0, 100, …, 3000 (about two relaxation periods,
/// four fast jumps; none of the save times is inside a jump).
fn vdp(rtol: f64, save: &[f64]) -> (Outcome, Vec<f64>) {
    let tol = Tolerances {
        rtol,
        atol: rtol,
        ..Default::default()
    };
    let mut xs = Vec::new();
    let o = solve(
        &VanDerPol(1000.0),
        Method::Radau5,
        &tol,
        0.0,
        &[2.0, 0.0],
        3000.0,
        save,
        &mut |_, x| xs.push(x[0]),
    )
    .unwrap();
    (o, xs)
}

#[test]
fn van_der_pol_stiff_radau5() {
    let save: Vec<f64> = (0..=30).map(|i| i as f64 * 100.0).collect();
    let (r, xr) = vdp(1e-12, &save);
    eprintln!("reference (rtol 1e-12): {:?}, x(3000) = {:?}", r.stats, r.x);
    for (rtol, max_steps) in [(1e-4, 600), (1e-6, 1_500), (1e-8, 4_500)] {
        let (o, xs) = vdp(rtol, &save);
        let err = xs.iter().zip(&xr).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        eprintln!(
            "rtol {rtol:e}: {:?}, max error of x1 at the save times {err:.2e}",
            o.stats
        );
        assert!(err < 10.0 * rtol, "rtol {rtol}: error {err}");
        assert!(o.stats.accepted < max_steps, "rtol {rtol}: {:?}", o.stats);
    }
}

struct Robertson {
    analytic: bool,
}
impl OdeSystem for Robertson {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let r1 = 0.04 * y[0];
        let r2 = 3e7 * y[1] * y[1];
        let r3 = 1e4 * y[1] * y[2];
        dy[0] = -r1 + r3;
        dy[1] = r1 - r2 - r3;
        dy[2] = r2;
    }
    fn jacobian(&self, _t: f64, y: &[f64], j: &mut [f64]) -> bool {
        if !self.analytic {
            return false;
        }
        j.copy_from_slice(&[
            -0.04,
            1e4 * y[2],
            1e4 * y[1],
            0.04,
            -6e7 * y[1] - 1e4 * y[2],
            -1e4 * y[1],
            0.0,
            6e7 * y[1],
            0.0,
        ]);
        true
    }
}

/// Robertson's problem to t = 4e10 with the analytic and the finite-difference Jacobian:
/// y₁ + y₂ + y₃ = 1 is conserved (Runge–Kutta methods conserve linear invariants), and the state
/// at t = 40 matches the standard reference values to the requested tolerance.
#[test]
fn robertson_radau5() {
    let reference = [0.7158270687, 9.185534764e-6, 0.2841637457];
    let (rtol, atol) = (1e-8, 1e-14);
    let tol = Tolerances {
        rtol,
        atol,
        ..Default::default()
    };
    let mut finals = Vec::new();
    for analytic in [true, false] {
        let mut at40 = [0.0; 3];
        let mut drift = 0.0f64;
        let o = solve(
            &Robertson { analytic },
            Method::Radau5,
            &tol,
            0.0,
            &[1.0, 0.0, 0.0],
            4e10,
            &[40.0, 1e5, 1e8],
            &mut |t, y| {
                drift = drift.max((y.iter().sum::<f64>() - 1.0).abs());
                if t == 40.0 {
                    at40.copy_from_slice(y);
                }
            },
        )
        .unwrap();
        drift = drift.max((o.x.iter().sum::<f64>() - 1.0).abs());
        let err: [f64; 3] = std::array::from_fn(|i| (at40[i] - reference[i]).abs());
        eprintln!(
            "Robertson, analytic Jacobian {analytic}: {:?}, |y1+y2+y3-1| <= {drift:.1e}, errors at t = 40 {err:?}, y(4e10) = {:?}",
            o.stats, o.x
        );
        assert!(drift < 1e-12, "{drift}");
        for i in 0..3 {
            assert!(
                err[i] <= rtol * reference[i] + atol,
                "y{}: {} vs {}",
                i + 1,
                at40[i],
                reference[i]
            );
        }
        assert!(o.stats.accepted < 3_000, "{:?}", o.stats);
        finals.push(o.x);
    }
    for (i, (a, b)) in finals[0].iter().zip(&finals[1]).enumerate() {
        assert!(
            (a - b).abs() <= 1e-6 * a.abs().max(b.abs()),
            "y{}(4e10): {a} vs {b}",
            i + 1
        );
    }
}
