//! The data layer of a panel, written as SVG by this crate rather than by plotters: every
//! series as one path with unrounded coordinates (so a dash pattern runs along the whole path),
//! clipped to the axes frame, and the legend, placed where it covers no data.
//!
//! Each panel's group carries its geometry as data attributes, which the figure-fidelity test
//! reads to map every exported sample to its pixel:
//! `<g class="fric-panel" data-panel="a" data-frame="left top right bottom"
//!  data-x="linear lo hi" data-y="log lo hi" data-legend="left top right bottom">`, where lo and
//! hi are in plotting coordinates (log10 of the value on a log axis) and lengths are in the
//! SVG's `viewBox` units; each series is a `<g class="fric-series" data-k="1" data-style="solid">`.

use crate::math;
use fric_manifest::{Scale, Style};

/// Drawing units per SVG pixel (the `viewBox` is this many times the figure's pixel size).
pub(crate) const K: f64 = crate::K as f64;
/// Stroke width of a series, in drawing units.
pub(crate) const STROKE: f64 = 2.0 * K;
/// Font size of legend text, in drawing units (plotters' 14 pt label size).
pub(crate) const LEGEND_FONT: f64 = crate::LABEL_SIZE as f64 * K / 1.24;
const SAMPLE_W: f64 = 30.0 * K;
const GAP: f64 = 8.0 * K;
const PAD: f64 = 8.0 * K;
const ROW: f64 = 1.45 * LEGEND_FONT;
const INSET: f64 = 8.0 * K;

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
}

/// What a series is drawn as, mapped to drawing units.
pub(crate) struct Mapped {
    pub style: Style,
    pub color: (u8, u8, u8),
    /// Polylines (split where a point has no position).
    pub lines: Vec<Vec<(f64, f64)>>,
    /// A band's outline (lower edge forward, upper edge back).
    pub band: Vec<(f64, f64)>,
    /// Drawn as a wide light line, because a later series runs on top of it.
    pub under: bool,
    /// Arrowheads along the longest piece, showing the direction of travel.
    pub arrows: u32,
}

/// Arrowheads (tip, unit direction) at arc-length fractions (k + 1/2)/n of the longest piece.
pub(crate) fn arrow_marks(s: &Mapped) -> Vec<((f64, f64), (f64, f64))> {
    let Some(l) = s
        .lines
        .iter()
        .filter(|l| l.len() > 1)
        .max_by(|a, b| length(a).total_cmp(&length(b)))
    else {
        return vec![];
    };
    let total = length(l);
    let mut out = Vec::new();
    let (mut acc, mut seg) = (0.0, 0);
    for k in 0..s.arrows {
        let target = (k as f64 + 0.5) / s.arrows as f64 * total;
        while seg + 1 < l.len() {
            let d = (l[seg + 1].0 - l[seg].0).hypot(l[seg + 1].1 - l[seg].1);
            if acc + d >= target && d > 0.0 {
                let t = (target - acc) / d;
                let p = (
                    l[seg].0 + t * (l[seg + 1].0 - l[seg].0),
                    l[seg].1 + t * (l[seg + 1].1 - l[seg].1),
                );
                out.push((p, ((l[seg + 1].0 - l[seg].0) / d, (l[seg + 1].1 - l[seg].1) / d)));
                break;
            }
            acc += d;
            seg += 1;
        }
    }
    out
}

