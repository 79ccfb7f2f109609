//! Manifest text to LaTeX, one typesetting for every label: labels (axis labels, legend
//! entries, titles, table cells) with their mathematics in `$...$` ([`label_to_tex`]), text
//! outside math ([`text_to_tex`]), captions and notes whose own `$...$` spans are validated
//! first ([`caption_to_tex`], [`check_math`]).

use crate::check::check_math;
use crate::prose::{self, Tok};
use crate::symbols::{accent, greek, math_symbol, precomposed, subscript, superscript};
use crate::tex::{FUNCTIONS, UPRIGHT};

/// Whether a character marks a word as mathematics.
pub(crate) fn is_math_char(c: char) -> bool {
    matches!(
        c,
        '_' | '^' | '|' | '∞' | '≥' | '≤' | '≈' | '≠' | '±' | '∂' | '∫' | '∮' | '′' | '∩' | '∪' | '…'
    ) || greek(c).is_some()
        || accent(c).is_some()
        || precomposed(c).is_some()
}

/// A math-mode rendering of a label's mathematics (without the `$`), printed from the runs the
/// SVG prints ([`crate::tex::math`]).
pub(crate) use crate::tex::math;

/// Text (a caption, a unit) as LaTeX outside math: specials escaped, typographic characters as
/// LaTeX (`–` → `--`), Greek and symbols as inline math (`µ` → `$\mu$`), `^2` and `²` as
/// superscripts; the result is ASCII, for pdfLaTeX without extra packages.
pub fn text_to_tex(s: &str) -> String {
    prose::to_tex(&prose::text(s))
}

/// Text whose `$...$` spans are LaTeX math already (a caption, a note, a table cell): the math
/// kept when [`check_math`] accepts it (the loader refuses the manifest otherwise; here, as a
/// second guard, refused math is escaped as text), the rest as [`text_to_tex`] except words
/// written with a subscript (`τ_s`, `a_{θ}`), which are mathematics ([`label_to_tex`]).
pub fn caption_to_tex(s: &str) -> String {
    prose::to_tex(&prose::caption(s))
}

/// Math as written in a manifest with its Unicode symbols as LaTeX commands (`\mathcal{H}_∞` →
/// `\mathcal{H}_{\infty}`, `τ` → `{\tau}`): pdfTeX reads no Unicode in math. A command is
/// braced so that it stands alone as a subscript and before a letter.
pub(crate) fn math_unicode(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii() {
                return c.to_string();
            }
            match (greek(c), math_symbol(c)) {
                (Some(g), _) => format!("{{\\{g}}}"),
                (None, Some(m)) if m.starts_with('\\') => format!("{{{m}}}"),
                (None, Some(m)) => m.to_string(),
                (None, None) => c.to_string(),
            }
        })
        .collect()
}

/// A word of prose that is a symbol with a subscript (`τ_s`, `a_{θ}`, `F_ss`, `k̄′_p`): the part
/// before the first `_` is one or two letters (after an opening bracket; accents and primes not
/// counted), or the word has Greek in it; an identifier such as `rate_independent` stays text.
pub(crate) fn is_script_word(w: &str) -> bool {
    let Some((base, _)) = w.split_once('_') else {
        return false;
    };
    // Letters only: an accent or prime on the symbol (`k̄′_p`) is not another letter.
    let letters = base
        .trim_start_matches(['(', '['])
        .chars()
        .filter(|&c| accent(c).is_none() && !matches!(c, '′' | '\''))
        .count();
    letters <= 2 || w.chars().any(|c| greek(c).is_some())
}

/// A word of prose that is a math command written without its `$...$` (`\dot{u}`, `\bar{k},`):
/// the text before it, the command (allowed and balanced, as in `$...$`) and the text after it.
pub(crate) fn command_word(w: &str) -> Option<(&str, &str, &str)> {
    let start = w.find('\\')?;
    let core = w[start..].trim_end_matches(['.', ',', ';', ':', ')', ']']);
    let rest = &w[start + core.len()..];
    let command = core.len() > 1 && core[1..].starts_with(|c: char| c.is_ascii_alphabetic());
    (command && check_math(&format!("${core}$")).is_ok()).then_some((&w[..start], core, rest))
}

