//! Thesis Figs 3.7, 3.13 and 3.14 (the spring-pulled DRBM, (3.38)–(3.39): m = 1 kg, K = 1 N/m,
//! v_p = 0.002 m/s, κ = 0.1 N·m/rad, h = 0.0995 m, l_b = 0.1 m, Δ = 0.005 m, d = 0.5 m, L1111 /
//! L1327; Switch Model η = 1e-8 m/s, τ = 1e-3 s) against the independent event-driven Filippov
//! reference of `drbm_reference.rs` (module `drbm_ref`: its own geometry, RK4, bisection and
//! exact stick; no code of `fric_models::rbm`, `fric_experiments::drbm` or `fric_solvers`' steppers).
//!
//! Every quantity a check of those three manifests reads is computed from the production's samples
//! at two solver tolerances (rtol 1e-9 as in the manifests, and 1e-11) and from the reference's at
//! four RK4 steps (4e-3 … 5e-4 s), on the manifests' sample grids, with the manifests' windows and
//! post-processing (EWMA β = 0.05 of θ_s, the rising-v trace, the Gaussian-decay fit and the
//! quantile are `fric_solvers::analysis` / the pipeline's definitions applied alike to both: what is
//! compared is the simulation). The motion is chaotic over hundreds of seconds (the stick positions
//! follow a circle map of the lattice, `drbm_reference.rs`), so the reference's own steps scatter;
//! as for Fig 3.9 each value must lie within the reference's band `[lo, hi]` widened by
//! `max(the check's tolerance, hi − lo)` (the tolerance where the reference determines the value
//! to it, its own spread where it does not), and every check that is a claim about the model
//! decides the same on the production as on the reference wherever the reference's own steps agree
//! on it. The checks that only tie a drawn curve's written constants to the fit (fig3.14's
//! `fitted` run, ±5e-6 / ±5e-7, "digits") are not claims about the model: their values are held
//! by the band rule only.

mod drbm_ref;
mod fig3_9;

use drbm_ref::*;
use fric_experiments::{execute, resolve};
use fric_manifest::{InputSpec, SimSpec};
use fric_solvers::analysis::{decay_fit, ewma};
use std::collections::BTreeMap;

const ROW: Row = Row {
    kappa: 0.1,
    h: 0.0995,
    lb: 0.1,
    delta: 0.005,
    d: 0.5,
};
/// The Switch Model's stick band (L1111) and the θ_s reading's side switch (fig3.13.yaml).
const ETA: f64 = 1e-8;
const REF_STEPS: [f64; 4] = [4e-3, 2e-3, 1e-3, 5e-4];
/// The production's `(rtol, atol)`: the manifests' default pair (exactly: `1e-9 * 1e-3` is one
/// rounding off 1e-12, which the chaotic run amplifies into another trajectory), and 1e-11.
const TOLS: [(f64, f64); 2] = [(1e-9, 1e-12), (1e-11, 1e-14)];

/// Sampled columns of one run of either implementation.
struct Samples {
    t: Vec<f64>,
    v: Vec<f64>,
    l: Vec<f64>,
    theta: Vec<f64>,
    /// Stick phases: the production's count; the reference's exact sticks plus its sliding
    /// minima of |v| below η, which the Switch Model also enters its stick case at
    /// (`drbm_reference.rs`, Fig 3.9's stick phases).
    sticks: f64,
    /// The reference's minima of |v| within ±10 % of η (either way in the band's dynamics).
    borderline: f64,
}

impl Samples {
    /// The samples of the window `[a, b]` s (the pipeline's inclusive window).
    fn window(&self, a: f64, b: f64) -> std::ops::Range<usize> {
        let eps = 1e-9 * (b - a);
        let i0 = self.t.partition_point(|&s| s < a - eps);
        let i1 = self.t.partition_point(|&s| s <= b + eps);
        i0..i1
    }
    fn max(&self, c: &[f64], a: f64, b: f64) -> f64 {
        c[self.window(a, b)].iter().cloned().fold(f64::NEG_INFINITY, f64::max)
    }
    fn min(&self, c: &[f64], a: f64, b: f64) -> f64 {
        c[self.window(a, b)].iter().cloned().fold(f64::INFINITY, f64::min)
    }
}

