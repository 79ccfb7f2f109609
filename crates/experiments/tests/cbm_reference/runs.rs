//! The runs both sides make: the figures' parameters, the production run through
//! `fric_experiments::{resolve, execute}` (as the pipeline calls it) and the reference run.
//!
//! `CBM_REFERENCE_PERTURB=name=factor` (e.g. `k=1.001`) multiplies one parameter of every
//! production run, never the reference's: run a comparison with it to see the comparison fail
//! on a production that is off (how the tests were shown to fail).

use super::reference::{Body, Model, State};
use super::series::Series;
use fric_experiments::{execute, resolve};
use fric_manifest::{InputSpec, ParamValue, SimSpec};
use std::collections::BTreeMap;

/// The parameters every figure of the chapter shares (L1659, L1717): `m = 1, w = 1, d = 2,
/// α = 15°, η = 1e-6`; τ = 1e-3 is the manifests' assumption (the reference has no τ: it sticks
/// exactly, the η → 0 limit).
pub const CBM_COMMON: [(&str, f64); 6] = [
    ("m", 1.0),
    ("w", 1.0),
    ("d", 2.0),
    ("alpha", 15.0),
    ("eta", 1e-6),
    ("tau", 1e-3),
];

/// [`CBM_COMMON`] and a figure's own parameters.
pub fn cbm_params(own: &[(&'static str, f64)]) -> Vec<(&'static str, f64)> {
    CBM_COMMON.iter().chain(own).copied().collect()
}

/// Fig 4.7's parameters (L1717): [`CBM_COMMON`] and `K = 2, g = 10, N = 500, Δ = 0.0035,
/// h0 = 1.65, k = 0.01, u = 2 sin(0.01 t)`.
pub fn fig_4_7() -> Vec<(&'static str, f64)> {
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
pub fn fig_4_4() -> Vec<(&'static str, f64)> {
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

pub fn body_of(p: &[(&str, f64)]) -> Body {
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
pub const TOLERANCES: [(f64, f64); 2] = [(1e-9, 1e-11), (1e-7, 1e-9)];

/// How long a production run lasts.
pub enum Span {
    Periods(f64),
    Seconds(f64),
}

/// The production run of `system` with parameters `p` and `input` over `span`, `samples` per
/// period (per run without a periodic input), at `(rtol, atol)`, called through
/// `fric_experiments::{resolve, execute}` as the pipeline calls it.
pub fn production(
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
    let params: BTreeMap<String, ParamValue> = p
        .iter()
        .map(|(k, v)| (k.to_string(), ParamValue::Number(*v * perturbation(k))))
        .collect();
    try_production(system, &params, input, &sim).unwrap()
}

/// The production run, or the error `execute` returns (an invariant it found broken).
pub fn try_production(
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
pub fn reference_run(model: &Model, s0: State, dt: f64, n: usize, h: f64) -> Series {
    Series::from_reference(model, &super::reference::simulate(model, s0, dt, n, h))
}

/// The factor `CBM_REFERENCE_PERTURB=name=factor` puts on the production's parameter `name`
/// (1 without it).
pub fn perturbation(name: &str) -> f64 {
    std::env::var("CBM_REFERENCE_PERTURB")
        .ok()
        .and_then(|s| {
            let (n, f) = s.split_once('=')?;
            (n == name).then(|| f.parse::<f64>().expect("CBM_REFERENCE_PERTURB=name=factor"))
        })
        .unwrap_or(1.0)
}
