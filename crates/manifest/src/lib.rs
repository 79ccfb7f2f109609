//! The experiment manifest: its schema, strict parsing and the mapping of error paths back to
//! file, line and column.
//!
//! This crate owns the YAML format only. It knows the shape of runs, panels, metrics and checks
//! but not which systems exist or what their parameters mean: that is checked by
//! `fric-experiments` and reported through [`Diagnostic`]s located with [`Locator`].

mod locate;
mod schema;

pub use locate::{parse_path, Locator, PathSeg};
pub use schema::*;

use std::fmt;

/// A problem in a manifest, located in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// What is allowed (may be empty).
    pub allowed: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)?;
        if !self.allowed.is_empty() {
            write!(f, "\n    allowed: {}", self.allowed)?;
        }
        Ok(())
    }
}

/// Parse a manifest's text. Syntax errors, unknown fields and wrong types are reported with the
/// position serde_yaml gives.
pub fn parse(file: &str, text: &str) -> Result<Manifest, Diagnostic> {
    serde_yaml::from_str::<Manifest>(text).map_err(|e| {
        let (line, column) = e.location().map(|l| (l.line(), l.column())).unwrap_or((1, 1));
        let msg = e.to_string();
        // serde_yaml appends " at line L column C"; the location is printed separately.
        let msg = match msg.find(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        let allowed = allowed_hint(&msg);
        Diagnostic {
            file: file.to_string(),
            line,
            column,
            message: msg,
            allowed,
        }
    })
}

/// Turn serde's "expected one of `a`, `b`" into the allowed list.
fn allowed_hint(msg: &str) -> String {
    if let Some(i) = msg.find("expected one of ") {
        return msg[i + "expected one of ".len()..].to_string();
    }
    if let Some(i) = msg.find("expected ") {
        return msg[i + "expected ".len()..].to_string();
    }
    String::new()
}
