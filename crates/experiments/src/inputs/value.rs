//! A resolved input: its kind's declaration and every declared field's value, typed by the
//! declaration and defaults filled in, in the declaration's order. It serialises as the input
//! always has in a run's cache key: `{"kind": <name>, <field>: <value>, …}` in that order.

use super::InputDecl;
use crate::InputData;
use fric_manifest::{FieldType, InputSpec, InputValue, Scale, SineComponent, SinePiece};
use fric_models::signal::Signal;
use serde::{Serialize, Serializer};

/// One field's value, of its declared [`FieldType`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Number(f64),
    Count(usize),
    Text(String),
    Scale(Scale),
    Pieces(Vec<SinePiece>),
    Points(Vec<[f64; 2]>),
    Components(Vec<SineComponent>),
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Number(v) => v.serialize(s),
            Value::Count(v) => v.serialize(s),
            Value::Text(v) => v.serialize(s),
            Value::Scale(v) => v.serialize(s),
            Value::Pieces(v) => v.serialize(s),
            Value::Points(v) => v.serialize(s),
            Value::Components(v) => v.serialize(s),
        }
    }
}

impl Value {
    /// The value as a manifest writes it.
    fn written(&self) -> InputValue {
        match self {
            Value::Number(v) => InputValue::Number(*v),
            Value::Count(v) => InputValue::Number(*v as f64),
            Value::Text(v) => InputValue::Text(v.clone()),
            Value::Scale(v) => InputValue::from(*v),
            other => written(&serde_json::to_value(other).unwrap_or_default()),
        }
    }
}

/// A JSON value as a manifest writes it (lists and maps of numbers and texts).
fn written(v: &serde_json::Value) -> InputValue {
    match v {
        serde_json::Value::Number(n) => InputValue::Number(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(t) => InputValue::Text(t.clone()),
        serde_json::Value::Array(a) => InputValue::List(a.iter().map(written).collect()),
        serde_json::Value::Object(o) => InputValue::Map(o.iter().map(|(k, v)| (k.clone(), written(v))).collect()),
        serde_json::Value::Bool(_) | serde_json::Value::Null => InputValue::Number(f64::NAN),
    }
}

/// A resolved input (`RunRequest::input`).
#[derive(Clone)]
pub struct Input {
    decl: &'static InputDecl,
    values: Vec<(&'static str, Value)>,
}

impl Input {
    /// An input of `decl` with these values, one per declared field in its order ([`super::resolve`]
    /// builds it from the written form).
    pub(super) fn new(decl: &'static InputDecl, values: Vec<(&'static str, Value)>) -> Input {
        Input { decl, values }
    }

    /// The kind's name.
    pub fn kind(&self) -> &'static str {
        self.decl.doc.name
    }

    /// The kind's declaration.
    pub fn decl(&self) -> &'static InputDecl {
        self.decl
    }

    /// The value of declared field `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The fields and their values, in the declaration's order.
    pub fn values(&self) -> &[(&'static str, Value)] {
        &self.values
    }

    /// The number in declared field `name`. A kind reads only the fields it declares, which
    /// resolution fills in (so a miss is a kind's programming error, not bad input).
    pub fn number(&self, name: &str) -> f64 {
        match self.get(name) {
            Some(Value::Number(v)) => *v,
            _ => panic!("input kind `{}` declares no number `{name}`", self.kind()),
        }
    }

    /// The count in declared field `name` (as [`Input::number`]).
    pub fn count(&self, name: &str) -> usize {
        match self.get(name) {
            Some(Value::Count(v)) => *v,
            _ => panic!("input kind `{}` declares no count `{name}`", self.kind()),
        }
    }

    /// The text in declared field `name` (as [`Input::number`]).
    pub fn text(&self, name: &str) -> &str {
        match self.get(name) {
            Some(Value::Text(v)) => v,
            _ => panic!("input kind `{}` declares no text `{name}`", self.kind()),
        }
    }

    /// The period of an input that repeats (`sim.periods` and `sim.steady_state` need one).
    pub fn period(&self) -> Option<f64> {
        (self.decl.period)(self)
    }

    /// Whether the input repeats with a period.
    pub fn is_periodic(&self) -> bool {
        self.period().is_some()
    }

    /// The signal, `data` being the samples of a file-reading kind.
    pub fn signal(&self, data: Option<&InputData>) -> Result<Signal, String> {
        (self.decl.signal)(self, data)
    }

    /// The file a file-reading kind reads: `(path, t_column, u_column)`.
    pub fn file(&self) -> Option<(&str, &str, &str)> {
        self.decl
            .reads_file
            .then(|| (self.text("path"), self.text("t_column"), self.text("u_column")))
    }

    /// The input as a manifest writes it (every field, defaults included): what an alternative
    /// reading or an explanation step changes and resolves again.
    pub fn written(&self) -> InputSpec {
        InputSpec {
            kind: self.kind().to_string(),
            fields: self.values.iter().map(|(n, v)| (n.to_string(), v.written())).collect(),
        }
    }

    /// The typed value of `field` of type `ty` from its written form, or why not.
    pub(super) fn typed(ty: FieldType, w: &InputValue) -> Result<Value, FieldError> {
        let json = || serde_json::to_value(w).map_err(|e| FieldError::Malformed(e.to_string()));
        let parsed = |e: serde_json::Error| FieldError::Malformed(e.to_string());
        Ok(match (ty, w) {
            (FieldType::Number, InputValue::Number(v)) => Value::Number(*v),
            (FieldType::Count, InputValue::Number(v)) if *v >= 0.0 && v.fract() == 0.0 && *v < 1e15 => {
                Value::Count(*v as usize)
            }
            (FieldType::Text, InputValue::Text(t)) => Value::Text(t.clone()),
            (FieldType::Scale, _) => Value::Scale(serde_json::from_value(json()?).map_err(parsed)?),
            (FieldType::Pieces, InputValue::List(_)) => Value::Pieces(serde_json::from_value(json()?).map_err(parsed)?),
            (FieldType::Points, InputValue::List(_)) => Value::Points(serde_json::from_value(json()?).map_err(parsed)?),
            (FieldType::Components, InputValue::List(_)) => {
                Value::Components(serde_json::from_value(json()?).map_err(parsed)?)
            }
            (ty, w) => {
                return Err(FieldError::WrongType(format!(
                    "must be {}, got `{}`",
                    described(ty),
                    shown(w)
                )))
            }
        })
    }
}

