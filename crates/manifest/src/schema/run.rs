//! Runs: parameters, input signals and grids, simulation settings, sweeps, post-processing.

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

/// The input signal or evaluation grid. Deserialised through [`InputFields`] (a plain struct)
/// so that a wrong value type is reported at its own line.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case", try_from = "InputFields")]
pub enum InputSpec {
    /// `offset + amplitude sin(omega t + phase)`.
    Sine {
        amplitude: f64,
        omega: f64,
        phase: f64,
        offset: f64,
    },
    /// `offset + amplitude cos(omega t + phase)`.
    Cosine {
        amplitude: f64,
        omega: f64,
        phase: f64,
        offset: f64,
    },
    /// Sinusoidal pieces of one frequency, each starting after a number of periods.
    SwitchedSine { omega: f64, pieces: Vec<SinePiece> },
    /// An evaluation grid for analytic curves.
    Grid {
        from: f64,
        to: f64,
        points: usize,
        scale: Scale,
    },
    /// No input: an autonomous system (run for `sim.t_end`).
    None,
    /// `offset + amplitude tri(omega t + phase)`: a triangle wave with the sine's phase
    /// convention (0 at t = 0 rising, extrema where the sine has them).
    Triangle {
        amplitude: f64,
        omega: f64,
        phase: f64,
        offset: f64,
    },
    /// `offset + amplitude sin θ |sin θ|`, `θ = omega t + phase`: a signed squared sine, whose
    /// derivative `2 amplitude omega |sin θ| cos θ` is the report's passivity test velocity
    /// `A sgn(sin 2πt) sin 4πt` (L930) for `amplitude = A/(2π)`, `omega = 2π`.
    SignedSquareSine {
        amplitude: f64,
        omega: f64,
        phase: f64,
        offset: f64,
    },
    /// A continuous sawtooth: rises for `width` of the period (0 < width < 1), falls for the rest;
    /// 0 at t = 0 rising (phase 0). `width: 0.5` is the triangle.
    Sawtooth {
        amplitude: f64,
        omega: f64,
        phase: f64,
        offset: f64,
        width: f64,
    },
    /// Hold `from` until `start`, ramp linearly to `to` over `ramp` seconds, then hold `to`.
    RampHold { from: f64, to: f64, ramp: f64, start: f64 },
    /// Linear interpolation through `[t, u]` points (t strictly increasing), constant beyond
    /// the first and last point.
    PiecewiseLinear { points: Vec<[f64; 2]> },
    /// `offset + Σ amplitude_k sin(omega_k t + phase_k)`.
    SumOfSines {
        components: Vec<SineComponent>,
        offset: f64,
    },
    /// Samples read from a CSV file under `data/` (with a header row), linearly interpolated and
    /// held constant beyond the ends; the file's sha256 is part of the run's cache key.
    Csv {
        path: String,
        t_column: String,
        u_column: String,
    },
}

impl InputSpec {
    /// Whether the input repeats with a period (`sim.periods` and `sim.steady_state` need one).
    pub fn is_periodic(&self) -> bool {
        matches!(
            self,
            InputSpec::Sine { .. }
                | InputSpec::Cosine { .. }
                | InputSpec::SwitchedSine { .. }
                | InputSpec::Triangle { .. }
                | InputSpec::SignedSquareSine { .. }
                | InputSpec::Sawtooth { .. }
        )
    }
}

/// One term of a `sum-of-sines` input.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SineComponent {
    pub amplitude: f64,
    /// rad/s
    pub omega: f64,
    /// rad (default 0)
    #[serde(default)]
    pub phase: f64,
}

/// `points`: a grid's number of points, or a piecewise-linear input's `[t, u]` points.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged, expecting = "a number of grid points, or a list of [t, u] points")]
enum Points {
    Count(usize),
    List(Vec<[f64; 2]>),
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum InputKind {
    Sine,
    Cosine,
    SwitchedSine,
    Grid,
    None,
    Triangle,
    SignedSquareSine,
    Sawtooth,
    RampHold,
    PiecewiseLinear,
    SumOfSines,
    Csv,
}

/// The written form of an input: every field of every kind, checked against the kind.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputFields {
    kind: InputKind,
    amplitude: Option<f64>,
    omega: Option<f64>,
    phase: Option<f64>,
    offset: Option<f64>,
    pieces: Option<Vec<SinePiece>>,
    from: Option<f64>,
    to: Option<f64>,
    points: Option<Points>,
    scale: Option<Scale>,
    width: Option<f64>,
    ramp: Option<f64>,
    start: Option<f64>,
    components: Option<Vec<SineComponent>>,
    path: Option<String>,
    t_column: Option<String>,
    u_column: Option<String>,
}

