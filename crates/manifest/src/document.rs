//! A manifest file read as far as it can be: the located tree, the nodes dropped from it as
//! invalid, and the mapping from paths in the (partial) manifest back to lines in the file.
//!
//! serde stops at the first error. To report every error of a file in one pass, the tree is
//! deserialized repeatedly: each error is recorded, the node it was raised at is dropped, and
//! the rest is deserialized again, until it succeeds or the error is at the root. An error at
//! a node that contains a dropped one (a struct missing the field just dropped, an input whose
//! amplitude was not a number) is a consequence, not news, and is not reported; the same rule
//! keeps validation of the partial manifest from reporting knock-on errors. A registry field
//! the manifest cannot do without (`id`, `kind`, `source`, `content`, `status`) gets a stand-in
//! when it is missing or dropped, so that an invalid `kind` does not hide the problems of the
//! runs.

use crate::de::NodeDe;
use crate::error::DeError;
use crate::locate::{parse_path, PathSeg};
use crate::tree::{self, Entry, Node, NodeKind};
use crate::{Diagnostic, Manifest};
use serde::Deserialize;

/// A parsed file. Paths given to its methods are paths in the deserialized [`Manifest`]
/// (`runs[1].params.k`), whose list indices skip the dropped items.
#[derive(Clone, Debug, Default)]
pub struct Document {
    root: Option<Node>,
    /// Paths (file indices) of the dropped nodes.
    removed: Vec<Vec<PathSeg>>,
}

