//! Rendering of figures to SVG bytes, and of that SVG to PNG with resvg (anti-aliased, at
//! [`PNG_SCALE`] pixels per SVG pixel), using a bundled font (DejaVu Sans, `assets/`), so no system
//! font library is needed. The SVG is the master: the PNG is its picture.
//!
//! plotters draws the axes, ticks, grid and text (`ticks.rs` chooses the ticks); this crate writes
//! the data itself (`series.rs`): each series as one SVG path with unrounded coordinates, clipped
//! to its axes frame, and a legend placed where it covers no data (the preferred corner, else
//! another corner, else below the axes). Labels are typeset from their manifest spelling
//! (`math.rs`: `F_f`, `du/dt`, `kg-m^2`).
//!
//! This crate owns drawing only: it receives panels with their data already selected and
//! returns bytes. It does no file I/O (the pipeline writes atomically) and knows nothing about
//! runs, caching or physics.

mod math;
mod raster;
mod reduce;
mod series;
mod ticks;

pub use raster::{rasterize, PNG_SCALE};
pub use reduce::{apply, pick, reduce, Reduction, TOLERANCE_PX};

use fric_manifest::{LegendPos, Scale, Style};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use series::{Frame, Mapped};
use std::sync::Once;
use ticks::{axis_power, decade_label, format_tick, scaled_label, ticks, Ticked};

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
}

#[derive(Clone, Debug)]
pub struct FigureData {
    pub rows: usize,
    pub cols: usize,
    pub panel_width: u32,
    pub panel_height: u32,
    pub panels: Vec<PanelData>,
}

/// Every colour a manifest may name, with its sRGB value; the first eight, in order, are the
/// palette that series without a colour take in turn: Okabe–Ito colours (distinguishable with
/// the common colour-vision deficiencies), black first, and a neutral grey.
pub const COLORS: &[(&str, (u8, u8, u8))] = &[
    ("black", (0, 0, 0)),
    ("blue", (0, 114, 178)),
    ("red", (213, 94, 0)),
    ("green", (0, 158, 115)),
    ("orange", (230, 159, 0)),
    ("purple", (204, 121, 167)),
    ("skyblue", (86, 180, 233)),
    ("gray", (127, 127, 127)),
    ("brown", (140, 86, 75)),
    ("lightgray", (200, 200, 200)),
];

/// The palette colour of the `i`-th series without a colour of its own.
fn palette(i: usize) -> (u8, u8, u8) {
    COLORS[i % PALETTE_NAMES.len()].1
}

/// The palette's colours by name, in palette order (series without a colour take them in turn).
pub const PALETTE_NAMES: &[&str] = &["black", "blue", "red", "green", "orange", "purple", "skyblue", "gray"];

/// Color names accepted in manifests.
pub const COLOR_NAMES: &[&str] = &[
    "black",
    "blue",
    "red",
    "green",
    "orange",
    "purple",
    "skyblue",
    "gray",
    "brown",
    "lightgray",
];

/// The canonical name of a colour (`grey` is `gray`), if a manifest may use it.
fn canonical_color(name: &str) -> Option<&'static str> {
    let name = match name {
        "grey" => "gray",
        "lightgrey" => "lightgray",
        n => n,
    };
    COLORS.iter().find(|(n, _)| *n == name).map(|(n, _)| *n)
}

/// The sRGB value of a colour name.
pub fn color_rgb(name: &str) -> Option<(u8, u8, u8)> {
    let name = canonical_color(name)?;
    COLORS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// The colour (canonical name) the `i`-th series of a panel is drawn in: its own when it names
/// a known colour, otherwise the palette's in turn.
pub fn series_color(i: usize, color: Option<&str>) -> &'static str {
    color
        .and_then(canonical_color)
        .unwrap_or(PALETTE_NAMES[i % PALETTE_NAMES.len()])
}

fn named_color(name: &str) -> Option<(u8, u8, u8)> {
    color_rgb(name)
}

pub fn is_known_color(name: &str) -> bool {
    named_color(name).is_some()
}

