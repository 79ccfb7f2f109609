//! Insets: a region of a panel redrawn at larger scale in a corner of its axes (a zoom on what
//! the caption names), with tick marks and labels on its inner sides (below and left of its
//! frame, so nothing sticks out of the panel's axes), its series in their declared styles and
//! colours, and the region's frame drawn on the panel. The legend keeps clear of every inset
//! (`obstacle`), and PGFPlots draws the same inset where this one is (`Inset::fraction`).

use crate::series::{self, hex, tf, Frame, Mapped, K, LEGEND_FONT};
use crate::style::arrow::{self, Head};
use crate::ticks::{self, ticks};
use crate::{math, PanelData};
use connect::{connectors, Segment};
use fric_manifest::{Corner, Inset, Scale};

mod connect;

/// Tick label font size of an inset (drawing units).
const FONT: f64 = LEGEND_FONT * 0.85;
/// Space between the panel's axes and an inset, and between an inset's frame and its labels.
const MARGIN: f64 = 8.0 * K;
const TICK: f64 = 3.0 * K;
/// The stroke of a connector from a region's frame to its inset (drawing units).
const CONNECTOR: f64 = 0.6 * K;
/// At most this many labelled ticks along an inset's axis.
const MAX_TICKS: usize = 3;

/// An inset laid out in drawing units.
pub(crate) struct InsetLayer {
    /// The inset's axes and the region they show.
    pub frame: Frame,
    /// The frame with its tick labels: what a legend must keep clear of.
    pub outer: [f64; 4],
    /// The region's frame on the panel (left, top, right, bottom) at its true size, if it maps.
    pub region: Option<[f64; 4]>,
    /// Whether the region is framed inside an earlier inset of the panel (its host, whose region
    /// holds it: report 5.24's close-up, which on the panel was a few pixels inside a marker).
    pub nested: bool,
    /// Thin lines from the region's frame to the inset's box ([`connectors`]).
    pub connectors: Vec<Segment>,
    /// Whether the y tick labels stand right of the frame ([`layout`]).
    pub right: bool,
    pub series: Vec<Mapped>,
    /// Labelled ticks (plotting coordinates, label) of x and y.
    pub xticks: Vec<(f64, String)>,
    pub yticks: Vec<(f64, String)>,
}

impl InsetLayer {
    /// Each series' arrowheads in the inset (drawing units): one for a series with arrowheads
    /// on the panel, placed on what the inset shows of it.
    pub fn heads(&self) -> Vec<Vec<Head>> {
        let markers: Vec<(f64, f64)> = self.series.iter().flat_map(Mapped::markers).collect();
        self.series
            .iter()
            .map(|s| arrow::place(&s.lines, s.arrows, &markers, K))
            .collect()
    }

    /// Each series' arrowheads in data coordinates (base, tip), as the SVG draws them.
    pub fn arrows(&self) -> Vec<crate::Arrows> {
        self.heads()
            .iter()
            .map(|hs| {
                hs.iter()
                    .map(|h| (self.frame.unmap(h.base), self.frame.unmap(h.tip)))
                    .collect()
            })
            .collect()
    }

    /// The region's frame as fractions of the panel's axes: (left, top, right, bottom), top
    /// from the panel's top edge.
    pub fn region_fraction(&self, parent: &Frame) -> Option<[f64; 4]> {
        let (pw, ph) = (parent.right - parent.left, parent.bottom - parent.top);
        self.region.map(|r| {
            [
                (r[0] - parent.left) / pw,
                (r[1] - parent.top) / ph,
                (r[2] - parent.left) / pw,
                (r[3] - parent.top) / ph,
            ]
        })
    }

    /// The connectors in fractions of the panel's axes, with the inset's corner each ends at
    /// and, for an end moved past the tick labels, the outer anchor whose level it takes.
    pub fn connector_fractions(&self, parent: &Frame) -> Vec<crate::Connector> {
        let (pw, ph) = (parent.right - parent.left, parent.bottom - parent.top);
        let at = |p: (f64, f64)| [(p.0 - parent.left) / pw, (p.1 - parent.top) / ph];
        let f = &self.frame;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
        self.connectors
            .iter()
            .map(|[a, b]| {
                let ns = if b.1 < 0.5 * (f.top + f.bottom) {
                    "north"
                } else {
                    "south"
                };
                let ew = if b.0 > 0.5 * (f.left + f.right) { "east" } else { "west" };
                let on_x = close(b.0, f.left) || close(b.0, f.right);
                let on_y = close(b.1, f.top) || close(b.1, f.bottom);
                let (anchor, past) = match (on_x, on_y) {
                    (true, true) => (format!("{ns} {ew}"), None),
                    (true, false) => (format!("{ns} {ew}"), Some(format!("outer {ns}"))),
                    (false, true) => (format!("{ns} {ew}"), Some(format!("outer {ew}"))),
                    (false, false) => (format!("outer {ns} {ew}"), None),
                };
                crate::Connector {
                    from: at(*a),
                    to: at(*b),
                    anchor,
                    past,
                }
            })
            .collect()
    }

