//! Wall time per `solve`, banded against dense iteration matrices, on the semi-discrete heat
//! equation `u' = A u` (A tridiagonal, stiff) with a finite-difference Jacobian:
//! `cargo run -p fric-solvers --release --example banded_timing`.

use std::f64::consts::PI;
use std::time::Instant;

use fric_solvers::{solve, Method, OdeSystem, Outcome, Tolerances};

struct Heat {
    n: usize,
    banded: bool,
}

impl OdeSystem for Heat {
    fn dim(&self) -> usize {
        self.n
    }
    fn rhs(&self, _t: f64, u: &[f64], du: &mut [f64]) {
        let n = self.n;
        let k = ((n + 1) * (n + 1)) as f64;
        for i in 0..n {
            let l = if i > 0 { u[i - 1] } else { 0.0 };
            let r = if i + 1 < n { u[i + 1] } else { 0.0 };
            du[i] = k * (l - 2.0 * u[i] + r);
        }
    }
    fn jacobian_band(&self) -> Option<(usize, usize)> {
        self.banded.then_some((1, 1))
    }
}

/// Best of `reps` runs: seconds per solve, and the outcome.
fn time(sys: &Heat, method: Method, reps: usize) -> (f64, Outcome) {
    let tol = Tolerances {
        rtol: 1e-6,
        atol: 1e-8,
        ..Default::default()
    };
    let dx = 1.0 / (sys.n + 1) as f64;
    let x0: Vec<f64> = (1..=sys.n)
        .map(|i| (PI * i as f64 * dx).sin() + 0.2 * (40.0 * PI * i as f64 * dx).sin())
        .collect();
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..reps {
        let t0 = Instant::now();
        let o = solve(sys, method, &tol, 0.0, &x0, 0.1, &[], &mut |_, _| {}).unwrap();
        best = best.min(t0.elapsed().as_secs_f64());
        out = Some(o);
    }
    (best, out.unwrap())
}

fn main() {
    for method in [Method::Radau5, Method::Rosenbrock23] {
        for n in [100, 500] {
            let reps = if n <= 100 { 20 } else { 3 };
            let (tb, ob) = time(&Heat { n, banded: true }, method, reps * 10);
            let (td, od) = time(&Heat { n, banded: false }, method, reps);
            let diff = ob.x.iter().zip(&od.x).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            println!(
                "{method:?} n = {n}: banded {:.3} ms, dense {:.3} ms, dense/banded {:.0}; \
                 steps {}/{}, jac evals {}/{}, rhs evals {}/{} (Jacobians {}/{}); max |banded − dense| {diff:.1e}",
                tb * 1e3,
                td * 1e3,
                td / tb,
                ob.stats.accepted + ob.stats.rejected,
                od.stats.accepted + od.stats.rejected,
                ob.stats.jac_evals,
                od.stats.jac_evals,
                ob.stats.rhs_evals,
                od.stats.rhs_evals,
                ob.stats.jac_rhs_evals,
                od.stats.jac_rhs_evals,
            );
        }
    }
}
