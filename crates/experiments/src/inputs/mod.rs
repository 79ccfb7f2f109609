//! Input kinds (`runs[].input.kind`), one file each: its declaration (name, doc with an example,
//! fields with type, unit, default and whether required) beside its behaviour (checks, signal,
//! period, sample budget), registered by one line in [`ALL`]. `cargo xtask schema`, the JSON
//! Schema ([`docs`] into `fric_manifest::json_schema`), the loader's errors ([`resolve`]) and the
//! runs all read that declaration, as systems are read from `systems/`.
//!
//! Why here and not in `fric_manifest`: a kind's signal is a `fric_models::signal::Signal` and
//! its budget reads the run's settings; the manifest crate keeps the written form
//! ([`fric_manifest::InputSpec`], a kind name and a map of written values) and the declaration
//! type ([`fric_manifest::KindDoc`]).

mod cosine;
pub(crate) mod csv;
mod grid;
mod none;
mod piecewise_linear;
mod ramp_hold;
mod resolve;
mod sawtooth;
mod shared;
mod signed_square_sine;
mod sine;
mod sum_of_sines;
mod switched_sine;
mod triangle;
mod value;

/// The signals a kind's `signal` returns (for a kind declared outside this crate).
pub use fric_models::signal;
pub use grid::{points as grid_points, span as grid_span};
pub use resolve::{resolve, set_number, typed};
pub use shared::{check_amplitude, check_omega, check_sine_family, omega_period, AMPLITUDE, OFFSET, OMEGA, PHASE};
pub use value::{Input, Value};

use crate::{InputData, Invalid, RunRequest};
use fric_manifest::KindDoc;
use signal::Signal;
use std::sync::RwLock;

/// Every input kind of the project, in the order `schema` lists them: one line per kind (a kind
/// declared elsewhere is added by [`register`]).
pub const ALL: &[&InputDecl] = &[
    &sine::DECL,
    &cosine::DECL,
    &switched_sine::DECL,
    &triangle::DECL,
    &signed_square_sine::DECL,
    &sawtooth::DECL,
    &ramp_hold::DECL,
    &piecewise_linear::DECL,
    &sum_of_sines::DECL,
    &csv::DECL,
    &grid::DECL,
    &none::DECL,
];

/// What a run does with its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A signal in time driving the system: a system taking [`crate::system::PRESCRIBED`]
    /// takes every kind of this role.
    Signal,
    /// An evaluation grid of an analytic run (no time).
    Grid,
    /// No input: an autonomous run for `sim.t_end`.
    Autonomous,
}

impl Role {
    /// Whether every sample of a run with an input of this role is a computed point, a result
    /// at a chosen parameter (a grid's amplitude or frequency), not an integrator's output step:
    /// figures keep each one they draw as a marker in print (`fric_plot::SeriesData::results`).
    pub fn computed_points(self) -> bool {
        match self {
            Role::Grid => true,
            Role::Signal | Role::Autonomous => false,
        }
    }
}

/// One input kind: its declaration and its behaviour.
pub struct InputDecl {
    /// Name, doc, fields and example, as `schema` prints them and [`resolve`] checks them.
    pub doc: KindDoc,
    /// What a run does with it.
    pub role: Role,
    /// Problems of the typed values (ranges, orderings), each pushed at `input.<field>`.
    pub check: fn(&Input, &mut Vec<Invalid>),
    /// The signal of a [`Role::Signal`] kind; `data` holds the samples a file-reading kind's
    /// file holds (attached by the pipeline).
    pub signal: fn(&Input, Option<&InputData>) -> Result<Signal, String>,
    /// The period of a kind that repeats (`sim.periods` and `sim.steady_state` need one).
    pub period: fn(&Input) -> Option<f64>,
    /// Rows the run records and input periods it integrates (see `crate::budget`).
    pub budget: fn(&RunRequest) -> (f64, f64),
    /// Whether the kind reads a file under `data/` named by its `path`, with its columns named
    /// by `t_column` and `u_column` (the pipeline reads it and attaches the samples).
    pub reads_file: bool,
}

/// Kinds added at run time by [`register`], after [`ALL`].
static ADDED: RwLock<Vec<&'static InputDecl>> = RwLock::new(Vec::new());

/// Add an input kind declared outside this crate (a study's own input; a test's toy kind): from
/// then on `schema`, the JSON Schema, the loader and the runs see it as they see [`ALL`]. An
/// error if a kind of that name exists.
pub fn register(decl: &'static InputDecl) -> Result<(), String> {
    let mut added = ADDED.write().unwrap_or_else(|e| e.into_inner());
    if ALL.iter().chain(added.iter()).any(|d| d.doc.name == decl.doc.name) {
        return Err(format!("input kind `{}` is declared already", decl.doc.name));
    }
    added.push(decl);
    Ok(())
}

/// Every kind: [`ALL`], then the registered ones.
pub fn all() -> Vec<&'static InputDecl> {
    let added = ADDED.read().unwrap_or_else(|e| e.into_inner());
    ALL.iter().copied().chain(added.iter().copied()).collect()
}

/// The declaration of kind `name`.
pub fn find(name: &str) -> Option<&'static InputDecl> {
    all().into_iter().find(|d| d.doc.name == name)
}

/// The declarations, for `schema` and the JSON Schema.
pub fn docs() -> Vec<KindDoc> {
    all().iter().map(|d| d.doc).collect()
}

/// The names of every kind, comma-separated (an error's allowed list).
pub fn names() -> String {
    all().iter().map(|d| d.doc.name).collect::<Vec<_>>().join(", ")
}

/// The names of the kinds of `role`, in registry order.
pub fn names_of(role: Role) -> Vec<&'static str> {
    all()
        .into_iter()
        .filter(|d| d.role == role)
        .map(|d| d.doc.name)
        .collect()
}

/// The signal of a kind without one ([`Role::Grid`], [`Role::Autonomous`]).
pub fn no_signal(_: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    Err("this run has no input signal (grid or none)".into())
}

/// The period of a kind that does not repeat.
pub fn no_period(_: &Input) -> Option<f64> {
    None
}

/// The checks of a kind with nothing to check beyond its fields' types.
pub fn nothing_to_check(_: &Input, _: &mut Vec<Invalid>) {}