    /// The inset's axes as fractions of the panel's axes: (left, top, width, height), top from
    /// the panel's top edge (what PGFPlots places).
    pub fn fraction(&self, parent: &Frame) -> [f64; 4] {
        let (pw, ph) = (parent.right - parent.left, parent.bottom - parent.top);
        let f = &self.frame;
        [
            (f.left - parent.left) / pw,
            (f.top - parent.top) / ph,
            (f.right - f.left) / pw,
            (f.bottom - f.top) / ph,
        ]
    }
}

/// Estimated width of a tick label in drawing units (DejaVu Sans digits are 0.64 em).
fn text_w(s: &str) -> f64 {
    s.chars().count() as f64 * 0.64 * FONT
}

/// Labelled ticks over `[lo, hi]` (plotting coordinates) with the panel's power of ten `f`: at
/// least two (a single tick gives no scale: report 4.8's window 69.6…70.3 s had only "70"),
/// with a finer step where [`MAX_TICKS`] would leave one.
pub(crate) fn labelled(lo: f64, hi: f64, scale: Scale, f: f64) -> Vec<(f64, String)> {
    let mut max = MAX_TICKS;
    let mut at = ticks(lo, hi, scale, max).0;
    while at.len() < 2 && max < 3 * MAX_TICKS {
        max += 1;
        at = ticks(lo, hi, scale, max).0;
    }
    ticks::labelled(&at, scale, f)
}

/// Lay out the inset `spec` of panel `p` on the panel's frame `parent`; `factors` are what the
/// panel's tick labels multiply x and y values by (its powers of ten), so the inset's labels
/// read in the panel's units. Its region is framed on `host`'s axes when given (an earlier inset
/// whose region holds this one's), else on the panel's.
pub(crate) fn layout(
    parent: &Frame,
    p: &PanelData,
    spec: &Inset,
    factors: (f64, f64),
    colors: &[(u8, u8, u8)],
    host: Option<&Frame>,
) -> InsetLayer {
    let rx = (tf(p.x.scale, spec.x[0]), tf(p.x.scale, spec.x[1]));
    let ry = (tf(p.y.scale, spec.y[0]), tf(p.y.scale, spec.y[1]));
    let xticks = labelled(rx.0, rx.1, p.x.scale, factors.0);
    let yticks = labelled(ry.0, ry.1, p.y.scale, factors.1);
    let ylw = yticks.iter().map(|(_, l)| text_w(l)).fold(0.0, f64::max) + TICK + MARGIN / 2.0;
    let xlh = 1.3 * FONT + TICK;
    let (w, h) = (
        spec.size * (parent.right - parent.left),
        spec.size * (parent.bottom - parent.top),
    );
    // Half the widest x label past the frame's edge on the side without y labels: a label
    // centred on it stays inside.
    let xpad = xticks.iter().map(|(_, l)| text_w(l)).fold(0.0, f64::max) / 2.0;
    let (ow, oh) = (w + ylw + xpad, h + xlh);
    let left = match spec.corner {
        Corner::UpperLeft | Corner::LowerLeft => parent.left + MARGIN,
        Corner::UpperRight | Corner::LowerRight => parent.right - MARGIN - ow,
    };
    let top = match spec.corner {
        Corner::UpperLeft | Corner::UpperRight => parent.top + MARGIN,
        Corner::LowerLeft | Corner::LowerRight => parent.bottom - MARGIN - oh,
    };
    let on = host.unwrap_or(parent);
    let region = match (on.map(spec.x[0], spec.y[0]), on.map(spec.x[1], spec.y[1])) {
        (Some(a), Some(b)) => Some([a.0.min(b.0), a.1.min(b.1), a.0.max(b.0), a.1.max(b.1)]),
        _ => None,
    };
    let outer = [left, top, left + ow, top + oh];
    // The inset with its y labels on the `right` side or the left.
    let place = |right: bool| {
        let fl = if right { left + xpad } else { left + ylw };
        let frame = Frame {
            left: fl,
            top,
            right: fl + w,
            bottom: top + h,
            x: rx,
            y: ry,
            xs: p.x.scale,
            ys: p.y.scale,
        };
        let (xt, yt) = clear_corner(&frame, xticks.clone(), yticks.clone(), right);
        let labels = label_boxes(&frame, &xt, &yt, right);
        let fbox = [frame.left, frame.top, frame.right, frame.bottom];
        let c = region.map(|r| connectors(r, fbox, &labels, outer)).unwrap_or_default();
        let on_axes = !c.is_empty() && c.iter().all(|s| connect::corners(fbox).contains(&s[1]));
        let beside = region.is_some_and(|r| r[2] <= frame.left);
        (frame, xt, yt, c, on_axes, beside)
    };
    // The y labels left of the frame, as a panel's; on its right where the region lies left of
    // the frame, the labels stand between them and the lines reach the frame's corners only so
    // (report 4.8 and 4.9's upper insets, whose lines had ended ~80 px left of the frame, rev59d).
    let mut placed = place(false);
    let mut right = false;
    if placed.5 && !placed.4 {
        let other = place(true);
        if other.4 {
            (placed, right) = (other, true);
        }
    }
    let (frame, xticks, yticks, connectors, _, _) = placed;
    let series = p
        .series
        .iter()
        .zip(colors)
        .map(|(s, &c)| {
            let mut m = series::map_series(&frame, &s.x, &s.y, s.y2.as_deref(), s.style, c);
            // One arrowhead per series at most: the inset shows a piece of each curve.
            m.arrows = s.arrows.min(1);
            m.marker_size = s.marker_size;
            m
        })
        .collect();
    InsetLayer {
        frame,
        outer,
        region,
        nested: host.is_some(),
        connectors,
        right,
        series,
        xticks,
        yticks,
    }
}

