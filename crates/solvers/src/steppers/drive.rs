//! The driver common to every method: step-size control, save times on the dense output, and
//! the event bookkeeping of each accepted step ([`super::events`] detects and locates).

use super::dopri5::Dopri5;
use super::events::{graze, leaves_zero, locate, may_graze, sign_kept, triggers};
use super::quadrature::Quadrature;
use super::rosenbrock23::Rosenbrock23;
use super::{Method, Outcome, SolveError, Stats, Stepper, Tolerances};
use crate::dop853::Dop853;
use crate::radau::Radau5;
use crate::switching::Switching;
use crate::OdeSystem;

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
/// The implicit methods (Radau IIA alone and switched with DOP853), whose setup depends on the
/// tolerances and the Jacobian's band, are kept while those stay the same (a hybrid simulation's
/// segments, [`crate::hybrid::simulate`]); their `init` resets everything `new` sets, so the
/// results are again those of [`solve`], bit for bit (`crates/solvers/tests/integrator_reuse.rs`).
/// Rosenbrock23 is built anew per call.
pub struct Integrator {
    method: Method,
    dopri5: Option<(usize, Dopri5)>,
    dop853: Option<(usize, Dop853)>,
    /// The implicit methods, kept while the dimension, the Jacobian's band and the tolerances
    /// they were built for stay the same (a hybrid simulation's segments, [`crate::hybrid`]).
    switching: Option<(Implicit, Switching)>,
    radau5: Option<(Implicit, Radau5)>,
    work: Work,
}

/// What an implicit method's setup depends on: the dimension, the Jacobian's band and the
/// tolerances (Radau IIA's Newton tolerance comes from `rtol`), the latter by their bits.
type Implicit = (usize, Option<(usize, usize)>, [u64; 2]);

impl Integrator {
    pub fn new(method: Method) -> Self {
        Self {
            method,
            dopri5: None,
            dop853: None,
            switching: None,
            radau5: None,
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
                let band = sys.jacobian_band();
                let key = (n, band, [tol.rtol.to_bits(), tol.atol.to_bits()]);
                let st = reuse(&mut self.switching, key, |_| Switching::new(n, band, tol));
                drive(sys, st, w, tol, t0, x0, t1, saveat, out)
            }
            Method::Radau5 => {
                let band = sys.jacobian_band();
                let key = (n, band, [tol.rtol.to_bits(), tol.atol.to_bits()]);
                let st = reuse(&mut self.radau5, key, |_| Radau5::new(n, band, tol));
                drive(sys, st, w, tol, t0, x0, t1, saveat, out)
            }
        }
    }
}

