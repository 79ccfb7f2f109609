//! The readings of a label that make a formula of what would otherwise be typeset in pieces
//! (issue 45 item 4), applied by [`super::tex::label_tokens`] after its word classes:
//! a range of numbers after an operator is one value (`t = 518–573 s` →
//! `$t = 518\text{--}573$ s`, not `$t =$ 518--573 s`); a unit between a number and a relation
//! is upright inside the formula, and so is the unit that closes it (`7990 s ≤ t ≤ 8000 s` →
//! `$7990\,\mathrm{s} \leq t \leq 8000\,\mathrm{s}$`, not `7990 s $\leq t \leq 8000$ s`); a
//! single `I`, `V` or `X` in a label that numbers with Roman numerals (`II`, `IV`) is a numeral,
//! not a symbol (`II boundary lubrication (I, stiction: …)`, report Fig 1.4).

use super::tex::{math, Class};

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

/// A number over a letter: `1/N`, `2/m`.
fn is_fraction(core: &str) -> bool {
    core.split_once('/').is_some_and(|(n, d)| {
        !n.is_empty()
            && n.chars().all(|c| c.is_ascii_digit())
            && d.chars().count() == 1
            && d.chars().all(|c| c.is_ascii_alphabetic())
    })
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

/// Revise the classes of `words` (prefix, core, suffix) with the readings above.
pub(super) fn revise(words: &[(&str, &str, &str)], classes: &mut [Class]) {
    let joined = |j: usize| j + 1 < words.len() && words[j].2.is_empty() && words[j + 1].0.is_empty();
    let numbered = (0..words.len()).any(|k| classes[k] == Class::Text && is_numeral(words[k].1));
    let mut run_has_unit = false;
    for k in 0..words.len() {
        let core = words[k].1;
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
pub(super) fn run_math(words: &[&str], classes: &[Class]) -> String {
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
    use super::super::tex::label_to_tex;
    use crate::pgf::check::tex_problems;

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
        // The HTML report prints the range's dash as LaTeX does, and the unit upright.
        let h = crate::mathml::math(r"t = 518\text{--}573, 8\,\mathrm{s}");
        assert!(h.contains("<mtext>–</mtext>") && h.contains("<mtext>s</mtext>"), "{h}");
    }
}
