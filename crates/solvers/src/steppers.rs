//! Adaptive one-step methods with dense output and a common driver that handles step-size
//! control, save times and event location.
//!
//! - `Dopri5`: Dormand–Prince 5(4), FSAL, Hairer's 4th-order continuous extension.
//! - `Rosenbrock23`: the L-stable Rosenbrock 2(3) pair of Shampine & Reichelt (MATLAB `ode23s`),
//!   with its own continuous extension; for stiff problems (LuGre with σ0 = 1e4…1e5).
//! - `Dop853` (in `dop853.rs`): Hairer's Dormand–Prince 8(5,3) with its 7th-order continuous
//!   extension.
//! - `Radau5` (in `radau.rs`): the 3-stage Radau IIA method of order 5 (Hairer's RADAU5), stiffly
//!   accurate and L-stable, with its collocation polynomial as dense output.
//! - `Dop853Radau5` (in `switching.rs`): the two above in one integration, switched by stiffness
//!   detection.
//!
//! The implicit methods (`Rosenbrock23`, `Radau5`) use band storage for the Jacobian and band LU
//! factorisations of their iteration matrices when the system declares a band
//! ([`OdeSystem::jacobian_band`]); a finite-difference Jacobian then groups columns
//! ([`fd_jacobian_banded`]) and costs `kl + ku + 1` evaluations of `f` instead of `n`.
//!
//! All work buffers are allocated once per `solve` call; the step loop does not allocate.

use crate::dop853::Dop853;
use crate::linalg::{Lu, Shape};
use crate::radau::Radau5;
use crate::switching::Switching;
use crate::{Direction, OdeSystem};

/// Integration method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    Dopri5,
    Rosenbrock23,
    /// Dormand–Prince 8(5,3), 7th-order dense output: smooth non-stiff problems at tight tolerances.
    Dop853,
    /// Radau IIA, 3 stages, order 5: stiff problems at tight tolerances.
    Radau5,
    /// DOP853 while its steps are limited by accuracy, Radau IIA while they would be limited by
    /// stability, switched by stiffness detection (`switching.rs`): a stiff oscillator that
    /// rings now and then under a slow input.
    Dop853Radau5,
}

/// Error control and limits.
#[derive(Clone, Copy, Debug)]
pub struct Tolerances {
    pub rtol: f64,
    pub atol: f64,
    /// Largest step allowed (also used to avoid stepping over short input features).
    pub hmax: f64,
    pub max_steps: usize,
    /// First step to try (0: chosen by the driver's heuristic from the state and its
    /// derivative). A restart after an event passes [`Outcome::h`] of the segment before it, so
    /// the new segment does not climb again from a tiny first step.
    pub h0: f64,
}

impl Default for Tolerances {
    fn default() -> Self {
        Self {
            rtol: 1e-8,
            atol: 1e-10,
            hmax: f64::INFINITY,
            max_steps: 50_000_000,
            h0: 0.0,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub accepted: usize,
    pub rejected: usize,
    /// Evaluations of `f`, all included.
    pub rhs_evals: usize,
    pub jac_evals: usize,
    /// The part of `rhs_evals` spent on finite-difference Jacobians (`dim` per Jacobian when
    /// dense, `kl + ku + 1` when banded; for `Rosenbrock23` excluding the one for `∂f/∂t`).
    pub jac_rhs_evals: usize,
    /// Changes of method ([`Method::Dop853Radau5`]; 0 for the others).
    pub switches: usize,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.accepted += o.accepted;
        self.rejected += o.rejected;
        self.rhs_evals += o.rhs_evals;
        self.jac_evals += o.jac_evals;
        self.jac_rhs_evals += o.jac_rhs_evals;
        self.switches += o.switches;
    }
}

/// Where an integration stopped.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub t: f64,
    pub x: Vec<f64>,
    /// Index of the terminal event that stopped the integration, if any.
    pub event: Option<usize>,
    /// Non-terminal events located on the way: `(index, time)`.
    pub passed_events: Vec<(usize, f64)>,
    pub stats: Stats,
    /// The last accepted step size (0 if none was taken; where the run reached `t1`, the step
    /// the controller had chosen before it was cut to end there): a restart from this outcome
    /// can begin with it ([`Tolerances::h0`]).
    pub h: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SolveError {
    StepTooSmall { t: f64, h: f64 },
    TooManySteps { t: f64 },
    NonFinite { t: f64 },
    SingularMatrix { t: f64 },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::StepTooSmall { t, h } => write!(f, "step size {h:e} too small at t = {t}"),
            SolveError::TooManySteps { t } => write!(f, "step limit reached at t = {t}"),
            SolveError::NonFinite { t } => write!(f, "non-finite state at t = {t}"),
            SolveError::SingularMatrix { t } => write!(f, "singular iteration matrix at t = {t}"),
        }
    }
}

impl std::error::Error for SolveError {}

