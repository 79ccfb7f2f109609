//! Relations in prose (captions, notes, table cells) typeset as one formula, by the labels'
//! rules ([`crate::label::label_tokens`], issue 45 item 4): a relation (`=`, `≤`, `≈`, …) written
//! as a word with its operands around it is one `$...$` span, as in a figure's label —
//! `(ω_c = 3.5 rad/s, ζ = 0.58)` → `($\omega_{c} = 3.5$ rad/s, $\zeta = 0.58$)`, not
//! `($\omega_{c}$ = 3.5 rad/s, $\zeta$ = 0.58)`; `τ_s − τ_k = 0.16 N·m` →
//! `$\tau_{s} - \tau_{k} = 0.16$ N·m`. A window the labels' rules would typeset in pieces
//! (`k_i = 1/N`: `1/N` may be a unit) is shortened, or left to the prose's word rules.

use crate::label::{command_word, is_math_char, is_number, label_tokens, split_word};
use crate::prose::Tok;
use crate::symbols::{subscript, superscript, FUNCTIONS};

pub(crate) const RELATIONS: &[&str] = &["=", "≤", "≥", "<", ">", "≈", "≠", "<=", ">=", "→"];
pub(crate) const OPERATORS: &[&str] = &["+", "-", "−", "×", "·"];
/// How LaTeX writes a relation or an operator that leaves a formula open.
const ENDS: &[&str] = &[
    "=",
    "<",
    ">",
    "+",
    "-",
    "\\leq",
    "\\geq",
    "\\approx",
    "\\neq",
    "\\rightarrow",
];
/// Words of three letters or fewer that are never a symbol in a formula.
const WORDS: &[&str] = &[
    "an", "and", "are", "as", "at", "be", "by", "for", "has", "if", "in", "is", "it", "its", "no", "not", "of", "on",
    "or", "per", "see", "so", "the", "to", "up", "was", "we", "via", "all", "but", "one", "two",
];
/// The units a number in prose may carry inside a window (`3.5 rad/s`, `0.16 N·m`).
const UNITS: &[&str] = &[
    "s", "ms", "µs", "min", "h", "m", "mm", "µm", "nm", "cm", "km", "N", "kN", "mN", "rad", "mrad", "deg", "Hz", "kHz",
    "kg", "g", "V", "mV", "A", "mA", "W", "J", "Pa", "H", "mH", "Ω", "K", "%",
];

/// A word's core (brackets and punctuation stripped) with whether punctuation follows it.
fn core(w: &str) -> (&str, &str, &str) {
    split_word(w)
}

/// A unit built from [`UNITS`] (`rad/s`, `N·m`, `N-m-s/rad`, `m^2`).
fn is_unit(c: &str) -> bool {
    let atom = |a: &str| {
        let a = a.trim_end_matches(|ch: char| ch.is_ascii_digit() || "^⁻¹²³".contains(ch));
        UNITS.contains(&a)
    };
    !c.is_empty() && c.split(['/', '·', '-']).all(atom)
}

/// A word that can stand beside a relation or an operator as its operand.
pub(crate) fn is_operand(w: &str) -> bool {
    let (_, c, _) = core(w);
    let c = c.trim_start_matches(['(', '[']);
    if c.is_empty() {
        return false;
    }
    let is_name = |c: &str| {
        c.chars().count() <= 3
            && c.starts_with(|ch: char| ch.is_ascii_alphabetic())
            && c.chars().all(|ch| ch.is_ascii_alphanumeric())
            && !WORDS.contains(&c)
    };
    // A name with script characters is a name (`s²`, `x₁`).
    let scripts = |ch: char| subscript(ch).is_some() || superscript(ch).is_some();
    let name = is_name(c.trim_end_matches(scripts));
    // `i/N`, `d/2` (a name over a name or a number) and `v(t)` (a name applied to arguments).
    let fraction = c
        .split_once('/')
        .is_some_and(|(a, b)| is_name(a) && (is_name(b) || (!b.is_empty() && b.chars().all(|d| d.is_ascii_digit()))));
    let applied = c
        .split_once('(')
        .is_some_and(|(f, a)| is_name(f) && a.ends_with(')') && !a[..a.len() - 1].contains(['(', ')']) && a.len() > 1);
    let expression = c.starts_with(|ch: char| ch.is_ascii_digit() || matches!(ch, '−' | '-' | '+'))
        && c.chars()
            .all(|ch| ch.is_ascii_alphanumeric() || "./()+−-^".contains(ch) || scripts(ch))
        && c.chars().any(|ch| ch.is_ascii_digit());
    is_number(c)
        || c.chars().any(is_math_char)
        || command_word(c).is_some()
        || name
        || expression
        || fraction
        || applied
}

