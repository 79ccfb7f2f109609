//! Rendering of figures to SVG bytes, and of that SVG to PNG with resvg (anti-aliased, at
//! [`PNG_SCALE`] pixels per SVG pixel), using a bundled font (DejaVu Sans, `assets/`), so no system
//! font library is needed. The SVG is the master: the PNG is its picture.
//!
//! plotters draws the axes, ticks, grid and text (`ticks.rs` chooses the ticks); this crate writes
//! the data itself (`series.rs`): each series as one SVG path with unrounded coordinates, clipped
//! to its axes frame, in the style its declaration in `style/` gives (the same declaration
//! PGFPlots reads), and a legend (`legend.rs`) placed where it covers no data (the preferred
//! corner, else another corner, else below the axes). Labels are typeset from their manifest
//! spelling by fric-typeset (re-exported as [`math`]: `F_f`, `du/dt`, `kg-m^2`). A panel's chart and layout are `panel.rs`,
//! its ranges `ranges.rs`.
//!
//! This crate owns drawing only: it receives panels with their data already selected and
//! returns bytes. It does no file I/O (the pipeline writes atomically) and knows nothing about
//! runs, caching or physics.

mod colors;
mod geometry;
mod inset;
mod labels;
mod legend;
/// The label typesetter (its own crate, shared with fric-report), under the name the renderer uses.
pub use fric_typeset as math;
mod measure;
mod page;
mod panel;
mod ranges;
mod raster;
mod reduce;
mod series;
pub mod style;
mod ticks;

pub use colors::{color_rgb, is_known_color, series_color, COLORS, COLOR_NAMES, PALETTE_NAMES};
pub use labels::LabelSide;
pub use measure::{expected_glyphs, text_boxes, TextBox, TextRun};
pub use page::{fit_page, grid, panels_for_width, printed_height, PX_PER_IN, TEXT_HEIGHT_PX, TEXT_WIDTH_PX};
pub use raster::{rasterize, PNG_SCALE};
pub use reduce::{apply, pick, reduce, Reduction, TOLERANCE_PX};
pub use style::Style;

use fric_manifest::{LegendPos, Scale};
use panel::{draw_panel, plan_legend, LegendPlan, PanelLayer, Plan};
use plotters::coord::Shift;
use plotters::prelude::*;
pub use ranges::unit_magnitudes;
use ranges::{shared_of, shared_x, unit_powers};
use std::sync::Once;

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

fn register_font() {
    REGISTER.call_once(|| {
        for style in [
            FontStyle::Normal,
            FontStyle::Bold,
            FontStyle::Italic,
            FontStyle::Oblique,
        ] {
            if plotters::style::register_font("sans-serif", style, FONT).is_err() {
                panic!("the bundled font is not a valid TrueType font");
            }
        }
    });
}

/// One curve (or band) with its data.
#[derive(Clone, Debug)]
pub struct SeriesData {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    /// Upper edge of a band.
    pub y2: Option<Vec<f64>>,
    pub style: Style,
    pub label: Option<String>,
    pub color: Option<String>,
    /// Arrowheads along the curve showing its direction.
    pub arrows: u32,
    /// For published points: each point's label (empty, or one per point).
    pub point_labels: Vec<Option<String>>,
    /// The declared marker size in pt (`marker_size`; `None`: the style's default).
    pub marker_size: Option<f64>,
    /// Every sample is a result of its own, not an integrator's output step: the points of a
    /// run whose input kind declares them computed (a grid: a describing function, a frequency
    /// response; `fric_experiments::inputs::Role::computed_points`), a source's published
    /// points, a metric's values. Print thinning keeps each one the panel shows as a marker;
    /// drawn as a line, the series is reduced like any line (`reduce.rs`).
    pub results: bool,
}

#[derive(Clone, Debug)]
pub struct AxisSpec {
    pub label: String,
    /// Shown in brackets after the label, with an SI prefix when the axis spans tiny or huge
    /// numbers (tick labels divided accordingly).
    pub unit: Option<String>,
    pub scale: Scale,
    pub range: Option<[f64; 2]>,
}

#[derive(Clone, Debug)]
pub struct PanelData {
    /// The panel's id (it names the panel's series files and its group in the SVG).
    pub id: String,
    pub title: Option<String>,
    pub x: AxisSpec,
    pub y: AxisSpec,
    /// The preferred legend corner (used when it covers no data).
    pub legend: LegendPos,
    pub series: Vec<SeriesData>,
    /// One unit of x as long as one of y (ranges widened to make it so).
    pub equal_aspect: bool,
    /// Regions redrawn at larger scale inside the panel (`inset.rs`).
    pub insets: Vec<fric_manifest::Inset>,
}

