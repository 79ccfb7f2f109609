//! Where a published point's label goes: beside its marker, in the first quadrant (above right,
//! above left, below right, below left) where the label's box lies inside the axes frame and
//! clear of the panel's ink; else the first quadrant inside the frame; else above right. A
//! label near the top or right edge of the frame is so flipped below or left of its point,
//! whatever the axis ranges, and PGFPlots anchors it the same way.

use crate::legend::covers;
use crate::math;
use crate::series::{Frame, Mapped, K, LEGEND_FONT};
use crate::style::MARKER_PX;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The side of its point a label is drawn on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelSide {
    AboveRight,
    AboveLeft,
    BelowRight,
    BelowLeft,
}

impl LabelSide {
    const ALL: [LabelSide; 4] = [
        LabelSide::AboveRight,
        LabelSide::AboveLeft,
        LabelSide::BelowRight,
        LabelSide::BelowLeft,
    ];

    pub(crate) fn left(self) -> bool {
        matches!(self, LabelSide::AboveLeft | LabelSide::BelowLeft)
    }

    pub(crate) fn below(self) -> bool {
        matches!(self, LabelSide::BelowRight | LabelSide::BelowLeft)
    }

    /// The PGFPlots/TikZ anchor of a node drawn on this side of its point.
    pub fn pgf_anchor(self) -> &'static str {
        match self {
            LabelSide::AboveRight => "south west",
            LabelSide::AboveLeft => "south east",
            LabelSide::BelowRight => "north west",
            LabelSide::BelowLeft => "north east",
        }
    }

    /// The SVG `text-anchor` of the label.
    pub(crate) fn text_anchor(self) -> &'static str {
        if self.left() {
            "end"
        } else {
            "start"
        }
    }
}

/// Distance from a point's centre to its label's box, in drawing units.
pub(crate) const OFFSET: f64 = (MARKER_PX + 3.0) * K;

/// The height of a label's glyphs above and below its baseline, in ems of DejaVu Sans (its
/// ascender and descender, as rasterised).
const ASCENT: f64 = 0.76;
const DESCENT: f64 = 0.24;

/// The label's box on `side` of point `p`, for a label `w` drawing units wide: its baseline
/// [`OFFSET`] above the point, or its ascender [`OFFSET`] below it; its near edge [`OFFSET`]
/// right or left of it.
pub(crate) fn rect(p: (f64, f64), w: f64, side: LabelSide) -> [f64; 4] {
    let (x, y) = anchor(p, side);
    let x0 = if side.left() { x - w } else { x };
    [x0, y - ASCENT * LEGEND_FONT, x0 + w, y + DESCENT * LEGEND_FONT]
}

/// Where the label's text is anchored on `side` of `p`: x at its start or end (as
/// [`LabelSide::text_anchor`] says), y at its baseline.
pub(crate) fn anchor(p: (f64, f64), side: LabelSide) -> (f64, f64) {
    let x = if side.left() { p.0 - OFFSET } else { p.0 + OFFSET };
    let y = if side.below() {
        p.1 + OFFSET + ASCENT * LEGEND_FONT
    } else {
        p.1 - OFFSET
    };
    (x, y)
}

fn inside(frame: &Frame, r: [f64; 4]) -> bool {
    r[0] >= frame.left && r[2] <= frame.right && r[1] >= frame.top && r[3] <= frame.bottom
}

/// The side of point `p` for a label `w` drawing units wide: see the module's rule. `ink` is the
/// panel's series: the label keeps clear of every curve and band and of every other marker
/// (its own point's marker is beside it by construction), and of the legend's box `legend`
/// when the legend is inside the frame, and of the labels already placed (`placed`, boxes;
/// report Fig 2.4's labels 2 and 5, points 0.1 mrad apart, were printed over each other).
pub(crate) fn side(
    frame: &Frame,
    p: (f64, f64),
    w: f64,
    ink: &[Mapped],
    legend: Option<[f64; 4]>,
    placed: &[[f64; 4]],
) -> LabelSide {
    let fits = |s: &LabelSide| inside(frame, rect(p, w, *s));
    let m = MARKER_PX * K;
    let clear = |s: &LabelSide| {
        let r = rect(p, w, *s);
        let off_legend = legend.is_none_or(|b| r[2] <= b[0] || r[0] >= b[2] || r[3] <= b[1] || r[1] >= b[3]);
        let marker_in =
            |q: &(f64, f64)| *q != p && q.0 > r[0] - m && q.0 < r[2] + m && q.1 > r[1] - m && q.1 < r[3] + m;
        let apart = |b: &[f64; 4]| r[2] <= b[0] || r[0] >= b[2] || r[3] <= b[1] || r[1] >= b[3];
        off_legend
            && placed.iter().all(apart)
            && !ink.iter().any(|s| {
                let markers = s.markers();
                if markers.is_empty() {
                    covers(s, r)
                } else {
                    markers.iter().any(marker_in)
                }
            })
    };
    LabelSide::ALL
        .iter()
        .find(|s| fits(s) && clear(s))
        .or_else(|| LabelSide::ALL.iter().find(|s| fits(s)))
        .copied()
        .unwrap_or(LabelSide::AboveRight)
}

