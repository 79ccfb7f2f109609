//! The one prose typesetter: manifest text (captions, notes, table cells, titles, the text
//! parts of labels) read into [`Tok`]ens, which each backend only prints — LaTeX by
//! [`to_tex`], the HTML report by fric-report's `mathml` (text escaped, [`Tok::Math`] as MathML).
//! Every rule of the field's typography lives here once:
//! - a `$...$` span is mathematics as written (after [`check_math`]);
//! - a relation written as a word with its operands (`ω_c = 3.5 rad/s`) is one formula, read
//!   as a label is ([`crate::relation`]); so is an expression of operands and operators with a
//!   mathematical word in it, and a formula quoted as printed ([`crate::expression`]);
//! - a prose word that is a math command (`\dot{u}`, `\wedge`) is mathematics, and a `-` right
//!   after it is a hyphen (`\wedge -unimodal` → ∧-unimodal, as the source printed
//!   `$\wedge$-unimodal`);
//! - a prose word written with a subscript (`a_{θ}`, `F_ss`, `y_c,`, `f_+`) is a label
//!   ([`crate::label::label_tokens`]);
//! - in text, digits right after a Greek letter are its subscript (`σ1` → σ₁), `^2`, `²`, `₁`
//!   are scripts, a letter with a combining accent (`u̇`) is mathematics, and a `-` is a minus
//!   by the figures' rule ([`crate::is_minus`]), kept inside its number's formula (`$-13.2$`).

use crate::check::check_math;
use crate::label::{command_word, is_script_word, label_tokens, math, math_unicode};
use crate::symbols::{accent, greek, math_symbol, subscript, superscript, take_run};
use crate::{greek_digits, script_at, Run};

/// A piece of typeset text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Text as printed: Unicode (Greek letters, U+2212 minus signs, typographic dashes).
    Text(String),
    /// Mathematics as LaTeX math-mode source, without its `$`.
    Math(String),
    /// A subscript of text (`x₁`), its characters as printed.
    Sub(String),
    /// A superscript of text (`s^-1`, `10⁻⁴`), its characters as printed.
    Sup(String),
}

/// Tokens with adjacent text merged.
#[derive(Default)]
struct Toks(Vec<Tok>);

impl Toks {
    fn text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        match self.0.last_mut() {
            Some(Tok::Text(t)) => t.push_str(s),
            _ => self.0.push(Tok::Text(s.to_string())),
        }
    }
    fn push(&mut self, t: Tok) {
        match t {
            Tok::Text(s) => self.text(&s),
            // `$2\sqrt{10^5}$ = 632.46` (a table cell): a relation that goes on from the math
            // before it, across a space, is one formula with it.
            Tok::Math(m) if crate::relation::opens_with_relation(&m) => {
                let n = self.0.len();
                if n >= 2 && self.0[n - 1] == Tok::Text(" ".into()) && matches!(self.0[n - 2], Tok::Math(_)) {
                    self.0.pop();
                    if let Some(Tok::Math(a)) = self.0.last_mut() {
                        a.push(' ');
                        a.push_str(&m);
                    }
                } else {
                    self.0.push(Tok::Math(m));
                }
            }
            t => self.0.push(t),
        }
    }
    fn extend(&mut self, ts: Vec<Tok>) {
        for t in ts {
            self.push(t);
        }
    }
}