/// The production (`drbm-stick-slip`) from `x = 0`, `v(0) = v0`, `l(0) = l0`, `n` samples over
/// `t_end`, Dopri5 at `(rtol, atol)`.
fn production(t_end: f64, n: usize, (rtol, atol): (f64, f64), l0: f64, v0: f64) -> Samples {
    let p: BTreeMap<String, _> = [
        ("m", 1.0),
        ("k_spring", 1.0),
        ("vp", 0.002),
        ("kappa", ROW.kappa),
        ("h", ROW.h),
        ("lb", ROW.lb),
        ("delta", ROW.delta),
        ("d", ROW.d),
        ("eta", ETA),
        ("tau", 1e-3),
        ("l0", l0),
        ("v0", v0),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), num(*v)))
    .collect();
    let sim = SimSpec {
        t_end: Some(t_end),
        samples_per_period: Some(n),
        rtol: Some(rtol),
        atol: Some(atol),
        ..Default::default()
    };
    let d = execute(&resolve("drbm-stick-slip", &p, Some(&InputSpec::new("none", [])), Some(&sim)).unwrap()).unwrap();
    let c = |n: &str| d.column(n).unwrap().to_vec();
    Samples {
        t: c("t"),
        v: c("v"),
        l: c("l"),
        theta: c("theta_s"),
        sticks: d.info["stick_phases"],
        borderline: 0.0,
    }
}

/// The reference from the same start, RK4 step `dt`, on the same sample grid; θ_s by the
/// manifests' reading (the right corner's bristles while v ≥ −η, the left's below).
fn reference(dt: f64, t_end: f64, n: usize, l0: f64, v0: f64) -> Samples {
    let save: Vec<f64> = (0..=n).map(|i| t_end * i as f64 / n as f64).collect();
    let r = Reference {
        row: ROW,
        rig: Rig::Pulled {
            m: 1.0,
            k: 1.0,
            vp: 0.002,
        },
        dt,
        band: ETA,
    };
    let tr = r.run_from([0.0, v0, l0], t_end, &save);
    assert_eq!(tr.t.len(), save.len(), "reference sample grid");
    for ((&v, &f), &t) in tr.v.iter().zip(&tr.f).zip(&tr.t) {
        assert!(
            v == 0.0 || f * v.signum() >= -1e-12,
            "reference sign rule at t = {t}: v = {v}, F = {f}"
        );
    }
    let theta =
        tr.x.iter()
            .zip(&tr.v)
            .map(|(&x, &v)| ROW.angle_sum(v >= -ETA, x))
            .collect();
    Samples {
        t: tr.t,
        v: tr.v,
        l: tr.third,
        theta,
        sticks: (tr.sticks + tr.grazes.0) as f64,
        borderline: tr.grazes.1 as f64,
    }
}

/// What a check asks of its metric.
#[derive(Clone, Copy, Debug)]
enum Ask {
    Lt(f64),
    Gt(f64),
    /// `expected ± tol` (absolute).
    Near(f64, f64),
}

impl Ask {
    fn passes(self, v: f64) -> bool {
        match self {
            Ask::Lt(e) => v < e,
            Ask::Gt(e) => v > e,
            Ask::Near(e, tol) => (v - e).abs() <= tol,
        }
    }
    fn tol(self) -> f64 {
        match self {
            Ask::Near(_, tol) => tol,
            _ => 0.0,
        }
    }
}

/// One metric of a manifest and its checks: `(ask, claim about the model)`; `false` marks the
/// drawn-curve constants (band rule only).
struct Metric {
    name: &'static str,
    checks: Vec<(Ask, bool)>,
    /// A derived bound on how far the Switch Model (the production's model) may lie from the
    /// Filippov solution (the reference's) in this metric, where that is not 0 (`with_model`).
    model: f64,
    /// The value on each production tolerance and each reference step.
    prod: Vec<f64>,
    refs: Vec<f64>,
}

impl Metric {
    fn new(name: &'static str, checks: Vec<(Ask, bool)>) -> Metric {
        Metric {
            name,
            checks,
            model: 0.0,
            prod: vec![],
            refs: vec![],
        }
    }
    fn with_model(mut self, model: f64) -> Metric {
        self.model = model;
        self
    }
}

/// The least and greatest of `v`.
fn range(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)))
}

