//! Unit tests of the DF runs' plants and linear part.

use super::BlimanSorinePath;
use fric_models::bliman_sorine::BlimanSorine;
use fric_solvers::describing::{describing_function, DfOptions};

/// Figs 5.22-5.24's inertia (J = 0.0025 kg·m², α = 0.017 N·m·s/rad) with the B&S set
/// `[f1, f2, ε, η]`, and their DF options (DOP853, rtol 1e-8).
fn report_bs([f1, f2, eps, eta]: [f64; 4]) -> (BlimanSorinePath, DfOptions) {
    let sys = BlimanSorinePath {
        j: 0.0025,
        alpha: 0.017,
        law: BlimanSorine { f1, f2, eps, eta },
    };
    let opt = DfOptions {
        method: fric_solvers::Method::Dop853,
        rtol: 1e-8,
        atol_per_a: 1e-13,
        ..Default::default()
    };
    (sys, opt)
}

#[test]
fn restarts_after_reversals_take_the_step_of_the_last_phase_in_the_same_direction() {
    // Fig 5.24's inertia at ω = 2 rad/s: the pre-sliding ringing reverses θ' every few
    // steps, and after a reversal from positive to negative velocity the motion is stiffer
    // than after one back. Restarting each phase with the step the phase before ended with
    // (the other regime's), DOP853 rejected that first step at most restarts, often twice:
    // 1 595 and 1 072 rejected attempts against 12 175 and 7 396 accepted steps at these two
    // amplitudes (14 %); with the step of the last phase in the same direction, 1 224 and
    // 607 against 12 197 and 7 385 (9 %; at 0.4 N·m 14.5 % -> 8 %).
    let (sys, opt) = report_bs([0.454939, 0.234939, 0.00666667, 0.279131]);
    let (mut steps, mut rejected) = (0, 0);
    for a in [0.30, 0.40] {
        let p = describing_function(&sys, a, 2.0, &opt).unwrap();
        assert!(p.residual < 1e-10, "{p:?}");
        (steps, rejected) = (steps + p.steps, rejected + p.rejected);
        if a == 0.40 {
            assert!((p.rejected as f64) < 0.12 * p.steps as f64, "{p:?}");
        }
        // The restart steps change the DF by the integration's error only.
        let fine = describing_function(&sys, a, 2.0, &DfOptions { rtol: 1e-10, ..opt }).unwrap();
        let d = (p.n.0 - fine.n.0).hypot(p.n.1 - fine.n.1);
        assert!(d < 1e-7 * fine.n.0.hypot(fine.n.1), "{p:?} vs {fine:?}");
    }
    assert!((rejected as f64) < 0.115 * steps as f64, "{rejected} of {steps}");
}

#[test]
fn near_break_away_the_df_is_the_orbit_a_long_simulation_from_rest_reaches() {
    // Figs 5.22-5.24: the inertia with the B&S set of Table 5.9 (unrounded), ω = 1 rad/s,
    // a = 0.295 N·m. Newton started two periods after rest converges (residual < 1e-10) to
    // a creeping pre-sliding orbit with Floquet multiplier 1.03, which a simulation from rest
    // leaves between its 5th and 10th period for one-sided break-away (drift 3.66 rad per
    // period). The DF must be that of the orbit 150 periods from rest reach.
    let (sys, opt) = report_bs([0.454939, 0.234939, 0.00666667, 0.279131]);
    let p = describing_function(&sys, 0.295, 1.0, &opt).unwrap();
    let long = describing_function(&sys, 0.295, 1.0, &DfOptions { transient: 150, ..opt }).unwrap();
    for q in [&p, &long] {
        assert!(q.residual < 1e-10 && q.multiplier < 1.0, "{q:?}");
        assert!(q.drift > 1.0, "one-sided break-away: {q:?}");
    }
    let d = ((p.n.0 - long.n.0).powi(2) + (p.n.1 - long.n.1).powi(2)).sqrt();
    assert!(d < 1e-7 * long.n.0.hypot(long.n.1), "{p:?} vs {long:?}");
    // The first shot's creeping orbit and the periods simulated past it are counted apart:
    // a shot (Jacobian columns, Newton, multiplier) and at least 6 periods.
    assert!(p.unstable_maps >= 6 + 4 && p.unstable_maps < p.maps, "{p:?}");
    // Below the break-away both are the same stable pre-sliding orbit, found at once.
    let p = describing_function(&sys, 0.29, 1.0, &opt).unwrap();
    assert!(p.multiplier < 1.0 && p.drift.abs() < 1e-6, "{p:?}");
    assert_eq!(p.unstable_maps, 0, "{p:?}");
}

