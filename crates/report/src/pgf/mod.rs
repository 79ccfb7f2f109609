//! The LaTeX route for figures: each drawn figure as a PGFPlots `tikzpicture` (`<name>.pgf.tex`,
//! template `templates/pgfplots.tex.tera`) that reads the figure's exported CSV files, so a paper
//! can `\input` it; manifest labels become LaTeX with real math ([`label_to_tex`]).
//!
//! The CSV paths are written as `\fricfiguresdir/<doc>/<name>/<panel>-<k>.csv`. pgfplots opens
//! them relative to the directory LaTeX runs in, so `\fricfiguresdir` is the path from there to
//! `figures/`: each file defines it as `figures` unless the includer defined it first
//! (`\newcommand{\fricfiguresdir}{../figures}` before the first `\input`).
//!
//! It is a backend of the one figure value: [`render_pgfplots`] reads the `fric_plot::FigureData`
//! the SVG renderer drew and what that renderer measured of it (`fric_plot::Drawn`: axes sizes
//! and ranges, ticks, units, legend places, insets, arrowheads), so a feature added to the
//! figure value reaches both outputs. Like the rest of this crate this formats what it is given:
//! the pipeline selects the data, writes the CSV files (one [`PgfTable`] per series) and the
//! `.tex`.

mod axes;
mod series;

pub use fric_plot::Style as PgfStyle;
// The one reading of labels and prose (fric-typeset): this backend only prints it.
pub use fric_typeset::check::{check_math, tex_problems};
pub use fric_typeset::label::{caption_to_tex, label_to_tex, text_to_tex, unit_to_tex};
pub use fric_typeset::prose;
pub use fric_typeset::relation::formula_in_pieces;

use fric_manifest::LegendPos;
use fric_plot::{Arrows, Coincidence, DrawnPanel, FigureData, PanelData, SeriesData};
use serde::Serialize;
use series::{series_view, SeriesView};
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

/// The samples pgfplots holds for `panel`: every series' rows (the samples its CSV file holds,
/// the drawn ones), a band's twice (its two edges are read as two plots).
pub fn panel_samples(panel: &PanelData) -> usize {
    panel
        .series
        .iter()
        .map(|s| {
            if s.y2.is_some() && s.style.is_band() {
                2 * s.x.len()
            } else {
                s.x.len()
            }
        })
        .sum()
}

/// The preamble a document needs to `\input` the figures (also written into each file's header).
pub const PREAMBLE: &str =
    "\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\usepgfplotslibrary{groupplots,fillbetween}\n\\pgfplotsset{compat=1.16}";

/// The table one series of the figure reads: its CSV file relative to `figures/` and the
/// columns of x, y and a band's upper edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgfTable {
    pub csv: String,
    pub x: String,
    pub y: String,
    pub y2: Option<String>,
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
    /// Drawn after the inset: its connectors from the region's frame.
    connectors: Vec<String>,
}

/// The legend's options: where the SVG measured it (its upper-left corner in the axes'
/// fractions), else the declared corner.
fn legend_options(p: &PanelData, d: &DrawnPanel) -> Option<String> {
    let pos = match p.legend {
        LegendPos::None => return None,
        LegendPos::UpperLeft => "north west",
        LegendPos::LowerLeft => "south west",
        LegendPos::LowerRight => "south east",
        LegendPos::UpperRight => "north east",
    };
    Some(match d.legend {
        Some((l, t)) => format!("legend style={{at={{({:.4},{:.4})}}, anchor=north west}}", l, 1.0 - t),
        None => format!("legend pos={pos}"),
    })
}