pub(crate) trait Stepper {
    /// Exponent `k` of the error estimate, err ∝ h^k; the standard controller uses `e^(-1/k)`.
    fn err_order(&self) -> f64;
    /// Initialise at `(t, x)` (computes the first derivative).
    fn init<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats);
    /// Attempt a step; returns the scaled error norm (≤ 1 accepts). The candidate is kept inside.
    fn attempt<S: OdeSystem>(
        &mut self,
        sys: &S,
        t: f64,
        x: &[f64],
        h: f64,
        tol: &Tolerances,
        stats: &mut Stats,
    ) -> Result<f64, SolveError>;
    /// Accept the last attempt: write the new state into `x` and prepare dense output.
    fn accept(&mut self, x_old: &[f64], h: f64, x: &mut [f64]);
    /// Called once after an accepted step `[t, t + h]`, before its first [`Stepper::dense`] call
    /// (only if dense output is needed): methods whose interpolant needs extra stages compute them
    /// here.
    fn prepare_dense<S: OdeSystem>(&mut self, _sys: &S, _t: f64, _h: f64, _stats: &mut Stats) {}
    /// Dense output at fraction `theta` of the last accepted step started from `x_old`.
    fn dense(&self, theta: f64, out: &mut [f64]);
    /// Derivative at the current point (used for the initial step guess).
    fn f0(&self) -> &[f64];
    /// The largest `|f_c|` over the stages of the last accepted step (component `c`'s rate
    /// sampled across it), or infinity for a method that does not keep its stages.
    fn stage_rate(&self, _c: usize) -> f64 {
        f64::INFINITY
    }
    /// Factor for the next step size after an attempt of size `h` with error norm `e` (called
    /// after [`Stepper::accept`] when accepted). `None` selects the driver's standard controller.
    fn step_factor(&mut self, _e: f64, _h: f64, _accepted: bool) -> Option<f64> {
        None
    }
}

pub(crate) fn err_norm(err: &[f64], x0: &[f64], x1: &[f64], tol: &Tolerances) -> f64 {
    let n = err.len().max(1);
    let mut s = 0.0;
    for i in 0..err.len() {
        let sc = tol.atol + tol.rtol * x0[i].abs().max(x1[i].abs());
        let e = err[i] / sc;
        s += e * e;
    }
    (s / n as f64).sqrt()
}

/// Banded finite-difference Jacobian by Curtis–Powell–Reid column grouping: the columns
/// `g, g + w, g + 2w, …` (`w = kl + ku + 1`) touch disjoint rows, so one evaluation of `f` per
/// group `g < w` gives all of them. `f0 = f(t, x)`; `incr(x_j)` is the nominal increment, rounded
/// so that `x_j + δ_j` is exact. `ytmp` and `ftmp` are work vectors; `jac` receives the band
/// storage of [`OdeSystem::jacobian_banded`]. Returns the number of evaluations of `f`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fd_jacobian_banded<S: OdeSystem>(
    sys: &S,
    t: f64,
    x: &[f64],
    f0: &[f64],
    (kl, ku): (usize, usize),
    incr: impl Fn(f64) -> f64,
    ytmp: &mut [f64],
    ftmp: &mut [f64],
    jac: &mut [f64],
) -> usize {
    let n = x.len();
    let w = kl + ku + 1;
    let groups = w.min(n);
    ytmp.copy_from_slice(x);
    for g in 0..groups {
        for j in (g..n).step_by(w) {
            ytmp[j] = x[j] + incr(x[j]);
        }
        sys.rhs(t, ytmp, ftmp);
        for j in (g..n).step_by(w) {
            let d = ytmp[j] - x[j];
            for i in j.saturating_sub(ku)..=(j + kl).min(n - 1) {
                jac[j * w + ku + i - j] = (ftmp[i] - f0[i]) / d;
            }
            ytmp[j] = x[j];
        }
    }
    groups
}

// ---------------------------------------------------------------------------------------------
// Dormand–Prince 5(4)

struct Dopri5 {
    k: [Vec<f64>; 7],
    y1: Vec<f64>,
    ytmp: Vec<f64>,
    err: Vec<f64>,
    rcont: [Vec<f64>; 5],
}