impl Document {
    pub(crate) fn new(root: Option<Node>) -> Self {
        let mut removed = Vec::new();
        if let Some(r) = &root {
            r.removed_paths(&mut Vec::new(), &mut removed);
        }
        Document { root, removed }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// Deserialize the whole file as a `T` (a document declaration): the value or the first
    /// error, located.
    pub(crate) fn deserialize_as<T: for<'de> Deserialize<'de>>(&self) -> Result<T, DeError> {
        let root = self
            .root
            .as_ref()
            .ok_or_else(|| <DeError as serde::de::Error>::custom("the file is empty"))?;
        T::deserialize(NodeDe::new(root, Vec::new())).map_err(|e| e.located(root, &[], false))
    }

    /// Deserialize what can be: the manifest (None when the root itself is unusable) and the
    /// errors that are not consequences of earlier ones.
    pub(crate) fn deserialize(&mut self) -> (Option<Manifest>, Vec<DeError>) {
        let mut errors = Vec::new();
        // Each round drops one node, so the loop ends; the bound is a second guard.
        for _ in 0..10_000 {
            let Some(root) = &self.root else { break };
            let e = match Manifest::deserialize(NodeDe::new(root, Vec::new())) {
                Ok(m) => return (Some(m), errors),
                Err(e) => e.located(root, &[], false),
            };
            let path = e.at.as_ref().map(|a| a.path.clone()).unwrap_or_default();
            let cause = e.cause_path();
            if !self.touches_removed(&cause) {
                errors.push(e);
            }
            let fixed = if path.is_empty() {
                self.stand_in(&cause)
            } else {
                self.remove(&path)
            };
            if !fixed {
                break;
            }
        }
        (None, errors)
    }

    /// Whether a file path is at, above or below a dropped node.
    fn touches_removed(&self, p: &[PathSeg]) -> bool {
        self.removed.iter().any(|r| r.starts_with(p) || p.starts_with(r))
    }

    /// A required registry field is missing or was dropped as invalid: put a stand-in in its
    /// place so that the rest of the manifest is still checked. Its path counts as dropped, so
    /// every error about the stand-in is a knock-on error.
    fn stand_in(&mut self, cause: &[PathSeg]) -> bool {
        let [PathSeg::Key(key)] = cause else { return false };
        let text = |t: &str| Node {
            line: 1,
            col: 1,
            removed: false,
            kind: NodeKind::Scalar {
                text: t.to_string(),
                plain: false,
            },
        };
        let entry = |key: &str, value: Node| Entry {
            key: key.to_string(),
            line: 1,
            col: 1,
            value,
        };
        let value = match key.as_str() {
            "id" => text(""),
            "kind" => text("figure"),
            "content" => text("simulation"),
            "status" => text("reproduced"),
            "source" => Node {
                kind: NodeKind::Map(vec![
                    entry("document", text("")),
                    entry("number", text("")),
                    entry("caption", text("")),
                    entry(
                        "lines",
                        Node {
                            kind: NodeKind::Seq(Vec::new()),
                            ..text("")
                        },
                    ),
                ]),
                ..text("")
            },
            _ => return false,
        };
        let Some(Node {
            kind: NodeKind::Map(es),
            ..
        }) = self.root.as_mut()
        else {
            return false;
        };
        // Once only: the stand-in is the entry that is not dropped.
        if es.iter().any(|e| e.key == *key && !e.value.removed) {
            return false;
        }
        es.push(entry(key, value));
        self.removed.push(cause.to_vec());
        true
    }

    /// Drop the node at a file path; false for the root or a node already dropped.
    fn remove(&mut self, path: &[PathSeg]) -> bool {
        if path.is_empty() {
            return false;
        }
        let mut node = match self.root.as_mut() {
            Some(n) => n,
            None => return false,
        };
        for seg in path {
            node = match node.child_mut(seg) {
                Some(n) => n,
                None => return false,
            };
        }
        if node.removed {
            return false;
        }
        node.removed = true;
        self.removed.push(path.to_vec());
        true
    }

    /// Drop the node at a manifest path after a later stage found it invalid (an unknown
    /// constant, say), so that what depends on it is a knock-on error, not reported again.
    /// False if there is no such node or it was dropped already.
    pub fn drop_invalid(&mut self, path: &str) -> bool {
        let at = self.original(&parse_path(path));
        self.remove(&at)
    }

    /// The file path of a manifest path: list indices count the dropped items too.
    pub fn original(&self, path: &[PathSeg]) -> Vec<PathSeg> {
        let mut out = Vec::with_capacity(path.len());
        let mut node = self.root.as_ref();
        for seg in path {
            let next = match (node.map(|n| &n.kind), seg) {
                (Some(NodeKind::Seq(items)), PathSeg::Index(k)) => {
                    match items.iter().enumerate().filter(|(_, n)| !n.removed).nth(*k) {
                        Some((i, n)) => {
                            out.push(PathSeg::Index(i));
                            Some(n)
                        }
                        None => {
                            out.push(seg.clone());
                            None
                        }
                    }
                }
                _ => {
                    out.push(seg.clone());
                    node.and_then(|n| n.child(seg))
                }
            };
            node = next;
        }
        out
    }

    /// Whether something at or under this manifest path was dropped as invalid (or the path is
    /// inside a stand-in for a dropped field): an error reported there now would be a
    /// consequence of that one.
    pub fn is_knock_on(&self, path: &str) -> bool {
        self.touches_removed(&self.original(&parse_path(path)))
    }

    /// The `key` (as written) of every item of the top-level list `list` that was dropped or
    /// lost a part as invalid: what refers to these items is not checked again.
    pub fn damaged_items(&self, list: &str, key: &str) -> Vec<String> {
        let list_seg = PathSeg::Key(list.to_string());
        let items = match self.root.as_ref().and_then(|r| r.child(&list_seg)) {
            Some(Node {
                kind: NodeKind::Seq(items),
                ..
            }) => items,
            _ => return Vec::new(),
        };
        let key = PathSeg::Key(key.to_string());
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = [list_seg.clone(), PathSeg::Index(i)];
            if !self.removed.iter().any(|r| r.starts_with(&at)) {
                continue;
            }
            if let Some(Node {
                kind: NodeKind::Scalar { text, .. },
                ..
            }) = item.child(&key)
            {
                out.push(text.clone());
            }
        }
        out
    }

    /// `(line, column)` of a manifest path (its deepest prefix written in the file).
    pub fn position(&self, path: &str) -> (usize, usize) {
        tree::find(self.root.as_ref(), &self.original(&parse_path(path)))
    }

    /// A located diagnostic for a problem at a manifest path, or None for a knock-on error.
    pub fn diagnostic(
        &self,
        file: &str,
        path: &str,
        message: impl Into<String>,
        allowed: impl Into<String>,
    ) -> Option<Diagnostic> {
        if self.is_knock_on(path) {
            return None;
        }
        let (line, column) = self.position(path);
        Some(Diagnostic {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
            allowed: allowed.into(),
        })
    }
}
