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

use crate::analysis::max_abs_diff;
use crate::shooting::{floquet, shoot_attracting, Dominant};
use crate::{Integrator, Method, OdeSystem, Tolerances};

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
}

/// The forced system with the two Fourier integrals appended.
struct Augmented<'a, S> {
    sys: &'a S,
    a: f64,
    w: f64,
    /// The last [`TRIG_CACHE`] values of `(ωt).sin_cos()` by the bits of `t` (oldest replaced):
    /// the integrators evaluate the right-hand side at the same times again (Radau IIA's Newton
    /// iterations and finite-difference Jacobian at its three stage times, DOP853's last stage
    /// and the next step's first at the step's end, the events there). On report chapter 5's
    /// DF runs (2026-11-29, one thread): the sine, cosine and this right-hand side 28.5 % of
    /// the profile before, 25.4 % with the cache (now one `sincos`); outputs bit-identical.
    trig: [std::cell::Cell<(u64, f64, f64)>; TRIG_CACHE],
    oldest: std::cell::Cell<usize>,
}

const TRIG_CACHE: usize = 4;

impl<'a, S> Augmented<'a, S> {
    fn new(sys: &'a S, a: f64, w: f64) -> Self {
        Self {
            sys,
            a,
            w,
            // No time has the bits of a NaN the sine of which is wanted.
            trig: std::array::from_fn(|_| std::cell::Cell::new((f64::NAN.to_bits(), 0.0, 0.0))),
            oldest: std::cell::Cell::new(0),
        }
    }

    /// `(ωt).sin_cos()`, the same bits as computing it.
    fn sin_cos(&self, t: f64) -> (f64, f64) {
        let bits = t.to_bits();
        if let Some(e) = self.trig.iter().map(std::cell::Cell::get).find(|e| e.0 == bits) {
            return (e.1, e.2);
        }
        let (s, c) = (self.w * t).sin_cos();
        let k = self.oldest.get();
        self.trig[k].set((bits, s, c));
        self.oldest.set((k + 1) % TRIG_CACHE);
        (s, c)
    }
}

impl<S: Forced> OdeSystem for Augmented<'_, S> {
    fn dim(&self) -> usize {
        self.sys.dim() + 2
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        let n = self.sys.dim();
        let (s, c) = self.sin_cos(t);
        let u = self.a * s;
        self.sys.rhs(u, &x[..n], &mut dx[..n]);
        let y = self.sys.output(u, &x[..n]);
        dx[n] = y * s;
        dx[n + 1] = y * c;
    }
    fn n_events(&self) -> usize {
        self.sys.n_events()
    }
    fn events(&self, t: f64, x: &[f64], g: &mut [f64]) {
        self.sys.events(self.a * self.sin_cos(t).0, &x[..self.sys.dim()], g);
    }
    fn event_kind(&self, _i: usize) -> crate::EventKind {
        crate::EventKind {
            direction: crate::Direction::Either,
            terminal: true,
        }
    }
    fn event_samples(&self) -> usize {
        self.sys.event_samples()
    }
    fn event_component(&self, i: usize) -> Option<usize> {
        self.sys.event_component(i)
    }
}

/// Periods from rest (the shooting's own two plain periods included) after which a simulation
/// still within [`NEAR`] of an unstable orbit is taken to stay there: the amplitude lies on the
/// boundary between two basins of attraction, and the DF point is that unstable orbit.
pub const LINGER_LIMIT: usize = 128;

/// Distance (max norm, in the shot states' units of `a`) from an unstable orbit within which the
/// simulation from rest lingers by it: Newton started there finds that orbit again.
const NEAR: f64 = 1e-2;

/// Distance from an unstable orbit beyond which the simulation from rest is shot again. Newton
/// started nearer mostly returns to the unstable orbit: on report Figs 5.22 and 5.24 (the shots
/// after an unstable one, by the distance of their start) 61 of 74 did at 0.02–0.05, 1 of 72 at
/// 0.05–0.1 and 3 of 221 beyond (the orbits the simulations settled on lie 0.10–0.58 from it).
const FAR: f64 = 5e-2;

/// Distance from an unstable orbit to which a simulation lingering by it (the linear model
/// confirmed within [`NEAR`]) is advanced in closed form, the model extrapolated, for the next
/// shot: beyond [`FAR`], so that Newton does not return to the orbit. The other multipliers
/// being small, the simulation that leaves NEAR keeps to the unstable direction on its side
/// and would reach FAR after `ln(FAR/NEAR)/ln μ` periods (47 at μ = 1.035). On report chapter
/// 5's DF runs (2026-11-29): period maps on unstable orbits 10 804 → 8 066, all integration
/// steps 35.8 → 33.8 million; the gap sizes moved by 1e-11 relative (the orbits the new shots
/// converge on, to their residual), nothing else.
const JUMP: f64 = 2.0 * FAR;

/// Periods from rest before the simulation is shot again after an unstable orbit, however far
/// from it (the transient from rest is not yet an escape from the orbit); after a further
/// unstable shot at `lead` periods the next waits until `2 lead + FIRST_LEAD`.
const FIRST_LEAD: usize = 6;

/// Largest mismatch, relative to `c`, between the deviation from an unstable orbit and the
/// linear model `c · right` (transverse part) and between `c` and `μ` times the previous period's
/// coordinate, for the lingering to be advanced in closed form. Measured on report Figs 5.22 and
/// 5.24 (313 lingering points): the growth mismatch is at most 1.7e-3 within [`NEAR`].
const LINEAR: f64 = 1e-2;

