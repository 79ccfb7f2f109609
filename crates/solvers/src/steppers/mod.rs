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
//! ([`crate::fd_jacobian`]) and costs `kl + ku + 1` evaluations of `f` instead of `n`.
//!
//! All work buffers are allocated once per `solve` call; the step loop does not allocate.
//!
//! Files: this one holds the API types ([`Method`], [`Tolerances`], [`Stats`], [`Outcome`],
//! [`SolveError`]) and the [`Stepper`] trait every method implements; `dopri5.rs` and
//! `rosenbrock23.rs` the two methods defined here; `drive.rs` the driver ([`solve`],
//! [`Integrator`]: step-size control, save times); `events.rs` event detection and location.

mod dopri5;
mod drive;
mod events;
mod quadrature;
mod rosenbrock23;

pub use drive::{solve, Integrator};

use crate::OdeSystem;

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
    /// The quadrature outputs ([`OdeSystem::n_quadratures`]) from the start to `t` (empty if
    /// the system has none).
    pub quadrature: Vec<f64>,
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
    /// Component `c` of [`Stepper::dense`] alone, the same bits, or `None` where the method
    /// does not evaluate one component apart (then the driver takes the whole state).
    fn dense_component(&self, _theta: f64, _c: usize) -> Option<f64> {
        None
    }
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
