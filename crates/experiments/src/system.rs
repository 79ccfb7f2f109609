//! What a system is: one declaration (the [`System`] trait) that carries its name, doc,
//! parameters, inputs, output columns, methods, cross-parameter checks and the function that
//! executes a resolved run. Parameters are a typed struct declared with [`params!`]; the
//! executor reads them by field, so a misspelt parameter is a compile error.
//!
//! The registry (`systems/mod.rs`) lists the systems; [`SystemInfo`] is the type-erased view that
//! validation, execution and `cargo xtask schema` derive from each declaration.

use crate::invariants::Invariant;
use crate::{Invalid, RunData, RunRequest};
use std::collections::BTreeMap;

/// Whether a parameter is one number or a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Scalar,
    Vector,
}

/// A parameter as validation and `schema` see it.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    pub name: &'static str,
    pub unit: &'static str,
    pub kind: ParamKind,
    /// Allowed range; `open_min` excludes the lower bound.
    pub min: f64,
    pub max: f64,
    pub open_min: bool,
    pub default: Option<f64>,
    pub doc: &'static str,
}

impl ParamInfo {
    pub fn accepts(&self, v: f64) -> bool {
        v.is_finite() && (if self.open_min { v > self.min } else { v >= self.min }) && v <= self.max
    }
    pub fn range_text(&self) -> String {
        let lo = if self.min == f64::NEG_INFINITY {
            "(-inf".to_string()
        } else if self.open_min {
            format!("({}", self.min)
        } else {
            format!("[{}", self.min)
        };
        let hi = if self.max == f64::INFINITY {
            "inf)".to_string()
        } else {
            format!("{}]", self.max)
        };
        format!("{lo}, {hi} {}", self.unit)
    }
}

/// An output column: `(name, unit, meaning)`.
pub type Column = (&'static str, &'static str, &'static str);

/// The accepted input kinds of a system.
pub type Inputs = &'static [&'static str];

/// In a system's [`Inputs`]: every input kind that is a signal in time
/// ([`crate::inputs::Role::Signal`]), whichever file declares it.
pub const ANY_SIGNAL: &str = "(any signal)";
/// Inputs of a run driven by a prescribed signal: every signal kind of `inputs/`.
pub const PRESCRIBED: Inputs = &[ANY_SIGNAL];
/// Input of an analytic evaluation on a grid.
pub const GRID: Inputs = &["grid"];
/// Input of an autonomous run.
pub const NONE: Inputs = &["none"];

/// A system: a model of `fric-models` in one configuration. One implementation per file under
/// `systems/`, registered by one line in `systems/mod.rs`.
pub trait System: 'static {
    /// The name a manifest's `runs[].system` uses.
    const NAME: &'static str;
    /// One paragraph: the equations (with their numbers in the source) and the configuration.
    const DOC: &'static str;
    /// The typed parameters, declared with [`params!`].
    type Params: ParamSet + 'static;
    const INPUTS: Inputs;
    const COLUMNS: &'static [Column];
    /// Accepted `sim.method` values; the first is the default, unless [`System::default_method`]
    /// names another for the run's parameters.
    const METHODS: crate::methods::Methods;
    /// When [`System::default_method`] departs from `METHODS`' first, one line for `schema`.
    const DEFAULT_METHOD_NOTE: &'static str = "";
    /// The method a run with these parameters gets when it names none, where that is not
    /// `METHODS`' first (a system whose parameters decide where a method applies); one of
    /// `METHODS`. Resolved once, by the loader.
    fn default_method(_p: &Self::Params) -> Option<crate::methods::Method> {
        None
    }
    /// The physical invariants every run must satisfy ([`crate::invariants`]), checked on
    /// every run's data, computed or cached; a violation is the run's error.
    const INVARIANTS: &'static [Invariant<Self::Params>] = &[];
    /// Cross-parameter checks, run after every parameter is known to be in range.
    fn check(_p: &Self::Params, _req: &RunRequest, _errs: &mut Vec<Invalid>) {}
    /// Execute a resolved run into columns; an error is a solver failure in one line.
    fn run(p: &Self::Params, req: &RunRequest) -> Result<RunData, String>;
    /// An estimate of the run's cost in integration steps, to start the longest runs first and
    /// balance shards: by default [`crate::budget::cost`] (its samples and its periods at the
    /// step cap); a system whose work the sample budget does not show (a search, a steady state
    /// per grid point) estimates its own.
    fn cost(_p: &Self::Params, req: &RunRequest) -> f64 {
        crate::budget::cost(req)
    }
}

/// The units a parameter set is declared in: translational (N, m) or rotational (N-m, rad).
#[derive(Clone, Copy, Debug)]
pub struct Units {
    pub force: &'static str,
    pub disp: &'static str,
    pub vel: &'static str,
    /// force per displacement
    pub stiffness: &'static str,
    /// force per velocity
    pub damping: &'static str,
}

