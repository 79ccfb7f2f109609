//! Describing functions from periodic steady states (Fourier coefficients (5.8) and the DF (5.9)
//! of report §5.3), their discontinuities, and the harmonic-balance condition `H(iω) N(a, ω) = −1`.
//!
//! A system [`Forced`] by `u(t) = a sin ωt` is integrated to its periodic steady state by shooting
//! ([`crate::shooting::shoot`]) on the states that enter the dynamics; a state that does not
//! (the position of an inertia whose friction depends only on velocity) may drift, and its drift
//! over one period is removed from the output before the fundamental is taken. The Fourier
//! integrals `∫ y sin ωt dt` and `∫ y cos ωt dt` are two extra ODE states, so they are as exact as
//! the integration (no sampling, no interpolation across kinks).
//!
//! Near break-away the DF of a friction model is almost discontinuous: [`refine_jump`] bisects a
//! jump between two amplitudes to a relative width of `1e-12`, and reports how far the DF still
//! jumps across it (a true discontinuity to double precision keeps a finite jump); [`refine_jumps`]
//! also refines the halves that bisection leaves, so that every jump between two grid points is
//! found whatever the grid. [`bisect_sign`]
//! and [`illinois`] locate the crossings and the intersection in `(a, ω)`.
//!
//! Files: this one holds the forced system ([`Forced`]), the options and the result of one DF
//! point and the DF's metric ([`distance`]); `augmented.rs` the system with its Fourier
//! integrals appended; `steady.rs` the periodic steady state and its DF
//! ([`describing_function`]); `orbit.rs` the samples and works of a steady orbit's period, for
//! the systems' invariants ([`Forced::check_orbit`]); `jumps.rs` the bisection of jumps between amplitudes. The root
//! finders [`bisect_sign`] and [`illinois`] live in [`crate::roots`] and are re-exported here.

mod augmented;
mod jumps;
mod orbit;
mod steady;
#[cfg(test)]
mod test_systems;

pub use crate::roots::{bisect_sign, illinois};
pub use jumps::{judge_jump, narrow_edges, probe, refine_jump, refine_jumps, Jump, Sample, PROBES};
pub use orbit::{orbit, Orbit, ORBIT_SAMPLES};
pub use steady::{describing_function, CONTRACTION, LINGER_LIMIT};

use crate::Method;

/// A system driven by a scalar input `u(t)`.
pub trait Forced {
    fn dim(&self) -> usize;
    fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]);
    /// The output `y` whose fundamental defines the DF.
    fn output(&self, u: f64, x: &[f64]) -> f64;
    /// True for a state that does not enter [`Forced::rhs`] (its value never matters), so the
    /// steady state may carry it along with a constant drift per period: it is not shot, and its
    /// drift is removed from the output.
    fn drifting(&self, _i: usize) -> bool {
        false
    }
    /// Number of event functions: functions of the input and state whose zero crossings (either
    /// direction) stop the integration so that [`Forced::on_event`] can update the state, such as
    /// re-anchoring a rate-independent operator at a reversal, or sticking at zero velocity.
    fn n_events(&self) -> usize {
        0
    }
    fn events(&self, _u: f64, _x: &[f64], _g: &mut [f64]) {}
    /// Event `i` occurred at input `u`: update the state (the integration restarts from it).
    fn on_event(&self, _i: usize, _u: f64, _x: &mut [f64]) {}
    /// Interior points per step at which the event functions are also checked
    /// ([`crate::OdeSystem::event_samples`]): needed where an event function can cross zero twice
    /// within one step (a velocity ringing through zero).
    fn event_samples(&self) -> usize {
        0
    }
    /// The state component whose sign event `i` is, if it is one ([`OdeSystem::event_component`]).
    fn event_component(&self, _i: usize) -> Option<usize> {
        None
    }
    /// Make the state consistent at the start of a period (input `u = 0`), after the shot states
    /// were set and the others zeroed: set discrete modes from the continuous states.
    fn prepare(&self, _x: &mut [f64]) {}
    /// Typical size of state `i` per unit input amplitude, for the finite-difference steps of the
    /// shooting Jacobian.
    fn scale(&self, _i: usize) -> f64 {
        1.0
    }
    /// Whether [`describing_function`] checks the periodic orbit of every point it computes:
    /// the orbit's period is integrated once more from its start ([`orbit`]) and handed to
    /// [`Forced::check_orbit`], whose error is the point's. The DF itself is not touched.
    fn checks_orbit(&self) -> bool {
        false
    }
    /// Number of works integrated along the checked orbit ([`Orbit::works`]).
    fn n_works(&self) -> usize {
        0
    }
    /// The integrands of the works at input `u` and state `x`.
    fn works(&self, _u: f64, _x: &[f64], _q: &mut [f64]) {}
    /// Check the orbit's samples (the system's invariants): `Err` names what is broken, where;
    /// `Ok` the largest ratio of a balance's residual to its bound (NaN where none is checked).
    fn check_orbit(&self, _orbit: &Orbit) -> Result<f64, String> {
        Ok(f64::NAN)
    }
}

