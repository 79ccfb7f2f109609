//! Limit cycles from a Poincaré section: the trajectory is integrated from one crossing of the
//! section `s(t, x) = 0` (upward) to the next, each crossing located as a terminal event on the
//! dense output, until the return map has a fixed point (successive section points agree within a
//! tolerance). The period is the time between the last two returns; the amplitudes come from dense
//! samples of the last cycle.
//!
//! Physics-free: the section is any scalar function of `(t, x)` — a state coordinate for an
//! autonomous oscillator, `sin(2π t / T)` for a stroboscopic map of a periodically forced one.

use crate::{solve, Direction, EventKind, Method, OdeSystem, SolveError, Tolerances};

/// `sys` with the section as its only event (the system's own events are not used here).
/// A restart from a located crossing starts with the section already at its post-crossing
/// sign (the solver returns that state), so the same crossing is not found again.
struct WithSection<'a, S, F> {
    sys: &'a S,
    section: &'a F,
}

impl<S: OdeSystem, F: Fn(f64, &[f64]) -> f64> OdeSystem for WithSection<'_, S, F> {
    fn dim(&self) -> usize {
        self.sys.dim()
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        self.sys.rhs(t, x, dx)
    }
    fn jacobian(&self, t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        self.sys.jacobian(t, x, jac)
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = (self.section)(t, x);
    }
    fn event_kind(&self, _i: usize) -> EventKind {
        EventKind {
            direction: Direction::Rising,
            terminal: true,
        }
    }
}

/// Options of a limit-cycle search.
#[derive(Clone, Copy, Debug)]
pub struct CycleOptions {
    /// Converged when successive section points differ by less than this (max norm, relative to
    /// `1 + |x|`).
    pub tol: f64,
    /// Give up after this many returns to the section.
    pub max_returns: usize,
    /// Give up when no crossing happens before this time.
    pub t_max: f64,
    /// Dense samples per cycle for the extremes (their relative error is about (π/n)²/2).
    pub samples: usize,
}

impl Default for CycleOptions {
    fn default() -> Self {
        Self {
            tol: 1e-9,
            max_returns: 1000,
            t_max: 1e6,
            samples: 4000,
        }
    }
}

/// A limit cycle found on a Poincaré section.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitCycle {
    /// Time between the last two returns.
    pub period: f64,
    /// The last section point (the fixed point of the return map when converged).
    pub point: Vec<f64>,
    /// Time of the last return.
    pub t: f64,
    /// Returns to the section, the first crossing included.
    pub returns: usize,
    /// Last change between successive section points (see [`CycleOptions::tol`]).
    pub change: f64,
    /// Change of the period between the last two cycles.
    pub period_change: f64,
    pub converged: bool,
    /// Per-coordinate minimum and maximum over the last cycle.
    pub min: Vec<f64>,
    pub max: Vec<f64>,
}

impl LimitCycle {
    /// Half the peak-to-peak excursion of coordinate `i` over the last cycle.
    pub fn amplitude(&self, i: usize) -> f64 {
        0.5 * (self.max[i] - self.min[i])
    }
}

/// Integrate `sys` from `(t0, x0)` through successive upward crossings of `section` until the
/// return map converges (see [`CycleOptions`]). Fails if a crossing does not come before
/// `t_max` or fewer than three crossings happen.
pub fn limit_cycle<S: OdeSystem, F: Fn(f64, &[f64]) -> f64>(
    sys: &S,
    section: F,
    method: Method,
    tol: &Tolerances,
    t0: f64,
    x0: &[f64],
    opts: &CycleOptions,
) -> Result<LimitCycle, CycleError> {
    let view = WithSection { sys, section: &section };
    let n = sys.dim();
    let mut t = t0;
    let mut x = x0.to_vec();
    // Last crossing and the period measured before it.
    let mut last: Option<(f64, Vec<f64>)> = None;
    let mut period_prev = f64::NAN;
    let mut lo = vec![f64::INFINITY; n];
    let mut hi = vec![f64::NEG_INFINITY; n];
    let mut saveat = Vec::with_capacity(2 * opts.samples + 1);
    for returns in 1..=opts.max_returns {
        // Sample the coming cycle densely once a period estimate exists (two estimated periods:
        // the sampling stops at the crossing).
        saveat.clear();
        if period_prev.is_finite() {
            let m = 2 * opts.samples;
            saveat.extend((0..=m).map(|k| t + 2.0 * period_prev * k as f64 / m as f64));
        }
        lo.fill(f64::INFINITY);
        hi.fill(f64::NEG_INFINITY);
        let o = solve(&view, method, tol, t, &x, opts.t_max, &saveat, &mut |_, xs| {
            for i in 0..n {
                lo[i] = lo[i].min(xs[i]);
                hi[i] = hi[i].max(xs[i]);
            }
        })?;
        if o.event.is_none() {
            return Err(CycleError::NoCrossing { t: o.t, returns });
        }
        for i in 0..n {
            lo[i] = lo[i].min(o.x[i]).min(x[i]);
            hi[i] = hi[i].max(o.x[i]).max(x[i]);
        }
        if let Some((tl, xl)) = &last {
            let period = o.t - tl;
            let change =
                o.x.iter()
                    .zip(xl)
                    .map(|(a, b)| (a - b).abs() / (1.0 + a.abs()))
                    .fold(0.0, f64::max);
            let period_change = (period - period_prev).abs();
            // Two full cycles at least, the last one sampled densely.
            let done = period_prev.is_finite() && change < opts.tol;
            if done || returns == opts.max_returns {
                return Ok(LimitCycle {
                    period,
                    point: o.x,
                    t: o.t,
                    returns,
                    change,
                    period_change,
                    converged: done,
                    min: lo,
                    max: hi,
                });
            }
            period_prev = period;
        }
        t = o.t;
        x.copy_from_slice(&o.x);
        last = Some((o.t, o.x));
    }
    Err(CycleError::NoCrossing {
        t,
        returns: opts.max_returns,
    })
}