fn auto_range(vals: impl Iterator<Item = f64>, fixed: Option<[f64; 2]>, scale: Scale) -> (f64, f64) {
    let tf = series::tf;
    if let Some([a, b]) = fixed {
        return (tf(scale, a), tf(scale, b));
    }
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals {
        let v = tf(scale, v);
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    if hi - lo < 1e-12 * (1.0 + lo.abs()) {
        return (lo - 1.0, hi + 1.0);
    }
    let pad = 0.05 * (hi - lo);
    (lo - pad, hi + pad)
}

type DrawErr = String;

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
type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, Ticked>>;

/// Plotting ranges of a panel (log10 of the values on a log axis).
struct Ranges {
    x: (f64, f64),
    y: (f64, f64),
}

/// A panel in a column of panels sharing their x axis: the common x range, and whether this
/// panel (the bottom one) carries the x tick labels and the axis label.
#[derive(Clone, Copy)]
struct Shared {
    x: (f64, f64),
    labels: bool,
}

/// Panel `i`'s share of the figure's common x range `x` (see [`shared_x`]), if it has one.
fn shared_of(fig: &FigureData, x: Option<(f64, f64)>, i: usize) -> Option<Shared> {
    x.map(|x| Shared {
        x,
        labels: i + 1 == fig.panels.len(),
    })
}

/// Panels stacked in one column with the same x quantity, unit and scale share one x range and
/// label it once, at the bottom (time histories of quantities with different units), unless one
/// panel's data span less than half of the common range.
fn shared_x(fig: &FigureData) -> Option<(f64, f64)> {
    let first = fig.panels.first()?;
    let same = |a: &AxisSpec| {
        a.label == first.x.label && a.unit == first.x.unit && a.scale == first.x.scale && a.range == first.x.range
    };
    if fig.cols.max(1) != 1 || fig.panels.len() < 2 || !fig.panels.iter().all(|p| same(&p.x)) {
        return None;
    }
    let xs = fig
        .panels
        .iter()
        .flat_map(|p| p.series.iter().flat_map(|s| s.x.iter().copied()));
    let all = auto_range(xs, first.x.range, first.x.scale);
    // Panels whose data cover very different spans (a 40 s response above a 1000 s one) keep
    // their own ranges: a common one would squeeze the shorter records into a sliver.
    let span = |r: (f64, f64)| r.1 - r.0;
    let squeezed = fig.panels.iter().any(|p| {
        let own = auto_range(p.series.iter().flat_map(|s| s.x.iter().copied()), p.x.range, p.x.scale);
        span(own) < 0.5 * span(all)
    });
    (!squeezed).then_some(all)
}

fn ranges(p: &PanelData, shared: Option<Shared>) -> Ranges {
    let xs = p.series.iter().flat_map(|s| s.x.iter().copied());
    let ys = p
        .series
        .iter()
        .flat_map(|s| s.y.iter().copied().chain(s.y2.iter().flatten().copied()));
    let mut y = auto_range(ys, p.y.range, p.y.scale);
    if p.y.scale == Scale::Log && p.y.range.is_none() {
        if let Some(floor) = log_floor(p.series.iter().map(|s| s.y.as_slice())) {
            y.0 = y.0.max(floor - 0.05 * (y.1 - floor));
        }
    }
    Ranges {
        x: shared.map_or_else(|| auto_range(xs, p.x.range, p.x.scale), |s| s.x),
        y,
    }
}

/// The data-driven floor of a log axis (log10): per series, the smallest positive value, unless
/// some values fall more than a decade below the series' 2nd percentile (a quantity dipping
/// through zero, like an energy reset at each reversal): then a decade below that percentile, so
/// the dips are cut at the axis and the envelope is shown whole. The lowest over the series.
fn log_floor<'a>(series: impl Iterator<Item = &'a [f64]>) -> Option<f64> {
    series
        .filter_map(|ys| {
            let mut v: Vec<f64> = ys
                .iter()
                .filter(|y| **y > 0.0 && y.is_finite())
                .map(|y| y.log10())
                .collect();
            if v.is_empty() {
                return None;
            }
            v.sort_by(f64::total_cmp);
            let p2 = v[v.len() / 50];
            Some(v[0].max(p2 - 1.0))
        })
        .min_by(f64::total_cmp)
}

/// At most how many labelled ticks fit along the x and y axes of a panel drawn in `area`: one per
/// 90 px across (room for a 6-character label at 8 pt), one per 55 px up.
fn max_ticks<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>) -> (usize, usize) {
    let (w, h) = area.dim_in_pixel();
    ((w / K / 90) as usize, (h / K / 55) as usize)
}

