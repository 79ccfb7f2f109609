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
    /// Instead of a root search: a continuation up and down the bracket, each run started from
    /// the previous run's final state, which locates the onset on each way (hysteresis when they
    /// differ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continuation: Option<Continuation>,
}

/// A continuation over `bracket = [a, b]`: the grid `a + i (b − a)/steps`, `i = 0..steps`, run
/// upwards from the run's own initial state, then downwards from the last upward run's final
/// state, every run after the first starting from the final state of the run before it (each
/// parameter of `carry` set to the final value of its column). On each way the first grid
/// interval where the metric crosses the level is narrowed by bisection to `tol`, every trial
/// run started from the final state of the run on the near side (the branch being followed).
/// Results: `name.up` and `name.down` (the onsets, each the middle of its final interval, with
/// `.lo`, `.hi`, `.metric_lo`, `.metric_hi`), `name` = `name.up − name.down` (the hysteresis
/// width), `name.up.step<i>` and `name.down.step<i>` (the metric at grid point `i` on each way),
/// `name.evaluations`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Continuation {
    /// The number of grid intervals across the bracket (2 to 200).
    pub steps: usize,
    /// Initial-state parameter of the run → the column whose final value it takes from the run
    /// before (e.g. `{v0: v, l0: l, z0: z}`).
    pub carry: std::collections::BTreeMap<String, String>,
}

/// The suffixes of a find's companion metrics (`name.lo`, ...).
pub const FIND_PARTS: [&str; 5] = ["lo", "hi", "metric_lo", "metric_hi", "evaluations"];

/// The suffixes of a continuation find's companion metrics, beside `up.step<i>` and
/// `down.step<i>` (`i` = 0 to `steps`).
pub const CONTINUATION_PARTS: [&str; 11] = [
    "up",
    "down",
    "up.lo",
    "up.hi",
    "up.metric_lo",
    "up.metric_hi",
    "down.lo",
    "down.hi",
    "down.metric_lo",
    "down.metric_hi",
    "evaluations",
];

impl FindSpec {
    /// Whether `part` names a companion metric of this find (`lo`, `up.hi`, `up.step3`, ...).
    pub fn has_part(&self, part: &str) -> bool {
        match &self.continuation {
            None => FIND_PARTS.contains(&part),
            Some(c) => {
                CONTINUATION_PARTS.contains(&part)
                    || ["up.step", "down.step"].iter().any(|w| {
                        part.strip_prefix(w)
                            .and_then(|i| i.parse::<usize>().ok())
                            .is_some_and(|i| i <= c.steps)
                    })
            }
        }
    }
}