fn length(l: &[(f64, f64)]) -> f64 {
    l.windows(2).map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1)).sum()
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
    let is_line = |s: &Mapped| matches!(s.style, Style::Solid | Style::Dashed | Style::Dotted);
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
    let mut lines: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for (&a, &b) in x.iter().zip(y) {
        match frame.map(a, b) {
            Some(p) => {
                let far = cur
                    .last()
                    .is_none_or(|q| (p.0 - q.0).abs() > min_step || (p.1 - q.1).abs() > min_step);
                if far || style == Style::Points {
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
    if style == Style::Solid {
        lines = lines.into_iter().map(|l| thin_columns(l, K / 4.0)).collect();
    }
    if style != Style::Points {
        let r = [
            frame.left,
            frame.top.min(frame.bottom),
            frame.right,
            frame.top.max(frame.bottom),
        ];
        lines = clip_lines(lines, r);
    }
    let mut band = Vec::new();
    if let (Style::Band, Some(y2)) = (style, y2) {
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
        arrows: 0,
    }
}

/// A polyline with every run of consecutive points inside one column of width `w` (drawing
/// units) reduced to its first, lowest, highest and last points, in their order (M4, Jugel et
/// al., VLDB 2014). The line drawn through them covers the same vertical extent in each column
/// as the whole run, and no point moves by more than `w` sideways, so at a quarter pixel the
/// drawing is the same while a dense sawtooth (thesis Fig 3.3: two million samples, every one
/// an eighth of a pixel or more from the last) keeps a few points per column. Solid lines only:
/// a dash pattern runs along the path's length, which thinning shortens.
fn thin_columns(line: Vec<(f64, f64)>, w: f64) -> Vec<(f64, f64)> {
    if line.len() <= 4 {
        return line;
    }
    let col = |p: (f64, f64)| (p.0 / w).floor();
    let mut out = Vec::with_capacity(line.len().min(1 << 16));
    let mut start = 0;
    while start < line.len() {
        let c = col(line[start]);
        let (mut lo, mut hi, mut end) = (start, start, start);
        while end + 1 < line.len() && col(line[end + 1]) == c {
            end += 1;
            if line[end].1 < line[lo].1 {
                lo = end;
            }
            if line[end].1 > line[hi].1 {
                hi = end;
            }
        }
        let mut keep = [start, lo, hi, end];
        keep.sort_unstable();
        let mut last = usize::MAX;
        for k in keep {
            if k != last {
                out.push(line[k]);
                last = k;
            }
        }
        start = end + 1;
    }
    out
}

/// The parameters `t0 ≤ t1` in [0, 1] of the part of the segment p–q inside the rectangle
/// `r = [left, top, right, bottom]` (Liang–Barsky), if it meets it.
fn clip_params(p: (f64, f64), q: (f64, f64), r: [f64; 4]) -> Option<(f64, f64)> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (num, den) in [(p.0 - r[0], -dx), (r[2] - p.0, dx), (p.1 - r[1], -dy), (r[3] - p.1, dy)] {
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else {
            let t = num / den;
            if den < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    Some((t0, t1))
}

/// The parts of each polyline inside the rectangle `r` (the frame), with the crossings of its
/// edges interpolated. A curve running on beyond the axes was drawn whole and cut by the clip
/// path, so its dash pattern (fitted to end on a dash, [`fitted_dash`]) met the frame at an
/// arbitrary phase and its last samples inside could lie in a gap (report Fig 3.2).
fn clip_lines(lines: Vec<Vec<(f64, f64)>>, r: [f64; 4]) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    for l in lines {
        if l.len() < 2 {
            if l.first().is_some_and(|&p| segment_meets(p, p, r)) {
                out.push(l);
            }
            continue;
        }
        let mut cur: Vec<(f64, f64)> = Vec::new();
        for w in l.windows(2) {
            let (p, q) = (w[0], w[1]);
            let Some((t0, t1)) = clip_params(p, q, r) else {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                continue;
            };
            let at = |t: f64| (p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1));
            if t0 > 0.0 {
                // Enters the frame inside this segment.
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                cur.push(at(t0));
            } else if cur.is_empty() {
                cur.push(p);
            }
            if t1 < 1.0 {
                cur.push(at(t1));
                out.push(std::mem::take(&mut cur));
            } else {
                cur.push(q);
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

/// True if the segment p–q meets the rectangle (Liang–Barsky).
fn segment_meets(p: (f64, f64), q: (f64, f64), r: [f64; 4]) -> bool {
    clip_params(p, q, r).is_some()
}

fn point_in_polygon(pt: (f64, f64), poly: &[(f64, f64)]) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.1 > pt.1) != (b.1 > pt.1) && pt.0 < (b.0 - a.0) * (pt.1 - a.1) / (b.1 - a.1) + a.0 {
            inside = !inside;
        }
    }
    inside
}

/// True if any ink of the series falls in the rectangle (grown by the stroke's half-width).
pub(crate) fn covers(s: &Mapped, r: [f64; 4]) -> bool {
    let g = STROKE / 2.0 + 3.0 * K + if s.style == Style::Points { 3.0 * K } else { 0.0 };
    let r = [r[0] - g, r[1] - g, r[2] + g, r[3] + g];
    let lines = s.lines.iter().any(|l| match l.len() {
        1 => segment_meets(l[0], l[0], r),
        _ if s.style == Style::Points => l.iter().any(|&p| segment_meets(p, p, r)),
        _ => l.windows(2).any(|w| segment_meets(w[0], w[1], r)),
    });
    let band = s.band.len() > 2
        && (s.band.windows(2).any(|w| segment_meets(w[0], w[1], r)) || point_in_polygon((r[0], r[1]), &s.band));
    lines || band
}

/// A legend entry: label, the series' style and colour, and the label's width.
pub(crate) struct Entry {
    pub label: String,
    pub style: Style,
    pub color: (u8, u8, u8),
    /// The series is drawn wide and light under a coincident one.
    pub under: bool,
    pub width: f64,
}

/// A legend: its entries and the box they sit in.
pub(crate) struct Legend {
    pub rect: [f64; 4],
    /// Entries in rows (one entry per row inside the axes, flowing rows below them).
    pub rows: Vec<Vec<usize>>,
    pub entries: Vec<Entry>,
}

fn entry_w(text_w: f64) -> f64 {
    SAMPLE_W + GAP + text_w
}

/// The legend inside the frame at the first corner (the preferred one first) where it covers
/// no data, or `None` when every corner covers some.
pub(crate) fn place_inside(
    frame: &Frame,
    series: &[Mapped],
    entries: Vec<Entry>,
    preferred: usize,
) -> Result<Legend, Vec<Entry>> {
    let w = 2.0 * PAD + entries.iter().map(|e| e.width).fold(0.0, f64::max) + SAMPLE_W + GAP;
    let h = 2.0 * PAD + ROW * entries.len() as f64;
    let (l, r) = (frame.left + INSET, frame.right - INSET - w);
    let (t, b) = (frame.top + INSET, frame.bottom - INSET - h);
    // Upper right, upper left, lower right, lower left, then the middles of the top and bottom.
    let cx = (frame.left + frame.right - w) / 2.0;
    let corners = [(r, t), (l, t), (r, b), (l, b), (cx, t), (cx, b)];
    let order = std::iter::once(preferred).chain((0..corners.len()).filter(|&i| i != preferred));
    for i in order {
        let (x, y) = corners[i];
        let rect = [x, y, x + w, y + h];
        if x < frame.left || y < frame.top || rect[2] > frame.right || rect[3] > frame.bottom {
            continue;
        }
        if !series.iter().any(|s| covers(s, rect)) {
            let rows = (0..entries.len()).map(|k| vec![k]).collect();
            return Ok(Legend { rect, rows, entries });
        }
    }
    Err(entries)
}

/// Rows of a legend laid out below the axes within `width`, and its height.
pub(crate) fn rows_below(entries: &[Entry], width: f64) -> (Vec<Vec<usize>>, f64) {
    // Equal columns, as many as fit, filled column by column so the entries read down in
    // their order.
    let col = column_width(entries);
    let n = (((width - 2.0 * PAD + 4.0 * GAP) / (col + 4.0 * GAP)).floor() as usize).max(1);
    let r = entries.len().div_ceil(n).max(1);
    let rows: Vec<Vec<usize>> = (0..r)
        .map(|i| (i..entries.len()).step_by(r).collect::<Vec<usize>>())
        .filter(|row| !row.is_empty())
        .collect();
    let h = 2.0 * PAD + ROW * rows.len() as f64;
    (rows, h)
}

/// The width of a column of legend entries below the axes: the widest entry.
fn column_width(entries: &[Entry]) -> f64 {
    entries.iter().map(|e| entry_w(e.width)).fold(0.0, f64::max)
}

fn row_width(row: &[usize], entries: &[Entry]) -> f64 {
    let col = column_width(entries);
    let last = row.last().map_or(0.0, |&k| entry_w(entries[k].width));
    (col + 4.0 * GAP) * (row.len().saturating_sub(1)) as f64 + last
}

/// A legend below the frame, its top at `top`: rows wrapped to the panel's width
/// (`span`, left and right edge), centred under the frame as far as the panel allows.
pub(crate) fn below(frame: &Frame, entries: Vec<Entry>, top: f64, span: (f64, f64)) -> Legend {
    let (rows, h) = rows_below(&entries, span.1 - span.0 - 8.0 * K);
    let w = rows.iter().map(|r| row_width(r, &entries)).fold(0.0, f64::max) + 2.0 * PAD;
    let centred = (frame.left + frame.right - w) / 2.0;
    let x = centred.min(span.1 - 4.0 * K - w).max(span.0 + 4.0 * K);
    Legend {
        rect: [x, top, x + w, top + h],
        rows,
        entries,
    }
}

fn hex(c: (u8, u8, u8)) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn dash(style: Style) -> &'static str {
    match style {
        Style::Dashed => r#" stroke-dasharray="40 24""#,
        Style::Dotted => r#" stroke-dasharray="8 16""#,
        _ => "",
    }
}

/// The dash pattern of `style` (on, off) stretched by at most a period over the polyline so that
/// it starts and ends with a dash; a polyline shorter than one dash is drawn solid.
fn fitted_dash(style: Style, line: &[(f64, f64)]) -> String {
    let (on, off) = match style {
        Style::Dashed => (10.0 * K, 6.0 * K),
        Style::Dotted => (2.0 * K, 4.0 * K),
        _ => return String::new(),
    };
    let len: f64 = line.windows(2).map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1)).sum();
    if len <= on + off {
        return String::new();
    }
    let n = ((len - on) / (on + off)).round().max(1.0);
    let s = len / (n * (on + off) + on);
    format!(r#" stroke-dasharray="{:.2} {:.2}""#, on * s, off * s)
}

fn style_name(s: Style) -> &'static str {
    match s {
        Style::Solid => "solid",
        Style::Dashed => "dashed",
        Style::Dotted => "dotted",
        Style::Points => "points",
        Style::Band => "band",
    }
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

fn sample(out: &mut String, style: Style, c: (u8, u8, u8), under: bool, x: f64, y: f64) {
    use std::fmt::Write;
    let col = hex(c);
    if under {
        let _ = write!(
            out,
            r#"<path d="M{x:.1} {y:.1}H{:.1}" fill="none" stroke="{col}" stroke-opacity="0.45" stroke-width="{}"/>"#,
            x + SAMPLE_W,
            3.0 * STROKE
        );
        return;
    }
    let _ = match style {
        Style::Points => write!(
            out,
            r#"<circle cx="{:.1}" cy="{y:.1}" r="{}" fill="{col}"/>"#,
            x + SAMPLE_W / 2.0,
            3.0 * K
        ),
        Style::Band => write!(
            out,
            r#"<rect x="{x:.1}" y="{:.1}" width="{SAMPLE_W}" height="{}" fill="{col}" fill-opacity="0.25"/>"#,
            y - 4.0 * K,
            8.0 * K
        ),
        _ => write!(
            out,
            r#"<path d="M{x:.1} {y:.1}H{:.1}" fill="none" stroke="{col}" stroke-width="{STROKE}"{}/>"#,
            x + SAMPLE_W,
            dash(style)
        ),
    };
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
    for (k, s) in series.iter().enumerate() {
        let col = hex(s.color);
        let _ = write!(
            out,
            r#"<g class="fric-series" data-k="{}" data-style="{}">"#,
            k + 1,
            style_name(s.style)
        );
        match s.style {
            Style::Band => {
                if s.band.len() > 2 {
                    out.push_str(r#"<path d=""#);
                    path_d(&s.band, out);
                    let _ = write!(
                        out,
                        r#"Z" fill="{col}" fill-opacity="0.25" stroke="{col}" stroke-width="{K}" stroke-linejoin="round"/>"#
                    );
                }
            }
            Style::Points => {
                for &(x, y) in s.lines.iter().flatten() {
                    let _ = write!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{}" fill="{col}"/>"#, 3.0 * K);
                }
            }
            _ if s.under => {
                // A wide, light line, so the series drawn on top of it leaves it visible.
                out.push_str(r#"<path d=""#);
                for l in &s.lines {
                    path_d(l, out);
                }
                let _ = write!(
                    out,
                    r#"" fill="none" stroke="{col}" stroke-opacity="0.45" stroke-width="{}" stroke-linejoin="round" stroke-linecap="round"/>"#,
                    3.0 * STROKE
                );
            }
            Style::Solid => {
                out.push_str(r#"<path d=""#);
                for l in &s.lines {
                    path_d(l, out);
                }
                let _ = write!(
                    out,
                    r#"" fill="none" stroke="{col}" stroke-width="{STROKE}" stroke-linejoin="round"/>"#
                );
            }
            _ => {
                // One path per piece, its dash pattern stretched to end on a dash, so both ends
                // of a dashed curve are drawn.
                for l in &s.lines {
                    out.push_str(r#"<path d=""#);
                    path_d(l, out);
                    let _ = write!(
                        out,
                        r#"" fill="none" stroke="{col}" stroke-width="{STROKE}" stroke-linejoin="round"{}/>"#,
                        fitted_dash(s.style, l)
                    );
                }
            }
        }
        for ((x, y), (dx, dy)) in arrow_marks(s) {
            // A filled arrowhead 4 px long, its tip on the curve.
            let (len, half) = (4.0 * STROKE, 2.0 * STROKE);
            let (bx, by) = (x - len * dx, y - len * dy);
            let _ = write!(
                out,
                r#"<path class="fric-arrow" d="M{x:.1} {y:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{col}"/>"#,
                bx - half * dy,
                by + half * dx,
                bx + half * dy,
                by - half * dx
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
    if let Some(l) = legend {
        let r = l.rect;
        let _ = write!(
            out,
            r##"<g class="fric-legend"><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#FFFFFF" fill-opacity="0.9" stroke="#A0A0A0" stroke-width="{}"/>"##,
            r[0],
            r[1],
            r[2] - r[0],
            r[3] - r[1],
            K
        );
        for (i, row) in l.rows.iter().enumerate() {
            let y = r[1] + PAD + ROW * (i as f64 + 0.5);
            let mut x = r[0] + PAD;
            for &k in row {
                let e = &l.entries[k];
                sample(out, e.style, e.color, e.under, x, y);
                let _ = write!(
                    out,
                    r##"<text x="{:.1}" y="{y:.1}" dy="0.35em" font-family="sans-serif" font-size="{LEGEND_FONT:.2}" fill="#000000">{}</text>"##,
                    x + SAMPLE_W + GAP,
                    math::svg(&e.label)
                );
                x += column_width(&l.entries) + 4.0 * GAP;
            }
        }
        out.push_str("</g>");
    }
    out.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_meet_rectangles() {
        let r = [0.0, 0.0, 10.0, 10.0];
        assert!(segment_meets((-5.0, 5.0), (15.0, 5.0), r));
        assert!(segment_meets((5.0, 5.0), (5.0, 5.0), r));
        assert!(!segment_meets((-5.0, -5.0), (-1.0, 20.0), r));
        assert!(!segment_meets((11.0, 0.0), (20.0, 10.0), r));
        assert!(segment_meets((-1.0, 5.0), (5.0, -1.0), r));
        assert!(!segment_meets((-3.0, 2.0), (2.0, -3.0), r));
    }

    fn line(pts: &[(f64, f64)], style: Style) -> Mapped {
        Mapped {
            style,
            color: (0, 0, 0),
            lines: vec![pts.to_vec()],
            band: vec![],
            under: false,
            arrows: 0,
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
            style: Style::Solid,
            color: (0, 0, 0),
            under: false,
            width: 200.0,
        }
    }

    #[test]
    fn a_series_on_top_of_another_is_found() {
        let a = line(&[(0.0, 0.0), (1000.0, 500.0), (2000.0, 0.0)], Style::Solid);
        let b = line(
            &[(0.0, 1.0), (500.0, 251.0), (1000.0, 501.0), (2000.0, 1.0)],
            Style::Dashed,
        );
        let c = line(&[(0.0, 900.0), (2000.0, 900.0)], Style::Solid);
        assert_eq!(coincident(&[a, b, c]), vec![(0, 1)]);
        let a = line(&[(0.0, 0.0), (2000.0, 0.0)], Style::Solid);
        let half = line(&[(0.0, 0.0), (1000.0, 0.0), (1000.0, 800.0)], Style::Solid);
        assert!(
            coincident(&[a, half]).is_empty(),
            "half of it elsewhere: both visible anyway"
        );
    }

    #[test]
    fn the_legend_goes_to_an_empty_corner_or_below() {
        let f = frame();
        // Data across the top: the preferred upper right is taken, the lower right is free.
        let top = line(&[(0.0, 100.0), (2000.0, 100.0)], Style::Solid);
        let l = place_inside(&f, &[top], vec![entry()], 0).ok().unwrap();
        assert!(l.rect[1] > 750.0 && l.rect[0] > 1000.0, "{:?}", l.rect);
        // Data through every corner and both middles: below the axes.
        let x1 = line(&[(0.0, 0.0), (2000.0, 1500.0)], Style::Solid);
        let x2 = line(&[(0.0, 1500.0), (2000.0, 0.0)], Style::Solid);
        let mid = line(
            &[(0.0, 60.0), (2000.0, 60.0), (2000.0, 1440.0), (0.0, 1440.0)],
            Style::Solid,
        );
        assert!(place_inside(&f, &[x1, x2, mid], vec![entry()], 0).is_err());
    }

    #[test]
    fn a_dense_run_in_one_column_keeps_its_ends_and_extremes() {
        // A sawtooth of 1000 teeth inside one column of width 1, then a step to the next column.
        let mut l: Vec<(f64, f64)> = (0..2000)
            .map(|i| {
                (
                    0.2 + 0.0003 * i as f64,
                    if i % 2 == 0 { 0.0 } else { 5.0 + (i % 7) as f64 },
                )
            })
            .collect();
        l.push((1.5, 2.0));
        let t = thin_columns(l.clone(), 1.0);
        // First, lowest (the first 0), highest (the first 11), last of the column; then the next.
        let hi = (0..2000).find(|&i| i % 2 == 1 && i % 7 == 6).unwrap();
        assert_eq!(t, vec![l[0], l[hi], l[1999], l[2000]]);
        // Every point is within the column of a kept point and inside the kept vertical extent.
        for p in &l[..2000] {
            assert!(p.1 >= 0.0 && p.1 <= 11.0 && (p.0 - t[0].0).abs() < 1.0);
        }
        // Points in distinct columns are all kept.
        let sparse: Vec<(f64, f64)> = (0..10).map(|i| (i as f64 + 0.5, (i * i) as f64)).collect();
        assert_eq!(thin_columns(sparse.clone(), 1.0), sparse);
    }

    #[test]
    fn lines_are_cut_at_the_frame() {
        let r = [0.0, 0.0, 10.0, 10.0];
        // In from the left, out at the right: one piece, ends on the edges.
        let l = vec![(-10.0, 5.0), (5.0, 5.0), (15.0, 5.0)];
        assert_eq!(clip_lines(vec![l], r), vec![vec![(0.0, 5.0), (5.0, 5.0), (10.0, 5.0)]]);
        // Out through the top and back in: two pieces; wholly outside: none.
        let l = vec![(2.0, 5.0), (2.0, -5.0), (8.0, -5.0), (8.0, 5.0)];
        assert_eq!(
            clip_lines(vec![l], r),
            vec![vec![(2.0, 5.0), (2.0, 0.0)], vec![(8.0, 0.0), (8.0, 5.0)]]
        );
        assert!(clip_lines(vec![vec![(20.0, 1.0), (30.0, 2.0)]], r).is_empty());
        // Inside throughout: unchanged.
        let l = vec![(1.0, 1.0), (2.0, 3.0), (4.0, 2.0)];
        assert_eq!(clip_lines(vec![l.clone()], r), vec![l]);
    }

    #[test]
    fn dash_patterns_end_on_a_dash() {
        let l = [(0.0, 0.0), (1000.0, 0.0)];
        let d = fitted_dash(Style::Dashed, &l);
        let v: Vec<f64> = d
            .trim()
            .trim_start_matches("stroke-dasharray=\"")
            .trim_end_matches('"')
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        let n = (1000.0 - v[0]) / (v[0] + v[1]);
        assert!((n - n.round()).abs() < 1e-3, "{d}: {n} periods before the last dash");
        assert_eq!(fitted_dash(Style::Dashed, &[(0.0, 0.0), (30.0, 0.0)]), "");
    }

    #[test]
    fn polygons_contain_points() {
        let sq = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        assert!(point_in_polygon((5.0, 5.0), &sq));
        assert!(!point_in_polygon((15.0, 5.0), &sq));
    }
}
