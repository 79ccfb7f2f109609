//! An independent reference for the compressed bristle model (thesis ch. IV, Drinčić 2012),
//! written from the thesis' equations and sharing no code with the production path
//! (`fric_models::cbm`, `fric_experiments::cbm`, `fric_solvers`): its own bristle sums, its own
//! fixed-step RK4, its own stick/slip handling. The production runs of thesis Figs 4.4, 4.6, 4.7,
//! 4.9 and 4.10–4.11 (Fig 4.9's runs and `cbm-mean-height`)
//! (called through `fric_experiments::{resolve, execute}`, as the pipeline calls them, at two
//! solver tolerances) are compared with it on the numbers the manifests check: loop area, stick
//! count and fraction, peak values, the |F_f|–y and |F_f|–|v| slopes of Fig 4.8, the fitted
//! k̃ and h0 of (4.67) of Figs 4.10–4.11. Fig 4.12 is LuGre, not the CBM: no reference here.
//!
//! Equations (seed `000_bc826e5a11a56fe0.txt`):
//! * bristle heights (4.2) L1457 and (4.3) L1459, `d1 = w tan α` L1461;
//! * bristles on the slant: the closed sets (4.7) L1477 (`v ≥ 0`) and (4.8) L1481 (`v < 0`), bases
//!   at `x_bi = iΔ` (the lattice offset is unstated; the manifests assume it too);
//! * friction (4.10) L1489, (4.12) L1497; vertical slant force (4.15)–(4.16) L1511–L1513;
//!   flat-bottom force (4.17) L1517 with the published constant `N`;
//! * motion: spring-pulled (4.18)–(4.20) L1527–L1533, force-driven (4.26)–(4.27) L1560–L1562,
//!   vertical (4.21)–(4.22) L1537–L1539 (`m ÿ = −m g + F_y`; (4.44)'s `−mg + F_y±` is the same
//!   for `m = 1`);
//! * the discontinuity at `v = 0` as the differential inclusion (4.32) L1597: on `Σ = {v = 0}` the
//!   attractive case (4.33) L1605 keeps the state on `Σ` with `ẋ = α f+ + (1 − α) f−` and `α`
//!   from (4.38) L1619 at `g = 0` (the `η → 0` limit of the Switch Model's stick band); the
//!   transversal case (4.39)–(4.40) L1623–L1627 continues on the field that leaves `Σ`; the
//!   repulsive case takes `f+` (4.42) L1635.
//!
//! The mode changes (slip ↔ stick, reversals) and, while sliding, every bristle entering or
//! leaving the slant (a jump of `F_f`) are located by bisection on the RK4 step; the forces are
//! evaluated from the geometry at every stage. The reference's own error is measured by halving
//! its step.
//!
//! Files: `cbm_reference/reference.rs` the reference model, `cbm_reference/series.rs` the columns
//! of either run and the numbers compared, `cbm_reference/fit.rs` the bin means and sech fit of Figs
//! 4.10–4.11, `cbm_reference/compare.rs` the comparison table and its one loop; here the runs and
//! each figure's table of comparisons, one test a figure.

#[path = "cbm_reference/compare.rs"]
mod compare;
#[path = "cbm_reference/fit.rs"]
mod fit;
#[path = "cbm_reference/reference.rs"]
mod reference;
#[path = "cbm_reference/series.rs"]
mod series;

use compare::{case, check, Within};
use fit::{bin_means, friction_line, sech_fit, Line, Sech};
use fric_experiments::{execute, resolve};
use fric_manifest::{InputSpec, InputValue, ParamValue, SimSpec};
use reference::{Body, Drive, Model, State};
use series::{Numbers, Series};
use std::collections::BTreeMap;

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// The parameters every figure of the chapter shares (L1659, L1717): `m = 1, w = 1, d = 2,
/// α = 15°, η = 1e-6`; τ = 1e-3 is the manifests' assumption (the reference has no τ: it sticks
/// exactly, the η → 0 limit).
const CBM_COMMON: [(&str, f64); 6] = [
    ("m", 1.0),
    ("w", 1.0),
    ("d", 2.0),
    ("alpha", 15.0),
    ("eta", 1e-6),
    ("tau", 1e-3),
];