#[test]
fn lingering_by_an_unstable_orbit_is_advanced_in_closed_form_to_the_same_orbit() {
    // Fig 5.24's run with Table 5.9's rounded B&S set at ω = 1.9 rad/s: two amplitudes of its
    // bisection at the basin boundary near 0.29141 N·m, where the simulation from rest
    // lingers by an unstable creeping orbit (multiplier 1.12; the others below 2e-3, 2e-6
    // from it after one period). At the first it leaves after about 75 periods for the
    // weakly stable orbit (multiplier 0.955); at the second it is still by the unstable orbit
    // after 128 periods (a basin boundary).
    let (sys, opt) = report_bs([0.45, 0.23, 0.0067, 0.28]);
    let (a, w) = (0.29141105651855465, 1.9);
    let p = describing_function(&sys, a, w, &opt).unwrap();
    // The plain simulation from rest for 148 periods, then the shooting (no lingering left).
    let long = describing_function(&sys, a, w, &DfOptions { transient: 150, ..opt }).unwrap();
    for q in [&p, &long] {
        assert!(q.residual < 1e-10 && q.multiplier > 0.9 && q.multiplier < 1.0, "{q:?}");
    }
    let d = ((p.n.0 - long.n.0).powi(2) + (p.n.1 - long.n.1).powi(2)).sqrt();
    assert!(d < 1e-7 * long.n.0.hypot(long.n.1), "{p:?} vs {long:?}");
    assert_eq!(long.predicted_periods, 0, "{long:?}");
    assert!(p.predicted_periods >= 40 && p.maps * 2 < long.maps, "{p:?} vs {long:?}");
    // Still by the unstable orbit at the limit, predicted or simulated: a basin boundary.
    let a = 0.2914111304283142;
    let p = describing_function(&sys, a, w, &opt).unwrap();
    let long = describing_function(&sys, a, w, &DfOptions { transient: 126, ..opt }).unwrap();
    for q in [&p, &long] {
        assert!(q.residual < 1e-10 && q.multiplier > 1.1, "{q:?}");
    }
    assert!(p.predicted_periods > 90 && p.maps * 2 < long.maps, "{p:?} vs {long:?}");
}

/// Report Figs 5.25-5.27's inertia with the LuGre set of L1907.
pub(super) fn lugre_inertia() -> super::TorqueInput<fric_models::lugre::LuGre> {
    super::TorqueInput(fric_models::inertia::Inertia {
        j: 0.0025,
        alpha: 0.017,
        friction: fric_models::lugre::LuGre {
            sigma0: 280.0,
            sigma1: 1.0,
            sigma2: 0.0,
            fc: 0.22,
            fs: 0.39,
            vs: 0.1,
        },
    })
}

#[test]
fn the_lugre_df_is_the_orbit_a_long_simulation_from_rest_reaches() {
    // Figs 5.25-5.27: the inertia with the LuGre set of L1907, ω = 2 rad/s, below the
    // break-away gap (0.37 N·m: pre-sliding, |N| ≈ 0.007 rad/N·m) and above it (0.395 and
    // 0.44 N·m: sliding both ways, |N| ≈ 7-10): the DF shot two periods after rest is the
    // one shot after 150 periods from rest (agreeing to 1e-11 relative when written), and
    // its orbit is stable (largest Floquet multiplier about 1e-7, or reached within a period).
    let sys = lugre_inertia();
    let opt = DfOptions {
        method: fric_solvers::Method::Radau5,
        rtol: 1e-8,
        atol_per_a: 1e-13,
        ..Default::default()
    };
    for a in [0.37, 0.395, 0.44] {
        let p = describing_function(&sys, a, 2.0, &opt).unwrap();
        let long = describing_function(&sys, a, 2.0, &DfOptions { transient: 150, ..opt }).unwrap();
        let sliding = a > 0.38;
        assert_eq!(p.n.0.hypot(p.n.1) > 1.0, sliding, "a = {a}: {p:?}");
        assert!(p.drift.abs() < 1e-9, "a = {a}: symmetric, no drift: {p:?}");
        for q in [&p, &long] {
            // Stable: by its multiplier, or reached within one period of the shot's start.
            let stable = q.multiplier < 1.0 || (q.contracted && q.multiplier.is_nan());
            assert!(q.residual < 1e-10 && stable, "a = {a}: {q:?}");
        }
        let d = ((p.n.0 - long.n.0).powi(2) + (p.n.1 - long.n.1).powi(2)).sqrt();
        assert!(d < 1e-7 * long.n.0.hypot(long.n.1), "a = {a}: {p:?} vs {long:?}");
    }
}

