//! `find`: the value of one parameter at which a metric reaches a target, `metric(P) = target`,
//! by a bracketed root search (the one Illinois root finder, [`roots::illinois_bracket`], with its
//! stall bisection), each evaluation a caller-supplied function (a full run with `P` patched).
//!
//! The search is serial and deterministic: the same bracket, target and tolerance take the same
//! steps whatever the job count. A bracket without a sign change of `metric − target`, a
//! non-finite metric value, or a bracket not narrowed within the budget is an error (the caller
//! adds the manifest's file and line). A bracket that closes on a jump of the metric (a step, not
//! a crossing) is reported as a jump with its two sides, never as a root.

use fric_solvers::roots;

/// At most this many evaluations after the two at the bracket's ends.
pub const MAX_EVALUATIONS: usize = 60;

/// How much more than the bracket's initial secant slope predicts the metric may change across
/// the narrowed bracket and still be continuous there: a larger change is a jump (as in the
/// explanations' search, `sensitivity::JUMP_FACTOR`).
pub const JUMP_FACTOR: f64 = 10.0;

/// What [`find`] found: the final bracket `[lo, hi]` (`lo < hi`) with the metric at its ends,
/// the root (the end whose metric is nearer the target; `None` across a jump), its width and
/// how many times the metric was evaluated (the two ends included).
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub root: Option<f64>,
    pub lo: f64,
    pub hi: f64,
    pub metric_lo: f64,
    pub metric_hi: f64,
    pub width: f64,
    pub evaluations: usize,
    /// The metric jumps across the target inside `[lo, hi]`: no value there reaches it.
    pub jump: bool,
}

/// `metric(p) − target`, an error when the metric is not finite at `p`.
fn residual(metric: &mut impl FnMut(f64) -> Result<f64, String>, p: f64, target: f64) -> Result<f64, String> {
    let m = metric(p)?;
    if !m.is_finite() {
        return Err(format!("the metric is {m} at {p}: a root search needs finite values"));
    }
    Ok(m - target)
}

/// Check the search's settings: a finite bracket of two distinct values, a finite target, a
/// positive finite tolerance.
fn validate(bracket: [f64; 2], target: f64, abs_tol: f64) -> Result<(), String> {
    if !(bracket[0].is_finite() && bracket[1].is_finite() && bracket[0] != bracket[1]) {
        return Err(format!("bracket {bracket:?}: two distinct finite values"));
    }
    if !target.is_finite() {
        return Err(format!("target {target}: a finite number"));
    }
    if !(abs_tol > 0.0 && abs_tol.is_finite()) {
        return Err(format!("tol.abs {abs_tol}: a positive finite number"));
    }
    Ok(())
}