/// [`CBM_COMMON`] and a figure's own parameters.
fn cbm_params(own: &[(&'static str, f64)]) -> Vec<(&'static str, f64)> {
    CBM_COMMON.iter().chain(own).copied().collect()
}

/// Fig 4.7's parameters (L1717): [`CBM_COMMON`] and `K = 2, g = 10, N = 500, Δ = 0.0035,
/// h0 = 1.65, k = 0.01, u = 2 sin(0.01 t)`.
fn fig_4_7() -> Vec<(&'static str, f64)> {
    cbm_params(&[
        ("k_spring", 2.0),
        ("n", 500.0),
        ("k", 0.01),
        ("h0", 1.65),
        ("delta", 0.0035),
        ("g", 10.0),
    ])
}

/// Fig 4.4's parameters (L1659, caption L1677): [`CBM_COMMON`] and `K = 5, N = 500, k = 0.01,
/// h0 = 2.69, v_p = 0.1`; g = 10 and Δ = 0.0035 are the manifest's assumptions (`thesis/fig4.4`).
fn fig_4_4() -> Vec<(&'static str, f64)> {
    cbm_params(&[
        ("k_spring", 5.0),
        ("n", 500.0),
        ("k", 0.01),
        ("h0", 2.69),
        ("delta", 0.0035),
        ("g", 10.0),
        ("vp", 0.1),
    ])
}

fn body_of(p: &[(&str, f64)]) -> Body {
    let get = |n: &str| p.iter().find(|q| q.0 == n).unwrap().1;
    Body {
        m: get("m"),
        w: get("w"),
        d: get("d"),
        alpha: get("alpha").to_radians(),
        k_spring: get("k_spring"),
        n_bottom: get("n"),
        k: get("k"),
        h0: get("h0"),
        delta: get("delta"),
        g: get("g"),
    }
}

/// The manifests' solver tolerances `(rtol, atol)` and a looser pair: the production must agree
/// with the reference at both.
const TOLERANCES: [(f64, f64); 2] = [(1e-9, 1e-11), (1e-7, 1e-9)];

/// How long a production run lasts.
enum Span {
    Periods(f64),
    Seconds(f64),
}

/// The production run of `system` with parameters `p` and `input` over `span`, `samples` per
/// period (per run without a periodic input), at `(rtol, atol)`, called through
/// `fric_experiments::{resolve, execute}` as the pipeline calls it.
fn production(
    system: &str,
    p: &[(&str, f64)],
    input: InputSpec,
    span: Span,
    samples: usize,
    (rtol, atol): (f64, f64),
) -> Series {
    let (periods, t_end) = match span {
        Span::Periods(n) => (Some(n), None),
        Span::Seconds(t) => (None, Some(t)),
    };
    let sim = SimSpec {
        periods,
        t_end,
        samples_per_period: Some(samples),
        rtol: Some(rtol),
        atol: Some(atol),
        ..Default::default()
    };
    let params: BTreeMap<String, ParamValue> = p.iter().map(|(k, v)| (k.to_string(), ParamValue::Number(*v))).collect();
    try_production(system, &params, input, &sim).unwrap()
}

/// The production run, or the error `execute` returns (an invariant it found broken).
fn try_production(
    system: &str,
    params: &BTreeMap<String, ParamValue>,
    input: InputSpec,
    sim: &SimSpec,
) -> Result<Series, String> {
    let req = resolve(system, params, Some(&input), Some(sim)).unwrap_or_else(|e| panic!("{e:?}"));
    execute(&req)
        .map(|d| Series::from_production(&d))
        .map_err(|e| e.to_string())
}

/// The reference run of `model` from `s0`: `n` samples `dt` apart, RK4 at step `h`.
fn reference_run(model: &Model, s0: State, dt: f64, n: usize, h: f64) -> Series {
    Series::from_reference(model, &reference::simulate(model, s0, dt, n, h))
}

/// Thesis Fig 4.7 (the manifest `thesis/fig4.7`, runs fd[0] and fd[1]): two input periods,
/// 20 000 samples per period, x = v = ẏ = 0 and y(0) = 0 or y_eq = 0.2071 m; the loop area on
/// the second period. The reference (RK4, h = 2 ms and 1 ms) and the production (Dopri5 at
/// rtol 1e-9/atol 1e-11, the manifest's, and at 1e-7/1e-9) must agree on the area within 1 %
/// (the published check's tolerance is 5 %), on the stuck fraction within 0.01 and on the
/// |F_f|–y slope within 5 %; for the drawn run y(0) = 0 also on the |F_f|–|v| slope of Fig 4.8
/// within 0.03 N·s/m, the peak velocities within 2 %, the highest point within 1 % and the number
/// of stick phases.
#[test]
fn fig_4_7_production_agrees_with_the_reference() {
    let (amplitude, omega) = (2.0, 0.01);
    let period = 2.0 * std::f64::consts::PI / omega;
    let spp = 20_000;
    let u = move |t: f64| amplitude * (omega * t).sin();
    for y0 in [0.0, 0.2071] {
        let model = Model {
            body: body_of(&fig_4_7()),
            drive: Drive::Forced { amplitude, omega },
        };
        let s0 = [0.0, 0.0, y0, 0.0, 0.0];
        let dt = period / spp as f64;
        let refs: Vec<Numbers> = [2e-3, 1e-3]
            .iter()
            .map(|&h| reference_run(&model, s0, dt, 2 * spp, h).numbers(spp, u))
            .collect();
        let r = refs[1];
        let self_err = rel(refs[0].area, r.area);
        eprintln!("Fig 4.7 y(0) = {y0}: reference h = 2 ms {:?}", refs[0]);
        eprintln!("Fig 4.7 y(0) = {y0}: reference h = 1 ms {r:?}");
        assert!(self_err < 2e-3, "reference not converged in h: {self_err:e}");
        for tol in TOLERANCES {
            let mut p = fig_4_7();
            p.push(("y0", y0));
            let input = InputSpec::new(
                "sine",
                [
                    ("amplitude", InputValue::from(amplitude)),
                    ("omega", InputValue::from(omega)),
                    ("phase", InputValue::from(0.0)),
                    ("offset", InputValue::from(0.0)),
                ],
            );
            let q = production("cbm-force-driven", &p, input, Span::Periods(2.0), spp, tol).numbers(spp, u);
            eprintln!("Fig 4.7 y(0) = {y0}: production rtol {:e} {q:?}", tol.0);
            let mut cases = vec![
                case("area", q.area, r.area, Within::Rel(0.01)),
                case("stuck fraction", q.stuck_fraction, r.stuck_fraction, Within::Abs(0.01)),
                case("|F_f|-y slope", q.slope_f_y, r.slope_f_y, Within::Rel(0.05)),
            ];
            if y0 == 0.0 {
                // The drawn run (Figs 4.7, 4.8). At y_eq the slips are grazing (tiny vertical
                // amplitude, speeds near the 1e-3 cut): the reference's own slope moves from
                // −0.036 to −0.108 N·s/m between h = 2 and 1 ms, so only the robust numbers
                // above are compared there.
                cases.extend([
                    case("|F_f|-|v| slope", q.slope_f_speed, r.slope_f_speed, Within::Abs(0.03)),
                    case("v_max", q.v_max, r.v_max, Within::Rel(0.02)),
                    case("v_min", q.v_min, r.v_min, Within::Rel(0.02)),
                    case("y_max", q.y_max, r.y_max, Within::Rel(0.01)),
                    case("stick phases", q.sticks as f64, r.sticks as f64, Within::AbsLe(0.0)),
                ]);
            }
            check(&format!("Fig 4.7 y(0) = {y0}, rtol {:e}", tol.0), &cases);
        }
    }
}

/// Stretched contacts along a run: samples with a bristle above `h0`, the first such time and the
/// largest stretch, by `stretch(x, v, y)`.
fn tension(s: &Series, stretch: impl Fn(f64, f64, f64) -> Option<f64>) -> (usize, f64, f64) {
    let mut n = 0;
    let mut first = f64::NAN;
    let mut max = 0.0f64;
    for i in 0..s.t.len() {
        if let Some(e) = stretch(s.x[i], s.v[i], s.y[i]) {
            if n == 0 {
                first = s.t[i];
            }
            n += 1;
            max = max.max(e);
        }
    }
    (n, first, max)
}

/// Thesis Fig 4.4 (the manifest `thesis/fig4.4`): pulled at v_p = 0.1 m/s from rest at
/// x = v = l = y = ẏ = 0, 100 s, 200 samples per second. The production (rtol 1e-9/atol 1e-11,
/// the manifest's, and 1e-7/1e-9) against the reference (RK4, h = 1 ms and 0.5 ms): the stick
/// count, the peak slip velocity and spring extension over 40–70 s and 70–100 s (the
/// manifest's `vmax_*`, `lmax_*`), the highest point; and the bristles in tension, found by the
/// production's `Cbm::stretched_contact` and by the reference's own heights.
#[test]
fn fig_4_4_production_agrees_with_the_reference() {
    let vp = 0.1;
    let model = Model {
        body: body_of(&fig_4_4()),
        drive: Drive::Pulled { vp },
    };
    let (dt, n) = (0.005, 20_000);
    let refs: Vec<Series> = [1e-3, 5e-4]
        .iter()
        .map(|&h| reference_run(&model, [0.0; 5], dt, n, h))
        .collect();
    let summary = |s: &Series| {
        (
            s.stick_phases(),
            s.max_in(&s.v, 40.0, 70.0),
            s.max_in(&s.v, 70.0, 100.0),
            s.max_in(&s.l, 40.0, 70.0),
            s.max_in(&s.l, 70.0, 100.0),
            s.max_in(&s.y, 0.0, 100.0),
            s.v.iter().cloned().fold(f64::INFINITY, f64::min),
        )
    };
    let b = model.body;
    let ref_tension = |x: f64, v: f64, y: f64| {
        let e = b.slant(v >= 0.0, x, y).highest - b.h0;
        (e > 0.0).then_some(e)
    };
    for (h, r) in [1e-3, 5e-4].iter().zip(&refs) {
        eprintln!(
            "Fig 4.4 reference h = {h}: (sticks, vmax 40-70, vmax 70-100, lmax 40-70, lmax 70-100, y max, v min) = {:?}; tension (samples, first t, max stretch) {:?}",
            summary(r),
            tension(r, ref_tension)
        );
    }
    let r = summary(&refs[1]);
    let cbm = fric_models::cbm::Cbm {
        m: b.m,
        w: b.w,
        d: b.d,
        alpha: b.alpha,
        spring_k: b.k_spring,
        n_bottom: b.n_bottom,
        k: b.k,
        h0: b.h0,
        delta: b.delta,
        g: b.g,
    };
    for tol in TOLERANCES {
        let s = production(
            "cbm-stick-slip",
            &fig_4_4(),
            InputSpec::new("none", []),
            Span::Seconds(100.0),
            n,
            tol,
        );
        let q = summary(&s);
        let prod_tension = tension(&s, |x, v, y| {
            let sigma = if v < -1e-6 {
                fric_models::cbm::Branch::Minus
            } else {
                fric_models::cbm::Branch::Plus
            };
            cbm.stretched_contact(sigma, x, y)
        });
        eprintln!("Fig 4.4 production rtol {:e}: {q:?}; tension {prod_tension:?}", tol.0);
        let rt = tension(&refs[1], ref_tension);
        assert!(rt.0 > 0 && prod_tension.0 > 0, "tension in both");
        check(
            &format!("Fig 4.4 rtol {:e}", tol.0),
            &[
                case("stick phases", q.0 as f64, r.0 as f64, Within::AbsLe(1.0)),
                case("vmax 40-70 s", q.1, r.1, Within::Rel(0.01)),
                case("vmax 70-100 s", q.2, r.2, Within::Rel(0.01)),
                case("lmax 40-70 s", q.3, r.3, Within::Rel(0.01)),
                case("lmax 70-100 s", q.4, r.4, Within::Rel(0.01)),
                case("y max", q.5, r.5, Within::Rel(0.01)),
                case("first tension", prod_tension.1, rt.1, Within::Abs(0.05)),
                case("largest stretch", prod_tension.2, rt.2, Within::Rel(0.01)),
            ],
        );
    }
}

/// Thesis Fig 4.9 (the manifest `thesis/fig4.9`, run `ss[0]` and the `mean` sweep's readings):
/// Fig 4.4's configuration with h0 = 1.65 m (L1814), pulled at v_p = 0.1 m/s for 200 s from rest
/// at y(0) = 0 and at y(0) = y_eq = 0.2071 m. Production (both tolerances) against the reference
/// (h = 1 ms and 0.5 ms): the lowest and highest y over the run (the manifest's `y_min_all`,
/// `y_max_all`: the body dips below y = 0 from y(0) = 0) within 0.5 mm, and after 50 s the
/// ranges of y (the velocity–height loop's height; from y_eq it all but vanishes) and of v
/// within 2 mm and 2 mm/s.
#[test]
fn fig_4_9_production_agrees_with_the_reference() {
    let mut p = fig_4_4();
    p.iter_mut().find(|q| q.0 == "h0").unwrap().1 = 1.65;
    let model = Model {
        body: body_of(&p),
        drive: Drive::Pulled { vp: 0.1 },
    };
    let (dt, n) = (0.005, 40_000);
    let stats = |s: &Series| {
        let range = |c: &[f64], t0: f64| {
            let w: Vec<f64> = s.t.iter().zip(c).filter(|(t, _)| **t >= t0).map(|(_, c)| *c).collect();
            (
                w.iter().cloned().fold(f64::INFINITY, f64::min),
                w.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
            )
        };
        let (y_all, y_late, v_late) = (range(&s.y, 0.0), range(&s.y, 50.0), range(&s.v, 50.0));
        [y_all.0, y_all.1, y_late.1 - y_late.0, v_late.1 - v_late.0]
    };
    for y0 in [0.0, 0.2071] {
        let refs: Vec<[f64; 4]> = [1e-3, 5e-4]
            .iter()
            .map(|&h| stats(&reference_run(&model, [0.0, 0.0, y0, 0.0, 0.0], dt, n, h)))
            .collect();
        eprintln!("Fig 4.9 y(0) = {y0}: reference (y min, y max, y range after 50 s, v range after 50 s) h = 1 ms {:?}, 0.5 ms {:?}", refs[0], refs[1]);
        let r = refs[1];
        for tol in TOLERANCES {
            let mut pp = p.clone();
            pp.push(("y0", y0));
            let q = stats(&production(
                "cbm-stick-slip",
                &pp,
                InputSpec::new("none", []),
                Span::Seconds(200.0),
                n,
                tol,
            ));
            eprintln!("Fig 4.9 y(0) = {y0}: production rtol {:e} {q:?}", tol.0);
            check(
                &format!("Fig 4.9 y(0) = {y0}, rtol {:e}", tol.0),
                &[
                    case("y min", q[0], r[0], Within::Abs(5e-4)),
                    case("y max", q[1], r[1], Within::Abs(5e-4)),
                    case("y range after 50 s", q[2], r[2], Within::Abs(2e-3)),
                    case("v range after 50 s", q[3], r[3], Within::Abs(2e-3)),
                ],
            );
        }
    }
}

/// Thesis Fig 4.6 (the manifest `thesis/fig4.6`, run `ph`): the height prescribed,
/// y = A sin(6.8 t) with A = 0.3 and 1.3 m, m = 1, K = 2, w = 1, d = 2, α = 15°, k = 0.05,
/// h0 = 4.46 (L1698), v_p = 0.1, Δ = √3/99, η = 1e-6, τ = 1e-3 (the manifest's assumptions),
/// 100 s at 200 samples per second. Production (both tolerances) against the reference
/// (h = 0.25 and 0.125 ms): `ff_max`, `ff_min` over 20–100 s within 1 %; for A = 1.3 m the
/// manifest's `stribeck_area` (∮ F_f dv over 20–100 s) within 1 % and the number of stick phases
/// within 1. For A = 0.3 m the sticks graze (the vertical swing barely releases the body): the
/// production's two tolerances give 23 and 18 stick phases and areas −2.459 and −2.483, the
/// reference's two steps 22 and 17 and −2.551 and −2.586 N·m/s, so the area is compared within
/// 6 %, the spread of all four; the manifest's check `area_ratio > 1` (about 13 here) is far from
/// that.
#[test]
fn fig_4_6_production_agrees_with_the_reference() {
    let base = cbm_params(&[
        ("k_spring", 2.0),
        ("k", 0.05),
        ("h0", 4.46),
        ("delta", 0.0174954627),
        ("vp", 0.1),
        ("omega", 6.8),
    ]);
    let (dt, n) = (0.005, 20_000);
    let numbers = |s: &Series| {
        let from = s.t.iter().position(|&t| t >= 20.0).unwrap();
        let (v, f) = (&s.v[from..], &s.ff[from..]);
        let mut area = 0.0;
        for i in 0..v.len() - 1 {
            area += 0.5 * (f[i] + f[i + 1]) * (v[i + 1] - v[i]);
        }
        area += 0.5 * (f[v.len() - 1] + f[0]) * (v[0] - v[v.len() - 1]);
        let max = f.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let min = f.iter().cloned().fold(f64::INFINITY, f64::min);
        (area, max, min, s.stick_phases())
    };
    for amplitude in [0.3, 1.3] {
        let mut p = base.clone();
        p.push(("amplitude", amplitude));
        let mut body = body_of(&fig_4_4());
        (body.k_spring, body.k, body.h0, body.delta, body.n_bottom, body.g) = (2.0, 0.05, 4.46, 0.0174954627, 0.0, 0.0);
        let model = Model {
            body,
            drive: Drive::Prescribed {
                vp: 0.1,
                amplitude,
                omega: 6.8,
            },
        };
        let refs: Vec<_> = [2.5e-4, 1.25e-4]
            .iter()
            .map(|&h| numbers(&reference_run(&model, [0.0; 5], dt, n, h)))
            .collect();
        eprintln!("Fig 4.6 A = {amplitude}: reference (stribeck_area, ff_max, ff_min, sticks) h = 0.25 ms {:?}, 0.125 ms {:?}", refs[0], refs[1]);
        let r = refs[1];
        for tol in TOLERANCES {
            let q = numbers(&production(
                "cbm-prescribed-height",
                &p,
                InputSpec::new("none", []),
                Span::Seconds(100.0),
                n,
                tol,
            ));
            eprintln!("Fig 4.6 A = {amplitude}: production rtol {:e} {q:?}", tol.0);
            let mut cases = vec![
                case("ff_max", q.1, r.1, Within::Rel(0.01)),
                case("ff_min", q.2, r.2, Within::Rel(0.01)),
            ];
            if amplitude > 1.0 {
                cases.extend([
                    case("stribeck area", q.0, r.0, Within::Rel(0.01)),
                    case("stick phases", q.3 as f64, r.3 as f64, Within::AbsLe(1.0)),
                ]);
            } else {
                // Grazing sticks: 17–23 stick phases and areas −2.46…−2.60 N·m/s between the
                // production's two tolerances and the reference's two steps alike.
                cases.push(case("stribeck area", q.0, r.0, Within::Rel(0.06)));
            }
            check(&format!("Fig 4.6 A = {amplitude}, rtol {:e}", tol.0), &cases);
        }
    }
}

/// Thesis Figs 4.10 and 4.11 (the manifests `thesis/fig4.10`, `thesis/fig4.11`: the runs of
/// Fig 4.9's `mean` sweep, system `cbm-mean-height`): Fig 4.9's configuration pulled at
/// `+v_p` and `−v_p` = ±0.1 m/s for 200 s from `y(0) = 0` and `y_eq`, every sample after 50 s;
/// the fitted `k̃` and `h0` of (4.67) (`k_tilde_fit`, `h0_fit`, compared with the published
/// 0.75 N/m and 1.64 m, L1829). The reference (h = 1 ms and 0.5 ms) takes `F_f` (4.10)/(4.12) on
/// the branch of `v`, or, while stuck (`|v| ≤ η`), of the side pulled to, as the production
/// does, and fits its own line. Production (both tolerances, through `resolve`/`execute`)
/// against the reference at 0.5 ms. From y(0) = 0: `k̃` within 0.1 % and `h0` within 0.1 mm
/// (measured 2026-12-05: reference 0.742804 N/m, 1.644230 m; production at rtol 1e-9
/// 0.742802, 1.644232). From y_eq the height after 50 s barely varies and the line is
/// ill-conditioned: the reference's own `k̃` and `h0` move by 0.0077 N/m and 11.3 mm between its
/// two steps (0.8485 → 0.8561 N/m, 1.4647 → 1.4534 m), so the production is held within twice
/// that change (it lies between them: 0.8526 N/m, 1.4586 m at rtol 1e-9). The sech fit of
/// (4.68) to the 40 bin means, `(y1, y2, v_s)` (`sech_y1`, `sech_y2`, `sech_vs`), against the
/// reference's own bins and fit ([`bin_means`], [`sech_fit`]): within twice the reference's own
/// change between its steps, at least 1e-3 relative (measured 2026-12-05: from y(0) = 0 the
/// reference at 0.5 ms 0.333218 m, 0.190031 m, 0.056950 m/s, production at rtol 1e-9 0.333197,
/// 0.190028, 0.056928; from y_eq the dip is gone, y2 = −2.1e-4 m, and v_s moves 0.0921 → 0.0926
/// m/s between the reference's steps, production 0.0934 at 1e-9 and 0.0936 at 1e-7).
#[test]
fn fig_4_10_4_11_production_agrees_with_the_reference() {
    let mut p = fig_4_4();
    p.iter_mut().find(|q| q.0 == "h0").unwrap().1 = 1.65;
    let (dt, n, eta) = (0.005, 40_000, 1e-6);
    for y0 in [0.0, 0.2071] {
        let fits: Vec<(Line, Sech)> = [1e-3, 5e-4]
            .iter()
            .map(|&h| {
                let mut samples = Vec::new();
                let mut binned = Vec::new();
                for vp in [0.1, -0.1] {
                    let model = Model {
                        body: body_of(&p),
                        drive: Drive::Pulled { vp },
                    };
                    let s = reference_run(&model, [0.0, 0.0, y0, 0.0, 0.0], dt, n, h);
                    for i in (0..s.t.len()).filter(|&i| s.t[i] >= 50.0) {
                        let plus = if s.stuck[i] || s.v[i].abs() <= eta {
                            vp > 0.0
                        } else {
                            s.v[i] >= 0.0
                        };
                        samples.push((s.y[i], model.body.friction(plus, s.x[i], s.y[i]).abs()));
                        let stuck = (s.stuck[i] || s.v[i].abs() <= eta).then_some(vp > 0.0);
                        binned.push((s.v[i], s.y[i], stuck));
                    }
                }
                (friction_line(&samples), sech_fit(&bin_means(&binned, 40)))
            })
            .collect();
        eprintln!(
            "Figs 4.10/4.11 y(0) = {y0}: reference (k~, h0), (y1, y2, v_s) h = 1 ms {:?}, 0.5 ms {:?}",
            fits[0], fits[1]
        );
        let (r, rs) = fits[1];
        // The sech fit's tolerance per parameter: twice the reference's own change between its
        // two steps, and at least 1e-3 relative (the k̃ comparison's).
        let sech_tol = |a: f64, b: f64| (2.0 * (a - b).abs()).max(1e-3 * b.abs());
        let (rs0, rs1) = (fits[0].1, rs);
        let stol = (sech_tol(rs0.0, rs1.0), sech_tol(rs0.1, rs1.1), sech_tol(rs0.2, rs1.2));
        let fits: Vec<(f64, f64)> = fits.iter().map(|f| f.0).collect();
        for tol in TOLERANCES {
            let mut pp = p.clone();
            pp.retain(|q| q.0 != "vp");
            pp.extend([("vp", 0.1), ("t_skip", 50.0), ("bins", 40.0), ("y0", y0)]);
            let params: BTreeMap<String, ParamValue> = pp
                .iter()
                .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
                .collect();
            let sim = SimSpec {
                t_end: Some(200.0),
                samples_per_period: Some(n),
                rtol: Some(tol.0),
                atol: Some(tol.1),
                ..Default::default()
            };
            let req = resolve(
                "cbm-mean-height",
                &params,
                Some(&InputSpec::new("none", [])),
                Some(&sim),
            )
            .unwrap();
            let d = execute(&req).unwrap();
            let q = (d.info["k_tilde_fit"], d.info["h0_fit"]);
            let qs = (d.info["sech_y1"], d.info["sech_y2"], d.info["sech_vs"]);
            eprintln!(
                "Figs 4.10/4.11 y(0) = {y0}: production rtol {:e} (k~, h0) {q:?}, (y1, y2, v_s) {qs:?}",
                tol.0
            );
            let (dk, dh) = if y0 == 0.0 {
                (1e-3 * r.0, 1e-4)
            } else {
                (2.0 * (fits[0].0 - r.0).abs(), 2.0 * (fits[0].1 - r.1).abs())
            };
            check(
                &format!("Figs 4.10/4.11 y(0) = {y0}, rtol {:e}", tol.0),
                &[
                    case("sech y1", qs.0, rs.0, Within::Abs(stol.0)),
                    case("sech y2", qs.1, rs.1, Within::Abs(stol.1)),
                    case("sech v_s", qs.2, rs.2, Within::Abs(stol.2)),
                    case("k~", q.0, r.0, Within::Abs(dk)),
                    case("h0", q.1, r.1, Within::Abs(dh)),
                ],
            );
        }
    }
}