const C2: f64 = 1.0 / 5.0;
const C3: f64 = 3.0 / 10.0;
const C4: f64 = 4.0 / 5.0;
const C5: f64 = 8.0 / 9.0;
const A21: f64 = 1.0 / 5.0;
const A31: f64 = 3.0 / 40.0;
const A32: f64 = 9.0 / 40.0;
const A41: f64 = 44.0 / 45.0;
const A42: f64 = -56.0 / 15.0;
const A43: f64 = 32.0 / 9.0;
const A51: f64 = 19372.0 / 6561.0;
const A52: f64 = -25360.0 / 2187.0;
const A53: f64 = 64448.0 / 6561.0;
const A54: f64 = -212.0 / 729.0;
const A61: f64 = 9017.0 / 3168.0;
const A62: f64 = -355.0 / 33.0;
const A63: f64 = 46732.0 / 5247.0;
const A64: f64 = 49.0 / 176.0;
const A65: f64 = -5103.0 / 18656.0;
const A71: f64 = 35.0 / 384.0;
const A73: f64 = 500.0 / 1113.0;
const A74: f64 = 125.0 / 192.0;
const A75: f64 = -2187.0 / 6784.0;
const A76: f64 = 11.0 / 84.0;
const E1: f64 = 71.0 / 57600.0;
const E3: f64 = -71.0 / 16695.0;
const E4: f64 = 71.0 / 1920.0;
const E5: f64 = -17253.0 / 339200.0;
const E6: f64 = 22.0 / 525.0;
const E7: f64 = -1.0 / 40.0;
const D1: f64 = -12715105075.0 / 11282082432.0;
const D3: f64 = 87487479700.0 / 32700410799.0;
const D4: f64 = -10690763975.0 / 1880347072.0;
const D5: f64 = 701980252875.0 / 199316789632.0;
const D6: f64 = -1453857185.0 / 822651844.0;
const D7: f64 = 69997945.0 / 29380423.0;

impl Dopri5 {
    fn new(n: usize) -> Self {
        let v = || vec![0.0; n];
        Self {
            k: [v(), v(), v(), v(), v(), v(), v()],
            y1: v(),
            ytmp: v(),
            err: v(),
            rcont: [v(), v(), v(), v(), v()],
        }
    }
}

impl Stepper for Dopri5 {
    fn err_order(&self) -> f64 {
        5.0
    }
    fn init<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats) {
        sys.rhs(t, x, &mut self.k[0]);
        stats.rhs_evals += 1;
    }
    fn attempt<S: OdeSystem>(
        &mut self,
        sys: &S,
        t: f64,
        x: &[f64],
        h: f64,
        tol: &Tolerances,
        stats: &mut Stats,
    ) -> Result<f64, SolveError> {
        let n = x.len();
        let [k1, k2, k3, k4, k5, k6, k7] = &mut self.k;
        let y = &mut self.ytmp;
        for i in 0..n {
            y[i] = x[i] + h * A21 * k1[i];
        }
        sys.rhs(t + C2 * h, y, k2);
        for i in 0..n {
            y[i] = x[i] + h * (A31 * k1[i] + A32 * k2[i]);
        }
        sys.rhs(t + C3 * h, y, k3);
        for i in 0..n {
            y[i] = x[i] + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i]);
        }
        sys.rhs(t + C4 * h, y, k4);
        for i in 0..n {
            y[i] = x[i] + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i]);
        }
        sys.rhs(t + C5 * h, y, k5);
        for i in 0..n {
            y[i] = x[i] + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i]);
        }
        sys.rhs(t + h, y, k6);
        let y1 = &mut self.y1;
        for i in 0..n {
            y1[i] = x[i] + h * (A71 * k1[i] + A73 * k3[i] + A74 * k4[i] + A75 * k5[i] + A76 * k6[i]);
        }
        sys.rhs(t + h, y1, k7);
        stats.rhs_evals += 6;
        for i in 0..n {
            self.err[i] = h * (E1 * k1[i] + E3 * k3[i] + E4 * k4[i] + E5 * k5[i] + E6 * k6[i] + E7 * k7[i]);
        }
        if !y1.iter().all(|v| v.is_finite()) {
            return Ok(f64::INFINITY);
        }
        Ok(err_norm(&self.err, x, y1, tol))
    }
    fn accept(&mut self, x_old: &[f64], h: f64, x: &mut [f64]) {
        let n = x.len();
        let [k1, _k2, k3, k4, k5, k6, k7] = &self.k;
        let [r1, r2, r3, r4, r5] = &mut self.rcont;
        for i in 0..n {
            let ydiff = self.y1[i] - x_old[i];
            let bspl = h * k1[i] - ydiff;
            r1[i] = x_old[i];
            r2[i] = ydiff;
            r3[i] = bspl;
            r4[i] = ydiff - h * k7[i] - bspl;
            r5[i] = h * (D1 * k1[i] + D3 * k3[i] + D4 * k4[i] + D5 * k5[i] + D6 * k6[i] + D7 * k7[i]);
        }
        x.copy_from_slice(&self.y1);
        // FSAL: the last stage is the first of the next step.
        self.k.swap(0, 6);
    }
    fn dense(&self, th: f64, out: &mut [f64]) {
        let th1 = 1.0 - th;
        let [r1, r2, r3, r4, r5] = &self.rcont;
        for i in 0..out.len() {
            out[i] = r1[i] + th * (r2[i] + th1 * (r3[i] + th * (r4[i] + th1 * r5[i])));
        }
    }
    fn f0(&self) -> &[f64] {
        &self.k[0]
    }
}

// ---------------------------------------------------------------------------------------------
// Rosenbrock 2(3), Shampine & Reichelt (1997)

