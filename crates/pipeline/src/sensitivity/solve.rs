//! A root of a scalar function on a range, found by a scan and safeguarded Illinois regula
//! falsi, with the jumps across zero told apart from roots.

use crate::evaluate::metric_kinds::NOT_CLOSED;
use crate::own_time::own_time;
use fric_report::Jump;
use fric_solvers::roots;
use rayon::prelude::*;

/// Points of the initial scan of a range.
pub const SCAN_POINTS: usize = 9;
/// Relative tolerance on the explaining value unless the manifest sets `xtol`: four significant
/// digits, enough to say which value explains a discrepancy. (1e-6 cost 30 serial evaluations on
/// thesis Fig 3.9, whose metric is a step function of Δ, about 60 s of a cold run.)
pub const XTOL: f64 = 1e-4;
/// At most this many evaluations per parameter.
pub const MAX_EVALUATIONS: usize = 80;

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub root: Option<f64>,
    pub f_root: Option<f64>,
    pub f_min: f64,
    pub f_max: f64,
    pub evaluations: usize,
    pub brackets: usize,
    /// The first bracket in which `f` jumps across zero instead of passing through it (then no
    /// value there is a root, whatever the precision).
    pub jump: Option<Jump>,
    /// The root was narrowed to the precision asked for, or is an exact zero (not stopped at
    /// [`MAX_EVALUATIONS`]).
    pub narrowed: bool,
    /// Scan points left out because the metric's cycle does not close there ([`NOT_CLOSED`]):
    /// no value exists there, and brackets are taken between the closed points around them.
    pub skipped: Vec<f64>,
    /// Points met while narrowing a bracket whose cycle does not close, in the order met: each
    /// skipped, and the search resumed from another point of the bracket ([`NUDGES`]).
    pub skipped_narrowing: Vec<f64>,
}

/// How much more than the scan's secant slope predicts `f` may change across a refined bracket
/// and still be continuous there: a larger change is a jump.
pub const JUMP_FACTOR: f64 = 10.0;

/// The points of the initial scan of `[lo, hi]`: geometric when the range is positive and spans
/// more than a decade (by logarithms when `hi / lo` overflows, so that a range of hundreds of
/// decades is scanned too), else uniform.
fn scan_points([lo, hi]: [f64; 2]) -> Vec<f64> {
    let geometric = lo > 0.0 && hi / lo > 10.0;
    (0..SCAN_POINTS)
        .map(|k| {
            if k == 0 {
                return lo;
            }
            if k == SCAN_POINTS - 1 {
                return hi;
            }
            let t = k as f64 / (SCAN_POINTS - 1) as f64;
            if geometric && (hi / lo).is_finite() {
                lo * (hi / lo).powf(t)
            } else if geometric {
                (lo.ln() + t * (hi.ln() - lo.ln())).exp()
            } else {
                lo + (hi - lo) * t
            }
        })
        .collect()
}

/// A bracket `[a, b]` of a sign change of `f` narrowed by [`refine`], with `f` at its ends
/// (`exact`: `f(a) = 0`).
struct Refined {
    a: f64,
    b: f64,
    fa: f64,
    fb: f64,
    exact: bool,
    /// Narrowed to the precision asked for (not stopped by [`MAX_EVALUATIONS`]).
    narrowed: bool,
}

/// Retries of a point met while narrowing whose cycle does not close ([`NOT_CLOSED`]): other
/// points of the bracket, each a real evaluation, tried in turn ([`nudged`]); the first that
/// closes narrows the bracket instead. Bounded so that a bracket open throughout costs at most
/// this many runs more before the explanation errs.
pub const NUDGES: usize = 4;

/// The `k`-th retry (1 ≤ k ≤ [`NUDGES`]) for the point `x` of the bracket `(lo, hi)` whose cycle
/// does not close: half-way from `x` towards `lo`, then towards `hi`, then three quarters of
/// the way towards each (strictly inside the bracket, none equal to `x`, wherever `x` lies in it).
fn nudged(lo: f64, hi: f64, x: f64, k: usize) -> f64 {
    let end = if k % 2 == 1 { lo } else { hi };
    let s = if k <= 2 { 0.5 } else { 0.75 };
    x + s * (end - x)
}

