//! The data layer of a panel, written as SVG by this crate rather than by plotters: every
//! series as one path with unrounded coordinates (so a dash pattern runs along the whole path),
//! clipped to the axes frame, in its declared style (`style/`), with its arrowheads; the
//! legend is `legend.rs`.
//!
//! Each panel's group carries its geometry as data attributes, which the figure-fidelity test
//! reads to map every exported sample to its pixel:
//! `<g class="fric-panel" data-panel="a" data-frame="left top right bottom"
//!  data-x="linear lo hi" data-y="log lo hi" data-legend="left top right bottom">`, where lo and
//! hi are in plotting coordinates (log10 of the value on a log axis) and lengths are in the
//! SVG's `viewBox` units; each series is a `<g class="fric-series" data-k="1" data-style="solid">`.

use crate::geometry::{clip_lines, thin_columns};
use crate::labels::{self, LabelSide};
use crate::legend::{self, Legend};
use crate::math;
use crate::style::Style;
use crate::style::{self, arrow, Ink, Marker};
use fric_manifest::Scale;

/// Drawing units per SVG pixel (the `viewBox` is this many times the figure's pixel size).
pub(crate) const K: f64 = crate::K as f64;
/// Stroke width of a series, in drawing units.
pub(crate) const STROKE: f64 = 2.0 * K;
/// Font size of legend text, in drawing units (plotters' 14 pt label size).
pub(crate) const LEGEND_FONT: f64 = crate::LABEL_SIZE as f64 * K / 1.24;

/// The axes frame of a panel and the mapping of plotting coordinates onto it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub xs: Scale,
    pub ys: Scale,
}

pub(crate) fn tf(scale: Scale, v: f64) -> f64 {
    match scale {
        Scale::Log if v > 0.0 => v.log10(),
        Scale::Log => f64::NAN,
        _ => v,
    }
}

impl Frame {
    /// The drawing position of a data point, if it has one (finite, and positive on a log axis).
    pub fn map(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        let (u, v) = (tf(self.xs, x), tf(self.ys, y));
        if !(u.is_finite() && v.is_finite()) {
            return None;
        }
        Some((
            self.left + (u - self.x.0) / (self.x.1 - self.x.0) * (self.right - self.left),
            self.bottom - (v - self.y.0) / (self.y.1 - self.y.0) * (self.bottom - self.top),
        ))
    }

    /// The data point at a drawing position (the inverse of [`Frame::map`]).
    pub fn unmap(&self, p: (f64, f64)) -> (f64, f64) {
        let u = self.x.0 + (p.0 - self.left) / (self.right - self.left) * (self.x.1 - self.x.0);
        let v = self.y.0 + (self.bottom - p.1) / (self.bottom - self.top) * (self.y.1 - self.y.0);
        let back = |s: Scale, w: f64| if s == Scale::Log { 10f64.powf(w) } else { w };
        (back(self.xs, u), back(self.ys, v))
    }
}

/// What a series is drawn as, mapped to drawing units.
pub(crate) struct Mapped {
    pub style: Style,
    pub color: (u8, u8, u8),
    /// Polylines (split where a point has no position).
    pub lines: Vec<Vec<(f64, f64)>>,
    /// A band's outline (lower edge forward, upper edge back).
    pub band: Vec<(f64, f64)>,
    /// Drawn wider, under a later series that runs on top of it (its style and colour kept).
    pub under: bool,
    /// Under a coincident series of the same colour: drawn at 40 % opacity, so the one on top
    /// (its dash pattern) stays visible on it.
    pub faded: bool,
    /// Arrowheads along the longest piece, showing the direction of travel.
    pub arrows: u32,
    /// The series' declared marker size in pt (`marker_size`), if any.
    pub marker_size: Option<f64>,
    /// Labels of published points, one per point of `lines` (flattened), if any.
    pub point_labels: Vec<Option<String>>,
    /// Where each label is drawn (`labels.rs`), parallel to `point_labels`; empty until placed
    /// (then above right).
    pub label_sides: Vec<LabelSide>,
}

impl Mapped {
    /// The positions of the series' markers (empty for lines and bands).
    pub fn markers(&self) -> Vec<(f64, f64)> {
        match self.style.ink {
            Ink::Markers(_) => self.lines.iter().flatten().copied().collect(),
            _ => vec![],
        }
    }
}

