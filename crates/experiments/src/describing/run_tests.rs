//! Unit tests of the DF run (`run.rs`): memoised holes, the search mark, the search's curve
//! computed up to its first drawn crossing.

use super::*;
use crate::system::ParamSet;
use fric_manifest::{InputSpec, InputValue, ParamValue};

/// A classical-stick DF request (unit inertia and friction levels, no viscous friction, H's
/// denominator 1) with `params` besides, on `points` amplitudes from `from` to `to` (linear grid).
fn classical(params: &[(&str, ParamValue)], (from, to, points): (f64, f64, usize)) -> RunRequest {
    let n = |v: f64| ParamValue::Number(v);
    let base = [
        ("approach", n(3.0)),
        ("h_den", ParamValue::List(vec![1.0])),
        ("j", n(1.0)),
        ("tau_s", n(1.0)),
        ("tau_k", n(1.0)),
        ("alpha", n(0.0)),
    ];
    let params = base
        .into_iter()
        .chain(params.iter().cloned())
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let input = InputSpec::new(
        "grid",
        [
            ("from", InputValue::from(from)),
            ("to", InputValue::from(to)),
            ("points", InputValue::from(points)),
        ],
    );
    crate::resolve("describing-function-classical", &params, Some(&input), None).unwrap()
}

/// A classical-stick DF request on the amplitudes 1, 2, 3, 4, 5 (linear grid) at ω = 1, no
/// jump refinement (`jump` 100), the drawn curve refined to a change of 0.01.
pub(in crate::describing) fn five_amplitudes_refined() -> RunRequest {
    let n = |v: f64| ParamValue::Number(v);
    let params = [
        ("omega", n(1.0)),
        ("jump", n(100.0)),
        ("refine", n(0.01)),
        ("h_num", ParamValue::List(vec![1.0])),
    ];
    classical(&params, (1.0, 5.0, 5))
}

/// A synthetic DF point: `n`, stable (multiplier 0.5), or a hole (shooting residual 1).
pub(in crate::describing) fn synthetic(n: (f64, f64), hole: bool) -> DfPoint {
    DfPoint {
        n,
        drift: 0.0,
        residual: if hole { 1.0 } else { 1e-12 },
        converged: !hole,
        multiplier: 0.5,
        maps: 1,
        steps: 1,
        rejected: 0,
        unstable_maps: 0,
        predicted_periods: 0,
        contracted: false,
        orbit_margin: f64::NAN,
        orbit_steps: 0,
    }
}

/// Review L3: a point without a steady state is counted once, when it is computed. The grid
/// point a = 3 is a hole (residual 1); the refinement of the chord 2 → 4 (|ln 4/2| > 0.01)
/// asks for its midpoint, a = 3 again (memoised). Before, `unresolved_points` counted each
/// use: 2.
#[test]
fn a_hole_is_counted_once_however_often_it_is_asked_for() {
    let req = five_amplitudes_refined();
    let setup = DfSetup::read(&req.params);
    let computed = Cell::new(0usize);
    let data = run_points(&setup, &req, |a, _| {
        computed.set(computed.get() + 1);
        Ok(synthetic((a, -0.5 * a), a == 3.0))
    })
    .unwrap();
    // The refinement ran (points added around the hole).
    assert!(data.info["refined_points"] > 0.0, "{:?}", data.info);
    assert_eq!(data.info["df_evaluations"], computed.get() as f64);
    assert_eq!(data.info["unresolved_grid_points"], 1.0);
    assert_eq!(data.info["unresolved_points"], 1.0, "{:?}", data.info);
    assert_eq!(data.info["unstable_points"], 0.0);
    assert_eq!(data.info["max_residual"], 1e-12);
}

/// A DF evaluation that fails as one inside a gap does (no periodic steady state).
fn no_steady_state() -> Result<Option<(f64, f64)>, String> {
    Err("no periodic steady state".into())
}

#[test]
fn a_search_crossing_in_a_gap_is_not_marked_and_does_not_fail_the_run() {
    assert_eq!(search_mark(0.02, true, no_steady_state), Ok(None));
    // On the curve but where no steady state was found (a hole): no mark either.
    assert_eq!(search_mark(0.02, false, || Ok::<_, String>(None)), Ok(None));
    // On the curve with a value: −1/N marked; without refine nothing is evaluated.
    let n = (2.0, -1.0);
    assert_eq!(
        search_mark(0.02, false, || Ok::<_, String>(Some(n))),
        Ok(Some(negative_inverse(n)))
    );
    assert_eq!(search_mark(0.0, false, no_steady_state), Ok(None));
    // An error off a gap is still an error.
    assert!(search_mark(0.02, false, no_steady_state).is_err());
}