#[derive(Clone, Debug)]
pub struct FigureData {
    pub rows: usize,
    pub cols: usize,
    pub panel_width: u32,
    pub panel_height: u32,
    pub panels: Vec<PanelData>,
    /// The largest magnitude of each unit on the axes of companion figures (see
    /// [`unit_magnitudes`]): this figure's axes in that unit share their power of ten.
    pub companions: Vec<(String, f64)>,
}

type DrawErr = String;

/// A series' arrowheads as (base, tip) in data coordinates.
pub type Arrows = Vec<((f64, f64), (f64, f64))>;

/// A figure drawn: the SVG, and what another backend must draw the same way — each series'
/// arrowheads as (base, tip) in data coordinates, by panel and series, and each panel's
/// measured layout.
pub struct Drawn {
    pub svg: Vec<u8>,
    pub arrows: Vec<Vec<Arrows>>,
    /// The height (SVG pixels) added below each row's axes for the legends drawn below them:
    /// the gap between two rows is the panels' own plus this (PGFPlots' `vertical sep`).
    pub row_legends: Vec<f64>,
    pub panels: Vec<DrawnPanel>,
}

/// A panel as the SVG lays it out: what PGFPlots reproduces (`fric_report::pgf` reads it beside
/// the [`FigureData`] drawn).
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnPanel {
    /// The axes frame's width and height in SVG pixels.
    pub size: (f64, f64),
    /// The powers of ten the x and y tick labels are shown in (the units' SI prefixes).
    pub powers: (i32, i32),
    /// The legend box relative to the axes frame: (left, top) as fractions of the frame's
    /// width and height from its upper-left corner (negative or over 1 outside it).
    pub legend: Option<(f64, f64)>,
    pub insets: Vec<DrawnInset>,
    /// The side of its marker each published point's label is drawn on, by series (empty for a
    /// series without labels), in the order of the series' points.
    pub label_sides: Vec<Vec<LabelSide>>,
    /// The labelled ticks along x and y as drawn: (position in data coordinates, label); on a
    /// log axis the position is log10 of the value. Empty labels where the axis is drawn
    /// without them.
    pub ticks: (TickLabels, TickLabels),
    /// The minor ticks along x and y as drawn, in plotting coordinates (log10 of the value on a
    /// log axis; a linear axis has none).
    pub minor: (Vec<f64>, Vec<f64>),
    /// Each series as drawn against a coincident one, in the order of the series.
    pub coincidence: Vec<Coincidence>,
    /// The x and y ranges the axes span as drawn, in data coordinates (a log axis' as values,
    /// its data-driven floor included).
    pub ranges: ([f64; 2], [f64; 2]),
}

/// How a series is drawn against a coincident one (issue 45 item 3), for every backend alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coincidence {
    /// Under a later series that runs on top of it: drawn first, [`UNDER_WIDTH`] times as wide.
    pub under: bool,
    /// Under one of its own colour: drawn at [`FADED_OPACITY`], so the one on top shows.
    pub faded: bool,
    /// On top of a labelled series: its legend entry ends in [`COINCIDES`].
    pub noted: bool,
}

/// How much wider than its declared stroke a series under a coincident one is drawn.
pub const UNDER_WIDTH: f64 = 3.0;
/// The opacity of a series under a coincident one of its colour.
pub const FADED_OPACITY: f64 = 0.4;
/// Said in the legend entry of a series drawn on top of a labelled one.
pub const COINCIDES: &str = " (coincides at this scale)";

/// An axis' labelled ticks: (position, label as printed).
pub type TickLabels = Vec<(f64, String)>;

/// An inset as the SVG draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnInset {
    /// Its axes as fractions of the panel's axes (left, top, width, height).
    pub at: [f64; 4],
    /// Each series' arrowheads in the inset, (base, tip) in data coordinates.
    pub arrows: Vec<Arrows>,
    /// The labelled ticks along x and y as the inset draws them (see [`DrawnPanel::ticks`]).
    pub ticks: (TickLabels, TickLabels),
    /// The frame of its region on the panel as the SVG draws it (the region's true size), as
    /// fractions of the panel's axes: left, top, right, bottom, top from the top.
    pub region: Option<[f64; 4]>,
    /// The connectors from the region's frame to the inset as the SVG draws them.
    pub connectors: Vec<Connector>,
    /// Whether the region is framed inside an earlier inset (drawn after that inset).
    pub nested: bool,
    /// Whether its y tick labels stand right of its axes (where on the left they would stand
    /// between the region and the corners its connectors reach).
    pub right_labels: bool,
}

