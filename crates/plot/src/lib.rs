//! Rendering of figures to SVG bytes with plotters, and of that SVG to PNG with resvg
//! (anti-aliased, at [`PNG_SCALE`] pixels per SVG pixel), using a bundled font (DejaVu Sans,
//! `assets/`), so no system font library is needed. The SVG is the master: the PNG is its picture.
//!
//! This crate owns drawing only: it receives panels with their data already selected and
//! returns bytes. It does no file I/O (the pipeline writes atomically) and knows nothing about
//! runs, caching or physics.

use fric_manifest::{LegendPos, Scale, Style};
use plotters::coord::Shift;
use plotters::prelude::*;
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
}

#[derive(Clone, Debug)]
pub struct AxisSpec {
    pub label: String,
    pub scale: Scale,
    pub range: Option<[f64; 2]>,
}

#[derive(Clone, Debug)]
pub struct PanelData {
    pub title: Option<String>,
    pub x: AxisSpec,
    pub y: AxisSpec,
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
/// palette that series without a colour take in turn.
pub const COLORS: &[(&str, (u8, u8, u8))] = &[
    ("black", (0, 0, 0)),
    ("blue", (31, 119, 180)),
    ("red", (214, 39, 40)),
    ("green", (44, 160, 44)),
    ("orange", (255, 127, 14)),
    ("purple", (148, 103, 189)),
    ("brown", (140, 86, 75)),
    ("gray", (127, 127, 127)),
    ("lightgray", (200, 200, 200)),
];

/// The palette's colours by name, in palette order (series without a colour take them in turn).
pub const PALETTE_NAMES: &[&str] = &["black", "blue", "red", "green", "orange", "purple", "brown", "gray"];

/// Color names accepted in manifests.
pub const COLOR_NAMES: &[&str] = &[
    "black",
    "blue",
    "red",
    "green",
    "orange",
    "purple",
    "brown",
    "gray",
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

fn named_color(name: &str) -> Option<RGBColor> {
    color_rgb(name).map(|(r, g, b)| RGBColor(r, g, b))
}

pub fn is_known_color(name: &str) -> bool {
    named_color(name).is_some()
}

fn tf(scale: Scale, v: f64) -> f64 {
    match scale {
        Scale::Log => {
            if v > 0.0 {
                v.log10()
            } else {
                f64::NAN
            }
        }
        _ => v,
    }
}

fn auto_range(vals: impl Iterator<Item = f64>, fixed: Option<[f64; 2]>, scale: Scale) -> (f64, f64) {
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

fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &PanelData) -> Result<(), DrawErr> {
    let xs = p.series.iter().flat_map(|s| s.x.iter().copied());
    let ys = p
        .series
        .iter()
        .flat_map(|s| s.y.iter().copied().chain(s.y2.iter().flatten().copied()));
    let (x0, x1) = auto_range(xs, p.x.range, p.x.scale);
    let (y0, y1) = auto_range(ys, p.y.range, p.y.scale);
    let mut b = ChartBuilder::on(area);
    b.margin(12 * K).x_label_area_size(48 * K).y_label_area_size(64 * K);
    if let Some(t) = &p.title {
        b.caption(t, ("sans-serif", 20 * K));
    }
    let ((bx, lx), (by, ly)) = (ticks(x0, x1, p.x.scale), ticks(y0, y1, p.y.scale));
    let mut chart = b
        .build_cartesian_2d(Ticked::new(x0..x1, bx, lx), Ticked::new(y0..y1, by, ly))
        .map_err(|e| e.to_string())?;
    let (sx, sy) = (x0.abs().max(x1.abs()), y0.abs().max(y1.abs()));
    let fmt_x = |v: &f64| match p.x.scale {
        Scale::Log => decade_label(*v),
        _ => format_tick(*v, sx),
    };
    let fmt_y = |v: &f64| match p.y.scale {
        Scale::Log => decade_label(*v),
        _ => format_tick(*v, sy),
    };
    chart
        .configure_mesh()
        .x_desc(p.x.label.as_str())
        .y_desc(p.y.label.as_str())
        .x_label_formatter(&fmt_x)
        .y_label_formatter(&fmt_y)
        .label_style(("sans-serif", 14 * K))
        .axis_desc_style(("sans-serif", 16 * K))
        .axis_style(BLACK.stroke_width(K))
        .light_line_style(RGBColor(235, 235, 235).stroke_width(K))
        .bold_line_style(RGBColor(215, 215, 215).stroke_width(K))
        .draw()
        .map_err(|e| e.to_string())?;
    let mut any_label = false;
    for (i, s) in p.series.iter().enumerate() {
        let color = named_color(series_color(i, s.color.as_deref())).unwrap_or(BLACK);
        let pts: Vec<(f64, f64)> =
            s.x.iter()
                .zip(&s.y)
                .map(|(x, y)| (tf(p.x.scale, *x), tf(p.y.scale, *y)))
                .collect();
        // Split at non-finite points so that gaps stay gaps.
        let segments: Vec<Vec<(f64, f64)>> = pts
            .split(|(x, y)| !(x.is_finite() && y.is_finite()))
            .filter(|s| !s.is_empty())
            .map(|s| s.to_vec())
            .collect();
        let stroke = color.stroke_width(2 * K);
        let label = s.label.clone();
        let mut first = true;
        match s.style {
            Style::Band => {
                let upper = s.y2.as_ref().ok_or("band without y2")?;
                let mut poly: Vec<(f64, f64)> = pts.clone();
                poly.extend(
                    s.x.iter()
                        .zip(upper)
                        .rev()
                        .map(|(x, y)| (tf(p.x.scale, *x), tf(p.y.scale, *y))),
                );
                let fill = color.mix(0.25).filled();
                let a = chart
                    .draw_series(std::iter::once(Polygon::new(poly, fill)))
                    .map_err(|e| e.to_string())?;
                any_label |= annotate(a, &label, s.style, color);
            }
            Style::Points => {
                let a = chart
                    .draw_series(
                        pts.iter()
                            .filter(|(x, y)| x.is_finite() && y.is_finite())
                            .map(|&(x, y)| Circle::new((x, y), 3 * K, color.filled())),
                    )
                    .map_err(|e| e.to_string())?;
                any_label |= annotate(a, &label, s.style, color);
            }
            Style::Solid | Style::Dashed | Style::Dotted => {
                for seg in segments {
                    let a = match s.style {
                        Style::Solid => chart.draw_series(LineSeries::new(seg, stroke)),
                        Style::Dashed => chart.draw_series(DashedLineSeries::new(seg, 10 * K, 6 * K, stroke)),
                        _ => chart.draw_series(DashedLineSeries::new(seg, 2 * K, 4 * K, stroke)),
                    }
                    .map_err(|e| e.to_string())?;
                    if first {
                        any_label |= annotate(a, &label, s.style, color);
                        first = false;
                    }
                }
            }
        }
    }
    if any_label && p.legend != LegendPos::None {
        let pos = match p.legend {
            LegendPos::UpperLeft => SeriesLabelPosition::UpperLeft,
            LegendPos::LowerLeft => SeriesLabelPosition::LowerLeft,
            LegendPos::LowerRight => SeriesLabelPosition::LowerRight,
            _ => SeriesLabelPosition::UpperRight,
        };
        chart
            .configure_series_labels()
            .position(pos)
            .label_font(("sans-serif", 14 * K))
            .margin(10 * K)
            .legend_area_size(30 * K)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160).stroke_width(K))
            .draw()
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A linear f64 coordinate with the tick positions given (see [`ticks`]); labels come from the
/// mesh's formatters.
struct Ticked {
    inner: plotters::coord::types::RangedCoordf64,
    major: Vec<f64>,
    minor: Vec<f64>,
}

impl Ticked {
    fn new(r: std::ops::Range<f64>, major: Vec<f64>, minor: Vec<f64>) -> Self {
        Self {
            inner: r.into(),
            major,
            minor,
        }
    }
}

impl plotters::coord::ranged1d::Ranged for Ticked {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(v, limit)
    }
    fn key_points<Hint: plotters::coord::ranged1d::KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.minor.clone()
        } else {
            self.major.clone()
        }
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

/// Major (labelled) and minor tick positions of an axis over `[lo, hi]` in plotting coordinates
/// (log10 of the value on a log axis). Linear: plotters' nice numbers, no minor ticks (a light
/// major grid only). Log: every decade `10^k` labelled, minor ticks at `2…9·10^k`; an axis that
/// spans no whole decade labels its minor ticks instead.
fn ticks(lo: f64, hi: f64, scale: Scale) -> (Vec<f64>, Vec<f64>) {
    use plotters::coord::ranged1d::Ranged;
    if scale != Scale::Log {
        return (
            plotters::coord::types::RangedCoordf64::from(lo..hi).key_points(10usize),
            vec![],
        );
    }
    let decades: Vec<f64> = ((lo.ceil() as i64)..=(hi.floor() as i64)).map(|k| k as f64).collect();
    let minor: Vec<f64> = ((lo.floor() as i64)..=(hi.floor() as i64))
        .flat_map(|k| (2..10).map(move |m| k as f64 + (m as f64).log10()))
        .filter(|v| (lo..=hi).contains(v))
        .collect();
    if decades.is_empty() {
        (minor, vec![])
    } else {
        (decades, minor)
    }
}

/// The label of a log-axis tick at `v = log10(value)`: `10⁻²` at a decade, `2·10⁻³` between.
fn decade_label(v: f64) -> String {
    let sup = |k: i64| -> String {
        k.to_string()
            .chars()
            .map(|c| match c {
                '-' => '⁻',
                d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d.to_digit(10).unwrap_or(0) as usize],
            })
            .collect()
    };
    let k = v.floor();
    let m = 10f64.powf(v - k);
    if (v - v.round()).abs() < 1e-9 {
        format!("10{}", sup(v.round() as i64))
    } else {
        format!("{}·10{}", m.round(), sup(k as i64))
    }
}

