//! Exponential collocation in the path variable: a single-state model whose state moves only
//! with its input, `z' = |u'| (α(u, u') z + β(u, u'))`, integrated between two input reversals in
//! `s = |u(t) − u(t0)|` instead of in time.
//!
//! Why: LuGre under prescribed motion is `z' = −(σ0 |u'|/g(u')) z + u'`. In time its stiff
//! coefficient `a(t) = −σ0 |u'(t)|/g(u'(t))` sweeps from 0 at a reversal to ~σ0 |u'| within a
//! fraction of a second; the exponential collocation ([`crate::expint`]) carries only the step's
//! mean of `a` in closed form, so it needs many short steps where `a` changes by a large amount
//! over a step (half of its steps on the benchmark fall in the 0.5 s after each reversal). In the
//! path, `dz/ds = α z + β` with `α = −σ0/g(u')` and `β = sign u'`: the stiff coefficient is
//! almost constant (`g` varies between `F_C` and `F_s`), the transient after a reversal is a
//! plain exponential in `s`, and the same collocation resolves it in a few steps.
//!
//! What it needs: on `[t0, t1]` the input is monotone (the caller splits time at every input
//! extremum; no driver in `fric-experiments` calls this yet), and the model's `affine` coefficients
//! `(a, b)` are `|u'|` times coefficients with a limit at `u' → 0` (the model says so,
//! `InputDriven::moves_with_input`). Then `a/|u'|` and `b/|u'|` are evaluated at the time `t(s)`
//! where the input has travelled `s`, found by Newton's method on `u` safeguarded by bisection
//! (warm-started at the previous evaluation, so a few evaluations of `u` each). A piece that is
//! not monotone is an error: `u'` of the wrong sign at any time the inversion evaluates, or the
//! input reaching its end value before `t1` and leaving it (checked at the middle of the rest).
//!
//! Steps are capped in time as the time-domain method's are (`hmax_t`): a feature of `g(u'(t))`
//! shorter than the nodes' spacing would otherwise be invisible to the error estimate (the
//! Stribeck region before a reversal is a sliver of `s`). The cap costs one inversion per step.

use crate::expint::{solve_capped, ExpStats, ExpTolerance, Scheme, NODES};
use std::cell::Cell;

/// The smallest `|u'|` by which `a` and `b` are divided: below it the ratios are taken at
/// `u' = ±U_DOT_FLOOR` in the direction of travel (their limit at the reversal).
const U_DOT_FLOOR: f64 = 1e-100;

/// A monotone piece `[t0, t1]` of a prescribed input, with the inverse of its path variable.
pub struct Monotone<'a, U: Fn(f64) -> f64, D: Fn(f64) -> f64> {
    u: &'a U,
    du: &'a D,
    t0: f64,
    t1: f64,
    u0: f64,
    /// `+1` when `u` increases on the piece, `−1` when it decreases.
    dir: f64,
    /// The last inversion `(s, t)`, the next one's starting point.
    last: Cell<(f64, f64)>,
    /// Newton iterations spent inverting (for the statistics).
    iterations: Cell<usize>,
    /// The largest `|u'|` of the wrong sign tolerated (rounding at a reversal).
    wrong_sign_tol: f64,
    /// The first time at which `u'` was seen with the wrong sign, and `u'` there.
    wrong_sign: Cell<Option<(f64, f64)>>,
}

impl<'a, U: Fn(f64) -> f64, D: Fn(f64) -> f64> Monotone<'a, U, D> {
    /// The piece `[t0, t1]` of `u` (derivative `du`).
    pub fn new(u: &'a U, du: &'a D, t0: f64, t1: f64) -> Self {
        let u0 = u(t0);
        let dir = if u(t1) >= u0 { 1.0 } else { -1.0 };
        // `u'` is computed to a few ulps of its size: of the mean speed, or of `u`'s over the span.
        let span = (t1 - t0).abs().max(f64::MIN_POSITIVE);
        let wrong_sign_tol = (1e-9 * (u(t1) - u0).abs() + 64.0 * f64::EPSILON * u0.abs()) / span;
        Self {
            u,
            du,
            t0,
            t1,
            u0,
            dir,
            last: Cell::new((0.0, t0)),
            iterations: Cell::new(0),
            wrong_sign_tol,
            wrong_sign: Cell::new(None),
        }
    }

