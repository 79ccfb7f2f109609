//! Runs: parameters, simulation settings, sweeps, post-processing (the input is `input.rs`).

use super::InputSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A parameter value: a number, a list of numbers, or the long form with unit and source line.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(
    untagged,
    expecting = "a number, a list of numbers, a mapping {value, unit, line}, {const: NAME} or {fitted: \"<doc>/<name>#<fit>.<param>\"}"
)]
pub enum ParamValue {
    Number(f64),
    List(Vec<f64>),
    Long(LongParam),
    /// `{const: NAME}`: a constant declared once in the document's `document.yaml`
    /// (`constants:`), replaced by its value, unit and line when the manifest is loaded.
    Const(ConstRef),
    /// `{fitted: "<doc>/<name>#<fit>.<param>"}`: the value a fit of another manifest finds,
    /// evaluated before this manifest's runs are planned (its value in the run's cache key).
    Fitted(FittedRef),
}

/// A reference to a fit result of another manifest, set as a run parameter.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FittedRef {
    /// `<doc>/<name>#<fit>.<param>`: the manifest, its fit and the fitted parameter.
    pub fitted: String,
}

/// A reference to a document constant.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ConstRef {
    #[serde(rename = "const")]
    pub name: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LongParam {
    pub value: NumberOrList,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Seed line the value is printed on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged, expecting = "a number or a list of numbers")]
pub enum NumberOrList {
    Number(f64),
    List(Vec<f64>),
}

impl ParamValue {
    /// The numeric content: a scalar is a one-element slice. Empty for an unresolved
    /// `{const: NAME}` or `{fitted: ...}` (the loader replaces every one, or reports it).
    pub fn values(&self) -> Vec<f64> {
        match self {
            ParamValue::Number(v) => vec![*v],
            ParamValue::List(v) => v.clone(),
            ParamValue::Long(l) => match &l.value {
                NumberOrList::Number(v) => vec![*v],
                NumberOrList::List(v) => v.clone(),
            },
            ParamValue::Const(_) | ParamValue::Fitted(_) => Vec::new(),
        }
    }
    pub fn is_list(&self) -> bool {
        matches!(
            self,
            ParamValue::List(_)
                | ParamValue::Long(LongParam {
                    value: NumberOrList::List(_),
                    ..
                })
        )
    }
    pub fn unit(&self) -> Option<&str> {
        match self {
            ParamValue::Long(l) => l.unit.as_deref(),
            _ => None,
        }
    }
}

/// One simulation or analytic evaluation.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// Unique within the manifest; panels and metrics refer to it.
    pub id: String,
    /// Reuse a run of another manifest: `<doc>/<name>#<run id>`. Excludes every other field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The system: a model in one configuration (`cargo xtask schema` lists them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamValue>,
    /// List parameters generated from an element count and one rule each
    /// (`{n: 4, each: {k: "1/n", delta: "i/n"}}`); the count is swept as `elements.n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<super::ElementSet>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<InputSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sim: Option<SimSpec>,
    /// Expand into one run per value: ids become `<id>[0]`, `<id>[1]`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<Sweep>,
    /// Derived columns computed from the run's columns after it is loaded (not part of the
    /// cache key): moving averages, gradients, integrals, ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub post: Vec<PostOp>,
}

/// One post-processing step: a new column `name` computed from column `of`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PostOp {
    pub name: String,
    pub op: PostKind,
    pub of: String,
    /// `ewma`: the weight β of the newest sample; `moving-average`: the window in samples;
    /// `scale`: the factor; `offset`: the added constant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<f64>,
    /// `gradient`, `cumulative-integral`: the independent column (default `t`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// `shear`: the value of `by` the plane is sheared about, `of − param · (by − at)` (default
    /// 0): the sheared curve keeps its values at `by = at`, so a loop away from `by = 0` stays
    /// centred where it is drawn. It must lie within the `by` column's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<f64>,
}

crate::named_enum! {
    #[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
    pub enum PostKind {
        /// Exponentially weighted moving average `m_k = β y_k + (1 − β) m_{k−1}`, `m_0 = y_0`.
        Ewma = "ewma",
        /// Centred moving average over `param` samples (shrinking at the ends).
        MovingAverage = "moving-average",
        Abs = "abs",
        /// d(of)/d(by) by central differences (one-sided at the ends).
        Gradient = "gradient",
        /// Trapezoidal ∫ of d(by) from the first sample.
        CumulativeIntegral = "cumulative-integral",
        Scale = "scale",
        Offset = "offset",
        /// `of` where it rises from the previous sample, NaN elsewhere: selects the increasing trace
        /// of a loop (metrics skip NaN samples through their `range`).
        Rising = "rising",
        /// `of` where `|by| ≤ param`, NaN elsewhere: e.g. the error only while at rest.
        Gate = "gate",
        /// `of` minus its value at its last reversal (the last sample where it changed direction;
        /// the first sample before any): the displacement since the last velocity reversal, the
        /// report's space variable s (3.5) with its sign.
        SinceReversal = "since-reversal",
        /// `of − param · (by − at)`: the (by, of) plane sheared along `by` about `by = at` (default
        /// 0), e.g. `f − k (x − x₀)` with a loop's mean slope `k` taken out so that thin hysteresis
        /// loops open, centred on the loops' `x₀`.
        Shear = "shear",
    }
}

