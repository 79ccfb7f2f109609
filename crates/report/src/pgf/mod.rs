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

mod check;
pub mod prose;
mod symbols;
mod tex;

pub use check::{check_math, tex_problems};
pub use fric_plot::Style as PgfStyle;
pub(crate) use symbols::greek as greek_name;
pub use tex::{caption_to_tex, label_to_tex, text_to_tex, unit_to_tex};

use fric_plot::style;
use serde::Serialize;
use tera::{Context, Tera};

/// The most samples one panel may plot for pdfTeX (and XeTeX) to draw it. Their main memory is
/// fixed (5,000,000 words in TeX Live); pgfplots keeps every sample of an axis until the axis
/// ends. Measured with TeX Live 2022's pdfTeX on one axis of one `thick` series read from a CSV
/// file of shortest round-trip numbers (stribeck-paper Fig 6's): 10 samples 1.86 M words (the
/// peak of loading pgfplots), 2500: 1.94 M, 3000: 2.14 M, 4000: 2.50 M, 5000: 2.84 M, so about
/// 360 words a sample over some 1 M; the margin below the ~10 000 that fit covers the panels
/// drawn before in the same picture, markers and bands. A figure with a panel over this is
/// drawn by LuaLaTeX (memory allocated as needed) and included as its PNG under pdfTeX.
pub const PDFTEX_MAX_PANEL_SAMPLES: usize = 8000;

/// The samples pgfplots holds for `panel`: every series' rows, a band's twice (its two edges
/// are read as two plots).
pub fn panel_samples(panel: &PgfPanel) -> usize {
    panel
        .series
        .iter()
        .map(|s| {
            if s.y2.is_some() && s.style.is_band() {
                2 * s.rows
            } else {
                s.rows
            }
        })
        .sum()
}

/// The preamble a document needs to `\input` the figures (also written into each file's header).
pub const PREAMBLE: &str =
    "\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\usepgfplotslibrary{groupplots,fillbetween}\n\\pgfplotsset{compat=1.16}";

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
    /// The power of ten the tick labels are shown in, as the SVG shows them (the unit carries
    /// its prefix).
    pub power: i32,
    /// The labelled ticks as the SVG draws them: (position in data coordinates, label as
    /// printed, e.g. `−0.5`, `2e5`, empty where the SVG prints none). Written as explicit
    /// `xtick`/`xticklabels` on a linear axis, so both outputs print the same numbers; empty:
    /// PGFPlots chooses (log axes always).
    pub ticks: Vec<(f64, String)>,
}