/// Every computed point is counted once, in the part of the run that asked for it first (info
/// `part_*`): the five grid points in `grid` (the hole at a = 3 among them), the refinement's
/// midpoints in `refine`; the parts' points, maps and steps add up to the run's.
#[test]
fn each_point_is_counted_in_the_part_that_computed_it() {
    let req = five_amplitudes_refined();
    let setup = DfSetup::read(&req.params);
    let data = run_points(&setup, &req, |a, _| Ok(synthetic((a, -0.5 * a), a == 3.0))).unwrap();
    let i = &data.info;
    assert_eq!(i["part_grid_points"], 5.0, "{i:?}");
    assert!(i["part_refine_points"] > 0.0, "{i:?}");
    let sum = |what: &str| -> f64 {
        i.iter()
            .filter(|(k, _)| k.starts_with("part_") && k.ends_with(&format!("_{what}")) && !k.ends_with("orbit_steps"))
            .map(|(_, v)| v)
            .sum()
    };
    assert_eq!(sum("points"), i["df_evaluations"], "{i:?}");
    assert_eq!(sum("maps"), i["period_maps"], "{i:?}");
    assert_eq!(sum("steps"), i["steps"], "{i:?}");
}

/// A request whose (a, ω) search scans a ∈ [1, 3] at ω = 2 and 3 (the bracket ends) against
/// H = 0 (so Re H(iω) = Im H(iω) = 0 at every ω), the run's own curve at ω = 1 on the scan's
/// 17 amplitudes (the same formula, so the same numbers), not refined.
fn searching_on_the_scan() -> RunRequest {
    searching(&[("h_num", ParamValue::List(vec![0.0]))], SCAN + 1)
}

/// A classical-stick request whose (a, ω) search scans a ∈ [1, 3] for ω in [2, 3], its own curve
/// at ω = 1 on `points` amplitudes in [1, 3], with `params` besides.
fn searching(params: &[(&str, ParamValue)], points: usize) -> RunRequest {
    let n = |v: f64| ParamValue::Number(v);
    let base = [
        ("omega", n(1.0)),
        ("omega_lo", n(2.0)),
        ("omega_hi", n(3.0)),
        ("a_lo", n(1.0)),
        ("a_hi", n(3.0)),
    ];
    let all: Vec<_> = base.into_iter().chain(params.iter().cloned()).collect();
    classical(&all, (1.0, 3.0, points))
}

