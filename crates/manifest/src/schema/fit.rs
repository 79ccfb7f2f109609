//! `fit`: the values of one or more run parameters that bring a manifest's metrics nearest to
//! their targets in the least-squares sense (every evaluation a cached run), the results metrics
//! like any other.

use crate::RunIds;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Least squares over `params` of `run` (one run, or several sharing them): minimise `Σ ((metric − value)/sigma)²` over every
/// target (a `points` target contributes one term per point, its metric evaluated with `at` set
/// to the point's abscissa). Levenberg–Marquardt with forward-difference derivatives, serial,
/// within each parameter's bounds. Results: `name.<param>` (the fitted value), `name.<param>.sd`
/// (its standard error from the covariance `s²(JᵀJ)⁻¹`, `s² = Σr²/(m − n)`; an error when there
/// are no more residuals than parameters), `name.residual` (the weighted residual norm
/// `√Σr²`), `name.residual.<metric>` (per target: the metric minus its value, or the
/// root-mean-square over its points, in the metric's unit), `name.evaluations` and
/// `name.iterations`.
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
    /// `samples`): one residual per row, `[x, y]` its point.
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
/// per sample; the `x` column strictly increasing (e.g. time), finite values. Read when the
/// manifest is loaded: its sha256 is recorded with the points, so editing the file changes the
/// fit.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitCsv {
    /// The file, relative to the workspace root and under `data/` (not `data/cache/`).
    pub path: String,
    /// The column of the abscissae (the metric's `at`), strictly increasing.
    pub x: String,
    /// The column of the values the metric should have there.
    pub y: String,
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
