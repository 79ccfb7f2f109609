//! The input signal or evaluation grid of a run (`runs[].input`), as written: its `kind` and its
//! other fields, kept opaque here. What each kind takes (fields with type, unit, default and
//! whether required), its checks, signal, period and sample budget are its declaration's, one
//! file per kind in `fric_experiments::inputs`; that crate types the written values when a run is
//! resolved and reports a problem at `input.<field>`, which the loader locates at its line.

use schemars::JsonSchema;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// The input as written: `kind` and the other fields by name, each value as written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputSpec {
    /// The kind's name (`sine`, `ramp-hold`, …).
    pub kind: String,
    /// Every other field, by name.
    pub fields: BTreeMap<String, InputValue>,
}

/// One written value of an input field; the kind's declaration says which it must be.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged, expecting = "a number, a text, or a list or map of them")]
pub enum InputValue {
    Number(f64),
    Text(String),
    List(Vec<InputValue>),
    Map(BTreeMap<String, InputValue>),
}

impl InputSpec {
    /// The kind's name as manifests write it.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// Set field `field` to the number `value` (a sweep member, an alternative reading, an
    /// explanation step). Whether the kind has that field, and takes a number there, is its
    /// declaration's to say (`fric_experiments::inputs::set_number`).
    pub fn set(&mut self, field: &str, value: f64) {
        self.fields.insert(field.to_string(), InputValue::Number(value));
    }
}

impl InputSpec {
    /// An input of kind `kind` with these fields, as a program (a test, a study) builds one.
    pub fn new<'a>(kind: &str, fields: impl IntoIterator<Item = (&'a str, InputValue)>) -> InputSpec {
        InputSpec {
            kind: kind.to_string(),
            fields: fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        }
    }
}

impl From<f64> for InputValue {
    fn from(v: f64) -> Self {
        InputValue::Number(v)
    }
}

impl From<usize> for InputValue {
    fn from(v: usize) -> Self {
        InputValue::Number(v as f64)
    }
}

impl From<&str> for InputValue {
    fn from(v: &str) -> Self {
        InputValue::Text(v.to_string())
    }
}

impl From<String> for InputValue {
    fn from(v: String) -> Self {
        InputValue::Text(v)
    }
}

impl From<super::Scale> for InputValue {
    fn from(v: super::Scale) -> Self {
        InputValue::Text(v.name().to_string())
    }
}

impl From<Vec<[f64; 2]>> for InputValue {
    fn from(v: Vec<[f64; 2]>) -> Self {
        InputValue::List(
            v.iter()
                .map(|p| InputValue::List(vec![p[0].into(), p[1].into()]))
                .collect(),
        )
    }
}

impl From<Vec<SinePiece>> for InputValue {
    fn from(v: Vec<SinePiece>) -> Self {
        let piece = |p: &SinePiece| {
            InputValue::Map(BTreeMap::from([
                ("from_period".to_string(), p.from_period.into()),
                ("amplitude".to_string(), p.amplitude.into()),
            ]))
        };
        InputValue::List(v.iter().map(piece).collect())
    }
}

impl From<Vec<SineComponent>> for InputValue {
    fn from(v: Vec<SineComponent>) -> Self {
        let term = |c: &SineComponent| {
            InputValue::Map(BTreeMap::from([
                ("amplitude".to_string(), c.amplitude.into()),
                ("omega".to_string(), c.omega.into()),
                ("phase".to_string(), c.phase.into()),
            ]))
        };
        InputValue::List(v.iter().map(term).collect())
    }
}

impl Serialize for InputSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.fields.len() + 1))?;
        m.serialize_entry("kind", &self.kind)?;
        for (k, v) in &self.fields {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for InputSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(InputVisitor)
    }
}

/// Reads `kind` (required, a name) and every other field as an [`InputValue`].
struct InputVisitor;

impl<'de> Visitor<'de> for InputVisitor {
    type Value = InputSpec;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an input: {kind: <kind>, <its fields>} (`cargo xtask schema` lists the kinds)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<InputSpec, A::Error> {
        let mut kind = None;
        let mut fields = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == "kind" {
                kind = Some(map.next_value::<String>()?);
            } else {
                let v = map.next_value::<InputValue>()?;
                fields.insert(key, v);
            }
        }
        let kind = kind.ok_or_else(|| serde::de::Error::missing_field("kind"))?;
        Ok(InputSpec { kind, fields })
    }
}

/// A placeholder: the JSON Schema of an input is built from the kinds' declarations, which live
/// outside this crate ([`crate::json_schema`] writes it; [`input_schema`] builds it).
impl JsonSchema for InputSpec {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "InputSpec".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "object", "required": ["kind"]})
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

// One piece of a `switched-sine` input (no doc comment: the JSON Schema would print it).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SinePiece {
    /// Start, in periods of the input (the first piece starts at 0).
    pub from_period: f64,
    pub amplitude: f64,
}

/// The JSON Schema of an input, from the kinds' declarations: one alternative per kind, with
/// that kind's fields (type, default, unit and meaning), required ones marked.
pub fn input_schema(kinds: &[super::KindDoc], generator: &mut schemars::SchemaGenerator) -> serde_json::Value {
    use super::FieldDefault;
    let mut alternatives = Vec::new();
    for k in kinds {
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
    serde_json::json!({
        "description": "The input signal or evaluation grid, by `kind`.",
        "oneOf": alternatives,
    })
}
