//! Methods (`sim.method`), one file each: its declaration (name, doc, an example) beside its
//! behaviour ([`How`]: the solver and default tolerances of a method that steps in time, or
//! which of the non-stepping evaluations it is), registered by one line of the [`methods!`]
//! invocation below, which makes it a variant of the enum [`Method`] and an entry of [`ALL`].
//! `cargo xtask schema`, the JSON Schema ([`docs`] into `fric_manifest::json_schema`), the loader
//! (`crate::resolve`: an unknown method, or one the run's system does not take, is an error at
//! its line) and the runs (`crate::drive`) all read that declaration. A run's method is resolved
//! from its name once, by the loader ([`find`]), into the [`Method`] its request carries
//! ([`crate::RunRequest::method`]); nothing falls back to another method, and nothing looks a
//! name up after loading.
//!
//! A system lists the methods it takes ([`crate::system::System::METHODS`], the first its
//! default); a method declared outside this crate is added by [`register`] with the systems that
//! take it, as [`Method::Registered`].

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

use fric_manifest::KindDoc;
use std::sync::RwLock;

/// The registry: one line per method, `Variant => its declaration`. It declares the enum
/// [`Method`] (a variant per line, and `Registered` for a method added by [`register`]), [`ALL`]
/// (the lines, in the order `schema` lists them) and [`Method::decl`] (each variant's
/// declaration), so a method's variant and its declaration are written together, once.
macro_rules! methods {
    ($($(#[$doc:meta])* $variant:ident => $decl:path),+ $(,)?) => {
        /// A method a run is computed by: resolved from its name when the manifest is loaded
        /// (`crate::resolve`, at the line of `sim.method`, through [`find`]) and carried in
        /// [`crate::RunRequest::method`]. A variant per method of the project, and `Registered`
        /// for one a study or a test adds at run time ([`register`]). Every run-time site
        /// matches on the variant or on what it does ([`Method::how`], the enum [`How`],
        /// matched exhaustively); none compares a name or looks one up again. Two methods are
        /// equal when their names are (a name is registered once, so that is when they are the
        /// same variant, or the same registered declaration).
        #[derive(Clone, Copy, Debug)]
        pub enum Method {
            $($(#[$doc])* $variant,)+
            /// A method declared outside this crate, added by [`register`].
            Registered(&'static MethodDecl),
        }

        /// Every method of the project, in the order `schema` lists them (a method declared
        /// elsewhere is added by [`register`]).
        pub const ALL: &[Method] = &[$(Method::$variant),+];

        impl Method {
            /// The method's declaration: its name, doc, example and behaviour.
            pub fn decl(self) -> &'static MethodDecl {
                match self {
                    $(Method::$variant => &$decl,)+
                    Method::Registered(decl) => decl,
                }
            }
        }
    };
}

methods! {
    Dopri5 => dopri5::DOPRI5,
    Dop853 => dop853::DOP853,
    Radau5 => radau5::RADAU5,
    Rosenbrock23 => rosenbrock23::ROSENBROCK23,
    Dop853Radau5 => dop853_radau5::DOP853_RADAU5,
    Exponential => exponential::EXPONENTIAL,
    IntegratingFactor => integrating_factor::INTEGRATING_FACTOR,
    Exact => exact::EXACT,
    Ode => ode::ODE,
    Analytic => analytic::ANALYTIC,
}

impl Method {
    /// The name manifests write (`sim.method`).
    pub fn name(self) -> &'static str {
        self.decl().name
    }

    /// What a run computed by this method does.
    pub fn how(self) -> How {
        self.decl().how
    }
}

/// Methods are the same when their names are (a name is registered once).
impl PartialEq for Method {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Method {}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The LuGre law driven by a prescribed motion (`lugre`, `lugre-passivity`): affine in z along
/// the input, so exponential collocation (the default) and the integrating factor, then the
/// stepping solvers.
pub const LUGRE_DRIVEN: Methods = &[
    Method::Exponential,
    Method::IntegratingFactor,
    Method::Rosenbrock23,
    Method::Radau5,
    Method::Dopri5,
];

/// A mechanical loop closed through a stiff bristle-type law (LuGre, Bliman–Sorine, FFBM: the
/// drum, inertia, PID and mass–spring systems): the implicit solvers first, Dopri5 beside them.
pub const STIFF_FIRST: Methods = &[Method::Radau5, Method::Rosenbrock23, Method::Dopri5];

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
/// the loader and the runs see it as they see [`ALL`], as [`Method::Registered`]. An error if a
/// method of that name exists or a system is unknown.
pub fn register(decl: &'static MethodDecl, taken_by: &[&str]) -> Result<(), String> {
    let mut added = ADDED.write().unwrap_or_else(|e| e.into_inner());
    if ALL
        .iter()
        .copied()
        .chain(added.iter().map(|(m, _)| *m))
        .any(|m| m.name() == decl.name)
    {
        return Err(format!("method `{}` is declared already", decl.name));
    }
    if let Some(s) = taken_by.iter().find(|s| crate::system(s).is_none()) {
        return Err(format!("method `{}`: unknown system `{s}`", decl.name));
    }
    added.push((
        Method::Registered(decl),
        taken_by.iter().map(|s| s.to_string()).collect(),
    ));
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

/// The method called `name`: the lookup the loader makes, once per run (`crate::resolve`).
pub fn find(name: &str) -> Option<Method> {
    all().into_iter().find(|m| m.name() == name)
}

/// The names of `methods`, comma-separated (an error's allowed list, `schema`).
pub fn names(methods: &[Method]) -> String {
    methods.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ")
}

/// The declarations, for the JSON Schema (`sim.method` is one of their names).
pub fn docs() -> Vec<KindDoc> {
    all()
        .iter()
        .map(|m| {
            let d = m.decl();
            KindDoc {
                name: d.name,
                doc: d.doc,
                fields: &[],
                example: d.example,
            }
        })
        .collect()
}
