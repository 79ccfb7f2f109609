//! `fit`: the values of one or more run parameters that bring a manifest's metrics nearest to
//! their targets in the least-squares sense (every evaluation a cached run), the results metrics
//! like any other.

use crate::RunIds;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Least squares over `params` of `run` (one run, or several sharing them): minimise `Σ ((metric − value)/sigma)²` over every
/// target (a `points` target contributes one term per point, its metric evaluated with `at` set
/// to the point's abscissa). argmin's trust region (Steihaug) on the Gauss–Newton model with
/// forward-difference derivatives, serial, within each parameter's bounds; where it stalls (a
/// non-smooth cost), the rule of `scan`. Results: `name.<param>` (the fitted value), `name.<param>.sd`
/// (its standard error from the covariance `s²(JᵀJ)⁻¹`, `s² = Σr²/(m − n)`; an error when there
/// are no more residuals than parameters), `name.residual` (the weighted residual norm
/// `√Σr²`), `name.residual.<metric>` (per target: the metric minus its value, or the
/// root-mean-square over its points, in the metric's unit), `name.evaluations` and
/// `name.iterations`, `name.non_smooth` (1 where the rule of `scan` ran, else 0).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitSpec {
    /// The result's name (unique among the manifest's metrics, finds and fits).
    pub name: String,
    /// The run whose parameters are fitted (a run id of this manifest, not a swept one), or
    /// several: each parameter is then shared, set to the same value in every one of them.
    pub run: RunIds,
    /// The parameters fitted, each with its start value and bounds.
    pub params: Vec<FitParam>,
    /// What the fitted run must reproduce: metrics of this manifest (or, with `manifest`, of
    /// another one evaluated on its runs taken from the fitted ones) and their values.
    pub targets: Vec<FitTarget>,
    /// Convergence: every parameter's step below `tol × (|value| + tol)`, or the cost reduced by
    /// less than `tol²` of itself. Default 1e-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tol: Option<f64>,
    /// At most this many evaluations (each one run per fitted run). Default 200.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_evaluations: Option<usize>,
    /// Profile each parameter with a standard error at `p̂ ± k·sd` for each `k` here (distinct
    /// whole multiples of its standard error, 1 to 5): the cost `Σr²` minimised over the other
    /// parameters at that value. Results `name.<param>.profile.lo<k>` and `.hi<k>`:
    /// `(cost − ĉ)/(k² s²)`, 1 where the quadratic approximation behind `.sd` holds; far from 1,
    /// or different on the two sides, where it misleads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profile: Vec<u32>,
    /// The rule for a non-smooth cost: where the trust region stops with its radius shrunk below
    /// `tol` and no trial point lowering the cost, while the Gauss–Newton step there promises a
    /// fall above `tol × cost` (a cost with jumps, e.g. a stick-slip metric; at a stop within
    /// one difference step of a jump, where the forward and backward differences disagree, the
    /// smooth side's Gauss–Newton step, one more evaluation per parameter), the cost is
    /// evaluated at the Gauss–Newton point and at `scan` evenly spaced values of each parameter
    /// over its bounds (the others held), and the trust region restarted once from the lowest of
    /// them if it is lower. The result is the lowest point found, reported as a minimum of a
    /// non-smooth cost (`name.non_smooth` = 1), never as converged, with its evidence:
    /// `name.stall.cost` (`Σr²` where it first stopped), `name.gn.predicted_fall` and
    /// `name.gn.actual_fall` (the model's promise and the cost's change at the Gauss–Newton
    /// point), `name.scan.best_cost`, `name.scan.local_minima` (scanned points lower than their
    /// neighbours along their parameter), `name.scan.restarted` (1 or 0). Default 21; 0 makes
    /// such a stop an error (stagnation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scan: Option<usize>,
}

/// One fitted parameter.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitParam {
    /// Parameter name, `input.<field>` or `sim.<field>`.
    pub param: String,
    /// The start value (inside the bounds).
    pub start: f64,
    /// `[lo, hi]`: the values the fit may take (lo < hi, both values the system accepts).
    pub bounds: [f64; 2],
    /// The forward-difference step, in the parameter's unit. Default 1e-6 × (hi − lo).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    /// The parameter's unit, shown with the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

