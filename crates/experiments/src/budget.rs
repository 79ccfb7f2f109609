//! The resource budget of one run, checked before it starts: a run that would allocate more
//! samples than the machine can hold, or integrate over more input periods than a run can finish,
//! is an invalid manifest, not a crash of the whole pipeline (an allocation failure aborts the
//! process and cannot be caught).

use crate::{Invalid, RunRequest};

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
/// (`periods: 1e9`, `t_end: 1e300`) are measured, not overflowed: its input kind's budget.
pub fn estimate(req: &RunRequest) -> (f64, f64) {
    (req.input.decl().budget)(req)
}

/// `sim.samples_per_period`, or its default for an input signal.
pub fn samples_per_period(req: &RunRequest) -> f64 {
    req.sim.samples_per_period.unwrap_or(DEFAULT_SAMPLES) as f64
}

/// The budget of an input with a period: the periods the settings ask for, recorded with
/// `samples_per_period` samples each (one period for a steady-state search, which integrates
/// the others).
pub fn periodic(req: &RunRequest) -> (f64, f64) {
    let Some(period) = req.input.period() else {
        return (0.0, 0.0);
    };
    let periods = match (&req.sim.steady_state, req.sim.periods, req.sim.t_end) {
        (Some(ss), _, _) => ss.max_periods as f64 + 1.0,
        (None, Some(p), _) => p,
        (None, None, Some(t)) => t / period,
        (None, None, None) => 1.0,
    };
    let recorded = if req.sim.steady_state.is_some() { 1.0 } else { periods };
    (recorded * samples_per_period(req) + 1.0, periods)
}

/// The budget of an input without a period that passes through `points` breakpoints:
/// `samples_per_period` samples over `t_end`, plus the breakpoints; one "period".
pub fn over_t_end(req: &RunRequest, points: usize) -> (f64, f64) {
    (samples_per_period(req) + 1.0 + points as f64, 1.0)
}

/// The budget of an autonomous run: `samples_per_period` (default
/// [`DEFAULT_AUTONOMOUS_SAMPLES`]) samples over `t_end`, no input period.
pub fn autonomous(req: &RunRequest) -> (f64, f64) {
    let n = req.sim.samples_per_period.unwrap_or(DEFAULT_AUTONOMOUS_SAMPLES);
    (n as f64 + 1.0, 0.0)
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
    // A csv input's resampling allocates its samples before the run: refused at its `step`.
    let step = crate::inputs::csv::step_over_budget(req);
    let over_step = step.is_some();
    errs.extend(step);
    let (samples, periods) = estimate(req);
    if !(samples <= MAX_SAMPLES) && !over_step {
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