/// The title's font size: `TITLE_SIZE`, or smaller so that a long title fits the panel's width
/// (a title wider than its panel would be cut at both edges).
fn title_size<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, title: &str) -> u32 {
    let full = TITLE_SIZE * K;
    let avail = area.dim_in_pixel().0.saturating_sub(24 * K) as f64;
    let width = area
        .estimate_text_size(title, &TextStyle::from(("sans-serif", full)))
        .map_or(0.0, |(w, _)| w as f64);
    if width <= avail || width == 0.0 {
        return full;
    }
    ((full as f64 * avail / width).floor() as u32).max(full / 2)
}

/// The chart of a panel (caption and coordinates; nothing else drawn), `reserve` drawing units
/// left free below the axes for a legend.
fn build_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    p: &PanelData,
    r: &Ranges,
    reserve: u32,
    x_labels: bool,
) -> Result<Chart<'a, DB>, DrawErr> {
    // The title is drawn here, not as plotters' caption: the caption sits directly on the
    // plotting area, where the top y tick label (centred on the top edge) ran into it.
    let title = p.title.as_ref().map(|t| {
        let style = TextStyle::from(("sans-serif", title_size(area, t)));
        let h = area.estimate_text_size(t, &style).map_or(0, |(_, h)| h);
        (t, style, h)
    });
    let mut b = ChartBuilder::on(area);
    b.margin(12 * K)
        .margin_top(12 * K + title.as_ref().map_or(0, |(_, _, h)| h + TITLE_GAP * K))
        .margin_right(RIGHT_MARGIN * K)
        .margin_bottom(12 * K + reserve)
        .x_label_area_size(if x_labels { X_AREA } else { 8 } * K)
        .y_label_area_size(Y_AREA * K);
    if let Some((t, style, _)) = &title {
        let centre = (area.dim_in_pixel().0 / 2) as i32;
        let style = style.pos(Pos::new(HPos::Center, VPos::Top));
        area.draw(&Text::new(t.as_str(), (centre, (12 * K) as i32), style))
            .map_err(|e| e.to_string())?;
    }
    // Minor ticks are drawn by the data layer as marks on the axes (no minor grid).
    let (mx, my) = max_ticks(area);
    let (bx, by) = (
        ticks(r.x.0, r.x.1, p.x.scale, mx).0,
        ticks(r.y.0, r.y.1, p.y.scale, my).0,
    );
    b.build_cartesian_2d(
        Ticked::new(r.x.0..r.x.1, bx, vec![]),
        Ticked::new(r.y.0..r.y.1, by, vec![]),
    )
    .map_err(|e| e.to_string())
}

fn frame_of<DB: DrawingBackend>(chart: &Chart<DB>, p: &PanelData, r: &Ranges, offset: (i32, i32)) -> Frame {
    let (l, b) = chart.backend_coord(&(r.x.0, r.y.0));
    let (rt, t) = chart.backend_coord(&(r.x.1, r.y.1));
    Frame {
        left: (l + offset.0) as f64,
        top: (t + offset.1) as f64,
        right: (rt + offset.0) as f64,
        bottom: (b + offset.1) as f64,
        x: r.x,
        y: r.y,
        xs: p.x.scale,
        ys: p.y.scale,
    }
}

/// The panel's series in drawing units, those hidden by a later coincident series marked to be
/// drawn under it (`coincident` lists the pairs).
fn map_all(frame: &Frame, p: &PanelData, coincident: &[(usize, usize)]) -> Vec<Mapped> {
    let mut m: Vec<Mapped> = p
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut m = series::map_series(frame, &s.x, &s.y, s.y2.as_deref(), s.style, color_of(s, i));
            m.arrows = s.arrows;
            m
        })
        .collect();
    for &(i, _) in coincident {
        m[i].under = true;
    }
    m
}

/// What plotters drew of a panel, and the data layer this crate writes over it.
struct PanelLayer {
    frame: Frame,
    series: Vec<Mapped>,
    legend: Option<series::Legend>,
    /// Minor tick positions (plotting coordinates) of the x and y axes.
    minor: (Vec<f64>, Vec<f64>),
}

/// Where a panel's legend goes, decided before drawing: inside the axes (its box relative to
/// the panel's origin) or below them (the entries and the height they need).
/// A panel's legend plan and its coincident series pairs.
type Plan = (LegendPlan, Vec<(usize, usize)>);