/// Solve `metric(p) = target` for `p` in `bracket` (either order) to a bracket width of
/// `abs_tol`: the metric at both ends must lie on opposite sides of the target (or one equal to
/// it). Then the Illinois root finder narrows the bracket, bisecting when it stalls.
pub fn find(
    mut metric: impl FnMut(f64) -> Result<f64, String>,
    bracket: [f64; 2],
    target: f64,
    abs_tol: f64,
) -> Result<Found, String> {
    validate(bracket, target, abs_tol)?;
    let (a, b) = (bracket[0].min(bracket[1]), bracket[0].max(bracket[1]));
    let fa = residual(&mut metric, a, target)?;
    let fb = residual(&mut metric, b, target)?;
    let exact = |p: f64, m: f64| Found {
        root: Some(p),
        lo: p,
        hi: p,
        metric_lo: m,
        metric_hi: m,
        width: 0.0,
        evaluations: 2,
        jump: false,
    };
    if fa == 0.0 {
        return Ok(exact(a, target));
    }
    if fb == 0.0 {
        return Ok(exact(b, target));
    }
    if (fa > 0.0) == (fb > 0.0) {
        return Err(format!(
            "no sign change on the bracket [{a}, {b}]: the metric is {} and {} there, both {} the \
             target {target}",
            fa + target,
            fb + target,
            if fa > 0.0 { "above" } else { "below" }
        ));
    }
    let opt = roots::Illinois {
        width: roots::Width::Absolute(abs_tol),
        max_evals: MAX_EVALUATIONS,
        bisect_on_stall: true,
        on_zero: roots::OnZero::Stop,
    };
    let r = roots::illinois_bracket(|p| residual(&mut metric, p, target), (a, fa), (b, fb), &opt)?;
    if r.stop == roots::Stop::MaxEvals {
        return Err(format!(
            "the bracket was not narrowed to {abs_tol} within {MAX_EVALUATIONS} evaluations \
             (last [{}, {}])",
            r.lo.min(r.hi),
            r.lo.max(r.hi)
        ));
    }
    let evaluations = r.evals + 2;
    if r.stop == roots::Stop::Zero {
        return Ok(Found {
            evaluations,
            ..exact(r.last, target)
        });
    }
    let ((lo, f_lo), (hi, f_hi)) = if r.lo <= r.hi {
        ((r.lo, r.f_lo), (r.hi, r.f_hi))
    } else {
        ((r.hi, r.f_hi), (r.lo, r.f_lo))
    };
    let slope = ((fb - fa) / (b - a)).abs();
    let jump = (f_hi - f_lo).abs() > JUMP_FACTOR * slope * (hi - lo);
    let root = if jump {
        None
    } else if f_lo.abs() <= f_hi.abs() {
        Some(lo)
    } else {
        Some(hi)
    };
    Ok(Found {
        root,
        lo,
        hi,
        metric_lo: f_lo + target,
        metric_hi: f_hi + target,
        width: hi - lo,
        evaluations,
        jump,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crossing_is_found_to_the_tolerance_with_its_bracket_and_evaluations() {
        // The Maxwell-slip area of fig3 for N = 2 (k = 1/2, δ = 1/2, 1) at A ≥ 1:
        // Σ 4k_iδ_i(A − δ_i) = (A − 1/2) + 2(A − 1) = 3A − 5/2; 3 J at A = 11/6.
        let area = |a: f64| Ok(3.0 * a - 2.5);
        let f = find(area, [1.0, 3.0], 3.0, 1e-9).unwrap();
        let root = f.root.unwrap();
        assert!((root - 11.0 / 6.0).abs() <= 1e-9, "{f:?}");
        assert!(
            f.width <= 1e-9 && f.lo <= 11.0 / 6.0 + 1e-12 && 11.0 / 6.0 <= f.hi + 1e-12,
            "{f:?}"
        );
        assert!(!f.jump && f.evaluations >= 3 && f.evaluations < 10, "{f:?}");
        // Either order of the bracket, a curved metric: the same root.
        let sq = |x: f64| Ok(x * x);
        let g = find(sq, [3.0, 0.0], 2.0, 1e-10).unwrap();
        assert!((g.root.unwrap() - 2f64.sqrt()).abs() <= 1e-10, "{g:?}");
        // Deterministic: the same call takes the same steps.
        assert_eq!(find(sq, [3.0, 0.0], 2.0, 1e-10).unwrap(), g);
        // The target at an end of the bracket is that end.
        let e = find(area, [2.0, 11.0 / 6.0], 3.0 - 0.0, 1e-9).unwrap();
        assert!((e.root.unwrap() - 11.0 / 6.0).abs() < 1e-12, "{e:?}");
    }

    #[test]
    fn a_step_is_reported_as_a_jump_with_its_two_sides() {
        let step = |x: f64| Ok(if x < 0.6 { 0.0 } else { 1.0 });
        let f = find(step, [0.0, 1.0], 0.5, 1e-6).unwrap();
        assert_eq!(f.root, None);
        assert!(f.jump && (f.lo - 0.6).abs() < 1e-6 && f.hi - f.lo <= 1e-6, "{f:?}");
        assert_eq!((f.metric_lo, f.metric_hi), (0.0, 1.0));
    }

    #[test]
    fn bad_brackets_values_and_settings_are_errors() {
        let lin = |x: f64| Ok(x);
        let e = find(lin, [1.0, 2.0], 5.0, 1e-6).unwrap_err();
        assert!(e.contains("no sign change") && e.contains("below"), "{e}");
        let nan = |x: f64| Ok(if x > 0.5 { f64::NAN } else { x });
        let e = find(nan, [0.0, 1.0], 0.25, 1e-6).unwrap_err();
        assert!(e.contains("NaN") && e.contains("finite"), "{e}");
        assert!(find(lin, [1.0, 1.0], 1.0, 1e-6).unwrap_err().contains("bracket"));
        assert!(find(lin, [0.0, 2.0], 1.0, 0.0).unwrap_err().contains("tol.abs"));
        assert!(find(lin, [0.0, 2.0], f64::INFINITY, 1e-6)
            .unwrap_err()
            .contains("target"));
        let boom = |_: f64| Err::<f64, _>("run failed".to_string());
        assert_eq!(find(boom, [0.0, 1.0], 0.5, 1e-6).unwrap_err(), "run failed");
    }
}
