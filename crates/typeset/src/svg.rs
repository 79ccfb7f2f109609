//! The SVG backend of the label typesetter: a label's runs ([`crate::parse`]) as the content
//! of an SVG `text` element (escaped text, `tspan`s for scripts), and the rewrite of the text
//! elements plotters wrote.

use crate::tree::{parse, Run};

/// The zero-width non-joiner: drawn as nothing, it keeps the shaper from joining the letters on
/// its two sides into one glyph.
pub const ZWNJ: char = '\u{200c}';
/// [`ZWNJ`] as a string.
const ZWNJ_STR: &str = "\u{200c}";

/// The standard ligatures the bundled font (DejaVu Sans) forms, longest first: in a word of text
/// they are normal typography; across two runs (a letter and its script) they are a fault, which
/// [`svg`] prevents. Measured, not assumed: fric-plot's `measure` test lays out every pair of
/// letters and digits and finds exactly these.
pub const LIGATURES: [&str; 5] = ["ffi", "ffl", "ff", "fi", "fl"];

/// Whether the shaper would join the last character of one run and the first of the next.
fn would_join(prev: Option<char>, next: Option<char>) -> bool {
    let (Some(a), Some(b)) = (prev, next) else {
        return false;
    };
    let pair: String = [a, b].into_iter().collect();
    LIGATURES.iter().any(|l| l.contains(&pair))
}

pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            c => o.push(c),
        }
    }
    o
}

pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// A script's letters with a [`ZWNJ`] between any two the font would join: mathematics never
/// ligates (`x_{fi}` is f times i).
fn unjoined(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    let mut prev = None;
    for c in s.chars() {
        if would_join(prev, Some(c)) {
            o.push(ZWNJ);
        }
        o.push(c);
        prev = Some(c);
    }
    o
}

/// The content of an SVG `text` element for a label: escaped text and `tspan`s for scripts.
/// A run whose first letter would join the previous run's last one into a ligature glyph
/// ([`LIGATURES`]: `f_i`, a letter and its script) starts with a [`ZWNJ`], and so does any such
/// pair inside a script: mathematics never ligates, and a glyph must not stand for two runs.
pub fn svg(label: &str) -> String {
    let mut o = String::new();
    let mut prev_sub = false;
    let mut last: Option<char> = None;
    for r in parse(label) {
        let sub = matches!(r, Run::Sub(_));
        let body: &str = match &r {
            Run::Text(s) | Run::Sub(s) | Run::Sup(s) => s,
        };
        let apart = if would_join(last, body.chars().next()) && !(prev_sub && matches!(r, Run::Sup(_))) {
            ZWNJ_STR
        } else {
            ""
        };
        last = body.chars().last().or(last);
        match &r {
            Run::Text(s) => o.push_str(&format!("{apart}{}", escape(s))),
            Run::Sub(s) => o.push_str(&format!(
                r#"<tspan baseline-shift="-0.3em" font-size="72%">{apart}{}</tspan>"#,
                escape(&unjoined(s))
            )),
            // A superscript right after a subscript (`F_f^l`) starts with a zero-width
            // non-joiner: the shaper otherwise joined the two scripts' letters into one ligature
            // glyph (`fl`), drawn at the subscript's place, and the PNG read "F_fl".
            Run::Sup(s) if prev_sub => o.push_str(&format!(
                r#"<tspan baseline-shift="0.55em" font-size="72%">{}{}</tspan>"#,
                ZWNJ,
                escape(&unjoined(s))
            )),
            Run::Sup(s) => o.push_str(&format!(
                r#"<tspan baseline-shift="0.55em" font-size="72%">{apart}{}</tspan>"#,
                escape(&unjoined(s))
            )),
        }
        prev_sub = sub;
    }
    o
}

/// Rewrite the content of every `<text>` element plotters wrote (escaped, on its own line) as
/// [`svg`] markup.
pub fn rewrite_texts(doc: &str) -> String {
    let mut out = String::with_capacity(doc.len() + doc.len() / 16);
    let mut rest = doc;
    while let Some(open) = rest.find("<text") {
        let Some(gt) = rest[open..].find('>') else { break };
        let body_start = open + gt + 1;
        let Some(close) = rest[body_start..].find("</text>") else {
            break;
        };
        let body_end = body_start + close;
        out.push_str(&rest[..body_start]);
        let raw = unescape(rest[body_start..body_end].trim_matches('\n'));
        out.push_str(&svg(&raw));
        out.push_str("</text>");
        rest = &rest[body_end + "</text>".len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plain;

    #[test]
    fn svg_markup_is_escaped_and_rewrites_plotters_text() {
        assert_eq!(
            svg("a<b & F_f"),
            r#"a&lt;b &amp; F<tspan baseline-shift="-0.3em" font-size="72%">f</tspan>"#
        );
        let doc = "<svg><text x=\"1\">\nF_f [N]\n</text><text>\n1 &lt; 2\n</text></svg>";
        assert_eq!(
            rewrite_texts(doc),
            "<svg><text x=\"1\">F<tspan baseline-shift=\"-0.3em\" font-size=\"72%\">f</tspan> [N]</text><text>1 &lt; 2</text></svg>"
        );
        assert_eq!(plain("x_{i+1}"), "xi+1");
    }

    /// A letter and its script never share a glyph: where the font would join them (`f_i`,
    /// `f^l`), the script starts with a non-joiner; elsewhere (`F_f`, `x_i`) nothing is added.
    #[test]
    fn runs_that_would_ligate_are_kept_apart() {
        let z = ZWNJ;
        assert!(svg("f_i").contains(&format!(">{z}i<")));
        assert!(svg("a f^l").contains(&format!(">{z}l<")));
        assert!(svg("F_f^l").contains(&format!(">{z}l<")));
        assert!(svg("x_{fi}").contains(&format!(">f{z}i<")));
        assert!(!svg("F_f").contains(z) && !svg("x_i").contains(z) && !svg("fitted model").contains(z));
    }
}
