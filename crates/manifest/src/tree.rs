//! A YAML document as a tree of located nodes, built from yaml-rust2's event stream.
//!
//! Building the tree is where the problems a deserializer cannot see are found: a key written
//! twice in one mapping (serde keeps the last value of a map), anchors, aliases and tags (not
//! part of the manifest format), keys that are not plain names, a second document, nesting too
//! deep to be a manifest. Each is reported at its own line; the offending entry is dropped
//! (duplicates) or kept as a removed placeholder (aliases, too deep), so that what remains can
//! still be deserialized and checked.

use crate::locate::PathSeg;
use yaml_rust2::parser::{MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::Event;

/// Deeper than any manifest (root → runs → run → params → long form → list is 6).
const MAX_DEPTH: usize = 32;

#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// 1-based line and column where the node starts.
    pub line: usize,
    pub col: usize,
    /// Dropped from the manifest because it is invalid: skipped by the deserializer.
    pub removed: bool,
    pub kind: NodeKind,
}

#[derive(Clone, Debug)]
pub(crate) enum NodeKind {
    /// The text as written; `plain` is false for quoted and block scalars (always text).
    Scalar {
        text: String,
        plain: bool,
    },
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub key: String,
    /// Position of the key.
    pub line: usize,
    pub col: usize,
    pub value: Node,
}

/// A problem found in the text or its structure, before deserialization.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Issue {
    pub line: usize,
    pub col: usize,
    pub message: String,
    pub allowed: String,
}

impl Issue {
    pub fn new(line: usize, col: usize, message: impl Into<String>, allowed: impl Into<String>) -> Self {
        Issue {
            line: line.max(1),
            col: col.max(1),
            message: message.into(),
            allowed: allowed.into(),
        }
    }
}

impl Node {
    fn at(m: Marker, kind: NodeKind) -> Self {
        Node {
            line: m.line(),
            col: m.col() + 1,
            removed: false,
            kind,
        }
    }

    /// The child at one path segment (removed children included).
    pub fn child(&self, seg: &PathSeg) -> Option<&Node> {
        match (&self.kind, seg) {
            (NodeKind::Map(es), PathSeg::Key(k)) => es.iter().find(|e| e.key == *k).map(|e| &e.value),
            (NodeKind::Seq(items), PathSeg::Index(i)) => items.get(*i),
            _ => None,
        }
    }

    pub fn child_mut(&mut self, seg: &PathSeg) -> Option<&mut Node> {
        match (&mut self.kind, seg) {
            (NodeKind::Map(es), PathSeg::Key(k)) => es.iter_mut().find(|e| e.key == *k).map(|e| &mut e.value),
            (NodeKind::Seq(items), PathSeg::Index(i)) => items.get_mut(*i),
            _ => None,
        }
    }

    /// Paths (original indices) of every removed node under this one.
    pub fn removed_paths(&self, path: &mut Vec<PathSeg>, out: &mut Vec<Vec<PathSeg>>) {
        if self.removed {
            out.push(path.clone());
            return;
        }
        match &self.kind {
            NodeKind::Scalar { .. } => {}
            NodeKind::Seq(items) => {
                for (i, n) in items.iter().enumerate() {
                    path.push(PathSeg::Index(i));
                    n.removed_paths(path, out);
                    path.pop();
                }
            }
            NodeKind::Map(es) => {
                for e in es {
                    path.push(PathSeg::Key(e.key.clone()));
                    e.value.removed_paths(path, out);
                    path.pop();
                }
            }
        }
    }

    /// How the node reads in a message: its text, or what kind of collection it is.
    pub fn describe(&self) -> String {
        match &self.kind {
            NodeKind::Scalar { text, plain: true } if text.is_empty() => "nothing".into(),
            NodeKind::Scalar { text, plain } => {
                let mut t: String = text.chars().take(40).collect();
                if t.len() < text.len() {
                    t.push('…');
                }
                if *plain {
                    format!("`{t}`")
                } else {
                    format!("`\"{t}\"`")
                }
            }
            NodeKind::Seq(_) => "a list".into(),
            NodeKind::Map(_) => "a mapping".into(),
        }
    }
}