struct Rosenbrock23 {
    n: usize,
    f0: Vec<f64>,
    f1: Vec<f64>,
    f2: Vec<f64>,
    k1: Vec<f64>,
    k2: Vec<f64>,
    k3: Vec<f64>,
    dfdt: Vec<f64>,
    shape: Shape,
    /// `J`: row-major, or in band storage (see [`OdeSystem::jacobian_banded`]).
    jac: Vec<f64>,
    /// `I − h d J`, factored.
    w: Lu<f64>,
    y1: Vec<f64>,
    ytmp: Vec<f64>,
    err: Vec<f64>,
    x_old: Vec<f64>,
    h: f64,
    jac_fresh: bool,
}

const RD: f64 = 1.0 / (2.0 + std::f64::consts::SQRT_2);
const RE32: f64 = 6.0 + std::f64::consts::SQRT_2;

impl Rosenbrock23 {
    fn new(n: usize, band: Option<(usize, usize)>) -> Self {
        let v = || vec![0.0; n];
        let shape = Shape::of(n, band);
        Self {
            n,
            f0: v(),
            f1: v(),
            f2: v(),
            k1: v(),
            k2: v(),
            k3: v(),
            dfdt: v(),
            shape,
            jac: vec![0.0; shape.jac_len(n)],
            w: Lu::new(n, shape),
            y1: v(),
            ytmp: v(),
            err: v(),
            x_old: v(),
            h: 0.0,
            jac_fresh: false,
        }
    }

    fn jacobian<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], h: f64, stats: &mut Stats) {
        let n = self.n;
        stats.jac_evals += 1;
        if let Shape::Band { kl, ku } = self.shape {
            if !sys.jacobian_banded(t, x, &mut self.jac) {
                // Forward differences, columns grouped.
                let evals = fd_jacobian_banded(
                    sys,
                    t,
                    x,
                    &self.f0,
                    (kl, ku),
                    |xj| (f64::EPSILON.sqrt() * xj.abs().max(1e-5)).max(1e-12),
                    &mut self.ytmp,
                    &mut self.f2,
                    &mut self.jac,
                );
                stats.rhs_evals += evals;
                stats.jac_rhs_evals += evals;
            }
        } else if !sys.jacobian(t, x, &mut self.jac) {
            // Forward differences, column by column.
            self.ytmp.copy_from_slice(x);
            for j in 0..n {
                let dj = (f64::EPSILON.sqrt() * x[j].abs().max(1e-5)).max(1e-12);
                self.ytmp[j] = x[j] + dj;
                sys.rhs(t, &self.ytmp, &mut self.f2);
                stats.rhs_evals += 1;
                stats.jac_rhs_evals += 1;
                for i in 0..n {
                    self.jac[i * n + j] = (self.f2[i] - self.f0[i]) / dj;
                }
                self.ytmp[j] = x[j];
            }
        }
        // Time derivative of f by a forward difference (the inputs are smooth in t).
        let dt = f64::EPSILON.sqrt() * t.abs().max(h.abs()).max(1e-8);
        sys.rhs(t + dt, x, &mut self.f2);
        stats.rhs_evals += 1;
        for i in 0..n {
            self.dfdt[i] = (self.f2[i] - self.f0[i]) / dt;
        }
        self.jac_fresh = true;
    }
}

impl Stepper for Rosenbrock23 {
    fn err_order(&self) -> f64 {
        3.0
    }
    fn init<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats) {
        sys.rhs(t, x, &mut self.f0);
        stats.rhs_evals += 1;
        self.jac_fresh = false;
    }
    fn attempt<S: OdeSystem>(
        &mut self,
        sys: &S,
        t: f64,
        x: &[f64],
        h: f64,
        tol: &Tolerances,
        stats: &mut Stats,
    ) -> Result<f64, SolveError> {
        let n = self.n;
        if !self.jac_fresh {
            self.jacobian(sys, t, x, h, stats);
        }
        match self.shape {
            Shape::Dense => {
                for i in 0..n {
                    for j in 0..n {
                        self.w.a[i * n + j] = if i == j { 1.0 } else { 0.0 } - h * RD * self.jac[i * n + j];
                    }
                }
            }
            Shape::Band { .. } => self.w.set_band(&self.jac, |v| 0.0 - h * RD * v, |a| a + 1.0),
        }
        if !self.w.factor() {
            return Err(SolveError::SingularMatrix { t });
        }
        for i in 0..n {
            self.k1[i] = self.f0[i] + h * RD * self.dfdt[i];
        }
        self.w.solve(&mut self.k1);
        for i in 0..n {
            self.ytmp[i] = x[i] + 0.5 * h * self.k1[i];
        }
        sys.rhs(t + 0.5 * h, &self.ytmp, &mut self.f1);
        for i in 0..n {
            self.k2[i] = self.f1[i] - self.k1[i];
        }
        self.w.solve(&mut self.k2);
        for i in 0..n {
            self.k2[i] += self.k1[i];
            self.y1[i] = x[i] + h * self.k2[i];
        }
        sys.rhs(t + h, &self.y1, &mut self.f2);
        for i in 0..n {
            self.k3[i] =
                self.f2[i] - RE32 * (self.k2[i] - self.f1[i]) - 2.0 * (self.k1[i] - self.f0[i]) + h * RD * self.dfdt[i];
        }
        self.w.solve(&mut self.k3);
        stats.rhs_evals += 2;
        for i in 0..n {
            self.err[i] = h / 6.0 * (self.k1[i] - 2.0 * self.k2[i] + self.k3[i]);
        }
        if !self.y1.iter().all(|v| v.is_finite()) {
            return Ok(f64::INFINITY);
        }
        Ok(err_norm(&self.err, x, &self.y1, tol))
    }
    fn accept(&mut self, x_old: &[f64], h: f64, x: &mut [f64]) {
        self.x_old.copy_from_slice(x_old);
        self.h = h;
        x.copy_from_slice(&self.y1);
        std::mem::swap(&mut self.f0, &mut self.f2);
        self.jac_fresh = false;
    }
    fn dense(&self, s: f64, out: &mut [f64]) {
        let a = s * (1.0 - s) / (1.0 - 2.0 * RD);
        let b = s * (s - 2.0 * RD) / (1.0 - 2.0 * RD);
        for i in 0..out.len() {
            out[i] = self.x_old[i] + self.h * (a * self.k1[i] + b * self.k2[i]);
        }
    }
    fn f0(&self) -> &[f64] {
        &self.f0
    }
}