/// Choose the side of every published point's label of a panel (`series` mapped on `frame`),
/// each label's width measured as plotters measures the legend's text.
pub(crate) fn place_all<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    frame: &Frame,
    series: &mut [Mapped],
    legend: Option<[f64; 4]>,
) {
    let font: TextStyle = ("sans-serif", crate::LABEL_SIZE * crate::K).into();
    let mut placed: Vec<[f64; 4]> = vec![];
    let sides: Vec<Vec<LabelSide>> = series
        .iter()
        .map(|s| {
            let points = s.lines.iter().flatten();
            points
                .zip(&s.point_labels)
                .map(|(p, l)| {
                    let w = l.as_deref().map_or(0.0, |t| {
                        area.estimate_text_size(&math::plain(t), &font)
                            .map_or(0.0, |(w, _)| w as f64)
                    });
                    let side = side(frame, *p, w, series, legend, &placed);
                    if l.is_some() {
                        placed.push(rect(*p, w, side));
                    }
                    side
                })
                .collect()
        })
        .collect();
    for (s, v) in series.iter_mut().zip(sides) {
        s.label_sides = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fric_manifest::Scale;

    fn frame() -> Frame {
        Frame {
            left: 100.0,
            top: 50.0,
            right: 2100.0,
            bottom: 1550.0,
            x: (0.0, 1.0),
            y: (0.0, 1.0),
            xs: Scale::Linear,
            ys: Scale::Linear,
        }
    }

    #[test]
    fn a_label_near_an_edge_flips_inside_the_frame() {
        let f = frame();
        let size = 300.0;
        let mid = (1000.0, 800.0);
        assert_eq!(side(&f, mid, size, &[], None, &[]), LabelSide::AboveRight);
        let top_right = (2090.0, 60.0);
        let s = side(&f, top_right, size, &[], None, &[]);
        assert_eq!(s, LabelSide::BelowLeft);
        assert!(inside(&f, rect(top_right, size, s)));
        assert_eq!(side(&f, (1000.0, 60.0), size, &[], None, &[]), LabelSide::BelowRight);
        assert_eq!(side(&f, (2090.0, 800.0), size, &[], None, &[]), LabelSide::AboveLeft);
    }

    #[test]
    fn a_label_keeps_clear_of_an_inside_legend() {
        let f = frame();
        let (size, mid) = (300.0, (1000.0, 800.0));
        // A legend box over the above-right side of the point: the label goes above-left.
        let legend = [1010.0, 700.0, 1400.0, 790.0];
        let s = side(&f, mid, size, &[], Some(legend), &[]);
        assert_eq!(s, LabelSide::AboveLeft);
        let r = rect(mid, size, s);
        assert!(r[2] <= legend[0] || r[0] >= legend[2] || r[3] <= legend[1] || r[1] >= legend[3]);
    }

    #[test]
    fn a_label_keeps_clear_of_a_label_placed_before() {
        let f = frame();
        let (size, p) = (300.0, (1000.0, 800.0));
        // Report Fig 2.4's points 2 and 5: a second point just above the first, whose label
        // took its above-right side.
        let first = rect(p, size, LabelSide::AboveRight);
        let q = (p.0 + 10.0, p.1 - 20.0);
        let s = side(&f, q, size, &[], None, &[first]);
        assert_ne!(s, LabelSide::AboveRight);
        let r = rect(q, size, s);
        assert!(r[2] <= first[0] || r[0] >= first[2] || r[3] <= first[1] || r[1] >= first[3]);
    }
}
