//! Labels as they are written in manifests (`F_f`, `F_ss`, `x_{i+1}`, `du/dt`, `kg-m^2`) to the
//! typography of the field: subscripts and superscripts as SVG `tspan`s, `d<q>/dt` as a dotted
//! `q̇`, and `-` between unit symbols inside `[...]` as a half-high dot (`N·m`).
//!
//! Two rules of the field's typography are applied where the manifest's spelling is unambiguous:
//! digits right after a Greek letter are its subscript (`σ0` → σ₀, `α_1` too; a Latin letter
//! with digits, `H1`, is left as written, since names such as `H1` occur), and a minus is U+2212
//! in every script, before a number, symbol or bracket in text and spaced between operands
//! (`-0.03` → −0.03, `g(v) - 2 N` → g(v) − 2 N, `g_-` → g₋; a hyphen between words, `x-y`,
//! `0-50 s`, stays a hyphen).
//!
//! The runs are the one reading of a label: the SVG prints them ([`crate::svg()`]), the LaTeX
//! route prints the mathematics of a label from them ([`crate::tex::math`]) and reads units
//! through [`unit`], so `N-m` is N·m and `σ0` is σ₀ in both.
//!
//! The conversion is purely textual and total: any string is accepted, text it does not
//! recognise is kept as written.

/// A piece of a label: normal text, a subscript or a superscript.
#[derive(Clone, Debug, PartialEq)]
pub enum Run {
    Text(String),
    Sub(String),
    Sup(String),
}

/// True for a character that can be a variable name (Latin or Greek letter).
fn is_letter(c: char) -> bool {
    c.is_alphabetic()
}

/// True for a Greek letter (whose trailing digits are a subscript): the Greek block's letters
/// and the variants LaTeX names ([`crate::symbols::greek`]: ϵ, ϑ, ϕ).
fn is_greek(c: char) -> bool {
    ('\u{391}'..='\u{3c9}').contains(&c) || crate::symbols::greek(c).is_some()
}

/// Whether the `-` at `chars[i]` is a minus sign: it follows the start, a space, an opening
/// bracket or an operator, and precedes a digit, a point, a letter or an opening bracket, or it
/// stands between two spaces. The LaTeX outputs apply the same rule to text.
pub fn is_minus(chars: &[char], i: usize) -> bool {
    let before = i == 0 || matches!(chars[i - 1], ' ' | '(' | '[' | '=' | ',' | '/' | '*' | '+');
    let after = chars.get(i + 1).copied();
    let operand = after.is_some_and(|n| n.is_alphanumeric() || matches!(n, '.' | '(' | '|'));
    let spaced = i > 0 && chars[i - 1] == ' ' && after == Some(' ');
    before && (operand || spaced)
}

/// `s` with every `-` that [`is_minus`] reads as a minus written U+2212 (for text printed
/// without [`parse`], such as the HTML report's prose).
pub fn minus_signs(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    (0..chars.len())
        .map(|i| {
            if chars[i] == '-' && is_minus(&chars, i) {
                '−'
            } else {
                chars[i]
            }
        })
        .collect()
}

/// A unit as its runs, read as the unit part of an axis label (`N-m` → `N·m`, `m/s^2`): the
/// same reading [`parse`] gives it inside `[...]`, for every output that prints a unit.
pub fn unit(u: &str) -> Vec<Run> {
    let mut runs = parse(&format!("[{u}]"));
    if let Some(Run::Text(t)) = runs.first_mut() {
        t.remove(0);
    }
    if let Some(Run::Text(t)) = runs.last_mut() {
        t.pop();
    }
    runs.retain(|r| !matches!(r, Run::Text(t) if t.is_empty()));
    runs
}

/// Where the digits that subscript the Greek letter at `chars[i]` end: `σ0` → σ₀ (a Greek
/// letter, then digits, then no letter or digit; `σ0x` is left as written). The prose
/// typesetter of fric-report reads Greek letters in text by the same rule.
pub fn greek_digits(chars: &[char], i: usize) -> Option<usize> {
    if !is_greek(chars[i]) {
        return None;
    }
    let end = (i + 1..chars.len())
        .find(|&j| !chars[j].is_ascii_digit())
        .unwrap_or(chars.len());
    (end > i + 1 && chars.get(end).is_none_or(|n| !n.is_alphanumeric())).then_some(end)
}