// ---------------------------------------------------------------------------------------------
// Driver

/// Integrate `sys` from `(t0, x0)` to `t1 > t0`. `out` is called with the state at every time of
/// `saveat` that lies in `[t0, t1]` (ascending), up to a terminal event if one occurs.
#[allow(clippy::too_many_arguments)]
pub fn solve<S: OdeSystem>(
    sys: &S,
    method: Method,
    tol: &Tolerances,
    t0: f64,
    x0: &[f64],
    t1: f64,
    saveat: &[f64],
    out: &mut dyn FnMut(f64, &[f64]),
) -> Result<Outcome, SolveError> {
    Integrator::new(method).solve(sys, tol, t0, x0, t1, saveat, out)
}

/// [`solve`] for a caller that restarts often (after every event, as the describing functions'
/// period maps do, every few steps): the explicit methods' stage vectors and the driver's
/// buffers are allocated once and reused by every call, with results bit for bit those of
/// [`solve`] (each call starts the method afresh: its first right-hand side, no FSAL carried).
/// The implicit methods, whose setup depends on the tolerances and the Jacobian's band, are
/// built anew per call.
pub struct Integrator {
    method: Method,
    dopri5: Option<(usize, Dopri5)>,
    dop853: Option<(usize, Dop853)>,
    work: Work,
}

impl Integrator {
    pub fn new(method: Method) -> Self {
        Self {
            method,
            dopri5: None,
            dop853: None,
            work: Work::default(),
        }
    }

    /// As [`solve`] with this integrator's method.
    #[allow(clippy::too_many_arguments)]
    pub fn solve<S: OdeSystem>(
        &mut self,
        sys: &S,
        tol: &Tolerances,
        t0: f64,
        x0: &[f64],
        t1: f64,
        saveat: &[f64],
        out: &mut dyn FnMut(f64, &[f64]),
    ) -> Result<Outcome, SolveError> {
        let n = sys.dim();
        assert_eq!(x0.len(), n, "initial state has the wrong dimension");
        let w = &mut self.work;
        match self.method {
            Method::Dopri5 => {
                let st = reuse(&mut self.dopri5, n, Dopri5::new);
                drive(sys, st, w, tol, t0, x0, t1, saveat, out)
            }
            Method::Dop853 => {
                let st = reuse(&mut self.dop853, n, Dop853::new);
                drive(sys, st, w, tol, t0, x0, t1, saveat, out)
            }
            Method::Rosenbrock23 => {
                let mut st = Rosenbrock23::new(n, sys.jacobian_band());
                drive(sys, &mut st, w, tol, t0, x0, t1, saveat, out)
            }
            Method::Dop853Radau5 => {
                let mut st = Switching::new(n, sys.jacobian_band(), tol);
                drive(sys, &mut st, w, tol, t0, x0, t1, saveat, out)
            }
            Method::Radau5 => {
                let mut st = Radau5::new(n, sys.jacobian_band(), tol);
                drive(sys, &mut st, w, tol, t0, x0, t1, saveat, out)
            }
        }
    }
}

/// The stepper kept in `slot` if it was built for dimension `n`, else a new one.
fn reuse<M>(slot: &mut Option<(usize, M)>, n: usize, new: impl FnOnce(usize) -> M) -> &mut M {
    if slot.as_ref().is_none_or(|(m, _)| *m != n) {
        *slot = Some((n, new(n)));
    }
    &mut slot.as_mut().expect("just filled").1
}