/// A connector from an inset's region to the inset: its ends in fractions of the panel's axes
/// (x, y from the top), and the inset's corner it ends at as a PGFPlots axis anchor (`north
/// east`: a corner of the inset's axes; `outer south west`: of its box with its tick labels),
/// so that a backend whose labels are another size ends it at its own inset's corner.
#[derive(Clone, Debug, PartialEq)]
pub struct Connector {
    pub from: [f64; 2],
    pub to: [f64; 2],
    pub anchor: String,
    /// For an end moved from the corner `anchor` along the frame's edge past the tick labels:
    /// the outer anchor whose level it takes (`outer south`: below the x labels, under the
    /// corner; `outer west`, `outer east`: beside the y labels, level with it).
    pub past: Option<String>,
}

/// An axis' unit carrying the power `k` of ten its tick labels are divided by (an SI prefix,
/// or a leading `10^{k}`), as every backend prints it.
pub fn scaled_unit(unit: Option<&str>, k: i32) -> Option<String> {
    ticks::scaled_unit(unit, k)
}

/// Text sizes in plotters' font units (1.24 per pixel). A 640-pixel panel prints at the published
/// 3.5 in, 2.54 px per point: tick labels and legend 8 pt, axis labels and titles 9 pt.
const LABEL_SIZE: u32 = 25;
const DESC_SIZE: u32 = 28;
const TITLE_SIZE: u32 = 28;
/// Space between a panel's title and the top of its axes, in pixels: room for the top y tick
/// label, which is centred on the axes' top edge.
const TITLE_GAP: u32 = 14;
/// Space right of the axes, in pixels: room for half of an x tick label at the right edge.
const RIGHT_MARGIN: u32 = 26;
/// Space for tick labels and the axis label below and left of the axes, in pixels.
const X_AREA: u32 = 68;
const Y_AREA: u32 = 100;