/// Simulation settings.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SimSpec {
    /// Duration in input periods (exclusive with `t_end` and `steady_state`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periods: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t_end: Option<f64>,
    /// Run whole periods until the state repeats, then record one more period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady_state: Option<SteadyState>,
    /// Output samples per input period (or over `t_end` without a period).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples_per_period: Option<usize>,
    /// How the run is computed; unset: its system's default (the first it lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<super::MethodName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtol: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub atol: Option<f64>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SteadyState {
    /// Largest period-to-period change accepted (max norm relative to 1 + |x|); with
    /// `shooting`, the largest residual |P(x) − x| of the period map P in the same norm.
    pub tol: f64,
    /// At most this many periods integrated (with `shooting`: period maps, Jacobian columns
    /// included).
    pub max_periods: usize,
    /// Find the periodic steady state by Newton's method on the period map (finite-difference
    /// Jacobian, backtracking, iteration as a fallback) instead of integrating period after
    /// period: far fewer periods for lightly damped systems. The steady period is recorded from
    /// t = 0.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shooting: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// One parameter: a parameter name, or `input.<field>` for a field of the input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<String>,
    /// The values of `param`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<f64>>,
    /// Several parameters, every combination (cartesian product, the last one varying fastest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grid: Vec<SweepAxis>,
    /// Several parameters taken together, value k of each for member k (equal lengths).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zip: Vec<SweepAxis>,
}

/// One swept parameter of a `grid` or `zip` sweep, or (in a `grid` only) a `zip` of several
/// parameters taken together as one axis of the grid.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SweepAxis {
    /// A parameter name, `input.<field>`, `sim.<field>` or `elements.n` (empty for a `zip` axis).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub param: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<f64>,
    /// In a `grid`: parameters varied together as one axis (value k of each), instead of
    /// `param` and `values`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zip: Vec<SweepAxis>,
}

/// The coordinates of one sweep member: (parameter, value) in the order the sweep names them.
pub type Coords = Vec<(String, f64)>;

/// What is wrong with a sweep: (field path under `sweep`, message, allowed).
pub type SweepError = (String, String, String);

impl Sweep {
    /// The members' coordinates in row-major order (the last axis of a grid varies fastest; a
    /// zipped axis of a grid contributes its parameters together), or what is wrong.
    pub fn members(&self) -> Result<Vec<Coords>, SweepError> {
        let forms = [
            self.param.is_some() || self.values.is_some(),
            !self.grid.is_empty(),
            !self.zip.is_empty(),
        ];
        let allowed =
            "{param, values}, {grid: [{param, values} or {zip: [...]}, ...]} or {zip: [{param, values}, ...]}";
        if forms.iter().filter(|f| **f).count() != 1 {
            return Err((
                String::new(),
                "a sweep is exactly one of three forms".into(),
                allowed.into(),
            ));
        }
        if forms[0] {
            let (Some(p), Some(v)) = (&self.param, &self.values) else {
                return Err((
                    String::new(),
                    "a one-parameter sweep needs both `param` and `values`".into(),
                    allowed.into(),
                ));
            };
            if v.is_empty() {
                return Err(("values".into(), "empty sweep".into(), "at least one value".into()));
            }
            return Ok(v.iter().map(|x| vec![(p.clone(), *x)]).collect());
        }
        let named = self.named();
        let twice = named
            .iter()
            .enumerate()
            .find_map(|(i, (p, at))| named[..i].iter().find(|(q, _)| q == p).map(|(_, first)| (p, at, first)));
        if let Some((p, at, first)) = twice {
            return Err((
                format!("{at}.param"),
                format!("`{p}` is swept twice (also {first})"),
                "each parameter once".into(),
            ));
        }
        if forms[1] {
            let mut out: Vec<Coords> = vec![Vec::new()];
            for (i, a) in self.grid.iter().enumerate() {
                let tuples = axis_tuples(a, format!("grid[{i}]"), true)?;
                out = out
                    .into_iter()
                    .flat_map(|c| {
                        tuples.iter().map(move |t| {
                            let mut c = c.clone();
                            c.extend(t.iter().cloned());
                            c
                        })
                    })
                    .collect();
            }
            Ok(out)
        } else {
            zip_tuples(&self.zip, "zip")
        }
    }