/// A unit as LaTeX text, read as the SVG reads it ([`crate::unit`]): `kg-m^2` →
/// `kg$\cdot$m\textsuperscript{2}` (N·m in both), `µm` → `$\mu$m`, `10^{-3} N` →
/// `10\textsuperscript{$-3$} N`.
pub fn unit_to_tex(u: &str) -> String {
    use crate::Run;
    crate::unit(u)
        .into_iter()
        .map(|r| match r {
            Run::Text(t) => text_to_tex(&t),
            Run::Sub(t) => format!("\\textsubscript{{{}}}", text_to_tex(&t)),
            Run::Sup(t) => format!("\\textsuperscript{{{}}}", text_to_tex(&t)),
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    Math,
    /// A number, or an operator such as `=`: mathematics only next to mathematics.
    Number,
    Operator,
    Text,
    /// A unit inside a formula, or a range of numbers ([`crate::formula`]).
    Unit,
    Range,
    /// A word that names the left side of a relation (`swing = 0.05 m/s`), upright in it.
    Name,
}

/// A number, signed or not, in e-notation too (`3.45e-5`, [`crate::formula::e_number`]).
pub(crate) fn is_number(s: &str) -> bool {
    let s = s.trim_start_matches(['−', '-', '+']);
    let plain = |s: &str| {
        !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.') && s.chars().any(|c| c.is_ascii_digit())
    };
    plain(s) || crate::formula::e_number(s).is_some()
}

/// A word split into leading `(`/`[`, the word, and trailing punctuation (`,` `;` `:`, a full
/// stop after a non-digit and a closing bracket that does not close one inside the word).
pub(crate) fn split_word(w: &str) -> (&str, &str, &str) {
    // A bracket closed before the word goes on (`(α0 + α1)/σ0`) groups mathematics.
    let core_start = if continues_after_group(w) {
        0
    } else {
        w.len() - w.trim_start_matches(['(', '[']).len()
    };
    let mut end = w.len();
    loop {
        let core = &w[core_start..end];
        let Some(last) = core.chars().last() else { break };
        let unmatched = |open: char, close: char| {
            core.chars().filter(|&c| c == close).count() > core.chars().filter(|&c| c == open).count()
        };
        let strip = match last {
            ',' | ';' | ':' => true,
            // A sentence's full stop (`f_-.`), not a number's point.
            // A point after a number that has one (or an exponent) ends the sentence: `3.45e-5.`
            '.' => {
                let rest = &core[..core.len() - 1];
                !rest.ends_with(|c: char| c.is_ascii_digit()) || (is_number(rest) && rest.contains(['.', 'e']))
            }
            ')' => unmatched('(', ')'),
            ']' => unmatched('[', ']'),
            '}' => unmatched('{', '}'),
            _ => false,
        };
        if !strip {
            break;
        }
        end -= last.len_utf8();
    }
    (&w[..core_start], &w[core_start..end], &w[end..])
}

fn classify(prefix: &str, core: &str, suffix: &str, prev: Option<(&str, Class)>) -> Class {
    // A word with spaces in it is a symbol applied to arguments ([`applied_words`]).
    let strong = core.chars().any(is_math_char)
        || core.contains(char::is_whitespace)
        || (core.starts_with('d') && core.contains("/d") && core.len() <= 8 && core.is_ascii());
    if strong {
        return Class::Math;
    }
    if matches!(core, "=" | "<" | ">" | "+" | "-" | "−" | "×" | "·" | "→") {
        return Class::Operator;
    }
    // A power of a number written with script characters (`10⁴`) is a number.
    let power = core.trim_end_matches(|c| superscript(c).is_some());
    if power.len() < core.len() && is_number(power) {
        return Class::Number;
    }
    if is_number(core) {
        // A signed number is mathematics: `−0.03` needs math mode for its minus sign.
        return if core.starts_with(['−', '-', '+']) {
            Class::Operator
        } else {
            Class::Number
        };
    }
    // A signed symbol (`-F`, `−x`) is mathematics as the symbol is; a signed number over a
    // letter (`−1/N`) is mathematics as a signed number is (`1/s` alone may be a unit).
    if let Some(rest) = core.strip_prefix(['-', '−']).filter(|r| !r.is_empty()) {
        if rest
            .split_once('/')
            .is_some_and(|(n, s)| is_number(n) && s.chars().count() == 1 && s.chars().all(|c| c.is_alphabetic()))
        {
            return Class::Math;
        }
        if classify(prefix, rest, suffix, prev) == Class::Math {
            return Class::Math;
        }
    }
    // A symbol with primes (`z'`), scripts (`x₁`, `T⁻`) or applied to arguments (`g(v)`) is a
    // symbol; `Re(−1/N)` is mathematics.
    let symbol = core.trim_end_matches(|c| c == '\'' || subscript(c).is_some() || superscript(c).is_some());
    let symbol = match symbol.split_once('(') {
        Some((f, _)) if UPRIGHT.contains(&f) && core.ends_with(')') => return Class::Math,
        Some((f, args)) if args.ends_with(')') && !args[..args.len() - 1].contains(['(', ')']) => f,
        _ => symbol,
    };
    let single = symbol.chars().count() == 1 && symbol.chars().all(|c| c.is_ascii_alphabetic());
    // `(a)` is a panel tag and `[m]` a unit, not mathematics.
    let tagged = (prefix.ends_with('(') && suffix.starts_with(')')) || prefix.ends_with('[');
    // `2 N`, `sin(ωt) A`: a letter after a number or a function's value is its unit; after a
    // symbol applied to arguments it is another symbol (`G(i1.8), G(i1.9)`, report Fig 5.24).
    let function = |p: &str| FUNCTIONS.iter().any(|f| p.contains(&format!("{f}(")));
    let unit = prev.is_some_and(|(p, class)| {
        (p.ends_with(|c: char| c.is_ascii_digit()) && class != Class::Math)
            || (class == Class::Math && p.ends_with(')') && function(p))
    });
    if single && !tagged && !unit {
        Class::Math
    } else {
        Class::Text
    }
}

/// A label's words (split at whitespace), except that a symbol applied to arguments written with
/// spaces (`−1/N(a, ω)`, `2(N + 1)(4N − 1)`) is one word, as the SVG typesets it: a word whose
/// `(` after a letter or digit is not closed in it takes the following words up to the one that
/// closes it (none if nothing does). A bracket that opens a word (`(ω = 0.1 rad/s)`) encloses
/// words, not arguments, unless the word that closes it goes on (`(α0 + α1)/σ0`): a group.
fn applied_words(label: &str) -> Vec<&str> {
    let spans: Vec<(usize, usize)> = label
        .split_whitespace()
        .map(|w| {
            let start = w.as_ptr() as usize - label.as_ptr() as usize;
            (start, start + w.len())
        })
        .collect();
    let depth = |w: &str| w.matches('(').count() as i64 - w.matches(')').count() as i64;
    let applies = |w: &str| {
        let mut open = 0i64;
        let mut prev: Option<char> = None;
        for c in w.chars() {
            match c {
                '(' if open == 0 && prev.is_some_and(|p| p.is_alphanumeric() || p == ')') => {
                    return depth(w) > 0;
                }
                '(' => open += 1,
                ')' => open -= 1,
                _ => {}
            }
            prev = Some(c);
        }
        false
    };
    let mut out = Vec::with_capacity(spans.len());
    let mut k = 0;
    while k < spans.len() {
        let (start, mut end) = spans[k];
        let mut next = k + 1;
        let word = &label[start..end];
        if applies(word) || (word.starts_with('(') && depth(word) > 0) {
            let mut d = depth(word);
            let mut m = k + 1;
            while m < spans.len() && d > 0 {
                d += depth(&label[spans[m].0..spans[m].1]);
                m += 1;
            }
            let group = applies(word) || continues_after_group(&label[start..spans[m - 1].1]);
            if d <= 0 && group {
                (end, next) = (spans[m - 1].1, m);
            }
        }
        out.push(&label[start..end]);
        k = next;
    }
    out
}

/// Whether a word opening with `(` goes on after the bracket that closes it: `(α0 + α1)/σ0`,
/// not `(a)` or `(ω = 0.1 rad/s),`.
fn continues_after_group(w: &str) -> bool {
    if !w.starts_with('(') {
        return false;
    }
    let mut depth = 0;
    for (i, c) in w.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return !w[i + 1..].trim_end_matches([',', ';', ':', '.', ')', ']']).is_empty();
        }
    }
    false
}

