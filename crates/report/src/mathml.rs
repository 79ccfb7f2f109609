//! Captions, notes and table cells for the HTML report: read by the one prose typesetter
//! ([`fric_typeset::prose`], which the LaTeX route prints too) and printed here, text HTML-escaped
//! and each mathematics token (a `$...$` span, a math command written in prose, `\dot{u}`, a
//! script word, `a_{θ}`, a Greek letter with digits, `σ1`) converted to presentation MathML when
//! the report is generated, so a browser shows the mathematics without network or scripts. A
//! caption whose `$...$` the LaTeX route refuses ([`crate::pgf::check_math`]) is escaped text.

use crate::site::html_escape as escape;
use fric_typeset::prose::{self, Tok};
// The character tables of every route (fric-typeset's): a name read here is a character the
// labels' SVG and LaTeX print.
use fric_typeset::symbols::{greek_letter, symbol_of, ACCENTS, FUNCTIONS};

/// A table's cells as an HTML table (header, rows, then the notes), each cell's text as a
/// caption's.
pub fn table_html(t: &crate::TableCells) -> String {
    let cells = |tag: &str, row: &[String]| -> String {
        row.iter()
            .map(|c| format!("<{tag}>{}</{tag}>", caption_html(c)))
            .collect()
    };
    let mut out = format!(
        r#"<table class="data"><thead><tr>{}</tr></thead><tbody>"#,
        cells("th", &t.columns)
    );
    for r in &t.rows {
        out.push_str(&format!("<tr>{}</tr>", cells("td", r)));
    }
    out.push_str("</tbody></table>");
    for n in &t.notes {
        out.push_str(&format!(r#"<p class="muted">{}</p>"#, caption_html(n)));
    }
    out
}

/// A caption as HTML: the prose typesetter's tokens ([`prose::caption`], the same the LaTeX
/// route prints), text escaped and mathematics as MathML.
pub fn caption_html(s: &str) -> String {
    tokens_html(&prose::caption(s))
}

/// Tokens as HTML.
pub fn tokens_html(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| match t {
            Tok::Text(s) => escape(s),
            Tok::Math(m) => math(m),
            Tok::Sub(s) => format!("<sub>{}</sub>", escape(s)),
            Tok::Sup(s) => format!("<sup>{}</sup>", escape(s)),
        })
        .collect()
}

/// One `$...$` span as an inline `<math>` element.
pub fn math(tex: &str) -> String {
    let cs: Vec<char> = tex.chars().collect();
    let mut p = Parser { cs: &cs, i: 0 };
    format!(r#"<math display="inline"><mrow>{}</mrow></math>"#, p.row(false))
}

struct Parser<'a> {
    cs: &'a [char],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.cs.get(self.i).copied()
    }

    /// Atoms with their scripts up to the end (or the closing `}` when `group`).
    fn row(&mut self, group: bool) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c == '}' {
                if group {
                    self.i += 1;
                    return out;
                }
                self.i += 1;
                continue;
            }
            if c.is_whitespace() {
                self.i += 1;
                continue;
            }
            let base = self.atom();
            out.push_str(&self.scripts(base));
        }
        out
    }

    /// `base` with the `_` and `^` scripts that follow it.
    fn scripts(&mut self, base: String) -> String {
        let (mut sub, mut sup) = (None, None);
        loop {
            match self.peek() {
                Some('_') if sub.is_none() => {
                    self.i += 1;
                    sub = Some(self.atom());
                }
                Some('^') if sup.is_none() => {
                    self.i += 1;
                    sup = Some(self.atom());
                }
                _ => break,
            }
        }
        match (sub, sup) {
            (None, None) => base,
            (Some(b), None) => format!("<msub>{base}{b}</msub>"),
            (None, Some(p)) => format!("<msup>{base}{p}</msup>"),
            (Some(b), Some(p)) => format!("<msubsup>{base}{b}{p}</msubsup>"),
        }
    }

    /// One atom: a group, a command with its arguments, a number, a letter or an operator.
    fn atom(&mut self) -> String {
        let Some(c) = self.peek() else {
            return "<mrow></mrow>".into();
        };
        self.i += 1;
        match c {
            '{' => format!("<mrow>{}</mrow>", self.row(true)),
            '\\' => self.command(),
            c if c.is_ascii_digit() || c == '.' => {
                let mut n = c.to_string();
                while let Some(d) = self.peek().filter(|d| d.is_ascii_digit() || *d == '.') {
                    n.push(d);
                    self.i += 1;
                }
                format!("<mn>{n}</mn>")
            }
            c if c.is_alphabetic() => format!("<mi>{}</mi>", escape(&c.to_string())),
            '\'' => "<mo>′</mo>".into(),
            // U+2212, as every minus of the figures and prose.
            '-' => "<mo>−</mo>".into(),
            c => format!("<mo>{}</mo>", escape(&c.to_string())),
        }
    }

    /// The text of a `{...}` argument, as written.
    fn raw_arg(&mut self) -> String {
        if self.peek() != Some('{') {
            return self
                .peek()
                .map(|c| {
                    self.i += 1;
                    c.to_string()
                })
                .unwrap_or_default();
        }
        self.i += 1;
        let (mut depth, mut out) = (0, String::new());
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                _ => {}
            }
            out.push(c);
        }
        out
    }

    /// A command after its backslash.
    fn command(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
        let name: String = self.cs[start..self.i].iter().collect();
        if name.is_empty() {
            // A control symbol: `\,` `\;` `\!` `\ ` space, `\{` `\%` ... the character.
            let Some(c) = self.peek() else {
                return String::new();
            };
            self.i += 1;
            return match c {
                ',' | ';' | ':' | ' ' => r#"<mspace width="0.2em"></mspace>"#.into(),
                '!' => String::new(),
                c => format!("<mo>{}</mo>", escape(&c.to_string())),
            };
        }
        if let Some(g) = greek_letter(&name) {
            return format!("<mi>{g}</mi>");
        }
        if let Some(s) = symbol_of(&name) {
            return format!("<mo>{}</mo>", escape(&s.to_string()));
        }
        if FUNCTIONS.contains(&name.as_str()) {
            return format!("<mi>{name}</mi>");
        }
        if let Some((_, a, _)) = ACCENTS.iter().find(|(n, _, _)| *n == name) {
            let arg = self.atom();
            return format!(r#"<mover accent="true">{arg}<mo>{a}</mo></mover>"#);
        }
        match name.as_str() {
            "frac" | "dfrac" | "tfrac" => {
                let (a, b) = (self.atom(), self.atom());
                format!("<mfrac>{a}{b}</mfrac>")
            }
            "sqrt" => format!("<msqrt>{}</msqrt>", self.atom()),
            "underline" => format!(r#"<munder accentunder="true">{}<mo>_</mo></munder>"#, self.atom()),
            // `\text{--}` (a range, `518\text{--}573`) is an en dash, as LaTeX prints it.
            // An operator name (`\operatorname{sgn}`) is an identifier, upright as `\sin` is.
            "operatorname" => format!("<mi>{}</mi>", escape(&self.raw_arg())),
            "mathrm" | "text" | "textrm" => {
                format!("<mtext>{}</mtext>", escape(&self.raw_arg().replace("--", "–")))
            }
            "mathcal" => script_letters(&self.raw_arg()),
            "mathbf" | "mathit" | "mathsf" => format!("<mrow>{}</mrow>", self.atom()),
            // A font switch (`{\rm d}`): the letters stay.
            "rm" | "it" | "bf" => String::new(),
            other => format!("<mtext>\\{}</mtext>", escape(other)),
        }
    }
}

/// `\mathcal{...}`: capital letters in the script alphabet.
fn script_letters(s: &str) -> String {
    let letter = |c: char| -> char {
        let special = [
            ('B', 'ℬ'),
            ('E', 'ℰ'),
            ('F', 'ℱ'),
            ('H', 'ℋ'),
            ('I', 'ℐ'),
            ('L', 'ℒ'),
            ('M', 'ℳ'),
            ('R', 'ℛ'),
        ];
        if let Some((_, s)) = special.iter().find(|(k, _)| *k == c) {
            return *s;
        }
        if c.is_ascii_uppercase() {
            char::from_u32(0x1D49C + (c as u32 - 'A' as u32)).unwrap_or(c)
        } else {
            c
        }
    };
    let t: String = s.chars().map(letter).collect();
    format!("<mi>{}</mi>", escape(&t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_units_names_and_exponents_read_as_in_latex() {
        // The range's dash and the unit upright, as the LaTeX route prints them
        // (fric_typeset's formula readings).
        let h = math(r"t = 518\text{--}573, 8\,\mathrm{s}");
        assert!(h.contains("<mtext>–</mtext>") && h.contains("<mtext>s</mtext>"), "{h}");
        let h = math(r"\text{swing} = 3.45\times10^{-5}");
        assert!(h.contains("<mtext>swing</mtext>") && h.contains("×"), "{h}");
    }

    #[test]
    fn caption_math_becomes_mathml() {
        let h = caption_html(r"Velocity \dot{u} versus F for $\gamma = 0$ and $\mathcal{H}_T$, a < b");
        assert!(h.starts_with("Velocity <math"), "{h}");
        assert!(
            h.contains(r#"<mover accent="true"><mrow><mi>u</mi></mrow><mo>˙</mo></mover>"#),
            "{h}"
        );
        assert!(h.contains("<mi>γ</mi><mo>=</mo><mn>0</mn>"), "{h}");
        assert!(h.contains("<msub><mi>ℋ</mi><mi>T</mi></msub>"), "{h}");
        // A relation in prose is one formula, as in a label (issue 45 item 4).
        assert!(h.ends_with("<mi>a</mi><mo>&lt;</mo><mi>b</mi></mrow></math>"), "{h}");
        assert!(!h.contains('$') && !h.contains('\\'), "{h}");
        assert_eq!(
            math(r"\frac{x_1^2}{\sqrt{2}}"),
            "<math display=\"inline\"><mrow><mfrac><mrow><msubsup><mi>x</mi><mn>1</mn><mn>2</mn></msubsup></mrow><mrow><msqrt><mrow><mn>2</mn></mrow></msqrt></mrow></mfrac></mrow></math>"
        );
    }

    #[test]
    fn tables_are_html_tables() {
        let t = crate::TableCells {
            columns: vec!["$\\sigma_0$".into(), "F [N]".into()],
            rows: vec![vec!["1".into(), "a<b".into()]],
            notes: vec!["from L7".into()],
        };
        let h = table_html(&t);
        assert!(h.starts_with(r#"<table class="data"><thead><tr><th><math"#), "{h}");
        assert!(h.contains("<tr><td>1</td><td>a&lt;b</td></tr>"), "{h}");
        assert!(h.ends_with(r#"</table><p class="muted">from L7</p>"#), "{h}");
    }

    #[test]
    fn refused_math_is_escaped_text() {
        let h = caption_html(r"$\input{/etc/passwd}$ <b>");
        assert_eq!(h, r"$\input{/etc/passwd}$ &lt;b&gt;");
    }

    #[test]
    fn prose_is_typeset_as_in_latex() {
        // The s52 audit's examples: raw in the HTML, typeset in LaTeX.
        let h = caption_html("a_{θ} and σ1 at (y_c, q_c); the \\vee -unimodal f_+ and f_-.");
        assert!(!h.contains('_') && !h.contains('\\') && !h.contains("σ1"), "{h}");
        assert!(h.contains("<msub><mi>σ</mi><mrow><mn>1</mn></mrow></msub>"), "{h}");
        assert!(h.contains("<mo>∨</mo></mrow></math>-unimodal"), "{h}");
        assert!(h.contains("<msub><mi>f</mi><mrow><mo>−</mo></mrow></msub>"), "{h}");
    }

    /// Every character, function and accent the label typesetter prints in LaTeX
    /// (`fric_typeset::tex::math`) reads back here as that character, not as unknown LaTeX: the
    /// HTML route and the SVG/LaTeX routes share fric-typeset's tables and cannot drift.
    #[test]
    fn every_symbol_the_typesetter_knows_renders_in_mathml() {
        use fric_typeset::symbols::{accent, precomposed, GREEK, PRINTED, SYMBOLS};
        let back = |label: &str| math(&fric_typeset::tex::math(label));
        let printed = SYMBOLS[..PRINTED].iter().map(|(_, c)| *c);
        for c in GREEK.chars().chain(printed) {
            let h = back(&c.to_string());
            assert!(
                h.contains(&escape(&c.to_string())) && !h.contains("<mtext>"),
                "{c}: {h}"
            );
        }
        for (name, c) in SYMBOLS {
            let h = math(name);
            assert!(
                h.contains(&format!("<mo>{}</mo>", escape(&c.to_string()))),
                "{name}: {h}"
            );
        }
        for f in fric_typeset::tex::FUNCTIONS {
            let h = back(&format!("{f}(x)"));
            assert!(h.contains(&format!("<mi>{f}</mi>")), "{f}: {h}");
        }
        let combining = ACCENTS.iter().filter_map(|a| a.2).filter_map(accent);
        let composed = "āēīōūȳĀĒŪẋẏ".chars().filter_map(|c| precomposed(c).map(|p| p.1));
        for name in combining.chain(composed) {
            let h = math(&format!("\\{name}{{u}}"));
            assert!(h.contains("<mover accent=\"true\">"), "{name}: {h}");
        }
    }

    #[test]
    fn prose_minus_signs_are_minus_signs() {
        // A table note (identified LuGre parameters) printed "-13.2/-9.99e3" with hyphens.
        // Now each signed number is one formula, as in the LaTeX tables (`$-13.2$`): the minus a
        // MathML operator beside its number, e-notation a power of ten; `x-y` a hyphen.
        let h = caption_html("roots -13.2/-9.99e3, x-y");
        let number = r#"<math display="inline"><mrow><mo>−</mo><mn>13.2</mn></mrow></math>/"#;
        assert!(h.starts_with(&format!("roots {number}")), "{h}");
        assert!(h.contains("<mo>×</mo><msup><mn>10</mn>") && h.ends_with(", x-y"), "{h}");
    }
}
