//! One panel: its chart (plotters draws the axes, ticks, grid and labels), its legend plan,
//! and the data layer this crate writes over it.

use crate::inset::{self, InsetLayer};
use crate::labels;
use crate::legend::{self, Entry, Legend};
use crate::ranges::{ranges, Ranges, Shared};
use crate::series::{self, Frame, Mapped};
use crate::ticks::{labelled, scaled_label, ticks, Ticked};
use crate::{colors, math, DrawErr, PanelData, SeriesData};
use crate::{DESC_SIZE, K, LABEL_SIZE, RIGHT_MARGIN, TITLE_GAP, TITLE_SIZE, X_AREA, Y_AREA};
use fric_manifest::{Inset, LegendPos};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, Ticked>>;

/// At most how many labelled ticks fit along the x and y axes of a panel drawn in `area`: one per
/// 90 px across (room for a 6-character label at 8 pt), one per 55 px up.
pub(crate) fn max_ticks<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>) -> (usize, usize) {
    let (w, h) = area.dim_in_pixel();
    ((w / K / 90) as usize, (h / K / 55) as usize)
}

/// The title's font size: `TITLE_SIZE`, or smaller so that a long title fits the panel's width
/// (a title wider than its panel would be cut at both edges).
pub(crate) fn title_size<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, title: &str) -> u32 {
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
pub(crate) fn build_chart<'a, DB: DrawingBackend>(
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
    // A superscript rises above the title's line box: room for it, or it is cut at the top.
    let top = if p.title.as_ref().is_some_and(|t| t.contains('^')) {
        17
    } else {
        12
    } * K;
    let left = left_margin(p, r);
    let top = match &title {
        Some((_, _, h)) => top + h + TITLE_GAP * K,
        None => top.max(top_label_room(area, p, r, top, reserve, x_labels)),
    };
    let mut b = ChartBuilder::on(area);
    b.margin(12 * K)
        .margin_left(left)
        .margin_top(top)
        .margin_right(right_margin(area, p, r))
        .margin_bottom(12 * K + reserve)
        .x_label_area_size(if x_labels { X_AREA } else { 8 } * K)
        .y_label_area_size(y_area(area, p, r));
    if let Some((t, style, _)) = &title {
        let centre = (area.dim_in_pixel().0 / 2) as i32;
        let style = style.pos(Pos::new(HPos::Center, VPos::Top));
        let line = if p.title.as_ref().is_some_and(|t| t.contains('^')) {
            17
        } else {
            12
        } * K;
        area.draw(&Text::new(t.as_str(), (centre, line as i32), style))
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

/// The y tick label's line box above its tick, in ems of the label's font: DejaVu Sans' ascender
/// (0.928 em) less plotters' centring shift (`dy` 0.5ex, half an em as usvg lays it out).
const LABEL_RISE: f64 = 0.928 - 0.25;

/// The margin (drawing units) above the axes of a panel without a title that the top labelled
/// y tick's label needs, centred on its tick, to stay `2K` inside the figure (duhem-paper
/// Fig 26, thesis Fig 1.4: a tick at the top of the range had its label cut by the figure's top
/// edge); 0 when that tick lies far enough below the top. `top` is the default margin, with
/// which the axes' height is estimated.
fn top_label_room<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &PanelData,
    r: &Ranges,
    top: u32,
    reserve: u32,
    x_labels: bool,
) -> u32 {
    let em = (LABEL_SIZE * K) as f64 / 1.24;
    let need = LABEL_RISE * em + (2 * K) as f64;
    let (lo, hi) = r.y;
    let Some(f) = axis_ticks(area, p, r)
        .1
        .iter()
        .filter(|(_, l)| !l.is_empty())
        .map(|(v, _)| (v - lo) / (hi - lo))
        .filter(|f| f.is_finite())
        .reduce(f64::max)
    else {
        return 0;
    };
    let below = if x_labels { X_AREA } else { 8 } * K + 12 * K + reserve + top;
    let axes = (area.dim_in_pixel().1 as f64 - below as f64).max(0.0);
    (need - (1.0 - f) * axes).ceil().max(0.0) as u32
}

/// The labelled ticks of a panel drawn in `area` with ranges `r`: (position in plotting
/// coordinates, label) along x and along y, each axis' labels in one format.
pub(crate) type AxisTicks = (crate::TickLabels, crate::TickLabels);

/// The labelled ticks of panel `p` drawn in `area` with ranges `r` (see [`AxisTicks`]).
fn axis_ticks<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &PanelData, r: &Ranges) -> AxisTicks {
    let (mx, my) = max_ticks(area);
    let (fx, fy) = (10f64.powi(-r.powers.0), 10f64.powi(-r.powers.1));
    (
        labelled(&ticks(r.x.0, r.x.1, p.x.scale, mx).0, p.x.scale, fx),
        labelled(&ticks(r.y.0, r.y.1, p.y.scale, my).0, p.y.scale, fy),
    )
}

