//! Checks of LaTeX: what is wrong with generated LaTeX ([`tex_problems`]), and whether a `$...$`
//! span written in a manifest may reach a `.tex` file ([`check_math`]).

/// The control word whose backslash is `cs[at]`: its name (the ASCII letters after the
/// backslash, as TeX reads a control word; empty for a control symbol such as `\%` or `\,`)
/// and the index just past the letters. The one lexer of `\word` for the validators here and
/// the SVG/LaTeX agreement test's reader.
pub fn control_word(cs: &[char], at: usize) -> (String, usize) {
    let start = at + 1;
    let end = start
        + cs[start.min(cs.len())..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
    (cs[start.min(cs.len())..end].iter().collect(), end)
}

/// What is wrong with a piece of generated LaTeX: unbalanced braces, an odd number of `$`, an
/// unescaped `&` or `#` (other than a macro parameter `#1`–`#9`), `_`/`^` outside math (and outside `[...]` option lists), `\begin`/`\end` that do not match, or a
/// character that is not ASCII (pdfLaTeX without extra packages). Empty when it is fine.
pub fn tex_problems(s: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let cs: Vec<char> = s.chars().collect();
    let (mut depth, mut in_math, mut envs) = (0i64, false, Vec::<String>::new());
    // Inside an option list (`table[x=F_f]`) `_` is a character of a name.
    let mut options = 0i64;
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        match c {
            '\\' => {
                // A control symbol (`\%`) or word (`\begin`).
                let start = i + 1;
                let (word, j) = control_word(&cs, i);
                if (word == "begin" || word == "end") && cs.get(j) == Some(&'{') {
                    let close = cs[j..].iter().position(|&c| c == '}').map(|p| p + j);
                    if let Some(close) = close {
                        let name: String = cs[j + 1..close].iter().collect();
                        if word == "begin" {
                            envs.push(name);
                        } else if envs.pop().as_deref() != Some(name.as_str()) {
                            bad.push(format!("\\end{{{name}}} does not close the open environment"));
                        }
                    }
                }
                i = if j == start { start + 1 } else { j };
                continue;
            }
            '%' => {
                // A comment: to the end of the line.
                while i < cs.len() && cs[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    bad.push(format!("unbalanced `}}` at character {i}"));
                    depth = 0;
                }
            }
            '$' => in_math = !in_math,
            '[' => options += 1,
            ']' => options -= 1,
            // A macro parameter (`#1`) of a definition the writer puts in its preamble.
            '#' if cs.get(i + 1).is_some_and(|d| ('1'..='9').contains(d)) => {}
            '&' | '#' => bad.push(format!("unescaped `{c}` at character {i}")),
            '_' | '^' if !in_math && options <= 0 => bad.push(format!("`{c}` outside math at character {i}")),
            _ if !c.is_ascii() => bad.push(format!("non-ASCII `{c}` at character {i}")),
            _ => {}
        }
        i += 1;
    }
    if depth != 0 {
        bad.push(format!("{depth} unclosed `{{`"));
    }
    if in_math {
        bad.push("unclosed `$`".into());
    }
    if !envs.is_empty() {
        bad.push(format!("environments not closed: {envs:?}"));
    }
    bad
}

/// Commands a manifest's `$...$` may use: symbols, accents, fonts and operators of
/// mathematics. Nothing that reads or writes a file, defines a macro or changes catcodes can
/// be named here, so such a span is refused rather than passed to LaTeX.
pub const ALLOWED: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "rho",
    "sigma",
    "varsigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
    "mathcal",
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "text",
    "textrm",
    "operatorname",
    "frac",
    "dfrac",
    "tfrac",
    "sqrt",
    "dot",
    "ddot",
    "bar",
    "hat",
    "tilde",
    "vec",
    "overline",
    "underline",
    "widehat",
    "widetilde",
    "sin",
    "cos",
    "tan",
    "exp",
    "log",
    "ln",
    "tanh",
    "sinh",
    "cosh",
    "arctan",
    "max",
    "min",
    "sup",
    "inf",
    "lim",
    "det",
    "sum",
    "prod",
    "int",
    "oint",
    "partial",
    "nabla",
    "infty",
    "cdot",
    "cdots",
    "ldots",
    "dots",
    "times",
    "div",
    "pm",
    "mp",
    "leq",
    "le",
    "geq",
    "ge",
    "neq",
    "ne",
    "approx",
    "sim",
    "simeq",
    "equiv",
    "propto",
    "to",
    "rightarrow",
    "leftarrow",
    "Rightarrow",
    "leftrightarrow",
    "mapsto",
    "in",
    "notin",
    "subset",
    "cup",
    "cap",
    "forall",
    "exists",
    "emptyset",
    "subseteq",
    "supseteq",
    "supset",
    "setminus",
    "rm",
    "bf",
    "it",
    "left",
    "right",
    "big",
    "Big",
    "bigl",
    "bigr",
    "quad",
    "qquad",
    "prime",
    "circ",
    "ast",
    "star",
    "langle",
    "rangle",
    "lvert",
    "rvert",
    "lVert",
    "rVert",
    "mid",
    "vert",
    "ell",
    "hbar",
    "Re",
    "Im",
    "boldsymbol",
    "displaystyle",
    "textstyle",
    "lbrace",
    "rbrace",
    "wedge",
    "vee",
];