/// Text outside mathematics (see the module's rules).
pub fn text(s: &str) -> Vec<Tok> {
    let cs: Vec<char> = s.chars().collect();
    let mut out = Toks::default();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        // `s^-1`, `ω^{2/3}`: a superscript as the figures read it ([`crate::script_at`];
        // a `_` in prose is a script only in a script word, `rate_independent` stays text).
        if c == '^' {
            if let Some((Run::Sup(sup), j)) = script_at(&cs, i) {
                out.push(Tok::Sup(sup));
                i = j;
                continue;
            }
        }
        // A run of superscript (`10⁻⁴`) or subscript (`x₁₂`) characters is one script, its
        // minus a minus.
        if superscript(c).is_some() {
            out.push(Tok::Sup(take_run(&cs, &mut i, superscript).replace('-', "−")));
            continue;
        }
        if subscript(c).is_some() {
            out.push(Tok::Sub(take_run(&cs, &mut i, subscript).replace('-', "−")));
            continue;
        }
        // `u̇`: a letter with a combining accent is the accented symbol.
        if c.is_alphanumeric() && cs.get(i + 1).copied().and_then(accent).is_some() {
            let pair: String = cs[i..i + 2].iter().collect();
            out.push(Tok::Math(math(&pair)));
            i += 2;
            continue;
        }
        // A signed number is one formula with its sign (`-13.2/-9.99e3` → `$-13.2$/$-9.99\times10^{3}$`,
        // not `$-$13.2`): a sign where the SVG's rule reads a minus, before a number.
        if matches!(c, '-' | '−') && crate::is_minus(&cs, i) {
            if let Some(end) = crate::formula::signed_number_end(&cs, i) {
                let number: String = cs[i..end].iter().collect();
                out.push(Tok::Math(crate::formula::number_math(&number)));
                i = end;
                continue;
            }
        }
        // A minus by the SVG's rule (`-13.2/-9.99e3`, ` - `), not a hyphen (`x-y`).
        if c == '-' && crate::is_minus(&cs, i) {
            out.text("−");
            i += 1;
            continue;
        }
        // `α0`: digits right after a Greek letter are its subscript, as in a label.
        if let Some(end) = greek_digits(&cs, i) {
            let word: String = cs[i..end].iter().collect();
            out.push(Tok::Math(math(&word)));
            i = end;
            continue;
        }
        let mut b = [0u8; 4];
        out.text(c.encode_utf8(&mut b));
        i += 1;
    }
    out.0
}

/// Text right after a math command: a leading `-` before a letter is a hyphen (`∧-unimodal`).
fn after_command(s: &str) -> Vec<Tok> {
    let mut cs = s.chars();
    if cs.next() == Some('-') && cs.next().is_some_and(char::is_alphabetic) {
        let mut out = Toks::default();
        out.text("-");
        out.extend(text(&s[1..]));
        return out.0;
    }
    text(s)
}