enum LegendPlan {
    None,
    Inside(series::Legend),
    Below(Vec<series::Entry>, f64),
}

/// Plan a panel's legend on a scratch backend the panel's size, with nothing reserved below the
/// axes: the preferred corner if it covers no data, else another empty corner, else below.
fn plan_legend(
    p: &PanelData,
    w: u32,
    h: u32,
    shared: Option<Shared>,
) -> Result<(LegendPlan, Vec<(usize, usize)>), DrawErr> {
    let r = ranges(p, shared);
    let mut scratch = String::new();
    let area = SVGBackend::with_string(&mut scratch, (w * K, h * K)).into_drawing_area();
    let font: TextStyle = ("sans-serif", LABEL_SIZE * K).into();
    let labels = shared.is_none_or(|s| s.labels);
    let frame = frame_of(&build_chart(&area, p, &r, 0, labels)?, p, &r, (0, 0));
    // Mapped once: placement reads the series' ink, which does not depend on `under`.
    let mapped = map_all(&frame, p, &[]);
    let coincident = series::coincident(&mapped);
    let entries: Vec<series::Entry> = p
        .series
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let mut label = s.label.clone()?;
            // Said in the legend: the series drawn on top coincides with the one under it.
            if let Some(&(u, _)) = coincident.iter().find(|(_, j)| *j == i) {
                if p.series[u].label.is_some() {
                    label.push_str(" (coincides)");
                }
            }
            let width = area
                .estimate_text_size(&math::plain(&label), &font)
                .map_or(0.0, |(w, _)| w as f64);
            Some(series::Entry {
                label,
                style: s.style,
                color: color_of(s, i),
                under: coincident.iter().any(|(u, _)| *u == i),
                width,
            })
        })
        .collect();
    let preferred = match p.legend {
        LegendPos::UpperLeft => 1,
        LegendPos::LowerRight => 2,
        LegendPos::LowerLeft => 3,
        _ => 0,
    };
    if p.legend == LegendPos::None || entries.is_empty() {
        return Ok((LegendPlan::None, coincident));
    }
    Ok((
        match series::place_inside(&frame, &mapped, entries, preferred) {
            Ok(l) => LegendPlan::Inside(l),
            Err(entries) => {
                let (_, h) = series::rows_below(&entries, (w * K) as f64 - 8.0 * series::K);
                LegendPlan::Below(entries, h)
            }
        },
        coincident,
    ))
}

fn color_of(s: &SeriesData, i: usize) -> (u8, u8, u8) {
    s.color.as_deref().and_then(named_color).unwrap_or(palette(i))
}

