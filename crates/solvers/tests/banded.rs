//! Banded Jacobians in the stiff methods: a system that declares `jacobian_band` gets band
//! iteration matrices and a column-grouped finite-difference Jacobian. Checked on the
//! semi-discrete heat equation (n = 500, tridiagonal, stiff; exact solution by eigen-expansion)
//! and on a nonlinear damped mass–spring chain (band (3, 2) in interleaved ordering) against the
//! dense path at the same tolerances and a tight reference, with the number of evaluations of
//! `f` spent on Jacobians.

use std::cell::Cell;
use std::f64::consts::PI;

use fric_solvers::{band_index, solve, Method, OdeSystem, Outcome, Tolerances};

/// `u_i' = (u_{i−1} − 2u_i + u_{i+1}) / Δx²`, `i = 1..n`, `u_0 = u_{n+1} = 0`, `Δx = 1/(n + 1)`.
struct Heat {
    n: usize,
    banded: bool,
    calls: Cell<usize>,
}

impl Heat {
    fn new(n: usize, banded: bool) -> Self {
        Self {
            n,
            banded,
            calls: Cell::new(0),
        }
    }
    fn dx(&self) -> f64 {
        1.0 / (self.n + 1) as f64
    }
    /// Initial state: modes 1, 3 and a fast one.
    const MODES: [(usize, f64); 3] = [(1, 1.0), (3, 0.5), (200, 0.2)];
    /// Exact solution of the semi-discrete system: `sin(kπx_i)` are the eigenvectors of the
    /// discrete Laplacian, with eigenvalues `−4/Δx² sin²(kπΔx/2)`.
    fn exact(&self, t: f64) -> Vec<f64> {
        let dx = self.dx();
        (1..=self.n)
            .map(|i| {
                Self::MODES
                    .iter()
                    .map(|&(k, a)| {
                        let lam = -4.0 / (dx * dx) * (k as f64 * PI * dx / 2.0).sin().powi(2);
                        a * (lam * t).exp() * (k as f64 * PI * i as f64 * dx).sin()
                    })
                    .sum()
            })
            .collect()
    }
}

