//! Generic numerical core: adaptive ODE integrators with dense output, event location, a hybrid
//! (mode-switching) driver and the analysis of periodic input–output data.
//!
//! This crate owns numerics only. It knows nothing of friction: a system is anything that
//! implements [`OdeSystem`] (or [`hybrid::HybridSystem`]). A problem (system, initial state, time
//! span), an algorithm ([`Method`] with [`Tolerances`]) and a solution (values at the requested
//! save times plus [`Outcome`]) are separate values; events are data declared by the system, not
//! special cases inside the steppers. A system whose Jacobian is banded (chains of elements
//! coupled to their neighbours) declares it with [`OdeSystem::jacobian_band`], and the stiff
//! methods then work with band matrices (see [`OdeSystem::jacobian_banded`] for the storage).

// Stage arithmetic updates several equally long buffers in lockstep; index loops read best.
#![allow(clippy::needless_range_loop)]

pub mod affine;
pub mod analysis;
pub mod describing;
mod dop853;
pub mod expint;
pub mod expint_path;
pub mod expint_periodic;
pub mod expquad;
mod fd_jacobian;
pub mod fit;
pub mod hybrid;
pub mod kronrod;
pub mod limit_cycle;
mod linalg;
pub mod phi;
mod radau;
pub mod shooting;
mod steppers;
pub mod switch;
mod switching;

/// The one root finder (bisection, Illinois regula falsi), its own leaf crate so that `fric-models`
/// uses it too.
pub use fric_roots as roots;
pub use steppers::{solve, Integrator, Method, Outcome, SolveError, Stats, Tolerances};

/// Direction in which an event function must cross zero to trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Rising,
    Falling,
    Either,
}

/// How one event function is handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventKind {
    pub direction: Direction,
    /// A terminal event stops the integration at the located time.
    pub terminal: bool,
}

