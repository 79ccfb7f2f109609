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
