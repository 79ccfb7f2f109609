//! Characters of manifest text and their LaTeX: Greek letters, math symbols, Unicode sub- and
//! superscripts, accents, upright function names. These are the tables of every route: the
//! labels' SVG and LaTeX ([`crate::svg()`], [`crate::tex`]), fric-report's prose typesetter, and
//! the HTML report's LaTeX → MathML reader (fric-report's `mathml.rs`), which reads LaTeX names
//! back to these characters, so the routes cannot drift apart.

/// Every Greek letter [`greek`] names (the micro sign aside), in the order a name is read back
/// ([`greek_letter`]).
pub const GREEK: &str = "αβγδεϵζηθϑικλμνξπρσςτυφϕχψωΓΔΘΛΞΠΣΥΦΨΩ";

/// The Greek letter of a LaTeX name (`sigma` → σ): the inverse of [`greek`].
pub fn greek_letter(name: &str) -> Option<char> {
    GREEK.chars().find(|g| greek(*g) == Some(name))
}

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

/// Math symbols by their LaTeX commands. A label's (or prose's) character becomes the command of
/// the first [`PRINTED`] entries ([`math_symbol`]); the rest are read from LaTeX only (the HTML
/// report's MathML prints `\in` as ∈), and their characters are kept as written in a label, as
/// they always have been.
pub const SYMBOLS: &[(&str, char)] = &[
    ("\\infty", '∞'),
    ("\\geq", '≥'),
    ("\\leq", '≤'),
    ("\\approx", '≈'),
    ("\\neq", '≠'),
    ("\\pm", '±'),
    ("\\times", '×'),
    ("\\cdot", '·'),
    ("\\rightarrow", '→'),
    ("\\cap", '∩'),
    ("\\cup", '∪'),
    ("\\ldots", '…'),
    ("\\partial", '∂'),
    ("\\int", '∫'),
    ("\\oint", '∮'),
    ("\\surd", '√'),
    ("\\backslash", '\\'),
    // Read from LaTeX only.
    ("\\le", '≤'),
    ("\\ge", '≥'),
    ("\\mp", '∓'),
    ("\\in", '∈'),
    ("\\notin", '∉'),
    ("\\emptyset", '∅'),
    ("\\subseteq", '⊆'),
    ("\\subset", '⊂'),
    ("\\to", '→'),
    ("\\leftarrow", '←'),
    ("\\nabla", '∇'),
    ("\\dots", '…'),
    ("\\cdots", '⋯'),
    ("\\circ", '∘'),
    ("\\sum", '∑'),
    ("\\prod", '∏'),
    ("\\sim", '∼'),
    ("\\wedge", '∧'),
    ("\\vee", '∨'),
];

/// How many of [`SYMBOLS`] a character is printed as.
pub const PRINTED: usize = 17;

/// The character of a LaTeX command (`in` → ∈, without the backslash), from [`SYMBOLS`].
pub fn symbol_of(name: &str) -> Option<char> {
    SYMBOLS
        .iter()
        .find(|(n, _)| n.strip_prefix('\\') == Some(name))
        .map(|(_, c)| *c)
}

/// Function names set upright. A label's `sin(` is printed `\sin(` for the first
/// [`PRINTED_FUNCTIONS`] ([`crate::tex::FUNCTIONS`]); the HTML report's MathML sets every one of
/// them upright when LaTeX writes it as a command (`\max`).
pub const FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "exp", "log", "ln", "tanh", "sgn", "sign", // printed from labels
    "arctan", "max", "min", "sup", "inf", "lim", "sinh", "cosh", "det",
];

/// How many of [`FUNCTIONS`] a label's `name(` is printed as.
pub const PRINTED_FUNCTIONS: usize = 9;

/// Math-mode symbols other than letters: the first [`PRINTED`] of [`SYMBOLS`], and the
/// characters LaTeX writes otherwise.
pub fn math_symbol(c: char) -> Option<&'static str> {
    if let Some((cmd, _)) = SYMBOLS[..PRINTED].iter().find(|(_, s)| *s == c) {
        return Some(cmd);
    }
    Some(match c {
        '°' => "^{\\circ}",
        '−' | '–' => "-",
        '′' => "'",
        '²' => "^{2}",
        '³' => "^{3}",
        '*' => "^{*}",
        '~' => "\\sim",
        '%' => "\\%",
        '&' => "\\&",
        '#' => "\\#",
        '$' => "\\$",
        '{' => "\\{",
        '}' => "\\}",
        _ => return None,
    })
}

/// The ASCII character a superscript character stands for (`⁴` → `4`, `⁻` → `-`, `ᵀ` → `T`).
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
        // `(JᵀJ)⁻¹` (followup Table 3's note printed a raw `ᵀ`, which pdfLaTeX cannot set).
        'ᵀ' => 'T',
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

/// Accents: the LaTeX command, the spacing mark the HTML report's MathML sets over the argument,
/// and the combining character a label writes after its letter (for those a label can write).
pub const ACCENTS: &[(&str, &str, Option<char>)] = &[
    ("dot", "˙", Some('\u{0307}')),
    ("ddot", "¨", Some('\u{0308}')),
    ("bar", "¯", Some('\u{0304}')),
    ("overline", "¯", None),
    ("hat", "^", Some('\u{0302}')),
    ("widehat", "^", None),
    ("tilde", "~", Some('\u{0303}')),
    ("widetilde", "~", None),
    ("vec", "→", None),
];

/// The accent a combining character after a letter stands for ([`ACCENTS`]).
pub fn accent(c: char) -> Option<&'static str> {
    ACCENTS.iter().find(|a| a.2 == Some(c)).map(|a| a.0)
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
