//! The SVG backend of the label typesetter: a label's runs ([`crate::parse`]) as the content
//! of an SVG `text` element (escaped text, `tspan`s for scripts), and the rewrite of the text
//! elements plotters wrote.

use crate::tree::{parse, Run};

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

/// The content of an SVG `text` element for a label: escaped text and `tspan`s for scripts.
pub fn svg(label: &str) -> String {
    let mut o = String::new();
    let mut prev_sub = false;
    for r in parse(label) {
        let sub = matches!(r, Run::Sub(_));
        match r {
            Run::Text(s) => o.push_str(&escape(&s)),
            Run::Sub(s) => o.push_str(&format!(
                r#"<tspan baseline-shift="-0.3em" font-size="72%">{}</tspan>"#,
                escape(&s)
            )),
            // A superscript right after a subscript (`F_f^l`) starts with a zero-width
            // non-joiner: the shaper otherwise joined the two scripts' letters into one ligature
            // glyph (`fl`), drawn at the subscript's place, and the PNG read "F_fl".
            Run::Sup(s) if prev_sub => o.push_str(&format!(
                r#"<tspan baseline-shift="0.55em" font-size="72%">{}{}</tspan>"#,
                '\u{200c}',
                escape(&s)
            )),
            Run::Sup(s) => o.push_str(&format!(
                r#"<tspan baseline-shift="0.55em" font-size="72%">{}</tspan>"#,
                escape(&s)
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
}