/// Draw a panel's axes with plotters in `area` (the panel's size plus `reserve` drawing units
/// below, kept free for legends below the axes in its row), and lay out its data layer.
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &PanelData,
    (plan, coincident): Plan,
    reserve: u32,
    shared: Option<Shared>,
) -> Result<PanelLayer, DrawErr> {
    let r = ranges(p, shared);
    let x_labels = shared.is_none_or(|s| s.labels);
    let (_, ah) = area.dim_in_pixel();
    let base = area.get_base_pixel();
    let mut chart = build_chart(area, p, &r, reserve, x_labels)?;
    let frame = frame_of(&chart, p, &r, (0, 0));
    let (sx, sy) = (r.x.0.abs().max(r.x.1.abs()), r.y.0.abs().max(r.y.1.abs()));
    let power = |a: &AxisSpec, r: (f64, f64)| if a.scale == Scale::Log { 0 } else { axis_power(r.0, r.1) };
    let (kx, ky) = (power(&p.x, r.x), power(&p.y, r.y));
    let (fx, fy) = (10f64.powi(-kx), 10f64.powi(-ky));
    let fmt_x = |v: &f64| match p.x.scale {
        _ if !x_labels => String::new(),
        Scale::Log => decade_label(*v),
        _ => format_tick(*v * fx, sx * fx),
    };
    let fmt_y = |v: &f64| match p.y.scale {
        Scale::Log => decade_label(*v),
        _ => format_tick(*v * fy, sy * fy),
    };
    let (x_desc, y_desc) = (
        if x_labels {
            scaled_label(&p.x.label, p.x.unit.as_deref(), kx)
        } else {
            String::new()
        },
        scaled_label(&p.y.label, p.y.unit.as_deref(), ky),
    );
    chart
        .configure_mesh()
        .x_desc(x_desc.as_str())
        .y_desc(y_desc.as_str())
        .x_label_formatter(&fmt_x)
        .y_label_formatter(&fmt_y)
        .label_style(("sans-serif", LABEL_SIZE * K))
        .axis_desc_style(("sans-serif", DESC_SIZE * K))
        .axis_style(BLACK.stroke_width(K))
        .set_all_tick_mark_size(5 * K)
        .light_line_style(RGBColor(235, 235, 235).stroke_width(K))
        .bold_line_style(RGBColor(215, 215, 215).stroke_width(K))
        .draw()
        .map_err(|e| e.to_string())?;
    let legend = match plan {
        LegendPlan::None => None,
        LegendPlan::Inside(mut l) => {
            let (dx, dy) = (base.0 as f64, base.1 as f64);
            l.rect = [l.rect[0] + dx, l.rect[1] + dy, l.rect[2] + dx, l.rect[3] + dy];
            Some(l)
        }
        LegendPlan::Below(entries, h) => {
            let top = (base.1 + ah as i32) as f64 - h - 6.0 * series::K;
            let (left, right) = (base.0 as f64, (base.0 + area.dim_in_pixel().0 as i32) as f64);
            Some(series::below(&frame, entries, top, (left, right)))
        }
    };
    Ok(PanelLayer {
        series: map_all(&frame, p, &coincident),
        minor: (
            ticks(r.x.0, r.x.1, p.x.scale, max_ticks(area).0).1,
            ticks(r.y.0, r.y.1, p.y.scale, max_ticks(area).1).1,
        ),
        frame,
        legend,
    })
}

/// The legends of a figure's panels, and the extra height (drawing units) of each row: the
/// tallest legend below the axes in that row, so the axes keep their published size.
fn plan_figure(fig: &FigureData, shared: Option<(f64, f64)>) -> Result<(Vec<Plan>, Vec<u32>), DrawErr> {
    let cols = fig.cols.max(1);
    let plans = fig
        .panels
        .iter()
        .enumerate()
        .map(|(i, p)| plan_legend(p, fig.panel_width, fig.panel_height, shared_of(fig, shared, i)))
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
    register_font();
    // The common x range of stacked panels: one scan of the data for the whole figure.
    let shared = shared_x(fig);
    let (plans, mut extra) = plan_figure(fig, shared)?;
    let (w, h) = size(fig, &extra);
    // Whole SVG pixels: the last row takes the rounding.
    let used = fig.panel_height * K * fig.rows.max(1) as u32 + extra.iter().sum::<u32>();
    if let Some(last) = extra.last_mut() {
        *last += h * K - used;
    }
    let mut s = String::new();
    let layers = {
        let root = SVGBackend::with_string(&mut s, (w * K, h * K)).into_drawing_area();
        draw_figure(root, fig, plans, &extra, shared)?
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
    }
    out.push_str("</svg>\n");
    Ok(out.into_bytes())
}

