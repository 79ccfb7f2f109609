//! The systems a manifest can run: each is a model of `fric-models` in one configuration
//! (prescribed displacement, force-driven mass–spring, analytic curve on a grid), declared in one
//! file under `systems/` with its typed parameters (names, units, ranges), accepted inputs, output
//! columns, methods, checks and executor (see [`system::System`]).
//!
//! This crate is the only place where manifests meet physics. It validates a run request and
//! executes it into plain columns; it does no I/O, caching or plotting (that is the pipeline's).
//!
//! Layout: `system.rs` (the declaration a system implements, `params!`), `systems/` (one file
//! per system; `systems/mod.rs` is the registry), `resolve.rs` (validation of a request),
//! shared glue: `input.rs` (signals, grids), `methods/` (one file per `sim.method`; `methods/mod.rs`
//! is the registry), `drive.rs` (prescribed-input runs and exact operators), `laws.rs` (friction-law parameter groups), `spring.rs` (mass–spring and drum), `bristle_rig.rs` (the pulled rig over the rotating bristles, generic over its contact sets),
//! `ruderman.rs` (the Ruderman oscillator), `cbm.rs` (the compressed bristle model under the
//! Switch Model).
//!
//! An executor reads its parameters by field, so a parameter it uses is declared or the crate
//! does not compile:
//!
//! ```
//! fn stiffness(p: &fric_experiments::laws::LuGreLaw) -> f64 {
//!     p.sigma0
//! }
//! ```
//!
//! ```compile_fail,E0609
//! fn stiffness(p: &fric_experiments::laws::LuGreLaw) -> f64 {
//!     p.sigma_0 // misspelt: no such field
//! }
//! ```

// Validation negates comparisons on purpose so that NaN is rejected too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod bristle_rig;
pub mod budget;
pub mod cbm;
pub mod describing;
pub mod drbm;
mod drive;
pub mod energy_balance;
mod input;
pub mod inputs;
pub mod invariants;
pub mod laws;
pub mod methods;
mod resolve;
mod ruderman;
mod spring;
pub mod system;
mod systems;

pub use drive::{exponential_segment, STRIBECK_SPLIT};
pub use resolve::{csv_path_problem, resolve};
pub use system::{ParamInfo, ParamKind, SystemInfo};

use fric_manifest::SimSpec;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// A fully resolved run: what the cache key is computed from.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunRequest {
    pub system: String,
    /// Every parameter, defaults filled in; scalars are one-element lists.
    pub params: BTreeMap<String, Vec<f64>>,
    /// The input, typed by its kind's declaration (`inputs/`); it serialises as written, every
    /// field in the declaration's order, defaults filled in.
    pub input: inputs::Input,
    pub sim: SimSpec,
    /// How the run is computed: the method `sim.method` names, or its system's default (the
    /// first it lists), resolved once by [`resolve`] (an unknown or untaken name is refused
    /// there, at its line); every run-time site reads this value, none looks a name up again.
    /// Not serialised: the cache key reads `sim.method` as written, so it is what it was before
    /// the method was typed (a method registered at run time adds its declaration to the key,
    /// `fric_pipeline::run_key`).
    #[serde(skip)]
    pub method: methods::Method,
    /// The samples of a `csv` input, read by the pipeline (this crate does no I/O). Only the
    /// file's path and sha256 are serialised, so they, not the samples, enter the cache key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_data: Option<InputData>,
}

/// Samples of a sampled input (`csv`), with the file they were read from.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct InputData {
    /// Relative to the workspace root, `data/...`.
    pub path: String,
    /// sha256 of the file's bytes.
    pub sha256: String,
    /// Strictly increasing times and finite values, at least two.
    #[serde(skip)]
    pub t: Vec<f64>,
    #[serde(skip)]
    pub u: Vec<f64>,
}

/// The result of a run: named columns of equal length, the input period and diagnostics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunData {
    pub columns: Vec<(String, Vec<f64>)>,
    pub period: Option<f64>,
    pub info: BTreeMap<String, f64>,
}

impl RunData {
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        self.columns.iter().find(|c| c.0 == name).map(|c| c.1.as_slice())
    }
    pub fn len(&self) -> usize {
        self.columns.first().map_or(0, |c| c.1.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The same data with these diagnostics added.
    pub fn with_info(mut self, info: &[(&str, f64)]) -> Self {
        self.info.extend(info.iter().map(|(k, v)| (k.to_string(), *v)));
        self
    }
}

/// A problem with a run request, at a path relative to the run (`params.sigma0`, `input.omega`).
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub path: String,
    pub message: String,
    pub allowed: String,
}

impl Invalid {
    pub fn new(path: impl Into<String>, message: impl Into<String>, allowed: impl Into<String>) -> Self {
        Invalid {
            path: path.into(),
            message: message.into(),
            allowed: allowed.into(),
        }
    }
}

static SYSTEMS: LazyLock<Vec<SystemInfo>> = LazyLock::new(systems::all);

/// Every system, in a fixed order.
pub fn systems() -> &'static [SystemInfo] {
    &SYSTEMS
}

/// Look up a system by name.
pub fn system(name: &str) -> Option<&'static SystemInfo> {
    systems().iter().find(|s| s.name == name)
}

/// Estimated cost of a resolved run in integration steps ([`system::System::cost`]; a system without a
/// runner gets the budget's estimate).
pub fn cost(req: &RunRequest) -> f64 {
    system(&req.system).map_or_else(|| budget::cost(req), |s| (s.cost)(req))
}

/// Execute a resolved run and check its system's invariants ([`check_invariants`]). Errors are
/// solver failures or a broken invariant, described in one line.
pub fn execute(req: &RunRequest) -> Result<RunData, String> {
    match system(&req.system) {
        Some(s) => {
            let d = (s.run)(req)?;
            check_invariants(req, &d)?;
            Ok(d)
        }
        None => Err(format!("system `{}` has no runner", req.system)),
    }
}

/// The physical invariants of the run's system ([`system::System::INVARIANTS`]) on its data:
/// `Err` naming the first one broken, with the time and the offending sample. The pipeline applies
/// it to every run, computed ([`execute`]) or read from the cache.
pub fn check_invariants(req: &RunRequest, d: &RunData) -> Result<(), String> {
    match system(&req.system) {
        Some(s) => (s.check_invariants)(req, d),
        None => Ok(()),
    }
}
