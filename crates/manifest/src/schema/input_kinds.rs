//! The declarations of the input kinds (`runs[].input.kind`): fields (type, unit, whether
//! required, meaning) and an example. The input's parser checks the fields a kind takes against
//! them, `cargo xtask schema` prints them, and the JSON Schema of inputs is generated from them.

use super::kinds::{opt_or, req, FieldDefault, FieldDoc, FieldType::*, KindDoc};

const AMPLITUDE: FieldDoc = req("amplitude", Number, "input", "amplitude");
const OMEGA: FieldDoc = req("omega", Number, "rad/s", "angular frequency, > 0");
const PHASE: FieldDoc = opt_or("phase", Number, "rad", FieldDefault::Number(0.0), "phase");
const OFFSET: FieldDoc = opt_or("offset", Number, "input", FieldDefault::Number(0.0), "added constant");

/// Input kinds (`runs[].input.kind`). Which systems take which is listed per system.
pub const INPUT_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "sine",
        doc: "offset + amplitude sin(omega t + phase)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: sine, amplitude: 5, omega: 2}",
    },
    KindDoc {
        name: "cosine",
        doc: "offset + amplitude cos(omega t + phase)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: cosine, amplitude: 5, omega: 0.25}",
    },
    KindDoc {
        name: "switched-sine",
        doc: "sinusoidal pieces of one frequency, each starting after a number of periods",
        fields: &[
            OMEGA,
            req("pieces", Pieces, "periods, input", "from_period (the first is 0) and amplitude of each piece"),
        ],
        example: "{kind: switched-sine, omega: 1, pieces: [{from_period: 0, amplitude: 2}, {from_period: 1.5, amplitude: 1}]}",
    },
    KindDoc {
        name: "triangle",
        doc: "triangle wave with the sine's phase convention: 0 at t = 0 rising, extrema where the sine has them",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: triangle, amplitude: 1.5, omega: 1.5707963267948966}",
    },
    KindDoc {
        name: "signed-square-sine",
        doc: "offset + amplitude sin(θ) |sin(θ)|, θ = omega t + phase: rate 2 amplitude omega |sin θ| cos θ (report L930: \
              amplitude A/(2π), omega 2π give the velocity A sgn(sin 2πt) sin 4πt)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: signed-square-sine, amplitude: 7.957747154594767e-5, omega: 6.283185307179586}",
    },
    KindDoc {
        name: "sawtooth",
        doc: "continuous sawtooth: rises for `width` of the period, falls for the rest; 0 at t = 0 rising",
        fields: &[
            AMPLITUDE,
            OMEGA,
            PHASE,
            OFFSET,
            req("width", Number, "1", "rising fraction of the period, 0 < width < 1 (0.5: triangle)"),
        ],
        example: "{kind: sawtooth, amplitude: 1, omega: 6.283185307179586, width: 0.9}",
    },
    KindDoc {
        name: "ramp-hold",
        doc: "hold `from` until `start`, ramp linearly to `to` over `ramp`, then hold `to` (no period: sim.t_end)",
        fields: &[
            req("from", Number, "input", "value before and at the start of the ramp"),
            req("to", Number, "input", "value at the end of the ramp and after"),
            req("ramp", Number, "s", "duration of the ramp, > 0"),
            opt_or("start", Number, "s", FieldDefault::Number(0.0), "time the ramp starts"),
        ],
        example: "{kind: ramp-hold, from: 0, to: 1e-3, ramp: 2}",
    },
    KindDoc {
        name: "piecewise-linear",
        doc: "linear interpolation through points, constant beyond the first and last (no period: sim.t_end)",
        fields: &[req("points", Points, "s, input", "[t, u] points, t strictly increasing, at least two")],
        example: "{kind: piecewise-linear, points: [[0, 0], [1, 1], [3, -1], [4, 0]]}",
    },
    KindDoc {
        name: "sum-of-sines",
        doc: "offset + Σ amplitude_k sin(omega_k t + phase_k) (no period: sim.t_end)",
        fields: &[
            req(
                "components",
                Components,
                "input, rad/s, rad",
                "the terms: amplitude, omega (> 0), phase (default 0)",
            ),
            OFFSET,
        ],
        example: "{kind: sum-of-sines, components: [{amplitude: 1, omega: 1}, {amplitude: 0.2, omega: 7, phase: 0.5}]}",
    },
    KindDoc {
        name: "csv",
        doc: "samples read from a CSV file under data/ (header row; t strictly increasing; finite values), \
              linearly interpolated and constant beyond the ends; the file's sha256 is part of the cache key \
              (no period: sim.t_end)",
        fields: &[
            req("path", Text, "", "the file, relative to the workspace root: data/<dir>/<file>.csv"),
            opt_or("t_column", Text, "", FieldDefault::Text("t"), "header name of the time column, in s"),
            opt_or("u_column", Text, "", FieldDefault::Text("u"), "header name of the input column"),
        ],
        example: "{kind: csv, path: data/measured/run1.csv, t_column: time, u_column: position}",
    },
    KindDoc {
        name: "grid",
        doc: "an evaluation grid for analytic curves",
        fields: &[
            req("from", Number, "input", "first grid value"),
            req("to", Number, "input", "last grid value, > from"),
            req("points", Count, "", "number of grid points, ≥ 2"),
            opt_or("scale", Scale, "", FieldDefault::Text("linear"), "spacing (log needs from > 0)"),
        ],
        example: "{kind: grid, from: -0.1, to: 0.1, points: 401, scale: sym-log}",
    },
    KindDoc {
        name: "none",
        doc: "no input: an autonomous system, run for sim.t_end",
        fields: &[],
        example: "{kind: none}",
    },
];

/// The schema of an input is generated from [`INPUT_KINDS`] (the declaration its parsing uses):
/// one alternative per kind, with that kind's fields, required ones marked.
impl schemars::JsonSchema for super::InputSpec {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "InputSpec".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut alternatives = Vec::new();
        for k in INPUT_KINDS {
            let mut props = serde_json::Map::new();
            props.insert("kind".into(), serde_json::json!({"const": k.name}));
            let mut required = vec![serde_json::json!("kind")];
            for f in k.fields {
                let mut s = f.ty.json_schema(generator).to_value();
                if let Some(o) = s.as_object_mut() {
                    match f.default {
                        Some(FieldDefault::Number(v)) => o.insert("default".into(), v.into()),
                        Some(FieldDefault::Text(t)) => o.insert("default".into(), t.into()),
                        None => None,
                    };
                    let unit = if f.unit.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", f.unit)
                    };
                    o.insert("description".into(), format!("{}{unit}", f.doc).into());
                }
                props.insert(f.name.into(), s);
                if f.required {
                    required.push(f.name.into());
                }
            }
            alternatives.push(serde_json::json!({
                "type": "object",
                "description": format!("{}. Example: {}", k.doc, k.example),
                "properties": props,
                "required": required,
                "additionalProperties": false,
            }));
        }
        schemars::json_schema!({
            "description": "The input signal or evaluation grid, by `kind`.",
            "oneOf": alternatives,
        })
    }
}