pub const LINEAR: Units = Units {
    force: "N",
    disp: "m",
    vel: "m/s",
    stiffness: "N/m",
    damping: "N-s/m",
};

pub const ROTARY: Units = Units {
    force: "N-m",
    disp: "rad",
    vel: "rad/s",
    stiffness: "N-m/rad",
    damping: "N-m-s/rad",
};

/// The validated parameter values of a request (every declared name present).
pub type Values = BTreeMap<String, Vec<f64>>;

/// A typed set of parameters: a system's `Params`, or a group shared by several systems (a
/// friction law, a plant). Implemented by [`params!`].
pub trait ParamSet: Sized {
    /// Append this set's parameters, in declaration order, in the given units.
    fn describe(units: &Units, out: &mut Vec<ParamInfo>);
    /// Read the set from validated values (every declared name is present).
    fn read(values: &Values) -> Self;
}

/// The spec of one scalar or list parameter: everything but its name and kind, which come from
/// the field.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub unit: &'static str,
    pub min: f64,
    pub max: f64,
    pub open_min: bool,
    pub default: Option<f64>,
    pub doc: &'static str,
}

impl Spec {
    /// The same parameter with a default value.
    pub const fn default(self, d: f64) -> Spec {
        Spec {
            default: Some(d),
            ..self
        }
    }
    /// The same parameter with a closed lower bound `min`.
    pub const fn at_least(self, min: f64) -> Spec {
        Spec {
            min,
            open_min: false,
            ..self
        }
    }
}

const INF: f64 = f64::INFINITY;

const fn spec(unit: &'static str, min: f64, max: f64, open_min: bool, doc: &'static str) -> Spec {
    Spec {
        unit,
        min,
        max,
        open_min,
        default: None,
        doc,
    }
}

/// A value in (0, ∞).
pub const fn positive(unit: &'static str, doc: &'static str) -> Spec {
    spec(unit, 0.0, INF, true, doc)
}
/// A value in [0, ∞).
pub const fn nonneg(unit: &'static str, doc: &'static str) -> Spec {
    spec(unit, 0.0, INF, false, doc)
}
/// Any finite value.
pub const fn any(unit: &'static str, doc: &'static str) -> Spec {
    spec(unit, -INF, INF, false, doc)
}
/// An initial condition: any finite value, 0 by default.
pub const fn initial(unit: &'static str, doc: &'static str) -> Spec {
    any(unit, doc).default(0.0)
}
/// A dimensionless value in (0, 1].
pub const fn ratio(doc: &'static str) -> Spec {
    spec("1", 0.0, 1.0, true, doc)
}
/// A value in [min, max].
pub const fn between(unit: &'static str, min: f64, max: f64, doc: &'static str) -> Spec {
    spec(unit, min, max, false, doc)
}

/// The spec of a nested parameter set, in the units its parameters are declared in.
#[derive(Clone, Copy, Debug)]
pub struct Group(pub Units);

/// A field of a parameter set: a number, a list or a nested set. `S` is the spec type, so each
/// kind of field takes its own kind of spec.
pub trait Field<S>: Sized {
    fn describe(name: &'static str, spec: S, out: &mut Vec<ParamInfo>);
    fn read(name: &str, values: &Values) -> Self;
}

fn param_info(name: &'static str, kind: ParamKind, s: Spec) -> ParamInfo {
    ParamInfo {
        name,
        unit: s.unit,
        kind,
        min: s.min,
        max: s.max,
        open_min: s.open_min,
        default: s.default,
        doc: s.doc,
    }
}

impl Field<Spec> for f64 {
    fn describe(name: &'static str, spec: Spec, out: &mut Vec<ParamInfo>) {
        out.push(param_info(name, ParamKind::Scalar, spec));
    }
    fn read(name: &str, values: &Values) -> Self {
        values[name][0]
    }
}

impl Field<Spec> for Vec<f64> {
    fn describe(name: &'static str, spec: Spec, out: &mut Vec<ParamInfo>) {
        out.push(param_info(name, ParamKind::Vector, spec));
    }
    fn read(name: &str, values: &Values) -> Self {
        values[name].clone()
    }
}

impl<T: ParamSet> Field<Group> for T {
    fn describe(_name: &'static str, spec: Group, out: &mut Vec<ParamInfo>) {
        T::describe(&spec.0, out)
    }
    fn read(_name: &str, values: &Values) -> Self {
        T::read(values)
    }
}

/// Declare a typed parameter set. Each field is `name: type = spec`, where the type is `f64`
/// (one number), `Vec<f64>` (a list) or another parameter set (whose parameters join this one's,
/// unprefixed; its spec is `Group(LINEAR)` or `Group(ROTARY)`). A set declared as `Name(u)` binds
/// its units to `u`, so one declaration serves translational and rotational systems:
///
/// ```ignore
/// params! {
///     /// LuGre friction, (1.24)–(1.26).
///     pub struct LuGreLaw(u) {
///         sigma0: f64 = positive(u.stiffness, "bristle stiffness"),
///         vs: f64 = positive(u.vel, "Stribeck velocity"),
///     }
/// }
/// ```
macro_rules! params {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident $(($u:ident))? {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $spec:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        $vis struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }
        impl crate::system::ParamSet for $name {
            #[allow(unused_variables)]
            fn describe(units: &crate::system::Units, out: &mut Vec<crate::system::ParamInfo>) {
                $( let $u = units; )?
                $( <$ty as crate::system::Field<_>>::describe(stringify!($field), $spec, out); )*
            }
            #[allow(unused_variables)]
            fn read(values: &crate::system::Values) -> Self {
                Self {
                    $( $field: <$ty as crate::system::Field<_>>::read(stringify!($field), values), )*
                }
            }
        }
    };
}