/// The tick labels with the one of the two at the frame's lower-left corner dropped when the
/// lowest y tick label (right-aligned `2 × 5K` left of the axis, centred on its tick) and the
/// first x tick label (centred on its tick, its top `2 × 5K` below the axis, as plotters places
/// them) would come within `2K` of each other: thesis Fig 1.3's "−1.5" and "−1" overlapped by
/// 3 px. The label dropped is the y axis' unless the x axis has more labels; its tick stays.
fn clear_corner<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    frame: &Frame,
    mut labels: AxisTicks,
    x_labels: bool,
) -> AxisTicks {
    let font = TextStyle::from(("sans-serif", LABEL_SIZE * K));
    let size = |l: &str| {
        area.estimate_text_size(l, &font)
            .map_or((0.0, 0.0), |(w, h)| (w as f64, h as f64))
    };
    // Drawing positions along each axis (tick positions are plotting coordinates, as the
    // frame's ranges).
    let px = |u: f64| {
        u.is_finite()
            .then(|| frame.left + (u - frame.x.0) / (frame.x.1 - frame.x.0) * (frame.right - frame.left))
    };
    let py = |u: f64| {
        u.is_finite()
            .then(|| frame.bottom - (u - frame.y.0) / (frame.y.1 - frame.y.0) * (frame.bottom - frame.top))
    };
    // The labelled tick drawn leftmost along x, lowest along y.
    let first = |t: &crate::TickLabels, at: &dyn Fn(f64) -> Option<f64>, sign: f64| {
        t.iter()
            .enumerate()
            .filter(|(_, (_, l))| !l.is_empty())
            .filter_map(|(i, (v, _))| at(*v).map(|p| (i, p)))
            .min_by(|a, b| (sign * a.1).total_cmp(&(sign * b.1)))
    };
    let (fx, fy) = (frame.left, frame.bottom);
    let x_first = first(&labels.0, &px, 1.0);
    let y_lowest = first(&labels.1, &py, -1.0);
    let (Some((xi, xp)), Some((yi, yp)), true) = (x_first, y_lowest, x_labels) else {
        return labels;
    };
    let (clear, dist) = ((2 * K) as f64, (10 * K) as f64);
    let ((xw, _), (yw, yh)) = (size(&labels.0[xi].1), size(&labels.1[yi].1));
    let y_box = [fx - dist - yw, yp - yh / 2.0, fx - dist, yp + yh / 2.0];
    let x_top = fy + dist;
    let x_left = xp - xw / 2.0;
    if x_left < y_box[2] + clear && y_box[3] + clear > x_top {
        let count = |t: &crate::TickLabels| t.iter().filter(|(_, l)| !l.is_empty()).count();
        if count(&labels.0) > count(&labels.1) {
            labels.0[xi].1.clear();
        } else {
            labels.1[yi].1.clear();
        }
    }
    labels
}

/// The label of the tick at `v` among `labels` (the position plotters passes back is one of
/// them; the nearest is taken).
fn label_at(labels: &[(f64, String)], v: f64) -> String {
    labels
        .iter()
        .min_by(|a, b| (a.0 - v).abs().total_cmp(&(b.0 - v).abs()))
        .map_or_else(String::new, |(_, l)| l.clone())
}