/// One target: a metric of the manifest and the value it should have, or (for a metric with
/// an `at` field, e.g. `value-at`) points `[at, value]` it should pass through, written out or
/// read from a measured CSV file (`csv`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitTarget {
    /// The metric (of this manifest, not a sweep's table; of `manifest` when given).
    pub metric: String,
    /// Another manifest (`<doc>/<name>`) whose `metric` this target is: a number another figure
    /// publishes about the same simulation. The metric is evaluated on that manifest with the
    /// fitted parameters set in every run of it taken (`from: "<this id>#<run>"`) from a fitted
    /// run, its runs read from the run cache or computed into it; it needs at least one such
    /// run, and `value` (not points). Its manifest is validated with this one, and a change to
    /// it evaluates the fit again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<String>,
    /// The value the metric should have (exactly one of `value` and `points`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// `[[at, value], ...]`: the metric evaluated with `at` set to each abscissa.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<[f64; 2]>,
    /// The points read from a CSV file instead (exactly one of `value`, `points`, `csv` and
    /// `samples`): one residual per row, `[x, y]` its point; a measured loop without time with
    /// `loop: true` (see its declaration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csv: Option<FitCsv>,
    /// The points are the samples `(x, y)` of another run of this manifest (simulated data a
    /// model is fitted to), read when the fit is evaluated: one residual per sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<FitSamples>,
    /// The residual's scale, in the metric's unit (positive): the term is (metric − value)/sigma.
    /// Default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
    /// Where the target values come from (a line of the source, or a derivation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
}

/// A target's points from a measured CSV file: a header row naming the columns, then one row
/// per sample, finite values; one residual per row. Read when the manifest is loaded: its
/// sha256 is recorded with the points, so editing the file changes the fit.
///
/// Without `loop`, the `x` column strictly increases (e.g. time): the row's residual is the
/// metric with `at` set to its x, minus its y.
///
/// With `loop: true` the file is a measured hysteresis loop without time: (input, output) rows
/// in the order measured, x going up, then down, ... Each row lies on the branch of its step
/// from the row before (ascending where x increased, descending where it decreased; the first
/// row takes its step to the next, a row repeating x the branch before it), and the file needs
/// rows on both. The target's metric is a `value-at` of a fitted run (its input defines the
/// model's loop) with `x` and `y` the model's input and output columns; a row's residual is its
/// y minus the model's y on the same branch at its x (the metric with `at` and `branch` set),
/// interpolated over the metric's window, the last period when it names none. A row whose x
/// lies outside the model's branch (by more than 1e-9 of the branch's span) fails the fit with
/// the file and line. Example:
/// `targets: [{metric: f_u, csv: {path: data/followup/dahl-loop.csv, x: u, y: F, loop: true}}]`
/// with the metric `{name: f_u, kind: value-at, run: loop, x: u, y: F, at: 0, window: last-period}`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitCsv {
    /// The file, relative to the workspace root and under `data/` (not `data/cache/`).
    pub path: String,
    /// The column of the abscissae (the metric's `at`): strictly increasing, or, with `loop`,
    /// the loop's input.
    pub x: String,
    /// The column of the values the metric should have there (with `loop`, the loop's output).
    pub y: String,
    /// The rows are a loop (x up and down, no time): each row is compared on its branch. Default
    /// false.
    #[serde(default, rename = "loop", skip_serializing_if = "std::ops::Not::not")]
    pub is_loop: bool,
    /// The file's line of each row read (for the messages about it), filled in when the manifest
    /// is loaded.
    #[serde(skip)]
    #[schemars(skip)]
    pub lines: Vec<usize>,
    /// The file's sha256, filled in when the manifest is loaded (never written in a manifest).
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub sha256: Option<String>,
}

/// A target's points from a run of the manifest: its columns `x` and `y`, every sample.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitSamples {
    /// The run (an id of this manifest, or one member `id[k]` of a sweep), not a fitted one.
    pub run: String,
    /// The column of the abscissae (the metric's `at`).
    pub x: String,
    /// The column of the values the metric should have there.
    pub y: String,
}

/// The suffixes of a fit's results beside its parameters' (`name.residual`, ...).
pub const FIT_PARTS: [&str; 3] = ["residual", "evaluations", "iterations"];
