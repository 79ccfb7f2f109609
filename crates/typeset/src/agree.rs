//! The SVG and the LaTeX printers read a label alike (issue 45 item 4, issue 49 item 3): the
//! same labels through both, the SVG's runs ([`crate::svg()`] prints [`crate::parse`]) against
//! the LaTeX's reading ([`crate::label::read`], which `label_to_tex` and the HTML report print),
//! compared character by character: the same characters, scripts and accents, and every
//! character the SVG sets as mathematics (a script, a Greek letter, an accent, a minus) inside
//! the LaTeX's mathematics (or a script of text). A backend that read a word differently (a `_`
//! escaped as text, a Greek digit left on the line, a minus as a hyphen) fails it.

use crate::check::control_word;
use crate::label::read;
use crate::prose::Tok;
use crate::symbols::{greek, greek_letter, precomposed, subscript, superscript, symbol_of, take_run, ACCENTS};
use crate::tree::{parse, Run};

/// A character with whether its printer set it as mathematics.
type Chars = Vec<(char, bool)>;

/// Characters as compared: no spaces, precomposed accents as letter and combining mark, script
/// characters as scripts (`x₁` as `x_{1}`, `10⁻⁴` as `10^{−4}`), an en dash for LaTeX's `--`.
fn push(out: &mut Chars, s: &str, math: bool) {
    let cs: Vec<char> = s.replace("--", "–").chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        for (mark, map) in [('^', superscript as fn(char) -> Option<char>), ('_', subscript)] {
            if map(c).is_some() {
                let run = take_run(&cs, &mut i, map).replace('-', "−");
                let body: Chars = run.chars().map(|r| (r, true)).collect();
                script(out, mark, &body);
            }
        }
        let Some(&c) = cs.get(i) else { break };
        if superscript(c).is_some() || subscript(c).is_some() {
            continue;
        }
        i += 1;
        match precomposed(c) {
            Some((base, name)) => {
                out.push((base, math));
                let mark = ACCENTS.iter().find(|a| a.0 == name).and_then(|a| a.2);
                out.extend(mark.map(|m| (m, math)));
            }
            None => out.push((c, math)),
        }
    }
}

/// A script as compared: `_{…}` / `^{…}` around its characters.
fn script(out: &mut Chars, mark: char, body: &Chars) {
    out.push((mark, true));
    out.push(('{', true));
    out.extend(body.iter().map(|&(c, _)| (c, true)));
    out.push(('}', true));
}

/// The SVG's reading: what it sets as mathematics is a script, a Greek letter, an accent or a
/// minus sign.
fn svg_chars(label: &str) -> Chars {
    let mut out = Chars::new();
    for run in parse(label) {
        match run {
            Run::Text(t) => {
                let mut cs = Chars::new();
                push(&mut cs, &t, false);
                let accented = |k: usize| cs.get(k + 1).is_some_and(|n| crate::symbols::accent(n.0).is_some());
                let marked: Chars = (0..cs.len())
                    .map(|k| {
                        let c = cs[k].0;
                        (
                            c,
                            greek(c).is_some() || c == '−' || accented(k) || crate::symbols::accent(c).is_some(),
                        )
                    })
                    .collect();
                out.extend(marked);
            }
            Run::Sub(ref s) | Run::Sup(ref s) => {
                let mark = if matches!(run, Run::Sub(_)) { '_' } else { '^' };
                let mut body = Chars::new();
                push(&mut body, s, true);
                script(&mut out, mark, &body);
            }
        }
    }
    out
}

/// The braced group at `cs[*i]` (or the one character there), `*i` moved past it.
fn group(cs: &[char], i: &mut usize) -> String {
    if cs.get(*i) != Some(&'{') {
        let c = cs.get(*i).copied();
        *i += 1;
        return c.map(String::from).unwrap_or_default();
    }
    let mut depth = 0;
    let start = *i + 1;
    while *i < cs.len() {
        match cs[*i] {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    *i += 1;
                    return cs[start..*i - 1].iter().collect();
                }
            }
            _ => {}
        }
        *i += 1;
    }
    cs[start..].iter().collect()
}

