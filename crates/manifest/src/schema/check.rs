//! Metrics computed from runs, checks against published or derived values, and tables.

use super::Window;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// `value-at`: read y on the samples where x increases (`ascending`) or decreases
    /// (`descending`) only: one branch of a loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<Branch>,
    /// `decay-fit`: which fitted parameter is the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<FitPart>,
    /// `max-diff`: the series compared against (same sampling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<OtherSeries>,
    /// A metric of metrics: the earlier metrics it is computed from (`[a, b]` for `difference`,
    /// `sum`, `ratio`, `relative-difference`; one name for `negate`, `abs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<Operands>,
    /// `constant`: its value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// `fitted`: the fit result of another manifest it takes, `<doc>/<name>#<fit>.<param>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit: Option<String>,
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

/// One branch of a loop: the samples where x increases, or where it decreases.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Branch {
    Ascending,
    Descending,
}

impl Branch {
    /// Its name as a manifest writes it.
    pub fn name(self) -> &'static str {
        match self {
            Branch::Ascending => "ascending",
            Branch::Descending => "descending",
        }
    }
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

/// A metric kind by name (`loop-area`, `max`, `difference`, ...). The kinds are declared, each
/// with its evaluation, in `fric_pipeline::evaluate::metric_kinds`, which evaluation needs run data
/// this crate does not know; the loader checks the name against that registry, and the JSON
/// Schema lists the names it holds.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, Hash)]
#[serde(transparent)]
pub struct MetricKind(pub String);

/// A string here; [`crate::json_schema`] adds the registry's names as its alternatives.
impl JsonSchema for MetricKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "MetricKind".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "description": "A metric kind (`cargo xtask schema` lists them)."})
    }
}

/// The earlier metrics a metric of metrics is computed from: one name (`negate`, `abs`) or a
/// list (`[a, b]` for `difference`, `ratio`, ...).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged, expecting = "a metric name or a list of metric names")]
pub enum Operands {
    One(String),
    Many(Vec<String>),
}