/// Give a series its legend entry (label and sample) if it has a label; true if it has.
fn annotate<'a, DB: DrawingBackend + 'a>(
    anno: &mut plotters::chart::SeriesAnno<'a, DB>,
    label: &Option<String>,
    style: Style,
    c: RGBColor,
) -> bool {
    let Some(l) = label else { return false };
    anno.label(l.as_str())
        .legend(move |at| LegendSample { style, color: c, at });
    true
}

/// The legend's sample of a series, in the series' own style: a line, a dashed or dotted line
/// (the series' dash pattern), a marker, or a filled band.
struct LegendSample {
    style: Style,
    color: RGBColor,
    at: (i32, i32),
}

impl<'a> plotters::element::PointCollection<'a, (i32, i32)> for &'a LegendSample {
    type Point = &'a (i32, i32);
    type IntoIter = std::iter::Once<&'a (i32, i32)>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<DB: DrawingBackend> plotters::element::Drawable<DB> for LegendSample {
    fn draw<I: Iterator<Item = (i32, i32)>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), plotters_backend::DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = pos.next() else { return Ok(()) };
        let (k, stroke) = (K as i32, self.color.stroke_width(2 * K));
        let mut dashes = |on: i32, off: i32| {
            let mut a = 0;
            while a < 20 * k {
                backend.draw_line((x + a, y), (x + (a + on).min(20 * k), y), &stroke)?;
                a += on + off;
            }
            Ok(())
        };
        match self.style {
            Style::Solid => dashes(20 * k, 0),
            Style::Dashed => dashes(10 * k, 6 * k),
            Style::Dotted => dashes(2 * k, 4 * k),
            Style::Points => backend.draw_circle((x + 10 * k, y), 3 * K, &self.color.filled(), true),
            Style::Band => backend.draw_rect(
                (x, y - 4 * k),
                (x + 20 * k, y + 4 * k),
                &self.color.mix(0.25).filled(),
                true,
            ),
        }
    }
}