/// The script written at `chars[i]`, a `_` or `^` after something: the braced group
/// (`x_{i+1}`, up to the first `}`) or a bare script, an optional sign (`10^-4`, `f_+`, `g_-`)
/// then ASCII letters and digits, or one other letter (`a_θ`); what follows is not part of it
/// (`k_iδ_i` is k_i δ_i, `F_c²` is F_c squared, `k_sθ` is k_s θ). Its run (a `-` in it a
/// minus) and the index after it; `None` when no script is written there (`a_`, `_x`).
pub fn script_at(chars: &[char], i: usize) -> Option<(Run, usize)> {
    let c = chars[i];
    if !matches!(c, '_' | '^') || i == 0 || i + 1 >= chars.len() {
        return None;
    }
    let (body, next) = if chars[i + 1] == '{' {
        let p = chars[i + 2..].iter().position(|&d| d == '}')?;
        (chars[i + 2..i + 2 + p].iter().collect::<String>(), i + 3 + p)
    } else {
        let start = i + 1 + usize::from(matches!(chars[i + 1], '-' | '−' | '+'));
        let end = match chars.get(start) {
            Some(c) if !c.is_ascii() && c.is_alphabetic() => start + 1,
            _ => (start..chars.len())
                .find(|&j| !chars[j].is_ascii_alphanumeric())
                .unwrap_or(chars.len()),
        };
        (chars[i + 1..end].iter().collect::<String>(), end)
    };
    if body.is_empty() {
        return None;
    }
    let body = body.replace('-', "−");
    Some((if c == '_' { Run::Sub(body) } else { Run::Sup(body) }, next))
}