/// Width (drawing units) of the area left of the axes: the default, or more when the widest y
/// tick label, the tick marks and the rotated axis label would not fit side by side in it (an
/// axis label printed over long tick labels, report Figs 3.8 and 3.9).
fn y_area<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &PanelData, r: &Ranges) -> u32 {
    let font = TextStyle::from(("sans-serif", LABEL_SIZE * K));
    let widest = axis_ticks(area, p, r)
        .1
        .iter()
        .filter_map(|(_, l)| area.estimate_text_size(l, &font).ok())
        .map(|(w, _)| w)
        .max()
        .unwrap_or(0);
    let desc = area
        .estimate_text_size("Ay", &TextStyle::from(("sans-serif", DESC_SIZE * K)))
        .map_or(0, |(_, h)| h);
    // Tick mark, gaps either side of the tick labels, and the axis label with its margin.
    let need = widest + desc + (5 + 10 + 14) * K;
    need.max(Y_AREA * K)
}

/// Width (drawing units) left of the y label area: room for a superscript in a rotated y label
/// (`[10^{3}]`), which rises left of its line box.
fn left_margin(p: &PanelData, r: &Ranges) -> u32 {
    if scaled_label(&p.y.label, p.y.unit.as_deref(), r.powers.1).contains('^') {
        17 * K
    } else {
        12 * K
    }
}

/// Width (drawing units) right of the axes: `RIGHT_MARGIN`, or more when the x tick label
/// nearest the right edge, centred on its tick, would reach beyond it (report Fig 3.15's
/// "0.016" at the end of its axis was cut). Computed also where the labels are not drawn, so
/// stacked panels sharing an x axis keep aligned frames.
fn right_margin<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &PanelData, r: &Ranges) -> u32 {
    let base = RIGHT_MARGIN * K;
    let ticks = axis_ticks(area, p, r).0;
    let Some((v, l)) = ticks.last().filter(|_| r.x.1 > r.x.0) else {
        return base;
    };
    let font = TextStyle::from(("sans-serif", LABEL_SIZE * K));
    let w = area.estimate_text_size(l, &font).map_or(0, |(w, _)| w) as f64;
    // The axes' width as laid out with the default margin (the left side is fixed first).
    let axes = area.dim_in_pixel().0 as f64 - (y_area(area, p, r) + base + left_margin(p, r)) as f64;
    let to_edge = (r.x.1 - v) / (r.x.1 - r.x.0) * axes.max(0.0);
    let over = w / 2.0 - to_edge + (2 * K) as f64;
    (over.ceil().max(0.0) as u32).max(base)
}

pub(crate) fn frame_of<DB: DrawingBackend>(chart: &Chart<DB>, p: &PanelData, r: &Ranges, offset: (i32, i32)) -> Frame {
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
pub(crate) fn map_all(frame: &Frame, p: &PanelData, coincident: &[(usize, usize)]) -> Vec<Mapped> {
    let mut m: Vec<Mapped> = p
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut m = series::map_series(frame, &s.x, &s.y, s.y2.as_deref(), s.style, color_of(s, i));
            m.arrows = s.arrows;
            m.marker_size = s.marker_size;
            m.point_labels = s.point_labels.clone();
            m
        })
        .collect();
    for &(i, j) in coincident {
        m[i].under = true;
        m[i].faded = m[i].color == m[j].color;
        // The covered curve keeps its declared arrowheads (thesis 2.11 dropped its four) unless
        // the curve on top draws its own, at the same places.
        if m[j].arrows > 0 {
            m[i].arrows = 0;
        }
    }
    m
}

