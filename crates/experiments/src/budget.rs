//! The resource budget of one run, checked before it starts: a run that would allocate more
//! samples than the machine can hold, or integrate over more input periods than a run can finish,
//! is an invalid manifest, not a crash of the whole pipeline (an allocation failure aborts the
//! process and cannot be caught).

use crate::{Invalid, RunRequest};
use fric_manifest::InputSpec;
use std::f64::consts::PI;

/// Samples (rows) one run may record. The largest run of the documents records 360,000; a run
/// of 5,000,000 rows and 14 columns is 560 MB in memory.
pub const MAX_SAMPLES: f64 = 5e6;
/// Input periods one prescribed-input run may integrate. The step cap is 1/1000 of a period, so
/// this bounds a run to about 10^8 steps.
pub const MAX_PERIODS: f64 = 1e5;
/// Default output samples per input period (prescribed inputs) and over `t_end` (autonomous runs).
pub const DEFAULT_SAMPLES: usize = 2000;
pub const DEFAULT_AUTONOMOUS_SAMPLES: usize = 20_000;

/// The time a prescribed-input run integrates, as [`estimate`] counts it: its input periods
/// times the period, or `t_end` where the input has no period (0 when neither is set).
pub fn integrated_time(req: &RunRequest) -> f64 {
    match req.input.period() {
        Some(p) => estimate(req).1 * p,
        None => req.sim.t_end.unwrap_or(0.0),
    }
}

/// Estimated rows and input periods of a run, as floating-point numbers so that absurd settings
/// (`periods: 1e9`, `t_end: 1e300`) are measured, not overflowed.
pub fn estimate(req: &RunRequest) -> (f64, f64) {
    let Some(period) = req.input.period() else {
        return aperiodic(req);
    };
    let periods = match (&req.sim.steady_state, req.sim.periods, req.sim.t_end) {
        (Some(ss), _, _) => ss.max_periods as f64 + 1.0,
        (None, Some(p), _) => p,
        (None, None, Some(t)) => t / period,
        (None, None, None) => 1.0,
    };
    let spp = req.sim.samples_per_period.unwrap_or(DEFAULT_SAMPLES) as f64;
    // A steady-state search records one period; it integrates the others.
    let recorded = if req.sim.steady_state.is_some() { 1.0 } else { periods };
    (recorded * spp + 1.0, periods)
}

/// [`estimate`] for an input without a period.
fn aperiodic(req: &RunRequest) -> (f64, f64) {
    match &req.input {
        InputSpec::SumOfSines { components, .. } => {
            // No period: t_end is recorded with samples_per_period samples; the integration is
            // measured in periods of the fastest term.
            let spp = req.sim.samples_per_period.unwrap_or(DEFAULT_SAMPLES) as f64;
            let fastest = components.iter().map(|c| c.omega).fold(0.0, f64::max);
            let t = req.sim.t_end.unwrap_or(0.0);
            (spp + 1.0, t * fastest / (2.0 * PI))
        }
        InputSpec::RampHold { .. } | InputSpec::PiecewiseLinear { .. } | InputSpec::Csv { .. } => {
            // No period: samples_per_period samples over t_end, plus the breakpoints.
            let spp = req.sim.samples_per_period.unwrap_or(DEFAULT_SAMPLES) as f64;
            let points = match &req.input {
                InputSpec::PiecewiseLinear { points } => points.len(),
                _ => req.input_data.as_ref().map_or(2, |d| d.t.len()),
            };
            (spp + 1.0 + points as f64, 1.0)
        }
        InputSpec::Grid { points, .. } => (*points as f64, 0.0),
        InputSpec::None => {
            let n = req.sim.samples_per_period.unwrap_or(DEFAULT_AUTONOMOUS_SAMPLES);
            (n as f64 + 1.0, 0.0)
        }
        // The periodic inputs are handled by `estimate`.
        _ => (0.0, 0.0),
    }
}

/// Steps the integrator takes per input period at most (the step cap is 1/1000 of a period).
const STEPS_PER_PERIOD: f64 = 1000.0;

/// The default estimate of a run's cost in integration steps ([`crate::system::System::cost`]):
/// the samples it records plus 1000 steps per input period it integrates (the step cap).
pub fn cost(req: &RunRequest) -> f64 {
    let (samples, periods) = estimate(req);
    samples + STEPS_PER_PERIOD * periods
}

/// Check a request against the budget.
pub fn check(req: &RunRequest, columns: usize, errs: &mut Vec<Invalid>) {
    let (samples, periods) = estimate(req);
    if !(samples <= MAX_SAMPLES) {
        let bytes = samples * columns as f64 * 8.0;
        errs.push(Invalid::new(
            "sim",
            format!(
                "this run would record {samples:.3e} samples ({columns} columns, about {bytes:.1e} bytes); \
                 the limit is {MAX_SAMPLES:.0e} samples per run"
            ),
            "fewer periods (or a shorter t_end), fewer samples_per_period, or fewer grid points",
        ));
    }
    if !(periods <= MAX_PERIODS) {
        errs.push(Invalid::new(
            "sim",
            format!("this run would integrate {periods:.3e} input periods; the limit is {MAX_PERIODS:.0e}"),
            "fewer periods, a shorter t_end or a smaller steady_state.max_periods",
        ));
    }
}