/// An axis' ticks: value and label (empty: unlabelled).
type Ticks = Vec<(f64, String)>;

/// The boxes the inset's tick labels take (their estimated ink, a pixel around it), as drawn
/// at [`x_label_at`] and [`y_label_at`].
fn label_boxes(f: &Frame, xticks: &[(f64, String)], yticks: &[(f64, String)], right: bool) -> Vec<[f64; 4]> {
    let (up, down) = (0.8 * FONT + 1.0, 0.25 * FONT + 1.0);
    let xs = xticks.iter().filter(|(_, t)| !t.is_empty()).map(|(v, t)| {
        let ((x, y), w) = (x_label_at(f, *v), text_w(t) / 2.0 + 1.0);
        [x - w, y - up, x + w, y + down]
    });
    let ys = yticks.iter().filter(|(_, t)| !t.is_empty()).map(|(v, t)| {
        let (x, y) = y_label_at(f, *v, right);
        let (l, r) = if right { (x, x + text_w(t)) } else { (x - text_w(t), x) };
        [l - 1.0, y - up, r + 1.0, y + down]
    });
    xs.chain(ys).collect()
}

/// Where an x tick label's anchor sits: its middle at its tick, its baseline below the frame.
fn x_label_at(f: &Frame, v: f64) -> (f64, f64) {
    (
        f.left + (v - f.x.0) / (f.x.1 - f.x.0) * (f.right - f.left),
        f.bottom + TICK + FONT,
    )
}
/// Where a y tick label's anchor sits: its baseline below its tick, its right end left of the
/// frame, or its left end right of it when the labels stand `right` ([`layout`]).
fn y_label_at(f: &Frame, v: f64, right: bool) -> (f64, f64) {
    (
        if right {
            f.right + TICK + MARGIN / 4.0
        } else {
            f.left - TICK - MARGIN / 4.0
        },
        f.bottom - (v - f.y.0) / (f.y.1 - f.y.0) * (f.bottom - f.top) + 0.35 * FONT,
    )
}