/// What plotters drew of a panel, and the data layer this crate writes over it.
pub(crate) struct PanelLayer {
    pub frame: Frame,
    pub series: Vec<Mapped>,
    pub legend: Option<Legend>,
    /// Minor tick positions (plotting coordinates) of the x and y axes.
    pub minor: (Vec<f64>, Vec<f64>),
    pub insets: Vec<InsetLayer>,
    /// The labelled ticks as drawn (empty labels along an x axis drawn without them).
    pub ticks: AxisTicks,
    /// Each series against a coincident one (see [`crate::Coincidence`]).
    pub coincidence: Vec<crate::Coincidence>,
}

/// Series `i` of `p` against the coincident pairs (under, on top) the panel found.
fn coincidence(p: &PanelData, coincident: &[(usize, usize)], i: usize) -> crate::Coincidence {
    let color = |k: usize| color_of(&p.series[k], k);
    crate::Coincidence {
        under: coincident.iter().any(|&(u, _)| u == i),
        faded: coincident.iter().any(|&(u, j)| u == i && color(u) == color(j)),
        // Said in the legend: the series drawn on top coincides with the one under it at this
        // panel's scale (a zoom in another panel may separate them).
        noted: coincident
            .iter()
            .find(|&&(_, j)| j == i)
            .is_some_and(|&(u, _)| p.series[u].label.is_some()),
    }
}

/// The panel's insets laid out on its frame, labelled in the panel's units.
fn insets_of(frame: &Frame, p: &PanelData, r: &Ranges) -> Vec<InsetLayer> {
    let (kx, ky) = r.powers;
    let colors: Vec<(u8, u8, u8)> = p.series.iter().enumerate().map(|(i, s)| color_of(s, i)).collect();
    let factors = (10f64.powi(-kx), 10f64.powi(-ky));
    let mut out: Vec<InsetLayer> = Vec::with_capacity(p.insets.len());
    for (k, spec) in p.insets.iter().enumerate() {
        // A region inside an earlier inset's region is framed on that inset.
        let holds = |h: &Inset| {
            let within =
                |a: [f64; 2], b: [f64; 2]| a[0].min(a[1]) <= b[0].min(b[1]) && b[0].max(b[1]) <= a[0].max(a[1]);
            within(h.x, spec.x) && within(h.y, spec.y)
        };
        let host = p.insets[..k].iter().position(holds).map(|j| out[j].frame);
        out.push(inset::layout(frame, p, spec, factors, &colors, host.as_ref()));
    }
    out
}

/// Where a panel's legend goes, decided before drawing: inside the axes (its box relative to
/// the panel's origin) or below them (the entries and the height they need).
/// A panel's legend plan and its coincident series pairs.
pub(crate) type Plan = (LegendPlan, Vec<(usize, usize)>);

pub(crate) enum LegendPlan {
    None,
    Inside(Legend),
    Below(Vec<Entry>, f64),
}

/// A panel's plotting ranges, widened to equal aspect when the panel asks for it (the frame's
/// size does not depend on the ranges, so it is measured on a first chart).
fn panel_ranges<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &PanelData,
    shared: Option<Shared>,
    powers: (i32, i32),
    reserve: u32,
    labels: bool,
) -> Result<Ranges, DrawErr> {
    let mut r = ranges(p, shared);
    r.powers = powers;
    if p.equal_aspect {
        // Measured on a scratch drawing the area's size: `build_chart` draws the title.
        let mut scratch = String::new();
        let sa = SVGBackend::with_string(&mut scratch, area.dim_in_pixel()).into_drawing_area();
        let f = frame_of(&build_chart(&sa, p, &r, reserve, labels)?, p, &r, (0, 0));
        r.equalize(f.right - f.left, f.bottom - f.top, (p.x.scale, p.y.scale));
    }
    Ok(r)
}

