//! Generic numerical core: adaptive ODE integrators with dense output, event location, a hybrid
//! (mode-switching) driver and the analysis of periodic input–output data.
//!
//! This crate owns numerics only. It knows nothing of friction: a system is anything that
//! implements [`OdeSystem`] (or [`hybrid::HybridSystem`]). A problem (system, initial state, time
//! span), an algorithm ([`Method`] with [`Tolerances`]) and a solution (values at the requested
//! save times plus [`Outcome`]) are separate values; events are data declared by the system, not
//! special cases inside the steppers.

// Stage arithmetic updates several equally long buffers in lockstep; index loops read best.
#![allow(clippy::needless_range_loop)]

pub mod analysis;
mod dop853;
pub mod hybrid;
pub mod limit_cycle;
mod linalg;
mod radau;
mod steppers;
pub mod switch;

pub use steppers::{solve, Method, Outcome, SolveError, Stats, Tolerances};

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
    fn jacobian(&self, _t: f64, _x: &[f64], _jac: &mut [f64]) -> bool {
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
}
