//! A serde deserializer over the located tree. Scalars resolve as in serde_yaml (YAML 1.2 core
//! schema: null, booleans, integers, floats, else text; quoted scalars are always text), except
//! that a non-finite number (`.nan`, `.inf`, `1e400`) is an error. Every error carries the path
//! and position of the node it was raised at, and its message is written in the manifest's
//! vocabulary (see [`crate::error`]).

use crate::error::{DeError, ErrKind};
use crate::locate::PathSeg;
use crate::tree::{Entry, Node, NodeKind};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

/// Deserializes one node; `path` is its path with original (file) indices.
pub(crate) struct NodeDe<'de> {
    pub node: &'de Node,
    pub path: Vec<PathSeg>,
}

type Result<T> = std::result::Result<T, DeError>;

fn parse_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// Leading zeros followed by digits are text in YAML 1.2 (`007`).
fn digits_but_not_number(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    s.len() > 1 && s.starts_with('0') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

fn parse_radix(s: &str) -> Option<(bool, u64)> {
    let (neg, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = rest.strip_prefix(prefix) {
            if digits.starts_with(['+', '-']) {
                return None;
            }
            return u64::from_str_radix(digits, radix).ok().map(|v| (neg, v));
        }
    }
    if rest.starts_with(['+', '-']) || digits_but_not_number(s) {
        return None;
    }
    rest.parse::<u64>().ok().map(|v| (neg, v))
}

/// A plain scalar read as a number, if it is one: `Err` for a non-finite one.
enum Number {
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

fn parse_number(s: &str) -> Option<std::result::Result<Number, ()>> {
    if let Some((neg, v)) = parse_radix(s) {
        if !neg {
            return Some(Ok(Number::Unsigned(v)));
        }
        if let Ok(v) = i64::try_from(v) {
            return Some(Ok(Number::Signed(-v)));
        }
        if v == 1 << 63 {
            return Some(Ok(Number::Signed(i64::MIN)));
        }
    }
    let unsigned = s.strip_prefix('+').unwrap_or(s);
    match unsigned {
        ".inf" | ".Inf" | ".INF" | "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN" | ".NAN" => return Some(Err(())),
        _ => {}
    }
    if digits_but_not_number(s) || (s.starts_with('+') && unsigned.starts_with(['+', '-'])) {
        return None;
    }
    // Rust also reads `inf` and `nan`, which are text in YAML: a number has a digit.
    match unsigned.parse::<f64>() {
        Ok(v) if v.is_finite() => Some(Ok(Number::Float(v))),
        Ok(_) if unsigned.bytes().any(|b| b.is_ascii_digit()) => Some(Err(())),
        _ => None,
    }
}

impl<'de> NodeDe<'de> {
    pub fn new(node: &'de Node, path: Vec<PathSeg>) -> Self {
        NodeDe { node, path }
    }

    fn fail(&self, kind: ErrKind) -> DeError {
        DeError::new(kind).located(self.node, &self.path, false)
    }

    fn scalar(&self) -> Option<(&'de str, bool)> {
        match &self.node.kind {
            NodeKind::Scalar { text, plain } => Some((text, *plain)),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.scalar(), Some((t, true)) if parse_null(t))
    }

    fn visit_seq<V: Visitor<'de>>(&self, items: &'de [Node], v: V, want: Option<usize>) -> Result<V::Value> {
        let mut acc = SeqAcc {
            items: items.iter().enumerate(),
            path: &self.path,
            taken: 0,
        };
        let out = v.visit_seq(&mut acc)?;
        let total = items.iter().filter(|n| !n.removed).count();
        if acc.taken < total {
            let n = want.unwrap_or(acc.taken);
            return Err(self.fail(ErrKind::Length {
                expected: format!("a list of {n} values"),
                len: total,
            }));
        }
        Ok(out)
    }

    fn visit_map<V: Visitor<'de>>(&self, entries: &'de [Entry], v: V) -> Result<V::Value> {
        let mut acc = MapAcc {
            entries: entries.iter(),
            path: &self.path,
            current: None,
        };
        v.visit_map(&mut acc)
    }
}