/// Pairs `(i, j)`, `i < j`: line series `j` runs within about a pixel and a half of series `i`
/// for at least 97 % of its ink and `i` of `j`'s, so drawn on top it would hide `i`. Each `i` is listed once, with the first `j`.
pub(crate) fn coincident(series: &[Mapped]) -> Vec<(usize, usize)> {
    use std::collections::HashSet;
    let cell = K;
    let cells = |s: &Mapped| -> HashSet<(i64, i64)> {
        let mut h = HashSet::new();
        for l in &s.lines {
            for w in l.windows(2) {
                let n = ((w[1].0 - w[0].0).hypot(w[1].1 - w[0].1) / (cell / 2.0))
                    .ceil()
                    .max(1.0) as usize;
                for k in 0..=n {
                    let t = k as f64 / n as f64;
                    let (x, y) = (w[0].0 + t * (w[1].0 - w[0].0), w[0].1 + t * (w[1].1 - w[0].1));
                    h.insert(((x / cell).floor() as i64, (y / cell).floor() as i64));
                }
            }
            if let [p] = l.as_slice() {
                h.insert(((p.0 / cell).floor() as i64, (p.1 / cell).floor() as i64));
            }
        }
        h
    };
    let is_line = |s: &Mapped| s.style.is_line();
    let mut out = Vec::new();
    for i in 0..series.len() {
        if !is_line(&series[i]) || series[i].lines.iter().all(|l| l.len() < 2) {
            continue;
        }
        let under = cells(&series[i]);
        // The share of one ink's cells within a cell of the other's: by ink, not by samples, so
        // a fast jump that one curve makes elsewhere counts for its length.
        let share = |a: &HashSet<(i64, i64)>, b: &HashSet<(i64, i64)>| {
            let near = a
                .iter()
                .filter(|(cx, cy)| (-1..=1).any(|dx| (-1..=1).any(|dy| b.contains(&(cx + dx, cy + dy)))))
                .count();
            near as f64 / a.len().max(1) as f64
        };
        for (j, top) in series.iter().enumerate().skip(i + 1) {
            if !is_line(top) || top.lines.iter().all(|l| l.len() < 2) {
                continue;
            }
            let over = cells(top);
            // Both ways: a curve through a densely inked region is not on top of it.
            if share(&over, &under) >= 0.97 && share(&under, &over) >= 0.97 {
                out.push((i, j));
                break;
            }
        }
    }
    out
}

/// Map a series, dropping points closer than an eighth of a pixel to the previous kept one
/// (invisible at any print size, and it keeps long runs' files small).
pub(crate) fn map_series(
    frame: &Frame,
    x: &[f64],
    y: &[f64],
    y2: Option<&[f64]>,
    style: Style,
    color: (u8, u8, u8),
) -> Mapped {
    let min_step = K / 8.0;
    let markers = style.marker().is_some();
    let mut lines: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for (&a, &b) in x.iter().zip(y) {
        match frame.map(a, b) {
            Some(p) => {
                let far = cur
                    .last()
                    .is_none_or(|q| (p.0 - q.0).abs() > min_step || (p.1 - q.1).abs() > min_step);
                if far || markers {
                    cur.push(p);
                }
            }
            None if !cur.is_empty() => lines.push(std::mem::take(&mut cur)),
            None => {}
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    if style.is_solid() {
        lines = lines.into_iter().map(|l| thin_columns(l, K / 4.0)).collect();
    }
    if !markers {
        let r = [
            frame.left,
            frame.top.min(frame.bottom),
            frame.right,
            frame.top.max(frame.bottom),
        ];
        lines = clip_lines(lines, r);
    }
    let mut band = Vec::new();
    if let (true, Some(y2)) = (style.is_band(), y2) {
        band.extend(x.iter().zip(y).filter_map(|(&a, &b)| frame.map(a, b)));
        let upper: Vec<(f64, f64)> = x.iter().zip(y2).filter_map(|(&a, &b)| frame.map(a, b)).collect();
        band.extend(upper.into_iter().rev());
    }
    Mapped {
        style,
        color,
        lines,
        band,
        under: false,
        faded: false,
        arrows: 0,
        marker_size: None,
        point_labels: vec![],
        label_sides: vec![],
    }
}

pub(crate) fn hex(c: (u8, u8, u8)) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The declared dash pattern of `style` (SVG pixels, see `style/`) stretched by at most a
/// period over the polyline so that it starts and ends with a dash; a polyline shorter than one
/// period is drawn solid.
pub(crate) fn fitted_dash(style: Style, line: &[(f64, f64)]) -> String {
    let dash = style.dash();
    if dash.is_empty() {
        return String::new();
    }
    let (on, period) = (dash[0] * K, dash.iter().sum::<f64>() * K);
    let len: f64 = line.windows(2).map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1)).sum();
    if len <= period {
        return String::new();
    }
    let n = ((len - on) / period).round().max(1.0);
    let s = len / (n * period + on);
    let v: Vec<String> = dash.iter().map(|d| format!("{:.2}", d * K * s)).collect();
    format!(r#" stroke-dasharray="{}""#, v.join(" "))
}

fn scale_name(s: Scale) -> &'static str {
    match s {
        Scale::Log => "log",
        _ => "linear",
    }
}