    /// `s(t) = |u(t) − u(t0)|` (signed by the direction of travel, so a value below 0 is an
    /// overshoot by rounding).
    pub fn s_of(&self, t: f64) -> f64 {
        self.dir * ((self.u)(t) - self.u0)
    }

    /// The path length of the piece.
    pub fn length(&self) -> f64 {
        self.s_of(self.t1).max(0.0)
    }

    /// The time at which the input has travelled `s`, and `u'` there (given the direction of
    /// travel's sign; see [`Self::check`] for a `u'` of the wrong sign met on the way): Newton's
    /// method on `s(t) − s` inside a bracket that bisection keeps when a Newton step would leave it
    /// (the derivative `u'` is at hand, so Newton rather than [`crate::roots`]' bracketing methods).
    pub fn invert(&self, s: f64) -> (f64, f64) {
        let (s_last, t_last) = self.last.get();
        let (mut lo, mut hi) = if s >= s_last {
            (t_last, self.t1)
        } else {
            (self.t0, t_last)
        };
        let mut t = t_last;
        // `u(t)` is known to a few ulps of its size (and of its argument's, for a periodic
        // input far from t = 0), so `s(t) − s` cannot be driven to zero: stop when it is at
        // that level, when the Newton correction is at the resolution of t, or when bisection
        // has closed the bracket.
        let tol_s = 4.0 * f64::EPSILON * (self.u0.abs() + s);
        let tol_t = 8.0 * f64::EPSILON * (self.t0.abs().max(self.t1.abs()));
        let mut d = self.dir * (self.du)(t);
        for _ in 0..60 {
            self.iterations.set(self.iterations.get() + 1);
            let r = self.s_of(t) - s;
            d = self.speed(t);
            if r.abs() <= tol_s || hi - lo <= tol_t {
                break;
            }
            if r > 0.0 {
                hi = t;
            } else {
                lo = t;
            }
            let newton = t - r / d;
            if d > 0.0 && newton > lo && newton < hi {
                let small = (newton - t).abs() <= tol_t;
                t = newton;
                if small {
                    d = self.speed(t);
                    break;
                }
            } else {
                t = 0.5 * (lo + hi);
            }
        }
        self.last.set((s, t));
        (t, self.dir * d.abs())
    }

    /// `dir · u'(t)`, the speed along the path; a value below `−wrong_sign_tol` (the input turns
    /// inside the piece) is recorded for [`Self::check`].
    fn speed(&self, t: f64) -> f64 {
        let d = self.dir * (self.du)(t);
        if d < -self.wrong_sign_tol && self.wrong_sign.get().is_none() {
            self.wrong_sign.set(Some((t, (self.du)(t))));
        }
        d
    }

    /// An error when the piece was seen not to be monotone: a `u'` of the wrong sign at a time the
    /// inversions evaluated, or, with `t_end` the time found for the whole length, the input away
    /// from its end value halfway between `t_end` and `t1` (it went past and came back).
    pub fn check(&self, t_end: f64) -> Result<(), String> {
        let err = |what: String| {
            Err(format!(
                "the input is not monotone on [{}, {}] s ({what}): the path-variable integrator needs \
                 every input extremum as a stop",
                self.t0, self.t1
            ))
        };
        if let Some((t, v)) = self.wrong_sign.get() {
            let sign = if self.dir > 0.0 { "increases" } else { "decreases" };
            return err(format!("it {sign} from t0 to t1 but u'({t}) = {v:e}"));
        }
        let len = self.length();
        let mid = 0.5 * (t_end + self.t1);
        let slack = 1e-9 * len + 8.0 * f64::EPSILON * self.u0.abs();
        let off = (self.s_of(mid) - len).abs();
        if off > slack {
            return err(format!(
                "it reaches its end value at t = {t_end} s and is {off:e} away from it at t = {mid} s"
            ));
        }
        Ok(())
    }

    /// Newton iterations spent so far.
    pub fn iterations(&self) -> usize {
        self.iterations.get()
    }
}