/// After an event the integration restarts with this fraction of the step that the last phase
/// begun by the same crossing (event and direction) ended with ([`describing_function`]). On
/// report Fig 5.24's inertia (ω = 2 rad/s, 12 sliding amplitudes, DOP853) right-hand sides per
/// period: 8 372 restarting with the step before the event, 7 949 / 7 940 / 8 267 with 0.7 /
/// 0.8 / 0.9 of the remembered one (a step at which the last phase ended by growing is often
/// just too long: the error grows as h⁸).
const RESTART_SAFETY: f64 = 0.8;

/// An orbit that the simulation from the shot's start (rest) reaches within one period, to the
/// shooting's residual, is taken as stable without its Floquet multiplier (`n` period maps) if
/// that period shrank the distance to it by this factor or more: `‖P(x1) − x1‖ ≤ CONTRACTION ·
/// ‖x1 − x0‖` (max norms), `x0` the start, `x1 = P(x0)`. An unstable direction would have to be
/// absent from the whole way from rest to the orbit. Measured on report chapter 5's DF runs
/// (2026-11-29): all 3 770 orbits reached from rest within one period had a finite-difference
/// multiplier of at most 0.008 (3 026 exactly 0: a stick or a saturated branch resets the state);
/// not computing those multipliers took 13 % of the integration steps away (43.4 → 37.7
/// million). (2 411 points meet the contraction; at
/// 1 264 more the first period from rest ends exactly at rest, a stick at the period's end, so
/// no contraction is measured and the multiplier is computed.)
pub const CONTRACTION: f64 = 1e-6;

/// Relative tolerance of the periods in which the simulation from rest leaves an unstable orbit
/// (from NEAR, its distance growing, until it is FAR or comes back): which side it leaves on is
/// settled by then (its coordinate along the unstable direction is at least NEAR, far above the
/// integration's error), and the state at FAR only starts the next shot, whose Newton iterate
/// is then the orbit to the shooting's residual. The absolute tolerance grows in proportion.
/// On report chapter 5's DF runs (2026-11-29): integration steps 37.6 → 35.8 million; gap
/// sizes moved by 1e-12 relative, one bisection
/// probe more found no steady state (unresolved_points 20 → 21 on one run), no metric moved
/// beyond its baseline tolerance.
const ESCAPE_TOL: f64 = 1e-5;

/// Most events one period may hold (a guard against chattering).
const MAX_EVENTS: usize = 100_000;

