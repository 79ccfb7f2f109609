//! A run's method by name (`sim.method`). The methods are declared, each with what it does, in
//! `fric_experiments::methods` (one file per method, registered by one line), since what a
//! method does needs the solvers this crate stays free of; the loader resolves the name against
//! that registry once (an unknown method, or one the run's system does not take, is an error at
//! its line with the allowed list) into the typed `fric_experiments::methods::Method` a resolved
//! run carries, and the JSON Schema lists the names it holds. This name is what the manifest
//! wrote, kept as written for the cache key; nothing reads it after loading.
//!
//! That registry, like the series styles' (`fric_plot::style`), is per process: a method added
//! at run time (`fric_experiments::methods::register`) exists for the process that added it, and
//! `cargo xtask` (which registers none) does not see it. This is by design, not a limitation to
//! fix: the project's methods are all in `methods::ALL`, so every process sees the same ones; a
//! study that needs its own method links the crates into its own front end and registers it
//! before loading; and a run computed by a registered method carries the method's declaration in
//! its cache key, so a different method registered under the same name in another process never
//! reads that run from the shared cache.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the JSON Schema says of `sim.method`.
pub const METHOD_DOC: &str =
    "How a run is computed (`sim.method`); each system lists the ones it takes, its\nfirst being its default.";

/// A method's name as the manifest writes it (`dopri5`, `exact`, ...).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, Hash)]
#[serde(transparent)]
pub struct MethodName(pub String);

impl std::fmt::Display for MethodName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Any name parses (`"radau5".parse()`); the loader resolves it against the registry.
impl std::str::FromStr for MethodName {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(MethodName(s.to_string()))
    }
}

/// A string here; [`crate::json_schema`] adds the registry's names as its alternatives.
impl JsonSchema for MethodName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Method".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"description": METHOD_DOC, "type": "string"})
    }
}
