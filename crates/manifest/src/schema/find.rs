//! `find`: where a metric of the manifest reaches a level as one parameter of one run moves
//! over a bracket (a root search, every step a cached run), its result a metric like any other.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Solve `metric(param) = level` on `bracket`: the metric's value at both ends must lie on
/// opposite sides of the level. The result is the metric `name` (the parameter value), with
/// `name.lo` and `name.hi` (the final bracket), `name.metric_lo` and `name.metric_hi` (the metric
/// there) and `name.evaluations`. When the metric jumps over the level inside the final bracket
/// (a step, not a crossing) `name` has no value (an error naming the jump's two sides) and
/// `name.lo`/`name.hi` place the jump.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FindSpec {
    /// The result's metric name (unique among the manifest's metrics and finds).
    pub name: String,
    /// The run whose parameter is varied (a run id of this manifest, not a swept one).
    pub run: String,
    /// Parameter name, `input.<field>` or `sim.<field>`.
    pub param: String,
    /// The metric whose level is sought (a metric of this manifest, not a table of a sweep).
    pub metric: String,
    /// The level the metric must reach.
    pub level: f64,
    /// `[a, b]`: the parameter values that bracket the crossing.
    pub bracket: [f64; 2],
    /// The final bracket's width, in the parameter's unit (positive).
    pub tol: f64,
    /// The parameter's unit, shown with the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

/// The suffixes of a find's companion metrics (`name.lo`, ...).
pub const FIND_PARTS: [&str; 5] = ["lo", "hi", "metric_lo", "metric_hi", "evaluations"];
