//! Map a path inside a manifest (`runs[1].params.sigma0`) to the line and column where it is
//! written, so that semantic errors found after deserialisation point into the file.

use std::collections::HashMap;
use yaml_rust2::parser::{MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;
use yaml_rust2::Event;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSeg {
    Key(String),
    Index(usize),
}

impl From<&str> for PathSeg {
    fn from(s: &str) -> Self {
        PathSeg::Key(s.to_string())
    }
}
impl From<usize> for PathSeg {
    fn from(i: usize) -> Self {
        PathSeg::Index(i)
    }
}

/// Positions of every key and value of a YAML document.
#[derive(Debug, Default)]
pub struct Locator {
    pos: HashMap<Vec<PathSeg>, (usize, usize)>,
}

enum Frame {
    Map { key: Option<String> },
    Seq { next: usize },
}

struct Recv {
    stack: Vec<Frame>,
    path: Vec<PathSeg>,
    pos: HashMap<Vec<PathSeg>, (usize, usize)>,
}

impl Recv {
    /// Called when a value (scalar or container) starts at `m`; returns whether it was a key.
    fn value_start(&mut self, m: Marker, scalar: Option<&str>) -> bool {
        match self.stack.last_mut() {
            Some(Frame::Map { key }) if key.is_none() => {
                let k = scalar.unwrap_or("").to_string();
                *key = Some(k.clone());
                let mut p = self.path.clone();
                p.push(PathSeg::Key(k));
                self.pos.entry(p).or_insert((m.line(), m.col() + 1));
                true
            }
            Some(Frame::Map { key }) => {
                let k = key.clone().unwrap_or_default();
                self.path.push(PathSeg::Key(k));
                false
            }
            Some(Frame::Seq { next }) => {
                let i = *next;
                *next += 1;
                self.path.push(PathSeg::Index(i));
                self.pos.entry(self.path.clone()).or_insert((m.line(), m.col() + 1));
                false
            }
            None => false,
        }
    }
    /// A scalar or alias: a key, or a whole value that starts and ends here.
    fn scalar(&mut self, m: Marker, text: Option<&str>) {
        if !self.value_start(m, text) {
            self.value_end();
        }
    }
    /// Called when a value ends.
    fn value_end(&mut self) {
        match self.stack.last_mut() {
            Some(Frame::Map { key }) => {
                *key = None;
                self.path.pop();
            }
            Some(Frame::Seq { .. }) => {
                self.path.pop();
            }
            None => {}
        }
    }
}

impl MarkedEventReceiver for Recv {
    fn on_event(&mut self, ev: Event, m: Marker) {
        match ev {
            Event::Scalar(s, ..) => self.scalar(m, Some(&s)),
            Event::Alias(_) => self.scalar(m, None),
            Event::MappingStart(..) => {
                self.value_start(m, None);
                self.stack.push(Frame::Map { key: None });
            }
            Event::SequenceStart(..) => {
                self.value_start(m, None);
                self.stack.push(Frame::Seq { next: 0 });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
                self.value_end();
            }
            _ => {}
        }
    }
}

impl Locator {
    /// Index a document. An unparsable document gives an empty locator (serde reports the
    /// syntax error with its own position).
    pub fn new(text: &str) -> Self {
        let mut r = Recv {
            stack: Vec::new(),
            path: Vec::new(),
            pos: HashMap::new(),
        };
        let mut p = Parser::new_from_str(text);
        if p.load(&mut r, false).is_err() {
            return Self::default();
        }
        Self { pos: r.pos }
    }

    /// `(line, column)` of the deepest prefix of `path` that is written in the file (1-based).
    pub fn find(&self, path: &[PathSeg]) -> (usize, usize) {
        for n in (1..=path.len()).rev() {
            if let Some(&p) = self.pos.get(&path[..n]) {
                return p;
            }
        }
        (1, 1)
    }
}

/// Parse `a.b[2].c` into path segments.
pub fn parse_path(s: &str) -> Vec<PathSeg> {
    let mut out = Vec::new();
    for part in s.split('.') {
        let mut rest = part;
        if let Some(i) = rest.find('[') {
            if i > 0 {
                out.push(PathSeg::Key(rest[..i].to_string()));
            }
            rest = &rest[i..];
            while let Some(stripped) = rest.strip_prefix('[') {
                let end = stripped.find(']').unwrap_or(stripped.len());
                if let Ok(k) = stripped[..end].parse() {
                    out.push(PathSeg::Index(k));
                }
                rest = stripped.get(end + 1..).unwrap_or("");
            }
        } else if !rest.is_empty() {
            out.push(PathSeg::Key(rest.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_items() {
        let text = "id: a\nruns:\n  - id: r1\n    params:\n      k: [1, 2]\n      sigma: 3\n  - id: r2\n";
        let l = Locator::new(text);
        assert_eq!(l.find(&parse_path("id")), (1, 1));
        assert_eq!(l.find(&parse_path("runs[0].params.sigma")), (6, 7));
        // The first key of a mapping inside a sequence: the line is exact, the column is the
        // one yaml-rust2 reports for compact mappings.
        assert_eq!(l.find(&parse_path("runs[1].id")).0, 7);
        assert_eq!(l.find(&parse_path("runs[1].missing")).0, 7);
        assert_eq!(l.find(&parse_path("runs[0].params.k[1]")), (5, 14));
    }
}
