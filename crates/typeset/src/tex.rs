//! The LaTeX backend of the label typesetter: the mathematics of a label (`F_f^l`, `σ0 z`,
//! `du/dt`, `x_{i+1}`) in math mode, printed from the runs the SVG prints ([`crate::parse`]),
//! so both outputs read a label the same way (σ0 → `\sigma_{0}`, `d<q>/dt` → `\dot{q}`, a
//! minus U+2212 → `-`). The characters of a run are spelled for pdfLaTeX here: Greek and
//! symbols as commands, combining and precomposed accents as `\bar{}` etc., Unicode sub- and
//! superscript characters as scripts, `sin(` as `\sin(`, specials escaped.

use crate::symbols::{accent, greek, math_symbol, precomposed, subscript, superscript, take_run};
use crate::tree::{parse, Run};

/// Function names set upright (`\sin`) when written before `(`: the printed ones of
/// [`crate::symbols::FUNCTIONS`].
pub const FUNCTIONS: &[&str] = crate::symbols::FUNCTIONS.split_at(crate::symbols::PRINTED_FUNCTIONS).0;

/// Operators LaTeX has no command for, set upright before `(` or a spaced argument: `Re(−1/N)` →
/// `\operatorname{Re}(-1/N)` (report Figs 5.14–5.27's axes; amsmath, which every output loads).
pub const UPRIGHT: &[&str] = &["Re", "Im"];

/// Push a control word, and a space when a letter follows.
fn push_command(out: &mut String, cmd: &str, next: Option<char>) {
    out.push_str(cmd);
    if cmd.ends_with(|c: char| c.is_ascii_alphabetic()) && next.is_some_and(|n| n.is_ascii_alphabetic()) {
        out.push(' ');
    }
}

/// A math-mode rendering of `s` (without the `$`): its runs ([`parse`]) with each script as
/// `_{...}`/`^{...}` around its own rendering.
pub fn math(s: &str) -> String {
    let mut out = String::new();
    for run in parse(s) {
        match run {
            Run::Text(t) => text(&t, &mut out),
            Run::Sub(b) => out.push_str(&format!("_{{{}}}", math(&b))),
            Run::Sup(b) => out.push_str(&format!("^{{{}}}", math(&b))),
        }
    }
    out
}

/// The characters of a text run in math mode.
fn text(s: &str, out: &mut String) {
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        let next = cs.get(i + 1).copied();
        // `sin(` etc. at the start of a word, and any function or `Re` before a space and its
        // argument (`sin t`, `max v`, `Re G`).
        if c.is_ascii_alphabetic() && (i == 0 || !cs[i - 1].is_ascii_alphabetic()) {
            let written = |f: &str| {
                let n = f.len();
                cs.len() > i + n && cs[i..i + n].iter().copied().eq(f.chars())
            };
            let spaced = |f: &str| {
                let n = f.len();
                cs.get(i + n) == Some(&' ') && cs.get(i + n + 1).is_some_and(|a| a.is_alphanumeric())
            };
            let applied = |f: &&&str| written(f) && (cs[i + f.len()] == '(' || spaced(f));
            let function = FUNCTIONS.iter().find(applied);
            let spaced_function = || crate::symbols::FUNCTIONS.iter().find(|f| written(f) && spaced(f));
            if let Some(f) = function.or_else(spaced_function) {
                // LaTeX has no `\sgn`: an operator name, as `Re` is.
                if matches!(*f, "sgn" | "sign") {
                    out.push_str(&format!("\\operatorname{{{f}}}"));
                } else {
                    out.push('\\');
                    out.push_str(f);
                }
                i += f.len();
                continue;
            }
            if let Some(f) = UPRIGHT.iter().find(applied) {
                out.push_str(&format!("\\operatorname{{{f}}}"));
                i += f.len();
                continue;
            }
        }
        // `u̇` (the reading of `du/dt`), `x̄`: a letter with a combining accent.
        if let (Some(a), true) = (next.and_then(accent), c.is_alphanumeric()) {
            out.push_str(&format!("\\{a}{{{}}}", math(&c.to_string())));
            i += 2;
            continue;
        }
        if let Some((base, a)) = precomposed(c) {
            out.push_str(&format!("\\{a}{{{base}}}"));
            i += 1;
            continue;
        }
        // A `_` or `^` the reading left as text (no script follows it).
        if c == '_' || c == '^' {
            out.push_str(if c == '_' { "\\_" } else { "\\hat{}" });
            i += 1;
            continue;
        }
        if subscript(c).is_some() {
            out.push_str(&format!("_{{{}}}", take_run(&cs, &mut i, subscript)));
            continue;
        }
        // `τ_B⁻`: a superscript character is not a LaTeX character (pdfLaTeX stops on it).
        if superscript(c).is_some() {
            out.push_str(&format!("^{{{}}}", take_run(&cs, &mut i, superscript)));
            continue;
        }
        if let Some(g) = greek(c) {
            push_command(out, &format!("\\{g}"), next);
        } else if let Some(m) = math_symbol(c) {
            push_command(out, m, next);
        } else {
            out.push(c);
        }
        i += 1;
    }
}

/// Push one character of text, escaped for LaTeX outside math.
pub fn push_escaped(out: &mut String, ch: char) {
    match ch {
        '&' | '%' | '#' | '_' | '{' | '}' | '$' => {
            out.push('\\');
            out.push(ch);
        }
        '~' => out.push_str("\\textasciitilde{}"),
        '^' => out.push_str("\\textasciicircum{}"),
        '\\' => out.push_str("\\textbackslash{}"),
        _ => out.push(ch),
    }
}

#[cfg(test)]
mod tests {
    use super::math;

    #[test]
    fn math_is_printed_from_the_svg_runs() {
        let cases = [
            ("F_f", "F_{f}"),
            ("F_f^l", "F_{f}^{l}"),
            ("τ_B⁻", "\\tau_{B}^{-}"),
            ("x_{i+1}", "x_{i+1}"),
            ("du/dt", "\\dot{u}"),
            ("dθ/dt", "\\dot{\\theta}"),
            ("σ0 z + σ1 dz/dt", "\\sigma_{0} z + \\sigma_{1} \\dot{z}"),
            ("g_- and f_{-}^{-1}, 10^-4", "g_{-} and f_{-}^{-1}, 10^{-4}"),
            ("-0.03 N, x-y", "-0.03 N, x-y"),
            ("k\u{304}′_p", "\\bar{k}'_{p}"),
            ("ū", "\\bar{u}"),
            ("0.05 sin(0.2πt)", "0.05 \\sin(0.2\\pi t)"),
            ("Ω*, H∞", "\\Omega^{*}, H\\infty"),
            ("x₂", "x_{2}"),
            ("Re(−1/N), Im G", "\\operatorname{Re}(-1/N), \\operatorname{Im} G"),
            (
                "θ̇ = sin t, max v − min v",
                "\\dot{\\theta} = \\sin t, \\max v - \\min v",
            ),
            ("4k_iδ_i(A", "4k_{i}\\delta_{i}(A"),
            ("F_c²/σ", "F_{c}^{2}/\\sigma"),
            ("a_ and ^", "a\\_ and \\hat{}"),
            ("sgn(sin 2πt)", "\\operatorname{sgn}(\\sin 2\\pi t)"),
            ("50% & #1", "50\\% \\& \\#1"),
        ];
        for (label, want) in cases {
            assert_eq!(math(label), want, "{label}");
        }
    }
}
