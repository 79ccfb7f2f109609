//! Thesis Fig 3.9's DRBM force-driven setup (thesis L1137; `experiments/thesis/fig3.9.yaml`),
//! written once for the tests that run it (`registry.rs`'s cost, `drbm_reference.rs`'s
//! comparison with the reference).
#![allow(dead_code)]
use fric_manifest::{InputSpec, InputValue, ParamValue};
use std::collections::BTreeMap;

/// The stick band `η` (m/s, thesis line 1137).
pub const ETA: f64 = 1e-6;
/// The stick-field time constant `τ` (s, fig3.9.yaml's assumption).
pub const TAU: f64 = 1e-3;

/// The parameters of `drbm-force-driven` at bristle spacing `delta` (m).
pub fn params(delta: f64) -> BTreeMap<String, ParamValue> {
    [
        ("m", 1.0),
        ("k_spring", 1.0),
        ("kappa", 0.1),
        ("h", 0.0995),
        ("lb", 0.1),
        ("d", 1.0),
        ("eta", ETA),
        ("tau", TAU),
        ("delta", delta),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), ParamValue::Number(v)))
    .collect()
}

/// The force input `sin(omega t)` (N).
pub fn sine(omega: f64) -> InputSpec {
    InputSpec::new(
        "sine",
        [
            ("amplitude", InputValue::from(1.0)),
            ("omega", InputValue::from(omega)),
            ("phase", InputValue::from(0.0)),
            ("offset", InputValue::from(0.0)),
        ],
    )
}