fn path_d(line: &[(f64, f64)], out: &mut String) {
    use std::fmt::Write;
    for (i, (x, y)) in line.iter().enumerate() {
        let _ = write!(out, "{}{:.1} {:.1}", if i == 0 { "M" } else { "L" }, x, y);
    }
}

/// Write a panel's data layer: a clip path for its frame, its series and its legend.
pub(crate) fn write_panel(
    out: &mut String,
    n: usize,
    id: &str,
    frame: &Frame,
    series: &[Mapped],
    legend: Option<&Legend>,
    minor: &(Vec<f64>, Vec<f64>),
) {
    use std::fmt::Write;
    let f = frame;
    // Minor ticks: short marks inward from the left and bottom axes.
    let tick = 3.0 * K;
    let mut d = String::new();
    for &u in &minor.0 {
        let x = f.left + (u - f.x.0) / (f.x.1 - f.x.0) * (f.right - f.left);
        let _ = write!(d, "M{x:.1} {:.1}v{:.1}", f.bottom, tick);
    }
    for &v in &minor.1 {
        let y = f.bottom - (v - f.y.0) / (f.y.1 - f.y.0) * (f.bottom - f.top);
        let _ = write!(d, "M{:.1} {y:.1}h{:.1}", f.left, -tick);
    }
    if !d.is_empty() {
        let _ = write!(
            out,
            r##"<path class="fric-minor-ticks" d="{d}" stroke="#000000" stroke-width="{K}" fill="none"/>"##
        );
    }
    let lg = legend.map_or("none".to_string(), |l| {
        format!("{:.1} {:.1} {:.1} {:.1}", l.rect[0], l.rect[1], l.rect[2], l.rect[3])
    });
    let _ = write!(
        out,
        r#"<g class="fric-panel" data-panel="{}" data-frame="{} {} {} {}" data-x="{} {:e} {:e}" data-y="{} {:e} {:e}" data-legend="{lg}">"#,
        math::escape(id),
        f.left,
        f.top,
        f.right,
        f.bottom,
        scale_name(f.xs),
        f.x.0,
        f.x.1,
        scale_name(f.ys),
        f.y.0,
        f.y.1
    );
    let _ = write!(
        out,
        r#"<clipPath id="fric-clip-{n}"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath><g clip-path="url(#fric-clip-{n})">"#,
        f.left,
        f.top,
        f.right - f.left,
        f.bottom - f.top
    );
    let markers: Vec<(f64, f64)> = series.iter().flat_map(Mapped::markers).collect();
    // The heads of a series under a coincident one go on top of it, as PGFPlots draws every
    // head after the plots (thesis 2.10's heads were hidden by the dashed copy).
    let mut on_top = String::new();
    for (k, s) in series.iter().enumerate() {
        let _ = write!(
            out,
            r#"<g class="fric-series" data-k="{}" data-style="{}">"#,
            k + 1,
            s.style.name()
        );
        write_series(out, s);
        for h in arrow::place(&s.lines, s.arrows, &markers, K) {
            let head = arrow::svg(&h, &hex(s.color), K);
            if s.under {
                on_top.push_str(&head);
            } else {
                out.push_str(&head);
            }
        }
        out.push_str("</g>");
    }
    out.push_str(&on_top);
    out.push_str("</g>");
    // Labels of published points, outside the clip so a label near the frame stays whole.
    for s in series {
        write_point_labels(out, s);
    }
    if let Some(l) = legend {
        legend::write(out, l);
    }
    out.push_str("</g>\n");
}

