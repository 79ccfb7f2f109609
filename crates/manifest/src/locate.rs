//! Map a path inside a manifest (`runs[1].params.sigma0`) to the line and column where it is
//! written, so that semantic errors found after deserialisation point into the file.

use crate::tree::{self, Node};

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
    root: Option<Node>,
}

impl Locator {
    /// Index a document. An unparsable document gives an empty locator (the parser reports the
    /// syntax error with its own position).
    pub fn new(text: &str) -> Self {
        Locator {
            root: tree::build(text).ok().and_then(|(root, _)| root),
        }
    }

    /// `(line, column)` of the deepest prefix of `path` that is written in the file (1-based).
    pub fn find(&self, path: &[PathSeg]) -> (usize, usize) {
        tree::find(self.root.as_ref(), path)
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
        assert_eq!(l.find(&parse_path("runs[1].id")), (7, 5));
        assert_eq!(l.find(&parse_path("runs[1]")), (7, 5));
        assert_eq!(l.find(&parse_path("runs[1].missing")).0, 7);
        assert_eq!(l.find(&parse_path("runs[0].params.k[1]")), (5, 14));
    }
}