/// LaTeX math as this crate prints it, back to the characters the SVG sets.
fn untex(m: &str, out: &mut Chars) {
    let cs: Vec<char> = m.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        match c {
            '\\' => {
                let start = i + 1;
                let (name, j) = control_word(&cs, i);
                if j == start {
                    // A control symbol: `\,` a space, `\{` a brace.
                    if let Some(&s) = cs.get(start).filter(|s| **s != ',') {
                        out.push((s, true));
                    }
                    i = start + 1;
                    continue;
                }
                i = j;
                let mark = ACCENTS.iter().find(|a| a.0 == name).and_then(|a| a.2);
                if matches!(name.as_str(), "operatorname" | "mathrm" | "text") {
                    push(out, &group(&cs, &mut i), true);
                } else if let Some(mark) = mark {
                    untex(&group(&cs, &mut i), out);
                    out.push((mark, true));
                } else if let Some(g) = greek_letter(&name) {
                    out.push((g, true));
                } else if let Some(s) = symbol_of(&name) {
                    out.push((s, true));
                } else {
                    push(out, &name, true);
                }
            }
            '_' | '^' => {
                i += 1;
                let mut body = Chars::new();
                untex(&group(&cs, &mut i), &mut body);
                // `Ω^{*}`: the SVG sets the asterisk as written, raised by its glyph.
                if body == [('*', true)] {
                    out.push(('*', true));
                } else {
                    script(out, c, &body);
                }
            }
            '-' => {
                out.push(('−', true));
                i += 1;
            }
            _ => {
                push(out, &c.to_string(), true);
                i += 1;
            }
        }
    }
}

/// The LaTeX's reading, as its tokens print.
fn tex_chars(label: &str) -> Chars {
    let mut out = Chars::new();
    for t in read(label) {
        match t {
            Tok::Text(s) => push(&mut out, &s, false),
            Tok::Math(m) => untex(&m, &mut out),
            Tok::Sub(ref s) | Tok::Sup(ref s) => {
                let mark = if matches!(t, Tok::Sub(_)) { '_' } else { '^' };
                let mut body = Chars::new();
                push(&mut body, s, true);
                script(&mut out, mark, &body);
            }
        }
    }
    out
}

/// Where the two readings of `label` differ, if they do.
fn disagreement(label: &str) -> Option<String> {
    let (svg, tex) = (svg_chars(label), tex_chars(label));
    let text = |cs: &Chars| cs.iter().map(|c| c.0).collect::<String>();
    if text(&svg) != text(&tex) {
        return Some(format!("`{label}`: SVG reads {:?}, LaTeX {:?}", text(&svg), text(&tex)));
    }
    let k = svg.iter().zip(&tex).position(|(s, t)| s.1 && !t.1)?;
    Some(format!(
        "`{label}`: `{}` is mathematics in the SVG, text in the LaTeX",
        svg[k].0
    ))
}

#[test]
fn the_svg_and_the_latex_read_every_label_alike() {
    let labels = [
        "F_f",
        "F_ss",
        "F_f^l and σ0",
        "τ_B⁻",
        "x_{i+1}",
        "du/dt",
        "dθ/dt [rad/s]",
        "σ0 z + σ1 dz/dt",
        "f_+ and g_-",
        "x̄, ū",
        "|F_i|/F_c",
        "E_p(i+n)",
        "t ≥ 20 s",
        "ω = 0.1 rad/s",
        "offset +0.03 N, offset −0.03 N",
        "(c) σ/F_c = 8",
        "Ω*, F_i = −2 F_c",
        "H∞ (ω = 0.001 rad/s)",
        "du/dt decreasing (offset −0.03 N)",
        "i_m = 0.05 sin(0.2πt) A, 0-50 s from rest",
        "branch (3.5) from x_i to x_{i+1}",
        "G(i1.8), G(i1.9), G(i2.0) (bottom to top)",
        "−1/N(a, ω), ω = 1.9 rad/s",
        "closed form 2(N + 1)(4N − 1)/(3N²)",
        "Re(−1/N), Im G",
        "level curve x₁ + x₂ = 0",
        "V̇ = 0: z₊ (3.23), z₋ (3.25), v = 0",
        "R: |z| < (α0 + α1)/σ0",
        "g(v) - 2 N",
        "u_d = −k_d θ'",
        "(a) k = [−2, −4], rest",
        "equilibria map: |ū − K x̄| ≤ (κ/h) θ̂_max",
        "Loop area ∮F du",
        "t = 518–573 s",
        "7990 s ≤ t ≤ 8000 s (late orbit)",
        "onsets (swing = 0.05 m/s)",
        "δ_i = i/N m",
        "4k_iδ_i(A − δ_i), F_c²/σ, a_θ1",
        "g_- and f_{-}^{-1}, f_+, 10^-4",
        "max v − min v",
    ];
    let bad: Vec<String> = labels.iter().filter_map(|l| disagreement(l)).collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The comparison sees a backend that reads differently: a subscript escaped as text, a
    // Greek letter's digits left on the line.
    let (svg, escaped) = (svg_chars("F_f"), {
        let mut c = Chars::new();
        push(&mut c, "F_f", false);
        c
    });
    assert_ne!(svg, escaped);
    let mut tex = tex_chars("σ0 z");
    tex.retain(|c| !matches!(c.0, '{' | '}' | '_'));
    assert_ne!(svg_chars("σ0 z"), tex);
}