/// A function applied to arguments that open in word `k` and close in a later one
/// (`sgn(sin 2πt)`): the end of its last word, if every bracket closes.
fn applied_group(words: &[&str], k: usize) -> Option<usize> {
    let w = words[k];
    let (f, _) = w.split_once('(')?;
    if !FUNCTIONS.contains(&f) {
        return None;
    }
    bracket_end(words, k, words.len())
}

/// The end of the words from `k` that close the brackets word `k` opens (within `limit` words).
pub(crate) fn bracket_end(words: &[&str], k: usize, limit: usize) -> Option<usize> {
    let depth = |w: &str| w.matches('(').count() as i64 - w.matches(')').count() as i64;
    let mut d = depth(words[k]);
    let mut m = k + 1;
    while d > 0 && m < words.len() && m - k < limit {
        d += depth(words[m]);
        m += 1;
    }
    (d == 0).then_some(m)
}

/// An operand that continues a formula without an operator (`A sin(ωt)`): mathematics in itself.
pub(crate) fn is_strong(w: &str) -> bool {
    let (_, c, _) = core(w);
    c.chars().any(is_math_char) || command_word(c).is_some()
}

/// Whether a word ends a window (punctuation after it).
fn closes(w: &str) -> bool {
    !core(w).2.is_empty()
}

/// Whether a word opens a window (a bracket before it).
fn opens(w: &str) -> bool {
    !core(w).0.is_empty()
}

/// The first word of a bracketed operand that closes right before the relation at `r`
/// (`4k_iδ_i(A − δ_i) =`), within six words, every word in it an operand or an operator.
fn group_start(words: &[&str], r: usize) -> Option<usize> {
    let last = words[..r].last()?;
    let (_, _, suffix) = core(last);
    if suffix.is_empty() || !suffix.chars().all(|c| c == ')') {
        return None;
    }
    let depth = |w: &str| w.matches(')').count() as i64 - w.matches('(').count() as i64;
    let mut d = 0;
    for j in (r.saturating_sub(6)..r).rev() {
        let w = words[j];
        if !(is_operand(w) || OPERATORS.contains(&w)) {
            return None;
        }
        d += depth(w);
        if d == 0 {
            return (j + 1 < r).then_some(j);
        }
    }
    None
}

/// The windows `[start, end)` of `words` that are formulas around a relation.
pub(crate) fn windows(words: &[&str]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let relation = |k: usize| k < words.len() && RELATIONS.contains(&words[k]);
    let operator = |k: usize| k < words.len() && (OPERATORS.contains(&words[k]) || RELATIONS.contains(&words[k]));
    for r in 0..words.len() {
        if !relation(r) || out.last().is_some_and(|&(_, e)| e > r) {
            continue;
        }
        // Left: operand (operator operand)*, unbroken by punctuation.
        let mut start = r;
        if r > 0 && is_operand(words[r - 1]) && !closes(words[r - 1]) {
            start = r - 1;
            while start >= 2
                && !opens(words[start])
                && OPERATORS.contains(&words[start - 1])
                && is_operand(words[start - 2])
                && !closes(words[start - 2])
            {
                start -= 2;
            }
        } else if let Some(g) = group_start(words, r) {
            // `Σ 4k_iδ_i(A − δ_i) = …`: a bracketed operand that opened words before, and a
            // symbol before it.
            start = g;
            if start > 0 && is_strong(words[start - 1]) && !closes(words[start - 1]) && !opens(words[start - 1]) {
                start -= 1;
            }
        } else if r > 0 && !closes(words[r - 1]) {
            continue;
        }
        // Right: operand, then operators with operands, strong operands, units after numbers.
        let mut end = r + 1;
        if end >= words.len() || !is_operand(words[end]) {
            continue;
        }
        end += 1;
        let mut closed = closes(words[end - 1]);
        while end < words.len() && !closed {
            let w = words[end];
            // `sin 4πt`: a function before its argument goes on.
            let function = FUNCTIONS.contains(&w) && end + 1 < words.len() && is_operand(words[end + 1]);
            if operator(end) && end + 1 < words.len() && is_operand(words[end + 1]) && !opens(words[end + 1]) {
                end += 2;
            } else if let Some(g) = applied_group(words, end) {
                // `sgn(sin 2πt)`: closed when punctuation follows its last bracket.
                closed = closes(&words[end..g].join(" "));
                end = g;
                continue;
            } else if !opens(w)
                && (function || is_strong(w) || (is_unit(core(w).1) && is_number(core(words[end - 1]).1)))
            {
                end += 1;
            } else {
                break;
            }
            closed = closes(words[end - 1]);
        }
        out.push((start, end));
    }
    out
}