/// Tick labels: short, without trailing zeros, scientific for very large or small values;
/// rounding noise around zero (relative to the axis `scale`) prints as 0.
fn format_tick(v: f64, scale: f64) -> String {
    if v == 0.0 || v.abs() < 1e-9 * scale {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        return format!("{v:.1e}");
    }
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

fn draw_figure<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, fig: &FigureData) -> Result<(), DrawErr> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let areas = root.split_evenly((fig.rows.max(1), fig.cols.max(1)));
    for (p, a) in fig.panels.iter().zip(areas.iter()) {
        draw_panel(a, p)?;
    }
    root.present().map_err(|e| e.to_string())
}

fn size(fig: &FigureData) -> (u32, u32) {
    (
        fig.panel_width * fig.cols.max(1) as u32,
        fig.panel_height * fig.rows.max(1) as u32,
    )
}

/// Drawing units per SVG pixel. plotters places everything on an integer grid; drawing on a grid
/// `K` times finer and declaring the SVG at the published size (a `viewBox` `K` times larger)
/// puts coordinates on quarter pixels, so smooth curves do not print as staircases.
const K: u32 = 4;

/// Render to SVG text, `size(fig)` pixels wide and high.
pub fn render_svg(fig: &FigureData) -> Result<Vec<u8>, DrawErr> {
    register_font();
    let (w, h) = size(fig);
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (w * K, h * K)).into_drawing_area();
        draw_figure(root, fig)?;
    }
    let fine = format!(r#"<svg width="{}" height="{}" viewBox"#, w * K, h * K);
    let shown = format!(r#"<svg width="{w}" height="{h}" viewBox"#);
    if !s.starts_with(&fine) {
        return Err("unexpected SVG header from plotters".into());
    }
    Ok(s.replacen(&fine, &shown, 1).into_bytes())
}

/// Pixels of the PNG per SVG pixel. A 640-pixel panel is then 1280 pixels wide: 366 dpi at the
/// published width of about 3.5 in.
pub const PNG_SCALE: f32 = 2.0;

/// The font database for rasterising: the bundled font only, as every generic family.
fn fontdb() -> std::sync::Arc<resvg::usvg::fontdb::Database> {
    static DB: std::sync::OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> = std::sync::OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        let family = db
            .faces()
            .next()
            .and_then(|f| f.families.first().map(|(name, _)| name.clone()))
            .unwrap_or_else(|| "DejaVu Sans".into());
        db.set_sans_serif_family(family.clone());
        db.set_serif_family(family.clone());
        db.set_monospace_family(family);
        std::sync::Arc::new(db)
    })
    .clone()
}