/// A manifest label (axis label, legend entry, panel title) as LaTeX: the words that are
/// mathematics (`F_f`, `x_{i+1}`, `du/dt`, Greek, single letters, and the numbers and operators
/// between them) become one `$...$` span, with Greek as commands (`σ` → `\sigma`); the rest is
/// text with LaTeX's specials escaped. `F_ss` → `$F_{ss}$`, `σ/F_c = 2` → `$\sigma/F_{c} = 2$`,
/// `t ≥ 20 s` → `$t \geq 20$ s`.
pub fn label_to_tex(label: &str) -> String {
    prose::to_tex(&label_tokens(label))
}

/// The one reading of a label: which of its words are mathematics and which text, where each
/// formula starts and ends, as tokens that [`label_to_tex`] prints as LaTeX and the HTML report
/// as MathML; its characters are the runs [`crate::svg()`] prints (test `agree`).
pub fn read(label: &str) -> Vec<Tok> {
    label_tokens(label)
}

/// A label as tokens ([`read`]).
pub(crate) fn label_tokens(label: &str) -> Vec<Tok> {
    let words: Vec<(&str, &str, &str)> = applied_words(label).into_iter().map(split_word).collect();
    let mut classes = Vec::with_capacity(words.len());
    for (k, (p, c, s)) in words.iter().enumerate() {
        // After punctuation (`(3.25), v = 0`) a letter is not the unit of the number before it.
        let prev = k.checked_sub(1).filter(|&j| words[j].2.is_empty() && p.is_empty());
        classes.push(classify(p, c, s, prev.map(|j| (words[j].1, classes[j]))));
    }
    revise(&words, &mut classes);
    crate::formula::revise(&words, &mut classes);
    // Runs of math, numbers and operators not broken by punctuation become one math span when
    // they contain mathematics or an operator.
    let mut out = Vec::new();
    let mut k = 0;
    while k < words.len() {
        if k > 0 {
            out.push(Tok::Text(" ".into()));
        }
        let (prefix, _, _) = words[k];
        out.extend(prose::text(prefix));
        let mut end = k + 1;
        // Bracketed operands in the run (`k = [2, 4]`): start, end, the closing part's length.
        let mut groups: Vec<(usize, usize, usize)> = Vec::new();
        let rest = |j: usize, groups: &[(usize, usize, usize)]| {
            groups
                .iter()
                .find(|g| g.1 == j + 1)
                .map_or(words[j].2, |g| &words[j].2[g.2..])
        };
        let text = classes[k] == Class::Text;
        loop {
            while !text
                && end < words.len()
                && rest(end - 1, &groups).is_empty()
                && words[end].0.is_empty()
                && classes[end] != Class::Text
            {
                end += 1;
            }
            match crate::formula::operand_group(&words, &classes, end).filter(|_| !text) {
                Some((g, cut)) => groups.push((std::mem::replace(&mut end, g), g, cut)),
                None => break,
            }
        }
        let mut run = classes[k..end].to_vec();
        let pieces: Vec<String> = (k..end)
            .map(|j| match groups.iter().find(|g| (g.0..g.1).contains(&j)) {
                Some(g) => {
                    run[j - k] = Class::Math;
                    let (p, c, s) = words[j];
                    format!("{p}{c}{}", if j + 1 == g.1 { &s[..g.2] } else { s })
                }
                None => words[j].1.to_string(),
            })
            .collect();
        let (run, core) = (&run[..], pieces.iter().map(String::as_str).collect::<Vec<_>>());
        let mut suffix = rest(end - 1, &groups);
        if run.iter().any(|c| matches!(c, Class::Math | Class::Operator)) {
            let mut m = crate::formula::run_math(&core, run);
            // `R ∩ {V̇ > 0},`: a brace opened in the formula closes in it.
            if let Some(rest) = suffix.strip_prefix('}').filter(|_| crate::formula::brace_open(&core)) {
                m.push_str("\\}");
                suffix = rest;
            }
            out.push(Tok::Math(m));
        } else {
            out.extend(prose::text(&core.join(" ")));
        }
        out.extend(prose::text(suffix));
        k = end;
    }
    out
}