/// Whether mathematics opens with a relation (`= 632.46`, `\leq 2`).
pub(crate) fn opens_with_relation(m: &str) -> bool {
    ["=", "<", ">", "\\leq", "\\geq", "\\approx", "\\neq"]
        .iter()
        .any(|r| m.starts_with(r))
}

/// Whether tokens typeset a formula in pieces: a span of mathematics that ends with a relation
/// or an operator (`$k_{i} =$ 1/N`).
pub(crate) fn in_pieces(toks: &[Tok]) -> bool {
    // A span that opens with a relation after something else (`d0 $\leq 2$`) too.
    toks.iter().enumerate().any(|(k, t)| match t {
        Tok::Math(m) => {
            ENDS.iter().any(|e| m.trim_end().ends_with(e)) || (k > 0 && ENDS.iter().any(|e| m.starts_with(e)))
        }
        _ => false,
    })
}

/// Operators written as text between operands.
const TEXT_OPERATORS: &[&str] = &[" + ", " = ", " < ", " > "];

/// Whether LaTeX text typesets a formula in pieces:
/// - a `$...$` span with an operand before the relation or operator it ends with, and more text
///   after it (`$k =$ [2, 4]`, `$|\bar{u}| \leq$ ($\kappa/h$)`), unless a closing quote follows
///   it (a misprint quoted whole, `'$x \geq x_{b} <$'`);
/// - a sign alone before its number (`$-$13.2`);
/// - an operator written as text beside mathematics (`$\sigma_{1}$ + $\alpha_{2}$`,
///   `s + $\sigma_{0}$`);
/// - an operator or a relation alone in a span beside another span (`d/2 $\geq$ $x_{b}$`).
///
/// A lone symbol in text (`Coulomb $+$ stiction`, `slip$\rightarrow$stick`, `($-$)`) is not one.
pub fn formula_in_pieces(tex: &str) -> bool {
    let parts: Vec<&str> = tex.split('$').collect();
    let math = |k: usize| k % 2 == 1 && k < parts.len();
    let starts_operator = |t: &str| {
        TEXT_OPERATORS
            .iter()
            .any(|o| t.trim_start_matches([')', ']']).starts_with(o))
    };
    let ends_operator = |t: &str| {
        TEXT_OPERATORS
            .iter()
            .any(|o| t.trim_end_matches(['(', '[']).ends_with(o))
    };
    let ops = [
        "-",
        "+",
        "<",
        ">",
        "=",
        "\\leq",
        "\\geq",
        "\\approx",
        "\\neq",
        "\\rightarrow",
    ];
    (1..parts.len()).step_by(2).any(|k| {
        let m = parts[k].trim_end();
        let after = parts.get(k + 1).copied().unwrap_or("");
        let quoted = after.starts_with(['\'', '’']);
        // A sign as a script (`\tau_B^+`) leaves nothing open.
        let open = ENDS.iter().any(|e| {
            m.strip_suffix(e)
                .is_some_and(|a| !a.trim().is_empty() && !a.ends_with(['^', '_']))
        });
        let open = open && !quoted && (!after.trim().is_empty() || k + 2 < parts.len());
        let sign = matches!(m, "-" | "+") && after.starts_with(|c: char| c.is_ascii_digit() || c == '.');
        let beside = |j: usize| j < parts.len() && parts[j].trim().is_empty() && j > 0;
        let lone = ops.contains(&m) && ((beside(k + 1) && math(k + 2)) || (beside(k - 1) && k >= 2 && math(k - 2)));
        let operator_text = starts_operator(after) || ends_operator(parts[k - 1]);
        open || sign || lone || operator_text
    })
}