pub(crate) use params;

/// The type-erased view of a [`System`]: what validation, execution and `schema` use.
pub struct SystemInfo {
    pub name: &'static str,
    pub doc: &'static str,
    pub params: Vec<ParamInfo>,
    pub inputs: Inputs,
    pub columns: &'static [Column],
    /// The methods it declares ([`System::METHODS`]); the first is the default. Those it takes
    /// are [`SystemInfo::all_methods`].
    pub methods: crate::methods::Methods,
    /// The default method for a run's (validated) parameters where it is not `methods`' first
    /// ([`System::default_method`]), and when, in a line ([`System::DEFAULT_METHOD_NOTE`]).
    pub default_method: fn(&Values) -> Option<crate::methods::Method>,
    pub default_note: &'static str,
    /// Cross-parameter checks (every parameter present and in range).
    pub check: fn(&RunRequest, &mut Vec<Invalid>),
    /// Execute a resolved request.
    pub run: fn(&RunRequest) -> Result<RunData, String>,
    /// Estimated cost in integration steps ([`System::cost`]).
    pub cost: fn(&RunRequest) -> f64,
    /// The declared invariants: `(name, doc)`.
    pub invariants: Vec<(&'static str, &'static str)>,
    /// Check them on a run's data: `Err` names the first one broken and where.
    pub check_invariants: fn(&RunRequest, &RunData) -> Result<(), String>,
}

impl SystemInfo {
    /// The methods the system takes: its own, then those registered for it
    /// ([`crate::methods::register`]).
    pub fn all_methods(&self) -> Vec<crate::methods::Method> {
        let mut out = self.methods.to_vec();
        out.extend(crate::methods::added_for(self.name));
        out
    }

    /// Whether the system takes input kind `kind`.
    pub fn accepts(&self, kind: &str) -> bool {
        self.input_names().contains(&kind)
    }

    /// The input kinds the system takes, by name ([`ANY_SIGNAL`] expanded, in the registry's
    /// order).
    pub fn input_names(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for i in self.inputs {
            if *i == ANY_SIGNAL {
                out.extend(crate::inputs::names_of(crate::inputs::Role::Signal));
            } else {
                out.push(*i);
            }
        }
        out
    }
}

fn check_erased<S: System>(req: &RunRequest, errs: &mut Vec<Invalid>) {
    S::check(&<S::Params as ParamSet>::read(&req.params), req, errs)
}

fn default_method_erased<S: System>(values: &Values) -> Option<crate::methods::Method> {
    S::default_method(&<S::Params as ParamSet>::read(values))
}

fn run_erased<S: System>(req: &RunRequest) -> Result<RunData, String> {
    S::run(&<S::Params as ParamSet>::read(&req.params), req)
}

fn invariants_erased<S: System>(req: &RunRequest, d: &RunData) -> Result<(), String> {
    if S::INVARIANTS.is_empty() {
        return Ok(());
    }
    let p = <S::Params as ParamSet>::read(&req.params);
    for inv in S::INVARIANTS {
        (inv.check)(&p, req, d).map_err(|v| format!("invariant `{}` of {} broken {v}", inv.name, S::NAME))?;
    }
    Ok(())
}

fn cost_erased<S: System>(req: &RunRequest) -> f64 {
    S::cost(&<S::Params as ParamSet>::read(&req.params), req)
}

/// The erased view of one system.
pub fn info<S: System>() -> SystemInfo {
    let mut params = Vec::new();
    <S::Params as ParamSet>::describe(&LINEAR, &mut params);
    SystemInfo {
        name: S::NAME,
        doc: S::DOC,
        params,
        inputs: S::INPUTS,
        columns: S::COLUMNS,
        methods: S::METHODS,
        default_method: default_method_erased::<S>,
        default_note: S::DEFAULT_METHOD_NOTE,
        check: check_erased::<S>,
        run: run_erased::<S>,
        cost: cost_erased::<S>,
        invariants: S::INVARIANTS.iter().map(|i| (i.name, i.doc)).collect(),
        check_invariants: invariants_erased::<S>,
    }
}

/// An error at `params.<name>`.
pub fn invalid(name: &str, message: impl Into<String>, allowed: impl Into<String>) -> Invalid {
    Invalid::new(format!("params.{name}"), message, allowed)
}