impl<'de> de::Deserializer<'de> for NodeDe<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.node.kind {
            NodeKind::Seq(items) => self.visit_seq(items, v, None),
            NodeKind::Map(entries) => self.visit_map(entries, v),
            NodeKind::Scalar { text, plain: false } => v.visit_str(text),
            NodeKind::Scalar { text, plain: true } => {
                if parse_null(text) {
                    return v.visit_unit();
                }
                if let Some(b) = parse_bool(text) {
                    return v.visit_bool(b);
                }
                match parse_number(text) {
                    Some(Ok(Number::Unsigned(n))) => v.visit_u64(n),
                    Some(Ok(Number::Signed(n))) => v.visit_i64(n),
                    Some(Ok(Number::Float(x))) => v.visit_f64(x),
                    Some(Err(())) => Err(self.fail(ErrKind::NotFinite)),
                    None => v.visit_str(text),
                }
            }
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.scalar() {
            Some((t, _)) => v.visit_str(t),
            None => Err(self.fail(ErrKind::Type {
                expected: "text".into(),
            })),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if self.is_null() {
            v.visit_none()
        } else {
            v.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if self.is_null() {
            v.visit_unit()
        } else {
            Err(self.fail(ErrKind::Type {
                expected: "nothing".into(),
            }))
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> Result<V::Value> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.node.kind {
            NodeKind::Seq(items) => self.visit_seq(items, v, None),
            _ => Err(self.fail(ErrKind::Type {
                expected: "a list".into(),
            })),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value> {
        match &self.node.kind {
            NodeKind::Seq(items) => self.visit_seq(items, v, Some(len)),
            _ => Err(self.fail(ErrKind::Type {
                expected: format!("a list of {len} values"),
            })),
        }
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _: &'static str, len: usize, v: V) -> Result<V::Value> {
        self.deserialize_tuple(len, v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.node.kind {
            NodeKind::Map(entries) => self.visit_map(entries, v),
            _ => Err(self.fail(ErrKind::Type {
                expected: "a mapping".into(),
            })),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        match &self.node.kind {
            NodeKind::Map(entries) => self.visit_map(entries, v),
            _ => Err(self.fail(ErrKind::Type {
                expected: format!("a mapping {{{}}}", fields.join(", ")),
            })),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        match &self.node.kind {
            NodeKind::Scalar { text, .. } if !self.is_null() => v.visit_enum(text.as_str().into_deserializer()),
            NodeKind::Map(es) if es.iter().filter(|e| !e.value.removed).count() == 1 => {
                let entry = es.iter().find(|e| !e.value.removed).expect("one entry");
                v.visit_enum(EnumAcc {
                    entry,
                    path: &self.path,
                })
            }
            _ => Err(self.fail(ErrKind::Type {
                expected: crate::error::one_of(variants),
            })),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 bytes byte_buf
    }
}

fn child_path(parent: &[PathSeg], seg: PathSeg) -> Vec<PathSeg> {
    let mut p = parent.to_vec();
    p.push(seg);
    p
}

struct SeqAcc<'de, 'p> {
    items: std::iter::Enumerate<std::slice::Iter<'de, Node>>,
    path: &'p [PathSeg],
    taken: usize,
}

impl<'de> de::SeqAccess<'de> for SeqAcc<'de, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some((i, node)) = self.items.by_ref().find(|(_, n)| !n.removed) else {
            return Ok(None);
        };
        self.taken += 1;
        let path = child_path(self.path, PathSeg::Index(i));
        seed.deserialize(NodeDe::new(node, path.clone()))
            .map(Some)
            .map_err(|e| e.located(node, &path, false))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.clone().filter(|(_, n)| !n.removed).count())
    }
}

struct MapAcc<'de, 'p> {
    entries: std::slice::Iter<'de, Entry>,
    path: &'p [PathSeg],
    current: Option<&'de Entry>,
}

/// A key: always text (keys that are not scalars were dropped when building the tree).
struct KeyDe<'de>(&'de str);

impl<'de> de::Deserializer<'de> for KeyDe<'de> {
    type Error = DeError;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_str(self.0)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// Where a key's error points: the key itself, and the entry's path.
fn key_node(e: &Entry) -> Node {
    Node {
        line: e.line,
        col: e.col,
        removed: false,
        kind: NodeKind::Scalar {
            text: e.key.clone(),
            plain: true,
        },
    }
}

impl<'de> de::MapAccess<'de> for MapAcc<'de, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(e) = self.entries.by_ref().find(|e| !e.value.removed) else {
            return Ok(None);
        };
        self.current = Some(e);
        let path = child_path(self.path, PathSeg::Key(e.key.clone()));
        seed.deserialize(KeyDe(&e.key))
            .map(Some)
            .map_err(|err| err.located(&key_node(e), &path, true))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let e = self.current.take().expect("a key before its value");
        let path = child_path(self.path, PathSeg::Key(e.key.clone()));
        seed.deserialize(NodeDe::new(&e.value, path.clone()))
            .map_err(|err| err.located(&e.value, &path, false))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.clone().filter(|e| !e.value.removed).count())
    }
}

/// An enum written as a one-key mapping `{variant: content}`.
struct EnumAcc<'de, 'p> {
    entry: &'de Entry,
    path: &'p [PathSeg],
}

impl<'de, 'p> de::EnumAccess<'de> for EnumAcc<'de, 'p> {
    type Error = DeError;
    type Variant = NodeDe<'de>;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, NodeDe<'de>)> {
        let path = child_path(self.path, PathSeg::Key(self.entry.key.clone()));
        let v = seed
            .deserialize(KeyDe(&self.entry.key))
            .map_err(|err| err.located(&key_node(self.entry), &path, true))?;
        Ok((v, NodeDe::new(&self.entry.value, path)))
    }
}

impl<'de> de::VariantAccess<'de> for NodeDe<'de> {
    type Error = DeError;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self)
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let (node, path) = (self.node, self.path.clone());
        seed.deserialize(self).map_err(|e| e.located(node, &path, false))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self, len, v)
    }
    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self, "", fields, v)
    }
}