/// The driver's buffers ([`Integrator`] keeps them across calls; every call sets them anew).
#[derive(Default)]
struct Work {
    x: Vec<f64>,
    x_old: Vec<f64>,
    xd: Vec<f64>,
    g_old: Vec<f64>,
    g_new: Vec<f64>,
    g_stop: Vec<f64>,
    /// Guards whose crossing the ends and samples of the current step bracket.
    bracketed: Vec<bool>,
    /// Event values at the interior sample points of a step, sample-major.
    g_in: Vec<f64>,
}

/// `v` as `len` copies of `value`, keeping its allocation.
fn fill<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

/// Whether a terminal guard at exactly zero where the integration starts leaves zero in its
/// direction by the step's next point (for the events that ask for it,
/// [`crate::OdeSystem::event_from_zero`]). A hybrid restart after a located event often starts on
/// another guard's zero exactly (the Switch Model's band edge `g = η` it just entered through),
/// and [`triggers`] counts only crossings from the pre-crossing side: such a guard would never
/// fire, and the mode would outlive its region (thesis Fig 3.9 until 2026-12-05: a body creeping
/// at v > η on the minus branch's field).
fn leaves_zero(dir: Direction, g0: f64, g1: f64) -> bool {
    g0 == 0.0
        && match dir {
            Direction::Rising => g1 > 0.0,
            Direction::Falling => g1 < 0.0,
            Direction::Either => g1 != 0.0,
        }
}

fn triggers(dir: Direction, g0: f64, g1: f64) -> bool {
    let rising = g0 < 0.0 && g1 >= 0.0;
    let falling = g0 > 0.0 && g1 <= 0.0;
    match dir {
        Direction::Rising => rising,
        Direction::Falling => falling,
        Direction::Either => rising || falling,
    }
}