/// The inset's tick labels with the one of the two at its frame's lower corner on the y labels'
/// side (`right` or left) cleared (its tick stays) when the ink of the x label nearest that
/// corner and of the lowest y label, as drawn in the
/// PNG, come within `4K` (4 pixels) of each other (report 4.8's `88.6` over `0.5`, ruderman-paper
/// 7's `20` over `10⁻¹²`, 2–3 px apart), not when only their font boxes (ascender, descender)
/// meet (report 5.34's `−0.5` over `700`, 13 px of clear ink: kept, s56 review): the label of the
/// axis with more labels, the y axis' on a tie, as the panel's own corner rule, but never an
/// axis' second-last label (a single label gives no scale).
fn clear_corner(f: &Frame, mut x: Ticks, mut y: Ticks, right: bool) -> (Ticks, Ticks) {
    let count = |t: &[(f64, String)]| t.iter().filter(|(_, l)| !l.is_empty()).count();
    let boxed = |(ax, ay): (f64, f64), l: &str, anchor: &str| {
        crate::measure::ink_box(&math::escape(l), FONT, anchor, "0")
            .map(|r| [ax + r[0], ay + r[1], ax + r[2], ay + r[3]])
    };
    // The labelled tick nearest the corner along x, lowest along y.
    let xs = (0..x.len()).filter(|&i| !x[i].1.is_empty());
    let xi = if right {
        xs.max_by(|&a, &b| x[a].0.total_cmp(&x[b].0))
    } else {
        xs.min_by(|&a, &b| x[a].0.total_cmp(&x[b].0))
    };
    let yi = (0..y.len())
        .filter(|&i| !y[i].1.is_empty())
        .min_by(|&a, &b| y[a].0.total_cmp(&y[b].0));
    let (Some(xi), Some(yi)) = (xi, yi) else { return (x, y) };
    let (Some(xb), Some(yb)) = (
        boxed(x_label_at(f, x[xi].0), &x[xi].1, "middle"),
        boxed(
            y_label_at(f, y[yi].0, right),
            &y[yi].1,
            if right { "start" } else { "end" },
        ),
    ) else {
        return (x, y);
    };
    let clear = 4.0 * K;
    let apart = xb[2] + clear <= yb[0] || yb[2] + clear <= xb[0] || xb[3] + clear <= yb[1] || yb[3] + clear <= xb[1];
    if apart {
        return (x, y);
    }
    let (nx, ny) = (count(&x), count(&y));
    let drop_x = if nx > ny { nx > 2 } else { ny <= 2 && nx > 2 };
    if drop_x {
        x[xi].1.clear();
    } else if ny > 2 {
        y[yi].1.clear();
    }
    (x, y)
}

/// The inset's outer box (a filled rectangle) and its connectors (lines) as series the legend
/// placement sees as ink.
pub(crate) fn obstacles(l: &InsetLayer) -> [Mapped; 2] {
    let [a, b, c, d] = l.outer;
    let mut m = series::map_series(&l.frame, &[], &[], None, crate::style::BAND, (0, 0, 0));
    m.band = vec![(a, b), (c, b), (c, d), (a, d)];
    let mut lines = series::map_series(&l.frame, &[], &[], None, crate::style::SOLID, (0, 0, 0));
    lines.lines = l.connectors.iter().map(|c| c.to_vec()).collect();
    [m, lines]
}