impl TryFrom<InputFields> for InputSpec {
    type Error = String;
    fn try_from(f: InputFields) -> Result<Self, String> {
        let need =
            |v: Option<f64>, name: &str, kind: &str| v.ok_or_else(|| format!("input kind `{kind}` needs `{name}`"));
        let given: Vec<&str> = [
            ("amplitude", f.amplitude.is_some()),
            ("omega", f.omega.is_some()),
            ("phase", f.phase.is_some()),
            ("offset", f.offset.is_some()),
            ("pieces", f.pieces.is_some()),
            ("from", f.from.is_some()),
            ("to", f.to.is_some()),
            ("points", f.points.is_some()),
            ("scale", f.scale.is_some()),
            ("width", f.width.is_some()),
            ("ramp", f.ramp.is_some()),
            ("start", f.start.is_some()),
            ("components", f.components.is_some()),
            ("path", f.path.is_some()),
            ("t_column", f.t_column.is_some()),
            ("u_column", f.u_column.is_some()),
        ]
        .into_iter()
        .filter(|x| x.1)
        .map(|x| x.0)
        .collect();
        // The fields a kind takes are its declaration's (`kinds.rs`, which `schema` prints).
        let only = |kind: &str| -> Result<(), String> {
            let allowed = super::kind(super::INPUT_KINDS, kind)
                .map(|k| k.field_names())
                .unwrap_or_default();
            match given.iter().find(|g| !allowed.contains(g)) {
                Some(g) => Err(format!(
                    "input kind `{kind}` takes no `{g}` (fields: {})",
                    allowed.join(", ")
                )),
                None => Ok(()),
            }
        };
        Ok(match f.kind {
            InputKind::Sine | InputKind::Cosine => {
                let kind = if f.kind == InputKind::Sine { "sine" } else { "cosine" };
                only(kind)?;
                let (amplitude, omega) = (need(f.amplitude, "amplitude", kind)?, need(f.omega, "omega", kind)?);
                let (phase, offset) = (f.phase.unwrap_or(0.0), f.offset.unwrap_or(0.0));
                if f.kind == InputKind::Sine {
                    InputSpec::Sine {
                        amplitude,
                        omega,
                        phase,
                        offset,
                    }
                } else {
                    InputSpec::Cosine {
                        amplitude,
                        omega,
                        phase,
                        offset,
                    }
                }
            }
            InputKind::SwitchedSine => {
                only("switched-sine")?;
                InputSpec::SwitchedSine {
                    omega: need(f.omega, "omega", "switched-sine")?,
                    pieces: f.pieces.ok_or("input kind `switched-sine` needs `pieces`")?,
                }
            }
            InputKind::None => {
                only("none")?;
                InputSpec::None
            }
            InputKind::Grid => {
                only("grid")?;
                InputSpec::Grid {
                    from: need(f.from, "from", "grid")?,
                    to: need(f.to, "to", "grid")?,
                    points: match f.points {
                        Some(Points::Count(n)) => n,
                        Some(Points::List(_)) => return Err("grid `points` is a number of points".into()),
                        None => return Err("input kind `grid` needs `points`".into()),
                    },
                    scale: f.scale.unwrap_or_default(),
                }
            }
            InputKind::Triangle => {
                only("triangle")?;
                InputSpec::Triangle {
                    amplitude: need(f.amplitude, "amplitude", "triangle")?,
                    omega: need(f.omega, "omega", "triangle")?,
                    phase: f.phase.unwrap_or(0.0),
                    offset: f.offset.unwrap_or(0.0),
                }
            }
            InputKind::SignedSquareSine => {
                only("signed-square-sine")?;
                InputSpec::SignedSquareSine {
                    amplitude: need(f.amplitude, "amplitude", "signed-square-sine")?,
                    omega: need(f.omega, "omega", "signed-square-sine")?,
                    phase: f.phase.unwrap_or(0.0),
                    offset: f.offset.unwrap_or(0.0),
                }
            }
            InputKind::Sawtooth => {
                only("sawtooth")?;
                InputSpec::Sawtooth {
                    amplitude: need(f.amplitude, "amplitude", "sawtooth")?,
                    omega: need(f.omega, "omega", "sawtooth")?,
                    phase: f.phase.unwrap_or(0.0),
                    offset: f.offset.unwrap_or(0.0),
                    width: need(f.width, "width", "sawtooth")?,
                }
            }
            InputKind::RampHold => {
                only("ramp-hold")?;
                InputSpec::RampHold {
                    from: need(f.from, "from", "ramp-hold")?,
                    to: need(f.to, "to", "ramp-hold")?,
                    ramp: need(f.ramp, "ramp", "ramp-hold")?,
                    start: f.start.unwrap_or(0.0),
                }
            }
            InputKind::PiecewiseLinear => {
                only("piecewise-linear")?;
                InputSpec::PiecewiseLinear {
                    points: match f.points {
                        Some(Points::List(p)) => p,
                        Some(Points::Count(_)) => {
                            return Err("piecewise-linear `points` is a list of [t, u] points".into())
                        }
                        None => return Err("input kind `piecewise-linear` needs `points`".into()),
                    },
                }
            }
            InputKind::SumOfSines => {
                only("sum-of-sines")?;
                InputSpec::SumOfSines {
                    components: f.components.ok_or("input kind `sum-of-sines` needs `components`")?,
                    offset: f.offset.unwrap_or(0.0),
                }
            }
            InputKind::Csv => {
                only("csv")?;
                InputSpec::Csv {
                    path: f.path.ok_or("input kind `csv` needs `path` (a file under data/)")?,
                    t_column: f.t_column.unwrap_or_else(|| "t".into()),
                    u_column: f.u_column.unwrap_or_else(|| "u".into()),
                }
            }
        })
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SinePiece {
    /// Start, in periods of the input (the first piece starts at 0).
    pub from_period: f64,
    pub amplitude: f64,
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
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