/// The legends of a figure's panels, and the extra height (drawing units) of each row: the
/// tallest legend below the axes in that row, so the axes keep their published size.
fn plan_figure(
    fig: &FigureData,
    shared: Option<(f64, f64)>,
    powers: &[(i32, i32)],
) -> Result<(Vec<Plan>, Vec<u32>), DrawErr> {
    let cols = fig.cols.max(1);
    let plans = fig
        .panels
        .iter()
        .enumerate()
        .map(|(i, p)| {
            plan_legend(
                p,
                fig.panel_width,
                fig.panel_height,
                shared_of(fig, shared, i),
                powers[i],
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut extra = vec![0u32; fig.rows.max(1)];
    for (i, pl) in plans.iter().enumerate() {
        if let ((LegendPlan::Below(_, h), _), Some(e)) = (pl, extra.get_mut(i / cols)) {
            *e = (*e).max(h.ceil() as u32 + 8 * K);
        }
    }
    Ok((plans, extra))
}

fn draw_figure<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    fig: &FigureData,
    plans: Vec<Plan>,
    extra: &[u32],
    shared: Option<(f64, f64)>,
    powers: &[(i32, i32)],
) -> Result<Vec<PanelLayer>, DrawErr> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let cols = fig.cols.max(1);
    let xs: Vec<u32> = (1..cols as u32).map(|c| c * fig.panel_width * K).collect();
    let mut ys = Vec::new();
    let mut y = 0;
    for e in extra.iter().take(extra.len().saturating_sub(1)) {
        y += fig.panel_height * K + e;
        ys.push(y);
    }
    let areas = root.split_by_breakpoints(xs, ys);
    let layers = fig
        .panels
        .iter()
        .zip(plans)
        .enumerate()
        .zip(areas.iter())
        .map(|((i, (p, plan)), a)| {
            draw_panel(
                a,
                p,
                plan,
                extra[(i / cols).min(extra.len() - 1)],
                shared_of(fig, shared, i),
                powers[i],
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    root.present().map_err(|e| e.to_string())?;
    Ok(layers)
}

/// The figure's size in SVG pixels: the panels, plus the rows' legends below their axes.
fn size(fig: &FigureData, extra: &[u32]) -> (u32, u32) {
    (
        fig.panel_width * fig.cols.max(1) as u32,
        fig.panel_height * fig.rows.max(1) as u32 + extra.iter().sum::<u32>().div_ceil(K),
    )
}

/// Drawing units per SVG pixel. plotters places everything on an integer grid; drawing on a grid
/// `K` times finer and declaring the SVG at the published size (a `viewBox` `K` times larger)
/// puts its coordinates on quarter pixels (the data layer is written with unrounded ones).
const K: u32 = 4;

/// Render to SVG text, `size(fig)` pixels wide and high.
pub fn render_svg(fig: &FigureData) -> Result<Vec<u8>, DrawErr> {
    Ok(render(fig)?.svg)
}

/// Each series' arrowheads in data coordinates (base, tip), as the SVG places them.
fn arrows_of(layers: &[PanelLayer]) -> Vec<Vec<Arrows>> {
    layers
        .iter()
        .map(|layer| {
            let markers: Vec<(f64, f64)> = layer.series.iter().flat_map(series::Mapped::markers).collect();
            layer
                .series
                .iter()
                .map(|s| {
                    style::arrow::place(&s.lines, s.arrows, &markers, series::K)
                        .iter()
                        .map(|h| (layer.frame.unmap(h.base), layer.frame.unmap(h.tip)))
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// A panel's measured layout (see [`DrawnPanel`]).
fn drawn_panel(l: &PanelLayer, powers: (i32, i32)) -> DrawnPanel {
    let f = &l.frame;
    let (w, h) = (f.right - f.left, f.bottom - f.top);
    DrawnPanel {
        size: (w / series::K, h / series::K),
        powers,
        legend: l
            .legend
            .as_ref()
            .map(|g| ((g.rect[0] - f.left) / w, (g.rect[1] - f.top) / h)),
        insets: l
            .insets
            .iter()
            .map(|i| DrawnInset {
                at: i.fraction(f),
                arrows: i.arrows(),
                ticks: (i.xticks.clone(), i.yticks.clone()),
                region: i.region_fraction(f),
                connectors: i.connector_fractions(f),
                nested: i.nested,
                right_labels: i.right,
            })
            .collect(),
        label_sides: l.series.iter().map(|s| s.label_sides.clone()).collect(),
        ticks: l.ticks.clone(),
        minor: l.minor.clone(),
        coincidence: l.coincidence.clone(),
        ranges: {
            let (lo, hi) = (f.unmap((f.left, f.bottom)), f.unmap((f.right, f.top)));
            ([lo.0, hi.0], [lo.1, hi.1])
        },
    }
}

/// Render to SVG, with what PGFPlots needs to draw the same figure (see [`Drawn`]).
pub fn render(fig: &FigureData) -> Result<Drawn, DrawErr> {
    register_font();
    // The common x range of stacked panels: one scan of the data for the whole figure.
    let shared = shared_x(fig);
    let powers = unit_powers(fig, shared);
    let (plans, mut extra) = plan_figure(fig, shared, &powers)?;
    let (w, h) = size(fig, &extra);
    // Whole SVG pixels: the last row takes the rounding.
    let used = fig.panel_height * K * fig.rows.max(1) as u32 + extra.iter().sum::<u32>();
    if let Some(last) = extra.last_mut() {
        *last += h * K - used;
    }
    let mut s = String::new();
    let layers = {
        let root = SVGBackend::with_string(&mut s, (w * K, h * K)).into_drawing_area();
        draw_figure(root, fig, plans, &extra, shared, &powers)?
    };
    let fine = format!(r#"<svg width="{}" height="{}" viewBox"#, w * K, h * K);
    let shown = format!(r#"<svg width="{w}" height="{h}" viewBox"#);
    if !s.starts_with(&fine) {
        return Err("unexpected SVG header from plotters".into());
    }
    let end = s.rfind("</svg>").ok_or("unexpected SVG end from plotters")?;
    let mut out = math::rewrite_texts(&s[..end]).replacen(&fine, &shown, 1);
    for (n, (layer, p)) in layers.iter().zip(&fig.panels).enumerate() {
        series::write_panel(
            &mut out,
            n,
            &p.id,
            &layer.frame,
            &layer.series,
            layer.legend.as_ref(),
            &layer.minor,
        );
        for (k, inset) in layer.insets.iter().enumerate() {
            inset::write(&mut out, n, k, &p.id, inset);
        }
        for inset in &layer.insets {
            inset::write_connectors(&mut out, n, inset);
        }
    }
    out.push_str("</svg>\n");
    Ok(Drawn {
        svg: out.into_bytes(),
        arrows: arrows_of(&layers),
        row_legends: extra.iter().map(|&e| f64::from(e) / f64::from(K)).collect(),
        panels: layers.iter().zip(&powers).map(|(l, p)| drawn_panel(l, *p)).collect(),
    })
}

/// Render to PNG bytes: the SVG rasterised (see [`rasterize`]).
pub fn render_png(fig: &FigureData) -> Result<Vec<u8>, DrawErr> {
    rasterize(&render_svg(fig)?)
}

#[cfg(test)]
mod tests;
