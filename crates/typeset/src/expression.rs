//! Formulas in prose without a relation of their own, read as one formula by the labels' rules
//! ([`crate::label::label_tokens`], issue 45 item 4), beside the relations of
//! [`crate::relation`]:
//! - an expression of operands and operators with at least one mathematical word is one
//!   formula: `J s² + (σ1 + α2) s + σ0` → `$J s^{2} + (\sigma_{1} + \alpha_{2}) s + \sigma_{0}$`
//!   (report Tables 4.2, 4.6 had printed `J s\textsuperscript{2} + ($\sigma_{1}$ +
//!   $\alpha_{2}$) s + $\sigma_{0}$`);
//! - a formula quoted as printed is one formula inside its quotes, even when the quote ends on
//!   a relation (thesis Table 3.2 quotes the misprint `'x − d/2 ≥ x_b <'`, and had printed
//!   `'x $-$ d/2 $\geq$ $x_{b}$ $<$'`).
//!
//! A signed number keeps its sign inside its formula (`−13.2` → `$-13.2$`): the prose's text
//! rule ([`crate::prose::text`], [`crate::formula::signed_number_end`]).

use crate::label::{label_tokens, split_word};
use crate::prose::Tok;
use crate::relation::{in_pieces, is_operand, is_strong, OPERATORS, RELATIONS};
use crate::symbols::{subscript, superscript, FUNCTIONS};

/// The most words an expression or a quoted formula may span.
const LONGEST: usize = 16;

/// Whether punctuation after a word ends a sentence's clause (`σ0,`, `s;`).
fn ends_clause(w: &str) -> bool {
    split_word(w).2.contains([',', ';', ':', '.'])
}

/// A word that makes a stretch of operands mathematics: Greek, scripts, accents, commands, a
/// function's name (`max v − min v`).
fn mathematical(w: &str) -> bool {
    is_strong(w) || w.chars().any(|c| subscript(c).is_some() || superscript(c).is_some()) || FUNCTIONS.contains(&w)
}

/// Words `start..end` joined by the spaces before them.
fn join(words: &[&str], spaces: &[&str], start: usize, end: usize) -> String {
    let mut s = String::from(words[start]);
    for k in start + 1..end {
        s.push_str(spaces[k]);
        s.push_str(words[k]);
    }
    s
}

/// Whether tokens are one formula: one span of mathematics, the text around it brackets and
/// punctuation only, and (unless `dangling` is allowed) not ending on a relation.
fn one_formula(toks: &[Tok], dangling: bool) -> bool {
    let punctuation = |s: &str| {
        s.chars()
            .all(|c| matches!(c, '(' | ')' | '[' | ']' | ',' | ';' | ':' | '.'))
    };
    toks.iter().filter(|t| matches!(t, Tok::Math(_))).count() == 1
        && toks.iter().all(|t| match t {
            Tok::Math(_) => true,
            Tok::Text(s) => punctuation(s),
            _ => false,
        })
        && (dangling || !in_pieces(toks))
}

/// The expression that starts at word `k` (no relation in it, none of its words past `limit`,
/// where a relation's window starts): its tokens and the word after it, the longest stretch of
/// operands and operators the labels' rules read as one formula.
pub(crate) fn expression(words: &[&str], spaces: &[&str], k: usize, limit: usize) -> Option<(Vec<Tok>, usize)> {
    let operator = |w: &str| OPERATORS.contains(&w);
    if !is_operand(words[k]) {
        return None;
    }
    let mut end = k;
    while end < words.len().min(limit) && end - k < LONGEST {
        let w = words[end];
        if RELATIONS.contains(&w) || !(is_operand(w) || operator(w)) {
            break;
        }
        end += 1;
        if ends_clause(w) {
            break;
        }
    }
    (k + 3..=end).rev().find_map(|e| {
        let span = &words[k..e];
        let shape = span.iter().any(|w| operator(w)) && span.iter().any(|w| mathematical(w));
        if !shape || operator(words[e - 1]) {
            return None;
        }
        let toks = label_tokens(&join(words, spaces, k, e));
        one_formula(&toks, false).then_some((toks, e))
    })
}

