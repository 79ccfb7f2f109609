//! Helpers shared by the integration tests that run systems (`mod common;` in each): parameter
//! maps, inputs, a run through `resolve` and `execute` as the pipeline calls them.
// Each test crate uses its own subset.
#![allow(dead_code)]

use fric_experiments::{execute, resolve, RunData};
use fric_manifest::{InputSpec, InputValue, ParamValue, SimSpec};
use std::collections::BTreeMap;

pub fn params(p: &[(&str, ParamValue)]) -> BTreeMap<String, ParamValue> {
    p.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}
pub fn n(v: f64) -> ParamValue {
    ParamValue::Number(v)
}
pub fn sine(a: f64, w: f64) -> InputSpec {
    InputSpec::new(
        "sine",
        [
            ("amplitude", InputValue::from(a)),
            ("omega", InputValue::from(w)),
            ("phase", InputValue::from(0.0)),
            ("offset", InputValue::from(0.0)),
        ],
    )
}
pub fn run(system: &str, p: &[(&str, ParamValue)], input: InputSpec, sim: SimSpec) -> RunData {
    let req = resolve(system, &params(p), Some(&input), Some(&sim)).unwrap_or_else(|e| panic!("{e:?}"));
    execute(&req).unwrap()
}
pub fn periods(p: f64, spp: usize) -> SimSpec {
    SimSpec {
        periods: Some(p),
        samples_per_period: Some(spp),
        ..Default::default()
    }
}
/// The samples of the last period of a run.
pub fn last_period<'a>(d: &'a RunData, col: &str) -> &'a [f64] {
    let c = d.column(col).unwrap();
    let spp = (d.len() - 1) as f64 / (d.column("t").unwrap().last().unwrap() / d.period.unwrap());
    &c[c.len() - 1 - spp.round() as usize..]
}

/// The drum testbed of duhem-paper Figs 19–26 (L463).
pub fn drum_plant() -> Vec<(&'static str, ParamValue)> {
    vec![
        ("inertia", n(3.0e-4)),
        ("k1", n(2.0)),
        ("k2", n(2.0)),
        ("r", n(0.0254)),
        ("km", n(16.5)),
        ("f10", n(0.01)),
        ("f20", n(0.01)),
    ]
}

/// An amplitude grid of `points` from `from` to `to` (a DF run's input).
pub fn grid(from: f64, to: f64, points: usize, scale: fric_manifest::Scale) -> InputSpec {
    InputSpec::new(
        "grid",
        [
            ("from", InputValue::from(from)),
            ("to", InputValue::from(to)),
            ("points", InputValue::from(points)),
            ("scale", InputValue::from(scale)),
        ],
    )
}

/// A run through `resolve` and `execute` that returns the run's error instead of panicking (a
/// refusal is what some tests check).
pub fn try_run(system: &str, p: &[(&str, ParamValue)], input: InputSpec, sim: SimSpec) -> Result<RunData, String> {
    let req = resolve(system, &params(p), Some(&input), Some(&sim)).map_err(|e| format!("{e:?}"))?;
    execute(&req)
}

/// Report chapter 5's inertia J = 0.0025 kg·m² with Table 5.10's LuGre (σ0 = 280, σ1 = 1,
/// v0 = 0.1, α0 = 0.22, α1 = 0.17, L1891) and viscous friction α2 (0.017 on the inertia of the
/// third decomposition, 0 in the first): the describing-function-lugre parameters of report Figs
/// 5.16–5.27 besides the decomposition's.
pub fn table_5_10_lugre(alpha2: f64) -> Vec<(&'static str, ParamValue)> {
    vec![
        ("j", n(0.0025)),
        ("sigma0", n(280.0)),
        ("sigma1", n(1.0)),
        ("v0", n(0.1)),
        ("alpha0", n(0.22)),
        ("alpha1", n(0.17)),
        ("alpha2", n(alpha2)),
    ]
}

/// Report chapter 5's inertia J = 0.0025 kg·m² with Table 5.9's B&S unrounded (the
/// identification map's values, L1891) and viscous friction α = 0.017 N·m·s/rad: the
/// describing-function-bliman-sorine parameters of report Figs 5.22–5.24 besides the
/// decomposition's.
pub fn table_5_9_bliman_sorine() -> Vec<(&'static str, ParamValue)> {
    vec![
        ("j", n(0.0025)),
        ("f1", n(0.454939)),
        ("f2", n(0.234939)),
        ("eps", n(0.00666667)),
        ("eta", n(0.279131)),
        ("alpha", n(0.017)),
    ]
}

/// The third decomposition's linear part G = PID, (0.013 s² + 0.18 s + 0.54)/s (report §5.3),
/// at the DF system's `omega`.
pub fn third_approach(omega: f64) -> Vec<(&'static str, ParamValue)> {
    vec![
        ("approach", n(3.0)),
        ("omega", n(omega)),
        ("h_num", ParamValue::List(vec![0.013, 0.18, 0.54])),
        ("h_den", ParamValue::List(vec![1.0, 0.0])),
    ]
}

/// Thesis Fig 1.11's LuGre (σ0 = 1e4, σ1 = 100, σ2 = 0.6, F_c = 1, F_s = 1.5) with Stribeck
/// speed `vs` (0.04 in the figure).
pub fn fig_1_11_lugre(vs: f64) -> fric_models::lugre::LuGre {
    fric_models::lugre::LuGre {
        sigma0: 1e4,
        sigma1: 100.0,
        sigma2: 0.6,
        fc: 1.0,
        fs: 1.5,
        vs,
    }
}

/// Report Table 5.10's LuGre as the thesis' form (σ0 = 280, σ1 = 1, F_c = α0 = 0.22,
/// F_s = α0 + α1 = 0.39, v_s = v0 = 0.1, no viscous term): approach 1's law.
pub fn table_5_10_model() -> fric_models::lugre::LuGre {
    fric_models::lugre::LuGre {
        sigma0: 280.0,
        sigma1: 1.0,
        sigma2: 0.0,
        fc: 0.22,
        fs: 0.39,
        vs: 0.1,
    }
}