/// Compare every metric (module docs): each production value within the reference's band
/// widened by `w`, the largest of the metric's tightest check tolerance, its derived model
/// difference, and the spread of each implementation over its own steps or tolerances (how far
/// it determines the value); and the verdict of every claim the reference's steps agree on.
/// Panics with every failure listed.
fn compare(metrics: &[Metric]) {
    let mut fails = vec![];
    for m in metrics {
        let (lo, hi) = range(&m.refs);
        let (plo, phi) = range(&m.prod);
        let tol = m
            .checks
            .iter()
            .map(|c| c.0.tol())
            .filter(|&t| t > 0.0)
            .fold(f64::INFINITY, f64::min);
        let tol = if tol.is_finite() { tol } else { 0.0 };
        let w = tol.max(m.model).max(hi - lo).max(phi - plo);
        eprintln!(
            "{}: production {:?} (tolerances {TOLS:?}), spread {:.3e}; reference {:?} (steps {REF_STEPS:?}), spread {:.3e}; check tolerance {tol:.3e}, model {:.3e}: allowed ±{w:.3e}",
            m.name,
            m.prod,
            phi - plo,
            m.refs,
            hi - lo,
            m.model
        );
        for (&p, tols) in m.prod.iter().zip(TOLS) {
            if !(p >= lo - w && p <= hi + w) {
                fails.push(format!(
                    "{} at {tols:?}: {p} more than {w:e} outside the reference's band [{lo}, {hi}] (the largest of the check's tolerance {tol:e}, the model difference {:e}, the reference's spread {:e} and the production's {:e})",
                    m.name,
                    m.model,
                    hi - lo,
                    phi - plo
                ));
            }
        }
        for &(ask, claim) in &m.checks {
            let on_ref: Vec<bool> = m.refs.iter().map(|&r| ask.passes(r)).collect();
            let on_prod: Vec<bool> = m.prod.iter().map(|&p| ask.passes(p)).collect();
            let settled = on_ref.iter().all(|&b| b == on_ref[0]);
            eprintln!(
                "  {ask:?}{}: reference {on_ref:?}, production {on_prod:?}{}",
                if claim { "" } else { " (drawn constant)" },
                if settled {
                    ""
                } else {
                    " — the reference's own steps disagree: verdict not determined"
                }
            );
            if claim && settled && on_prod.iter().any(|&b| b != on_ref[0]) {
                fails.push(format!(
                    "{} {ask:?}: the production's verdicts {on_prod:?} differ from the reference's {:?} (values {:?} vs {:?})",
                    m.name, on_ref[0], m.prod, m.refs
                ));
            }
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// Thesis Fig 3.7 (fig3.7.yaml): the zero-start run's band (l_max < 0.152 m and l_min > 0 over
/// 200–1000 s, its extents the same over 200–600 and 600–1000 s to CLOSURE_TOL 1 %, v ≥ −η, more
/// than 5 stick phases) and the starts inside (l = 0.1 m, v = 0.01 m/s) and outside (l = 0.3 m)
/// the cycle (l_max_inside / l_max_outside < 0.152 m over 200–500 s), each on the manifest's
/// 0.05-s grid. Every verdict is the same. Measured 2026-12-06 (production at rtol 1e-9 / 1e-11;
/// reference over its four steps):
/// - l_max 0.1501903 / 0.1502031 m, reference 0.1501290 … 0.1502052 m; l_min 0.0491405 /
///   0.0491226 m, reference 0.0491189 … 0.0491990 m; stick phases 17 / 17, reference 17 (exact
///   sticks plus minima below η) at every step;
/// - l_max_inside 0.1501329 / 0.1501469 m, the reference converged at 0.15014374 … 0.15014376 m.
///   The maximum is the slip peak at 247.6 s: the production, refined to rtol 1e-12 and 1e-13,
///   converges there to 0.15014695 m, 1.4e-5 m above its value at the manifests' rtol 1e-9 and
///   3.2e-6 m above the reference's (the Switch Model's η τ = 1e-11 m per stick grown over five
///   sticks; at the 194.7-s peak the converged two are 4.4e-7 m apart); after it the two part
///   (peaks 3e-4 m apart by 355 s). So the band allowed here is the production's own spread
///   over its two tolerances, 1.4e-5 m, 1/130 of the check's margin to 0.152 m (1.85e-3 m);
/// - l_max_outside 0.1502003 / 0.1501977 m, reference 0.1501977 … 0.1501980 m.
///
/// Shown to fail: with κ 0.1 % high in the production, l_max, l_max_inside and l_max_outside
/// leave their bands (0.15031 … 0.15033 m); with l_b 1e-5 relative high, l_max, l_min,
/// l_max_inside and the stick count (18) do.
#[test]
fn fig3_7_checks_decide_alike_on_the_reference() {
    let mut ms = vec![
        Metric::new("l_max", vec![(Ask::Lt(0.152), true)]),
        Metric::new("l_min", vec![(Ask::Gt(0.0), true)]),
        Metric::new("v_max", vec![]),
        Metric::new("l_max_band", vec![(Ask::Near(0.0, 0.01), true)]),
        Metric::new("l_min_band", vec![(Ask::Near(0.0, 0.01), true)]),
        Metric::new("v_max_band", vec![(Ask::Near(0.0, 0.01), true)]),
        // Derived: the production sticks in the band |v| ≤ η, the reference at v = 0.
        Metric::new("v_min", vec![(Ask::Gt(-1.0000001e-8), true)]).with_model(ETA),
        Metric::new("stick_phases", vec![(Ask::Gt(5.0), true)]),
        Metric::new("l_max_inside", vec![(Ask::Lt(0.152), true)]),
        Metric::new("l_max_outside", vec![(Ask::Lt(0.152), true)]),
    ];
    let zero = |s: &Samples| {
        let rel = |a: f64, b: f64| (a - b) / b.abs();
        vec![
            s.max(&s.l, 200.0, 1000.0),
            s.min(&s.l, 200.0, 1000.0),
            s.max(&s.v, 200.0, 1000.0),
            rel(s.max(&s.l, 600.0, 1000.0), s.max(&s.l, 200.0, 600.0)),
            rel(s.min(&s.l, 600.0, 1000.0), s.min(&s.l, 200.0, 600.0)),
            rel(s.max(&s.v, 600.0, 1000.0), s.max(&s.v, 200.0, 600.0)),
            s.min(&s.v, 0.0, 1000.0),
            s.sticks,
        ]
    };
    let push = |ms: &mut Vec<Metric>, prod: bool, vals: Vec<f64>, from: usize| {
        for (m, v) in ms[from..].iter_mut().zip(vals) {
            if prod { &mut m.prod } else { &mut m.refs }.push(v);
        }
    };
    for tols in TOLS {
        push(&mut ms, true, zero(&production(1000.0, 20000, tols, 0.0, 0.0)), 0);
        let inside = production(500.0, 10000, tols, 0.1, 0.01);
        let outside = production(500.0, 10000, tols, 0.3, 0.0);
        push(
            &mut ms,
            true,
            vec![
                inside.max(&inside.l, 200.0, 500.0),
                outside.max(&outside.l, 200.0, 500.0),
            ],
            8,
        );
    }
    for dt in REF_STEPS {
        let r = reference(dt, 1000.0, 20000, 0.0, 0.0);
        ms[7].model = ms[7].model.max(r.borderline);
        push(&mut ms, false, zero(&r), 0);
        let inside = reference(dt, 500.0, 10000, 0.1, 0.01);
        let outside = reference(dt, 500.0, 10000, 0.3, 0.0);
        push(
            &mut ms,
            false,
            vec![
                inside.max(&inside.l, 200.0, 500.0),
                outside.max(&outside.l, 200.0, 500.0),
            ],
            8,
        );
    }
    compare(&ms);
}

/// Thesis Figs 3.13 and 3.14 (fig3.13.yaml, fig3.14.yaml): one run sampled every 0.01 s over
/// 1000 s. Fig 3.13: θ_s's extremes over 100–1000 s against the closed forms (θ_s,max =
/// 0.15012534 ± 7.6e-6 rad; θ_s,min > 0.05008363 and = 0.0500836314 to 1e-6 relative, a known
/// discrepancy) and θ̄ below θ_s,max. Fig 3.14: the Gaussian-decay fit of θ̄ on the rising trace
/// (v ≥ 1e-4 m/s, 500–1000 s) against the published θ̂_min = 0.1 (5 %), θ̂_max = 0.133 (±5e-4,
/// a known discrepancy), v̂_s = 0.01 (±5e-3), the derived tooth mean 0.1000836 (1e-6 relative, a
/// known discrepancy) and 0.1001 < θ̂_max < θ_s,max, and θ̄'s median against 0.133 (±5e-4, a
/// known discrepancy). Measured 2026-12-06 (production at rtol 1e-9 / 1e-11; reference over its
/// four steps 4e-3, 2e-3, 1e-3, 5e-4 s):
/// - θ_s,max 0.15012515 / 0.15012513, reference 0.15012382 … 0.15012450 rad (spread 6.9e-7);
/// - θ_s,min 0.05008369 / 0.05008398, reference 0.05008368 … 0.05008467 rad (spread 9.9e-7):
///   every one of the six lies 5.2e-8 … 1.04e-6 rad above the closed form, outside the check's
///   5.0e-8, so that known discrepancy is the 0.01-s samples' and not our solver's;
/// - θ̄ max 0.1500200 / 0.1501232, reference 0.1499686 … 0.1500282 rad: at rtol 1e-11 θ̄ exceeds
///   0.1501, which the check held as its bound until 2026-12-06 (the range's 0.15012534 rounded
///   down, so not a bound: a stick held near the range's top takes θ̄ there);
/// - θ̂_min 0.0993406 / 0.0992376, reference 0.0991304 … 0.0994463 rad (spread 3.2e-4): all
///   0.64–0.95 % below the tooth mean;
/// - θ̂_max 0.1196649 / 0.1216583, reference 0.1160156 … 0.1231257 rad (spread 7.1e-3): all
///   at least 9.9e-3 rad below 0.133;
/// - v̂_s 0.0112626 / 0.0107168, reference 0.0104695 … 0.0122707 m/s: all within 0.01 ± 0.005;
/// - median of θ̄ 0.1046089 / 0.1345622, reference 0.1333761 / 0.1045457 / 0.1215127 /
///   0.1046627 rad: the 4e-3-s step meets 0.133 ± 5e-4 and the others do not, so that check's
///   verdict is not determined by the equations at these resolutions (printed, not asserted).
///
/// Shown to fail: with l_b 1e-5 relative high in the production, θ_s,max (0.1503246), θ_s,min
/// and θ̄ max leave their bands and θ_s,max's verdict flips; with 1e-4, also θ̂_min (0.10152)
/// and θ̂_max (0.13248). κ 0.1 % high moves none of these beyond the reference's spread (θ_s
/// is geometry; the fits are spread wider): this test holds the fit values only to that spread.
#[test]
fn fig3_13_and_3_14_checks_decide_alike_on_the_reference() {
    let tooth_mean = 0.1000836;
    let mut ms = vec![
        Metric::new("theta_s_max", vec![(Ask::Near(0.15012534498235452, 7.6e-6), true)]),
        Metric::new(
            "theta_s_min",
            vec![
                (Ask::Gt(0.05008363), true),
                (Ask::Near(0.0500836314, 0.0500836314 * 1e-6), true),
            ],
        ),
        Metric::new("theta_bar_max", vec![(Ask::Lt(0.15012534498235452), true)]),
        Metric::new(
            "theta_min_up",
            vec![
                (Ask::Near(0.1, 0.005), true),
                (Ask::Near(tooth_mean, tooth_mean * 1e-6), true),
                (Ask::Near(0.09934, 5e-6), false),
            ],
        ),
        Metric::new(
            "theta_max_up",
            vec![
                (Ask::Near(0.133, 5e-4), true),
                (Ask::Gt(0.1001), true),
                (Ask::Lt(0.15012534498235452), true),
                (Ask::Near(0.11966, 5e-6), false),
            ],
        ),
        Metric::new(
            "vs_up",
            vec![(Ask::Near(0.01, 0.005), true), (Ask::Near(0.011263, 5e-7), false)],
        ),
        Metric::new("theta_bar_stick_median", vec![(Ask::Near(0.133, 5e-4), true)]),
    ];
    let values = |s: &Samples| {
        let bar = ewma(&s.theta, 0.05);
        let w = s.window(500.0, 1000.0);
        let (mut xs, mut ys) = (vec![], vec![]);
        for i in w
            .clone()
            .filter(|&i| i > 0 && s.v[i] > s.v[i - 1] && (1e-4..=1.0).contains(&s.v[i]))
        {
            xs.push(s.v[i]);
            ys.push(bar[i]);
        }
        let f = decay_fit(&xs, &ys).expect("a decay fit");
        assert!(!f.at_bound, "the fit's scale {} at the end of its range", f.scale);
        let mut sorted = bar[w].to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[((sorted.len() - 1) as f64 * 0.5).round() as usize];
        vec![
            s.max(&s.theta, 100.0, 1000.0),
            s.min(&s.theta, 100.0, 1000.0),
            s.max(&bar, 100.0, 1000.0),
            f.floor,
            f.peak,
            f.scale,
            median,
        ]
    };
    for tols in TOLS {
        for (m, v) in ms.iter_mut().zip(values(&production(1000.0, 100_000, tols, 0.0, 0.0))) {
            m.prod.push(v);
        }
    }
    for dt in REF_STEPS {
        for (m, v) in ms.iter_mut().zip(values(&reference(dt, 1000.0, 100_000, 0.0, 0.0))) {
            m.refs.push(v);
        }
    }
    compare(&ms);
}