/// Integrate `z' = a(u, u') z + b(u, u')` over the monotone piece `[t0, t1]` of the input `u`
/// (derivative `du`) in the path variable, from `z(t0) = z0`; `affine(u, u') = (a, b)` must be
/// `|u'|` times coefficients with a limit as `u' → 0` (see the module's documentation). `saveat`
/// (times, sorted) within `[t0, t1]` are passed to `out(t, z)`; `s_buf` is scratch for their path
/// values (reused, so the step loop does not allocate). Steps span at most `hmax_t` in time.
/// `tol.hmax` must be infinite: steps are capped in time by `hmax_t`, not in the path.
/// Returns `z(t1)`; an error when `tol.hmax` is finite, when the input is not monotone on the
/// piece (a save time whose path value runs backwards by more than rounding, or what
/// [`Monotone::check`] sees at the step ends) or when the integrator fails.
#[allow(clippy::too_many_arguments)]
pub fn solve_path<U, D, A>(
    u: &U,
    du: &D,
    affine: &A,
    t0: f64,
    z0: f64,
    t1: f64,
    saveat: &[f64],
    tol: ExpTolerance,
    hmax_t: f64,
    s_buf: &mut Vec<f64>,
    stats: &mut ExpStats,
    out: &mut dyn FnMut(f64, f64),
) -> Result<f64, String>
where
    U: Fn(f64) -> f64,
    D: Fn(f64) -> f64,
    A: Fn(f64, f64) -> (f64, f64),
{
    if tol.hmax.is_finite() {
        return Err(format!(
            "path integration on [{t0}, {t1}] s: tol.hmax = {} would cap steps in the path \
             variable; give the time cap as hmax_t and tol.hmax = inf",
            tol.hmax
        ));
    }
    let saves = &saveat[saveat.partition_point(|&s| s < t0)..saveat.partition_point(|&s| s <= t1)];
    let piece = Monotone::new(u, du, t0, t1);
    let len = piece.length();
    path_values(&piece, saves, len, s_buf)?;
    if len == 0.0 {
        // The input holds still (unless it went away and came back: an error): so does the state.
        piece.check(t0)?;
        saves.iter().for_each(|&t| out(t, z0));
        return Ok(z0);
    }
    let coef = |s: f64| {
        let (_, v) = piece.invert(s);
        let v = if v.abs() < U_DOT_FLOOR {
            piece.dir * U_DOT_FLOOR
        } else {
            v
        };
        let (a, b) = affine(piece.u0 + piece.dir * s, v);
        (a / v.abs(), b / v.abs())
    };
    // Steps end at the save points (their values are then step ends, under error control,
    // not the dense output's, whose error inside a long step is not estimated).
    let s_saves: &[f64] = s_buf;
    let cap = |s: f64| {
        let (t, _) = piece.invert(s);
        let end = t + hmax_t;
        let by_time = if end >= t1 { f64::INFINITY } else { piece.s_of(end) - s };
        let gap = 1e-12 * len;
        let next = s_saves.partition_point(|&x| x <= s + gap);
        let by_save = s_saves.get(next).map_or(f64::INFINITY, |&x| x - s);
        by_time.min(by_save)
    };
    let mut k = 0;
    let z1 = solve_capped(
        &Scheme::<NODES>::new(),
        &coef,
        0.0,
        z0,
        len,
        s_saves,
        tol,
        &cap,
        stats,
        &mut |_, z| {
            out(saves[k], z);
            k += 1;
        },
    );
    let (t_end, _) = piece.invert(len);
    piece.check(t_end)?;
    let z1 = z1?;
    if k != saves.len() {
        return Err(format!(
            "path integration on [{t0}, {t1}] s: {} of {} outputs given",
            k,
            saves.len()
        ));
    }
    stats.inversions += piece.iterations();
    Ok(z1)
}

/// The path values of the save times into `buf`, nondecreasing and within `[0, len]` (rounding
/// near a reversal may put them a few ulps outside); an error when one runs backwards by more
/// than rounding (the input is not monotone on the piece).
fn path_values<U, D>(piece: &Monotone<U, D>, saves: &[f64], len: f64, buf: &mut Vec<f64>) -> Result<(), String>
where
    U: Fn(f64) -> f64,
    D: Fn(f64) -> f64,
{
    buf.clear();
    let slack = 1e-9 * len + 8.0 * f64::EPSILON * piece.u0.abs();
    let mut prev = 0.0f64;
    for &t in saves {
        let s = piece.s_of(t);
        if s < prev - slack {
            return Err(format!(
                "the input is not monotone on [{}, {}] s (at t = {t} s it runs back by {:e}): the \
                 path-variable integrator needs every input extremum as a stop",
                piece.t0,
                piece.t1,
                prev - s
            ));
        }
        prev = s.clamp(prev, len);
        buf.push(prev);
    }
    Ok(())
}