/// A formula quoted from word `k` (`'x − d/2 ≥ x_b <'`, within [`LONGEST`] words): the opening
/// quote, the formula, the closing quote and what follows it, and the word after it. Only a
/// quote with a relation or an operator and a mathematical word in it, read as one formula.
pub(crate) fn quoted(words: &[&str], spaces: &[&str], k: usize) -> Option<(Vec<Tok>, usize)> {
    let open = words[k].chars().next().filter(|c| matches!(c, '\'' | '‘'))?;
    let close = if open == '‘' { '’' } else { '\'' };
    let last = (k..words.len().min(k + LONGEST)).find(|&j| {
        words[j].trim_end_matches([',', ';', ':', '.', ')']).ends_with(close) && (j > k || words[k].len() > 1)
    })?;
    let s = join(words, spaces, k, last + 1);
    let inner_end = s.trim_end_matches([',', ';', ':', '.', ')']).len() - close.len_utf8();
    let inner = &s[open.len_utf8()..inner_end];
    let tokens: Vec<&str> = inner.split_whitespace().collect();
    let shape =
        tokens.iter().any(|w| RELATIONS.contains(w) || OPERATORS.contains(w)) && tokens.iter().any(|w| mathematical(w));
    if !shape || inner.starts_with(char::is_whitespace) || inner.ends_with(char::is_whitespace) {
        return None;
    }
    let toks = label_tokens(inner);
    if !one_formula(&toks, true) || toks.len() != 1 {
        return None;
    }
    let mut out = vec![Tok::Text(open.to_string())];
    out.extend(toks);
    out.push(Tok::Text(s[inner_end..].to_string()));
    Some((out, last + 1))
}

#[cfg(test)]
mod tests {
    use crate::label::caption_to_tex;
    use crate::relation::formula_in_pieces;

    #[test]
    fn expressions_quotes_and_signed_numbers_are_one_formula_each() {
        let cases = [
            // Report Tables 4.2 and 4.6's notes.
            (
                "Least-squares roots of J s² + (σ1 + α2) s + σ0 (J = 0.0025): -13.2/-9.99e3 (+), \
                 −8.22/−1.12e4 (−); printed −13/−10000.",
                "Least-squares roots of $J s^{2} + (\\sigma_{1} + \\alpha_{2}) s + \\sigma_{0}$ ($J = 0.0025$): \
                 $-13.2$/$-9.99\\times10^{3}$ (+), $-8.22$/$-1.12\\times10^{4}$ ($-$); printed $-13$/$-10000$.",
            ),
            // Thesis Table 3.2's note quotes a misprinted formula.
            (
                "Rows 3-4 corrected from the printed 'x − d/2 ≥ x_b <' (OCR/typo).",
                "Rows 3-4 corrected from the printed '$x - d/2 \\geq x_{b} <$' (OCR/typo).",
            ),
            ("the sum σ1 + σ2, then", "the sum $\\sigma_{1} + \\sigma_{2}$, then"),
            // Not mathematics: left as prose.
            ("Coulomb + stiction and a + b", "Coulomb + stiction and a + b"),
            ("the caption's 'quote' here", "the caption's 'quote' here"),
            ("(+) and (−), 3-4, x-y", "(+) and ($-$), 3-4, x-y"),
            ("−3x and −.5.", "$-$3x and $-.5$."),
        ];
        for (prose, want) in cases {
            let got = caption_to_tex(prose);
            assert_eq!(got, want, "{prose}");
        }
        // What main printed is found in pieces by the project-wide check.
        for pieces in [
            r"J s\textsuperscript{2} + ($\sigma_{1}$ + $\alpha_{2}$) s + $\sigma_{0}$ ($J = 0.0025$)",
            r"roots $-$13.2/$-$9.99e3 (+)",
            r"printed 'x $-$ d/2 $\geq$ $x_{b}$ $<$' (OCR/typo)",
        ] {
            assert!(formula_in_pieces(pieces), "{pieces}");
        }
        assert!(!formula_in_pieces(r"printed '$x - d/2 \geq x_{b} <$' (OCR/typo)"));
        assert!(!formula_in_pieces(
            r"Coulomb $+$ stiction, slip$\rightarrow$stick, ($-$)"
        ));
    }
}