#[test]
fn horner_on_the_imaginary_axis() {
    // s² + 2s + 5 at s = 3i: −9 + 6i + 5 = −4 + 6i.
    assert_eq!(super::poly_at(&[1.0, 2.0, 5.0], 3.0), (-4.0, 6.0));
    // 1/s vanishes nowhere but its denominator does at ω = 0.
    assert_eq!(super::response(&[1.0], &[1.0, 0.0], 0.0), None);
}

/// Issue 43 (report Fig 5.24, s57): a gap whose bisection stops at uncomputed points has the
/// band's computed neighbours as its edges, to 1e-6 relative, not where the bisection stopped.
/// A synthetic DF on the amplitudes 1…5 at ω = 1: no steady state (a hole) on [2.3, 3.61), and
/// N jumps from 1 to 0.2 across it. The grid bracket [2, 4] stops at once (3 and every probe
/// around it are holes): the old gap was [2, 4], 0.3 and 0.39 from the band.
#[test]
fn a_gap_edge_is_the_last_amplitude_with_a_steady_state_to_1e_6() {
    use crate::system::ParamSet;
    let req = super::run::tests::five_amplitudes_refined();
    // Jumps refined (the default 0.25), the drawn curve not, gap edges to 1e-6.
    let setup = super::DfSetup {
        jump: 0.25,
        refine: 0.0,
        gap_edges: 1e-6,
        ..super::DfSetup::read(&req.params)
    };
    let (from, to) = (2.3, 3.61);
    let data = super::run::run_points(&setup, &req, |a, _| {
        let n = (if a < 3.0 { 1.0 } else { 0.2 }, 0.0);
        Ok(super::run::tests::synthetic(n, (from..to).contains(&a)))
    })
    .unwrap();
    let i = &data.info;
    assert_eq!(i["gaps"], 1.0, "{i:?}");
    let (lo, hi) = (i["gap1_lo"], i["gap1_hi"]);
    assert!(lo < from && from - lo <= 1e-6 * 2.31, "{lo} {i:?}");
    assert!(hi >= to && hi - to <= 1e-6 * hi, "{hi} {i:?}");
    assert!((i["gap1_size"] - 5f64.ln()).abs() < 1e-12, "{i:?}");
}

/// Issue 43 (s58 h43b): a crossing bisection on a drawn segment that meets an amplitude without a
/// steady state treats it as a gap instead of failing the run (report Fig 5.22 at ω = 10 with
/// `gap_edges`: "a = 0.28705, ω = 10: no periodic steady state"). N = a (real), H = −0.4:
/// −1/N crosses Re H at a = 2.5, inside a hole [2.4, 2.6) on the segment [2, 3] (no jump there).
#[test]
fn a_hole_inside_a_segment_makes_its_crossing_a_gap_not_an_error() {
    use crate::system::ParamSet;
    let req = super::run::tests::five_amplitudes_refined();
    for refine in [0.0, 0.01] {
        let setup = super::DfSetup {
            h_num: vec![-0.4],
            refine,
            ..super::DfSetup::read(&req.params)
        };
        let data = super::run::run_points(&setup, &req, |a, _| {
            Ok(super::run::tests::synthetic((a, 0.0), (2.4..2.6).contains(&a)))
        })
        .unwrap();
        let i = &data.info;
        assert_eq!((i["cross_in_gap"], i["cross_a"]), (1.0, 2.5), "refine {refine}: {i:?}");
        assert_eq!(i["gaps"], 0.0, "{i:?}");
        if refine > 0.0 {
            assert_eq!(i["crossings_marked"], 0.0, "{i:?}");
        }
    }
}