/// `N(a, ω)` of `sys` from its periodic steady state under `u = a sin ωt`, starting the search
/// from rest (zero state) at `t = 0`.
pub fn describing_function<S: Forced>(sys: &S, a: f64, w: f64, opt: &DfOptions) -> Result<DfPoint, String> {
    let n = sys.dim();
    let period = 2.0 * std::f64::consts::PI / w;
    let ode = Augmented::new(sys, a, w);
    let tol = Tolerances {
        rtol: opt.rtol,
        atol: opt.atol_per_a * a,
        hmax: period / 16.0,
        ..Default::default()
    };
    let escape_rtol = ESCAPE_TOL.max(opt.rtol);
    let escape = Tolerances {
        rtol: escape_rtol,
        // Loosened in proportion (not at all for a pure absolute tolerance).
        atol: if opt.rtol > 0.0 {
            escape_rtol / opt.rtol * tol.atol
        } else {
            tol.atol
        },
        ..tol
    };
    let shot_idx: Vec<usize> = (0..n).filter(|&i| !sys.drifting(i)).collect();
    // Shot in units of `a` (the states scale with it at small amplitudes), so the residual is
    // relative at every amplitude.
    let scale: Vec<f64> = shot_idx.iter().map(|&i| sys.scale(i)).collect();
    let mut steps = 0;
    let rejected = std::cell::Cell::new(0);
    let mut full = vec![0.0; n + 2];
    // One integrator for every restart of every period map (a restart every few steps where
    // the ringing reverses the motion): its buffers are allocated once.
    let integrator = std::cell::RefCell::new(Integrator::new(opt.method));
    // Per event and direction of crossing, the step that the last phase begun by it ended with
    // (see `one_period`), and a buffer for the right-hand side that tells the crossing direction.
    let ne = sys.n_events();
    let restart = std::cell::RefCell::new((vec![0.0; 2 * ne], vec![0.0; n]));
    // One period from the shot states (drifting states and integrals from zero).
    let one_period = |v: &[f64], full: &mut Vec<f64>, steps: &mut usize, tol: &Tolerances| -> Result<(), String> {
        full.iter_mut().for_each(|x| *x = 0.0);
        for (k, &i) in shot_idx.iter().enumerate() {
            full[i] = v[k] * a;
        }
        sys.prepare(&mut full[..n]);
        // Quarter periods: |u| is monotone inside each, so an event function of |u| (a
        // break-away threshold) cannot rise and fall again within one step unseen.
        let mut events = 0;
        // Each restart (a quarter's end, an event) begins with the last step taken before it,
        // except that after an event the step is the one the last phase that began with the same
        // crossing (event and direction) ended with, if any: where the motion alternates between
        // two regimes (the pre-sliding ringing reverses θ' every few steps, and the branch just
        // entered is stiffer in one direction than in the other) the step carried over from the
        // other regime is rejected, often twice, at every restart.
        let mut tol = *tol;
        let mut memory = restart.borrow_mut();
        let (h_ended, g) = &mut *memory;
        h_ended.iter_mut().for_each(|h| *h = 0.0);
        let mut phase: Option<usize> = None;
        for q in 1..=4 {
            let (mut t, end) = ((q - 1) as f64 * period / 4.0, q as f64 * period / 4.0);
            loop {
                let o = (integrator.borrow_mut())
                    .solve(&ode, &tol, t, full, end, &[], &mut |_, _| {})
                    .map_err(|e| format!("a = {a}, ω = {w}: {e}"))?;
                *steps += o.stats.accepted;
                rejected.set(rejected.get() + o.stats.rejected);
                tol.h0 = o.h;
                full.copy_from_slice(&o.x);
                let Some(i) = o.event.filter(|_| o.t < end) else {
                    break;
                };
                if let Some(k) = phase {
                    h_ended[k] = o.h;
                }
                // The input at the event (its sine already computed there, by the event's
                // location).
                let u = a * ode.sin_cos(o.t).0;
                // The direction of the crossing: the rate of the state component the event
                // watches (at the located state the component itself is zero to rounding).
                phase = sys.event_component(i).map(|c| {
                    sys.rhs(u, &full[..n], g);
                    2 * i + usize::from(g[c] > 0.0)
                });
                if let Some(k) = phase.filter(|&k| h_ended[k] > 0.0) {
                    tol.h0 = RESTART_SAFETY * h_ended[k];
                }
                events += 1;
                if events > MAX_EVENTS {
                    return Err(format!("a = {a}, ω = {w}: more than {MAX_EVENTS} events in one period"));
                }
                sys.on_event(i, u, &mut full[..n]);
                t = o.t;
            }
        }
        Ok(())
    };
    // The period map on the shot states (in units of `a`), `buf` its scratch state.
    let period_map = |v: &mut [f64], buf: &mut Vec<f64>, steps: &mut usize, tol: &Tolerances| -> Result<(), String> {
        one_period(v, buf, steps, tol)?;
        for (k, &i) in shot_idx.iter().enumerate() {
            v[k] = buf[i] / a;
        }
        Ok(())
    };
    // The state of the simulation from rest after `lead` periods (shot states over `a`): the
    // shooting ([`shoot_attracting`]) starts there. Newton finds any periodic orbit near its
    // start, stable or not; an orbit whose largest Floquet multiplier exceeds 1 is not where the
    // simulation from rest settles (near break-away an unstable creeping orbit coexists with the
    // sliding one), so the simulation from rest is continued until it is FAR from that orbit,
    // and shot again. Where it lingers within NEAR of the orbit, its deviation is `c · right`
    // growing as `μ^k` (the orbit's other multipliers are below 0.2 on report Figs 5.22-5.24):
    // once the last period confirms that linear model, the periods until it leaves NEAR are
    // advanced in closed form.
    let mut traj = vec![0.0; shot_idx.len()];
    let mut prev = vec![0.0; shot_idx.len()];
    let mut lead = 0usize;
    let mut v = vec![0.0; shot_idx.len()];
    let mut maps = 0;
    let mut buf = vec![0.0; n + 2];
    let mut unstable_maps = 0;
    let mut predicted_periods = 0;
    while lead + 2 < opt.transient {
        period_map(&mut traj, &mut buf, &mut steps, &tol)?;
        maps += 1;
        lead += 1;
    }
    // No further shot before this many periods from rest.
    let mut next_shot = 0;
    // The shooting's last period map: its start and its full end state (Fourier integrals
    // included). It usually ends where the shooting returns (`P` of the last iterate), and then
    // that period, which starts on the orbit to within the residual, gives the DF without a
    // period more.
    let mut last_in = vec![0.0; shot_idx.len()];
    let mut last_full = vec![0.0; n + 2];
    let mut contracted = false;
    let (shot, multiplier, b1, a1, drift) = loop {
        // Maps before this shot: if its orbit is unstable, all it spends from here on is counted
        // in `unstable_maps`.
        let before = maps;
        v.copy_from_slice(&traj);
        let shot = shoot_attracting(&mut v, &scale, opt.steady_tol, opt.max_maps, |v| {
            last_in.copy_from_slice(v);
            period_map(v, &mut buf, &mut steps, &tol)?;
            last_full.copy_from_slice(&buf);
            Ok::<(), String>(())
        })?;
        maps += shot.maps;
        // The period whose fundamental is the DF: from `s0` to `pv = P(s0)`, `full` its end.
        let reuse = shot.maps > 0 && shot_idx.iter().enumerate().all(|(k, &i)| last_full[i] / a == v[k]);
        let (s0, pv) = if reuse {
            full.copy_from_slice(&last_full);
            (last_in.clone(), v.clone())
        } else {
            one_period(&v, &mut full, &mut steps, &tol)?;
            maps += 1;
            (v.clone(), shot_idx.iter().map(|&i| full[i] / a).collect())
        };
        let start: Vec<f64> = {
            let mut x = vec![0.0; n];
            for (k, &i) in shot_idx.iter().enumerate() {
                x[i] = s0[k] * a;
            }
            x
        };
        let drift = sys.output(0.0, &full[..n]) - sys.output(0.0, &start);
        let pi = std::f64::consts::PI;
        let b1 = w / pi * full[n] + drift / pi;
        let a1 = w / pi * full[n + 1];
        // Reached within the shooting's first period: stable without the monodromy.
        if reuse && shot.maps == 2 && shot.newton_steps == 0 && shot.converged {
            let moved = max_abs_diff(&s0, &traj).unwrap_or(0.0);
            if moved > 0.0 && max_abs_diff(&pv, &s0).unwrap_or(0.0) <= CONTRACTION * moved {
                contracted = true;
                break (shot, f64::NAN, b1, a1, drift);
            }
        }
        let fl = floquet(&s0, &pv, &scale, |x| period_map(x, &mut buf, &mut steps, &tol))?;
        maps += fl.maps;
        let rho = fl.radius;
        // Stable, or unstable at the last shot (LINGER_LIMIT periods from rest).
        if rho.is_nan() || rho <= 1.0 || lead + 2 >= LINGER_LIMIT {
            break (shot, rho, b1, a1, drift);
        }
        let shot_maps = maps - before;
        next_shot = next_shot.max(2 * lead + FIRST_LEAD);
        let dominant = fl.dominant();
        // Continue the simulation from rest until it is FAR from the orbit (and past
        // `next_shot`), or still by it at the limit.
        let mut boundary = false;
        let from = |x: &[f64]| max_abs_diff(x, &s0).unwrap_or(0.0);
        let mut dist = from(&traj);
        // Whether the simulation is leaving the orbit: its side (the sign of its coordinate
        // along the unstable direction) is settled, and the periods until it is FAR are
        // integrated to ESCAPE_TOL.
        let mut leaving = false;
        while lead + 2 < LINGER_LIMIT {
            prev.copy_from_slice(&traj);
            let loose = leaving;
            period_map(&mut traj, &mut buf, &mut steps, if loose { &escape } else { &tol })?;
            maps += 1;
            lead += 1;
            let last = dist;
            dist = from(&traj);
            leaving = dist >= NEAR && dist > last;
            if dist > FAR && lead >= next_shot {
                break;
            }
            // (Back within NEAR after a loose period: the linear model is tested on the next.)
            if dist >= NEAR || loose {
                continue;
            }
            let Some(d) = dominant.as_ref() else { continue };
            let Some(k) = linger(d, &s0, &prev, &traj, NEAR) else {
                continue;
            };
            // The last period still within NEAR, as the linear model has it.
            if lead + k.periods + 2 >= LINGER_LIMIT {
                predicted_periods += LINGER_LIMIT - 2 - lead;
                boundary = true;
                break;
            }
            // It leaves on the side it lingers on: the linear model, extrapolated, carries it on
            // to JUMP, where the next shot starts.
            if let Some(j) = linger(d, &s0, &prev, &traj, JUMP) {
                if lead + j.periods + 2 < LINGER_LIMIT && lead + j.periods >= next_shot {
                    lead += j.periods;
                    predicted_periods += j.periods;
                    traj.copy_from_slice(&j.state);
                    break;
                }
            }
            if k.periods > 0 {
                lead += k.periods;
                predicted_periods += k.periods;
                traj.copy_from_slice(&k.state);
            }
        }
        if boundary {
            // The simulation from rest is still by this orbit at the limit: it is the DF point
            // (only the periods simulated past its shot are counted as spent elsewhere).
            unstable_maps += maps - before - shot_maps;
            break (shot, rho, b1, a1, drift);
        }
        unstable_maps += maps - before;
    };
    Ok(DfPoint {
        n: (b1 / a, a1 / a),
        drift,
        residual: shot.residual,
        converged: shot.converged,
        multiplier,
        maps,
        steps,
        rejected: rejected.get(),
        unstable_maps,
        predicted_periods,
        contracted,
    })
}