/// The search's first crossing at each ω, computed only up to the first drawn crossing, is the
/// first crossing of the whole curve: with N independent of ω and H = 0, the run's own curve at
/// ω = 1 (whole, `cross_*`) and the search's at the bracket ends ω = 2, 3 (`bracket_*`) are one
/// curve on the same amplitudes, so they must agree to the bit. `m(a)` is −1/N; Re(−1/N) crosses
/// Re H = 0 where `m(a).0` changes sign; `hole(a)`: no steady state there.
#[test]
fn the_search_stops_its_curve_at_the_first_drawn_crossing_with_the_whole_curves_answer() {
    type Case = (&'static str, fn(f64) -> (f64, f64), fn(f64) -> bool, f64, bool);
    let no_holes = |_: f64| false;
    let cases: [Case; 5] = [
        // A plain crossing at 1.3: the curve stops there, after 4 of its 17 amplitudes.
        ("plain", |a| (a - 1.3, -1.0 - 0.1 * a), no_holes, 1.3, false),
        // A gap at 1.6 (−1/N jumps by 1, Re(−1/N) negative on both sides) before the crossing.
        (
            "gap before",
            |a| (a - 2.3 - if a < 1.6 { 1.0 } else { 0.0 }, -1.0),
            no_holes,
            2.3,
            false,
        ),
        // Re(−1/N) changes sign only across a gap at 2.3: the whole curve is scanned.
        (
            "across a gap only",
            |a| (if a < 2.3 { a - 2.8 } else { a - 1.8 }, -1.0),
            no_holes,
            2.3,
            true,
        ),
        // Across a gap at 1.7 first, then a drawn crossing at 2.2: the drawn one counts.
        (
            "across a gap, then drawn",
            |a| (if a < 1.7 { a - 2.2 } else { 2.2 - a }, -1.0),
            no_holes,
            2.2,
            false,
        ),
        // A hole on the first crossing's segment (at its midpoint 1.5625): across a gap there;
        // the drawn crossing at 2.65 counts.
        (
            "hole, then drawn",
            |a| ((a - 1.55).min(2.65 - a), -1.0),
            |a| (1.52..1.58).contains(&a),
            2.65,
            false,
        ),
    ];
    for (name, m, hole, expect, in_gap) in cases {
        let req = searching_on_the_scan();
        let setup = DfSetup::read(&req.params);
        let n = |a: f64| {
            let (x, y) = m(a);
            let q = x * x + y * y;
            (-x / q, y / q)
        };
        let data = run_points(&setup, &req, |a, _| Ok(synthetic(n(a), hole(a)))).unwrap();
        let i = &data.info;
        assert_eq!(i["cross_in_gap"], in_gap as u8 as f64, "{name}: {i:?}");
        // Across a gap the crossing is the gap's middle (within its 1e-12 bracket).
        assert!((i["cross_a"] - expect).abs() < 1e-9, "{name}: {i:?}");
        for end in ["lo", "hi"] {
            assert_eq!(i[&format!("bracket_{end}_a")], i["cross_a"], "{name}: {i:?}");
            assert_eq!(i[&format!("bracket_{end}_above")], i["cross_above"], "{name}: {i:?}");
        }
        assert_eq!(i["bracket_in_gap"], i["cross_in_gap"], "{name}: {i:?}");
        // Two curves from the bracket ends; the whole curve's points at ω = 1 in the other parts.
        let whole = i["df_evaluations"] - i["part_search_points"];
        let searched = i["part_search_points"] / 2.0;
        if in_gap {
            assert_eq!(searched, whole, "{name}: {i:?}");
        } else if name == "plain" {
            // The scan's first 4 amplitudes (1 … 1.375) of its 17, and the same bisection.
            assert_eq!(searched, whole - 13.0, "{name}: {i:?}");
        }
    }
}

/// The search's local steps track a crossing, and the answer is still the first drawn crossing at
/// ω*: −1/N(a, ω) = (a − c(ω) + bump, −1 − 0.2(ω − 2)² − 0.01(a − c(ω))) with c(ω) = 1.5 +
/// 0.02(ω − 2), against H(s) = −0.45 s (Re H = 0, Im H = −0.45ω), so the height of the crossing
/// at c(ω) is −1 − 0.2(ω − 2)² + 0.45ω, zero at ω = 2.25 in the bracket [2, 3]. With `bump`
/// (10 (0.1 − |a − 1.2|) where positive, for ω in (2.2, 2.3) only) an earlier crossing, at
/// a_b = 1 + c/11, appears near that root but not at the bracket ends or the first step (ω = 2.4),
/// from which the local steps track the crossing at c(ω); the first crossing's height is then
/// 0.01(c − a_b) higher, its root near 2.2396. The check at the local root with the whole curve
/// finds the earlier crossing, and the search is done again with whole curves.
#[test]
fn the_search_answers_the_first_drawn_crossing_even_where_an_earlier_one_appears_near_its_root() {
    let c = |w: f64| 1.5 + 0.02 * (w - 2.0);
    let bumped = |w: f64| 1.0 + c(w) / 11.0;
    for bump in [false, true] {
        let params = [
            ("jump", ParamValue::Number(100.0)),
            ("h_num", ParamValue::List(vec![-0.45, 0.0])),
        ];
        let req = searching(&params, 5);
        let setup = DfSetup::read(&req.params);
        let near = |w: f64| bump && w > 2.2 && w < 2.3;
        let m = |a: f64, w: f64| {
            let b = if near(w) {
                (10.0 * (0.1 - (a - 1.2).abs())).max(0.0)
            } else {
                0.0
            };
            (a - c(w) + b, -1.0 - 0.2 * (w - 2.0).powi(2) - 0.01 * (a - c(w)))
        };
        let data = run_points(&setup, &req, |a, w| {
            let (x, y) = m(a, w);
            let q = x * x + y * y;
            Ok(synthetic((-x / q, y / q), false))
        })
        .unwrap();
        let i = &data.info;
        // The first crossing's amplitude and height at ω, and the root of the height (bisected).
        let first = |w: f64| if near(w) { bumped(w) } else { c(w) };
        let g = |w: f64| m(first(w), w).1 + 0.45 * w;
        let (mut lo, mut hi) = (2.0, 3.0);
        while hi - lo > 1e-13 {
            let mid = 0.5 * (lo + hi);
            if g(mid) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let (w_star, a_star) = (i["intersection_omega"], i["intersection_a"]);
        assert!(
            (w_star - lo).abs() < 1e-5,
            "bump {bump}: ω* {w_star} against {lo}: {i:?}"
        );
        let expect = first(w_star);
        assert!(
            (a_star - expect).abs() < 1e-11,
            "bump {bump}: a* {a_star} against {expect}: {i:?}"
        );
        assert_eq!(i["search_fell_back"], bump as u8 as f64, "bump {bump}: {i:?}");
    }
}
