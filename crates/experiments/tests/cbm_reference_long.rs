//! Thesis Fig 4.4's continued run (`thesis/fig4.4`, run `cbm_long`: the Fig 4.4 configuration
//! pulled for 8000 s, 200 samples per second) against the independent reference of
//! `cbm_reference.rs` (same files, `cbm_reference/`): the numbers behind the known
//! discrepancies `vmax_change`, `lmax_change` and `period2_gap` ("the orbit's, not the
//! samples'"), which rest on this run alone otherwise. Its own test binary: the reference runs
//! 8000 s at two steps (about 8 and 16 million RK4 steps).

#[path = "cbm_reference/mod.rs"]
mod cbm;

use cbm::{compare, reference, runs, series};

use compare::{case, check, Within};
use fric_manifest::InputSpec;
use reference::{Drive, Model};
use runs::{body_of, fig_4_4, production, reference_run, Span, TOLERANCES};
use series::Series;

/// The late orbit's numbers: the manifest's window maxima and their relative changes, and the
/// slip peaks over 4500–8000 s (where the manifest finds the period-2 transient gone).
#[derive(Debug, Clone, Copy)]
struct Late {
    vmax_change: f64,
    lmax_change: f64,
    period2_gap: f64,
    lmax_late: f64,
    /// Lowest and highest slip peak, mean and largest |difference| of successive peaks.
    peak_min: f64,
    peak_max: f64,
    gap_mean: f64,
    gap_max: f64,
}

fn late(s: &Series) -> Late {
    let rel = |a: f64, b: f64| (a - b) / b;
    let (ve, vl) = (s.max_in(&s.v, 7400.0, 7700.0), s.max_in(&s.v, 7700.0, 8000.0));
    let (le, ll) = (s.max_in(&s.l, 7400.0, 7700.0), s.max_in(&s.l, 7700.0, 8000.0));
    let (pa, pb) = (s.max_in(&s.v, 7992.4, 7995.1), s.max_in(&s.v, 7995.1, 7997.9));
    // One peak per slip: the largest sample of each run of v > 0.05 m/s.
    let mut peaks = vec![];
    let mut cur: Option<f64> = None;
    for (t, v) in s.t.iter().zip(&s.v) {
        if *t < 4500.0 {
            continue;
        }
        if *v > 0.05 {
            cur = Some(cur.map_or(*v, |c: f64| c.max(*v)));
        } else if let Some(c) = cur.take() {
            peaks.push(c);
        }
    }
    let gaps: Vec<f64> = peaks.windows(2).map(|w| ((w[1] - w[0]) / w[0]).abs()).collect();
    Late {
        vmax_change: rel(vl, ve),
        lmax_change: rel(ll, le),
        period2_gap: rel(pb, pa),
        lmax_late: ll,
        peak_min: peaks.iter().cloned().fold(f64::INFINITY, f64::min),
        peak_max: peaks.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
        gap_mean: gaps.iter().sum::<f64>() / gaps.len() as f64,
        gap_max: gaps.iter().cloned().fold(0.0, f64::max),
    }
}

/// The continued run: the reference (RK4, h = 1 ms and 0.5 ms) and the production (rtol
/// 1e-9/atol 1e-11, the manifest's, and 1e-7/1e-9), 8000 s each.
///
/// The late numbers are not determined to the checks' tolerances by either method: after about
/// 2900 slips the stick/slip history depends on every rounding, and the reference's own two
/// steps give `vmax_change` −2.17e-4 and +2.24e-4, `lmax_change` 2.98e-4 and 5.1e-5 and the
/// largest late extension 0.168980 and 0.169093 m (measured 2026-12-06; the production at rtol
/// 1e-9 8.44e-5, 1.54e-5, 0.168367 m), against tolerances of 3e-5 and 1.1e-5. So the checks
/// are compared by verdict, each check the same on every run where the reference's two steps
/// agree on it (the three known discrepancies fail on all four: the scatter is the model's), and
/// the band the slip peaks fill over 4500–8000 s by its statistics: the mean and the largest
/// relative difference of successive peaks within 10 % (reference 6.47e-4 and 1.82e-3,
/// production 6.66e-4 and 1.80e-3: the lattice-phase scatter period2_gap's evidence names),
/// the highest peak within 1e-3 and the lowest within 2e-3 relative (two thirds of the band's
/// 3e-3 width; measured 2.4e-4 and 1.2e-3), and the largest late extension within 1 % (measured
/// 4.3e-3 at rtol 1e-9 and 2.9e-3 at 1e-7: the slow drift of the band, fig4.4's reason, is not
/// fixed either). Measured 2026-12-06 in release on the loaded 2-core machine: 136 s for this
/// binary's test alone, 4 min 47 s beside another test binary (both reference steps and both
/// production tolerances, 8000 s each).
#[test]
fn fig_4_4_continued_run_agrees_with_the_reference() {
    let vp = 0.1;
    let model = Model {
        body: body_of(&fig_4_4()),
        drive: Drive::Pulled { vp },
    };
    let (dt, n) = (0.005, 1_600_000);
    let refs: Vec<Late> = [1e-3, 5e-4]
        .iter()
        .map(|&h| late(&reference_run(&model, [0.0; 5], dt, n, h)))
        .collect();
    eprintln!("Fig 4.4 cbm_long reference h = 1 ms {:?}", refs[0]);
    eprintln!("Fig 4.4 cbm_long reference h = 0.5 ms {:?}", refs[1]);
    // vmax_change (±3e-5), lmax_change (±1.1e-5), period2_gap (±3e-5): pass or fail.
    let verdicts = |l: &Late| {
        [
            l.vmax_change.abs() <= 3e-5,
            l.lmax_change.abs() <= 1.1e-5,
            l.period2_gap.abs() <= 3e-5,
        ]
    };
    let (v0, v1) = (verdicts(&refs[0]), verdicts(&refs[1]));
    let r = refs[1];
    for tol in TOLERANCES {
        let s = production(
            "cbm-stick-slip",
            &fig_4_4(),
            InputSpec::new("none", []),
            Span::Seconds(8000.0),
            n,
            tol,
        );
        let q = late(&s);
        eprintln!("Fig 4.4 cbm_long production rtol {:e} {q:?}", tol.0);
        let vq = verdicts(&q);
        for i in 0..3 {
            if v0[i] == v1[i] {
                assert_eq!(
                    vq[i], v1[i],
                    "rtol {:e}: check {i} (vmax_change, lmax_change, period2_gap) gives another verdict",
                    tol.0
                );
            }
        }
        check(
            &format!("Fig 4.4 cbm_long rtol {:e}", tol.0),
            &[
                case("mean successive gap", q.gap_mean, r.gap_mean, Within::Rel(0.1)),
                case("largest successive gap", q.gap_max, r.gap_max, Within::Rel(0.1)),
                case("highest slip peak", q.peak_max, r.peak_max, Within::Rel(1e-3)),
                case("lowest slip peak", q.peak_min, r.peak_min, Within::Rel(2e-3)),
                case("lmax_late", q.lmax_late, r.lmax_late, Within::Rel(1e-2)),
            ],
        );
    }
}
