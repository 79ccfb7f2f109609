//! Runs: parameters, simulation settings, sweeps, post-processing (the input is `input.rs`).

use super::InputSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A parameter value: a number, a list of numbers, or the long form with unit and source line.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(
    untagged,
    expecting = "a number, a list of numbers, a mapping {value, unit, line} or {const: NAME}"
)]
pub enum ParamValue {
    Number(f64),
    List(Vec<f64>),
    Long(LongParam),
    /// `{const: NAME}`: a constant declared once in the document's `document.yaml`
    /// (`constants:`), replaced by its value, unit and line when the manifest is loaded.
    Const(ConstRef),
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
    /// `{const: NAME}` (the loader replaces every one, or reports it).
    pub fn values(&self) -> Vec<f64> {
        match self {
            ParamValue::Number(v) => vec![*v],
            ParamValue::List(v) => v.clone(),
            ParamValue::Long(l) => match &l.value {
                NumberOrList::Number(v) => vec![*v],
                NumberOrList::List(v) => v.clone(),
            },
            ParamValue::Const(_) => Vec::new(),
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
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum PostKind {
    /// Exponentially weighted moving average `m_k = β y_k + (1 − β) m_{k−1}`, `m_0 = y_0`.
    Ewma,
    /// Centred moving average over `param` samples (shrinking at the ends).
    MovingAverage,
    Abs,
    /// d(of)/d(by) by central differences (one-sided at the ends).
    Gradient,
    /// Trapezoidal ∫ of d(by) from the first sample.
    CumulativeIntegral,
    Scale,
    Offset,
    /// `of` where it rises from the previous sample, NaN elsewhere: selects the increasing trace
    /// of a loop (metrics skip NaN samples through their `range`).
    Rising,
    /// `of` where `|by| ≤ param`, NaN elsewhere: e.g. the error only while at rest.
    Gate,
    /// `of` minus its value at its last reversal (the last sample where it changed direction;
    /// the first sample before any): the displacement since the last velocity reversal, the
    /// report's space variable s (3.5) with its sign.
    SinceReversal,
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
    pub method: Option<super::Method>,
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

/// One swept parameter of a `grid` or `zip` sweep.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SweepAxis {
    /// A parameter name, or `input.<field>` for a field of the input.
    pub param: String,
    pub values: Vec<f64>,
}

/// The coordinates of one sweep member: (parameter, value) in the order the sweep names them.
pub type Coords = Vec<(String, f64)>;

impl Sweep {
    /// The members' coordinates in row-major order (the last parameter of a grid varies
    /// fastest), or what is wrong: (field path under `sweep`, message, allowed).
    pub fn members(&self) -> Result<Vec<Coords>, (String, String, String)> {
        let forms = [
            self.param.is_some() || self.values.is_some(),
            !self.grid.is_empty(),
            !self.zip.is_empty(),
        ];
        let allowed = "{param, values}, {grid: [{param, values}, ...]} or {zip: [{param, values}, ...]}";
        if forms.iter().filter(|f| **f).count() != 1 {
            return Err((
                String::new(),
                "a sweep is exactly one of three forms".into(),
                allowed.into(),
            ));
        }
        let bad = |path: String, msg: String, allowed: &str| Err((path, msg, allowed.to_string()));
        if forms[0] {
            let (Some(p), Some(v)) = (&self.param, &self.values) else {
                return bad(
                    String::new(),
                    "a one-parameter sweep needs both `param` and `values`".into(),
                    allowed,
                );
            };
            if v.is_empty() {
                return bad("values".into(), "empty sweep".into(), "at least one value");
            }
            return Ok(v.iter().map(|x| vec![(p.clone(), *x)]).collect());
        }
        let (axes, name) = if forms[1] {
            (&self.grid, "grid")
        } else {
            (&self.zip, "zip")
        };
        for (i, a) in axes.iter().enumerate() {
            if a.values.is_empty() {
                return bad(
                    format!("{name}[{i}].values"),
                    "empty sweep".into(),
                    "at least one value",
                );
            }
            if let Some(j) = axes[..i].iter().position(|b| b.param == a.param) {
                return bad(
                    format!("{name}[{i}].param"),
                    format!("`{}` is swept twice (also {name}[{j}])", a.param),
                    "each parameter once",
                );
            }
        }
        if forms[1] {
            let mut out: Vec<Coords> = vec![Vec::new()];
            for a in axes {
                out = out
                    .into_iter()
                    .flat_map(|c| {
                        a.values.iter().map(move |v| {
                            let mut c = c.clone();
                            c.push((a.param.clone(), *v));
                            c
                        })
                    })
                    .collect();
            }
            Ok(out)
        } else {
            let n = axes[0].values.len();
            if let Some(i) = axes.iter().position(|a| a.values.len() != n) {
                return bad(
                    format!("zip[{i}].values"),
                    format!("{} values, zip[0] has {n}", axes[i].values.len()),
                    "the same number of values in every zipped parameter",
                );
            }
            Ok((0..n)
                .map(|k| axes.iter().map(|a| (a.param.clone(), a.values[k])).collect())
                .collect())
        }
    }

    /// The swept parameters, in order.
    pub fn params(&self) -> Vec<String> {
        match &self.param {
            Some(p) => vec![p.clone()],
            None => self.grid.iter().chain(&self.zip).map(|a| a.param.clone()).collect(),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    #[default]
    Linear,
    Log,
    /// Symmetric grid: log-spaced magnitudes on both signs (for curves through zero).
    SymLog,
}