/// Prose outside `$...$`: a relation with its operands as one formula
/// ([`crate::relation`]), words with `_` and math commands as mathematics, the rest as
/// [`text`] (spacing kept).
pub fn prose(s: &str) -> Vec<Tok> {
    // The words, each with the space before it, and the space after the last.
    let mut words: Vec<&str> = Vec::new();
    let mut spaces: Vec<&str> = Vec::new();
    let mut rest = s;
    loop {
        let ws = rest.len() - rest.trim_start().len();
        let space = &rest[..ws];
        rest = &rest[ws..];
        if rest.is_empty() {
            spaces.push(space);
            break;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        words.push(&rest[..end]);
        spaces.push(space);
        rest = &rest[end..];
    }
    let windows = crate::relation::windows(&words);
    let mut out = Toks::default();
    // Whether the previous word ended with a math command.
    let mut command_before = false;
    let mut k = 0;
    while k < words.len() {
        let (w, space) = (words[k], spaces[k]);
        if let Some(&(_, end)) = windows.iter().find(|&&(st, _)| st == k) {
            if let Some((toks, e)) = crate::relation::window_tokens(&words, &spaces, k, end) {
                out.text(space);
                out.extend(toks);
                command_before = false;
                k = e;
                continue;
            }
        }
        // An expression without a relation (`J s² + (σ1 + α2) s + σ0`), or a formula quoted
        // as printed (`'x − d/2 ≥ x_b <'`): one formula ([`crate::expression`]).
        let limit = windows
            .iter()
            .map(|&(st, _)| st)
            .filter(|&st| st > k)
            .min()
            .unwrap_or(words.len());
        let formula = || crate::expression::expression(&words, &spaces, k, limit);
        if let Some((toks, e)) = crate::expression::quoted(&words, &spaces, k).or_else(formula) {
            out.text(space);
            out.extend(toks);
            command_before = false;
            k = e;
            continue;
        }
        // `\wedge -unimodal`: the source's `$\wedge$-unimodal`, one word with a hyphen.
        let joined = command_before && space == " " && w.starts_with('-');
        if !joined {
            out.text(space);
        }
        command_before = false;
        // A formula over words `k..end` read as a label: `∮F du`, an integral through its
        // differential; `4k_iδ_i(A − δ_i)`, a script word whose bracket closes in a later word
        // (within six).
        let integral = crate::formula::integral_end(&words, k);
        let script = || crate::relation::bracket_end(&words, k, 6).filter(|&e| e > k + 1);
        if joined {
            out.extend(after_command(w));
        } else if let Some(end) =
            integral.or_else(|| (command_word(w).is_none() && is_script_word(w)).then(script).flatten())
        {
            let mut s = String::from(w);
            for j in k + 1..end {
                s.push_str(spaces[j]);
                s.push_str(words[j]);
            }
            out.extend(label_tokens(&s));
            k = end;
            continue;
        } else if let Some((before, core, after)) = command_word(w) {
            out.extend(text(before));
            out.push(Tok::Math(math_unicode(core)));
            out.extend(after_command(after));
            command_before = after.is_empty();
        } else if is_script_word(w) {
            out.extend(label_tokens(w));
        } else {
            out.extend(text(w));
        }
        k += 1;
    }
    out.text(spaces[words.len()]);
    out.0
}

/// A caption, a note, a table cell or a title: its `$...$` spans are mathematics when
/// [`check_math`] accepts it (the loader refuses the manifest otherwise; here, as a second
/// guard, refused math is text, every `$` and `\` printed as written), the rest [`prose`].
pub fn caption(s: &str) -> Vec<Tok> {
    if check_math(s).is_err() {
        return text(s);
    }
    let mut out = Toks::default();
    for (k, part) in s.split('$').enumerate() {
        if k % 2 == 1 {
            out.push(Tok::Math(math_unicode(part)));
        } else {
            out.extend(prose(part));
        }
    }
    out.0
}

/// Text of a [`Tok::Text`] as LaTeX outside math: specials escaped, typographic characters as
/// LaTeX (`–` → `--`), Greek and symbols as inline math (`µ` → `$\mu$`, `−` → `$-$`); ASCII,
/// for pdfLaTeX without extra packages.
fn text_tex(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '–' => out.push_str("--"),
            '—' => out.push_str("---"),
            '…' => out.push_str("\\ldots{}"),
            '‘' => out.push('`'),
            '’' => out.push('\''),
            '“' => out.push_str("``"),
            '”' => out.push_str("''"),
            '<' | '>' | '|' => out.push_str(&format!("${c}$")),
            '\u{a0}' => out.push('~'),
            _ if greek(c).is_some() || (math_symbol(c).is_some() && !c.is_ascii()) => {
                out.push_str(&format!("${}$", math(&c.to_string())))
            }
            _ => crate::tex::push_escaped(out, c),
        }
    }
}

/// A script of text: a signed number one formula with its sign (`10⁻⁴` →
/// `\\textsuperscript{$-4$}`, as [`text`] sets `−13.2`), anything else as text.
fn script_tex(s: &str, out: &mut String) {
    let cs: Vec<char> = s.chars().collect();
    let signed = cs.first().is_some_and(|c| matches!(c, '-' | '−'));
    if signed && crate::formula::signed_number_end(&cs, 0) == Some(cs.len()) {
        out.push_str(&format!("${}$", crate::formula::number_math(s)));
    } else {
        text_tex(s, out);
    }
}

