//! Analysis of sampled input–output data: signed loop areas, extremes, distances between curves,
//! reversal points, least-squares slopes, the periodic-steady-state loop and equilibrium sets.
//! Physics-free.
//!
//! One file per concern: `loops.rs` (loop areas), `series.rs` (extremes, reversals, values and
//! crossings of sampled curves), `fits.rs` (least-squares fits), `filters.rs` (smoothing,
//! derivatives, integrals), `periods.rs` (periods, dwell times, periodic steady state),
//! `equilibria.rs` (equilibrium sets). Everything is re-exported here.

mod equilibria;
mod filters;
mod fits;
mod loops;
mod periods;
mod series;

pub use equilibria::equilibrium_set;
pub use filters::{cumulative_integral, ewma, gradient, moving_average};
pub use fits::{decay_fit, line_fit, slope, DecayFit};
pub use loops::{loop_area, loop_areas};
pub use periods::{crossing_period, dwell_times, until_periodic, upward_crossings, Periodicity};
pub use series::{curve_crossings, extremes, max_abs_diff, reversal_points, since_reversal, value_at, value_at_where};