/// Where the simulation from rest lingers by an unstable orbit `s0` (its last two periods `prev`
/// and `traj`): the periods, counted from `traj`, that the linear model `c μ^k · right` (`c =
/// left · (traj − s0)`) keeps it within [`NEAR`], and its state after them, if the model explains
/// both the transverse part of the deviation and its growth over the last period to [`LINEAR`].
struct Linger {
    periods: usize,
    state: Vec<f64>,
}

fn linger(d: &Dominant, s0: &[f64], prev: &[f64], traj: &[f64], near: f64) -> Option<Linger> {
    let coord = |x: &[f64]| -> f64 { d.left.iter().zip(x.iter().zip(s0)).map(|(l, (x, s))| l * (x - s)).sum() };
    let (c, c_prev) = (coord(traj), coord(prev));
    if c == 0.0 || !c.is_finite() || d.mu <= 1.0 {
        return None;
    }
    let transverse = traj
        .iter()
        .zip(s0)
        .zip(&d.right)
        .map(|((x, s), r)| (x - s - c * r).abs())
        .fold(0.0, f64::max);
    // `right`'s largest component is 1: the deviation's norm is |c|.
    if transverse > LINEAR * c.abs() || (c - d.mu * c_prev).abs() > LINEAR * c.abs() {
        return None;
    }
    let periods = ((near / c.abs()).ln() / d.mu.ln()).floor().max(0.0);
    // A bound for the float-to-integer cast; far beyond any limit of periods.
    let periods = periods.min(1e6) as usize;
    let grown = c * d.mu.powi(periods as i32);
    Some(Linger {
        periods,
        state: s0.iter().zip(&d.right).map(|(s, r)| s + grown * r).collect(),
    })
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

/// Where in a bracket a bisection probes: the midpoint first, then nearby points when the
/// function has no value there (an isolated steady state that would not converge).
pub const PROBES: [f64; 5] = [0.5, 0.45, 0.55, 0.4, 0.6];

/// A jump of the DF between two amplitudes, refined by bisection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jump {
    pub lo: f64,
    pub hi: f64,
    pub n_lo: (f64, f64),
    pub n_hi: (f64, f64),
    /// [`distance`] between `n_lo` and `n_hi` at the final width.
    pub size: f64,
    pub evaluations: usize,
    /// The bisection stopped at an amplitude where `df` could not be computed (`None`).
    pub unresolved: bool,
}

/// What a bisection learns from one evaluation of the DF.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sample<T = (f64, f64)> {
    /// The DF there (or what the caller computes with it).
    Value(T),
    /// No value at this amplitude (a steady state that would not converge): a point nearby
    /// may have one, so the next of [`PROBES`] is tried.
    Hole,
    /// No value, and none nearer the jump is to be expected: the amplitude lies on the boundary
    /// between two basins of attraction (the simulation from rest stays on the unstable orbit
    /// that separates them), and so does every point as close to the jump. The bisection stops.
    Boundary,
}

