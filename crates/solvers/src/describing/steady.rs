//! The periodic steady state of a [`Forced`] system under `u = a sin ωt`, found by shooting from
//! rest, and its describing function; the handling of unstable orbits (lingering, escape).

use super::augmented::Augmented;
use super::{DfOptions, DfPoint, Forced};
use crate::analysis::max_abs_diff;
use crate::shooting::{floquet, shoot_attracting, Dominant};
use crate::{Integrator, Tolerances};

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
    let (shot, multiplier, b1, a1, drift, s0) = loop {
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
                break (shot, f64::NAN, b1, a1, drift, s0);
            }
        }
        let fl = floquet(&s0, &pv, &scale, |x| period_map(x, &mut buf, &mut steps, &tol))?;
        maps += fl.maps;
        let rho = fl.radius;
        // Stable, or unstable at the last shot (LINGER_LIMIT periods from rest).
        if rho.is_nan() || rho <= 1.0 || lead + 2 >= LINGER_LIMIT {
            break (shot, rho, b1, a1, drift, s0);
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
            break (shot, rho, b1, a1, drift, s0);
        }
        unstable_maps += maps - before;
    };
    // The system's invariants on the orbit whose period gave the DF (from `s0`, as
    // `one_period` starts it).
    let mut orbit_margin = f64::NAN;
    let mut orbit_steps = 0;
    if sys.checks_orbit() && opt.check_orbits {
        let mut start = vec![0.0; n];
        for (k, &i) in shot_idx.iter().enumerate() {
            start[i] = s0[k] * a;
        }
        sys.prepare(&mut start);
        let o = super::orbit(sys, a, w, opt.method, &tol, &start)?;
        orbit_steps = o.steps;
        orbit_margin = sys.check_orbit(&o).map_err(|e| format!("a = {a}, ω = {w}: {e}"))?;
    }
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
        orbit_margin,
        orbit_steps,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::describing::test_systems::{Drifting, Lag, Msd};

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
}