/// `sys` without events: the flow for a fixed time (the system's own events are not used here,
/// as in [`limit_cycle`]).
struct Flow<'a, S>(&'a S);

impl<S: OdeSystem> OdeSystem for Flow<'_, S> {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(t, x, dx)
    }
    fn jacobian(&self, t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        self.0.jacobian(t, x, jac)
    }
}

/// A limit cycle of an autonomous system by shooting: Newton with Broyden updates
/// ([`crate::shooting::shoot`]) on the return map `P` to the section, instead of iterating `P`
/// as [`limit_cycle`] does (which converges only as fast as the cycle's slowest Floquet
/// multiplier decays). `P(x)` flows `x` for half the period estimate without looking at the
/// section, then on to the next upward crossing: a start a rounding error short of the section
/// (a Jacobian column, a Newton step) is not taken for a return. The period estimate and the
/// first section point come from three plain returns from `(t0, x0)`; `opts.tol` is the shot's
/// residual (the measure of [`LimitCycle::change`]), `opts.max_returns` its budget of maps. The
/// finite-difference steps scale with each coordinate's excursion over the cycle before.
/// Returns a section point on the cycle (one return after the shot's result), the period
/// measured by that return, and the shot.
pub fn shoot_limit_cycle<S: OdeSystem, F: Fn(f64, &[f64]) -> f64>(
    sys: &S,
    section: F,
    method: Method,
    tol: &Tolerances,
    t0: f64,
    x0: &[f64],
    opts: &CycleOptions,
) -> Result<(Vec<f64>, f64, crate::shooting::Shot), CycleError> {
    let plain = CycleOptions {
        tol: 0.0,
        max_returns: 3,
        samples: opts.samples.min(200),
        ..*opts
    };
    let first = limit_cycle(sys, &section, method, tol, t0, x0, &plain)?;
    let half = 0.5 * first.period;
    let view = WithSection { sys, section: &section };
    let scale: Vec<f64> = first
        .max
        .iter()
        .zip(&first.min)
        .map(|(hi, lo)| (hi - lo).max(1e-12))
        .collect();
    // The return map; returns the time of the return.
    let ret = |v: &mut [f64]| -> Result<f64, CycleError> {
        let o = solve(&Flow(sys), method, tol, 0.0, v, half, &[], &mut |_, _| {})?;
        let r = solve(&view, method, tol, half, &o.x, opts.t_max, &[], &mut |_, _| {})?;
        if r.event.is_none() {
            return Err(CycleError::NoCrossing { t: r.t, returns: 0 });
        }
        v.copy_from_slice(&r.x);
        Ok(r.t)
    };
    let mut x = first.point.clone();
    let shot = crate::shooting::shoot(&mut x, &scale, opts.tol, opts.max_returns, |v: &mut [f64]| {
        ret(v).map(|_| ())
    })?;
    // The last map the shot evaluated need not be the returned iterate's (a Jacobian column, a
    // rejected trial): the period from one more return of the point it returned.
    let period = ret(&mut x)?;
    Ok((x, period, shot))
}

/// Why a limit-cycle search failed.
#[derive(Clone, Debug, PartialEq)]
pub enum CycleError {
    Solve(SolveError),
    /// The trajectory did not return to the section before `t_max`.
    NoCrossing {
        t: f64,
        returns: usize,
    },
}

impl From<SolveError> for CycleError {
    fn from(e: SolveError) -> Self {
        CycleError::Solve(e)
    }
}

impl std::fmt::Display for CycleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CycleError::Solve(e) => e.fmt(f),
            CycleError::NoCrossing { t, returns } => write!(
                f,
                "no crossing of the Poincaré section after return {returns} (integrated to t = {t})"
            ),
        }
    }
}

impl std::error::Error for CycleError {}