/// Render to PNG bytes: the SVG rasterised (see [`rasterize`]).
pub fn render_png(fig: &FigureData) -> Result<Vec<u8>, DrawErr> {
    rasterize(&render_svg(fig)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_title_is_shrunk_to_fit_its_panel() {
        register_font();
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (800 * K, 480 * K)).into_drawing_area();
        assert_eq!(title_size(&area, "short"), TITLE_SIZE * K);
        let long = "B&S with the printed parameters (the measured curve is not published)";
        let size = title_size(&area, long);
        assert!(size < TITLE_SIZE * K, "{size}");
        let (w, _) = area
            .estimate_text_size(long, &TextStyle::from(("sans-serif", size)))
            .unwrap();
        assert!(w <= (800 - 24) * K, "{w} px wide in {} px", (800 - 24) * K);
    }

    #[test]
    fn colour_tables_agree() {
        let names: Vec<&str> = COLORS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, COLOR_NAMES);
        assert_eq!(&names[..PALETTE_NAMES.len()], PALETTE_NAMES);
        assert_eq!(series_color(9, None), "blue");
        assert_eq!(series_color(0, Some("grey")), "gray");
        assert_eq!(series_color(2, Some("teal")), "red");
        assert_eq!(color_rgb("lightgrey"), Some((200, 200, 200)));
    }

    fn fig() -> FigureData {
        let x: Vec<f64> = (0..50).map(|i| i as f64 / 10.0).collect();
        let y: Vec<f64> = x.iter().map(|v| v.sin()).collect();
        FigureData {
            rows: 1,
            cols: 2,
            panel_width: 320,
            panel_height: 240,
            panels: vec![
                PanelData {
                    id: "a".into(),
                    title: Some("(a)".into()),
                    x: AxisSpec {
                        label: "u".into(),
                        unit: Some("m".into()),
                        scale: Scale::Linear,
                        range: None,
                    },
                    y: AxisSpec {
                        label: "F".into(),
                        unit: Some("N".into()),
                        scale: Scale::Linear,
                        range: None,
                    },
                    legend: LegendPos::UpperRight,
                    series: vec![SeriesData {
                        x: x.clone(),
                        y: y.clone(),
                        y2: None,
                        style: Style::Dashed,
                        label: Some("sin".into()),
                        color: None,
                        arrows: 0,
                    }],
                },
                PanelData {
                    id: "b".into(),
                    title: None,
                    x: AxisSpec {
                        label: "v".into(),
                        unit: None,
                        scale: Scale::Log,
                        range: None,
                    },
                    y: AxisSpec {
                        label: "y".into(),
                        unit: None,
                        scale: Scale::Linear,
                        range: Some([-2.0, 2.0]),
                    },
                    legend: LegendPos::None,
                    series: vec![SeriesData {
                        x,
                        y: y.clone(),
                        y2: Some(y.iter().map(|v| v + 0.5).collect()),
                        style: Style::Band,
                        label: None,
                        color: Some("gray".into()),
                        arrows: 0,
                    }],
                },
            ],
        }
    }

    /// Panels stacked in one column with the same x quantity share one x range and label it
    /// once, at the bottom; side by side they each keep their own.
    #[test]
    fn stacked_time_histories_share_their_time_axis() {
        let mut f = fig();
        f.panels[1].x = f.panels[0].x.clone();
        f.panels[1].series[0].x = f.panels[1].series[0].x.iter().map(|v| v * 2.0).collect();
        let svg = |f: &FigureData| String::from_utf8(render_svg(f).unwrap()).unwrap();
        let frames = |s: &str| -> Vec<String> {
            s.match_indices("data-x=\"")
                .map(|(i, _)| s[i..i + s[i..].find("\" ").unwrap()].to_string())
                .collect()
        };
        let side = svg(&f);
        assert_eq!(side.matches(">u [m]</text>").count(), 2);
        assert_ne!(frames(&side)[0], frames(&side)[1]);
        f.rows = 2;
        f.cols = 1;
        let stacked = svg(&f);
        assert_eq!(
            stacked.matches(">u [m]</text>").count(),
            1,
            "one x label, at the bottom"
        );
        assert_eq!(frames(&stacked)[0], frames(&stacked)[1], "one x range");
        // A record 25 times longer below keeps both readable: each panel its own range and label.
        f.panels[1].series[0].x = f.panels[1].series[0].x.iter().map(|v| v * 25.0).collect();
        let apart = svg(&f);
        assert_eq!(apart.matches(">u [m]</text>").count(), 2);
        assert_ne!(frames(&apart)[0], frames(&apart)[1]);
    }

    #[test]
    fn log_floors_cut_dips_through_zero_not_data() {
        // A smooth decay: every value shown.
        let smooth: Vec<f64> = (0..1000).map(|i| 10f64.powf(-(i as f64) / 250.0)).collect();
        assert_eq!(log_floor([smooth.as_slice()].into_iter()), Some(smooth[999].log10()));
        // |sin| through zero: the few samples near the zeros are cut a decade below the 2nd
        // percentile, not at 1e-16.
        let dips: Vec<f64> = (0..1000).map(|i| (i as f64 * 0.0314159).sin().abs()).collect();
        let f = log_floor([dips.as_slice()].into_iter()).unwrap();
        assert!(f > -3.5 && f < -1.0, "{f}");
    }

    /// Every log tick label equals the decade it stands at (they read 1e-2, 1e-2, 1e-2, 1e-3
    /// when fractional exponents were printed with `{:.0}`).
    #[test]
    fn log_ticks_are_decades_labelled_as_powers_of_ten() {
        let (major, minor) = ticks(-6.3, -1.7, Scale::Log, 10);
        assert_eq!(major, vec![-6.0, -5.0, -4.0, -3.0, -2.0]);
        let labels: Vec<String> = major.iter().map(|v| decade_label(*v)).collect();
        assert_eq!(labels, ["10⁻⁶", "10⁻⁵", "10⁻⁴", "10⁻³", "10⁻²"]);
        for v in &major {
            let k: i64 = decade_label(*v)[2..]
                .chars()
                .map(|c| match c {
                    '⁻' => '-',
                    c => char::from_digit("⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|d| d == c).unwrap() as u32, 10).unwrap(),
                })
                .collect::<String>()
                .parse()
                .unwrap();
            assert_eq!(
                10f64.powi(k as i32),
                10f64.powf(*v),
                "label {} at {v}",
                decade_label(*v)
            );
        }
        // Minor ticks at 2..9 times each decade, inside the range.
        let (lo, hi) = (10f64.powf(-6.3), 10f64.powf(-1.7));
        let expected: Vec<f64> = (-7..=-2)
            .flat_map(|k| (2..10).map(move |m| m as f64 * 10f64.powi(k)))
            .filter(|x| (lo..=hi).contains(x))
            .collect();
        assert_eq!(minor.len(), expected.len());
        for (v, x) in minor.iter().zip(&expected) {
            assert!((10f64.powf(*v) / x - 1.0).abs() < 1e-12, "{v} vs {x}");
        }
        // Less than a decade: the minor ticks are labelled.
        let (major, _) = ticks(2f64.log10(), 8f64.log10() + 0.01, Scale::Log, 10);
        let labels: Vec<String> = major.iter().map(|v| decade_label(*v)).collect();
        assert_eq!(labels, ["2·10⁰", "3·10⁰", "4·10⁰", "5·10⁰", "6·10⁰", "7·10⁰", "8·10⁰"]);
    }

    #[test]
    fn renders_deterministically() {
        let a = render_png(&fig()).unwrap();
        let b = render_png(&fig()).unwrap();
        assert_eq!(a, b);
        assert_eq!(&a[1..4], b"PNG");
        let s = String::from_utf8(render_svg(&fig()).unwrap()).unwrap();
        assert!(s.starts_with("<svg") && s.contains("u [m]"));
    }

    /// Dark pixels of a PNG (RGB, 8 bit).
    fn dark_pixels(png_bytes: &[u8]) -> usize {
        let mut dec = png::Decoder::new(std::io::Cursor::new(png_bytes)).read_info().unwrap();
        let mut buf = vec![0; dec.output_buffer_size()];
        let info = dec.next_frame(&mut buf).unwrap();
        buf[..info.buffer_size()]
            .chunks_exact(3)
            .filter(|p| p.iter().all(|&c| c < 100))
            .count()
    }

    fn one_series(x: Vec<f64>, y: Vec<f64>) -> FigureData {
        let mut f = fig();
        f.cols = 1;
        f.panels.truncate(1);
        f.panels[0].legend = LegendPos::None;
        f.panels[0].x.range = Some([-6.0, 6.0]);
        f.panels[0].y.range = Some([-2.0, 2.0]);
        f.panels[0].series = vec![SeriesData {
            x,
            y,
            y2: None,
            style: Style::Solid,
            label: None,
            color: None,
            arrows: 0,
        }];
        f
    }

    /// A series that runs back over itself (a reversal stroke, thesis Fig 1.11(a) at u = ±5) is
    /// inked where it runs, whatever it overlaps: plotters' bitmap backend filled a thick
    /// polyline as one polygon, and the parts drawn twice cancelled out.
    #[test]
    fn strokes_that_run_back_over_themselves_stay_inked() {
        let up_down = one_series(vec![-5.0, 5.0, 5.0, 5.0, -5.0], vec![-1.5, -1.5, 1.5, -1.5, -1.5]);
        let up_only = one_series(vec![-5.0, 5.0, 5.0], vec![-1.5, -1.5, 1.5]);
        let (a, b) = (
            dark_pixels(&render_png(&up_down).unwrap()),
            dark_pixels(&render_png(&up_only).unwrap()),
        );
        assert!(
            a as f64 >= 0.97 * b as f64,
            "{a} dark pixels with the stroke drawn back, {b} without"
        );
    }
}