#[allow(clippy::too_many_arguments)]
fn drive<S: OdeSystem, M: Stepper>(
    sys: &S,
    st: &mut M,
    work: &mut Work,
    tol: &Tolerances,
    t0: f64,
    x0: &[f64],
    t1: f64,
    saveat: &[f64],
    out: &mut dyn FnMut(f64, &[f64]),
) -> Result<Outcome, SolveError> {
    let n = x0.len();
    let ne = sys.n_events();
    let mut stats = Stats::default();
    let samples = if ne > 0 { sys.event_samples() } else { 0 };
    let Work {
        x,
        x_old,
        xd,
        g_old,
        g_new,
        g_stop,
        bracketed,
        g_in,
    } = work;
    // `g_old` and `g_new` trade places after every step.
    let (mut g_old, mut g_new) = (g_old, g_new);
    x.clear();
    x.extend_from_slice(x0);
    x_old.clear();
    x_old.extend_from_slice(x0);
    fill(xd, n, 0.0);
    fill(g_old, ne, 0.0);
    fill(g_new, ne, 0.0);
    fill(g_stop, ne, 0.0);
    fill(bracketed, ne, false);
    fill(g_in, samples * ne, 0.0);
    let mut passed = Vec::new();
    let mut t = t0;
    let mut save_i = saveat.partition_point(|&s| s < t0);
    while save_i < saveat.len() && saveat[save_i] == t0 {
        out(t0, x);
        save_i += 1;
    }
    if t1 <= t0 {
        return Ok(Outcome {
            t,
            x: x.clone(),
            event: None,
            passed_events: passed,
            stats,
            h: 0.0,
        });
    }
    sys.events(t, x, g_old);
    st.init(sys, t, x, &mut stats);

    // Initial step: the caller's (a restart carrying the step before it), else Hairer's
    // heuristic, simplified.
    let span = t1 - t0;
    let h0 = if tol.h0 > 0.0 {
        tol.h0
    } else {
        let mut d0 = 0.0f64;
        let mut d1 = 0.0f64;
        for i in 0..n {
            let sc = tol.atol + tol.rtol * x[i].abs();
            d0 = d0.max((x[i] / sc).abs());
            d1 = d1.max((st.f0()[i] / sc).abs());
        }
        if d0 < 1e-5 || d1 < 1e-5 {
            1e-6 * span.max(1e-3)
        } else {
            0.01 * d0 / d1
        }
    };
    let mut h = h0.min(span).min(tol.hmax).max(1e-12 * span);
    let p = 1.0 / st.err_order();
    let mut reject_streak = 0usize;
    // The first accepted step of this integration ([`leaves_zero`]).
    let mut at_start = true;
    loop {
        if stats.accepted + stats.rejected >= tol.max_steps {
            return Err(SolveError::TooManySteps { t });
        }
        let last = t + h >= t1 || (t1 - (t + h)) < 1e-12 * span;
        // The controller's step before it is cut to end at t1 (what a restart should use).
        let h_full = h;
        if last {
            h = t1 - t;
        }
        let e = st.attempt(sys, t, x, h, tol, &mut stats)?;
        let accepted = e <= 1.0; // false for NaN as well
        if !accepted {
            stats.rejected += 1;
            reject_streak += 1;
            let fac = st.step_factor(e, h, false).unwrap_or(if e.is_finite() {
                (0.9 * e.powf(-p)).clamp(0.1, 0.9)
            } else {
                0.1
            });
            h *= fac;
            // Relative to |t| (a long span may start with tiny steps, e.g. chemical kinetics).
            if h < 1e-14 * t.abs().max(1e-6 * span) {
                return Err(SolveError::StepTooSmall { t, h });
            }
            if reject_streak > 200 {
                return Err(SolveError::NonFinite { t });
            }
            continue;
        }
        reject_streak = 0;
        stats.accepted += 1;
        x_old.copy_from_slice(x);
        st.accept(x_old, h, x);
        let t_new = if last { t1 } else { t + h };
        let mut dense_ready = false;

        // Events: earliest terminal crossing inside the step.
        let mut stop: Option<(usize, f64, f64)> = None;
        let first_new = passed.len();
        if ne > 0 {
            sys.events(t_new, x, g_new);
            // This step's interior samples: none where every event watches the sign of a state
            // component that, at one end of the step, is further from zero than twice the step
            // times its largest rate over the stages (it cannot reach zero inside the step).
            let samples = if samples > 0 && (0..ne).all(|i| sign_kept(sys, &*st, i, h, g_old[i], g_new[i])) {
                0
            } else {
                samples
            };
            if samples > 0 {
                if !dense_ready {
                    st.prepare_dense(sys, t, h, &mut stats);
                    dense_ready = true;
                }
                for (k, g) in g_in.chunks_exact_mut(ne).take(samples).enumerate() {
                    let th = (k + 1) as f64 / (samples + 1) as f64;
                    st.dense(th, xd);
                    sys.events(t + th * h, xd, g);
                }
            }
            // Event `i` at point `k` of the step (0 its start, 1 … samples the samples, then its
            // end), and the step fraction of that point.
            let g_at = |i: usize, k: usize| match k {
                0 => g_old[i],
                k if k <= samples => g_in[(k - 1) * ne + i],
                _ => g_new[i],
            };
            let frac = |k: usize| k as f64 / (samples + 1) as f64;
            for i in 0..ne {
                let kind = sys.event_kind(i);
                // The earliest pair of neighbouring points (ends and samples) that brackets a
                // crossing.
                let at = |k: usize| g_at(i, k);
                let bracket = (0..=samples).find(|&k| {
                    triggers(kind.direction, at(k), at(k + 1))
                        || (at_start
                            && k == 0
                            && kind.terminal
                            && sys.event_from_zero(i)
                            && leaves_zero(kind.direction, at(0), at(1)))
                });
                bracketed[i] = bracket.is_some();
                if let Some(k) = bracket {
                    if !dense_ready {
                        st.prepare_dense(sys, t, h, &mut stats);
                        dense_ready = true;
                    }
                    let range = (frac(k), if k == samples { 1.0 } else { frac(k + 1) });
                    let th = locate(sys, &*st, i, t, h, range, (at(k), at(k + 1)), xd, ne);
                    let te = t + th * h;
                    if kind.terminal {
                        if stop.is_none_or(|(_, ts, _)| te < ts) {
                            stop = Some((i, te, th));
                        }
                    } else {
                        passed.push((i, te));
                    }
                }
            }
            // A crossing that the rest of the step undid brackets nothing between sample points:
            // a guard that rose through zero before the stop and fell back by the step's end
            // (e.g. a threshold passed and recrossed when the motion reverses in the part of the
            // step beyond a stop in velocity, which never happens). The guards at the stop show
            // it; the earliest such crossing becomes the stop, and so on until none is left.
            // Guards already bracketed were located above and keep their order (coincident
            // crossings, re-located on another bracket, could otherwise swap by rounding).
            while let Some((i0, _, th)) = stop {
                st.dense(th, xd);
                sys.events(t + th * h, xd, g_stop);
                // The last end or sample point before the stop.
                let k = ((th * (samples + 1) as f64).ceil() as usize).clamp(1, samples + 1) - 1;
                let mut earlier: Option<(usize, f64, f64)> = None;
                for j in (0..ne).filter(|&j| j != i0 && !bracketed[j]) {
                    let kind = sys.event_kind(j);
                    let gk = g_at(j, k);
                    let starts_on_zero =
                        at_start && k == 0 && sys.event_from_zero(j) && leaves_zero(kind.direction, gk, g_stop[j]);
                    if !kind.terminal || !(triggers(kind.direction, gk, g_stop[j]) || starts_on_zero) {
                        continue;
                    }
                    let thj = locate(sys, &*st, j, t, h, (frac(k), th), (gk, g_stop[j]), xd, ne);
                    if thj < th && earlier.is_none_or(|(_, _, te)| thj < te) {
                        earlier = Some((j, t + thj * h, thj));
                    }
                }
                match earlier {
                    Some(e) => stop = Some(e),
                    None => break,
                }
            }
            // Several crossings inside one step are reported in time order (then by index).
            passed[first_new..].sort_unstable_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            if let Some((_, ts, _)) = stop {
                // Non-terminal events after the stop did not happen.
                passed.retain(|(_, te)| *te <= ts);
            }
        }
        let t_end = stop.map_or(t_new, |(_, ts, _)| ts);
        while save_i < saveat.len() && saveat[save_i] <= t_end {
            let s = saveat[save_i];
            if s >= t_new {
                out(s, x);
            } else {
                if !dense_ready {
                    st.prepare_dense(sys, t, h, &mut stats);
                    dense_ready = true;
                }
                st.dense((s - t) / h, xd);
                out(s, xd);
            }
            save_i += 1;
        }
        if let Some((i, ts, th)) = stop {
            // The state at exactly the fraction the locator settled on, where the event function
            // already has its post-crossing sign: recomputing the fraction from `ts` could round
            // to a point a hair before the crossing, and a restart from there would find the same
            // crossing again.
            st.dense(th, xd);
            return Ok(Outcome {
                t: ts,
                x: xd.clone(),
                event: Some(i),
                passed_events: passed,
                stats,
                h,
            });
        }
        if !x.iter().all(|v| v.is_finite()) {
            return Err(SolveError::NonFinite { t: t_new });
        }
        t = t_new;
        at_start = false;
        std::mem::swap(&mut g_old, &mut g_new);
        if last {
            return Ok(Outcome {
                t,
                x: x.clone(),
                event: None,
                passed_events: passed,
                stats,
                h: h_full,
            });
        }
        let fac = st.step_factor(e, h, true).unwrap_or(if e == 0.0 {
            5.0
        } else {
            (0.9 * e.powf(-p)).clamp(0.2, 5.0)
        });
        h = (h * fac).min(tol.hmax);
    }
}

