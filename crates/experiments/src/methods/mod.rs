//! Methods (`sim.method`), one file each: its declaration (name, doc, an example) beside its
//! behaviour ([`How`]: the solver and default tolerances of a method that steps in time, or
//! which of the non-stepping evaluations it is), registered by one line in [`ALL`]. `cargo xtask
//! schema`, the JSON Schema ([`docs`] into `fric_manifest::json_schema`), the loader
//! (`crate::resolve`: an unknown method, or one the run's system does not take, is an error at
//! its line) and the runs (`crate::drive`) all read that declaration. A run's method is resolved
//! from its name once, by the loader, into the [`Method`] its request carries
//! ([`crate::RunRequest::method`]); nothing falls back to another method, and nothing looks a
//! name up after loading.
//!
//! A system lists the methods it takes ([`crate::system::System::METHODS`], the first its
//! default); a method declared outside this crate is added by [`register`] with the systems that
//! take it.

mod analytic;
mod dop853;
mod dop853_radau5;
mod dopri5;
mod exact;
mod exponential;
mod integrating_factor;
mod ode;
mod radau5;
mod rosenbrock23;

pub use analytic::ANALYTIC;
pub use dop853::DOP853;
pub use dop853_radau5::DOP853_RADAU5;
pub use dopri5::DOPRI5;
pub use exact::EXACT;
pub use exponential::EXPONENTIAL;
pub use integrating_factor::INTEGRATING_FACTOR;
pub use ode::ODE;
pub use radau5::RADAU5;
pub use rosenbrock23::ROSENBROCK23;

use fric_manifest::KindDoc;
use std::sync::RwLock;

/// Every method of the project, in the order `schema` lists them: one line per method (a
/// method declared elsewhere is added by [`register`]).
pub const ALL: &[&MethodDecl] = &[
    &DOPRI5,
    &DOP853,
    &RADAU5,
    &ROSENBROCK23,
    &DOP853_RADAU5,
    &EXPONENTIAL,
    &INTEGRATING_FACTOR,
    &EXACT,
    &ODE,
    &ANALYTIC,
];

/// The LuGre law driven by a prescribed motion (`lugre`, `lugre-passivity`): affine in z along
/// the input, so exponential collocation (the default) and the integrating factor, then the
/// stepping solvers.
pub const LUGRE_DRIVEN: Methods = &[&EXPONENTIAL, &INTEGRATING_FACTOR, &ROSENBROCK23, &RADAU5, &DOPRI5];

/// A mechanical loop closed through a stiff bristle-type law (LuGre, Bliman–Sorine, FFBM: the
/// drum, inertia, PID and mass–spring systems): the implicit solvers first, Dopri5 beside them.
pub const STIFF_FIRST: Methods = &[&RADAU5, &ROSENBROCK23, &DOPRI5];

/// A method a run is computed by: resolved from its name when the manifest is loaded
/// (`crate::resolve`, at the line of `sim.method`) and carried in
/// [`crate::RunRequest::method`]; every run-time site matches on its [`How`], none compares a
/// name or looks one up again.
///
/// Why a `Copy` handle to a method's declaration and not an enum with a variant per method: the
/// methods are open. Each is declared in its own file and registered by one line ([`ALL`]), and
/// a study or a test may [`register`] its own at run time; an enum of methods would need a
/// second line per method (its variant, beside the file and the `ALL` line) and a
/// `Registered(&'static MethodDecl)` variant holding exactly this handle for the rest. What is
/// closed is what a method does, and that is the enum [`How`], matched exhaustively. Two handles
/// are equal when their names are (a name is registered once).
pub type Method = &'static MethodDecl;

/// The methods a system takes, its first the default.
pub type Methods = &'static [Method];

/// One method: its declaration and its behaviour.
#[derive(Debug)]
pub struct MethodDecl {
    /// The name manifests write (`sim.method`).
    pub name: &'static str,
    /// What the method is, one line (`schema`, the JSON Schema).
    pub doc: &'static str,
    /// A run using it, as a manifest writes it.
    pub example: &'static str,
    /// What a run computed by it does.
    pub how: How,
}

/// Methods are the same when their names are (a name is registered once).
impl PartialEq for MethodDecl {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl std::fmt::Display for MethodDecl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// What a method does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum How {
    /// Steps the run's equations in time with an adaptive solver.
    Ode(Ode),
    /// Exactly along the input from the integrating factor of a single-state model affine in
    /// its state (`fric_solvers::affine`).
    IntegratingFactor,
    /// Exponential collocation along the input for the same models (`fric_solvers::expint`).
    Exponential,
    /// A rate-independent operator evaluated on the input samples (`crate::drive::exact`).
    Exact,
    /// A closed-form evaluation, no integration.
    Analytic,
}

/// A method that steps in time: its solver and the tolerances a run gets when it sets none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ode {
    pub solver: fric_solvers::Method,
    /// Default `sim.rtol`.
    pub rtol: f64,
    /// Default `sim.atol`.
    pub atol: f64,
}

/// Methods added at run time by [`register`]: each with the systems that take it.
static ADDED: RwLock<Vec<(Method, Vec<String>)>> = RwLock::new(Vec::new());

/// Add a method declared outside this crate (a study's own method; a test's toy method), taken
/// by the systems named in `taken_by` after their own: from then on `schema`, the JSON Schema,
/// the loader and the runs see it as they see [`ALL`]. An error if a method of that name exists
/// or a system is unknown.
pub fn register(decl: Method, taken_by: &[&str]) -> Result<(), String> {
    let mut added = ADDED.write().unwrap_or_else(|e| e.into_inner());
    if ALL
        .iter()
        .copied()
        .chain(added.iter().map(|(m, _)| *m))
        .any(|m| m == decl)
    {
        return Err(format!("method `{}` is declared already", decl.name));
    }
    if let Some(s) = taken_by.iter().find(|s| crate::system(s).is_none()) {
        return Err(format!("method `{}`: unknown system `{s}`", decl.name));
    }
    added.push((decl, taken_by.iter().map(|s| s.to_string()).collect()));
    Ok(())
}

/// Every method: [`ALL`], then the registered ones.
pub fn all() -> Vec<Method> {
    let added = ADDED.read().unwrap_or_else(|e| e.into_inner());
    ALL.iter().copied().chain(added.iter().map(|(m, _)| *m)).collect()
}

/// The registered methods that system `system` takes besides its own.
pub(crate) fn added_for(system: &str) -> Vec<Method> {
    let added = ADDED.read().unwrap_or_else(|e| e.into_inner());
    added
        .iter()
        .filter(|(_, systems)| systems.iter().any(|s| s == system))
        .map(|(m, _)| *m)
        .collect()
}

/// The method called `name`.
pub fn find(name: &str) -> Option<Method> {
    all().into_iter().find(|m| m.name == name)
}

/// The names of `methods`, comma-separated (an error's allowed list, `schema`).
pub fn names(methods: &[Method]) -> String {
    methods.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
}

/// The declarations, for the JSON Schema (`sim.method` is one of their names).
pub fn docs() -> Vec<KindDoc> {
    all()
        .iter()
        .map(|m| KindDoc {
            name: m.name,
            doc: m.doc,
            fields: &[],
            example: m.example,
        })
        .collect()
}