impl OdeSystem for Heat {
    fn dim(&self) -> usize {
        self.n
    }
    fn rhs(&self, _t: f64, u: &[f64], du: &mut [f64]) {
        self.calls.set(self.calls.get() + 1);
        let n = self.n;
        let k = 1.0 / (self.dx() * self.dx());
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

/// `m` masses on nonlinear springs `s(d) = k d + k₃ d³` and stiff dampers `c` between fixed walls,
/// the first one driven by `sin 2t`; state `(x_0, v_0, x_1, v_1, …)`, so `∂f/∂y` has 3 sub- and
/// 2 super-diagonals.
struct Chain {
    m: usize,
    band: bool,
    analytic: bool,
    calls: Cell<usize>,
}

const K: f64 = 50.0;
const K3: f64 = 2000.0;
const DAMP: f64 = 1e4;

impl Chain {
    fn new(m: usize, band: bool, analytic: bool) -> Self {
        Self {
            m,
            band,
            analytic,
            calls: Cell::new(0),
        }
    }
    fn x0(&self) -> Vec<f64> {
        (0..2 * self.m)
            .map(|k| if k % 2 == 0 { 0.5 * (0.37 * k as f64).sin() } else { 0.0 })
            .collect()
    }
}

fn spring(d: f64) -> f64 {
    K * d + K3 * d * d * d
}
fn spring_slope(d: f64) -> f64 {
    K + 3.0 * K3 * d * d
}

impl OdeSystem for Chain {
    fn dim(&self) -> usize {
        2 * self.m
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.calls.set(self.calls.get() + 1);
        let m = self.m;
        let x = |i: usize| y[2 * i];
        let v = |i: usize| y[2 * i + 1];
        for i in 0..m {
            let (xl, vl) = if i > 0 { (x(i - 1), v(i - 1)) } else { (0.0, 0.0) };
            let (xr, vr) = if i + 1 < m { (x(i + 1), v(i + 1)) } else { (0.0, 0.0) };
            dy[2 * i] = v(i);
            dy[2 * i + 1] = spring(xr - x(i)) - spring(x(i) - xl)
                + DAMP * (vr - 2.0 * v(i) + vl)
                + if i == 0 { (2.0 * t).sin() } else { 0.0 };
        }
    }
    fn jacobian_band(&self) -> Option<(usize, usize)> {
        self.band.then_some((3, 2))
    }
    fn jacobian_banded(&self, _t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        if !self.analytic {
            return false;
        }
        let (kl, ku, m) = (3, 2, self.m);
        let mut set = |i: usize, j: usize, v: f64| jac[band_index(kl, ku, i, j)] = v;
        for i in 0..m {
            let xi = y[2 * i];
            let xl = if i > 0 { y[2 * i - 2] } else { 0.0 };
            let xr = if i + 1 < m { y[2 * i + 2] } else { 0.0 };
            let (sl, sr) = (spring_slope(xi - xl), spring_slope(xr - xi));
            let (rx, rv) = (2 * i, 2 * i + 1);
            // Row of x_i' (only ∂/∂v_i = 1 inside the band, columns rx − 3 ..= rx + 2).
            for j in rx.saturating_sub(kl)..=(rx + ku).min(2 * m - 1) {
                set(rx, j, if j == rv { 1.0 } else { 0.0 });
            }
            // Row of v_i': columns 2i − 2 ..= 2i + 3 are exactly the band of row 2i + 1.
            if i > 0 {
                set(rv, rx - 2, sl);
                set(rv, rx - 1, DAMP);
            }
            set(rv, rx, -sl - sr);
            set(rv, rv, -2.0 * DAMP);
            if i + 1 < m {
                set(rv, rx + 2, sr);
                set(rv, rx + 3, DAMP);
            }
        }
        true
    }
}

fn run<S: OdeSystem>(
    sys: &S,
    method: Method,
    tol: &Tolerances,
    x0: &[f64],
    t1: f64,
    save: &[f64],
) -> (Outcome, Vec<Vec<f64>>) {
    let mut xs = Vec::new();
    let o = solve(sys, method, tol, 0.0, x0, t1, save, &mut |_, x| xs.push(x.to_vec())).unwrap();
    assert_eq!(xs.len(), save.len());
    (o, xs)
}

/// Largest `|a − b|` over all save times and components.
fn max_diff(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .flat_map(|(u, v)| u.iter().zip(v).map(|(p, q)| (p - q).abs()))
        .fold(0.0, f64::max)
}

#[test]
fn heat_equation_n500_banded_radau5_matches_exact_solution_and_dense_path() {
    let n = 500;
    let (rtol, atol) = (1e-6, 1e-8);
    let tol = Tolerances {
        rtol,
        atol,
        ..Default::default()
    };
    let save: Vec<f64> = (1..=10).map(|i| 0.01 * i as f64).collect();
    let band = Heat::new(n, true);
    let dense = Heat::new(n, false);
    let x0 = band.exact(0.0);
    let exact: Vec<Vec<f64>> = save.iter().map(|&t| band.exact(t)).collect();
    let (ob, xb) = run(&band, Method::Radau5, &tol, &x0, 0.1, &save);
    let (od, xd) = run(&dense, Method::Radau5, &tol, &x0, 0.1, &save);
    let (eb, ed, bd) = (max_diff(&xb, &exact), max_diff(&xd, &exact), max_diff(&xb, &xd));
    eprintln!("banded {:?}\ndense  {:?}", ob.stats, od.stats);
    eprintln!("max error: banded {eb:.3e}, dense {ed:.3e}; banded − dense {bd:.3e}");
    // |u| ≤ 1.7: the tolerance at the scale of the solution is atol + rtol ≈ 1e-6.
    assert!(eb < atol + rtol, "banded error {eb}");
    assert!(ed < atol + rtol, "dense error {ed}");
    assert!(bd < 0.01 * (atol + rtol), "banded and dense differ by {bd}");
    // The counters are honest, and a finite-difference Jacobian costs 3 evaluations, not 500.
    assert_eq!(ob.stats.rhs_evals, band.calls.get());
    assert_eq!(od.stats.rhs_evals, dense.calls.get());
    assert!(ob.stats.jac_evals >= 1 && od.stats.jac_evals >= 1);
    assert_eq!(ob.stats.jac_rhs_evals, 3 * ob.stats.jac_evals);
    assert_eq!(od.stats.jac_rhs_evals, n * od.stats.jac_evals);
}

#[test]
fn mass_spring_chain_banded_agrees_with_dense_and_reference() {
    let m = 60;
    let save: Vec<f64> = (1..=8).map(|i| 0.25 * i as f64).collect();
    let reference = {
        let tol = Tolerances {
            rtol: 1e-11,
            atol: 1e-13,
            ..Default::default()
        };
        let sys = Chain::new(m, false, false);
        run(&sys, Method::Radau5, &tol, &sys.x0(), 2.0, &save).1
    };
    let scale = reference.iter().flatten().fold(0.0f64, |a, v| a.max(v.abs()));
    for method in [Method::Radau5, Method::Rosenbrock23] {
        let (rtol, atol) = (1e-6, 1e-8);
        let tol = Tolerances {
            rtol,
            atol,
            ..Default::default()
        };
        let mut results = Vec::new();
        for (band, analytic) in [(false, false), (true, false), (true, true)] {
            let sys = Chain::new(m, band, analytic);
            let (o, xs) = run(&sys, method, &tol, &sys.x0(), 2.0, &save);
            let err = max_diff(&xs, &reference);
            eprintln!(
                "{method:?} band {band} analytic {analytic}: {:?}, max error {err:.3e} (|y| <= {scale:.2})",
                o.stats
            );
            assert_eq!(o.stats.rhs_evals, sys.calls.get());
            let per_jac = match (band, analytic) {
                (false, _) => 2 * m,
                (true, false) => 3 + 2 + 1,
                (true, true) => 0,
            };
            assert_eq!(
                o.stats.jac_rhs_evals,
                per_jac * o.stats.jac_evals,
                "{method:?} band {band} analytic {analytic}"
            );
            results.push((err, xs));
        }
        let bound = atol + rtol * scale;
        let (dense_err, dense) = &results[0];
        assert!(*dense_err < bound, "{method:?} dense error {dense_err}");
        for (err, xs) in &results[1..] {
            let d = max_diff(xs, dense);
            eprintln!("{method:?}: banded − dense {d:.3e}");
            assert!(*err < bound, "{method:?} banded error {err}");
            assert!(d < 0.01 * bound, "{method:?}: banded and dense differ by {d}");
        }
    }
}

/// A stiff linear decay chain `y_0 → y_1 → … → y_{n−1}` with rates from 1 to 1e6: lower
/// bidiagonal, band `(1, 0)`. Declared exactly, and declared far too wide (clamped to
/// `(n − 1, n − 1)`, i.e. a full matrix in band storage).
struct Decay {
    n: usize,
    band: Option<(usize, usize)>,
}

impl Decay {
    fn rate(&self, i: usize) -> f64 {
        10f64.powf(6.0 * i as f64 / (self.n - 1) as f64)
    }
}

impl OdeSystem for Decay {
    fn dim(&self) -> usize {
        self.n
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        for i in 0..self.n {
            let inflow = if i > 0 { self.rate(i - 1) * y[i - 1] } else { 0.0 };
            dy[i] = inflow - self.rate(i) * y[i];
        }
    }
    fn jacobian_band(&self) -> Option<(usize, usize)> {
        self.band
    }
}

#[test]
fn one_sided_and_overwide_bands_agree_with_dense() {
    let n = 40;
    let (rtol, atol) = (1e-7, 1e-10);
    let tol = Tolerances {
        rtol,
        atol,
        ..Default::default()
    };
    let save = [0.01, 0.1, 1.0, 5.0];
    let mut x0 = vec![0.0; n];
    x0[0] = 1.0;
    for method in [Method::Radau5, Method::Rosenbrock23] {
        let (od, xd) = run(&Decay { n, band: None }, method, &tol, &x0, 5.0, &save);
        for band in [(1, 0), (1000, 1000)] {
            let (ob, xb) = run(&Decay { n, band: Some(band) }, method, &tol, &x0, 5.0, &save);
            let d = max_diff(&xb, &xd);
            eprintln!(
                "{method:?} band {band:?}: {:?} vs dense {:?}, max difference {d:.3e}",
                ob.stats, od.stats
            );
            assert!(
                d < 0.01 * (atol + rtol),
                "{method:?} band {band:?}: differs from dense by {d}"
            );
            let w = if band.0 == 1 { 2 } else { n };
            assert_eq!(ob.stats.jac_rhs_evals, w * ob.stats.jac_evals);
        }
        // Fractions of the initial amount: they stay in [0, 1].
        assert!(xd.iter().flatten().all(|&v| v > -atol && v < 1.0 + atol));
    }
}
