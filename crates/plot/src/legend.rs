//! Legends: entries, placement inside the frame where they cover no data (else below the
//! axes), and their SVG, each entry's sample drawn as its series is.

use crate::geometry::{point_in_polygon, segment_meets};
use crate::math;
use crate::series::{hex, Frame, Mapped, K, LEGEND_FONT, STROKE};
use crate::style::Ink;
use crate::style::Style;

const SAMPLE_W: f64 = 30.0 * K;
const GAP: f64 = 8.0 * K;
const PAD: f64 = 8.0 * K;
const ROW: f64 = 1.45 * LEGEND_FONT;
/// Clear space between the text boxes of two legend rows (drawing units): one SVG pixel (the
/// layout tests ask for half a one).
const ROW_CLEAR: f64 = K;

/// The box of a typeset label above and below its row's centre line (the text is centred with
/// `dy` 0.35 em), in drawing units, as the PNG lays it out ([`crate::text_boxes`]: the bundled
/// font's ascender and descender, a script's box raised or lowered): measured, not estimated from
/// nominal extents (thesis Fig 5.8's rows `f_{+}^{-1}`, `f_{-}^{-1}`, with a sub- and a
/// superscript each, were estimated 1.72 em apart and their boxes measure 1.78 em: they
/// overlapped by 1.1 px).
fn extent(label: &str) -> (f64, f64) {
    match crate::measure::text_box(&math::svg(label), LEGEND_FONT, "start", "0.35em") {
        Some(r) => (-r[1], r[3]),
        // Nothing drawn: the font's ascender and descender about the centre line.
        None => ((0.928 - 0.35) * LEGEND_FONT, (0.236 + 0.35) * LEGEND_FONT),
    }
}

/// The pitch of a legend's rows: `ROW`, or more when a label's box would reach the next row's
/// (the entries fill rows, or columns of rows, in their order, so the pairs of consecutive
/// entries hold every pair of neighbouring rows): the deepest box below one centre line plus
/// the highest above the next, and [`ROW_CLEAR`].
fn row_pitch(entries: &[Entry]) -> f64 {
    let ext: Vec<(f64, f64)> = entries.iter().map(|e| extent(&e.label)).collect();
    let need = ext.windows(2).map(|w| w[0].1 + w[1].0).fold(0.0, f64::max);
    ROW.max(need + ROW_CLEAR)
}
const INSET: f64 = 8.0 * K;

/// True if any ink of the series falls in the rectangle (grown by the stroke's half-width).
pub(crate) fn covers(s: &Mapped, r: [f64; 4]) -> bool {
    let g = STROKE / 2.0
        + 3.0 * K
        + s.style
            .marker()
            .map_or(0.0, |m| crate::series::marker_radius(m, s.marker_size));
    let r = [r[0] - g, r[1] - g, r[2] + g, r[3] + g];
    let lines = s.lines.iter().any(|l| match l.len() {
        1 => segment_meets(l[0], l[0], r),
        _ if s.style.marker().is_some() => l.iter().any(|&p| segment_meets(p, p, r)),
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
    /// The series' declared marker size (pt), drawn so in the sample.
    pub marker_size: Option<f64>,
    pub color: (u8, u8, u8),
    /// The series is drawn wide and light under a coincident one.
    pub under: bool,
    /// ... and faded, under one of its own colour.
    pub faded: bool,
    pub width: f64,
}

/// A legend: its entries and the box they sit in.
pub(crate) struct Legend {
    /// The box as drawn (after `scale`).
    pub rect: [f64; 4],
    /// Below 1 when the legend's natural width exceeds the panel's: drawn scaled down about its
    /// top-left corner so that it stays within the figure.
    pub scale: f64,
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
    let h = 2.0 * PAD + row_pitch(&entries) * entries.len() as f64;
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
            return Ok(inside_at(rect, entries));
        }
    }
    // A single entry (a single-curve panel): anywhere inside the frame where it covers no
    // data, nearest the preferred corner first, rather than below the axes.
    if entries.len() == 1 {
        if let Some(rect) = free_spot(series, corners[preferred.min(3)], (l, t, r, b), (w, h)) {
            return Ok(inside_at(rect, entries));
        }
    }
    Err(entries)
}

/// A legend inside the frame at `rect`, one entry per row.
fn inside_at(rect: [f64; 4], entries: Vec<Entry>) -> Legend {
    let rows = (0..entries.len()).map(|k| vec![k]).collect();
    Legend {
        rect,
        scale: 1.0,
        rows,
        entries,
    }
}

/// Steps across the frame's free span at which a single-entry legend is tried.
const SPOT_STEPS: usize = 12;