/// Narrow the bracket `[a, b]` (`f(a)`, `f(b)` of opposite signs, neither zero) to a relative
/// width `xtol` by the one Illinois root finder, [`roots::illinois_bracket`], with its stall
/// safeguard: when two steps have not shrunk the bracket to a quarter (a metric that jumps, e.g. a
/// count of elements, stalls regula falsi), the next step bisects. `evaluations` counts the
/// whole search's, at most [`MAX_EVALUATIONS`]. A point whose cycle does not close is skipped
/// (pushed to `skipped`, as the scan does) and up to `nudges` ([`NUDGES`]) other points of the bracket are
/// tried; the search resumes from the bracket narrowed by the first that closes. It errs only
/// when none closes.
fn refine(
    f: &impl Fn(f64) -> Result<f64, String>,
    [a, b]: [f64; 2],
    [fa, fb]: [f64; 2],
    xtol: f64,
    evaluations: &mut usize,
    (nudges, skipped): (usize, &mut Vec<f64>),
) -> Result<Refined, String> {
    let ((mut lo, mut f_lo), (mut hi, mut f_hi)) = ((a, fa), (b, fb));
    // The side rule of `illinois_bracket`: a value of `f(lo)`'s sign (not zero) replaces `lo`.
    let take = |x: f64, v: f64, lo: &mut (f64, f64), hi: &mut (f64, f64)| {
        if v != 0.0 && (v > 0.0) == (lo.1 > 0.0) {
            *lo = (x, v);
        } else {
            *hi = (x, v);
        }
    };
    loop {
        let opt = roots::Illinois {
            width: roots::Width::Relative(xtol),
            max_evals: MAX_EVALUATIONS.saturating_sub(*evaluations),
            bisect_on_stall: true,
            on_zero: roots::OnZero::Stop,
        };
        // The points evaluated, to rebuild the bracket where a cycle does not close.
        let (mut seen, mut open) = (Vec::new(), None);
        let g = |x: f64| match f(x) {
            Ok(v) => {
                seen.push((x, v));
                Ok(v)
            }
            Err(e) => {
                if e.contains(NOT_CLOSED) {
                    open = Some(x);
                }
                Err(e)
            }
        };
        let err = match roots::illinois_bracket(g, (lo, f_lo), (hi, f_hi), &opt) {
            Ok(r) => {
                *evaluations += r.evals;
                return Ok(Refined {
                    a: r.lo,
                    b: r.hi,
                    fa: r.f_lo,
                    fb: r.f_hi,
                    exact: r.stop == roots::Stop::Zero,
                    narrowed: r.stop != roots::Stop::MaxEvals,
                });
            }
            Err(e) => e,
        };
        *evaluations += seen.len() + 1;
        let Some(x) = open else {
            return Err(err);
        };
        let (mut l, mut h) = ((lo, f_lo), (hi, f_hi));
        for &(y, v) in &seen {
            take(y, v, &mut l, &mut h);
        }
        skipped.push(x);
        let mut closed = None;
        for k in 1..=nudges {
            if *evaluations >= MAX_EVALUATIONS {
                break;
            }
            let y = nudged(l.0, h.0, x, k);
            *evaluations += 1;
            match f(y) {
                Ok(v) => {
                    closed = Some((y, v));
                    break;
                }
                Err(e) if e.contains(NOT_CLOSED) => skipped.push(y),
                Err(e) => return Err(e),
            }
        }
        let Some((y, v)) = closed else {
            return Err(format!(
                "while narrowing the bracket [{}, {}], the cycle closes neither at {x} nor at the {} points tried beside it: {err}",
                l.0.min(h.0),
                l.0.max(h.0),
                skipped.iter().rev().take_while(|&&s| s != x).count()
            ));
        };
        if v == 0.0 {
            return Ok(Refined {
                a: y,
                b: y,
                fa: 0.0,
                fb: 0.0,
                exact: true,
                narrowed: true,
            });
        }
        take(y, v, &mut l, &mut h);
        ((lo, f_lo), (hi, f_hi)) = (l, h);
    }
}