/// Readings that need the next word: `a` before a word of text is the article (`after a
/// reversal`); a short name next to an operator is a symbol (`Fc = 1 N`, `d1 + d2`); a function
/// and its argument written with a space are mathematics (`sin t`, `max v`, `Re G`), and a letter
/// after them their unit (`I = sin t A`).
fn revise(words: &[(&str, &str, &str)], classes: &mut [Class]) {
    const WORDS: &[&str] = &[
        "an", "as", "at", "by", "if", "in", "is", "no", "of", "on", "or", "to", "up",
    ];
    // Whether words `j` and `j + 1` are not separated by punctuation.
    let joined = |j: usize| j + 1 < words.len() && words[j].2.is_empty() && words[j + 1].0.is_empty();
    let function = |j: usize| crate::symbols::FUNCTIONS.contains(&words[j].1) || UPRIGHT.contains(&words[j].1);
    let argument = |j: usize| {
        let a = words[j].1;
        a.chars().count() <= 3 && a.chars().all(char::is_alphanumeric)
    };
    for k in 0..words.len() {
        let (p, core, s) = words[k];
        if function(k) && joined(k) && argument(k + 1) {
            classes[k] = Class::Math;
            classes[k + 1] = Class::Math;
        }
        let letter = core.len() == 1 && core.chars().all(|c| c.is_ascii_alphabetic());
        if letter && k >= 2 && function(k - 2) && joined(k - 2) && joined(k - 1) && classes[k - 1] == Class::Math {
            classes[k] = Class::Text;
        }
        let next_text =
            joined(k) && classes[k + 1] == Class::Text && words[k + 1].1.starts_with(|c: char| c.is_ascii_lowercase());
        if core == "a" && p.is_empty() && s.is_empty() && next_text {
            classes[k] = Class::Text;
        }
        let name = core.len() <= 3
            && !function(k)
            && core.starts_with(|c: char| c.is_ascii_alphabetic())
            && core.chars().all(|c| c.is_ascii_alphanumeric())
            && !WORDS.contains(&core);
        // An operator, not a signed number (`+0.03 N`: N is its unit).
        let operator = |j: usize| classes[j] == Class::Operator && !is_number(words[j].1);
        // A relation written as a word (`d0 ≤ 2Δ`).
        let relation = |j: usize| matches!(words[j].1, "≤" | "≥" | "≈" | "≠");
        let by_operator = (k > 0 && joined(k - 1) && operator(k - 1)) || (joined(k) && operator(k + 1));
        // Not a unit after a number (`7990 s ≤ t`, [`crate::formula`]).
        let after_number = k > 0 && joined(k - 1) && classes[k - 1] == Class::Number;
        let by_relation = (k > 0 && joined(k - 1) && relation(k - 1)) || (joined(k) && relation(k + 1));
        if classes[k] == Class::Text && name && (by_operator || (by_relation && !after_number)) {
            classes[k] = Class::Math;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::tex_problems;

    #[test]
    fn labels_become_math_and_text() {
        let cases = [
            ("F_f", "$F_{f}$"),
            ("F_ss", "$F_{ss}$"),
            ("τ_B⁻", "$\\tau_{B}^{-}$"),
            ("x_{i+1}", "$x_{i+1}$"),
            ("du/dt", "$\\dot{u}$"),
            ("dθ/dt", "$\\dot{\\theta}$"),
            ("σ1 dz/dt", "$\\sigma_{1} \\dot{z}$"),
            ("f_+ and g_-", "$f_{+}$ and $g_{-}$"),
            ("σ", "$\\sigma$"),
            ("σ0 z + σ1", "$\\sigma_{0} z + \\sigma_{1}$"),
            ("x̄", "$\\bar{x}$"),
            ("ū", "$\\bar{u}$"),
            ("|F_i|/F_c", "$|F_{i}|/F_{c}$"),
            ("E_p(i+n)", "$E_{p}(i+n)$"),
            ("t ≥ 20 s", "$t \\geq 20$ s"),
            // An integral closes with its differential (followup Table 2 printed `$\oint$F du`).
            ("∫ f dx", "$\\int f dx$"),
            ("ω = 0.1 rad/s", "$\\omega = 0.1$ rad/s"),
            ("F_c = 2 N", "$F_{c} = 2$ N"),
            ("offset +0.03 N", "offset $+0.03$ N"),
            ("(a) N = 2", "(a) $N = 2$"),
            ("(c) σ/F_c = 8", "(c) $\\sigma/F_{c} = 8$"),
            (
                "γ = 1, semilinear closed form (10)",
                "$\\gamma = 1$, semilinear closed form (10)",
            ),
            ("Ω*, F_i = −2 F_c", "$\\Omega^{*}$, $F_{i} = -2 F_{c}$"),
            ("H∞ (ω = 0.001 rad/s)", "$H\\infty$ ($\\omega = 0.001$ rad/s)"),
            (
                "du/dt decreasing (offset −0.03 N)",
                "$\\dot{u}$ decreasing (offset $-0.03$ N)",
            ),
            (
                "i_m = 0.05 sin(0.2πt) A, 0-50 s from rest",
                "$i_{m} = 0.05 \\sin(0.2\\pi t)$ A, 0-50 s from rest",
            ),
            (
                "branch (3.5) from x_i to x_{i+1}",
                "branch (3.5) from $x_{i}$ to $x_{i+1}$",
            ),
            ("l, v, x, y", "$l$, $v$, $x$, $y$"),
            // A symbol applied to arguments is not a unit of the one before (report Fig 5.24's
            // legend printed `$G(i1.8)$, G(i1.9), $G(i2.0)$`); a function's value's unit is.
            (
                "G(i1.8), G(i1.9), G(i2.0) (bottom to top)",
                "$G(i1.8)$, $G(i1.9)$, $G(i2.0)$ (bottom to top)",
            ),
            ("2 cos(ωt) A", "$2 \\cos(\\omega t)$ A"),
            // A symbol applied to arguments with spaces is one formula (report Fig 5.24's legend
            // printed `$-$1/N(a, $\\omega$)`); a bracket opening a word encloses words.
            ("−1/N(a, ω), ω = 1.9 rad/s", "$-1/N(a, \\omega)$, $\\omega = 1.9$ rad/s"),
            (
                "closed form 2(N + 1)(4N − 1)/(3N²)",
                "closed form $2(N + 1)(4N - 1)/(3N^{2})$",
            ),
            ("F_f^l and σ0", "$F_{f}^{l}$ and $\\sigma_{0}$"),
            // −1/N and Re(−1/N) are mathematics (report Figs 5.14–5.27's titles and axes).
            ("−1/N and G(iω)", "$-1/N$ and $G(i\\omega)$"),
            ("Re(−1/N)", "$\\operatorname{Re}(-1/N)$"),
            ("rate 1/s", "rate 1/s"),
            // Unicode scripts on a letter (report Figs 2.6, 3.7, 5.30); punctuation ends a
            // number's unit.
            ("level curve x₁ + x₂ = 0", "level curve $x_{1} + x_{2} = 0$"),
            (
                "V̇ = 0: z₊ (3.23), z₋ (3.25), v = 0",
                "$\\dot{V} = 0$: $z_{+}$ (3.23), $z_{-}$ (3.25), $v = 0$",
            ),
            ("T⁻ at e > 0", "$T^{-}$ at $e > 0$"),
            ("PID 1, r = 1 rad", "PID 1, $r = 1$ rad"),
            // A group that goes on after its bracket; the article; names beside operators.
            (
                "R: |z| < (α0 + α1)/σ0",
                "$R$: $|z| < (\\alpha_{0} + \\alpha_{1})/\\sigma_{0}$",
            ),
            ("after a reversal", "after a reversal"),
            ("for a = 1 N", "for $a = 1$ N"),
            ("Fc = 1 N, d1 + d2 + d3", "$Fc = 1$ N, $d1 + d2 + d3$"),
            ("I = sin t A: wing", "$I = \\sin t$ A: wing"),
            ("max v − min v", "$\\max v - \\min v$"),
            ("crossing of Re G = k_p", "crossing of $\\operatorname{Re} G = k_{p}$"),
            ("(a) l–v plane", "(a) l--v plane"),
            ("switch after 1.5 periods", "switch after 1.5 periods"),
            ("reversal n", "reversal $n$"),
            ("l [m]", "$l$ [m]"),
            // A spaced minus joins the math; a symbol with primes or arguments is math.
            ("g(v) - 2 N", "$g(v) - 2$ N"),
            ("z'", "$z'$"),
            ("F + α θ'", "$F + \\alpha \\theta'$"),
            ("u_d = −k_d θ'", "$u_{d} = -k_{d} \\theta'$"),
            ("-F and the caption's input", "$-F$ and the caption's input"),
            ("50% & #1 {x}", "50\\% \\& \\#1 \\{x\\}"),
        ];
        for (label, want) in cases {
            let got = label_to_tex(label);
            assert_eq!(got, want, "{label}");
            assert!(tex_problems(&got).is_empty(), "{label}: {:?}", tex_problems(&got));
        }
    }

    #[test]
    fn table_text_puts_scripts_in_math_and_refuses_hostile_math() {
        assert_eq!(
            caption_to_tex("a_{θ} and τ_s, τ"),
            "$a_{\\theta}$ and $\\tau_{s}$, $\\tau$"
        );
        assert_eq!(caption_to_tex("from k\u{304}′_p,"), "from $\\bar{k}'_{p}$,");
        assert_eq!(
            caption_to_tex("$\\input{/etc/passwd}$"),
            "\\$\\textbackslash{}input\\{/etc/passwd\\}\\$"
        );
    }

    #[test]
    fn prose_math_commands_become_math() {
        let c = caption_to_tex(r"Velocity \dot{u} versus F when \dot{u}, changes; $\gamma = 0$");
        assert_eq!(c, r"Velocity $\dot{u}$ versus F when $\dot{u}$, changes; $\gamma = 0$");
        // Not an allowed command: text, as before.
        assert!(caption_to_tex(r"see \input{x} here").contains(r"\textbackslash"));
        // Unicode inside the math (thesis Fig 1.5's `\mathcal{H}_∞`) becomes commands.
        let c = caption_to_tex(r"map \mathcal{H}_∞ is; $x_τ → ∞$");
        assert_eq!(c, r"map $\mathcal{H}_{\infty}$ is; $x_{\tau} {\rightarrow} {\infty}$");
        assert!(c.is_ascii());
    }

    #[test]
    fn captions_keep_their_math() {
        assert_eq!(
            caption_to_tex("maps $\\mathcal{H}_T$ of (1.3)–(1.4), σ = 1 & 50%"),
            "maps $\\mathcal{H}_T$ of (1.3)--(1.4), $\\sigma = 1$ \\& 50\\%"
        );
    }
}