/// Split a label into runs (see the module documentation).
pub fn parse(label: &str) -> Vec<Run> {
    let chars: Vec<char> = label.chars().collect();
    let mut runs: Vec<Run> = Vec::new();
    let mut text = String::new();
    let mut in_unit = false;
    let mut i = 0;
    let flush = |text: &mut String, runs: &mut Vec<Run>| {
        if !text.is_empty() {
            runs.push(Run::Text(std::mem::take(text)));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if let Some(end) = greek_digits(&chars, i) {
            text.push(c);
            flush(&mut text, &mut runs);
            runs.push(Run::Sub(chars[i + 1..end].iter().collect()));
            i = end;
            continue;
        }
        // A minus: at the start or after a space, bracket or operator, before a number, a
        // symbol or a bracket (`-0.03`, `-F_c`, `-(a)`), or spaced as a binary operator
        // (`g(v) - 2 N`). A hyphen between two letters or digits (`x-y`, `0-50 s`) stays.
        if c == '-' && is_minus(&chars, i) {
            text.push('−');
            i += 1;
            continue;
        }
        // d<q>/dt → q̇ (a single-letter quantity, at a word start, not followed by a letter).
        if c == 'd'
            && (i == 0 || !chars[i - 1].is_alphanumeric())
            && i + 4 < chars.len()
            && is_letter(chars[i + 1])
            && chars[i + 2..].starts_with(&['/', 'd', 't'])
            && chars.get(i + 5).is_none_or(|n| !n.is_alphanumeric())
        {
            text.push(chars[i + 1]);
            text.push('\u{307}');
            i += 5;
            continue;
        }
        if let Some((run, next)) = script_at(&chars, i) {
            flush(&mut text, &mut runs);
            runs.push(run);
            i = next;
            continue;
        }
        match c {
            '[' => in_unit = true,
            ']' => in_unit = false,
            _ => {}
        }
        if in_unit && c == '-' && i > 0 && is_letter(chars[i - 1]) && chars.get(i + 1).is_some_and(|n| is_letter(*n)) {
            text.push('·');
        } else {
            text.push(c);
        }
        i += 1;
    }
    flush(&mut text, &mut runs);
    runs
}

/// The label as plain text (subscripts and superscripts inline), for measuring its width.
pub fn plain(label: &str) -> String {
    parse(label)
        .into_iter()
        .map(|r| match r {
            Run::Text(s) | Run::Sub(s) | Run::Sup(s) => s,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(l: &str) -> String {
        parse(l)
            .into_iter()
            .map(|r| match r {
                Run::Text(s) => s,
                Run::Sub(s) => format!("_<{s}>"),
                Run::Sup(s) => format!("^<{s}>"),
            })
            .collect()
    }

    #[test]
    fn labels_of_the_manifests() {
        assert_eq!(show("F_f [N]"), "F_<f> [N]");
        assert_eq!(show("F_ss"), "F_<ss>");
        assert_eq!(
            show("branch (3.5) from x_i to x_{i+1}"),
            "branch (3.5) from x_<i> to x_<i+1>"
        );
        assert_eq!(show("du/dt [m/s]"), "u\u{307} [m/s]");
        assert_eq!(show("dθ/dt [rad/s]"), "θ\u{307} [rad/s]");
        assert_eq!(
            show("du/dt increasing (offset +0.03 N)"),
            "u\u{307} increasing (offset +0.03 N)"
        );
        assert_eq!(show("T_m [N-m]"), "T_<m> [N·m]");
        assert_eq!(show("J [kg-m^2]"), "J [kg·m^<2>]");
        assert_eq!(show("a [m/s^2]"), "a [m/s^<2>]");
        assert_eq!(show("E_p(i+n) [J]"), "E_<p>(i+n) [J]");
        assert_eq!(show("σ/F_c = 8"), "σ/F_<c> = 8");
        assert_eq!(show("|E_f| [J]"), "|E_<f>| [J]");
        // Greek letters with digits, written either way; scripts' and numbers' minus signs.
        assert_eq!(show("σ0 z + σ1 dz/dt"), "σ_<0> z + σ_<1> z\u{307}");
        assert_eq!(show("σ_0 = 10^5"), "σ_<0> = 10^<5>");
        assert_eq!(show("α12, σ0x, H1"), "α_<12>, σ0x, H1");
        assert_eq!(show("g_- and f_{-}^{-1}, f_+"), "g_<−> and f_<−>^<−1>, f_<+>");
        assert_eq!(
            show("offset -0.03 N, x-y, 0-50 s, 10^-4"),
            "offset −0.03 N, x-y, 0-50 s, 10^<−4>"
        );
        assert_eq!(show("F_f^l"), "F_<f>^<l>");
        // A bare script ends at the first character that is not an ASCII letter or digit
        // (followup table 2's caption printed `4k_iδ_i` as k with the subscript iδ).
        assert_eq!(
            show("4k_iδ_i(A − δ_i), F_c²/σ, a_θ1"),
            "4k_<i>δ_<i>(A − δ_<i>), F_<c>²/σ, a_<θ>1"
        );
        // A spaced minus and a minus before a symbol or bracket are minus signs too.
        assert_eq!(show("g(v) - 2 N"), "g(v) − 2 N");
        assert_eq!(show("-F_c and -(a) and -x"), "−F_<c> and −(a) and −x");
        assert_eq!(show("non-linear, x-y, a -> b, [-]"), "non-linear, x-y, a -> b, [-]");
        // Not markup: kept as written.
        assert_eq!(show("x-y plane, 2-3 s"), "x-y plane, 2-3 s");
        assert_eq!(show("a_"), "a_");
        assert_eq!(show("_x"), "_x");
        assert_eq!(show("dudt"), "dudt");
        assert_eq!(show("odd/dt"), "odd/dt");
    }

    #[test]
    fn units_read_as_in_a_label() {
        let show_unit = |u: &str| {
            unit(u)
                .into_iter()
                .map(|r| match r {
                    Run::Text(s) => s,
                    Run::Sub(s) => format!("_<{s}>"),
                    Run::Sup(s) => format!("^<{s}>"),
                })
                .collect::<String>()
        };
        assert_eq!(show_unit("N-m"), "N·m");
        assert_eq!(minus_signs("-13.2/-9.99e3 (+), x-y"), "−13.2/−9.99e3 (+), x-y");
        assert_eq!(show_unit("kg-m^2"), "kg·m^<2>");
        assert_eq!(show_unit("10^{-3} N"), "10^<−3> N");
        assert_eq!(show_unit("m"), "m");
        assert_eq!(show_unit("m^2"), "m^<2>");
    }
}
