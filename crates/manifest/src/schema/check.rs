//! Metrics computed from runs, checks against published or derived values, and tables.

use super::Window;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MetricSpec {
    pub name: String,
    pub kind: MetricKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
    /// `value-at`: the x at which y is read; `slope`: the x range of the fit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
    /// `decay-fit`: which fitted parameter is the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<FitPart>,
    /// `max-diff`: the series compared against (same sampling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<OtherSeries>,
    /// `difference`, `sum`, `ratio`, `relative-difference`: two earlier metrics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<[String; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How far the value may move against the committed baseline
    /// (`experiments/metrics.baseline.csv`) before `cargo xtask check` fails; default
    /// `{rel: 1e-9, abs: 1e-12}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_tol: Option<Tol>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OtherSeries {
    pub run: String,
    /// `curve-crossings`: the other curve's x column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    pub y: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum MetricKind {
    /// Signed `∮ y dx` over the window (positive clockwise).
    LoopArea,
    Max,
    Min,
    MaxAbs,
    /// y at x = `at` on the first bracketing segment.
    ValueAt,
    /// Least-squares dy/dx over samples with x in `range`.
    Slope,
    /// Intercept of the same least-squares line.
    Intercept,
    /// Largest |y − other.y| over equally sampled windows.
    MaxDiff,
    /// How many times the curve (x, y) crosses the curve (other.x, other.y) in the plane
    /// (polylines; a NaN row breaks a curve).
    CurveCrossings,
    /// y of the last sample in the window.
    Final,
    /// A run diagnostic by name (`y`), such as `periods_to_steady_state`.
    Info,
    /// The `at`-quantile (0…1) of y over the window.
    Quantile,
    /// Mean interval of x between successive upward crossings of y through the level `at`
    /// (default 0) in the window: the period of an oscillation.
    CrossingPeriod,
    /// One parameter (`part`) of the least-squares fit y ≈ floor + (peak − floor) exp(−(x/scale)²)
    /// over the samples with x in `range`.
    DecayFit,
    /// Mean duration in x of the complete runs of samples with y in `range` (a stick time).
    Dwell,
    Difference,
    Sum,
    Ratio,
    RelativeDifference,
}

impl MetricKind {
    pub fn needs_run(self) -> bool {
        !matches!(
            self,
            MetricKind::Difference | MetricKind::Sum | MetricKind::Ratio | MetricKind::RelativeDifference
        )
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CheckSpec {
    pub metric: String,
    #[serde(default)]
    pub op: Op,
    pub expected: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tol: Option<Tol>,
    /// Written as a one-key map: `{published: {line}}`, `{derived: "..."}`, `{claim: {kind, lines}}`,
    /// `{transcribed: {line}}`.
    #[serde(with = "serde_yaml::with::singleton_map")]
    #[schemars(with = "Provenance")]
    pub provenance: Provenance,
    /// What kind of known discrepancy this is (required with `known_discrepancy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discrepancy: Option<DiscrepancyKind>,
    /// The computed value does not meet the expected one, and the evidence why: reported, not
    /// failing. Its kind is `discrepancy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known_discrepancy: Option<String>,
    /// Parameters that could explain a known discrepancy: `cargo xtask explain` solves for the
    /// value of each that reproduces `expected`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explain: Vec<Explain>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Why the tolerance is what it is: half the last printed digit, a derived bound with its
    /// derivation, or the spread of an ensemble. Required when a `within` check allows more than
    /// [`CheckSpec::LOOSE`] of its expected value; a tolerance widened after a first failure
    /// says so here, with the first failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance_reason: Option<String>,
}

impl CheckSpec {
    /// A relative tolerance above this (5 %) must be justified in `tolerance_reason`.
    pub const LOOSE: f64 = 0.05;

    /// The allowed deviation of a `within` check over |expected|, or None for `lt`/`gt` and
    /// an expected value of 0 (no scale to be relative to).
    pub fn relative_tolerance(&self) -> Option<f64> {
        if self.op != Op::Within || self.expected == 0.0 {
            return None;
        }
        let tol = self.tol.unwrap_or(Tol { abs: None, rel: None });
        Some(tol.allowed(self.expected) / self.expected.abs())
    }

    /// Whether the tolerance is loose enough to need a written `tolerance_reason` (and has
    /// none).
    pub fn lacks_tolerance_reason(&self) -> bool {
        let loose = self
            .relative_tolerance()
            .is_some_and(|r| r > Self::LOOSE * (1.0 + 1e-9));
        loose && self.tolerance_reason.as_deref().is_none_or(|r| r.trim().is_empty())
    }
}

// Declared once: the report (`fric_report::DiscrepancyKind`) uses this type. (A `//`
// comment: a doc comment would enter the JSON Schema.)
/// The kind of a known discrepancy: only the first two may be called the source's.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum DiscrepancyKind {
    /// The source's arithmetic or a printed formula shown wrong by a computation in the
    /// evidence, independent of the project's simulation.
    SourceError,
    /// An unstated value of the source explains it: found by `cargo xtask explain` (the check
    /// lists the parameter under `explain`).
    Assumption,
    /// Not explained yet: the evidence says what was ruled out.
    Unresolved,
}

impl DiscrepancyKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [DiscrepancyKind; 3] = [
        DiscrepancyKind::SourceError,
        DiscrepancyKind::Assumption,
        DiscrepancyKind::Unresolved,
    ];

