//! Root finders on a bracket `[lo, hi]`: bisection of the boundary between two sides
//! ([`bisect`], and [`bisect_sign`] for a sign change) and the Illinois variant of regula falsi
//! with its safeguards ([`illinois_bracket`], and [`illinois`] for the root estimate alone). The
//! one root finder of the workspace: the models (a threshold speed, a signal's extrema, an
//! identification's root, a loop's boundaries), the steppers' event location, the describing
//! functions, the exact operators and the explanations' search all call it. Its own crate, a
//! leaf, so that `fric-models` uses it without depending on the integrators; `fric-solvers`
//! re-exports it as `fric_solvers::roots`.
//!
//! The safeguards of Illinois, each the caller's choice ([`Illinois`]): the estimate never leaves the
//! bracket (a secant point outside it, or on an end, is replaced by the midpoint); a budget of
//! evaluations ([`Stop::MaxEvals`]); and, for a function that may jump (a metric that counts
//! elements, a describing function across a discontinuity), bisection when two steps have not
//! shrunk the bracket to a quarter, where plain regula falsi would crawl. A jump is not a root:
//! the bracket closes on it and reports the values of `f` at its ends, which keep their size
//! ([`Bracket`]); the caller tells a root from a jump by them.
//!
//! Bisection's safeguards: it never evaluates outside the bracket, stops when the midpoint rounds
//! to an end (the bracket is then two adjacent numbers: a root to rounding with `xtol = 0`), and
//! keeps a budget of midpoints where the caller gives one.

/// Where a point lies for [`bisect`]: with the bracket's `lo` end, with its `hi` end, or on the
/// boundary itself (an exact zero), where the bisection stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Lo,
    Hi,
    On,
}

/// Bisection of the boundary between the two sides of `[lo, hi]` (`lo < hi`; `side(lo)` is
/// [`Side::Lo`] and `side(hi)` [`Side::Hi`], neither evaluated): the midpoint replaces the end
/// whose side it is on, until the bracket is at most `xtol` wide, the midpoint rounds to an end,
/// or `max_steps` midpoints have been taken. The final `(lo, hi)`; `(x, x)` where `side(x)` is
/// [`Side::On`]. The caller's `side` decides where an exact zero or a value of either sign goes.
pub fn bisect<E>(
    mut side: impl FnMut(f64) -> Result<Side, E>,
    mut lo: f64,
    mut hi: f64,
    xtol: f64,
    max_steps: usize,
) -> Result<(f64, f64), E> {
    let mut steps = 0;
    while steps < max_steps && hi - lo > xtol {
        steps += 1;
        let m = 0.5 * (lo + hi);
        if m <= lo || m >= hi {
            break;
        }
        match side(m)? {
            Side::Lo => lo = m,
            Side::Hi => hi = m,
            Side::On => return Ok((m, m)),
        }
    }
    Ok((lo, hi))
}

/// Bisection of a sign change of `f` on `[lo, hi]` (`f(lo)` and `f(hi)` of opposite signs) to a
/// width of `xtol` ([`bisect`], a value of `f(lo)`'s sign on `lo`'s side, zero counted as
/// negative): the final bracket `(lo, f(lo), hi, f(hi))`. Across a discontinuity the bracket
/// closes on the jump and the values keep their size.
pub fn bisect_sign<E>(
    mut f: impl FnMut(f64) -> Result<f64, E>,
    (lo, mut f_lo): (f64, f64),
    (hi, mut f_hi): (f64, f64),
    xtol: f64,
) -> Result<(f64, f64, f64, f64), E> {
    let positive = f_lo > 0.0;
    let (lo, hi) = bisect(
        |m| {
            let fm = f(m)?;
            Ok(if (fm > 0.0) == positive {
                f_lo = fm;
                Side::Lo
            } else {
                f_hi = fm;
                Side::Hi
            })
        },
        lo,
        hi,
        xtol,
        usize::MAX,
    )?;
    Ok((lo, f_lo, hi, f_hi))
}