/// How a DF point is computed.
#[derive(Clone, Copy, Debug)]
pub struct DfOptions {
    pub method: Method,
    pub rtol: f64,
    /// Absolute tolerance per unit amplitude `a` (the states scale with `a` at small amplitudes).
    pub atol_per_a: f64,
    /// Shooting residual to reach ([`crate::shooting::Shot::residual`] of the states divided by
    /// `a`).
    pub steady_tol: f64,
    /// Period maps allowed for the shooting.
    pub max_maps: usize,
    /// Periods simulated from rest before the shooting starts (at least 2, the shooting's own
    /// first two plain periods). A long transient makes the result the state a plain simulation
    /// from rest reaches, for cross-checks of the shooting.
    pub transient: usize,
    /// Whether a system that checks its orbits ([`Forced::checks_orbit`]) gets each point's orbit
    /// checked (one more period integrated with its samples): on by default, off only to measure
    /// what the check costs (the benchmark's DF point without it).
    pub check_orbits: bool,
}

impl Default for DfOptions {
    fn default() -> Self {
        Self {
            method: Method::Radau5,
            rtol: 1e-10,
            atol_per_a: 1e-13,
            steady_tol: 1e-10,
            max_maps: 80,
            transient: 2,
            check_orbits: true,
        }
    }
}

/// One value of the describing function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DfPoint {
    /// `N(a, ω) = (b1 + i a1) / a` as `(re, im)`.
    pub n: (f64, f64),
    /// The output's drift over one period (removed before the fundamental was taken).
    pub drift: f64,
    /// Shooting residual of the steady state (`converged` when below the tolerance; an
    /// unconverged point is returned with its residual for the caller to judge).
    pub residual: f64,
    pub converged: bool,
    /// The largest Floquet multiplier's modulus of the orbit ([`crate::shooting::spectral_radius`]
    /// of the period map at the shot state): above 1 the orbit is unstable and a simulation from
    /// rest does not settle on it (returned only when the simulation from rest is still by it
    /// after [`LINGER_LIMIT`] periods).
    pub multiplier: f64,
    /// Period maps and integration steps spent (`steps` accepted, `rejected` attempts
    /// rejected by the error test).
    pub maps: usize,
    pub steps: usize,
    pub rejected: usize,
    /// Of `maps`, those spent on shots that found an unstable orbit the point did not end on
    /// (their maps and their multipliers') and on the simulation from rest continued past them
    /// (near the break-away gaps of report Figs 5.22-5.24: 56 % of all maps, 30 % once the
    /// lingering was advanced in closed form, 21 % since it is advanced on to [`JUMP`]).
    pub unstable_maps: usize,
    /// Periods of the simulation from rest advanced in closed form where it lingered by an
    /// unstable orbit (not simulated, not in `maps`).
    pub predicted_periods: usize,
    /// The simulation reached the orbit within one period of the shot's start, contracting its
    /// distance to the orbit by [`CONTRACTION`] or more: taken as stable without the Floquet
    /// multiplier (`multiplier` is NaN).
    pub contracted: bool,
    /// What [`Forced::check_orbit`] returned for the orbit (NaN without a check).
    pub orbit_margin: f64,
    /// Accepted steps of the checked orbit's period ([`Forced::checks_orbit`]; 0 without a
    /// check), not in `steps`.
    pub orbit_steps: usize,
}

/// `−1/N` as `(re, im)`.
pub fn negative_inverse(n: (f64, f64)) -> (f64, f64) {
    let q = n.0 * n.0 + n.1 * n.1;
    (-n.0 / q, n.1 / q)
}

/// How far two DF values are apart: `|ln(N_q / N_p)|` (the complex logarithm measures the
/// relative change of magnitude and the change of phase alike).
pub fn distance(p: (f64, f64), q: (f64, f64)) -> f64 {
    let (mp, mq) = (p.0.hypot(p.1), q.0.hypot(q.1));
    let mut dphi = q.1.atan2(q.0) - p.1.atan2(p.0);
    let tau = 2.0 * std::f64::consts::PI;
    dphi -= tau * (dphi / tau).round();
    (mq / mp).ln().hypot(dphi)
}