/// Commands a manifest might write that LaTeX with amsmath (what every output loads) does not
/// define, with what to write instead: `\sgn` stopped a compile with "Undefined control
/// sequence" where the checker had let it through.
const UNDEFINED: &[(&str, &str)] = &[
    ("sgn", "\\operatorname{sgn}"),
    ("sign", "\\operatorname{sign}"),
    ("varnothing", "\\emptyset"),
];

/// Whether `s` (a caption, a note, a title, a table cell) has only well-formed, allowed
/// `$...$` spans: an even number of unescaped `$`, balanced braces inside each span, and only
/// commands of [`ALLOWED`] (or control symbols such as `\,` `\{`). The error names what is
/// refused.
pub fn check_math(s: &str) -> Result<(), String> {
    let cs: Vec<char> = s.chars().collect();
    let (mut in_math, mut depth, mut i) = (false, 0i64, 0);
    while i < cs.len() {
        match cs[i] {
            '\\' if cs.get(i + 1) == Some(&'$') => i += 1,
            '\\' if in_math => {
                let start = i + 1;
                let (word, j) = control_word(&cs, i);
                if let Some((_, instead)) = UNDEFINED.iter().find(|(n, _)| *n == word) {
                    return Err(format!(
                        "`\\{word}` is not defined by LaTeX (amsmath): write `{instead}`"
                    ));
                }
                if !word.is_empty() && !ALLOWED.contains(&word.as_str()) {
                    return Err(format!("`\\{word}` is not allowed in `$...$` (mathematics only)"));
                }
                i = if j == start { start } else { j - 1 };
            }
            '$' => {
                if in_math && depth != 0 {
                    return Err("unbalanced braces in `$...$`".into());
                }
                in_math = !in_math;
                depth = 0;
            }
            '{' if in_math => depth += 1,
            '}' if in_math => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced `}` in `$...$`".into());
                }
            }
            _ => {}
        }
        i += 1;
    }
    if in_math {
        return Err("unclosed `$`".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_spans_are_validated() {
        assert!(check_math(r"maps $\mathcal{H}_T$ of (1.3), $\sigma_0 = 10^5$ N/m, 50\$").is_ok());
        assert!(check_math(r"$\input{/etc/passwd}$").unwrap_err().contains("\\input"));
        assert!(check_math(r"$\immediate\write18{rm -rf}$").is_err());
        assert!(check_math(r"$\def\x{1}$").is_err());
        assert!(check_math("a $x_1 and no end").unwrap_err().contains("unclosed"));
        assert!(check_math("$x^{2$ then $y$").is_err());
        // LaTeX does not define `\sgn`: refused, with what to write.
        let e = check_math(r"$F = F_c \sgn(v)$").unwrap_err();
        assert!(e.contains("\\sgn") && e.contains("\\operatorname{sgn}"), "{e}");
        assert!(check_math(r"$F = F_c \operatorname{sgn}(v)$").is_ok());
    }

    #[test]
    fn the_checker_finds_problems() {
        assert!(tex_problems("\\begin{a}{$x_1$}\\end{a} % _ & {").is_empty());
        assert_eq!(tex_problems("{").len(), 1);
        assert_eq!(tex_problems("a_b").len(), 1);
        assert_eq!(tex_problems("a & b").len(), 1);
        assert!(tex_problems("\\newcommand{\\f}[1]{\\input{#1}}").is_empty());
        assert_eq!(tex_problems("a # b").len(), 1);
        assert_eq!(tex_problems("\\begin{a}\\end{b}").len(), 1);
        assert_eq!(tex_problems("σ").len(), 1);
    }
}
