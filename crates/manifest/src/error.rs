//! Deserialization errors in the manifest's vocabulary. serde describes what it expected in
//! Rust terms (`f64`, `struct Sweep`, `a sequence`); here that becomes "a number", "a mapping
//! {param, values}", "a list", and every message names the field it is about and what was
//! written there.

use crate::locate::PathSeg;
use crate::tree::Node;
use serde::de::{self, Expected, Unexpected};
use std::fmt::{self, Display};

/// The `expecting` texts of the schema's untagged enums: serde reports a value matching none
/// of their forms with exactly this text, which is a type error.
pub(crate) const UNTAGGED_EXPECTING: [&str; 3] = [
    "a number, a list of numbers, a mapping {value, unit, line}, {const: NAME} or {fitted: \"<doc>/<name>#<fit>.<param>\"}",
    "a number or a list of numbers",
    "`all`, `last-period`, {last_periods: k}, {periods: [a, b]} or {t: [a, b]}",
];

#[derive(Debug)]
pub(crate) enum ErrKind {
    Type {
        expected: String,
    },
    Value {
        expected: String,
    },
    Length {
        expected: String,
        len: usize,
    },
    NotFinite,
    UnknownField {
        field: String,
        allowed: &'static [&'static str],
    },
    MissingField(&'static str),
    UnknownVariant {
        variant: String,
        allowed: &'static [&'static str],
    },
    DuplicateField(&'static str),
    Custom(String),
}

/// Where an error was raised: the node's path (file indices), position and written value.
#[derive(Debug)]
pub(crate) struct At {
    pub path: Vec<PathSeg>,
    pub line: usize,
    pub col: usize,
    pub got: String,
    /// Raised reading a key (an unknown field or variant): the subject is the parent.
    pub on_key: bool,
}

#[derive(Debug)]
pub(crate) struct DeError {
    pub kind: ErrKind,
    pub at: Option<At>,
}

impl DeError {
    pub fn new(kind: ErrKind) -> Self {
        DeError { kind, at: None }
    }

    /// Attach the node the error was raised at, unless a deeper node already did.
    pub fn located(mut self, node: &Node, path: &[PathSeg], on_key: bool) -> Self {
        if self.at.is_none() {
            self.at = Some(At {
                path: path.to_vec(),
                line: node.line,
                col: node.col,
                got: node.describe(),
                on_key,
            });
        }
        self
    }

    /// The path whose dropping would explain this error: the missing field for a missing
    /// field, else the node the error was raised at.
    pub fn cause_path(&self) -> Vec<PathSeg> {
        let mut p = self.at.as_ref().map(|a| a.path.clone()).unwrap_or_default();
        if let ErrKind::MissingField(f) = &self.kind {
            p.push(PathSeg::Key(f.to_string()));
        }
        p
    }

    /// The message and the allowed values.
    pub fn message(&self) -> (String, String) {
        let (path, got, on_key) = match &self.at {
            Some(a) => (a.path.as_slice(), a.got.as_str(), a.on_key),
            None => (&[][..], "?", false),
        };
        let own = if on_key {
            &path[..path.len().saturating_sub(1)]
        } else {
            path
        };
        let subj = subject(own);
        let inside = |p: &[PathSeg]| {
            if p.is_empty() {
                String::new()
            } else {
                format!(" in `{}`", render_path(p))
            }
        };
        match &self.kind {
            ErrKind::Type { expected } => (
                format!("invalid type: {subj} must be {expected}, got {got}"),
                expected.clone(),
            ),
            ErrKind::Value { expected } => (
                format!("invalid value: {subj} must be {expected}, got {got}"),
                expected.clone(),
            ),
            ErrKind::Length { expected, len } => (
                format!(
                    "{subj} must be {expected}, got {len} value{}",
                    if *len == 1 { "" } else { "s" }
                ),
                expected.clone(),
            ),
            ErrKind::NotFinite => (
                format!("{subj} must be a finite number, got {got}"),
                "a finite number (not `.nan`, `.inf`, or beyond ±1.8e308)".into(),
            ),
            ErrKind::UnknownField { field, allowed } => (
                format!("unknown field `{field}`{}", inside(own)),
                allowed.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "),
            ),
            ErrKind::MissingField(f) => (format!("missing field `{f}`{}", inside(path)), String::new()),
            ErrKind::UnknownVariant { variant, allowed } => {
                (format!("unknown variant `{variant}` for {subj}"), one_of(allowed))
            }
            ErrKind::DuplicateField(f) => (format!("duplicate field `{f}`{}", inside(path)), String::new()),
            ErrKind::Custom(m) => (m.clone(), String::new()),
        }
    }
}