/// Panel `n` (0-based) of `fig`, drawn by the SVG as `d` (arrowheads `arrows`), its series
/// reading `tables`.
fn panel_view(
    fig: &FigureData,
    n: usize,
    d: &DrawnPanel,
    arrows: Option<&Vec<Arrows>>,
    tables: &[PgfTable],
) -> Result<PanelView, String> {
    let p = &fig.panels[n];
    let (x, y) = (axes::axis('x', &p.x, d), axes::axis('y', &p.y, d));
    let mut o = Vec::new();
    if let Some(t) = &p.title {
        o.push(format!("title={{{}}}", label_to_tex(t)));
    }
    o.push(format!("width={}, height={}", cm(d.size.0), cm(d.size.1)));
    axes::axis_options('x', &x, &mut o);
    axes::axis_options('y', &y, &mut o);
    if p.equal_aspect {
        o.push("axis equal".into());
    }
    let legend = legend_options(p, d);
    o.extend(legend.clone());
    let none = Arrows::new();
    let color = |k: usize, s: &SeriesData| fric_plot::series_color(k, s.color.as_deref()).to_string();
    let series = p
        .series
        .iter()
        .zip(tables)
        .enumerate()
        .map(|(k, (s, t))| {
            let c = d.coincidence.get(k).copied().unwrap_or_default();
            let drawn = series::Drawn {
                entry: s.label.clone().filter(|_| legend.is_some()).map(|l| {
                    if c.noted {
                        l + fric_plot::COINCIDES
                    } else {
                        l
                    }
                }),
                arrows: arrows.and_then(|a| a.get(k)).unwrap_or(&none),
                sides: Some(d.label_sides.get(k).map_or(&[], Vec::as_slice)),
                coincidence: c,
            };
            series_view((n + 1, k + 1), s, &color(k, s), t, &drawn)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let cols = fig.cols.max(1);
    let name = |k: usize| format!("fricinset{}x{}", n + 1, k + 1);
    let insets = p
        .insets
        .iter()
        .zip(&d.insets)
        .enumerate()
        .map(|(ik, (i, di))| {
            let mut options = axes::inset_options((n % cols + 1, n / cols + 1), d.size, (&x, &y), i, di);
            options.insert(0, format!("name={}", name(ik)));
            // An inset draws every series at its own width without legend entries or point
            // labels, with the arrowheads the SVG draws in the inset.
            let series = p
                .series
                .iter()
                .zip(tables)
                .enumerate()
                .map(|(k, (s, t))| {
                    let drawn = series::Drawn {
                        entry: None,
                        arrows: di.arrows.get(k).unwrap_or(&none),
                        sides: None,
                        coincidence: Coincidence::default(),
                    };
                    series_view((n + 1, k + 1), s, &color(k, s), t, &drawn)
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(InsetView {
                options: options.join(",\n  "),
                series,
                connectors: axes::inset_connectors(di, &name(ik)),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(PanelView {
        options: o.join(",\n    "),
        series,
        extra: p
            .insets
            .iter()
            .zip(&d.insets)
            .enumerate()
            .map(|(ik, (i, di))| axes::inset_region(i, di, &name(ik)))
            .collect(),
        insets,
    })
}

/// Figure `id` as a `tikzpicture` with one `groupplot` panel per panel of `fig`: the figure value
/// the SVG renderer drew, laid out as it measured it (`drawn`: axes sizes, ranges, ticks, units,
/// legend places, insets, arrowheads), each series reading its table (`tables`: one per series,
/// panel by panel, as the figure's series are ordered).
pub fn render_pgfplots(
    id: &str,
    fig: &FigureData,
    drawn: &fric_plot::Drawn,
    tables: &[PgfTable],
) -> Result<String, String> {
    let counts: Vec<usize> = fig.panels.iter().map(|p| p.series.len()).collect();
    if counts.iter().sum::<usize>() != tables.len() || drawn.panels.len() != fig.panels.len() {
        return Err(format!(
            "{id}: pgfplots: {} series in {} panels, {} tables and {} drawn panels",
            counts.iter().sum::<usize>(),
            fig.panels.len(),
            tables.len(),
            drawn.panels.len()
        ));
    }
    let mut panels = Vec::new();
    let mut first = 0;
    for (n, (d, count)) in drawn.panels.iter().zip(&counts).enumerate() {
        let t = &tables[first..first + count];
        first += count;
        panels.push(panel_view(fig, n, d, drawn.arrows.get(n), t)?);
    }
    #[derive(Serialize)]
    struct Color {
        name: String,
        rgb: String,
    }
    let colors: Vec<Color> = fric_plot::COLORS
        .iter()
        .map(|(n, (r, g, b))| Color {
            name: format!("fric{n}"),
            rgb: format!("{r},{g},{b}"),
        })
        .collect();
    let mut ctx = Context::new();
    ctx.insert("id", id);
    ctx.insert("preamble", &PREAMBLE.replace('\n', " "));
    ctx.insert("colors", &colors);
    ctx.insert("group_size", &format!("{} by {}", fig.cols.max(1), fig.rows.max(1)));
    // The gaps between the axes of neighbouring panels: the SVG's (a panel's size less its
    // axes').
    let gap = |n: u32, axes: fn(&DrawnPanel) -> f64| {
        let widest = drawn.panels.iter().map(axes).fold(0.0, f64::max);
        cm(f64::from(n) - widest)
    };
    ctx.insert("hsep", &gap(fig.panel_width, |p| p.size.0));
    // Between rows also the tallest legend drawn below a row's axes (the SVG's extra row
    // height): thesis Fig 4.4's panel (a) legend, below its axes, ran into the title of the
    // panel under it when the gap was the panels' alone (issue 45 item 5).
    let below = drawn.row_legends.iter().rev().skip(1).fold(0.0, |a: f64, &b| a.max(b));
    ctx.insert(
        "vsep",
        &cm(f64::from(fig.panel_height) + below - drawn.panels.iter().map(|p| p.size.1).fold(0.0, f64::max)),
    );
    ctx.insert("panels", &panels);
    ctx.insert("pdftex", &pdftex_fallback(id, fig));
    templates()
        .render("pgfplots.tex", &ctx)
        .map_err(|e| format!("{id}: pgfplots: {e:?}"))
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

fn pdftex_fallback(id: &str, f: &FigureData) -> Option<PdftexFallback> {
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
        png: format!("{id}.png"),
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