/// How narrow a bracket must get: `|hi − lo| ≤ width`, `|hi − lo| ≤ width · max(|lo|, |hi|)`,
/// or `(hi − lo) · scale ≤ width` (`Scaled { scale, width }`: a bracket `lo ≤ hi` in fractions
/// of a step of size `scale`, its width in time; a reversed bracket is closed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Width {
    Absolute(f64),
    Relative(f64),
    Scaled { scale: f64, width: f64 },
}

impl Width {
    /// Whether `[a, b]` is still wider than asked.
    fn open(self, a: f64, b: f64) -> bool {
        match self {
            Width::Absolute(w) => (b - a).abs() > w,
            Width::Relative(w) => (b - a).abs() > w * a.abs().max(b.abs()),
            Width::Scaled { scale, width } => (b - a) * scale > width,
        }
    }
}

/// The settings and safeguards of [`illinois_bracket`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Illinois {
    /// Stop once the bracket is this narrow.
    pub width: Width,
    /// Stop after this many evaluations of `f` ([`Stop::MaxEvals`]).
    pub max_evals: usize,
    /// Bisect when two steps have not shrunk the bracket to a quarter of its width before them
    /// (a jump, or a function so curved that regula falsi crawls from one side).
    pub bisect_on_stall: bool,
    /// What an exact zero of `f` at an evaluated point does.
    pub on_zero: OnZero,
}

/// What [`illinois_bracket`] does when `f` is exactly zero at a point it evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnZero {
    /// Stop there ([`Stop::Zero`], `lo = hi` the point).
    Stop,
    /// Take the point as `hi` (zero counts as `hi`'s side) and narrow on: the first zero from
    /// `lo`, as an event's location wants (a guard that touches zero and stays there).
    KeepFirst,
}

/// Why [`illinois_bracket`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `f` was exactly zero at `lo = hi`.
    Zero,
    /// The bracket is as narrow as [`Illinois::width`] asks.
    Narrowed,
    /// [`Illinois::max_evals`] evaluations were spent first.
    MaxEvals,
}

/// The final bracket of [`illinois_bracket`]: `f` at its ends (the values of `f`, not regula
/// falsi's halved weights; across a jump they keep their size), the last point evaluated (the
/// root estimate; `lo` as given if none was), the evaluations spent and why it stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bracket {
    pub lo: f64,
    pub f_lo: f64,
    pub hi: f64,
    pub f_hi: f64,
    pub last: f64,
    pub evals: usize,
    pub stop: Stop,
}

/// The Illinois variant of regula falsi for a sign change of `f` on `[lo, hi]` (either order;
/// `f(lo)`, `f(hi)` of opposite signs), with the safeguards of `opt`. Superlinear where `f` is
/// smooth; never leaves the bracket.
pub fn illinois_bracket<E>(
    mut f: impl FnMut(f64) -> Result<f64, E>,
    (mut lo, mut f_lo): (f64, f64),
    (mut hi, mut f_hi): (f64, f64),
    opt: &Illinois,
) -> Result<Bracket, E> {
    // (f_lo, f_hi): regula falsi's weights (one may be halved); (y_lo, y_hi): f itself.
    let (mut y_lo, mut y_hi) = (f_lo, f_hi);
    let mut side = 0i8;
    let (mut evals, mut last) = (0, lo);
    let (mut checkpoint, mut since) = ((hi - lo).abs(), 0);
    let mut stop = Stop::Narrowed;
    while opt.width.open(lo, hi) {
        if evals >= opt.max_evals {
            stop = Stop::MaxEvals;
            break;
        }
        let bisect = opt.bisect_on_stall && since >= 2 && (hi - lo).abs() > 0.25 * checkpoint;
        if opt.bisect_on_stall && since >= 2 {
            (checkpoint, since) = ((hi - lo).abs(), 0);
        }
        let mut x = if bisect {
            0.5 * (lo + hi)
        } else {
            (lo * f_hi - hi * f_lo) / (f_hi - f_lo)
        };
        if !(x > lo.min(hi) && x < lo.max(hi)) {
            x = 0.5 * (lo + hi);
        }
        let fx = f(x)?;
        evals += 1;
        since += 1;
        last = x;
        if fx == 0.0 && opt.on_zero == OnZero::Stop {
            return Ok(Bracket {
                lo: x,
                f_lo: 0.0,
                hi: x,
                f_hi: 0.0,
                last,
                evals,
                stop: Stop::Zero,
            });
        }
        // On `lo`'s side when of `f(lo)`'s sign (and not zero), else on `hi`'s.
        if fx != 0.0 && (fx > 0.0) == (f_lo > 0.0) {
            (lo, f_lo, y_lo) = (x, fx, fx);
            if !bisect && side == 1 {
                f_hi /= 2.0;
            }
            side = if bisect { 0 } else { 1 };
        } else {
            (hi, f_hi, y_hi) = (x, fx, fx);
            if !bisect && side == -1 {
                f_lo /= 2.0;
            }
            side = if bisect { 0 } else { -1 };
        }
    }
    Ok(Bracket {
        lo,
        f_lo: y_lo,
        hi,
        f_hi: y_hi,
        last,
        evals,
        stop,
    })
}

