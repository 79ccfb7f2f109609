//! Characters of manifest text and their LaTeX: Greek letters, math symbols, Unicode sub- and
//! superscripts, accents.

/// The LaTeX name of a Greek letter (and of the micro sign).
pub fn greek(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "alpha",
        'β' => "beta",
        'γ' => "gamma",
        'δ' => "delta",
        'ε' => "varepsilon",
        'ϵ' => "epsilon",
        'ζ' => "zeta",
        'η' => "eta",
        'θ' => "theta",
        'ϑ' => "vartheta",
        'ι' => "iota",
        'κ' => "kappa",
        'λ' => "lambda",
        'μ' | 'µ' => "mu",
        'ν' => "nu",
        'ξ' => "xi",
        'π' => "pi",
        'ρ' => "rho",
        'σ' => "sigma",
        'ς' => "varsigma",
        'τ' => "tau",
        'υ' => "upsilon",
        'φ' => "varphi",
        'ϕ' => "phi",
        'χ' => "chi",
        'ψ' => "psi",
        'ω' => "omega",
        'Γ' => "Gamma",
        'Δ' => "Delta",
        'Θ' => "Theta",
        'Λ' => "Lambda",
        'Ξ' => "Xi",
        'Π' => "Pi",
        'Σ' => "Sigma",
        'Υ' => "Upsilon",
        'Φ' => "Phi",
        'Ψ' => "Psi",
        'Ω' => "Omega",
        _ => return None,
    })
}

/// Math-mode symbols other than letters.
pub fn math_symbol(c: char) -> Option<&'static str> {
    Some(match c {
        '∞' => "\\infty",
        '≥' => "\\geq",
        '≤' => "\\leq",
        '≈' => "\\approx",
        '≠' => "\\neq",
        '±' => "\\pm",
        '×' => "\\times",
        '·' => "\\cdot",
        '→' => "\\rightarrow",
        '∩' => "\\cap",
        '∪' => "\\cup",
        '…' => "\\ldots",
        '∂' => "\\partial",
        '∫' => "\\int",
        '∮' => "\\oint",
        '°' => "^{\\circ}",
        '−' | '–' => "-",
        '′' => "'",
        '²' => "^{2}",
        '³' => "^{3}",
        '√' => "\\surd",
        '*' => "^{*}",
        '~' => "\\sim",
        '\\' => "\\backslash",
        '%' => "\\%",
        '&' => "\\&",
        '#' => "\\#",
        '$' => "\\$",
        '{' => "\\{",
        '}' => "\\}",
        _ => return None,
    })
}

/// The ASCII character a superscript character stands for (`⁴` → `4`, `⁻` → `-`).
pub fn superscript(c: char) -> Option<char> {
    Some(match c {
        '⁰' => '0',
        '¹' => '1',
        '²' => '2',
        '³' => '3',
        '⁴' => '4',
        '⁵' => '5',
        '⁶' => '6',
        '⁷' => '7',
        '⁸' => '8',
        '⁹' => '9',
        '⁻' => '-',
        '⁺' => '+',
        _ => return None,
    })
}

/// The ASCII character a subscript character stands for (`₁` → `1`).
pub fn subscript(c: char) -> Option<char> {
    Some(match c {
        '₀' => '0',
        '₁' => '1',
        '₂' => '2',
        '₃' => '3',
        '₄' => '4',
        '₅' => '5',
        '₆' => '6',
        '₇' => '7',
        '₈' => '8',
        '₉' => '9',
        '₋' => '-',
        '₊' => '+',
        _ => return None,
    })
}

/// The run of characters from `cs[*i]` that `map` translates (`10⁻⁴` → `-4`, `x₁₂` → `12`),
/// translated; `*i` moves past it.
pub fn take_run(cs: &[char], i: &mut usize, map: fn(char) -> Option<char>) -> String {
    let mut run = String::new();
    while let Some(a) = cs.get(*i).copied().and_then(map) {
        run.push(a);
        *i += 1;
    }
    run
}

/// Accents written as a combining character after the letter, or precomposed.
pub fn accent(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{0304}' => "bar",
        '\u{0302}' => "hat",
        '\u{0303}' => "tilde",
        '\u{0307}' => "dot",
        '\u{0308}' => "ddot",
        _ => return None,
    })
}

pub fn precomposed(c: char) -> Option<(char, &'static str)> {
    Some(match c {
        'ā' => ('a', "bar"),
        'ē' => ('e', "bar"),
        'ī' => ('i', "bar"),
        'ō' => ('o', "bar"),
        'ū' => ('u', "bar"),
        'ȳ' => ('y', "bar"),
        'Ā' => ('A', "bar"),
        'Ē' => ('E', "bar"),
        'Ū' => ('U', "bar"),
        'ẋ' => ('x', "dot"),
        'ẏ' => ('y', "dot"),
        _ => return None,
    })
}