/// The stepper kept in `slot` if it was built for `key` (the dimension, for an implicit method
/// also the band and the tolerances), else a new one.
fn reuse<K: PartialEq + Copy, M>(slot: &mut Option<(K, M)>, key: K, new: impl FnOnce(K) -> M) -> &mut M {
    if slot.as_ref().is_none_or(|(k, _)| *k != key) {
        *slot = Some((key, new(key)));
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
    /// Event rates at a step's start and end ([`OdeSystem::event_rate`]; NaN where none), and a
    /// right-hand side's buffer for them.
    r_old: Vec<f64>,
    r_new: Vec<f64>,
    f: Vec<f64>,
}

/// The rates of the events at `(t, x)` into `r` (NaN for an event without one): one right-hand
/// side into `f`.
fn rates_at<S: OdeSystem>(sys: &S, t: f64, x: &[f64], f: &mut [f64], r: &mut [f64], stats: &mut Stats) {
    sys.rhs(t, x, f);
    stats.rhs_evals += 1;
    for (i, r) in r.iter_mut().enumerate() {
        *r = sys.event_rate(i, t, x, f).unwrap_or(f64::NAN);
    }
}

/// `v` as `len` copies of `value`, keeping its allocation.
fn fill<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
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
    // Where every event is a state component's value ([`OdeSystem::event_component`]), the
    // samples evaluate those components of the dense output alone (the same bits).
    let by_component = ne > 0 && (0..ne).all(|i| sys.event_component(i).is_some());
    let components = |st: &M, th: f64, g: &mut [f64]| {
        by_component
            && g.iter_mut().enumerate().all(|(i, g)| {
                sys.event_component(i)
                    .and_then(|c| st.dense_component(th, c))
                    .map(|v| *g = v)
                    .is_some()
            })
    };
    let Work {
        x,
        x_old,
        xd,
        g_old,
        g_new,
        g_stop,
        bracketed,
        g_in,
        r_old,
        r_new,
        f,
    } = work;
    // `g_old` and `g_new` (and the rates) trade places after every step.
    let (mut g_old, mut g_new) = (g_old, g_new);
    let (mut r_old, mut r_new) = (r_old, r_new);
    // Whether terminal events are watched for grazes ([`OdeSystem::event_rate`]).
    let rates = ne > 0 && sys.event_rates();
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
    fill(r_old, if rates { ne } else { 0 }, f64::NAN);
    fill(r_new, if rates { ne } else { 0 }, f64::NAN);
    fill(f, if rates { n } else { 0 }, 0.0);
    let mut passed = Vec::new();
    let nq = sys.n_quadratures();
    let mut quad = Quadrature::new(n, nq);
    let mut t = t0;
    let mut save_i = saveat.partition_point(|&s| s < t0);
    while save_i < saveat.len() && saveat[save_i] == t0 {
        if nq == 0 {
            out(t0, x);
        } else {
            quad.at(sys, &*st, t0, 0.0, 0.0, x);
            out(t0, &quad.xq);
        }
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
            quadrature: quad.acc,
        });
    }
    sys.events(t, x, g_old);
    st.init(sys, t, x, &mut stats);
    if rates {
        rates_at(sys, t, x, f, r_old, &mut stats);
    }

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
            if rates {
                rates_at(sys, t_new, x, f, r_new, &mut stats);
            }
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
                    if !components(&*st, th, g) {
                        st.dense(th, xd);
                        sys.events(t + th * h, xd, g);
                    }
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
                let grazing = bracket.is_none()
                    && rates
                    && kind.terminal
                    && may_graze(kind.direction, (g_old[i], g_new[i]), (r_old[i], r_new[i]));
                if (bracket.is_some() || grazing) && !dense_ready {
                    st.prepare_dense(sys, t, h, &mut stats);
                    dense_ready = true;
                }
                // A crossing pair between the step's points: the first crossing before the
                // extremum that reached zero, bracketed from the last point before it.
                let grazed = if grazing {
                    let scratch = (&mut xd[..], &mut f[..], &mut g_stop[..]);
                    let ends = (g_old[i], g_new[i]);
                    graze(
                        sys,
                        &*st,
                        i,
                        kind.direction,
                        t,
                        h,
                        ends,
                        (r_old[i], r_new[i]),
                        scratch,
                        &mut stats,
                    )
                    .map(|(th, g)| {
                        let k = ((th * (samples + 1) as f64).ceil() as usize).clamp(1, samples + 1) - 1;
                        ((frac(k), th), (at(k), g))
                    })
                } else {
                    None
                };
                bracketed[i] |= grazed.is_some();
                let found = bracket
                    .map(|k| {
                        (
                            (frac(k), if k == samples { 1.0 } else { frac(k + 1) }),
                            (at(k), at(k + 1)),
                        )
                    })
                    .or(grazed);
                if let Some((range, ends)) = found {
                    let th = locate(sys, &*st, i, t, h, range, ends, xd, ne);
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
        if nq > 0 && !dense_ready {
            st.prepare_dense(sys, t, h, &mut stats);
            dense_ready = true;
        }
        while save_i < saveat.len() && saveat[save_i] <= t_end {
            let s = saveat[save_i];
            let th = if s >= t_new { 1.0 } else { (s - t) / h };
            let xs: &[f64] = if s >= t_new {
                x
            } else {
                if !dense_ready {
                    st.prepare_dense(sys, t, h, &mut stats);
                    dense_ready = true;
                }
                st.dense(th, xd);
                xd
            };
            if nq == 0 {
                out(s, xs);
            } else {
                quad.at(sys, &*st, t, h, th, xs);
                out(s, &quad.xq);
            }
            save_i += 1;
        }
        if nq > 0 {
            quad.advance(sys, &*st, t, h, stop.map_or(1.0, |(_, _, th)| th));
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
                quadrature: quad.acc,
            });
        }
        if !x.iter().all(|v| v.is_finite()) {
            return Err(SolveError::NonFinite { t: t_new });
        }
        t = t_new;
        at_start = false;
        std::mem::swap(&mut g_old, &mut g_new);
        std::mem::swap(&mut r_old, &mut r_new);
        if last {
            return Ok(Outcome {
                t,
                x: x.clone(),
                event: None,
                passed_events: passed,
                stats,
                h: h_full,
                quadrature: quad.acc,
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
