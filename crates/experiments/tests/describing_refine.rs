//! A refined describing-function curve (report Fig 5.27's LuGre, third decomposition): every
//! drawn chord within the stated change, the crossing of Re H(iω) a drawn, marked point.

mod common;

use fric_experiments::RunData;
use fric_manifest::{Scale, SimSpec};
use fric_solvers::describing::distance;

/// Fig 5.27's run at ω = 2 rad/s (Table 5.10's LuGre on the inertia, G = PID) on 5 amplitudes
/// in 0.375…0.455 N·m, with `refine`.
fn fig_5_27_at_2(refine: f64) -> RunData {
    let mut p = common::third_approach(2.0);
    p.push(("refine", common::n(refine)));
    p.extend(common::table_5_10_lugre(0.017));
    let input = common::grid(0.375, 0.455, 5, Scale::Linear);
    common::run("describing-function-lugre", &p, input, SimSpec::default())
}

/// The changes of N between consecutive drawn points (no gap between them).
fn chords(d: &RunData) -> Vec<f64> {
    let (re, im) = (d.column("re_n").unwrap(), d.column("im_n").unwrap());
    (1..re.len())
        .filter(|&i| re[i].is_finite() && re[i - 1].is_finite())
        .map(|i| distance((re[i - 1], im[i - 1]), (re[i], im[i])))
        .collect()
}

/// The largest change of N between consecutive drawn points (no gap between them).
fn longest_chord(d: &RunData) -> f64 {
    chords(d).into_iter().fold(0.0, f64::max)
}

#[test]
fn a_refined_curve_has_short_chords_and_its_crossing_is_a_marked_point() {
    let coarse = fig_5_27_at_2(0.0);
    let fine = fig_5_27_at_2(0.02);
    // On the grid alone (and the jump ends) the curve is drawn from chords far longer.
    assert!(longest_chord(&coarse) > 0.1, "{}", longest_chord(&coarse));
    // Every drawn chord within `refine` but the ones the refinement counted as unresolved.
    let unresolved = fine.info["refine_unresolved"];
    let long: Vec<f64> = chords(&fine).into_iter().filter(|&c| c > 0.02).collect();
    assert_eq!(long.len() as f64, unresolved, "chords longer than 0.02: {long:?}");
    assert!(fine.info["refined_points"] > 0.0);
    // The crossing of Re G = k_p = 0.18: one marked row, a point of the curve, on G's line to
    // the bisection's width (Fig 5.27: next to the gap, within 2e-4).
    let (re, im) = (fine.column("re").unwrap(), fine.column("im").unwrap());
    let (mre, mim) = (fine.column("mark_re").unwrap(), fine.column("mark_im").unwrap());
    let marked: Vec<usize> = (0..re.len()).filter(|&i| mre[i].is_finite()).collect();
    assert_eq!(marked.len(), 1, "{marked:?}");
    let k = marked[0];
    assert_eq!((mre[k], mim[k]), (re[k], im[k]));
    assert!((re[k] - 0.18).abs() < 2e-4, "{}", re[k]);
    // The mark is the end of the final bracket nearer the line; `cross_re` is read at the
    // bracket's middle, 1e-12 relative away in a (measured 4.2e-9 apart in Re here).
    assert!(
        (fine.info["cross_re"] - re[k]).abs() < 1e-7,
        "{} {}",
        fine.info["cross_re"],
        re[k]
    );
    // Without refine no row is marked.
    assert!(coarse.column("mark_re").unwrap().iter().all(|v| v.is_nan()));
}