/// The free box `w` × `h` nearest `from` among a grid of positions with left edge in `l..=r` and
/// top edge in `t..=b`, if any.
fn free_spot(
    series: &[Mapped],
    from: (f64, f64),
    (l, t, r, b): (f64, f64, f64, f64),
    (w, h): (f64, f64),
) -> Option<[f64; 4]> {
    if r < l || b < t {
        return None;
    }
    let n = SPOT_STEPS as f64;
    let mut spots: Vec<(f64, f64)> = (0..=SPOT_STEPS)
        .flat_map(|i| (0..=SPOT_STEPS).map(move |j| (l + (r - l) * i as f64 / n, t + (b - t) * j as f64 / n)))
        .collect();
    let d = |p: &(f64, f64)| (p.0 - from.0).hypot(p.1 - from.1);
    spots.sort_by(|a, b| d(a).total_cmp(&d(b)));
    spots
        .into_iter()
        .map(|(x, y)| [x, y, x + w, y + h])
        .find(|rect| !series.iter().any(|s| covers(s, *rect)))
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
    let h = 2.0 * PAD + row_pitch(entries) * rows.len() as f64;
    (rows, h)
}

/// The natural width of a legend below the axes, and the scale that fits it into `avail`: an
/// entry wider than the panel cannot wrap into columns, so the legend is scaled down.
fn natural_and_scale(rows: &[Vec<usize>], entries: &[Entry], avail: f64) -> (f64, f64) {
    let natural = rows.iter().map(|r| row_width(r, entries)).fold(0.0, f64::max) + 2.0 * PAD;
    (natural, (avail / natural).min(1.0))
}

/// The height a legend below the axes takes when drawn into `avail` ([`below`]: scaled down
/// when wider): what the figure reserves for it (report 5.27 reserved the unscaled height and
/// left a blank band under its scaled legend).
pub(crate) fn below_height(entries: &[Entry], avail: f64) -> f64 {
    let (rows, h) = rows_below(entries, avail);
    h * natural_and_scale(&rows, entries, avail).1
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
    let avail = span.1 - span.0 - 8.0 * K;
    let (rows, h) = rows_below(&entries, avail);
    let (natural, scale) = natural_and_scale(&rows, &entries, avail);
    let (w, h) = (natural * scale, h * scale);
    let centred = (frame.left + frame.right - w) / 2.0;
    let x = centred.min(span.1 - 4.0 * K - w).max(span.0 + 4.0 * K);
    Legend {
        rect: [x, top, x + w, top + h],
        scale,
        rows,
        entries,
    }
}

/// A legend sample drawn as the series is: its marker, its fill, or a line in its declared dash
/// pattern (three times as wide for a series drawn under a coincident one).
fn sample(out: &mut String, e: &Entry, x: f64, y: f64) {
    let (style, c, under) = (e.style, e.color, e.under);
    use std::fmt::Write;
    let col = hex(c);
    let _ = match style.ink {
        Ink::Markers(m) => {
            out.push_str(&crate::series::marker_svg(
                m,
                e.marker_size,
                (x + SAMPLE_W / 2.0, y),
                &col,
            ));
            Ok(())
        }
        Ink::Band => write!(
            out,
            r#"<rect x="{x:.1}" y="{:.1}" width="{SAMPLE_W}" height="{}" fill="{col}" fill-opacity="0.25"/>"#,
            y - 4.0 * K,
            8.0 * K
        ),
        Ink::Line { dash } => {
            let pattern: Vec<String> = dash.iter().map(|d| format!("{}", d * K)).collect();
            let dash = if pattern.is_empty() {
                String::new()
            } else {
                format!(r#" stroke-dasharray="{}""#, pattern.join(" "))
            };
            let width = if under { crate::UNDER_WIDTH * STROKE } else { STROKE };
            let faded = if e.faded { crate::series::FADED } else { "" };
            write!(
                out,
                r#"<path d="M{x:.1} {y:.1}H{:.1}" fill="none" stroke="{col}" stroke-width="{width}{faded}"{dash}/>"#,
                x + SAMPLE_W
            )
        }
    };
}

/// Write a legend: its box, and per entry the sample and the typeset label.
pub(crate) fn write(out: &mut String, l: &Legend) {
    use std::fmt::Write;
    let s = l.scale;
    let r = [
        l.rect[0],
        l.rect[1],
        l.rect[0] + (l.rect[2] - l.rect[0]) / s,
        l.rect[1] + (l.rect[3] - l.rect[1]) / s,
    ];
    let transform = if s < 1.0 {
        format!(
            r#" transform="translate({:.2} {:.2}) scale({s:.4}) translate({:.2} {:.2})""#,
            r[0], r[1], -r[0], -r[1]
        )
    } else {
        String::new()
    };
    let _ = write!(
        out,
        r##"<g class="fric-legend"{transform}><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#FFFFFF" fill-opacity="0.9" stroke="#A0A0A0" stroke-width="{}"/>"##,
        r[0],
        r[1],
        r[2] - r[0],
        r[3] - r[1],
        K
    );
    let pitch = row_pitch(&l.entries);
    for (i, row) in l.rows.iter().enumerate() {
        let y = r[1] + PAD + pitch * (i as f64 + 0.5);
        let mut x = r[0] + PAD;
        for &k in row {
            let e = &l.entries[k];
            sample(out, e, x, y);
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