/// Rasterise SVG bytes to PNG at [`PNG_SCALE`], anti-aliased, on white (resvg/tiny-skia: every
/// stroke is stroked as drawn in the SVG, so no overlapping part of a path cancels another).
pub fn rasterize(svg: &[u8]) -> Result<Vec<u8>, DrawErr> {
    let opt = resvg::usvg::Options {
        fontdb: fontdb(),
        font_family: "sans-serif".into(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_data(svg, &opt).map_err(|e| format!("svg: {e}"))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * PNG_SCALE).ceil() as u32,
        (size.height() * PNG_SCALE).ceil() as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w.max(1), h.max(1)).ok_or("pixmap allocation failed")?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE),
        &mut pixmap.as_mut(),
    );
    // Opaque RGB with fixed encoder settings, so the bytes are deterministic.
    let rgb: Vec<u8> = pixmap.data().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w.max(1), h.max(1));
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Default);
        let mut wr = enc.write_header().map_err(|e| e.to_string())?;
        wr.write_image_data(&rgb).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Render to PNG bytes: the SVG rasterised (see [`rasterize`]).
pub fn render_png(fig: &FigureData) -> Result<Vec<u8>, DrawErr> {
    rasterize(&render_svg(fig)?)
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    title: Some("(a)".into()),
                    x: AxisSpec {
                        label: "u [m]".into(),
                        scale: Scale::Linear,
                        range: None,
                    },
                    y: AxisSpec {
                        label: "F [N]".into(),
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
                    }],
                },
                PanelData {
                    title: None,
                    x: AxisSpec {
                        label: "v".into(),
                        scale: Scale::Log,
                        range: None,
                    },
                    y: AxisSpec {
                        label: "y".into(),
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
                    }],
                },
            ],
        }
    }

    /// Every log tick label equals the decade it stands at (they read 1e-2, 1e-2, 1e-2, 1e-3
    /// when fractional exponents were printed with `{:.0}`).
    #[test]
    fn log_ticks_are_decades_labelled_as_powers_of_ten() {
        let (major, minor) = ticks(-6.3, -1.7, Scale::Log);
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
        let (major, _) = ticks(2f64.log10(), 8f64.log10() + 0.01, Scale::Log);
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