/// `a.b[2].c`.
pub(crate) fn render_path(path: &[PathSeg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            PathSeg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            PathSeg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// How a message names a node: its key with any list indices after it (`values[1]`).
fn subject(path: &[PathSeg]) -> String {
    match path.iter().rposition(|s| matches!(s, PathSeg::Key(_))) {
        None if path.is_empty() => "the manifest".into(),
        None => format!("`{}`", render_path(path)),
        Some(k) => format!("`{}`", render_path(&path[k..])),
    }
}

/// serde's wording for a list of names: "`a`", "`a` or `b`", "one of `a`, `b`, `c`".
pub(crate) fn one_of(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match q.len() {
        0 => "nothing".into(),
        1 => q[0].clone(),
        2 => format!("{} or {}", q[0], q[1]),
        _ => format!("one of {}", q.join(", ")),
    }
}

/// What serde expected, in the manifest's words.
fn vocab(expected: &str) -> String {
    let s = match expected {
        "f64" | "f32" => "a number",
        "u8" | "u16" | "u64" | "u128" | "usize" => "a whole number ≥ 0",
        "u32" => "a whole number from 0 to 4294967295",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "a string" | "a borrowed string" | "a character" => "text",
        "a boolean" => "true or false",
        "a sequence" => "a list",
        "a map" => "a mapping",
        "unit" | "null" => "nothing",
        "variant identifier" | "field identifier" => "a name",
        "map containing 1 entry" | "map with a single key" => "a mapping with one key",
        "enum Provenance" => "one of {published: {line}}, {derived: \"...\"}, {claim: {kind, lines}}",
        other => {
            if let Some(n) = other.strip_prefix("an array of length ") {
                return format!("a list of {n} values");
            }
            if other.starts_with("struct ") {
                return "a mapping".into();
            }
            if other.starts_with("enum ") || other.starts_with("data did not match") {
                return "one of the forms this field takes".into();
            }
            other
        }
    };
    s.to_string()
}

impl Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message().0)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: Display>(msg: T) -> Self {
        let msg = msg.to_string();
        if UNTAGGED_EXPECTING.contains(&msg.as_str()) {
            return DeError::new(ErrKind::Type { expected: msg });
        }
        if msg.starts_with("data did not match any variant") {
            return DeError::new(ErrKind::Type { expected: vocab(&msg) });
        }
        DeError::new(ErrKind::Custom(msg))
    }
    fn invalid_type(_: Unexpected, exp: &dyn Expected) -> Self {
        DeError::new(ErrKind::Type {
            expected: vocab(&exp.to_string()),
        })
    }
    fn invalid_value(_: Unexpected, exp: &dyn Expected) -> Self {
        DeError::new(ErrKind::Value {
            expected: vocab(&exp.to_string()),
        })
    }
    fn invalid_length(len: usize, exp: &dyn Expected) -> Self {
        DeError::new(ErrKind::Length {
            expected: vocab(&exp.to_string()),
            len,
        })
    }
    fn unknown_variant(variant: &str, allowed: &'static [&'static str]) -> Self {
        DeError::new(ErrKind::UnknownVariant {
            variant: variant.to_string(),
            allowed,
        })
    }
    fn unknown_field(field: &str, allowed: &'static [&'static str]) -> Self {
        DeError::new(ErrKind::UnknownField {
            field: field.to_string(),
            allowed,
        })
    }
    fn missing_field(field: &'static str) -> Self {
        DeError::new(ErrKind::MissingField(field))
    }
    fn duplicate_field(field: &'static str) -> Self {
        DeError::new(ErrKind::DuplicateField(field))
    }
}
