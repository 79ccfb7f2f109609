//! The input signal or evaluation grid of a run (`runs[].input`), as written: one variant per
//! kind, read through a plain struct of every field so that a wrong value type is reported at its
//! own line, then checked against the kind's declaration (`input_kinds.rs`).

use super::{FieldDefault, KindDoc, Scale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    /// The kind's name as manifests write it (`sine`, `ramp-hold`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            InputSpec::Sine { .. } => "sine",
            InputSpec::Cosine { .. } => "cosine",
            InputSpec::SwitchedSine { .. } => "switched-sine",
            InputSpec::Grid { .. } => "grid",
            InputSpec::None => "none",
            InputSpec::Triangle { .. } => "triangle",
            InputSpec::SignedSquareSine { .. } => "signed-square-sine",
            InputSpec::Sawtooth { .. } => "sawtooth",
            InputSpec::RampHold { .. } => "ramp-hold",
            InputSpec::PiecewiseLinear { .. } => "piecewise-linear",
            InputSpec::SumOfSines { .. } => "sum-of-sines",
            InputSpec::Csv { .. } => "csv",
        }
    }

    /// The period `2π/omega` of an input that repeats (`sim.periods` and `sim.steady_state`
    /// need one), else `None`.
    pub fn period(&self) -> Option<f64> {
        match self {
            InputSpec::Sine { omega, .. }
            | InputSpec::Cosine { omega, .. }
            | InputSpec::SwitchedSine { omega, .. }
            | InputSpec::Triangle { omega, .. }
            | InputSpec::SignedSquareSine { omega, .. }
            | InputSpec::Sawtooth { omega, .. } => Some(2.0 * std::f64::consts::PI / omega),
            _ => None,
        }
    }

    /// Whether the input repeats with a period ([`InputSpec::period`]).
    pub fn is_periodic(&self) -> bool {
        self.period().is_some()
    }
}

impl InputSpec {
    /// The input's written fields but `kind`, in alphabetical order, each with its value when it
    /// is a number (`None`: a list, a count, a name): what an override may set.
    fn fields_mut(&mut self) -> Vec<(&'static str, Option<&mut f64>)> {
        let mut f: Vec<(&'static str, Option<&mut f64>)> = match self {
            InputSpec::Sine {
                amplitude,
                omega,
                phase,
                offset,
            }
            | InputSpec::Cosine {
                amplitude,
                omega,
                phase,
                offset,
            }
            | InputSpec::Triangle {
                amplitude,
                omega,
                phase,
                offset,
            }
            | InputSpec::SignedSquareSine {
                amplitude,
                omega,
                phase,
                offset,
            } => vec![
                ("amplitude", Some(amplitude)),
                ("omega", Some(omega)),
                ("phase", Some(phase)),
                ("offset", Some(offset)),
            ],
            InputSpec::Sawtooth {
                amplitude,
                omega,
                phase,
                offset,
                width,
            } => vec![
                ("amplitude", Some(amplitude)),
                ("omega", Some(omega)),
                ("phase", Some(phase)),
                ("offset", Some(offset)),
                ("width", Some(width)),
            ],
            InputSpec::SwitchedSine { omega, .. } => vec![("omega", Some(omega)), ("pieces", None)],
            InputSpec::Grid { from, to, .. } => vec![
                ("from", Some(from)),
                ("to", Some(to)),
                ("points", None),
                ("scale", None),
            ],
            InputSpec::None => vec![],
            InputSpec::RampHold { from, to, ramp, start } => vec![
                ("from", Some(from)),
                ("to", Some(to)),
                ("ramp", Some(ramp)),
                ("start", Some(start)),
            ],
            InputSpec::PiecewiseLinear { .. } => vec![("points", None)],
            InputSpec::SumOfSines { offset, .. } => vec![("components", None), ("offset", Some(offset))],
            InputSpec::Csv { .. } => vec![("path", None), ("t_column", None), ("u_column", None)],
        };
        f.sort_by_key(|x| x.0);
        f
    }