/// Plan a panel's legend on a scratch backend the panel's size, with nothing reserved below the
/// axes: the preferred corner if it covers no data, else another empty corner, else below.
pub(crate) fn plan_legend(
    p: &PanelData,
    w: u32,
    h: u32,
    shared: Option<Shared>,
    powers: (i32, i32),
) -> Result<(LegendPlan, Vec<(usize, usize)>), DrawErr> {
    let mut scratch = String::new();
    let area = SVGBackend::with_string(&mut scratch, (w * K, h * K)).into_drawing_area();
    let font: TextStyle = ("sans-serif", LABEL_SIZE * K).into();
    let labels = shared.is_none_or(|s| s.labels);
    let r = panel_ranges(&area, p, shared, powers, 0, labels)?;
    let frame = frame_of(&build_chart(&area, p, &r, 0, labels)?, p, &r, (0, 0));
    // Mapped once: placement reads the series' ink, which does not depend on `under`.
    let mut mapped = map_all(&frame, p, &[]);
    let coincident = series::coincident(&mapped);
    // Insets and their connectors are ink to the legend.
    mapped.extend(insets_of(&frame, p, &r).iter().flat_map(inset::obstacles));
    let entries: Vec<Entry> = p
        .series
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let mut label = s.label.clone()?;
            let c = coincidence(p, &coincident, i);
            if c.noted {
                label.push_str(crate::COINCIDES);
            }
            let width = area
                .estimate_text_size(&math::plain(&label), &font)
                .map_or(0.0, |(w, _)| w as f64);
            Some(Entry {
                label,
                style: s.style,
                marker_size: s.marker_size,
                color: color_of(s, i),
                under: c.under,
                faded: c.faded,
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
        match legend::place_inside(&frame, &mapped, entries, preferred) {
            Ok(l) => LegendPlan::Inside(l),
            Err(entries) => {
                let h = legend::below_height(&entries, (w * K) as f64 - 8.0 * series::K);
                LegendPlan::Below(entries, h)
            }
        },
        coincident,
    ))
}

pub(crate) fn color_of(s: &SeriesData, i: usize) -> (u8, u8, u8) {
    s.color
        .as_deref()
        .and_then(colors::named_color)
        .unwrap_or(colors::palette(i))
}

/// Draw a panel's axes with plotters in `area` (the panel's size plus `reserve` drawing units
/// below, kept free for legends below the axes in its row), and lay out its data layer.
pub(crate) fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &PanelData,
    (plan, coincident): Plan,
    reserve: u32,
    shared: Option<Shared>,
    powers: (i32, i32),
) -> Result<PanelLayer, DrawErr> {
    let x_labels = shared.is_none_or(|s| s.labels);
    let r = panel_ranges(area, p, shared, powers, reserve, x_labels)?;
    let (_, ah) = area.dim_in_pixel();
    let base = area.get_base_pixel();
    let mut chart = build_chart(area, p, &r, reserve, x_labels)?;
    let frame = frame_of(&chart, p, &r, (0, 0));
    let (kx, ky) = r.powers;
    let labels = clear_corner(area, &frame, axis_ticks(area, p, &r), x_labels);
    let fmt_x = |v: &f64| {
        if x_labels {
            label_at(&labels.0, *v)
        } else {
            String::new()
        }
    };
    let fmt_y = |v: &f64| label_at(&labels.1, *v);
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
    // The legend's box inside the frame (frame coordinates), which a point's label keeps clear of.
    let legend_box = match &plan {
        LegendPlan::Inside(l) => Some(l.rect),
        _ => None,
    };
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
            Some(legend::below(&frame, entries, top, (left, right)))
        }
    };
    let mut series = map_all(&frame, p, &coincident);
    labels::place_all(area, &frame, &mut series, legend_box);
    Ok(PanelLayer {
        coincidence: (0..p.series.len()).map(|i| coincidence(p, &coincident, i)).collect(),
        insets: insets_of(&frame, p, &r),
        series,
        minor: (
            ticks(r.x.0, r.x.1, p.x.scale, max_ticks(area).0).1,
            ticks(r.y.0, r.y.1, p.y.scale, max_ticks(area).1).1,
        ),
        frame,
        legend,
        // An x axis drawn without labels (stacked panels) keeps its ticks, unlabelled.
        ticks: if x_labels {
            labels
        } else {
            (
                labels.0.into_iter().map(|(v, _)| (v, String::new())).collect(),
                labels.1,
            )
        },
    })
}