/// [`illinois_bracket`] to an absolute width `xtol` within `max_evals` evaluations, without
/// the stall bisection: the root estimate (the last point evaluated) and the evaluations spent.
pub fn illinois<E>(
    f: impl FnMut(f64) -> Result<f64, E>,
    lo: (f64, f64),
    hi: (f64, f64),
    xtol: f64,
    max_evals: usize,
) -> Result<(f64, usize), E> {
    let opt = Illinois {
        width: Width::Absolute(xtol),
        max_evals,
        bisect_on_stall: false,
        on_zero: OnZero::Stop,
    };
    illinois_bracket(f, lo, hi, &opt).map(|b| (b.last, b.evals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_finders_bracket_and_converge() {
        let f = |x: f64| Ok::<_, ()>(x * x * x - 2.0);
        let (lo, _, hi, _) = bisect_sign(f, (0.0, -2.0), (2.0, 6.0), 1e-12).unwrap();
        assert!(lo <= 2f64.cbrt() && hi >= 2f64.cbrt() && hi - lo <= 1e-12);
        let (x, evals) = illinois(f, (0.0, -2.0), (2.0, 6.0), 1e-13, 100).unwrap();
        assert!((x - 2f64.cbrt()).abs() < 1e-12, "{x}");
        assert!(evals < 20, "{evals}");
    }

    #[test]
    fn a_smooth_root_converges_superlinearly() {
        let opt = Illinois {
            width: Width::Relative(1e-14),
            max_evals: 100,
            bisect_on_stall: true,
            on_zero: OnZero::Stop,
        };
        let b = illinois_bracket(
            |x: f64| Ok::<_, ()>(x.exp() - 3.0),
            (0.0, -2.0),
            (2.0, 2f64.exp() - 3.0),
            &opt,
        )
        .unwrap();
        let root = 3f64.ln();
        assert!(b.lo <= root + 1e-15 && b.hi >= root - 1e-15, "{b:?}");
        assert!((b.last - root).abs() < 1e-14 && b.stop != Stop::MaxEvals, "{b:?}");
        // Bisection would need log2(2 / 1.1e-14) ≈ 48 evaluations.
        assert!(b.evals < 30, "{b:?}");
        // The values at the ends are f's, and small at a root.
        assert!(b.f_lo.abs() < 1e-13 && b.f_hi.abs() < 1e-13, "{b:?}");
    }

    #[test]
    fn a_jump_is_reported_as_a_narrow_bracket_with_the_jump_at_its_ends() {
        // A step at 0.3 (no root): regula falsi alone would creep from one side; the stall
        // bisection closes on the jump in about as many steps as bisection.
        let f = |x: f64| Ok::<_, ()>(if x < 0.3 { -1.0 - x } else { 2.0 + x });
        let opt = Illinois {
            width: Width::Absolute(1e-10),
            max_evals: 200,
            bisect_on_stall: true,
            on_zero: OnZero::Stop,
        };
        let b = illinois_bracket(f, (0.0, -1.0), (1.0, 3.0), &opt).unwrap();
        assert_eq!(b.stop, Stop::Narrowed, "{b:?}");
        assert!(b.lo < 0.3 && b.hi >= 0.3 && b.hi - b.lo <= 1e-10, "{b:?}");
        assert!(b.f_lo < -1.0 && b.f_hi > 2.0, "{b:?}");
        assert!(b.evals < 80, "{b:?}");
    }

    /// An event's location: `f` touches zero on `[0.3, 0.6]` and stays there; keeping a zero as
    /// `hi` narrows onto the first zero (0.3), where stopping at it would give whatever zero was
    /// evaluated first; the width is in time, `(hi − lo) · scale`.
    #[test]
    fn keeping_zeros_finds_the_first_zero_to_a_scaled_width() {
        let f = |x: f64| {
            Ok::<_, ()>(if x < 0.3 {
                x - 0.3
            } else if x <= 0.6 {
                0.0
            } else {
                x - 0.6
            })
        };
        let mut opt = Illinois {
            width: Width::Scaled {
                scale: 10.0,
                width: 1e-12,
            },
            max_evals: 200,
            bisect_on_stall: false,
            on_zero: OnZero::KeepFirst,
        };
        let b = illinois_bracket(f, (0.0, -0.3), (1.0, 0.4), &opt).unwrap();
        assert_eq!((b.stop, b.f_hi), (Stop::Narrowed, 0.0), "{b:?}");
        assert!(b.lo < 0.3 && b.hi >= 0.3 && (b.hi - b.lo) * 10.0 <= 1e-12, "{b:?}");
        opt.on_zero = OnZero::Stop;
        let s = illinois_bracket(f, (0.0, -0.3), (1.0, 0.4), &opt).unwrap();
        assert_eq!(s.stop, Stop::Zero, "{s:?}");
        assert!(s.hi > 0.3 + 1e-3, "{s:?}");
        // A reversed bracket is closed at once.
        let r = illinois_bracket(f, (1.0, 0.4), (0.0, -0.3), &opt).unwrap();
        assert_eq!((r.evals, r.hi), (0, 0.0), "{r:?}");
    }

    #[test]
    fn the_evaluation_budget_is_kept() {
        let mut calls = 0;
        let f = |x: f64| {
            calls += 1;
            Ok::<_, ()>(x * x * x - 2.0)
        };
        let opt = Illinois {
            width: Width::Absolute(0.0),
            max_evals: 3,
            bisect_on_stall: false,
            on_zero: OnZero::Stop,
        };
        let b = illinois_bracket(f, (0.0, -2.0), (2.0, 6.0), &opt).unwrap();
        assert_eq!((b.evals, b.stop), (3, Stop::MaxEvals));
        assert_eq!(calls, 3);
        assert!(b.lo < 2f64.cbrt() && b.hi > 2f64.cbrt(), "{b:?}");
        // An error of f ends the search with it.
        let failing = illinois(|_| Err::<f64, _>("no value"), (0.0, -1.0), (1.0, 1.0), 1e-9, 10);
        assert_eq!(failing, Err("no value"));
    }

    #[test]
    fn bisection_keeps_its_budget_and_stops_on_the_boundary() {
        // The side of 0.3: to rounding, within the budget, or at once where a midpoint is on it.
        let side = |x: f64| Ok::<_, ()>(if x < 0.3 { Side::Lo } else { Side::Hi });
        let (lo, hi) = bisect(side, 0.0, 1.0, 0.0, usize::MAX).unwrap();
        assert!(
            lo < 0.3 && hi >= 0.3 && hi == f64::from_bits(lo.to_bits() + 1),
            "{lo} {hi}"
        );
        let (lo, hi) = bisect(side, 0.0, 1.0, 0.0, 3).unwrap();
        assert_eq!((lo, hi), (0.25, 0.375));
        let (lo, hi) = bisect(side, 0.0, 1.0, 0.1, usize::MAX).unwrap();
        assert_eq!((lo, hi), (0.25, 0.3125));
        let on = |x: f64| {
            Ok::<_, ()>(if x < 0.25 {
                Side::Lo
            } else if x > 0.25 {
                Side::Hi
            } else {
                Side::On
            })
        };
        assert_eq!(bisect(on, 0.0, 1.0, 0.0, usize::MAX), Ok((0.25, 0.25)));
    }
}