/// Why a written field has no typed value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum FieldError {
    /// A value of another type than the declared one (`must be a number, got `five``).
    WrongType(String),
    /// A value of the right shape that does not parse as the type (a list whose items are
    /// not pieces; a scale name that is not one): the parser's words.
    Malformed(String),
}

/// What a field of type `ty` must be, in the manifest's words.
pub(super) fn described(ty: FieldType) -> &'static str {
    match ty {
        FieldType::Number => "a number",
        FieldType::Count => "a whole number ≥ 0",
        FieldType::Points => "a list of [t, u] points",
        FieldType::Pieces => "a list of {from_period, amplitude} pieces",
        FieldType::Components => "a list of {amplitude, omega, phase} components",
        ty => ty.name(),
    }
}

/// A written value as an error message shows it (text cut at 40 characters).
fn shown(w: &InputValue) -> String {
    match w {
        InputValue::Number(v) => format!("{v}"),
        InputValue::Text(t) if t.chars().count() > 40 => format!("{}…", t.chars().take(40).collect::<String>()),
        InputValue::Text(t) => t.clone(),
        InputValue::List(_) => "a list".into(),
        InputValue::Map(_) => "a mapping".into(),
    }
}

impl PartialEq for Input {
    fn eq(&self, other: &Input) -> bool {
        self.kind() == other.kind() && self.values == other.values
    }
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct("Input");
        s.field("kind", &self.kind());
        for (n, v) in &self.values {
            s.field(n, v);
        }
        s.finish()
    }
}

/// The form a run's cache key has always had: `kind` first, then the fields in declared order.
impl Serialize for Input {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.values.len() + 1))?;
        m.serialize_entry("kind", self.kind())?;
        for (n, v) in &self.values {
            m.serialize_entry(n, v)?;
        }
        m.end()
    }
}