/// A first-order ODE `x' = f(t, x)` with optional Jacobian and event functions.
pub trait OdeSystem {
    fn dim(&self) -> usize;
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]);
    /// Row-major `df/dx` (dim × dim). Return `false` to let the solver use finite differences.
    /// Not called if the system declares a band ([`OdeSystem::jacobian_band`]).
    fn jacobian(&self, _t: f64, _x: &[f64], _jac: &mut [f64]) -> bool {
        false
    }
    /// Declare that `df/dx` is banded: `Some((kl, ku))` when `∂f_i/∂x_j = 0` for `i − j > kl`
    /// and `j − i > ku` (e.g. `(1, 1)` for a chain coupled to its nearest neighbours). The stiff
    /// methods ([`Method::Radau5`], [`Method::Rosenbrock23`]) then store the Jacobian in band
    /// form, factor their iteration matrices as band matrices (`O(n (kl + ku) kl)` work instead
    /// of `O(n³)`), and evaluate a finite-difference Jacobian with `kl + ku + 1` evaluations of
    /// `f` instead of `n` (Curtis–Powell–Reid column grouping: columns `j, j + w, j + 2w, …`
    /// with `w = kl + ku + 1` are perturbed together). Bandwidths above `dim − 1` are clamped.
    /// A wrong declaration (a nonzero outside the band) is not detected: the finite-difference
    /// Jacobian would then be wrong, and the Newton iterations slow or divergent.
    fn jacobian_band(&self) -> Option<(usize, usize)> {
        None
    }
    /// Analytic banded `df/dx`, used when [`OdeSystem::jacobian_band`] returns `Some((kl, ku))`.
    /// `jac` has length `dim · (kl + ku + 1)` (with the clamped bandwidths) and uses LAPACK's
    /// general band storage, column by column: `∂f_i/∂x_j` goes to
    /// `jac[j · (kl + ku + 1) + ku + i − j]` ([`band_index`]) for
    /// `max(0, j − ku) ≤ i ≤ min(dim − 1, j + kl)`. Every such entry must be written (the buffer
    /// holds the previous Jacobian); the other slots (above row 0 or below row `dim − 1`) are
    /// ignored. Return `false` to let the solver use finite differences.
    fn jacobian_banded(&self, _t: f64, _x: &[f64], _jac: &mut [f64]) -> bool {
        false
    }
    fn n_events(&self) -> usize {
        0
    }
    fn events(&self, _t: f64, _x: &[f64], _g: &mut [f64]) {}
    fn event_kind(&self, _i: usize) -> EventKind {
        EventKind {
            direction: Direction::Either,
            terminal: true,
        }
    }
    /// Whether terminal event `i`, when it is exactly zero where the integration starts, fires as
    /// soon as it leaves zero in its direction. Off by default: a guard that sits at zero after a
    /// restart and rises may be one the jump is meant to leave behind (a Maxwell-slip element
    /// that just started to slip). A system whose guards bound a region it has just entered
    /// through another boundary (the Switch Model's band) turns it on.
    fn event_from_zero(&self, _i: usize) -> bool {
        false
    }
    /// Interior points of every accepted step (equally spaced) at which the event functions are
    /// also evaluated, on the dense output, besides the step's ends (as `interp_points` of
    /// DifferentialEquations.jl's `ContinuousCallback`). With the default 0 a pair of crossings
    /// inside one step (the sign is the same at both ends) goes unseen; a system whose event
    /// function can oscillate faster than the steps resolve (a velocity ringing through zero
    /// in pre-sliding) asks for samples, and every crossing pair that straddles one is found,
    /// the earliest first. Costs one dense-output preparation per step (3 right-hand sides for
    /// Dop853, none for Dopri5) and `n` event evaluations.
    fn event_samples(&self) -> usize {
        0
    }
    /// The state component whose sign event `i` is (`g_i(t, x) = x[c]`), if it is one. The
    /// driver then skips a step's interior samples where, at one end of the step, `|x[c]|`
    /// exceeds twice the step times the largest `|f_c|` over the method's stages (DOP853's 12
    /// stages and its end): `x[c]` cannot reach zero inside the step. The stages sample the rate
    /// across the step, so the factor two covers a rate that peaks between them. Where the
    /// method evaluates one component of its dense output apart (DOP853), the interior samples
    /// and the root finder read `x[c]` alone instead of calling [`OdeSystem::events`].
    fn event_component(&self, _i: usize) -> Option<usize> {
        None
    }
    /// Whether some terminal event declares its rate ([`OdeSystem::event_rate`]) and is watched
    /// for grazes. False by default, at no cost; true costs one right-hand side per accepted
    /// step (at its end, carried to the next step's start) and one per integration's start.
    fn event_rates(&self) -> bool {
        false
    }
    /// The rate `dg_i/dt` of terminal event `i` along the flow at `(t, x)`, given
    /// `f = f(t, x)`, or `None` (the default) for an event not watched for grazes. A watched
    /// event whose function stays on the pre-crossing side at both ends of a step while its rate
    /// turns from towards zero at the start to away from it at the end has an extremum inside
    /// the step: the driver locates it (the rate's zero on the dense output), and if the event
    /// function reaches zero there, the first crossing before it is the event (a crossing pair
    /// inside one step, which the ends alone never see, however small the excursion). Only
    /// an extremum whose rate changes sign between the ends is seen (one of an odd number).
    fn event_rate(&self, _i: usize, _t: f64, _x: &[f64], _f: &[f64]) -> Option<f64> {
        None
    }
    /// Number of quadrature outputs: integrals `∫ q_j(t, x) dt` from the integration's start
    /// that the driver carries outside the state and outside error control (the step sequence is
    /// that of the system without them; `steppers/quadrature.rs`). The observer of a save time
    /// then receives `dim + n_quadratures` values, the state followed by the integrals up to that
    /// time, and [`Outcome::quadrature`] holds them at the outcome's time. 0 by default.
    fn n_quadratures(&self) -> usize {
        0
    }
    /// The integrands `q(t, x)` of the quadrature outputs.
    fn integrands(&self, _t: f64, _x: &[f64], _q: &mut [f64]) {}
}

/// Position of `∂f_i/∂x_j` in the band storage of [`OdeSystem::jacobian_banded`] (LAPACK's
/// general band storage with `kl` sub- and `ku` super-diagonals): `j · (kl + ku + 1) + ku + i − j`.
/// Only meaningful inside the band, `j − ku ≤ i ≤ j + kl`.
pub const fn band_index(kl: usize, ku: usize, i: usize, j: usize) -> usize {
    debug_assert!(i + ku >= j && j + kl >= i, "(i, j) outside the band");
    j * (kl + ku + 1) + ku + i - j
}