/// The opacity attribute of a series faded under a coincident one of its colour.
pub(crate) const FADED: &str = r#"" stroke-opacity="0.4"#;

/// The ink of one series in its declared style; a series under a coincident one is drawn
/// three times as wide in its own colour and dash pattern, so it shows on both sides.
pub(crate) fn write_series(out: &mut String, s: &Mapped) {
    use std::fmt::Write;
    let col = hex(s.color);
    let width = if s.under { crate::UNDER_WIDTH * STROKE } else { STROKE };
    let width = format!("{width}{}", if s.faded { FADED } else { "" });
    match s.style.ink {
        Ink::Band => {
            if s.band.len() > 2 {
                out.push_str(r#"<path d=""#);
                path_d(&s.band, out);
                let _ = write!(
                    out,
                    r#"Z" fill="{col}" fill-opacity="0.25" stroke="{col}" stroke-width="{K}" stroke-linejoin="round"/>"#
                );
            }
        }
        Ink::Markers(m) => {
            for &p in s.lines.iter().flatten() {
                out.push_str(&marker_svg(m, s.marker_size, p, &col));
            }
        }
        Ink::Line { dash: [] } => {
            out.push_str(r#"<path d=""#);
            for l in &s.lines {
                path_d(l, out);
            }
            let _ = write!(
                out,
                r#"" fill="none" stroke="{col}" stroke-width="{width}" stroke-linejoin="round"/>"#
            );
        }
        Ink::Line { .. } => {
            // One path per piece, its dash pattern stretched to end on a dash, so both ends
            // of a dashed curve are drawn.
            for l in &s.lines {
                out.push_str(r#"<path d=""#);
                path_d(l, out);
                let _ = write!(
                    out,
                    r#"" fill="none" stroke="{col}" stroke-width="{width}" stroke-linejoin="round"{}/>"#,
                    fitted_dash(s.style, l)
                );
            }
        }
    }
}

/// The radius (a square's half side to the middle of its stroke) of marker `m` in drawing
/// units: the declared `marker_size` (pt, as PGFPlots' `mark size`) at [`style::PX_PER_PT`],
/// else the default [`style::MARKER_PX`] (a square half a pixel larger, as before).
pub(crate) fn marker_radius(m: Marker, declared: Option<f64>) -> f64 {
    match (m, declared) {
        (_, Some(pt)) => pt * style::PX_PER_PT * K,
        (Marker::OpenSquare, None) => style::MARKER_PX * K + K / 2.0,
        (_, None) => style::MARKER_PX * K,
    }
}

/// A marker of shape `m` (at its declared size, if any) centred at `p`, in colour `col`.
pub(crate) fn marker_svg(m: Marker, declared: Option<f64>, p: (f64, f64), col: &str) -> String {
    let r = marker_radius(m, declared);
    match m {
        Marker::Disc => format!(r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="{col}"/>"#, p.0, p.1),
        Marker::Circle => format!(
            r##"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="none" stroke="{col}" stroke-width="{}"/>"##,
            p.0,
            p.1,
            1.5 * K
        ),
        Marker::OpenSquare => format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{}" height="{}" fill="none" stroke="{col}" stroke-width="{}"/>"##,
            p.0 - r,
            p.1 - r,
            2.0 * r,
            2.0 * r,
            1.5 * K
        ),
    }
}

/// The labels of a published series' points, each on the side of its marker `labels.rs` chose
/// (above right when not placed).
fn write_point_labels(out: &mut String, s: &Mapped) {
    use std::fmt::Write;
    let points = s.lines.iter().flatten();
    for (k, (p, label)) in points.zip(&s.point_labels).enumerate() {
        if let Some(t) = label {
            let side = s.label_sides.get(k).copied().unwrap_or(LabelSide::AboveRight);
            let (x, y) = labels::anchor(*p, side);
            let _ = write!(
                out,
                r##"<text class="fric-point-label" x="{x:.1}" y="{y:.1}" text-anchor="{}" font-family="sans-serif" font-size="{LEGEND_FONT:.2}" fill="#000000">{}</text>"##,
                side.text_anchor(),
                math::svg(t)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legend::{covers, place_inside, Entry};

    fn line(pts: &[(f64, f64)], style: Style) -> Mapped {
        Mapped {
            style,
            color: (0, 0, 0),
            lines: vec![pts.to_vec()],
            band: vec![],
            under: false,
            faded: false,
            arrows: 0,
            marker_size: None,
            point_labels: vec![],
            label_sides: vec![],
        }
    }

    fn frame() -> Frame {
        Frame {
            left: 0.0,
            top: 0.0,
            right: 2000.0,
            bottom: 1500.0,
            x: (0.0, 1.0),
            y: (0.0, 1.0),
            xs: Scale::Linear,
            ys: Scale::Linear,
        }
    }

    fn entry() -> Entry {
        Entry {
            label: "a".into(),
            marker_size: None,
            style: crate::style::SOLID,
            color: (0, 0, 0),
            under: false,
            faded: false,
            width: 200.0,
        }
    }

    #[test]
    fn a_series_on_top_of_another_is_found() {
        let a = line(&[(0.0, 0.0), (1000.0, 500.0), (2000.0, 0.0)], crate::style::SOLID);
        let b = line(
            &[(0.0, 1.0), (500.0, 251.0), (1000.0, 501.0), (2000.0, 1.0)],
            crate::style::DASHED,
        );
        let c = line(&[(0.0, 900.0), (2000.0, 900.0)], crate::style::SOLID);
        assert_eq!(coincident(&[a, b, c]), vec![(0, 1)]);
        let a = line(&[(0.0, 0.0), (2000.0, 0.0)], crate::style::SOLID);
        let half = line(&[(0.0, 0.0), (1000.0, 0.0), (1000.0, 800.0)], crate::style::SOLID);
        assert!(
            coincident(&[a, half]).is_empty(),
            "half of it elsewhere: both visible anyway"
        );
    }

    #[test]
    fn the_legend_goes_to_an_empty_corner_or_below() {
        let f = frame();
        // Data across the top: the preferred upper right is taken, the lower right is free.
        let top = line(&[(0.0, 100.0), (2000.0, 100.0)], crate::style::SOLID);
        let l = place_inside(&f, &[top], vec![entry()], 0).ok().unwrap();
        assert!(l.rect[1] > 750.0 && l.rect[0] > 1000.0, "{:?}", l.rect);
        // Data through every corner and both middles: below the axes, or, a single entry,
        // wherever inside the frame it covers no data (between the diagonals).
        let crossed = || {
            let x1 = line(&[(0.0, 0.0), (2000.0, 1500.0)], crate::style::SOLID);
            let x2 = line(&[(0.0, 1500.0), (2000.0, 0.0)], crate::style::SOLID);
            let mid = line(
                &[(0.0, 60.0), (2000.0, 60.0), (2000.0, 1440.0), (0.0, 1440.0)],
                crate::style::SOLID,
            );
            [x1, x2, mid]
        };
        assert!(place_inside(&f, &crossed(), vec![entry(), entry()], 0).is_err());
        let l = place_inside(&f, &crossed(), vec![entry()], 0).ok().unwrap();
        assert!(!crossed().iter().any(|s| covers(s, l.rect)), "{:?}", l.rect);
        assert!(l.rect[0] >= f.left && l.rect[2] <= f.right && l.rect[1] >= f.top && l.rect[3] <= f.bottom);
    }

    #[test]
    fn dash_patterns_end_on_a_dash() {
        let l = [(0.0, 0.0), (1000.0, 0.0)];
        let d = fitted_dash(crate::style::DASHED, &l);
        let v: Vec<f64> = d
            .trim()
            .trim_start_matches("stroke-dasharray=\"")
            .trim_end_matches('"')
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        let n = (1000.0 - v[0]) / (v[0] + v[1]);
        assert!((n - n.round()).abs() < 1e-3, "{d}: {n} periods before the last dash");
        assert_eq!(fitted_dash(crate::style::DASHED, &[(0.0, 0.0), (30.0, 0.0)]), "");
    }
}