/// Tokens as LaTeX text: mathematics in `$...$` (adjacent spans as one, since `$$` would open
/// display math), scripts as `\textsubscript`/`\textsuperscript`.
pub fn to_tex(toks: &[Tok]) -> String {
    let mut out = String::new();
    let mut after_math = false;
    for t in toks {
        match t {
            Tok::Math(m) if after_math => {
                out.pop();
                out.push_str(&format!(" {m}$"));
            }
            Tok::Math(m) => out.push_str(&format!("${m}$")),
            Tok::Text(s) => text_tex(s, &mut out),
            Tok::Sub(s) => {
                out.push_str("\\textsubscript{");
                script_tex(s, &mut out);
                out.push('}');
            }
            Tok::Sup(s) => {
                out.push_str("\\textsuperscript{");
                script_tex(s, &mut out);
                out.push('}');
            }
        }
        after_math = matches!(t, Tok::Math(_));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_reads_scripts_greek_digits_and_signed_subscripts() {
        let m = |s: &str| Tok::Math(s.into());
        let t = |s: &str| Tok::Text(s.into());
        assert_eq!(
            caption("σ1 = 20 and (y_c, q_c)"),
            [
                m("\\sigma_{1} = 20"),
                t(" and ("),
                m("y_{c}"),
                t(", "),
                m("q_{c}"),
                t(")")
            ]
        );
        assert_eq!(caption("f_+ and f_-."), [m("f_{+}"), t(" and "), m("f_{-}"), t(".")]);
        assert_eq!(
            caption("the \\wedge -unimodal map, x -y"),
            [t("the "), m("\\wedge"), t("-unimodal map, x −y")]
        );
        assert_eq!(caption("s^-1"), [t("s"), Tok::Sup("−1".into())]);
        // Braced and signed exponents as the figures read them (the prose printed `O(ω^{2/3})`
        // as `\^{}\{2/3\}`), and a script ends where the label's does.
        assert_eq!(
            caption("O(ω^{2/3}), 10^+3, e^α2"),
            [
                t("O(ω"),
                Tok::Sup("2/3".into()),
                t("), 10"),
                Tok::Sup("+3".into()),
                t(", e"),
                Tok::Sup("α".into()),
                t("2")
            ]
        );
    }

    #[test]
    fn adjacent_math_is_one_span() {
        assert_eq!(to_tex(&[Tok::Math("a".into()), Tok::Math("b".into())]), "$a b$");
    }

    #[test]
    fn units_are_text() {
        // As the SVG prints them (crate::unit): N·m, a minus in an exponent.
        assert_eq!(crate::label::unit_to_tex("kg-m^2"), "kg$\\cdot$m\\textsuperscript{2}");
        assert_eq!(crate::label::unit_to_tex("N-m"), "N$\\cdot$m");
        assert_eq!(crate::label::unit_to_tex("10^{-3} N"), "10\\textsuperscript{$-3$} N");
        assert_eq!(crate::label::unit_to_tex("m s^-1"), "m s\\textsuperscript{$-1$}");
        assert_eq!(crate::label::unit_to_tex("m²"), "m\\textsuperscript{2}");
        assert_eq!(crate::label::text_to_tex("10⁻⁴ H"), "10\\textsuperscript{$-4$} H");
        assert_eq!(
            crate::label::text_to_tex("x₁ and f₁₂"),
            "x\\textsubscript{1} and f\\textsubscript{12}"
        );
        assert_eq!(crate::label::math("x₂"), "x_{2}");
        assert_eq!(crate::label::text_to_tex("√2"), "$\\surd$2");
        // Table notes: minus signs and Greek subscripts as in the figures' labels; a signed
        // number is one formula with its sign.
        assert_eq!(
            crate::label::text_to_tex("-13.2/-9.99e3, x-y"),
            "$-13.2$/$-9.99\\times10^{3}$, x-y"
        );
        assert_eq!(
            crate::label::text_to_tex("α0 + α1, α12x"),
            "$\\alpha_{0}$ + $\\alpha_{1}$, $\\alpha$12x"
        );
        assert_eq!(crate::label::text_to_tex("u\u{307} has"), "$\\dot{u}$ has");
        assert_eq!(crate::label::unit_to_tex("µm"), "$\\mu$m");
        assert_eq!(crate::label::unit_to_tex("N-m-s/rad"), "N$\\cdot$m$\\cdot$s/rad");
        assert_eq!(crate::label::unit_to_tex("1/m"), "1/m");
    }
}