/// `(line, column)` of the deepest prefix of `path` written in the document: a key's position
/// for a mapping entry, an item's for a list item; (1, 1) when nothing matches.
pub(crate) fn find(root: Option<&Node>, path: &[PathSeg]) -> (usize, usize) {
    let mut best = (1, 1);
    let mut node = match root {
        Some(n) => n,
        None => return best,
    };
    for seg in path {
        match (&node.kind, seg) {
            (NodeKind::Map(es), PathSeg::Key(k)) => match es.iter().find(|e| e.key == *k) {
                Some(e) => {
                    best = (e.line, e.col);
                    node = &e.value;
                }
                None => break,
            },
            (NodeKind::Seq(items), PathSeg::Index(i)) => match items.get(*i) {
                Some(n) => {
                    best = (n.line, n.col);
                    node = n;
                }
                None => break,
            },
            _ => break,
        }
    }
    best
}

struct Frame {
    node: Node,
    /// In a mapping: the key read, waiting for its value; `skip` drops the entry.
    pending: Option<(String, usize, usize, bool)>,
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    root: Option<Node>,
    issues: Vec<Issue>,
    docs: usize,
    /// Open containers inside a subtree that is too deep (ignored), and where it started.
    skip: usize,
    skip_at: (usize, usize),
    /// Anchors and aliases seen, and the index in `issues` of the one issue they give (an
    /// anchor bomb has hundreds: one error, with the count, not one each).
    anchors: usize,
    anchor_issue: Option<usize>,
}