#[derive(Clone, Debug)]
pub struct PgfSeries {
    pub style: PgfStyle,
    /// The declared marker size in pt (`None`: the style's default), as the SVG draws it.
    pub marker_size: Option<f64>,
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
    /// Arrowheads as (base, tip) in data coordinates, where the SVG draws them.
    pub arrows: Vec<((f64, f64), (f64, f64))>,
    /// Published points' labels: (x, y, label, the TikZ anchor the SVG's placement gives,
    /// e.g. `south west` for a label above right of its point).
    pub point_labels: Vec<(f64, f64, String, &'static str)>,
    /// Data rows of the CSV file (what pgfplots holds in memory for this series).
    pub rows: usize,
    /// Drawn under a coincident series as the SVG draws it (`fric_plot::Coincidence`):
    /// `fric_plot::UNDER_WIDTH` times as wide, and faded when under one of its colour.
    pub under: bool,
    pub faded: bool,
}

#[derive(Clone, Debug)]
pub struct PgfPanel {
    pub title: Option<String>,
    pub x: PgfAxis,
    pub y: PgfAxis,
    pub legend: PgfLegend,
    pub series: Vec<PgfSeries>,
    /// One unit of x as long as one of y (`axis equal`).
    pub equal_aspect: bool,
    /// The axes' width and height in SVG pixels (the frame the SVG measured).
    pub size: (f64, f64),
    /// The legend's upper-left corner as the SVG placed it: fractions of the axes' width and
    /// height from their upper-left corner.
    pub legend_at: Option<(f64, f64)>,
    pub insets: Vec<PgfInset>,
}

/// A region of a panel redrawn at larger scale inside it, where the SVG draws it.
#[derive(Clone, Debug)]
pub struct PgfInset {
    pub x: [f64; 2],
    pub y: [f64; 2],
    /// The inset's axes as fractions of the panel's axes: left, top, width, height.
    pub at: [f64; 4],
    /// The labelled ticks along x and y as the SVG draws them in the inset (see
    /// [`PgfAxis::ticks`]): PGFPlots' own would print 0.18 five times on a 0.002 wide region.
    pub ticks: (fric_plot::TickLabels, fric_plot::TickLabels),
    /// Each series' arrowheads in the inset, (base, tip) in data coordinates.
    pub arrows: Vec<fric_plot::Arrows>,
    /// The region's frame as the SVG draws it, as fractions of the panel's axes (left, top,
    /// right, bottom; top from the top edge); `None`: drawn at `x` × `y`.
    pub region: Option<[f64; 4]>,
}

#[derive(Clone, Debug)]
pub struct PgfFigure {
    /// `<doc>/<name>`.
    pub id: String,
    pub rows: usize,
    pub cols: usize,
    /// Pixel size of one panel in the SVG (printed at [`CM_PER_PX`]).
    pub panel_width: u32,
    pub panel_height: u32,
    pub panels: Vec<PgfPanel>,
    /// Every colour name a series may use, with its sRGB value, defined as `fric<name>`.
    pub colors: Vec<(String, (u8, u8, u8))>,
}

fn templates() -> Tera {
    let mut t = Tera::default();
    t.autoescape_on(vec![]);
    t.add_raw_template("pgfplots.tex", include_str!("../../templates/pgfplots.tex.tera"))
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

/// The print scale shared with the SVG: a 640-pixel panel prints 3.5 in (8.89 cm) wide, a
/// journal's single column.
pub const CM_PER_PX: f64 = 8.89 / 640.0;

fn cm(px: f64) -> String {
    format!("{:.3}cm", px * CM_PER_PX)
}

fn num(v: f64) -> String {
    format!("{v:e}")
}

fn axis_label(a: &PgfAxis) -> String {
    let power = if a.log { 0 } else { a.power };
    match fric_plot::scaled_unit(a.unit.as_deref(), power) {
        Some(u) => format!("{} [{}]", label_to_tex(&a.label), unit_to_tex(&u)),
        None => label_to_tex(&a.label),
    }
}

/// `xtick={…}, xticklabels={…}`: the SVG's tick positions and labels (see [`PgfAxis::ticks`]).
fn explicit_ticks(xy: char, ticks: &[(f64, String)]) -> String {
    let at: Vec<String> = ticks.iter().map(|(v, _)| num(*v)).collect();
    let labels: Vec<String> = ticks
        .iter()
        .map(|(_, l)| format!("{{{}}}", tick_label_tex(l)))
        .collect();
    format!("{xy}tick={{{}}}, {xy}ticklabels={{{}}}", at.join(","), labels.join(","))
}

/// A tick label as the SVG prints it (`−0.5`, `2.5e-5`) in math mode (`$-0.5$`,
/// `$2.5\cdot 10^{-5}$`); empty stays empty.
fn tick_label_tex(l: &str) -> String {
    if l.is_empty() {
        return String::new();
    }
    let l = l.replace('\u{2212}', "-");
    match l.split_once('e') {
        Some((m, e)) => format!("${m}\\cdot 10^{{{e}}}$"),
        None => format!("${l}$"),
    }
}

/// The options of one axis (`x` or `y`).
fn axis_options(xy: char, a: &PgfAxis, out: &mut Vec<String>) {
    // An axis the SVG draws without tick labels (the upper panels of a stack sharing x) has no
    // label either: PGFPlots printed "t [s]" over the next panel's title (ruderman-paper Fig 7).
    let unlabelled = !a.ticks.is_empty() && a.ticks.iter().all(|(_, l)| l.is_empty());
    if unlabelled {
        if a.log {
            out.push(format!("{xy}ticklabels={{}}"));
        }
    } else {
        out.push(format!("{xy}label={{{}}}", axis_label(a)));
    }
    if a.log {
        out.push(format!("{xy}mode=log"));
    } else if a.power == 0 {
        // As the SVG: no common factor pulled out of the tick labels.
        out.push(format!("scaled {xy} ticks=false"));
    } else {
        // The tick labels divided by 10^power, the factor carried by the unit in the label.
        out.push(format!(
            "scaled {xy} ticks=base 10:{}, {xy}tick scale label code/.code={{}}",
            -a.power
        ));
    }
    if !a.log && !a.ticks.is_empty() {
        out.push(explicit_ticks(xy, &a.ticks));
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
    /// Commands drawn after the plot: arrowheads, point labels.
    extra: Vec<String>,
}

#[derive(Serialize)]
struct PanelView {
    options: String,
    series: Vec<SeriesView>,
    /// Commands drawn in the panel after its series: the frames of its insets' regions.
    extra: Vec<String>,
    insets: Vec<InsetView>,
}

/// An inset: an `axis` over the panel's axes, and its series.
#[derive(Serialize)]
struct InsetView {
    options: String,
    series: Vec<SeriesView>,
}

/// The frame of an inset's region on its panel, where the SVG draws it (a region smaller than
/// a marker is drawn larger, about its centre).
fn inset_region(i: &PgfInset) -> String {
    if let Some(r) = i.region {
        return format!(
            "\\draw[black, line width=0.4pt] (rel axis cs:{},{}) rectangle (rel axis cs:{},{});",
            num(r[0]),
            num(1.0 - r[3]),
            num(r[2]),
            num(1.0 - r[1])
        );
    }
    format!(
        "\\draw[black, line width=0.4pt] (axis cs:{},{}) rectangle (axis cs:{},{});",
        num(i.x[0]),
        num(i.y[0]),
        num(i.x[1]),
        num(i.y[1])
    )
}

/// Panel `p` (0-based) of figure `f`'s inset `i`: an axis placed over the panel's axes where
/// the SVG draws it (`at`), its ranges the region's, its series the panel's without legend
/// entries, with the arrowheads the SVG draws in the inset.
fn inset_view(f: &PgfFigure, p: usize, panel: &PgfPanel, i: &PgfInset) -> Result<InsetView, String> {
    let cols = f.cols.max(1);
    let (c, r) = (p % cols + 1, p / cols + 1);
    let (w, h) = panel.size;
    let mut o = vec![
        format!("at={{(fricgroup c{c}r{r}.north west)}}, anchor=north west"),
        format!("xshift={}, yshift=-{}", cm(i.at[0] * w), cm(i.at[1] * h)),
        format!("width={}, height={}, scale only axis", cm(i.at[2] * w), cm(i.at[3] * h)),
        format!(
            "xmin={}, xmax={}, ymin={}, ymax={}",
            num(i.x[0]),
            num(i.x[1]),
            num(i.y[0]),
            num(i.y[1])
        ),
        // `max space between ticks` is a number of points without the unit: `40pt` typeset
        // "pt" in nullfont at every inset (lualatex's "Missing character" in the log).
        "axis background/.style={fill=white}, tick label style={font=\\tiny}, max space between ticks=40".into(),
    ];
    for (xy, a, r, ticks) in [('x', &panel.x, i.x, &i.ticks.0), ('y', &panel.y, i.y, &i.ticks.1)] {
        if !a.log && !ticks.is_empty() {
            o.push(explicit_ticks(xy, ticks));
        }
        if !a.log {
            // The panel's data far outside the region would lie beyond TeX's largest dimension.
            let w = 10.0 * (r[1] - r[0]);
            o.push(format!("restrict {xy} to domain*={}:{}", num(r[0] - w), num(r[1] + w)));
        }
        if a.log {
            o.push(format!("{xy}mode=log"));
        } else if a.power == 0 {
            o.push(format!("scaled {xy} ticks=false"));
        } else {
            o.push(format!(
                "scaled {xy} ticks=base 10:{}, {xy}tick scale label code/.code={{}}",
                -a.power
            ));
        }
    }
    let series = panel
        .series
        .iter()
        .enumerate()
        .map(|(k, s)| {
            // An inset draws every series at its own width, as the SVG's inset does.
            let bare = PgfSeries {
                arrows: i.arrows.get(k).cloned().unwrap_or_default(),
                point_labels: vec![],
                under: false,
                faded: false,
                ..s.clone()
            };
            series_view(p + 1, k + 1, &bare, false)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(InsetView {
        options: o.join(",\n  "),
        series,
    })
}

fn series_view(p: usize, k: usize, s: &PgfSeries, legend: bool) -> Result<SeriesView, String> {
    let color = format!("fric{}", s.color);
    let entry = s.label.as_deref().filter(|_| legend).map(label_to_tex);
    let mut opts = vec![color.clone()];
    // Drawn as fric-plot draws it: from the style's one declaration.
    opts.push(s.style.pgf_options(&color, s.marker_size));
    if s.under {
        // `thick` (0.8 pt) as wide as the SVG's covered stroke, which the legend sample repeats.
        opts.push(format!("line width={:.1}pt", 0.8 * fric_plot::UNDER_WIDTH));
    }
    if s.faded {
        opts.push(format!("draw opacity={}", fric_plot::FADED_OPACITY));
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
    let mut extra: Vec<String> = s
        .arrows
        .iter()
        .map(|&(base, tip)| style::arrow::pgf(base, tip, &color))
        .collect();
    for (x, y, label, anchor) in &s.point_labels {
        extra.push(format!(
            "\\node[anchor={anchor}, font=\\footnotesize, inner sep=1pt] at (axis cs:{},{}) {{{}}};",
            num(*x),
            num(*y),
            label_to_tex(label)
        ));
    }
    let (upper, paths) = if s.style.is_band() {
        let y2 = s.y2.as_deref().ok_or("band without y2")?;
        (
            Some(table(y2)?),
            Some((format!("fric{p}b{k}lo"), format!("fric{p}b{k}hi"))),
        )
    } else {
        (None, None)
    };
    Ok(SeriesView {
        options: opts.join(", "),
        table: table(&s.y)?,
        upper,
        paths,
        csv: safe_path(&s.csv)?.to_string(),
        legend: entry,
        extra,
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
        o.push(format!("width={}, height={}", cm(panel.size.0), cm(panel.size.1)));
        axis_options('x', &panel.x, &mut o);
        axis_options('y', &panel.y, &mut o);
        if panel.equal_aspect {
            o.push("axis equal".into());
        }
        let legend = panel.legend != PgfLegend::None;
        if legend {
            let pos = match panel.legend {
                PgfLegend::UpperLeft => "north west",
                PgfLegend::LowerLeft => "south west",
                PgfLegend::LowerRight => "south east",
                _ => "north east",
            };
            match panel.legend_at {
                // Where the SVG measured it: its upper-left corner in the axes' fractions.
                Some((l, t)) => o.push(format!(
                    "legend style={{at={{({:.4},{:.4})}}, anchor=north west}}",
                    l,
                    1.0 - t
                )),
                None => o.push(format!("legend pos={pos}")),
            }
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
            extra: panel.insets.iter().map(inset_region).collect(),
            insets: panel
                .insets
                .iter()
                .map(|i| inset_view(f, p, panel, i))
                .collect::<Result<Vec<_>, _>>()?,
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
    // The gaps between the axes of neighbouring panels: the SVG's (a panel's size less its
    // axes').
    let gap = |n: u32, axes: fn(&PgfPanel) -> f64| {
        let widest = f.panels.iter().map(axes).fold(0.0, f64::max);
        cm(f64::from(n) - widest)
    };
    ctx.insert("hsep", &gap(f.panel_width, |p| p.size.0));
    ctx.insert("vsep", &gap(f.panel_height, |p| p.size.1));
    ctx.insert("panels", &panels);
    ctx.insert("pdftex", &pdftex_fallback(f));
    templates()
        .render("pgfplots.tex", &ctx)
        .map_err(|e| format!("{}: pgfplots: {e:?}", f.id))
}

/// What pdfTeX cannot draw of `f`: its fullest panel when that is over
/// [`PDFTEX_MAX_PANEL_SAMPLES`], with the PNG included instead (at the scale of the PGFPlots
/// version, [`CM_PER_PX`]: a declared `layout.width` prints the same in both).
#[derive(Serialize)]
struct PdftexFallback {
    panel: usize,
    samples: usize,
    limit: usize,
    png: String,
    width: String,
}

fn pdftex_fallback(f: &PgfFigure) -> Option<PdftexFallback> {
    let (panel, samples) = f
        .panels
        .iter()
        .map(panel_samples)
        .enumerate()
        .max_by_key(|&(i, n)| (n, std::cmp::Reverse(i)))?;
    (samples > PDFTEX_MAX_PANEL_SAMPLES).then(|| PdftexFallback {
        panel: panel + 1,
        samples,
        limit: PDFTEX_MAX_PANEL_SAMPLES,
        png: format!("{}.png", f.id),
        width: format!("{:.2}cm", f.cols.max(1) as f64 * f64::from(f.panel_width) * CM_PER_PX),
    })
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
    t.add_raw_template("all.tex", include_str!("../../templates/pgfplots-all.tex.tera"))
        .map_err(|e| format!("{e:?}"))?;
    let mut ctx = Context::new();
    ctx.insert("preamble", PREAMBLE);
    ctx.insert("entries", entries);
    t.render("all.tex", &ctx).map_err(|e| format!("pgfplots-all: {e:?}"))
}

#[cfg(test)]
mod tests;