impl Operands {
    /// The metric names, in order.
    pub fn names(&self) -> Vec<&str> {
        match self {
            Operands::One(n) => vec![n.as_str()],
            Operands::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
    /// The metric names, to be rewritten in place (a member's `name[k]`).
    pub fn names_mut(&mut self) -> Vec<&mut String> {
        match self {
            Operands::One(n) => vec![n],
            Operands::Many(v) => v.iter_mut().collect(),
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CheckSpec {
    pub metric: String,
    #[serde(default)]
    pub op: Op,
    /// A number, or `{metric: NAME}`: an earlier metric's value (a check comparing two metrics).
    pub expected: Expected,
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
    /// The magnitude of the quantity an `lt` bound is on, in the metric's unit (the peak force
    /// of the two loops a `max-diff` compares, the swing a residual is taken of): an upper bound
    /// at most 1e-6 of it is at solver precision and needs no `tolerance_reason`. Without it
    /// every bound other than 0 says where its threshold comes from. Never a bare number: it
    /// names what it measures (`scale_of`), and the pipeline compares it with that.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<f64>,
    /// What `scale` is the size of (required with it, code review M4): a column of a run
    /// (`{run, y}`), whose largest |value| the evaluation measures and refuses the check, at
    /// its line, when `scale` is off it by more than [`SCALE_FACTOR`] either way; or
    /// `relative`, a bound on a relative error (dimensionless, `scale: 1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_of: Option<ScaleOf>,
}

/// How far a declared `scale` may lie from the measured magnitude it names, as a factor either
/// way: the scale sets the solver-precision exemption of an `lt` bound (1e-6 × scale), so a
/// scale off by this factor moves the exemption by as much, never by an order of magnitude.
pub const SCALE_FACTOR: f64 = 2.0;

/// What a check's `scale` measures.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum ScaleOf {
    /// `relative`: the bounded metric is a relative error; its scale is 1.
    Word(ScaleWord),
    /// `{run, y}`: the largest |y| of the run (over the whole run).
    Column(ScaleColumn),
}

/// The words `scale_of` takes.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ScaleWord {
    Relative,
}

/// `{run: ID, y: COLUMN}`: a column of one of the manifest's runs (a sweep member as `id[k]`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScaleColumn {
    pub run: String,
    pub y: String,
}

impl CheckSpec {
    /// A relative tolerance above this (5 %) must be justified in `tolerance_reason`.
    pub const LOOSE: f64 = 0.05;

    /// The allowed deviation of a `within` check over |expected|, or None for `lt`/`gt` and
    /// an expected value of 0 (no scale to be relative to).
    pub fn relative_tolerance(&self) -> Option<f64> {
        let expected = self.expected.number()?;
        if self.op != Op::Within || expected == 0.0 {
            return None;
        }
        let tol = self.tol.unwrap_or(Tol { abs: None, rel: None });
        Some(tol.allowed(expected) / expected.abs())
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

/// What a check compares its metric with.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged, expecting = "a number, or {metric: NAME} for an earlier metric's value")]
pub enum Expected {
    Number(f64),
    /// Another metric of the manifest, computed before the check is judged.
    Metric(MetricRef),
}

/// `{metric: NAME}`: a metric of the same manifest.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MetricRef {
    pub metric: String,
}

impl Expected {
    /// The number written, `None` for another metric.
    pub fn number(&self) -> Option<f64> {
        match self {
            Expected::Number(v) => Some(*v),
            Expected::Metric(_) => None,
        }
    }
    /// The other metric's name, `None` for a number.
    pub fn metric(&self) -> Option<&str> {
        match self {
            Expected::Number(_) => None,
            Expected::Metric(m) => Some(&m.metric),
        }
    }
}

// Declared once: the report (`fric_report::DiscrepancyKind`) uses this type. (A `//`
// comment: a doc comment would enter the JSON Schema.)
crate::named_enum! {
    /// The kind of a known discrepancy: only the first two may be called the source's.
    #[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum DiscrepancyKind {
        /// The source's arithmetic or a printed formula shown wrong by a computation in the
        /// evidence, independent of the project's simulation.
        SourceError = "source-error",
        /// An unstated value of the source explains it: found by `cargo xtask explain` (the check
        /// lists the parameter under `explain`).
        Assumption = "assumption",
        /// Not explained yet: the evidence says what was ruled out.
        Unresolved = "unresolved",
    }
}

impl DiscrepancyKind {
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

crate::named_enum! {
    #[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
    pub enum Op {
        /// |computed − expected| ≤ tol.
        #[default]
        Within = "within",
        /// computed < expected.
        Lt = "lt",
        /// computed > expected.
        Gt = "gt",
    }
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
        /// The number exactly as the source prints it (`"0.740"`, `"-17000"`, `"2.4e-3"`):
        /// half a unit of its last digit is the tolerance its digits justify. Required on a
        /// `within` check of a number; a looser tolerance needs a `tolerance_reason`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        printed: Option<String>,
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

crate::named_enum! {
    #[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
    pub enum ClaimKind {
        RateIndependence = "rate-independence",
        RateDependence = "rate-dependence",
        LocalMemory = "local-memory",
        NonlocalMemory = "nonlocal-memory",
        Clockwise = "clockwise",
        Counterclockwise = "counterclockwise",
        ConvergenceAsOmegaToZero = "convergence-as-omega-to-zero",
        Hysteretic = "hysteretic",
        NotHysteretic = "not-hysteretic",
        Bound = "bound",
        Equivalence = "equivalence",
        Symmetry = "symmetry",
        Shape = "shape",
        InEquilibria = "in-equilibria",
    }
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

/// Rows generated from metrics: every value is a record (its coordinates, its quantity, its
/// value); records with the same coordinates share a row, each quantity has a column, and a
/// `pivot` parameter spreads its values across the columns.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TableFromMetrics {
    /// The metrics: a name (a metric over a swept run gives one record per member at its sweep
    /// coordinates, even when the run is taken by `from:`; a single metric one record), or
    /// `{metric, at: {N: 4}, as: area}` to add coordinates and name the quantity (several runs,
    /// one per value of N, in one table).
    pub metrics: Vec<TableMetric>,
    /// Number format of the values (`.4g`, `.3e`, `.2f`); default `.4g` (four significant
    /// digits). A value within the metric's absolute baseline tolerance of zero prints `0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// A coordinate whose values go across (amplitude down, N across): one column per value
    /// (per quantity when there are several), the other coordinates down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pivot: Option<String>,
}

/// One metric of a generated table.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(
    untagged,
    expecting = "a metric name, or {metric: NAME, at: {PARAM: VALUE}, as: QUANTITY}"
)]
pub enum TableMetric {
    Name(String),
    Placed(PlacedMetric),
}

/// A metric with extra coordinates and the name of its column.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlacedMetric {
    pub metric: String,
    /// Coordinates added to each of its records (`{N: 4}` for the copy of a run with 4 elements).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub at: BTreeMap<String, f64>,
    /// The quantity (column) its values belong to; default the metric's name.
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub quantity: Option<String>,
}

impl TableMetric {
    /// The metric's name.
    pub fn metric(&self) -> &str {
        match self {
            TableMetric::Name(n) => n,
            TableMetric::Placed(p) => &p.metric,
        }
    }

    /// The coordinates it adds.
    pub fn at(&self) -> BTreeMap<String, f64> {
        match self {
            TableMetric::Name(_) => BTreeMap::new(),
            TableMetric::Placed(p) => p.at.clone(),
        }
    }

    /// Its column's quantity.
    pub fn quantity(&self) -> &str {
        match self {
            TableMetric::Name(n) => n,
            TableMetric::Placed(p) => p.quantity.as_deref().unwrap_or(&p.metric),
        }
    }
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