/// A root of `f` in `[lo, hi]`: a scan of [`SCAN_POINTS`] points ([`scan_points`]), then each
/// bracket of a sign change in turn narrowed to a relative width `xtol` ([`XTOL`] by default)
/// by [`refine`]. Exact zeros of the scan are roots. With `ftol > 0` (the check's tolerance on
/// the metric) a root has `|f| <= ftol`; a bracket whose ends both miss it is bisected on
/// ([`narrow_to_tolerance`]) and, still across zero there, is a jump (issue 43 item 7). With
/// `ftol = 0`, a narrowed bracket across which `f` changes by more than [`JUMP_FACTOR`] times what
/// the scan's secant slope predicts is a jump. A jump is recorded and the next bracket tried. The scan points are evaluated in parallel
/// (each is an independent set of runs); the answer does not depend on their order.
pub fn solve(
    f: &(impl Fn(f64) -> Result<f64, String> + Sync),
    range: [f64; 2],
    xtol: f64,
    ftol: f64,
) -> Result<Solved, String> {
    solve_nudged(f, range, xtol, ftol, NUDGES)
}

/// [`solve`] with `nudges` retries of a point met while narrowing whose cycle does not close
/// (0: such a point errs the search, as before 2026-12-06).
fn solve_nudged(
    f: &(impl Fn(f64) -> Result<f64, String> + Sync),
    range: [f64; 2],
    xtol: f64,
    ftol: f64,
    nudges: usize,
) -> Result<Solved, String> {
    let all = scan_points(range);
    // Each point timed on its own: a run waiting inside a parallel library call may steal one,
    // and must not count it as its own time (crate::own_time::own_time).
    let got: Vec<Result<f64, String>> = all.par_iter().map(|&x| own_time(|| f(x)).0).collect();
    // A point whose cycle does not close has no value (as in the readings, super::readings):
    // skipped, any other error is the explanation's.
    let (mut xs, mut fs, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    for (&x, g) in all.iter().zip(got) {
        match g {
            Ok(v) => (xs.push(x), fs.push(v)).1,
            Err(e) if e.contains(NOT_CLOSED) => skipped.push(x),
            Err(e) => return Err(e),
        }
    }
    if xs.is_empty() {
        return Err(format!(
            "the cycle closes at none of the {} scan points of [{}, {}]",
            all.len(),
            range[0],
            range[1]
        ));
    }
    let mut s = Solved {
        root: None,
        f_root: None,
        f_min: fs.iter().cloned().fold(f64::INFINITY, f64::min),
        f_max: fs.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
        evaluations: all.len(),
        brackets: fs
            .windows(2)
            .filter(|w| w[0] == 0.0 || w[0].signum() != w[1].signum())
            .count()
            + (fs.last() == Some(&0.0)) as usize,
        jump: None,
        narrowed: false,
        skipped,
        skipped_narrowing: Vec::new(),
    };
    let starts = (0..xs.len()).filter(|&k| fs[k] == 0.0 || (k + 1 < xs.len() && fs[k].signum() != fs[k + 1].signum()));
    for k in starts {
        if fs[k] == 0.0 {
            (s.root, s.f_root, s.narrowed) = (Some(xs[k]), Some(0.0), true);
            return Ok(s);
        }
        if fs[k + 1] == 0.0 {
            // A zero of the scan is a root; it would have been the bracket's end.
            (s.root, s.f_root, s.narrowed) = (Some(xs[k + 1]), Some(0.0), true);
            return Ok(s);
        }
        let slope = ((fs[k + 1] - fs[k]) / (xs[k + 1] - xs[k])).abs();
        let r = refine(
            f,
            [xs[k], xs[k + 1]],
            [fs[k], fs[k + 1]],
            xtol,
            &mut s.evaluations,
            (nudges, &mut s.skipped_narrowing),
        )?;
        if r.exact {
            (s.root, s.f_root, s.narrowed) = (Some(r.a), Some(0.0), true);
            return Ok(s);
        }
        let mut r = r;
        if ftol > 0.0 {
            // Only a metric within the tolerance reproduces the value (issue 43 item 7).
            r = narrow_to_tolerance(f, r, slope, ftol, &mut s.evaluations)?;
        }
        let missed = ftol > 0.0 && r.fa.abs().min(r.fb.abs()) > ftol;
        let change = (r.fb - r.fa).abs();
        if r.narrowed && (missed || (ftol == 0.0 && change > JUMP_FACTOR * slope * (r.b - r.a).abs())) {
            s.jump.get_or_insert(Jump {
                at: [r.a.min(r.b), r.a.max(r.b)],
                from: if r.a <= r.b { r.fa } else { r.fb },
                to: if r.a <= r.b { r.fb } else { r.fa },
            });
            continue;
        }
        if missed {
            continue;
        }
        let (root, f_root) = if r.fa.abs() <= r.fb.abs() {
            (r.a, r.fa)
        } else {
            (r.b, r.fb)
        };
        (s.root, s.f_root, s.narrowed) = (Some(root), Some(f_root), r.narrowed);
        return Ok(s);
    }
    Ok(s)
}

/// Bisect `r` while both ends miss `ftol` and `slope` (the scan's secant) times its width exceeds
/// `ftol` (then a continuous `f` could still cross zero inside), within [`MAX_EVALUATIONS`].
/// `narrowed`: the width test met, so ends still beyond `ftol` hold a jump; false when the budget
/// ends or a midpoint's cycle does not close (neither root nor jump claimed). Stopping rules of
/// its own (`|f| ≤ ftol` at an end, the secant's slope, a cycle that does not close), so not
/// `roots::bisect`.
fn narrow_to_tolerance(
    f: &impl Fn(f64) -> Result<f64, String>,
    mut r: Refined,
    slope: f64,
    ftol: f64,
    evaluations: &mut usize,
) -> Result<Refined, String> {
    loop {
        if r.fa.abs().min(r.fb.abs()) <= ftol {
            return Ok(r);
        }
        let m = 0.5 * (r.a + r.b);
        if slope * (r.b - r.a).abs() <= ftol || m == r.a || m == r.b {
            r.narrowed = true;
            return Ok(r);
        }
        if *evaluations >= MAX_EVALUATIONS {
            r.narrowed = false;
            return Ok(r);
        }
        *evaluations += 1;
        let v = match f(m) {
            Ok(v) => v,
            Err(e) if e.contains(NOT_CLOSED) => {
                r.narrowed = false;
                return Ok(r);
            }
            Err(e) => return Err(e),
        };
        if v == 0.0 || v.signum() == r.fa.signum() {
            (r.a, r.fa) = (m, v);
        } else {
            (r.b, r.fb) = (m, v);
        }
    }
}

/// [`solve`] on `short`, a cheaper stand-in for `whole` (the explanation's runs ended at the
/// metric's horizon, [`super::horizon`]) that agrees with it to the integrator's accuracy, its
/// answer confirmed on `whole`: a root where `whole` is within `ftol` of zero (or, for a root
/// narrowed to `xtol`, as close as `short` was) is kept, with `whole`'s value there; otherwise
/// `short` settled on another side of a jump than `whole` would, and the answer is `whole`'s own
/// [`solve`]. "No root" and "a jump" are claims about the range that shortened runs can get wrong
/// the same way (code review M3), so they are `whole`'s own [`solve`] too. Code review M1:
/// duhem-paper Fig 15's `f_peak_to_peak` (a minimum over a post-slip transient faster than the
/// samples) moved from 2.5596 kg on whole runs to 2.3554 kg on shortened ones.
pub fn solve_confirmed(
    short: &(impl Fn(f64) -> Result<f64, String> + Sync),
    whole: &(impl Fn(f64) -> Result<f64, String> + Sync),
    range: [f64; 2],
    xtol: f64,
    ftol: f64,
) -> Result<Solved, String> {
    let s = solve(short, range, xtol, ftol)?;
    let mut spent = s.evaluations;
    if let Some(r) = s.root {
        let fw = whole(r)?;
        spent += 1;
        let as_close = s.narrowed && fw.abs() <= s.f_root.map_or(0.0, f64::abs);
        if fw.abs() <= ftol || as_close {
            return Ok(Solved {
                f_root: Some(fw),
                evaluations: spent,
                ..s
            });
        }
    }
    let mut w = solve(whole, range, xtol, ftol)?;
    w.evaluations += spent;
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_of_the_shortened_runs_is_confirmed_on_the_whole_ones() {
        // The whole function crosses zero at 0.6 only; the stand-in agrees with it above 0.5 but
        // below has a spurious root at 0.3 (and jumps at 0.5), which the scan of [0, 1] brackets
        // first.
        let whole = |x: f64| Ok(x - 0.6);
        let short = |x: f64| Ok(if x < 0.5 { x - 0.3 } else { x - 0.6 });
        let alone = solve(&short, [0.0, 1.0], XTOL, 0.01).unwrap();
        assert!((alone.root.unwrap() - 0.3).abs() < 1e-3, "{alone:?}");
        let s = solve_confirmed(&short, &whole, [0.0, 1.0], XTOL, 0.01).unwrap();
        assert!((s.root.unwrap() - 0.6).abs() < 1e-3, "{s:?}");
        assert!(s.f_root.unwrap().abs() < 1e-3, "{s:?}");
        // Where the two agree within the tolerance, the stand-in's root stands, with the whole
        // function's value there and one evaluation of it.
        let close = |x: f64| Ok(x - 0.6 + 1e-3);
        let s = solve_confirmed(&close, &whole, [0.0, 1.0], XTOL, 0.01).unwrap();
        let alone = solve(&close, [0.0, 1.0], XTOL, 0.01).unwrap();
        assert_eq!(s.root, alone.root);
        assert_eq!(s.f_root, Some(alone.root.unwrap() - 0.6));
        assert_eq!(s.evaluations, alone.evaluations + 1);
    }

    /// Code review M3: a "no root" or a jump of the shortened runs is checked on whole runs too
    /// (before, it was returned unconfirmed), and a root the search did not narrow is kept only
    /// where the whole function is within the tolerance.
    #[test]
    fn no_root_and_an_unnarrowed_root_of_the_shortened_runs_are_confirmed_on_whole_ones() {
        // The stand-in stays above zero (no root in range); the whole function crosses at 0.6.
        let whole = |x: f64| Ok(x - 0.6);
        let above = |x: f64| Ok(x + 0.1);
        assert_eq!(solve(&above, [0.0, 1.0], XTOL, 0.01).unwrap().root, None);
        let s = solve_confirmed(&above, &whole, [0.0, 1.0], XTOL, 0.01).unwrap();
        assert!((s.root.unwrap() - 0.6).abs() < 1e-3, "{s:?}");
        // The stand-in jumps across zero at 0.3; the whole function passes through it at 0.6.
        let jumps = |x: f64| Ok(if x < 0.3 { -1.0 } else { 1.0 });
        let s = solve_confirmed(&jumps, &whole, [0.0, 1.0], XTOL, 0.0).unwrap();
        assert_eq!(s.jump, None, "{s:?}");
        assert!((s.root.unwrap() - 0.6).abs() < 1e-3, "{s:?}");
        // The stand-in steps by ±0.05 at 0.3, both sides over the 0.01 tolerance: a jump since
        // issue 43 item 7 (before, a root not narrowed: an xtol no f64 bracket reaches stopped
        // it at MAX_EVALUATIONS). The whole function (0.04 there) is no root either: solved on
        // whole runs (root 0.26).
        let step = |x: f64| Ok(if x < 0.3 { -0.05 } else { 0.05 });
        let near = |x: f64| Ok(x - 0.26);
        let alone = solve(&step, [0.0, 1.0], 1e-300, 0.01).unwrap();
        assert!(
            alone.root.is_none() && alone.evaluations >= MAX_EVALUATIONS,
            "{alone:?}"
        );
        assert!((alone.jump.unwrap().at[0] - 0.3).abs() < 1e-9, "{alone:?}");
        let s = solve_confirmed(&step, &near, [0.0, 1.0], 1e-300, 0.01).unwrap();
        assert!((s.root.unwrap() - 0.26).abs() < 1e-6, "{s:?}");
    }

    /// Code review M2: a scan point whose cycle does not close is skipped (no value there), the
    /// root bracketed between the closed points around it; any other error still is one.
    #[test]
    fn a_scan_point_whose_cycle_does_not_close_is_skipped() {
        let f = |x: f64| {
            if (x - 0.875).abs() < 1e-9 || x == 1.0 {
                Err(format!("metric `area`: {NOT_CLOSED}the cycle ends 1.13 % away"))
            } else {
                Ok(x - 0.3)
            }
        };
        let s = solve(&f, [0.0, 1.0], XTOL, 0.0).unwrap();
        assert_eq!(s.skipped, vec![0.875, 1.0]);
        assert!((s.root.unwrap() - 0.3).abs() < 1e-3, "{s:?}");
        assert_eq!(s.f_max, 0.75 - 0.3, "the closed points only");
        // Skipped between two closed points of opposite sign: bracketed across the gap.
        let g = |x: f64| {
            if x == 0.5 {
                Err(format!("{NOT_CLOSED}gap"))
            } else {
                Ok(x - 0.55)
            }
        };
        let s = solve(&g, [0.0, 1.0], XTOL, 0.0).unwrap();
        assert!((s.root.unwrap() - 0.55).abs() < 1e-3, "{s:?}");
        assert!(solve(&|_| Err::<f64, _>(format!("{NOT_CLOSED}x")), [0.0, 1.0], XTOL, 0.0).is_err());
    }

    /// Issue 43 (s53): a point met while narrowing a bracket whose cycle does not close is
    /// skipped, as the scan's are, and the search goes on from another point of the bracket
    /// (before, the explanation erred: `nudges` 0 below is that behaviour); it errs only when
    /// none of the [`NUDGES`] points tried beside it closes.
    #[test]
    fn a_narrowing_point_whose_cycle_does_not_close_is_skipped() {
        // Root 0.3 in the scan's bracket [0.25, 0.375]; regula falsi's first point there is
        // 0.294, inside the open stretch (0.29, 0.297).
        let open = |lo: f64, hi: f64| {
            move |x: f64| {
                if x > lo && x < hi {
                    Err(format!("metric `area`: {NOT_CLOSED}the cycle ends 1.13 % away"))
                } else {
                    Ok(x * x - 0.09)
                }
            }
        };
        let f = open(0.29, 0.297);
        let before = solve_nudged(&f, [0.0, 1.0], XTOL, 0.0, 0).unwrap_err();
        assert!(before.contains(NOT_CLOSED), "{before}");
        let s = solve(&f, [0.0, 1.0], XTOL, 0.0).unwrap();
        assert!((s.root.unwrap() - 0.3).abs() < 2.0 * XTOL * 0.3, "{s:?}");
        assert!(s.narrowed && s.skipped.is_empty(), "{s:?}");
        assert!(!s.skipped_narrowing.is_empty(), "{s:?}");
        assert!(s.skipped_narrowing.iter().all(|&x| x > 0.29 && x < 0.297), "{s:?}");
        // The same answer as a function closed everywhere, to the precision.
        let closed = solve(&|x: f64| Ok(x * x - 0.09), [0.0, 1.0], XTOL, 0.0).unwrap();
        assert!((s.root.unwrap() - closed.root.unwrap()).abs() < 2.0 * XTOL * 0.3);
        // Open on (0.26, 0.37): 0.294 and the four points tried beside it (0.272, 0.3345,
        // 0.261, 0.35475) all fall inside: an error that names the bracket.
        let e = solve(&open(0.26, 0.37), [0.0, 1.0], XTOL, 0.0).unwrap_err();
        assert!(
            e.contains("while narrowing the bracket [0.25, 0.375]") && e.contains("the 4 points"),
            "{e}"
        );
    }

    #[test]
    fn solve_finds_a_root_to_the_tolerance_and_reports_none_outside() {
        let f = |x: f64| Ok(x * x - 2.0);
        let s = solve(&f, [0.0, 3.0], XTOL, 0.0).unwrap();
        let r = s.root.unwrap();
        assert!((r - 2f64.sqrt()).abs() < 2.0 * XTOL * r, "{r}");
        assert_eq!(s.brackets, 1);
        assert!(s.evaluations < 40, "{}", s.evaluations);
        let s = solve(&f, [2.0, 3.0], XTOL, 0.0).unwrap();
        assert_eq!(s.root, None);
        assert_eq!((s.f_min, s.f_max), (2.0, 7.0));
        // Geometric scan over decades; the half-width of an exponential's root.
        let g = |x: f64| Ok((-x).exp() - 0.5);
        let r = solve(&g, [1e-3, 1e2], XTOL, 0.0).unwrap().root.unwrap();
        assert!((r - 2f64.ln()).abs() < 2.0 * XTOL * r, "{r}");
        // A non-monotone function: two brackets, the first refined.
        let h = |x: f64| Ok((x - 1.0) * (x - 3.0));
        let s = solve(&h, [0.0, 4.5], XTOL, 0.0).unwrap();
        assert_eq!(s.brackets, 2);
        assert!((s.root.unwrap() - 1.0).abs() < 1e-5);
        // A step function (a count of elements): the bracket closes on the jump by bisection
        // once regula falsi stalls, in far fewer than MAX_EVALUATIONS, and the jump is reported
        // with both sides, not as a root.
        let step = |x: f64| Ok((x / 0.1).floor() * 0.1 - 0.537);
        let s = solve(&step, [0.0, 1.0], XTOL, 0.0).unwrap();
        assert_eq!(s.root, None);
        let j = s.jump.unwrap();
        assert!(
            (j.at[0] - 0.6).abs() < 2.0 * XTOL * 0.6 && j.at[1] - j.at[0] <= XTOL * 0.6,
            "{j:?}"
        );
        assert!((j.from + 0.037).abs() < 1e-12 && (j.to - 0.063).abs() < 1e-12, "{j:?}");
        assert!(s.evaluations <= 9 + 20, "{}", s.evaluations);
        // Within a tolerance larger than the jump it is no jump: the nearer side is the root.
        let loose = solve(&step, [0.0, 1.0], XTOL, 0.2).unwrap();
        assert_eq!(loose.jump, None);
        assert!((loose.root.unwrap() - 0.6).abs() < 2.0 * XTOL * 0.6, "{:?}", loose.root);
        // A jump in the first bracket and a root in a later one: the root, and the jump.
        let both = |x: f64| Ok(if x < 0.3 { -1.0 } else { 1.0 - x });
        let b = solve(&both, [0.0, 2.0], XTOL, 0.0).unwrap();
        assert!((b.root.unwrap() - 1.0).abs() < 2.0 * XTOL, "{:?}", b.root);
        assert!((b.jump.unwrap().at[0] - 0.3).abs() < 1e-3, "{:?}", b.jump);
        // A steep but continuous function is no jump.
        let steep = |x: f64| Ok((50.0 * (x - 0.61)).tanh());
        let t = solve(&steep, [0.0, 1.0], XTOL, 0.0).unwrap();
        assert_eq!(t.jump, None);
        assert!((t.root.unwrap() - 0.61).abs() < 2.0 * XTOL, "{:?}", t.root);
        // A coarser precision closes on the same jump in fewer steps.
        let coarse = solve(&step, [0.0, 1.0], 1e-2, 0.0).unwrap();
        assert!(
            (coarse.jump.unwrap().at[0] - 0.6).abs() < 2e-2 * 0.6,
            "{:?}",
            coarse.jump
        );
        assert!(
            coarse.evaluations < s.evaluations,
            "{} vs {}",
            coarse.evaluations,
            s.evaluations
        );
        // A range of hundreds of decades is scanned without overflow.
        let xs = scan_points([1e-300, 1e300]);
        assert!(xs.windows(2).all(|w| w[0].is_finite() && w[0] < w[1]), "{xs:?}");
        assert_eq!((xs[0], xs[SCAN_POINTS - 1]), (1e-300, 1e300));
        // An evaluation error is an error.
        assert!(solve(&|_| Err::<f64, _>("boom".to_string()), [0.0, 1.0], XTOL, 0.0).is_err());
    }
}
