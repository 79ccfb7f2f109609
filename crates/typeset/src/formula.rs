//! The readings of a label that make a formula of what would otherwise be typeset in pieces
//! (issue 45 item 4), applied by [`crate::label::label_tokens`] after its word classes:
//! a range of numbers after an operator is one value (`t = 518–573 s` →
//! `$t = 518\text{--}573$ s`, not `$t =$ 518--573 s`); a unit between a number and a relation
//! is upright inside the formula, and so is the unit that closes it (`7990 s ≤ t ≤ 8000 s` →
//! `$7990\,\mathrm{s} \leq t \leq 8000\,\mathrm{s}$`, not `7990 s $\leq t \leq 8000$ s`); a
//! single `I`, `V` or `X` in a label that numbers with Roman numerals (`II`, `IV`) is a numeral,
//! not a symbol (`II boundary lubrication (I, stiction: …)`, report Fig 1.4); a word naming a
//! relation's left side is upright in it (`swing = 0.05 m/s` → `$\text{swing} = 0.05$ m/s`); a
//! number in e-notation is `3.45\times10^{-5}`; a letter over a letter after an operator is a
//! value and a letter after it its unit (`$\delta_{i} = i/N$ m`); a brace the formula opens
//! closes in it (`$R \cap \{\dot{V} > 0\}$`); a bracketed operand after a relation is in it
//! (`$k = [2, 4]$`, not `$k =$ [2, 4]`), and so is an integral's differential (`$\oint F du$`).

use crate::label::{math, Class};

/// Words that are never a unit (`2 in = …` is not inches here).
const NOT_UNITS: &[&str] = &["a", "an", "and", "as", "at", "by", "in", "is", "of", "on", "or", "to"];

/// A number range written with a dash: `518–573`, `0.5-2`.
fn is_range(core: &str) -> bool {
    let number = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_digit() || c == '.')
            && s.starts_with(|c: char| c.is_ascii_digit())
    };
    core.split_once(['–', '-']).is_some_and(|(a, b)| number(a) && number(b))
}

/// A number or a letter over a letter or a number: `1/N`, `2/m`, `i/N`, `d/2`, `1/2`.
fn is_fraction(core: &str) -> bool {
    let letter = |s: &str| s.chars().count() == 1 && s.chars().all(|c| c.is_ascii_alphabetic());
    let number = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    core.split_once('/')
        .is_some_and(|(n, d)| (number(n) || letter(n)) && (letter(d) || number(d)))
}

/// A number in e-notation, as mantissa and exponent: `3.45e-5` → (`3.45`, `-5`), `4e3`.
pub(crate) fn e_number(s: &str) -> Option<(&str, String)> {
    let (m, e) = s.split_once('e')?;
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let mantissa = m.trim_start_matches(['−', '-', '+']);
    let plain = !mantissa.is_empty()
        && mantissa.split('.').count() <= 2
        && mantissa.chars().all(|c| c.is_ascii_digit() || c == '.');
    let exponent = e
        .strip_prefix(['-', '−'])
        .map_or(e.trim_start_matches('+').to_string(), |x| format!("-{x}"));
    (plain && mantissa.chars().any(|c| c.is_ascii_digit()) && digits(exponent.trim_start_matches('-')))
        .then_some((m, exponent))
}

/// A number, signed or not, as mathematics: its sign a minus inside the formula, e-notation
/// as `\times10^{…}` (`−9.99e3` → `-9.99\times10^{3}`, `−13.2` → `-13.2`).
pub(crate) fn number_math(s: &str) -> String {
    match e_number(s) {
        Some((m, e)) => format!("{}\\times10^{{{e}}}", m.replace('−', "-")),
        None => s.replace('−', "-"),
    }
}