    /// The swept parameters, in order (a grid's zipped axes flattened).
    pub fn params(&self) -> Vec<String> {
        match &self.param {
            Some(p) => vec![p.clone()],
            None => self.named().into_iter().map(|(p, _)| p).collect(),
        }
    }

    /// Each swept parameter of a grid or zip with the path of its axis (`grid[1].zip[0]`), in order.
    fn named(&self) -> Vec<(String, String)> {
        fn flat(axes: &[SweepAxis], at: &str, out: &mut Vec<(String, String)>) {
            for (i, a) in axes.iter().enumerate() {
                if a.zip.is_empty() {
                    out.push((a.param.clone(), format!("{at}[{i}]")));
                } else {
                    flat(&a.zip, &format!("{at}[{i}].zip"), out);
                }
            }
        }
        let mut out = Vec::new();
        flat(&self.grid, "grid", &mut out);
        flat(&self.zip, "zip", &mut out);
        out
    }

    /// The field path under `sweep` where the swept parameter `param` is named
    /// (`grid[1].zip[0].param`), or `param` for a one-parameter sweep.
    pub fn field_of(&self, param: &str) -> String {
        self.named()
            .into_iter()
            .find(|(p, _)| p == param)
            .map_or_else(|| "param".into(), |(_, at)| format!("{at}.param"))
    }

    /// How many members the sweep has, computed without expanding it; saturating.
    pub fn len(&self) -> u64 {
        if let Some(v) = &self.values {
            return v.len() as u64;
        }
        if !self.grid.is_empty() {
            return self.grid.iter().fold(1u64, |n, a| n.saturating_mul(axis_len(a)));
        }
        self.zip.iter().map(axis_len).max().unwrap_or(0)
    }

    /// Whether the sweep has no member.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The values one axis contributes (a zipped axis: its longest list).
fn axis_len(a: &SweepAxis) -> u64 {
    if a.zip.is_empty() {
        a.values.len() as u64
    } else {
        a.zip.iter().map(axis_len).max().unwrap_or(0)
    }
}

/// The coordinate tuples of one axis at `path` (`grid[1]`): one `(param, value)` per value, or
/// value k of each zipped parameter for a zipped axis (allowed only in a grid, `nested_ok`).
fn axis_tuples(a: &SweepAxis, path: String, nested_ok: bool) -> Result<Vec<Coords>, SweepError> {
    let bad = |field: &str, msg: String, allowed: &str| Err((format!("{path}{field}"), msg, allowed.to_string()));
    if !a.zip.is_empty() {
        if !nested_ok {
            return bad(".zip", "a zip inside a zip".into(), "{param, values} in a zip");
        }
        if !a.param.is_empty() || !a.values.is_empty() {
            return bad(
                "",
                "an axis is either {param, values} or {zip: [...]}, not both".into(),
                "{param, values} or {zip: [{param, values}, ...]}",
            );
        }
        return zip_tuples(&a.zip, &format!("{path}.zip"));
    }
    if a.param.is_empty() {
        return bad(
            "",
            "an axis needs `param` and `values`".into(),
            if nested_ok {
                "{param, values} or {zip: [{param, values}, ...]}"
            } else {
                "{param, values}"
            },
        );
    }
    if a.values.is_empty() {
        return bad(".values", "empty sweep".into(), "at least one value");
    }
    Ok(a.values.iter().map(|v| vec![(a.param.clone(), *v)]).collect())
}

/// Value k of each axis of a zip at `path` (`zip`, `grid[0].zip`), for member k.
fn zip_tuples(axes: &[SweepAxis], path: &str) -> Result<Vec<Coords>, SweepError> {
    let cols = axes
        .iter()
        .enumerate()
        .map(|(i, a)| axis_tuples(a, format!("{path}[{i}]"), false))
        .collect::<Result<Vec<_>, _>>()?;
    let n = cols[0].len();
    if let Some(i) = cols.iter().position(|c| c.len() != n) {
        return Err((
            format!("{path}[{i}].values"),
            format!("{} values, {path}[0] has {n}", cols[i].len()),
            "the same number of values in every zipped parameter".into(),
        ));
    }
    Ok((0..n)
        .map(|k| cols.iter().flat_map(|c| c[k].iter().cloned()).collect())
        .collect())
}

crate::named_enum! {
    #[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
    pub enum Scale {
        #[default]
        Linear = "linear",
        Log = "log",
        /// Symmetric grid: log-spaced magnitudes on both signs (for curves through zero).
        SymLog = "sym-log",
    }
}