/// Whether `c` would reach the outputs (HTML, TeX, SVG) as an invisible or breaking character:
/// a control character other than tab, line feed and carriage return (NUL and BEL break the SVG
/// and TeX), a bidirectional override or isolate (U+202A–U+202E, U+2066–U+2069: reorder what
/// the reader sees) or a byte-order mark / zero-width no-break space (U+FEFF). Escapes in quoted
/// strings (`"\0"`, `"\a"`, `"\u202E"`) produce them.
fn invisible_control(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

impl Builder {
    fn issue(&mut self, m: Marker, message: impl Into<String>, allowed: impl Into<String>) {
        self.issues.push(Issue::new(m.line(), m.col() + 1, message, allowed));
    }

    fn extras(&mut self, m: Marker, anchor: usize, tag: bool) {
        if anchor > 0 {
            self.anchors += 1;
            match self.anchor_issue {
                Some(i) => {
                    self.issues[i].message = format!(
                        "anchors (`&name`) and aliases (`*name`) are not used in manifests \
                         ({} in this file; this is the first)",
                        self.anchors
                    );
                }
                None => {
                    self.anchor_issue = Some(self.issues.len());
                    self.issue(
                        m,
                        "anchors (`&name`) and aliases (`*name`) are not used in manifests",
                        "write the value out",
                    );
                }
            }
        }
        if tag {
            self.issue(m, "YAML tags (`!name`) are not used in manifests", "an untagged value");
        }
    }

    /// A finished node: an item, a key, or a key's value.
    fn add(&mut self, node: Node) {
        let Some(f) = self.stack.last_mut() else {
            if self.root.is_none() {
                self.root = Some(node);
            }
            return;
        };
        let mut issue = None;
        match &mut f.node.kind {
            NodeKind::Seq(items) => items.push(node),
            NodeKind::Map(entries) => match f.pending.take() {
                Some((key, line, col, skip)) => {
                    if !skip {
                        entries.push(Entry {
                            key,
                            line,
                            col,
                            value: node,
                        });
                    }
                }
                None => match node.kind {
                    NodeKind::Scalar { text, .. } if !node.removed => {
                        let first = entries.iter().find(|e| e.key == text).map(|e| e.line);
                        if let Some(first) = first {
                            issue = Some(Issue::new(
                                node.line,
                                node.col,
                                format!("duplicate key `{text}` (first written at line {first})"),
                                "each key once per mapping",
                            ));
                        }
                        f.pending = Some((text, node.line, node.col, first.is_some()));
                    }
                    _ => {
                        if !node.removed {
                            issue = Some(Issue::new(
                                node.line,
                                node.col,
                                format!("a key must be a name, got {}", node.describe()),
                                "key: value",
                            ));
                        }
                        f.pending = Some((String::new(), node.line, node.col, true));
                    }
                },
            },
            NodeKind::Scalar { .. } => {}
        }
        self.issues.extend(issue);
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, m: Marker) {
        match ev {
            Event::DocumentStart => {
                self.docs += 1;
                if self.docs == 2 {
                    self.issue(m, "a second YAML document (`---`)", "one document per manifest");
                }
            }
            _ if self.docs > 1 => {}
            Event::Scalar(..) | Event::Alias(_) if self.skip > 0 => {}
            Event::Scalar(text, style, anchor, tag) => {
                self.extras(m, anchor, tag.is_some());
                if let Some(c) = text.chars().find(|&c| invisible_control(c)) {
                    self.issue(
                        m,
                        format!(
                            "control or invisible formatting character U+{:04X} in a value (an escape in a quoted string?)",
                            c as u32
                        ),
                        "printable text; a line break, tab or carriage return is allowed",
                    );
                }
                let plain = style == TScalarStyle::Plain;
                self.add(Node::at(m, NodeKind::Scalar { text, plain }));
            }
            Event::Alias(_) => {
                self.extras(m, 1, false);
                let text = String::new();
                let mut n = Node::at(m, NodeKind::Scalar { text, plain: true });
                n.removed = true;
                self.add(n);
            }
            Event::MappingStart(anchor, ref tag) | Event::SequenceStart(anchor, ref tag) => {
                if self.skip > 0 || self.stack.len() >= MAX_DEPTH {
                    if self.skip == 0 {
                        self.issue(
                            m,
                            format!("nested deeper than {MAX_DEPTH} levels"),
                            "a manifest's structure",
                        );
                        self.skip_at = (m.line(), m.col() + 1);
                    }
                    self.skip += 1;
                    return;
                }
                self.extras(m, anchor, tag.is_some());
                let kind = match ev {
                    Event::MappingStart(..) => NodeKind::Map(Vec::new()),
                    _ => NodeKind::Seq(Vec::new()),
                };
                self.stack.push(Frame {
                    node: Node::at(m, kind),
                    pending: None,
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if self.skip > 0 {
                    self.skip -= 1;
                    if self.skip == 0 {
                        let (line, col) = self.skip_at;
                        let kind = NodeKind::Scalar {
                            text: String::new(),
                            plain: true,
                        };
                        self.add(Node {
                            line,
                            col,
                            removed: true,
                            kind,
                        });
                    }
                    return;
                }
                let Some(mut f) = self.stack.pop() else { return };
                // A block mapping's start event is marked after its first key: use the key.
                if let NodeKind::Map(es) = &f.node.kind {
                    if let Some(e) = es.first() {
                        if (e.line, e.col) < (f.node.line, f.node.col) {
                            (f.node.line, f.node.col) = (e.line, e.col);
                        }
                    }
                }
                self.add(f.node);
            }
            _ => {}
        }
    }
}

/// The tree of the first document with the problems found, or the scanner's error.
pub(crate) fn build(text: &str) -> Result<(Option<Node>, Vec<Issue>), Issue> {
    let mut b = Builder::default();
    let mut p = Parser::new_from_str(text);
    if let Err(e) = p.load(&mut b, true) {
        let m = e.marker();
        return Err(Issue::new(m.line(), m.col() + 1, e.info().to_string(), ""));
    }
    Ok((b.root, b.issues))
}
