//! Checks on the raw text, before it is read as YAML: byte-order marks and the syntax check,
//! whose messages are made specific where the scanner's are not (a tab in indentation).

use crate::tree::Issue;

const BOM: char = '\u{feff}';

/// The text without byte-order marks. One at the very start is allowed (YAML allows it and some
/// editors write it) and dropped; one anywhere else is an invisible character in the middle of
/// a key or value and is reported.
pub(crate) fn strip_bom(text: &str) -> (String, Vec<Issue>) {
    let body = text.strip_prefix(BOM).unwrap_or(text);
    let mut issues = Vec::new();
    if body.contains(BOM) {
        for (i, line) in body.lines().enumerate() {
            if let Some(c) = line.chars().position(|c| c == BOM) {
                issues.push(Issue::new(
                    i + 1,
                    c + 1,
                    "byte-order mark (U+FEFF, invisible) inside the file",
                    "only as the very first character of the file; remove it",
                ));
            }
        }
    }
    (body.replace(BOM, ""), issues)
}

/// The column (1-based) of a tab in the line's indentation, if any.
fn tab_in_indent(line: &str) -> Option<usize> {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .position(|c| c == '\t')
        .map(|p| p + 1)
}

/// A tab in the indentation of the error's line (or the line before): its own message.
pub(crate) fn tab_issue(text: &str, line: usize) -> Option<Issue> {
    let lines: Vec<&str> = text.lines().collect();
    for l in [line, line.saturating_sub(1)] {
        if l == 0 {
            continue;
        }
        if let Some(col) = lines.get(l - 1).and_then(|s| tab_in_indent(s)) {
            return Some(Issue::new(
                l,
                col,
                format!("tab character in indentation at line {l}; YAML indents with spaces"),
                "spaces for indentation",
            ));
        }
    }
    None
}

/// libyaml's syntax check of every document (the messages manifests have always had).
pub(crate) fn syntax(text: &str) -> Option<Issue> {
    use serde::Deserialize;
    for doc in serde_yaml::Deserializer::from_str(text) {
        if let Err(e) = serde::de::IgnoredAny::deserialize(doc) {
            let (line, col) = e.location().map(|l| (l.line(), l.column())).unwrap_or((1, 1));
            return Some(tab_issue(text, line).unwrap_or_else(|| {
                let msg = e.to_string();
                // "what at line L column C, while parsing X at line M column N": the position
                // is printed separately; the context is kept.
                let message = match msg.split_once(" at line ") {
                    Some((what, rest)) => match rest.split_once(", ") {
                        Some((_, context)) => format!("{what} ({context})"),
                        None => what.to_string(),
                    },
                    None => msg,
                };
                Issue::new(line, col, message, "")
            }));
        }
    }
    None
}

/// yaml-rust2's scanner error (text libyaml accepted): its position printed separately.
pub(crate) fn scanner_issue(text: &str, mut issue: Issue) -> Issue {
    if let Some(t) = tab_issue(text, issue.line) {
        return t;
    }
    if let Some(i) = issue.message.find(" at byte ") {
        issue.message.truncate(i);
    }
    issue
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_at_start_is_dropped_elsewhere_reported() {
        assert_eq!(strip_bom("\u{feff}id: a\n"), ("id: a\n".to_string(), vec![]));
        let (t, issues) = strip_bom("id: a\nk\u{feff}ind: b\n");
        assert_eq!(t, "id: a\nkind: b\n");
        assert_eq!((issues[0].line, issues[0].col), (2, 2));
    }

    #[test]
    fn tabs_in_indentation_have_their_own_message() {
        let i = syntax("id: a\nsource:\n\tdocument: x\n").unwrap();
        assert_eq!(
            i.message,
            "tab character in indentation at line 3; YAML indents with spaces"
        );
        assert_eq!((i.line, i.col), (3, 1));
        let i = syntax("a:\n  b: 1\n c: 2\n").unwrap();
        assert!(i.message.starts_with("did not find expected key ("), "{}", i.message);
        assert_eq!(i.line, 3);
    }
}
