//! The LaTeX route for figures: each drawn figure as a PGFPlots `tikzpicture` (`<name>.pgf.tex`,
//! template `templates/pgfplots.tex.tera`) that reads the figure's exported CSV files, so a paper
//! can `\input` it; manifest labels become LaTeX with real math ([`label_to_tex`]).
//!
//! The CSV paths are written as `\fricfiguresdir/<doc>/<name>/<panel>-<k>.csv`. pgfplots opens
//! them relative to the directory LaTeX runs in, so `\fricfiguresdir` is the path from there to
//! `figures/`: each file defines it as `figures` unless the includer defined it first
//! (`\newcommand{\fricfiguresdir}{../figures}` before the first `\input`).
//!
//! Like the rest of this crate this formats what it is given: the pipeline selects the data,
//! resolves colours and writes the CSV files and the `.tex`.

use serde::Serialize;
use tera::{Context, Tera};

/// The preamble a document needs to `\input` the figures (also written into each file's header).
pub const PREAMBLE: &str =
    "\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\usepgfplotslibrary{groupplots,fillbetween}\n\\pgfplotsset{compat=1.16}";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgfStyle {
    Solid,
    Dashed,
    Dotted,
    Points,
    /// Filled between `y` and `y2`.
    Band,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgfLegend {
    UpperLeft,
    UpperRight,
    LowerLeft,
    LowerRight,
    None,
}

#[derive(Clone, Debug)]
pub struct PgfAxis {
    /// As written in the manifest (`F_f`, `dθ/dt`).
    pub label: String,
    pub unit: Option<String>,
    pub log: bool,
    pub range: Option<[f64; 2]>,
}

#[derive(Clone, Debug)]
pub struct PgfSeries {
    pub style: PgfStyle,
    /// A colour name of the palette (one of `PgfFigure::colors`).
    pub color: String,
    /// Legend entry as written in the manifest (sweep value already substituted).
    pub label: Option<String>,
    /// The series' CSV file, relative to `figures/`.
    pub csv: String,
    /// Column names in that file.
    pub x: String,
    pub y: String,
    pub y2: Option<String>,
}

#[derive(Clone, Debug)]
pub struct PgfPanel {
    pub title: Option<String>,
    pub x: PgfAxis,
    pub y: PgfAxis,
    pub legend: PgfLegend,
    pub series: Vec<PgfSeries>,
}

#[derive(Clone, Debug)]
pub struct PgfFigure {
    /// `<doc>/<name>`.
    pub id: String,
    pub rows: usize,
    pub cols: usize,
    /// Pixel size of one panel in the SVG (80 px become 1 cm).
    pub panel_width: u32,
    pub panel_height: u32,
    pub panels: Vec<PgfPanel>,
    /// Every colour name a series may use, with its sRGB value, defined as `fric<name>`.
    pub colors: Vec<(String, (u8, u8, u8))>,
}

fn templates() -> Tera {
    let mut t = Tera::default();
    t.autoescape_on(vec![]);
    t.add_raw_template("pgfplots.tex", include_str!("../templates/pgfplots.tex.tera"))
        .expect("template parses");
    t
}

/// Column names go into `table[x=...]` unquoted; these are the characters that are safe there
/// and in a CSV header without quoting.
fn safe_column(name: &str) -> Result<&str, String> {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+'))
    {
        Ok(name)
    } else {
        Err(format!("column `{name}` cannot be named in a pgfplots table"))
    }
}

/// A path is written inside `{\fricfiguresdir/...}`: plain relative names only.
fn safe_path(p: &str) -> Result<&str, String> {
    if !p.is_empty()
        && !p.starts_with('/')
        && !p.split('/').any(|s| s.is_empty() || s == "..")
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
    {
        Ok(p)
    } else {
        Err(format!("path `{p}` cannot be read by pgfplots"))
    }
}

fn num(v: f64) -> String {
    format!("{v:e}")
}

fn axis_label(a: &PgfAxis) -> String {
    match &a.unit {
        Some(u) if !u.is_empty() => format!("{} [{}]", label_to_tex(&a.label), unit_to_tex(u)),
        _ => label_to_tex(&a.label),
    }
}

/// The options of one axis (`x` or `y`).
fn axis_options(xy: char, a: &PgfAxis, out: &mut Vec<String>) {
    out.push(format!("{xy}label={{{}}}", axis_label(a)));
    if a.log {
        out.push(format!("{xy}mode=log"));
    }
    match a.range {
        Some([lo, hi]) => {
            out.push(format!("{xy}min={}, {xy}max={}", num(lo), num(hi)));
            out.push(format!("enlarge {xy} limits=false"));
            // Data far outside a fixed window (report Fig 3.15: θ to 0.99 rad on a 0.016 rad
            // axis) would lie metres off the page, beyond TeX's largest dimension ("Dimension
            // too large"): clamp it to ten window widths on either side, where it is clipped.
            if !a.log && hi > lo {
                let w = 10.0 * (hi - lo);
                out.push(format!("restrict {xy} to domain*={}:{}", num(lo - w), num(hi + w)));
            }
        }
        // fric-plot pads automatic ranges by 5 % on each side.
        None => out.push(format!("enlarge {xy} limits=0.05")),
    }
}

#[derive(Serialize)]
struct SeriesView {
    /// `\addplot` options.
    options: String,
    /// `table[...]` options (x and y).
    table: String,
    /// For a band: the `table[...]` options of the upper edge and the two path names.
    upper: Option<String>,
    paths: Option<(String, String)>,
    csv: String,
    legend: Option<String>,
}

#[derive(Serialize)]
struct PanelView {
    options: String,
    series: Vec<SeriesView>,
}

fn series_view(p: usize, k: usize, s: &PgfSeries, legend: bool) -> Result<SeriesView, String> {
    let color = format!("fric{}", s.color);
    let entry = s.label.as_deref().filter(|_| legend).map(label_to_tex);
    let mut opts = vec![color.clone()];
    match s.style {
        PgfStyle::Solid => opts.push("solid, thick, mark=none".into()),
        // fric-plot's dash patterns: 10 on 6 off, and 2 on 4 off (SVG px at 2 px per pt).
        PgfStyle::Dashed => opts.push("thick, mark=none, dash pattern=on 5pt off 3pt".into()),
        PgfStyle::Dotted => opts.push("thick, mark=none, dash pattern=on 1pt off 2pt".into()),
        PgfStyle::Points => opts.push("only marks, mark=*, mark size=1.5pt".into()),
        PgfStyle::Band => opts.push(format!("fill={color}, draw=none, fill opacity=0.25, area legend")),
    }
    if entry.is_none() {
        // Legend entries go to the plots in order: one without an entry must not take one.
        opts.push("forget plot".into());
    }
    let table = |y: &str| -> Result<String, String> {
        Ok(format!(
            "x={}, y={}, col sep=comma",
            safe_column(&s.x)?,
            safe_column(y)?
        ))
    };
    let (upper, paths) = match s.style {
        PgfStyle::Band => {
            let y2 = s.y2.as_deref().ok_or("band without y2")?;
            (
                Some(table(y2)?),
                Some((format!("fric{p}b{k}lo"), format!("fric{p}b{k}hi"))),
            )
        }
        _ => (None, None),
    };
    Ok(SeriesView {
        options: opts.join(", "),
        table: table(&s.y)?,
        upper,
        paths,
        csv: safe_path(&s.csv)?.to_string(),
        legend: entry,
    })
}

/// The figure as a `tikzpicture` with one `groupplot` panel per manifest panel.
pub fn render_pgfplots(f: &PgfFigure) -> Result<String, String> {
    let mut panels = Vec::new();
    for (p, panel) in f.panels.iter().enumerate() {
        let mut o = Vec::new();
        if let Some(t) = &panel.title {
            o.push(format!("title={{{}}}", label_to_tex(t)));
        }
        axis_options('x', &panel.x, &mut o);
        axis_options('y', &panel.y, &mut o);
        let legend = panel.legend != PgfLegend::None;
        if legend {
            let pos = match panel.legend {
                PgfLegend::UpperLeft => "north west",
                PgfLegend::LowerLeft => "south west",
                PgfLegend::LowerRight => "south east",
                _ => "north east",
            };
            o.push(format!("legend pos={pos}"));
        }
        let series = panel
            .series
            .iter()
            .enumerate()
            .map(|(k, s)| series_view(p + 1, k + 1, s, legend))
            .collect::<Result<Vec<_>, _>>()?;
        panels.push(PanelView {
            options: o.join(",\n    "),
            series,
        });
    }
    #[derive(Serialize)]
    struct Color {
        name: String,
        rgb: String,
    }
    let colors: Vec<Color> = f
        .colors
        .iter()
        .map(|(n, (r, g, b))| Color {
            name: format!("fric{n}"),
            rgb: format!("{r},{g},{b}"),
        })
        .collect();
    let mut ctx = Context::new();
    ctx.insert("id", &f.id);
    ctx.insert("preamble", &PREAMBLE.replace('\n', " "));
    ctx.insert("colors", &colors);
    ctx.insert("group_size", &format!("{} by {}", f.cols.max(1), f.rows.max(1)));
    ctx.insert("width", &format!("{:.2}cm", f.panel_width as f64 / 80.0));
    ctx.insert("height", &format!("{:.2}cm", f.panel_height as f64 / 80.0));
    ctx.insert("panels", &panels);
    templates()
        .render("pgfplots.tex", &ctx)
        .map_err(|e| format!("{}: pgfplots: {e:?}", f.id))
}

/// One entry of `figures/pgfplots-all.tex`.
#[derive(Clone, Debug, Serialize)]
pub struct PgfEntry {
    /// The `.pgf.tex` file relative to `figures/`.
    pub file: String,
    /// Already LaTeX.
    pub title: String,
    pub caption: String,
}

/// A standalone document that inputs every given figure, to be compiled in `figures/`.
pub fn render_pgfplots_all(entries: &[PgfEntry]) -> Result<String, String> {
    let mut t = Tera::default();
    t.autoescape_on(vec![]);
    t.add_raw_template("all.tex", include_str!("../templates/pgfplots-all.tex.tera"))
        .map_err(|e| format!("{e:?}"))?;
    let mut ctx = Context::new();
    ctx.insert("preamble", PREAMBLE);
    ctx.insert("entries", entries);
    t.render("all.tex", &ctx).map_err(|e| format!("pgfplots-all: {e:?}"))
}

/// The LaTeX name of a Greek letter (and of the micro sign).
fn greek(c: char) -> Option<&'static str> {
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
fn math_symbol(c: char) -> Option<&'static str> {
    Some(match c {
        '∞' => "\\infty",
        '≥' => "\\geq",
        '≤' => "\\leq",
        '≈' => "\\approx",
        '≠' => "\\neq",
        '±' => "\\pm",
        '×' => "\\times",
        '·' => "\\cdot",
        '→' => "\\to",
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
fn superscript(c: char) -> Option<char> {
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
fn subscript(c: char) -> Option<char> {
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
fn take_run(cs: &[char], i: &mut usize, map: fn(char) -> Option<char>) -> String {
    let mut run = String::new();
    while let Some(a) = cs.get(*i).copied().and_then(map) {
        run.push(a);
        *i += 1;
    }
    run
}

/// Accents written as a combining character after the letter, or precomposed.
fn accent(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{0304}' => "bar",
        '\u{0302}' => "hat",
        '\u{0303}' => "tilde",
        '\u{0307}' => "dot",
        '\u{0308}' => "ddot",
        _ => return None,
    })
}

fn precomposed(c: char) -> Option<(char, &'static str)> {
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

/// Whether a character marks a word as mathematics.
fn is_math_char(c: char) -> bool {
    matches!(
        c,
        '_' | '^' | '|' | '∞' | '≥' | '≤' | '≈' | '≠' | '±' | '∂' | '∫' | '∮' | '′'
    ) || greek(c).is_some()
        || accent(c).is_some()
        || precomposed(c).is_some()
}

const FUNCTIONS: &[&str] = &["sin", "cos", "tan", "exp", "log", "ln", "tanh", "sgn", "sign"];

/// Push a control word, and a space when a letter follows.
fn push_command(out: &mut String, cmd: &str, next: Option<char>) {
    out.push_str(cmd);
    if cmd.ends_with(|c: char| c.is_ascii_alphabetic()) && next.is_some_and(|n| n.is_ascii_alphabetic()) {
        out.push(' ');
    }
}

/// A math-mode rendering of `s` (without the `$`): `_x`, `_{...}`, `^...` kept as sub- and
/// superscripts (a bare subscript takes the letters and digits that follow), Greek as commands,
/// accents as `\bar{}` etc., `sin(` as `\sin(`, specials escaped.
fn math(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        let next = cs.get(i + 1).copied();
        // `sin(` etc. at the start of a word.
        if c.is_ascii_alphabetic() && (i == 0 || !cs[i - 1].is_ascii_alphabetic()) {
            if let Some(f) = FUNCTIONS.iter().find(|f| {
                let n = f.len();
                cs.len() > i + n && cs[i..i + n].iter().copied().eq(f.chars()) && cs[i + n] == '('
            }) {
                out.push('\\');
                out.push_str(f);
                i += f.len();
                continue;
            }
        }
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
        if matches!(c, '_' | '^') {
            match next {
                Some('{') => {
                    // The braced group, up to its matching brace.
                    let mut depth = 0;
                    let mut j = i + 1;
                    while j < cs.len() {
                        match cs[j] {
                            '{' => depth += 1,
                            '}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    if j < cs.len() {
                        let inner: String = cs[i + 2..j].iter().collect();
                        out.push_str(&format!("{c}{{{}}}", math(&inner)));
                        i = j + 1;
                        continue;
                    }
                }
                Some(n) if n.is_ascii_alphanumeric() || greek(n).is_some() => {
                    let mut j = i + 1;
                    if greek(n).is_some() {
                        j += 1;
                    } else {
                        while j < cs.len() && cs[j].is_ascii_alphanumeric() {
                            j += 1;
                        }
                    }
                    let inner: String = cs[i + 1..j].iter().collect();
                    out.push_str(&format!("{c}{{{}}}", math(&inner)));
                    i = j;
                    continue;
                }
                _ => {}
            }
            out.push_str(if c == '_' { "\\_" } else { "\\hat{}" });
            i += 1;
            continue;
        }
        if subscript(c).is_some() {
            out.push_str(&format!("_{{{}}}", take_run(&cs, &mut i, subscript)));
            continue;
        }
        if let Some(g) = greek(c) {
            push_command(&mut out, &format!("\\{g}"), next);
        } else if let Some(m) = math_symbol(c) {
            push_command(&mut out, m, next);
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// Text (a caption, a unit) as LaTeX outside math: specials escaped, typographic characters as
/// LaTeX (`–` → `--`), Greek and symbols as inline math (`µ` → `$\mu$`), `^2` and `²` as
/// superscripts; the result is ASCII, for pdfLaTeX without extra packages.
pub fn text_to_tex(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        match c {
            '^' if cs.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric() || *n == '-') => {
                let mut j = i + 1;
                while j < cs.len() && (cs[j].is_ascii_alphanumeric() || (j == i + 1 && cs[j] == '-')) {
                    j += 1;
                }
                let sup: String = cs[i + 1..j].iter().collect();
                out.push_str(&format!("\\textsuperscript{{{sup}}}"));
                i = j;
                continue;
            }
            // A run of superscript (`10⁻⁴`) or subscript (`x₁₂`) characters is one script.
            _ if superscript(c).is_some() => {
                out.push_str(&format!("\\textsuperscript{{{}}}", take_run(&cs, &mut i, superscript)));
                continue;
            }
            _ if subscript(c).is_some() => {
                out.push_str(&format!("\\textsubscript{{{}}}", take_run(&cs, &mut i, subscript)));
                continue;
            }
            '–' => out.push_str("--"),
            '—' => out.push_str("---"),
            '…' => out.push_str("\\ldots{}"),
            '‘' => out.push('`'),
            '’' => out.push('\''),
            '“' => out.push_str("``"),
            '”' => out.push_str("''"),
            '<' | '>' | '|' => out.push_str(&format!("${c}$")),
            '\u{a0}' => out.push('~'),
            _ if greek(c).is_some() || (math_symbol(c).is_some() && !c.is_ascii()) => {
                out.push_str(&format!("${}$", math(&c.to_string())))
            }
            _ => crate::push_escaped(&mut out, c),
        }
        i += 1;
    }
    out
}

/// Text whose `$...$` spans are LaTeX math already (a caption): the math kept, the rest as
/// [`text_to_tex`].
pub fn caption_to_tex(s: &str) -> String {
    s.split('$')
        .enumerate()
        .map(|(k, part)| {
            if k % 2 == 1 {
                format!("${part}$")
            } else {
                text_to_tex(part)
            }
        })
        .collect()
}

/// A unit as LaTeX text: `kg-m^2` → `kg-m\textsuperscript{2}`, `µm` → `$\mu$m`.
pub fn unit_to_tex(u: &str) -> String {
    text_to_tex(u)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Math,
    /// A number, or an operator such as `=`: mathematics only next to mathematics.
    Number,
    Operator,
    Text,
}

fn is_number(s: &str) -> bool {
    let s = s.trim_start_matches(['−', '-', '+']);
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.') && s.chars().any(|c| c.is_ascii_digit())
}

/// A word split into leading `(`/`[`, the word, and trailing punctuation (`,` `;` `:` and a
/// closing bracket that does not close one inside the word).
fn split_word(w: &str) -> (&str, &str, &str) {
    let core_start = w.len() - w.trim_start_matches(['(', '[']).len();
    let mut end = w.len();
    loop {
        let core = &w[core_start..end];
        let Some(last) = core.chars().last() else { break };
        let unmatched = |open: char, close: char| {
            core.chars().filter(|&c| c == close).count() > core.chars().filter(|&c| c == open).count()
        };
        let strip = match last {
            ',' | ';' | ':' => true,
            ')' => unmatched('(', ')'),
            ']' => unmatched('[', ']'),
            _ => false,
        };
        if !strip {
            break;
        }
        end -= last.len_utf8();
    }
    (&w[..core_start], &w[core_start..end], &w[end..])
}

fn classify(prefix: &str, core: &str, suffix: &str, prev: Option<(&str, Class)>) -> Class {
    let strong = core.chars().any(is_math_char)
        || (core.starts_with('d') && core.contains("/d") && core.len() <= 8 && core.is_ascii());
    if strong {
        return Class::Math;
    }
    if matches!(core, "=" | "<" | ">" | "+" | "-" | "−" | "×" | "·" | "→") {
        return Class::Operator;
    }
    if is_number(core) {
        // A signed number is mathematics: `−0.03` needs math mode for its minus sign.
        return if core.starts_with(['−', '-', '+']) {
            Class::Operator
        } else {
            Class::Number
        };
    }
    let single = core.chars().count() == 1 && core.chars().all(|c| c.is_ascii_alphabetic());
    // `(a)` is a panel tag and `[m]` a unit, not mathematics.
    let tagged = (prefix.ends_with('(') && suffix.starts_with(')')) || prefix.ends_with('[');
    // `2 N`, `sin(ωt) A`: a letter after a number or a function is its unit.
    let unit = prev.is_some_and(|(p, class)| {
        p.ends_with(|c: char| c.is_ascii_digit()) || (class == Class::Math && p.ends_with(')'))
    });
    if single && !tagged && !unit {
        Class::Math
    } else {
        Class::Text
    }
}

/// A manifest label (axis label, legend entry, panel title) as LaTeX: the words that are
/// mathematics (`F_f`, `x_{i+1}`, `du/dt`, Greek, single letters, and the numbers and operators
/// between them) become one `$...$` span, with Greek as commands (`σ` → `\sigma`); the rest is
/// text with LaTeX's specials escaped. `F_ss` → `$F_{ss}$`, `σ/F_c = 2` → `$\sigma/F_{c} = 2$`,
/// `t ≥ 20 s` → `$t \geq 20$ s`.
pub fn label_to_tex(label: &str) -> String {
    let words: Vec<(&str, &str, &str)> = label.split_whitespace().map(split_word).collect();
    let mut classes = Vec::with_capacity(words.len());
    for (k, (p, c, s)) in words.iter().enumerate() {
        let prev = k.checked_sub(1).map(|j| (words[j].1, classes[j]));
        classes.push(classify(p, c, s, prev));
    }
    // Runs of math, numbers and operators not broken by punctuation become one math span when
    // they contain mathematics or an operator.
    let mut out = String::new();
    let mut k = 0;
    while k < words.len() {
        if k > 0 {
            out.push(' ');
        }
        let (prefix, _, _) = words[k];
        out.push_str(&text_to_tex(prefix));
        let mut end = k + 1;
        if classes[k] != Class::Text {
            while end < words.len()
                && words[end - 1].2.is_empty()
                && words[end].0.is_empty()
                && classes[end] != Class::Text
            {
                end += 1;
            }
        }
        let run = &classes[k..end];
        let core: Vec<&str> = words[k..end].iter().map(|w| w.1).collect();
        if run.iter().any(|c| matches!(c, Class::Math | Class::Operator)) {
            out.push('$');
            out.push_str(&math(&core.join(" ")));
            out.push('$');
        } else {
            out.push_str(&text_to_tex(&core.join(" ")));
        }
        out.push_str(&text_to_tex(words[end - 1].2));
        k = end;
    }
    out
}

/// What is wrong with a piece of generated LaTeX: unbalanced braces, an odd number of `$`, an
/// unescaped `&` or `#`, `_`/`^` outside math (and outside `[...]` option lists), `\begin`/`\end` that do not match, or a
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
                let mut j = start;
                while j < cs.len() && cs[j].is_ascii_alphabetic() {
                    j += 1;
                }
                let word: String = cs[start..j].iter().collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_become_math_and_text() {
        let cases = [
            ("F_f", "$F_{f}$"),
            ("F_ss", "$F_{ss}$"),
            ("x_{i+1}", "$x_{i+1}$"),
            ("du/dt", "$du/dt$"),
            ("dθ/dt", "$d\\theta/dt$"),
            ("σ", "$\\sigma$"),
            ("x̄", "$\\bar{x}$"),
            ("ū", "$\\bar{u}$"),
            ("|F_i|/F_c", "$|F_{i}|/F_{c}$"),
            ("E_p(i+n)", "$E_{p}(i+n)$"),
            ("t ≥ 20 s", "$t \\geq 20$ s"),
            ("∫ f dx", "$\\int f$ dx"),
            ("ω = 0.1 rad/s", "$\\omega = 0.1$ rad/s"),
            ("F_c = 2 N", "$F_{c} = 2$ N"),
            ("offset +0.03 N", "offset $+0.03$ N"),
            ("(a) N = 2", "(a) $N = 2$"),
            ("(c) σ/F_c = 8", "(c) $\\sigma/F_{c} = 8$"),
            (
                "γ = 1, semilinear closed form (10)",
                "$\\gamma = 1$, semilinear closed form (10)",
            ),
            ("Ω*, F_i = −2 F_c", "$\\Omega^{*}$, $F_{i} = -2 F_{c}$"),
            ("H∞ (ω = 0.001 rad/s)", "$H\\infty$ ($\\omega = 0.001$ rad/s)"),
            (
                "du/dt decreasing (offset −0.03 N)",
                "$du/dt$ decreasing (offset $-0.03$ N)",
            ),
            (
                "i_m = 0.05 sin(0.2πt) A, 0-50 s from rest",
                "$i_{m} = 0.05 \\sin(0.2\\pi t)$ A, 0-50 s from rest",
            ),
            (
                "branch (3.5) from x_i to x_{i+1}",
                "branch (3.5) from $x_{i}$ to $x_{i+1}$",
            ),
            ("l, v, x, y", "$l$, $v$, $x$, $y$"),
            ("(a) l–v plane", "(a) l--v plane"),
            ("switch after 1.5 periods", "switch after 1.5 periods"),
            ("reversal n", "reversal $n$"),
            ("l [m]", "$l$ [m]"),
            ("50% & #1 {x}", "50\\% \\& \\#1 \\{x\\}"),
        ];
        for (label, want) in cases {
            let got = label_to_tex(label);
            assert_eq!(got, want, "{label}");
            assert!(tex_problems(&got).is_empty(), "{label}: {:?}", tex_problems(&got));
        }
    }

    #[test]
    fn captions_keep_their_math() {
        assert_eq!(
            caption_to_tex("maps $\\mathcal{H}_T$ of (1.3)–(1.4), σ = 1 & 50%"),
            "maps $\\mathcal{H}_T$ of (1.3)--(1.4), $\\sigma$ = 1 \\& 50\\%"
        );
    }

    #[test]
    fn units_are_text() {
        assert_eq!(unit_to_tex("kg-m^2"), "kg-m\\textsuperscript{2}");
        assert_eq!(unit_to_tex("m²"), "m\\textsuperscript{2}");
        assert_eq!(text_to_tex("10⁻⁴ H"), "10\\textsuperscript{-4} H");
        assert_eq!(
            text_to_tex("x₁ and f₁₂"),
            "x\\textsubscript{1} and f\\textsubscript{12}"
        );
        assert_eq!(math("x₂"), "x_{2}");
        assert_eq!(text_to_tex("√2"), "$\\surd$2");
        assert_eq!(unit_to_tex("µm"), "$\\mu$m");
        assert_eq!(unit_to_tex("N-m-s/rad"), "N-m-s/rad");
        assert_eq!(unit_to_tex("1/m"), "1/m");
    }

    #[test]
    fn the_checker_finds_problems() {
        assert!(tex_problems("\\begin{a}{$x_1$}\\end{a} % _ & {").is_empty());
        assert_eq!(tex_problems("{").len(), 1);
        assert_eq!(tex_problems("a_b").len(), 1);
        assert_eq!(tex_problems("a & b").len(), 1);
        assert_eq!(tex_problems("\\begin{a}\\end{b}").len(), 1);
        assert_eq!(tex_problems("σ").len(), 1);
    }

    fn figure() -> PgfFigure {
        let axis = |label: &str, unit: Option<&str>, log: bool| PgfAxis {
            label: label.into(),
            unit: unit.map(Into::into),
            log,
            range: None,
        };
        let series = |style, label: Option<&str>, y2: Option<&str>| PgfSeries {
            style,
            color: "blue".into(),
            label: label.map(Into::into),
            csv: "thesis/fig1.1/a-1.csv".into(),
            x: "u".into(),
            y: "F".into(),
            y2: y2.map(Into::into),
        };
        PgfFigure {
            id: "thesis/fig1.1".into(),
            rows: 1,
            cols: 2,
            panel_width: 640,
            panel_height: 480,
            panels: vec![
                PgfPanel {
                    title: Some("(a) σ/F_c = 1".into()),
                    x: axis("u", Some("m"), false),
                    y: PgfAxis {
                        range: Some([-1.0, 2.5]),
                        ..axis("F_f", Some("N"), false)
                    },
                    legend: PgfLegend::UpperLeft,
                    series: vec![
                        series(PgfStyle::Solid, Some("F_ss"), None),
                        series(PgfStyle::Dashed, None, None),
                        series(PgfStyle::Band, Some("band"), Some("F_hi")),
                    ],
                },
                PgfPanel {
                    title: None,
                    x: axis("ω", Some("rad/s"), true),
                    y: axis("|E_f|", None, true),
                    legend: PgfLegend::None,
                    series: vec![series(PgfStyle::Points, Some("not shown"), None)],
                },
            ],
            colors: vec![("blue".into(), (31, 119, 180))],
        }
    }

    #[test]
    fn figure_renders_as_groupplot_reading_the_csvs() {
        let s = render_pgfplots(&figure()).unwrap();
        assert!(tex_problems(&s).is_empty(), "{:?}\n{s}", tex_problems(&s));
        for want in [
            "\\providecommand{\\fricfiguresdir}{figures}",
            "\\definecolor{fricblue}{RGB}{31,119,180}",
            "group size=2 by 1",
            "title={(a) $\\sigma/F_{c} = 1$}",
            "ylabel={$F_{f}$ [N]}",
            "ymin=-1e0, ymax=2.5e0",
            "xmode=log",
            "ymode=log",
            "legend pos=north west",
            "table[x=u, y=F, col sep=comma] {\\fricfiguresdir/thesis/fig1.1/a-1.csv};",
            "\\addlegendentry{$F_{ss}$}",
            "dash pattern=on 5pt off 3pt, forget plot]",
            "table[x=u, y=F_hi, col sep=comma]",
            "fill between[of=fric1b3lo and fric1b3hi]",
            "\\addlegendentry{band}",
            "only marks, mark=*, mark size=1.5pt, forget plot]",
        ] {
            assert!(s.contains(want), "missing `{want}` in\n{s}");
        }
        assert!(!s.contains("not shown"), "no legend entry without a legend");
        assert_eq!(s.matches("\\nextgroupplot").count(), 2);
    }

    #[test]
    fn unsafe_names_are_refused() {
        let mut f = figure();
        f.panels[0].series[0].x = "a,b".into();
        assert!(render_pgfplots(&f).unwrap_err().contains("a,b"));
        let mut f = figure();
        f.panels[0].series[0].csv = "../x.csv".into();
        assert!(render_pgfplots(&f).is_err());
    }
}