/// The tokens of window `[start, end)` of `words` (joined by `spaces[k]`, the space before word
/// `k`): the labels' reading, shortened from the right while it is in pieces; `None` when no
/// shortening reads as one formula.
pub(crate) fn window_tokens(words: &[&str], spaces: &[&str], start: usize, end: usize) -> Option<(Vec<Tok>, usize)> {
    let relation = (start..end).find(|&k| RELATIONS.contains(&words[k]))?;
    for e in (relation + 2..=end).rev() {
        let mut s = String::from(words[start]);
        for k in start + 1..e {
            s.push_str(spaces[k]);
            s.push_str(words[k]);
        }
        let toks = label_tokens(&s);
        if !in_pieces(&toks) && toks.iter().any(|t| matches!(t, Tok::Math(_))) {
            return Some((toks, e));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::check::tex_problems;
    use crate::label::caption_to_tex;

    #[test]
    fn relations_in_prose_are_one_formula() {
        let cases = [
            (
                "Upper: PID 1 (ω_c = 3.5 rad/s, ζ = 0.58), lower",
                "Upper: PID 1 ($\\omega_{c} = 3.5$ rad/s, $\\zeta = 0.58$), lower",
            ),
            ("At ω = 10 rad/s the slip", "At $\\omega = 10$ rad/s the slip"),
            (
                "τ_s − τ_k = 0.16 N·m in both",
                "$\\tau_{s} - \\tau_{k} = 0.16$ N$\\cdot$m in both",
            ),
            (
                "ζ = 1 needs σ1 = 2.53 (L1520: ≈ 3).",
                "$\\zeta = 1$ needs $\\sigma_{1} = 2.53$ (L1520: $\\approx 3$).",
            ),
            (
                "α0 + α1 = 0.72 / 0.61 N·m with",
                "$\\alpha_{0} + \\alpha_{1} = 0.72$ / 0.61 N$\\cdot$m with",
            ),
            ("under u = A sin(ωt) at", "under $u = A \\sin(\\omega t)$ at"),
            ("only for d0 ≤ 2Δ; the", "only for $d0 \\leq 2\\Delta$; the"),
            (
                "Derived: ε = 0.002815 rad (Property 3.1),",
                "Derived: $\\varepsilon = 0.002815$ rad (Property 3.1),",
            ),
            // Math already written as such is kept; prose words stay prose.
            ("values $F_C = 1$ N and a = b", "values $F_C = 1$ N and $a = b$"),
            ("the ratio is = to", "the ratio is = to"),
            // A fraction over a symbol is a value after an operator (report Fig 3.x's note).
            ("stiffness k_i = 1/N N/m and", "stiffness $k_{i} = 1/N$ N/m and"),
            // A relation after math written as such goes on with it (a table cell).
            ("$2\\sqrt{10^5}$ = 632.46", "$2\\sqrt{10^5} = 632.46$"),
            ("rate 5 = fast", "rate 5 = fast"),
            // E-notation is a number; a sentence's full stop after it is text (report Table 3.1).
            (
                "Property 3.1: ε = 3.45e-5.",
                "Property 3.1: $\\varepsilon = 3.45\\times10^{-5}$.",
            ),
            // A symbol applied to arguments, functions applied across spaces (report Table 3.2).
            (
                "Used with v(t) = 0.0005 sgn(sin 2πt) sin 4πt (L930): g/|v| ≥ 4e3 N·s/m against σ1/4 = 0.5.",
                "Used with $v(t) = 0.0005 \\operatorname{sgn}(\\sin 2\\pi t) \\sin 4\\pi t$ (L930): \
                 $g/|v| \\geq 4\\times10^{3}$ N$\\cdot$s/m against $\\sigma_{1}/4 = 0.5$.",
            ),
            // A symbol applied across spaces is one formula (followup Table 2's caption).
            (
                "Element i dissipates 4k_iδ_i(A − δ_i) per cycle",
                "Element i dissipates $4k_{i}\\delta_{i}(A - \\delta_{i})$ per cycle",
            ),
            // A letter over a letter is a value (followup Table 2).
            (
                "k_i = 1/N N/m, δ_i = i/N m; the",
                "$k_{i} = 1/N$ N/m, $\\delta_{i} = i/N$ m; the",
            ),
            // An integral through its differential is one formula (followup Table 2's caption).
            ("Loop area ∮F du [J] of the", "Loop area $\\oint F du$ [J] of the"),
        ];
        for (prose, want) in cases {
            let got = caption_to_tex(prose);
            assert_eq!(got, want, "{prose}");
            assert!(!super::formula_in_pieces(&got), "{got}");
            assert!(tex_problems(&got).is_empty(), "{prose}: {:?}", tex_problems(&got));
        }
        // What the pieces check finds, and a lone symbol in text it does not.
        assert!(super::formula_in_pieces("(a) $k =$ [2, 4]"));
        assert!(super::formula_in_pieces(r"map: $|u| \leq$ ($\kappa/h$) $x$"));
        assert!(!super::formula_in_pieces(
            r"Coulomb $+$ stiction, slip$\rightarrow$stick, $x = 1$"
        ));
    }
}