    /// The name manifests and report.json write: `source-error`, `assumption`, `unresolved`.
    pub fn as_str(self) -> &'static str {
        match self {
            DiscrepancyKind::SourceError => "source-error",
            DiscrepancyKind::Assumption => "assumption",
            DiscrepancyKind::Unresolved => "unresolved",
        }
    }

    /// What the kind means, for a reader of the report.
    pub fn meaning(self) -> &'static str {
        match self {
            DiscrepancyKind::SourceError => {
                "an error of the source: its arithmetic or a printed formula, shown wrong by a computation in the evidence"
            }
            DiscrepancyKind::Assumption => {
                "a value the source does not state explains it (found by cargo xtask explain)"
            }
            DiscrepancyKind::Unresolved => {
                "not explained yet, not attributed to the source: the evidence says what was ruled out"
            }
        }
    }
}

/// The parameter of a `decay-fit` metric.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum FitPart {
    /// The limit as |x| → ∞.
    Floor,
    /// The value at x = 0.
    Peak,
    /// The decay scale, in the unit of x.
    Scale,
    /// The root-mean-square residual, in the unit of y.
    Rms,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    /// |computed − expected| ≤ tol.
    #[default]
    Within,
    /// computed < expected.
    Lt,
    /// computed > expected.
    Gt,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Tol {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abs: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rel: Option<f64>,
}

impl Tol {
    /// The allowed deviation for an expected value: the larger of the two bounds.
    pub fn allowed(&self, expected: f64) -> f64 {
        self.abs.unwrap_or(0.0).max(self.rel.unwrap_or(0.0) * expected.abs())
    }
}

/// Where an expected value comes from: exactly one of the three.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub enum Provenance {
    /// A number printed in the source.
    Published {
        line: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        quote: Option<String>,
    },
    /// A value worked out from the source's equations and parameters: the one-line derivation.
    Derived(String),
    /// A value copied from the source that the project cannot compute independently (a measured
    /// table row, a coefficient it cannot refit, a run's own input read back): shown beside the
    /// checks as a transcription, counted apart from them, never as a passed check.
    Transcribed {
        line: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        quote: Option<String>,
    },
    /// A qualitative statement of the source, turned into a numeric test.
    Claim {
        kind: ClaimKind,
        lines: Vec<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    RateIndependence,
    RateDependence,
    LocalMemory,
    NonlocalMemory,
    Clockwise,
    Counterclockwise,
    ConvergenceAsOmegaToZero,
    Hysteretic,
    NotHysteretic,
    Bound,
    Equivalence,
    Symmetry,
    Shape,
    InEquilibria,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// The column headings (with `from_metrics` and no rows: may be left out, then the swept
    /// parameters and the metrics with their units).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    /// Cells as text; `{{ name }}` or `{{ name | fmt(".3g") }}` is replaced by a metric's value
    /// (`name[k]` for member k of a metric table), formatted `.Ng` (N significant digits),
    /// `.Ne` (scientific, N decimals) or `.Nf` (fixed, N decimals); default: shortest exact.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rows: Vec<Vec<String>>,
    /// Lines in the seed the rows are transcribed from (none for a document without a source).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Rows generated from metric tables (metrics over the same swept run): one row per
    /// member, its sweep coordinates then each metric's value; after the written `rows`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_metrics: Option<TableFromMetrics>,
}

/// Rows generated from metric tables.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TableFromMetrics {
    /// Metrics over one swept run.
    pub metrics: Vec<String>,
    /// Number format of the values (`.4g`, `.3e`, `.2f`); default: shortest exact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

/// A parameter that could explain a known discrepancy, and the range to search.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Explain {
    /// The run whose parameter is varied (a run id of this manifest).
    pub run: String,
    /// Parameter name, or `input.<field>`.
    pub param: String,
    /// `[lo, hi]`: the values the search may try (a physically allowed range).
    pub range: [f64; 2],
    /// Relative precision of the value found (the bracket's final width over its size), between
    /// 1e-12 and 0.1; default 1e-4 (four significant digits). A coarser one is for chains whose
    /// every step is a costly run and whose metric jumps with the parameter (then the extra
    /// digits only place the jump); say why in the manifest's assumptions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xtol: Option<f64>,
}
