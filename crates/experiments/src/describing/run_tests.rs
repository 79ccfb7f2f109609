//! Unit tests of the DF run (`run.rs`): memoised holes, the search mark.

use super::*;
use crate::system::ParamSet;
use fric_manifest::{InputSpec, InputValue, ParamValue};

/// A classical-stick DF request on the amplitudes 1, 2, 3, 4, 5 (linear grid) at ω = 1, no
/// jump refinement (`jump` 100), the drawn curve refined to a change of 0.01.
pub(in crate::describing) fn five_amplitudes_refined() -> RunRequest {
    let n = |v: f64| ParamValue::Number(v);
    let params = [
        ("approach", n(3.0)),
        ("omega", n(1.0)),
        ("jump", n(100.0)),
        ("refine", n(0.01)),
        ("h_num", ParamValue::List(vec![1.0])),
        ("h_den", ParamValue::List(vec![1.0])),
        ("j", n(1.0)),
        ("tau_s", n(1.0)),
        ("tau_k", n(1.0)),
        ("alpha", n(0.0)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let input = InputSpec::new(
        "grid",
        [
            ("from", InputValue::from(1.0)),
            ("to", InputValue::from(5.0)),
            ("points", InputValue::from(5usize)),
        ],
    );
    crate::resolve("describing-function-classical", &params, Some(&input), None).unwrap()
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