    /// Set the numeric field `field` to `value`: the one path by which sweeps, alternative
    /// readings and explanations change an input (no round trip through another format).
    pub fn set_number(&mut self, field: &str, value: f64) -> Result<(), String> {
        let mut fields = self.fields_mut();
        let names: Vec<String> = fields.iter().map(|(n, _)| format!("`{n}`")).collect();
        match fields.iter_mut().find(|(n, _)| *n == field) {
            Some((_, Some(v))) => {
                **v = value;
                Ok(())
            }
            Some((_, None)) => Err(format!("cannot set `input.{field}` to {value}")),
            None => Err(format!(
                "the input has no numeric field `{field}` (fields: {})",
                names.join(", ")
            )),
        }
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

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
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

/// A field's value: as written, else the declared default, else (a required field) an error.
fn value<T>(
    decl: &KindDoc,
    name: &str,
    given: Option<T>,
    from_default: impl Fn(FieldDefault) -> Option<T>,
) -> Result<T, String> {
    if let Some(v) = given {
        return Ok(v);
    }
    match decl.field(name).and_then(|f| f.default) {
        Some(d) => {
            from_default(d).ok_or_else(|| format!("input kind `{}`: `{name}` has no default of its type", decl.name))
        }
        None => Err(format!("input kind `{}` needs `{name}`", decl.name)),
    }
}

fn number(d: FieldDefault) -> Option<f64> {
    match d {
        FieldDefault::Number(v) => Some(v),
        FieldDefault::Text(_) => None,
    }
}

fn text(d: FieldDefault) -> Option<String> {
    match d {
        FieldDefault::Text(t) => Some(t.to_string()),
        FieldDefault::Number(_) => None,
    }
}

fn no_default<T>(_: FieldDefault) -> Option<T> {
    None
}

/// The fields a kind takes, which are required and their defaults are its declaration's
/// (`input_kinds.rs`, which `schema` and the JSON Schema print).
impl TryFrom<InputFields> for InputSpec {
    type Error = String;
    fn try_from(f: InputFields) -> Result<Self, String> {
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
        let name = super::kind_name(&f.kind);
        let decl =
            super::kind(super::INPUT_KINDS, &name).ok_or_else(|| format!("input kind `{name}` is not declared"))?;
        let allowed = decl.field_names();
        if let Some(g) = given.iter().find(|g| !allowed.contains(g)) {
            return Err(format!(
                "input kind `{name}` takes no `{g}` (fields: {})",
                allowed.join(", ")
            ));
        }
        let num = |field: &str, v: Option<f64>| value(decl, field, v, number);
        Ok(match f.kind {
            InputKind::Sine | InputKind::Cosine | InputKind::Triangle | InputKind::SignedSquareSine => {
                let (amplitude, omega) = (num("amplitude", f.amplitude)?, num("omega", f.omega)?);
                let (phase, offset) = (num("phase", f.phase)?, num("offset", f.offset)?);
                match f.kind {
                    InputKind::Sine => InputSpec::Sine {
                        amplitude,
                        omega,
                        phase,
                        offset,
                    },
                    InputKind::Cosine => InputSpec::Cosine {
                        amplitude,
                        omega,
                        phase,
                        offset,
                    },
                    InputKind::Triangle => InputSpec::Triangle {
                        amplitude,
                        omega,
                        phase,
                        offset,
                    },
                    _ => InputSpec::SignedSquareSine {
                        amplitude,
                        omega,
                        phase,
                        offset,
                    },
                }
            }
            InputKind::SwitchedSine => InputSpec::SwitchedSine {
                omega: num("omega", f.omega)?,
                pieces: value(decl, "pieces", f.pieces, no_default)?,
            },
            InputKind::None => InputSpec::None,
            InputKind::Grid => InputSpec::Grid {
                from: num("from", f.from)?,
                to: num("to", f.to)?,
                points: match value(decl, "points", f.points, no_default)? {
                    Points::Count(n) => n,
                    Points::List(_) => return Err("grid `points` is a number of points".into()),
                },
                scale: value(decl, "scale", f.scale, |d| {
                    text(d).and_then(|t| serde_json::from_value(serde_json::Value::String(t)).ok())
                })?,
            },
            InputKind::Sawtooth => InputSpec::Sawtooth {
                amplitude: num("amplitude", f.amplitude)?,
                omega: num("omega", f.omega)?,
                phase: num("phase", f.phase)?,
                offset: num("offset", f.offset)?,
                width: num("width", f.width)?,
            },
            InputKind::RampHold => InputSpec::RampHold {
                from: num("from", f.from)?,
                to: num("to", f.to)?,
                ramp: num("ramp", f.ramp)?,
                start: num("start", f.start)?,
            },
            InputKind::PiecewiseLinear => InputSpec::PiecewiseLinear {
                points: match value(decl, "points", f.points, no_default)? {
                    Points::List(p) => p,
                    Points::Count(_) => return Err("piecewise-linear `points` is a list of [t, u] points".into()),
                },
            },
            InputKind::SumOfSines => InputSpec::SumOfSines {
                components: value(decl, "components", f.components, no_default)?,
                offset: num("offset", f.offset)?,
            },
            InputKind::Csv => InputSpec::Csv {
                path: value(decl, "path", f.path, no_default).map_err(|e| format!("{e} (a file under data/)"))?,
                t_column: value(decl, "t_column", f.t_column, text)?,
                u_column: value(decl, "u_column", f.u_column, text)?,
            },
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

#[cfg(test)]
mod tests {
    use super::super::{FieldType, INPUT_KINDS};
    use super::InputSpec;

    /// `InputSpec::kind` names every declared kind as its declaration does, and only the
    /// kinds declared periodic in their doc (those with `omega` and no `components`) have a period.
    #[test]
    fn kind_and_period_follow_the_declarations() {
        for decl in INPUT_KINDS {
            let input: InputSpec = serde_yaml::from_str(decl.example).unwrap();
            assert_eq!(input.kind(), decl.name);
            let periodic = decl.field("omega").is_some();
            assert_eq!(input.period().is_some(), periodic, "{}", decl.name);
            if let Some(p) = input.period() {
                let omega = serde_json::to_value(&input).unwrap()["omega"].as_f64().unwrap();
                assert_eq!(p, 2.0 * std::f64::consts::PI / omega, "{}", decl.name);
            }
        }
    }

    /// Every declared field of every input kind can be named in an override: a number is set (and
    /// only it changes), any other field is refused as not a number, and an undeclared name is
    /// refused with the kind's fields.
    #[test]
    fn every_declared_number_of_every_input_kind_is_set_and_nothing_else() {
        for decl in INPUT_KINDS {
            let input: InputSpec = serde_yaml::from_str(decl.example).unwrap();
            let before = serde_json::to_value(&input).unwrap();
            for f in decl.fields {
                let mut set = input.clone();
                let r = set.set_number(f.name, 1234.5);
                if f.ty == FieldType::Number {
                    assert_eq!(r, Ok(()), "{} {}", decl.name, f.name);
                    let mut want = before.clone();
                    want[f.name] = serde_json::json!(1234.5);
                    assert_eq!(serde_json::to_value(&set).unwrap(), want, "{} {}", decl.name, f.name);
                } else {
                    let e = r.expect_err(f.name);
                    assert_eq!(e, format!("cannot set `input.{}` to 1234.5", f.name), "{}", decl.name);
                }
            }
            let e = input.clone().set_number("nope", 1.0).unwrap_err();
            let mut names: Vec<String> = decl.fields.iter().map(|f| format!("`{}`", f.name)).collect();
            names.sort();
            let want = format!("the input has no numeric field `nope` (fields: {})", names.join(", "));
            assert_eq!(e, want, "{}", decl.name);
        }
    }
}