/// Write panel `n`'s inset `k`: the region's frame on the panel (clipped to the panel's axes),
/// then the inset over a white ground.
pub(crate) fn write(out: &mut String, n: usize, k: usize, panel_id: &str, l: &InsetLayer) {
    use std::fmt::Write;
    let f = &l.frame;
    let rect = |r: [f64; 4]| {
        format!(
            r#"x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}""#,
            r[0],
            r[1],
            r[2] - r[0],
            r[3] - r[1]
        )
    };
    if let Some(r) = l.region {
        // At the region's true size: a region smaller than its stroke is still a visible mark.
        let _ = write!(
            out,
            r##"<rect class="fric-inset-region" {} fill="none" stroke="#000000" stroke-width="{K}" clip-path="url(#fric-clip-{n})"/>"##,
            rect(r)
        );
    }
    let scale = |s: Scale| if s == Scale::Log { "log" } else { "linear" };
    let _ = write!(
        out,
        r#"<g class="fric-inset" data-panel="{}" data-frame="{} {} {} {}" data-x="{} {:e} {:e}" data-y="{} {:e} {:e}" data-y-labels="{}">"#,
        math::escape(panel_id),
        f.left,
        f.top,
        f.right,
        f.bottom,
        scale(f.xs),
        f.x.0,
        f.x.1,
        scale(f.ys),
        f.y.0,
        f.y.1,
        if l.right { "right" } else { "left" }
    );
    let frame_rect = [f.left, f.top, f.right, f.bottom];
    let _ = write!(
        out,
        r##"<rect {} fill="#FFFFFF" stroke="none"/><clipPath id="fric-clip-{n}-{k}"><rect {}/></clipPath><g clip-path="url(#fric-clip-{n}-{k})">"##,
        rect(if l.right {
            [l.outer[0], l.outer[1], l.outer[2] + MARGIN / 2.0, l.outer[3]]
        } else {
            [l.outer[0] - MARGIN / 2.0, l.outer[1], l.outer[2], l.outer[3]]
        }),
        rect(frame_rect)
    );
    for (i, (s, heads)) in l.series.iter().zip(l.heads()).enumerate() {
        let _ = write!(
            out,
            r#"<g class="fric-inset-series" data-k="{}" data-style="{}">"#,
            i + 1,
            s.style.name()
        );
        series::write_series(out, s);
        for h in heads {
            out.push_str(&arrow::svg(&h, &hex(s.color), K));
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
    let mut d = String::new();
    let xs: Vec<(f64, &str)> = l
        .xticks
        .iter()
        .map(|(v, t)| (f.left + (v - f.x.0) / (f.x.1 - f.x.0) * (f.right - f.left), t.as_str()))
        .collect();
    let ys: Vec<(f64, &str)> = l
        .yticks
        .iter()
        .map(|(v, t)| {
            (
                f.bottom - (v - f.y.0) / (f.y.1 - f.y.0) * (f.bottom - f.top),
                t.as_str(),
            )
        })
        .collect();
    for (x, _) in &xs {
        let _ = write!(d, "M{x:.1} {:.1}v{:.1}", f.bottom, -TICK);
    }
    let (edge, tick) = if l.right { (f.right, -TICK) } else { (f.left, TICK) };
    for (y, _) in &ys {
        let _ = write!(d, "M{edge:.1} {y:.1}h{tick:.1}");
    }
    let _ = write!(
        out,
        r##"<rect {} fill="none" stroke="#000000" stroke-width="{K}"/><path d="{d}" stroke="#000000" stroke-width="{K}" fill="none"/>"##,
        rect(frame_rect)
    );
    let text = |x: f64, y: f64, anchor: &str, t: &str| {
        format!(
            r##"<text class="fric-inset-tick" x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" font-family="sans-serif" font-size="{FONT:.2}" fill="#000000">{}</text>"##,
            math::escape(t)
        )
    };
    for (v, t) in l.xticks.iter().filter(|(_, t)| !t.is_empty()) {
        let (x, y) = x_label_at(f, *v);
        out.push_str(&text(x, y, "middle", t));
    }
    for (v, t) in l.yticks.iter().filter(|(_, t)| !t.is_empty()) {
        let (x, y) = y_label_at(f, *v, l.right);
        out.push_str(&text(x, y, if l.right { "start" } else { "end" }, t));
    }
    out.push_str("</g>\n");
}

/// The connectors of inset `l` of panel `n`, written after every inset of the panel: over the
/// insets' white grounds (drawn under its own, a connector vanished into the labels' margin, and
/// under another's it was cut: report 5.34, 5.27, 5.24, rev59c), as PGF draws them after the
/// insets.
pub(crate) fn write_connectors(out: &mut String, n: usize, l: &InsetLayer) {
    use std::fmt::Write;
    if !l.connectors.is_empty() {
        let d: String = l
            .connectors
            .iter()
            .map(|[a, b]| format!("M{:.1} {:.1}L{:.1} {:.1}", a.0, a.1, b.0, b.1))
            .collect();
        let _ = write!(
            out,
            r##"<path class="fric-inset-connector" d="{d}" fill="none" stroke="#000000" stroke-width="{CONNECTOR}" clip-path="url(#fric-clip-{n})"/>"##
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Report 4.8's and 4.9's insets (69.6…70.3 s, 88.6…89.2 s, 0.5…0.65 N·m) showed one tick
    /// each before the finer step; every window shows at least two.
    #[test]
    fn an_inset_axis_shows_at_least_two_ticks() {
        for (lo, hi) in [
            (69.6, 70.3),
            (88.6, 89.2),
            (0.5, 0.65),
            (0.55, 0.75),
            (0.179, 0.181),
            (0.0, 1.0),
        ] {
            let t = labelled(lo, hi, Scale::Linear, 1.0);
            assert!(t.len() >= 2 && t.len() <= 3 * MAX_TICKS, "{lo}…{hi}: {t:?}");
        }
    }
}