impl<T> Sample<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Sample<U> {
        match self {
            Sample::Value(v) => Sample::Value(f(v)),
            Sample::Hole => Sample::Hole,
            Sample::Boundary => Sample::Boundary,
        }
    }

    pub fn value(self) -> Option<T> {
        match self {
            Sample::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// One step of a bisection of `(lo, hi)` (either order): `f` at the midpoint, or at the next of
/// the [`PROBES`] while it finds a [`Sample::Hole`], until a [`Sample::Boundary`]. The first point
/// with a value (none if every probe failed or a boundary was met) and the evaluations spent.
pub fn probe<T, E>(
    lo: f64,
    hi: f64,
    mut f: impl FnMut(f64) -> Result<Sample<T>, E>,
) -> Result<(Option<(f64, T)>, usize), E> {
    let mut evaluations = 0;
    for p in PROBES {
        let m = lo + p * (hi - lo);
        if m == lo || m == hi {
            continue;
        }
        evaluations += 1;
        match f(m)? {
            Sample::Value(v) => return Ok((Some((m, v)), evaluations)),
            Sample::Hole => {}
            Sample::Boundary => break,
        }
    }
    Ok((None, evaluations))
}

/// Bisect `[lo, hi]` towards the larger change of `df` (by [`distance`]) until the interval is
/// narrower than `rel · hi`, or the change across it has fallen below `continuous` (then the
/// change is steep but continuous, and the bisection stops early). A discontinuity keeps a finite
/// `size` down to the final width. Where `df` has no value at any of the [`PROBES`] near the
/// midpoint, or returns [`Sample::Boundary`], the bisection stops with `unresolved`.
pub fn refine_jump<E>(
    df: impl FnMut(f64) -> Result<Sample, E>,
    lo: (f64, (f64, f64)),
    hi: (f64, (f64, f64)),
    rel: f64,
    continuous: f64,
) -> Result<Jump, E> {
    bisect_jump(df, lo, hi, rel, continuous, |_, _| {})
}

/// Every jump of `df` in `[lo, hi]`: [`refine_jump`]'s bisection, and each half it leaves whose
/// change still exceeds `trigger` (the change between grid points that starts a refinement)
/// refined in turn, with the halves those leave, until none is left. The bisection follows the
/// larger change, so where one bracket holds two features (a jump and a steep but continuous
/// rise beside it, or two jumps) it finds only one, and which one depended on where the grid
/// points fell (report Fig 5.22 at ω = 10 rad/s: the second gap found on a grid of 81
/// amplitudes, lost on one of 161). The jumps, sorted by amplitude, their brackets disjoint.
pub fn refine_jumps<E>(
    mut df: impl FnMut(f64) -> Result<Sample, E>,
    lo: (f64, (f64, f64)),
    hi: (f64, (f64, f64)),
    rel: f64,
    continuous: f64,
    trigger: f64,
) -> Result<Vec<Jump>, E> {
    type End = (f64, (f64, f64));
    let mut todo: Vec<(End, End)> = vec![(lo, hi)];
    let mut jumps = Vec::new();
    while let Some((lo, hi)) = todo.pop() {
        let mut left = Vec::new();
        jumps.push(bisect_jump(&mut df, lo, hi, rel, continuous, |a: End, b: End| {
            if distance(a.1, b.1) > trigger {
                left.push((a, b));
            }
        })?);
        todo.extend(left);
    }
    jumps.sort_by(|a, b| a.lo.total_cmp(&b.lo));
    Ok(jumps)
}

/// [`refine_jump`]'s bisection, handing each half it leaves to `leave` (its ends, in order).
fn bisect_jump<E>(
    mut df: impl FnMut(f64) -> Result<Sample, E>,
    (mut lo, mut n_lo): (f64, (f64, f64)),
    (mut hi, mut n_hi): (f64, (f64, f64)),
    rel: f64,
    continuous: f64,
    mut leave: impl FnMut((f64, (f64, f64)), (f64, (f64, f64))),
) -> Result<Jump, E> {
    let mut evaluations = 0;
    let mut unresolved = false;
    while hi - lo > rel * hi && distance(n_lo, n_hi) >= continuous {
        // The midpoint, or a point near it where the midpoint has no value.
        let (found, spent) = probe(lo, hi, &mut df)?;
        evaluations += spent;
        let Some((m, nm)) = found else {
            unresolved = true;
            break;
        };
        if distance(n_lo, nm) >= distance(nm, n_hi) {
            leave((m, nm), (hi, n_hi));
            (hi, n_hi) = (m, nm);
        } else {
            leave((lo, n_lo), (m, nm));
            (lo, n_lo) = (m, nm);
        }
    }
    Ok(Jump {
        lo,
        hi,
        n_lo,
        n_hi,
        size: distance(n_lo, n_hi),
        evaluations,
        unresolved,
    })
}

/// Bisection of a sign change of `f` on `[lo, hi]` (`f(lo)` and `f(hi)` of opposite signs) to a
/// width of `xtol`: the final bracket `(lo, f(lo), hi, f(hi))`. Across a discontinuity the
/// bracket closes on the jump and the values keep their size.
pub fn bisect_sign<E>(
    mut f: impl FnMut(f64) -> Result<f64, E>,
    (mut lo, mut f_lo): (f64, f64),
    (mut hi, mut f_hi): (f64, f64),
    xtol: f64,
) -> Result<(f64, f64, f64, f64), E> {
    while hi - lo > xtol {
        let m = 0.5 * (lo + hi);
        if m <= lo || m >= hi {
            break;
        }
        let fm = f(m)?;
        if (fm > 0.0) == (f_lo > 0.0) {
            (lo, f_lo) = (m, fm);
        } else {
            (hi, f_hi) = (m, fm);
        }
    }
    Ok((lo, f_lo, hi, f_hi))
}

/// The Illinois variant of regula falsi for a sign change of `f` on `[lo, hi]`, to `xtol`: the
/// root estimate and the number of evaluations. Superlinear where `f` is smooth, never leaves
/// the bracket.
pub fn illinois<E>(
    mut f: impl FnMut(f64) -> Result<f64, E>,
    (mut lo, mut f_lo): (f64, f64),
    (mut hi, mut f_hi): (f64, f64),
    xtol: f64,
    max_evals: usize,
) -> Result<(f64, usize), E> {
    let mut side = 0;
    let mut evals = 0;
    let mut x = lo;
    while (hi - lo).abs() > xtol && evals < max_evals {
        x = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
        if !(x > lo.min(hi) && x < lo.max(hi)) {
            x = 0.5 * (lo + hi);
        }
        let fx = f(x)?;
        evals += 1;
        if fx == 0.0 {
            return Ok((x, evals));
        }
        if (fx > 0.0) == (f_hi > 0.0) {
            (hi, f_hi) = (x, fx);
            if side == -1 {
                f_lo /= 2.0;
            }
            side = -1;
        } else {
            (lo, f_lo) = (x, fx);
            if side == 1 {
                f_hi /= 2.0;
            }
            side = 1;
        }
    }
    Ok((x, evals))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `J x'' + c x' + k x = u`: the DF of a linear system is its frequency response.
    struct Msd {
        j: f64,
        c: f64,
        k: f64,
    }
    impl Forced for Msd {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
            dx[0] = x[1];
            dx[1] = (u - self.c * x[1] - self.k * x[0]) / self.j;
        }
        fn output(&self, _: f64, x: &[f64]) -> f64 {
            x[0]
        }
    }

    #[test]
    fn linear_system_gives_its_frequency_response() {
        let m = Msd { j: 0.5, c: 0.3, k: 2.0 };
        for &(a, w) in &[(1e-3, 0.7), (2.0, 2.0), (10.0, 5.0)] {
            let p = describing_function(&m, a, w, &DfOptions::default()).unwrap();
            // 1/(k − J ω² + i c ω).
            let (re, im) = (m.k - m.j * w * w, m.c * w);
            let q = re * re + im * im;
            let exact = (re / q, -im / q);
            assert!((p.n.0 - exact.0).abs() < 1e-8 * q.sqrt().recip(), "{p:?} vs {exact:?}");
            assert!((p.n.1 - exact.1).abs() < 1e-8 * q.sqrt().recip(), "{p:?} vs {exact:?}");
            assert!(p.residual < 1e-10 && p.converged);
        }
    }

    #[test]
    fn the_cached_sine_and_cosine_are_the_computed_bits() {
        let m = Msd { j: 0.5, c: 0.3, k: 2.0 };
        let ode = Augmented::new(&m, 1.0, 0.7);
        // Repeats among more distinct times than the cache holds, zero's signs included.
        let ts = [0.0, -0.0, 1.0, 2.5, 1.0, 3.0, 4.0, 5.0, 0.0, 2.5, 2.5, -0.0, 9.0, 1.0];
        for t in ts {
            let (s, c) = ode.sin_cos(t);
            let (s0, c0) = (0.7 * t).sin_cos();
            assert_eq!((s.to_bits(), c.to_bits()), (s0.to_bits(), c0.to_bits()), "t = {t}");
        }
    }

    /// `x' = −k x + u`: the distance to the orbit shrinks by `exp(−k T)` per period.
    struct Lag {
        k: f64,
    }
    impl Forced for Lag {
        fn dim(&self) -> usize {
            1
        }
        fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
            dx[0] = u - self.k * x[0];
        }
        fn output(&self, _: f64, x: &[f64]) -> f64 {
            x[0]
        }
    }

    #[test]
    fn an_orbit_reached_within_a_period_skips_its_multiplier_and_no_other_does() {
        let w = 1.0;
        let t = 2.0 * std::f64::consts::PI / w;
        // exp(−kT) = 1e-12, far below CONTRACTION: reached within the first period.
        let fast = describing_function(
            &Lag {
                k: 12.0 * 10f64.ln() / t,
            },
            0.5,
            w,
            &DfOptions::default(),
        )
        .unwrap();
        assert!(
            fast.contracted && fast.multiplier.is_nan() && fast.maps == 2,
            "{fast:?}"
        );
        // exp(−kT) = 1e-3: the shooting needs more than the plain periods, and the multiplier
        // is computed (the exact one, a linear map).
        let slow = describing_function(
            &Lag {
                k: 3.0 * 10f64.ln() / t,
            },
            0.5,
            w,
            &DfOptions::default(),
        )
        .unwrap();
        assert!(!slow.contracted && (slow.multiplier - 1e-3).abs() < 1e-6, "{slow:?}");
        // Both are the frequency response 1/(k + iω).
        for (p, k) in [(fast, 12.0 * 10f64.ln() / t), (slow, 3.0 * 10f64.ln() / t)] {
            let q = k * k + w * w;
            assert!((p.n.0 - k / q).abs() < 1e-8 && (p.n.1 + w / q).abs() < 1e-8, "{p:?}");
        }
    }

    /// A free inertia `J x'' + c x' = u` plus a constant torque bias: the position drifts, and the
    /// DF of the drift-free part is still `1/(−J ω² + i c ω)`.
    struct Drifting {
        j: f64,
        c: f64,
        bias: f64,
    }
    impl Forced for Drifting {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
            dx[0] = x[1];
            dx[1] = (u + self.bias - self.c * x[1]) / self.j;
        }
        fn output(&self, _: f64, x: &[f64]) -> f64 {
            x[0]
        }
        fn drifting(&self, i: usize) -> bool {
            i == 0
        }
    }

    #[test]
    fn drift_is_removed() {
        let m = Drifting {
            j: 0.01,
            c: 0.2,
            bias: 0.3,
        };
        let (a, w) = (1.0, 3.0);
        let p = describing_function(&m, a, w, &DfOptions::default()).unwrap();
        let (re, im) = (-m.j * w * w, m.c * w);
        let q = re * re + im * im;
        assert!((p.n.0 - re / q).abs() < 1e-8 / q.sqrt(), "{p:?}");
        assert!((p.n.1 + im / q).abs() < 1e-8 / q.sqrt(), "{p:?}");
        // The drift per period is bias/c · T.
        let t = 2.0 * std::f64::consts::PI / w;
        assert!((p.drift - m.bias / m.c * t).abs() < 1e-8, "{}", p.drift);
    }

    #[test]
    fn lingering_is_advanced_along_the_unstable_direction_only_where_the_linear_model_holds() {
        // μ = 1.1, right (1, 0.5), left (1, 0) (left · right = 1), the orbit at s0 = (2, 3).
        let d = Dominant {
            mu: 1.1,
            right: vec![1.0, 0.5],
            left: vec![1.0, 0.0],
        };
        let s0 = [2.0, 3.0];
        let at = |c: f64| [2.0 + c, 3.0 + 0.5 * c];
        // c = 1e-6 now, 1e-6/1.1 a period ago: within NEAR for floor(ln(1e4)/ln 1.1) = 96 more
        // periods (derived), then at c 1.1^96 = 9.4e-3.
        let k = linger(&d, &s0, &at(1e-6 / 1.1), &at(1e-6), NEAR).expect("linear");
        assert_eq!(k.periods, 96);
        let c = 1e-6 * 1.1f64.powi(96);
        assert!(c < NEAR && c * 1.1 > NEAR);
        // (c is read back from 2 + 1e-6: 1e-10 relative.)
        let close = |x: f64, y: f64| (x - y).abs() < 1e-9 * c;
        assert!(
            close(k.state[0], at(c)[0]) && close(k.state[1], at(c)[1]),
            "{:?}",
            k.state
        );
        // Extrapolated on to JUMP: floor(ln(1e5)/ln 1.1) = 120 periods (derived), c = 9.3e-2.
        let j = linger(&d, &s0, &at(1e-6 / 1.1), &at(1e-6), JUMP).expect("linear");
        let c = 1e-6 * 1.1f64.powi(120);
        assert!(j.periods == 120 && c < JUMP && c * 1.1 > JUMP && c > FAR);
        assert!((j.state[0] - at(c)[0]).abs() < 1e-9 * c && (j.state[1] - at(c)[1]).abs() < 1e-9 * c);
        // A negative coordinate is advanced on its own side.
        let k = linger(&d, &s0, &at(-1e-6 / 1.1), &at(-1e-6), NEAR).expect("linear");
        assert!(k.periods == 96 && k.state[0] < 2.0 && k.state[1] < 3.0, "{:?}", k.state);
        // Not where the deviation has a transverse part of 2 % of c, nor where it did not grow
        // by μ over the last period, nor on the orbit itself.
        let mut off = at(1e-6);
        off[1] += 2e-8;
        assert!(linger(&d, &s0, &at(1e-6 / 1.1), &off, NEAR).is_none());
        assert!(linger(&d, &s0, &at(1e-6), &at(1e-6), NEAR).is_none());
        assert!(linger(&d, &s0, &s0, &s0, NEAR).is_none());
    }

    #[test]
    fn a_probe_skips_holes_and_stops_at_a_boundary() {
        // Either order of the bracket: the drift-edge bisection probes from its quiet end.
        let mut seen = Vec::new();
        let (found, spent) = probe(1.0, 0.0, |m| {
            seen.push(m);
            Ok::<_, ()>(if seen.len() < 3 {
                Sample::Hole
            } else {
                Sample::Value(2.0 * m)
            })
        })
        .unwrap();
        let near = |x: f64, y: f64| (x - y).abs() < 1e-15;
        assert!(
            seen.len() == 3 && seen.iter().zip([0.5, 0.55, 0.45]).all(|(&x, y)| near(x, y)),
            "{seen:?}"
        );
        let (m, v) = found.unwrap();
        assert!(near(m, 0.45) && v == 2.0 * m && spent == 3);
        let mut calls = 0;
        let (found, spent) = probe(0.0, 1.0, |_| {
            calls += 1;
            Ok::<Sample<f64>, ()>(if calls == 1 { Sample::Hole } else { Sample::Boundary })
        })
        .unwrap();
        assert_eq!((found, spent), (None, 2));
        // A bracket too narrow to hold a point between its ends is not evaluated.
        let (found, spent) = probe(1.0, 1.0 + f64::EPSILON, |_| Ok::<Sample<f64>, ()>(Sample::Hole)).unwrap();
        assert_eq!((found, spent), (None, 0));
    }

    #[test]
    fn jumps_are_told_from_steep_slopes() {
        let n = |a: f64| if a < 0.4 { (1.0, 0.0) } else { (0.1, -0.2) };
        let step = |a: f64| Ok::<_, ()>(Sample::Value(n(a)));
        let j = refine_jump(step, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
        assert!(j.lo < 0.4 && j.hi >= 0.4 && j.hi - j.lo <= 1e-12);
        assert!(j.size > 1.0 && !j.unresolved);
        // A hole at the midpoint is stepped around; where no nearby probe has a value either, the
        // bisection stops there.
        let small_hole = |a: f64| {
            Ok::<_, ()>(if (0.399..0.401).contains(&a) {
                Sample::Hole
            } else {
                Sample::Value(n(a))
            })
        };
        let k = refine_jump(small_hole, (0.3, (1.0, 0.0)), (0.5, (0.1, -0.2)), 1e-12, 1e-3).unwrap();
        // It narrows from 0.2 to about the hole's size around the jump, then stops.
        assert!(k.unresolved && k.lo < 0.4 && k.hi > 0.4 && k.hi - k.lo < 0.01, "{k:?}");
        let holey = |a: f64| {
            Ok::<_, ()>(if (0.37..0.43).contains(&a) {
                Sample::Hole
            } else {
                Sample::Value(n(a))
            })
        };
        let h = refine_jump(holey, (0.3, (1.0, 0.0)), (0.5, (0.1, -0.2)), 1e-12, 1e-3).unwrap();
        assert!(h.unresolved && h.lo == 0.3 && h.hi == 0.5, "{h:?}");
        // On a basin boundary the points around the midpoint are not tried: the bisection stops
        // at the first boundary point, one evaluation per step (a jump at 0.41 whose ±2e-4 are
        // a boundary; the same as a hole, the bisection would try every probe there).
        let n2 = |a: f64| if a < 0.41 { (1.0, 0.0) } else { (0.1, -0.2) };
        let mut calls = 0;
        let boundary = |a: f64| {
            calls += 1;
            Ok::<_, ()>(if (0.4098..0.4102).contains(&a) {
                Sample::Boundary
            } else {
                Sample::Value(n2(a))
            })
        };
        let b = refine_jump(boundary, (0.3, n2(0.3)), (0.5, n2(0.5)), 1e-12, 1e-3).unwrap();
        assert!(
            b.unresolved && b.lo < 0.41 && b.hi > 0.41 && b.hi - b.lo < 0.002,
            "{b:?}"
        );
        assert_eq!(calls, b.evaluations);
        let as_hole = |a: f64| {
            Ok::<_, ()>(if (0.4098..0.4102).contains(&a) {
                Sample::Hole
            } else {
                Sample::Value(n2(a))
            })
        };
        let k = refine_jump(as_hole, (0.3, n2(0.3)), (0.5, n2(0.5)), 1e-12, 1e-3).unwrap();
        assert!(k.unresolved && k.evaluations >= b.evaluations + 4, "{k:?} vs {b:?}");
        let sn = |a: f64| ((1.0 + ((a - 0.4) * 1e4).tanh()) + 0.1, 0.0);
        let steep = |a: f64| Ok::<_, ()>(Sample::Value(sn(a)));
        let j = refine_jump(steep, (0.3, sn(0.3)), (0.5, sn(0.5)), 1e-12, 0.0).unwrap();
        assert!(j.size < 1e-6, "{j:?}");
        // With a threshold the bisection stops once the change is below it.
        let k = refine_jump(steep, (0.3, sn(0.3)), (0.5, sn(0.5)), 1e-12, 1e-3).unwrap();
        assert!(k.size < 1e-3 && k.evaluations < j.evaluations, "{k:?}");
    }

    #[test]
    fn every_jump_in_a_bracket_is_found_whatever_the_grid() {
        // ln N jumps by 0.5 at 0.33 and rises continuously by 0.7 around 0.45 (width 1e-4).
        let f = |a: f64| if a >= 0.33 { 0.5 } else { 0.0 } + 0.35 * (1.0 + ((a - 0.45) * 1e4).tanh());
        let n = |a: f64| (f(a).exp(), 0.0);
        let df = |a: f64| Ok::<_, ()>(Sample::Value(n(a)));
        let gaps = |js: &[Jump]| js.iter().filter(|j| j.size >= 1e-3).count();
        // From 0.4 the rise is the larger change: the single bisection follows it, ends on a
        // continuous change and loses the jump.
        let one = refine_jump(df, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3).unwrap();
        assert!(one.size < 1e-3 && one.lo > 0.44, "{one:?}");
        // Refining the half it left (a change of 0.5 > 0.25) finds it.
        let all = refine_jumps(df, (0.3, n(0.3)), (0.5, n(0.5)), 1e-12, 1e-3, 0.25).unwrap();
        assert_eq!(gaps(&all), 1, "{all:?}");
        let j = all.iter().find(|j| j.size >= 1e-3).unwrap();
        assert!(
            j.lo < 0.33 && j.hi >= 0.33 && j.hi - j.lo <= 1e-12 && (j.size - 0.5).abs() < 1e-9,
            "{j:?}"
        );
        assert!(all.windows(2).all(|w| w[0].hi <= w[1].lo), "sorted, disjoint: {all:?}");
        // A grid twice as fine, the jump and the rise in brackets of their own: the same gap.
        let fine: Vec<Jump> = [(0.3, 0.4), (0.4, 0.5)]
            .iter()
            .flat_map(|&(a, b)| refine_jumps(df, (a, n(a)), (b, n(b)), 1e-12, 1e-3, 0.25).unwrap())
            .collect();
        assert_eq!(gaps(&fine), 1, "{fine:?}");
    }

    #[test]
    fn root_finders_bracket_and_converge() {
        let f = |x: f64| Ok::<_, ()>(x * x * x - 2.0);
        let (lo, _, hi, _) = bisect_sign(f, (0.0, -2.0), (2.0, 6.0), 1e-12).unwrap();
        assert!(lo <= 2f64.cbrt() && hi >= 2f64.cbrt() && hi - lo <= 1e-12);
        let (x, evals) = illinois(f, (0.0, -2.0), (2.0, 6.0), 1e-13, 100).unwrap();
        assert!((x - 2f64.cbrt()).abs() < 1e-12, "{x}");
        assert!(evals < 20, "{evals}");
    }
}