/// Whether event `i` keeps its sign over the accepted step of size `h` (values `g0`, `g1` at its
/// ends) for a reason other than sampling: the event watches a state component
/// ([`OdeSystem::event_component`]) whose rate, sampled at the method's stages
/// ([`Stepper::stage_rate`]), is too small by a factor of two to carry it from either end to zero
/// within the step.
fn sign_kept<S: OdeSystem, M: Stepper>(sys: &S, st: &M, i: usize, h: f64, g0: f64, g1: f64) -> bool {
    let Some(c) = sys.event_component(i) else {
        return false;
    };
    g0 != 0.0 && (g0 > 0.0) == (g1 > 0.0) && g0.abs().max(g1.abs()) > 2.0 * h * st.stage_rate(c)
}

/// Locate the zero of event `i` inside the step fractions `range` of the accepted step
/// `[t, t + h]` (event values `g` at its ends) on the dense output (Illinois-modified regula
/// falsi, falling back to bisection), to ~1e-15 relative in time. Returns the step fraction of
/// the bracket end on the far side of the crossing.
#[allow(clippy::too_many_arguments)]
fn locate<S: OdeSystem, M: Stepper>(
    sys: &S,
    st: &M,
    i: usize,
    t: f64,
    h: f64,
    range: (f64, f64),
    (ga, gb): (f64, f64),
    xd: &mut [f64],
    ne: usize,
) -> f64 {
    let mut g = [0.0f64; 64];
    let mut gv = if ne > 64 { vec![0.0; ne] } else { Vec::new() };
    let mut eval = |th: f64| -> f64 {
        st.dense(th, xd);
        if ne > 64 {
            sys.events(t + th * h, xd, &mut gv);
            gv[i]
        } else {
            sys.events(t + th * h, xd, &mut g[..ne]);
            g[i]
        }
    };
    let (mut a, mut b) = range;
    let (mut fa, mut fb) = (ga, gb);
    if fb == 0.0 {
        // Find the first point where it reached zero: still bracket to be safe.
    }
    let mut side = 0i32;
    for _ in 0..200 {
        if (b - a) * h.abs() <= 4.0 * f64::EPSILON * (t.abs() + h.abs()) {
            break;
        }
        let mut c = if fa != fb {
            (a * fb - b * fa) / (fb - fa)
        } else {
            0.5 * (a + b)
        };
        if !(c > a && c < b) {
            c = 0.5 * (a + b);
        }
        let fc = eval(c);
        if fc == 0.0 {
            // Move the right end onto the root, keep bracketing from the left for the first zero.
            b = c;
            fb = fc;
            if side == 1 {
                fa *= 0.5;
            }
            side = 1;
            continue;
        }
        if (fc > 0.0) == (fa > 0.0) {
            a = c;
            fa = fc;
            if side == -1 {
                fb *= 0.5;
            }
            side = -1;
        } else {
            b = c;
            fb = fc;
            if side == 1 {
                fa *= 0.5;
            }
            side = 1;
        }
    }
    b
}
