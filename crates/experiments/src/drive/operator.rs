//! Exact rate-independent operators driven by the input samples ([`exact`]), and the
//! piecewise-linear ones whose kinks are samples too ([`exact_pl`]).

use super::{no_shooting, periodic_plan};
use crate::RunData;
use crate::RunRequest;
use fric_models::maxwell_slip::{MaxwellSlip, MaxwellSlipState};
use fric_models::signal::Signal;
use fric_solvers::analysis::until_periodic;
use fric_solvers::roots::{bisect, Side};
use std::convert::Infallible;

/// A rate-independent operator: `advance` moves its input monotonically to `u` and returns the
/// output; `kinks` lists the inputs strictly between the current input and `u` where the output's
/// slope changes (a piecewise-linear operator's slip onsets), in the order they are passed.
pub trait Operator {
    fn advance(&mut self, u: f64) -> f64;
    fn kinks(&self, _u: f64, _out: &mut Vec<f64>) {}
}

/// An operator known only by its output (no kinks).
struct Plain<F>(F);

impl<F: FnMut(f64) -> f64> Operator for Plain<F> {
    fn advance(&mut self, u: f64) -> f64 {
        (self.0)(u)
    }
}

/// Maxwell-slip stop operators (the `maxwell-slip` exact method and the multiplay's DC limit):
/// piecewise linear in the input, a kink where an element reaches its deadband edge.
pub struct StopOps {
    pub model: MaxwellSlip,
    pub state: MaxwellSlipState,
}

impl Operator for StopOps {
    fn advance(&mut self, u: f64) -> f64 {
        self.model.advance(&mut self.state, u)
    }
    fn kinks(&self, u: f64, out: &mut Vec<f64>) {
        self.model.onsets(&self.state, u, out)
    }
}

/// Run an exact rate-independent operator on the input samples. The samples include every
/// extremum of the input (for a piecewise-linear input, every breakpoint where its direction
/// changes), and between two samples the input is monotone, so the operator, which depends only
/// on the input's reversal values, is exact at every sample: triangle, sawtooth, ramp-and-hold,
/// piecewise-linear and sampled (csv) inputs are driven exactly, not approximated.
pub fn exact(req: &RunRequest, sig: &Signal, op: impl FnMut(f64) -> f64) -> Result<RunData, String> {
    exact_pl(req, sig, &mut Plain(op))
}

/// [`exact`] that also records a sample at every kink the operator reports between two recorded
/// samples (at the time the input passes it, located by bisection on the monotone input): for a
/// piecewise-linear operator the output is then linear in the input between any two samples, so a
/// trapezoid ∮ F du over the samples (`loop-area`) is exact to rounding, and every other metric
/// sees each slip onset (issue 50 item 6).
pub fn exact_pl(req: &RunRequest, sig: &Signal, op: &mut impl Operator) -> Result<RunData, String> {
    no_shooting(req)?;
    let (mut plan, steady) = periodic_plan(req, sig);
    let p = plan.period;
    let mut data = RunData {
        period: plan.input_period,
        ..Default::default()
    };
    if let Some((stol, max)) = steady {
        let mut last = [op.advance(sig.value(0.0))];
        let per = until_periodic(&mut last, stol, max, |k, x| {
            for s in sig
                .sample_times(k as f64 * p, (k + 1) as f64 * p, plan.samples_per_period)
                .into_iter()
                .skip(1)
            {
                x[0] = op.advance(sig.value(s));
            }
            Ok::<(), String>(())
        })?;
        if !per.converged {
            return Err(format!("no periodic steady state after {} periods", per.periods));
        }
        data.info.insert("periods_to_steady_state".into(), per.periods as f64);
        plan.record = (per.periods as f64 * p, (per.periods + 1) as f64 * p);
    }
    let (a, b) = plan.record;
    let n = (((b - a) / p) * plan.samples_per_period as f64).round().max(1.0) as usize;
    let grid = sig.sample_times(a, b, n);
    // The columns are allocated at the grid's length (a kink adds a sample).
    let (mut t, mut u, mut v, mut f) = (
        Vec::with_capacity(grid.len()),
        Vec::with_capacity(grid.len()),
        Vec::with_capacity(grid.len()),
        Vec::with_capacity(grid.len()),
    );
    let mut kinks = Vec::new();
    for &s in &grid {
        let us = sig.value(s);
        if let (Some(&t0), Some(&u0)) = (t.last(), u.last()) {
            kinks.clear();
            op.kinks(us, &mut kinks);
            let mut lo = t0;
            for &uk in &kinks {
                let Some(tk) = passes(sig, lo, s, u0, us, uk) else {
                    continue;
                };
                let uv = sig.value(tk);
                t.push(tk);
                u.push(uv);
                v.push(sig.deriv(tk));
                f.push(op.advance(uv));
                lo = tk;
            }
        }
        t.push(s);
        u.push(us);
        v.push(sig.deriv(s));
        f.push(op.advance(us));
    }
    data.columns = vec![("t".into(), t), ("u".into(), u), ("v".into(), v), ("F".into(), f)];
    data.info.insert("t_start".into(), a);
    Ok(data)
}

/// The time in `(lo, hi)` where the input, monotone from `u0` at the previous sample to `u1` at
/// `hi`, passes `uk` (bisection to the last bit); `None` when `uk` is not bracketed.
fn passes(sig: &Signal, lo: f64, end: f64, u0: f64, u1: f64, uk: f64) -> Option<f64> {
    let up = u1 > u0;
    let below = |t: f64| (sig.value(t) < uk) == up;
    if !below(lo) || below(end) {
        return None;
    }
    let side = |t: f64| Ok::<_, Infallible>(if below(t) { Side::Lo } else { Side::Hi });
    let Ok((_, hi)) = bisect(side, lo, end, 0.0, 200);
    // The sample on the kink's far side, so the element is on its edge (or past it by rounding).
    (hi < end).then_some(hi)
}