/// Where the signed number whose sign is at `cs[i]` ends (`−13.2`, `-9.99e3`, `−.5`): digits
/// with at most one point between digits, an optional exponent, and no letter or digit after
/// it; `None` when no number follows the sign (`(−)`, `−x`, `−3x`).
pub(crate) fn signed_number_end(cs: &[char], i: usize) -> Option<usize> {
    let digits = |mut j: usize| {
        while j < cs.len() && cs[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut j = digits(i + 1);
    let mut any = j > i + 1;
    if cs.get(j) == Some(&'.') && cs.get(j + 1).is_some_and(char::is_ascii_digit) {
        j = digits(j + 1);
        any = true;
    }
    if !any {
        return None;
    }
    if cs.get(j) == Some(&'e') {
        let k = j + 1 + usize::from(cs.get(j + 1).is_some_and(|c| matches!(c, '-' | '−' | '+')));
        let end = digits(k);
        if end > k {
            j = end;
        }
    }
    cs.get(j).is_none_or(|c| !c.is_alphanumeric()).then_some(j)
}

/// Whether the words open a brace they do not close (`R ∩ {V̇ > 0`).
pub(crate) fn brace_open(words: &[&str]) -> bool {
    let count = |c: char| words.iter().map(|w| w.matches(c).count()).sum::<usize>();
    count('{') > count('}')
}

/// A word before a relation that names its left side (`swing = 0.05 m/s`): a word of letters.
fn is_name(core: &str) -> bool {
    core.chars().count() >= 2 && core.chars().all(|c| c.is_ascii_alphabetic()) && !NOT_UNITS.contains(&core)
}

/// A word that can be the unit of the number before it: `s`, `N`, `rad/s`.
fn is_unit(core: &str) -> bool {
    let n = core.chars().count();
    (1..=5).contains(&n)
        && core.starts_with(|c: char| c.is_ascii_alphabetic())
        && core.chars().all(|c| c.is_ascii_alphabetic() || c == '/')
        && !NOT_UNITS.contains(&core)
}

/// A Roman numeral of two or more letters (`II`, `III`, `IV`).
fn is_numeral(core: &str) -> bool {
    core.len() >= 2 && core.chars().all(|c| matches!(c, 'I' | 'V' | 'X'))
}

/// A relation or an operator that leaves its formula open.
fn is_relation(core: &str) -> bool {
    matches!(
        core,
        "=" | "<" | ">" | "≤" | "≥" | "≈" | "≠" | "→" | "+" | "-" | "−" | "×" | "·"
    )
}

/// A differential after an integral sign: `du`, `dt`, `dθ`.
fn is_differential(core: &str) -> bool {
    let mut cs = core.chars();
    cs.next() == Some('d') && cs.next().is_some_and(char::is_alphabetic) && cs.next().is_none()
}

/// A bracketed operand of the relation or operator that ends a run of words (prefix, core,
/// suffix; the run ends before word `end`): `k = [2, 4]`, `|ū − K x̄| ≤ (κ/h) θ̂_max` (thesis
/// Figs 2.5 and 3.15 had printed `$k =$ [2, 4]`, `$\leq$ ($\kappa/h$)`). Its end (the word
/// after the one whose suffix closes the bracket) and how many bytes of that suffix close it;
/// none when a word inside it is text or it does not close within six words.
pub(crate) fn operand_group(words: &[(&str, &str, &str)], classes: &[Class], end: usize) -> Option<(usize, usize)> {
    let (p, _, _) = *words.get(end)?;
    let open = end > 0 && words[end - 1].2.is_empty() && is_relation(words[end - 1].1);
    if !open || p.is_empty() || !p.chars().all(|c| matches!(c, '(' | '[')) {
        return None;
    }
    let mut depth = 0i64;
    for j in end..words.len().min(end + 6) {
        let (p, c, s) = words[j];
        if classes[j] == Class::Text {
            return None;
        }
        let count = |w: &str, a: char, b: char| w.matches([a, b]).count() as i64;
        depth += count(p, '(', '[') + count(c, '(', '[') - count(c, ')', ']');
        for (i, ch) in s.char_indices() {
            depth += count(&ch.to_string(), '(', '[') - count(&ch.to_string(), ')', ']');
            if depth <= 0 {
                return (depth == 0).then_some((j + 1, i + ch.len_utf8()));
            }
        }
    }
    None
}

/// The end of an integral written in prose from word `k` (`∮F du`): the word after its
/// differential, within three words (followup Table 2 had printed `$\oint$F du`).
pub(crate) fn integral_end(words: &[&str], k: usize) -> Option<usize> {
    let sign = |w: &str| w.trim_start_matches(['(', '[']).starts_with(['∫', '∮']);
    if !sign(words[k]) {
        return None;
    }
    (k + 1..words.len().min(k + 4))
        .find(|&j| is_differential(crate::label::split_word(words[j]).1))
        .map(|j| j + 1)
}

/// Revise the classes of `words` (prefix, core, suffix) with the readings above.
pub(crate) fn revise(words: &[(&str, &str, &str)], classes: &mut [Class]) {
    let joined = |j: usize| j + 1 < words.len() && words[j].2.is_empty() && words[j + 1].0.is_empty();
    let numbered = (0..words.len()).any(|k| classes[k] == Class::Text && is_numeral(words[k].1));
    let mut run_has_unit = false;
    let mut fraction_before = false;
    let mut integral = false;
    for k in 0..words.len() {
        let core = words[k].1;
        // `∮F du`: the differential closes the integral's formula.
        if integral && joined(k - 1) && is_differential(core) {
            classes[k] = Class::Math;
        }
        integral = core.contains(['∫', '∮']) || (integral && joined(k));
        // `swing = 0.05 m/s`: the name of a relation's left side joins the formula, upright.
        let relation = |j: usize| j < words.len() && matches!(words[j].1, "=" | "<" | ">" | "≤" | "≥" | "≈" | "≠");
        let operand_after = k + 2 < words.len() && joined(k + 1) && classes[k + 2] != Class::Text;
        if classes[k] == Class::Text && is_name(core) && joined(k) && relation(k + 1) && operand_after {
            classes[k] = Class::Name;
        }
        // `δ_i = i/N m`: a single letter after a value written as a fraction is its unit.
        let unit_after_fraction = fraction_before && joined(k - 1) && is_unit(core) && core.len() == 1;
        if unit_after_fraction && classes[k] == Class::Math && !(joined(k) && classes[k + 1] == Class::Operator) {
            classes[k] = Class::Text;
        }
        fraction_before = false;
        if numbered && matches!(core, "I" | "V" | "X") {
            classes[k] = Class::Text;
        }
        let after_operator = k > 0 && joined(k - 1) && classes[k - 1] == Class::Operator;
        if classes[k] == Class::Text && is_range(core) && after_operator {
            classes[k] = Class::Range;
        }
        // A value written as a fraction over a symbol after an operator (`k_i = 1/N N/m`): not a
        // unit there (`rate 1/s` alone may be one).
        if classes[k] == Class::Text && is_fraction(core) && after_operator {
            classes[k] = Class::Math;
            fraction_before = true;
        }
        let after_number = k > 0 && joined(k - 1) && matches!(classes[k - 1], Class::Number | Class::Range);
        let before_relation = joined(k) && matches!(classes[k + 1], Class::Math | Class::Operator);
        if classes[k] == Class::Text && is_unit(core) && after_number && (before_relation || run_has_unit) {
            classes[k] = Class::Unit;
            run_has_unit = true;
        }
        if classes[k] == Class::Text || !joined(k) {
            run_has_unit = false;
        }
    }
}

/// The mathematics of a run of words: the words between units and ranges as [`math`] reads them
/// together (`sin t` needs its argument), a unit as `\,\mathrm{…}`, a range with an en dash.
pub(crate) fn run_math(words: &[&str], classes: &[Class]) -> String {
    let mut out = String::new();
    let mut plain: Vec<&str> = Vec::new();
    let flush = |plain: &mut Vec<&str>, out: &mut String| {
        if !plain.is_empty() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&math(&plain.join(" ")));
            plain.clear();
        }
    };
    for (w, c) in words.iter().zip(classes) {
        match c {
            Class::Unit => {
                flush(&mut plain, &mut out);
                out.push_str(&format!("\\,\\mathrm{{{w}}}"));
            }
            Class::Name => {
                flush(&mut plain, &mut out);
                out.push_str(&format!("\\text{{{w}}}"));
            }
            Class::Number | Class::Operator if e_number(w).is_some() => {
                flush(&mut plain, &mut out);
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&number_math(w));
            }
            Class::Range => {
                flush(&mut plain, &mut out);
                let (a, b) = w.split_once(['–', '-']).unwrap_or((w, ""));
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&format!("{a}\\text{{--}}{b}"));
            }
            _ => plain.push(w),
        }
    }
    flush(&mut plain, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use crate::check::tex_problems;
    use crate::label::label_to_tex;

    #[test]
    fn ranges_units_and_numerals_make_one_formula() {
        let cases = [
            // A range after an operator is one value (thesis Figs 3.13–3.14, followup).
            ("t = 518–573 s", "$t = 518\\text{--}573$ s"),
            (
                "(b) velocity, t = 1257–1273 s",
                "(b) velocity, $t = 1257\\text{--}1273$ s",
            ),
            (
                "one cycle (t = 518–573 s), v increasing",
                "one cycle ($t = 518\\text{--}573$ s), $v$ increasing",
            ),
            // Not after an operator: text, as before.
            ("0-50 s from rest", "0-50 s from rest"),
            // A unit inside a formula is upright, and so is the one that closes it.
            (
                "7990 s ≤ t ≤ 8000 s (late orbit)",
                "$7990\\,\\mathrm{s} \\leq t \\leq 8000\\,\\mathrm{s}$ (late orbit)",
            ),
            ("1.2 s ≤ t ≤ 8 s", "$1.2\\,\\mathrm{s} \\leq t \\leq 8\\,\\mathrm{s}$"),
            // No unit inside: the closing unit stays outside, as before.
            ("0 ≤ t ≤ 80 s", "$0 \\leq t \\leq 80$ s"),
            ("t ≥ 20 s", "$t \\geq 20$ s"),
            // Roman numerals number the regimes (report Fig 1.4); a lone I is a symbol elsewhere.
            (
                "II boundary lubrication (I, stiction: v_ss → 0)",
                "II boundary lubrication (I, stiction: $v_{ss} \\rightarrow 0$)",
            ),
            ("I = sin t A: wing", "$I = \\sin t$ A: wing"),
        ];
        for (label, want) in cases {
            let got = label_to_tex(label);
            assert_eq!(got, want, "{label}");
            assert!(tex_problems(&got).is_empty(), "{label}: {:?}", tex_problems(&got));
        }
    }

    #[test]
    fn names_fractions_exponents_and_braces_join_the_formula() {
        let cases = [
            // The name of a relation's left side is upright in it (followup Figs 4, 7's legends).
            ("onsets (swing = 0.05 m/s)", "onsets ($\\text{swing} = 0.05$ m/s)"),
            ("found: area = 3 J", "found: $\\text{area} = 3$ J"),
            ("rate 5 and more", "rate 5 and more"),
            // A letter over a letter is a value after an operator, the letter after it its unit.
            ("δ_i = i/N m", "$\\delta_{i} = i/N$ m"),
            ("k_i = 1/N N/m", "$k_{i} = 1/N$ N/m"),
            // E-notation is a number (report Table 3.1's note).
            ("ε = 3.45e-5", "$\\varepsilon = 3.45\\times10^{-5}$"),
            ("F = −2.5e3 N", "$F = -2.5\\times10^{3}$ N"),
            // A bracketed operand of a relation is in its formula (thesis Figs 2.5, 3.15), and so
            // is an integral's differential (followup Table 2).
            ("(a) k = [2, 4]", "(a) $k = [2, 4]$"),
            ("(b) k = [−2, −4], rest", "(b) $k = [-2, -4]$, rest"),
            (
                "equilibria map: |ū − K x̄| ≤ (κ/h) θ̂_max",
                "equilibria map: $|\\bar{u} - K \\bar{x}| \\leq (\\kappa/h) \\hat{\\theta}_{max}$",
            ),
            ("Loop area ∮F du [J]", "Loop area $\\oint F du$ [J]"),
            // A brace opened in the formula closes in it (report Fig 3.7(b)'s title).
            (
                "(b) zoom: the sliver R ∩ {V̇ > 0}, starts of Figs 3.8, 3.9",
                "(b) zoom: the sliver $R \\cap \\{\\dot{V} > 0\\}$, starts of Figs 3.8, 3.9",
            ),
        ];
        for (label, want) in cases {
            let got = label_to_tex(label);
            assert_eq!(got, want, "{label}");
            assert!(tex_problems(&got).is_empty(), "{label}: {:?}", tex_problems(&got));
        }
    }
}
