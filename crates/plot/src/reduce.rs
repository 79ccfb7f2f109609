//! Series sized to the ink: which samples of each series a figure needs so that the curve drawn
//! through them is the curve drawn through all of them, to within a quarter of an SVG pixel (a
//! 640-pixel panel prints 3.5 in wide: a quarter pixel is 1/730 in, under one dot of a 600 dpi
//! printer).
//!
//! Reduction works on the curve as drawn: every sample mapped to pixels with the panel's ranges,
//! which are computed once from all samples and then fixed (the reduced figure has the axes of
//! the full one). The pixel scale is the panel's whole width and height over the axis span; the
//! axes frame is smaller, so a quarter pixel here is less on the page.
//! - Lines (solid, dashed, dotted): each run of consecutive samples inside one column an eighth
//!   of a pixel wide keeps its first, lowest, highest and last samples (M4: the line through them
//!   covers the run's vertical extent in the column, so no sample is farther than the column's
//!   width from it), then Douglas–Peucker with a tolerance of an eighth of a pixel on what is
//!   left (every dropped vertex within it of its chord, and so every segment through dropped
//!   vertices). Both keep the order of the samples, so loops and retracing curves (x not
//!   monotone) are reduced as curves; the two errors add up to at most a quarter pixel.
//! - Bands: Douglas–Peucker on both edges at once (a sample is dropped only if both its edges
//!   are within the tolerance), with the quarter pixel.
//! - Points: a marker is dropped only if a kept marker lies within a quarter pixel of it (the
//!   first of each square cell with a quarter-pixel diagonal is kept), so the ink of the markers
//!   drawn is the ink of all of them to within a quarter pixel. (Dropping only markers fully
//!   covered by the others' union needs the axes frame in SVG pixels, which only the drawing
//!   knows; the pixels here are the panel's, larger than the frame's.) Markers without a
//!   position are not drawn, and dropped.
//!
//! Samples without a position (non-finite, or not positive on a log axis) split a line or band
//! when drawn: the first and last of each such run are kept, so the split stays where it was.
//!
//! A series of computed points ([`SeriesData::results`]: a grid run, each sample a result such
//! as a refined describing-function point) drawn as markers (`points`, `circles`) keeps, besides
//! the above, every sample inside the panel's ranges and every inset's region: each marker is a
//! result, and the printed files (CSV, PGFPlots) hold every one a zoom window shows. Drawn as a
//! line it is reduced like any line: the line shows no sample as a point, so a sample it drops
//! is not a drawn result, and the line through the kept ones is within a quarter pixel of the
//! full one (a straight grid line, ruderman-paper Fig 2's y = x, keeps its two ends, not all
//! 20 001 samples).

use crate::ranges::{self, shared_of, shared_x};
use crate::style::{Keep, Style};
use crate::{series::tf, FigureData, SeriesData};
use fric_manifest::Scale;

/// The error bound, in SVG pixels.
pub const TOLERANCE_PX: f64 = 0.25;

/// The kept sample indices of every series (per panel, per series, increasing), and each panel's
/// axis ranges as data values (what [`apply`] fixes).
pub struct Reduction {
    pub keep: Vec<Vec<Vec<usize>>>,
    ranges: Vec<([f64; 2], [f64; 2])>,
}

/// The samples `fig` needs (see the module documentation).
pub fn reduce(fig: &FigureData) -> Reduction {
    let shared = shared_x(fig);
    let mut keep = Vec::new();
    let mut ranges = Vec::new();
    for (i, p) in fig.panels.iter().enumerate() {
        let r = ranges::ranges(p, shared_of(fig, shared, i));
        let px = Pixels {
            x0: r.x.0,
            y0: r.y.0,
            sx: f64::from(fig.panel_width) / (r.x.1 - r.x.0),
            sy: f64::from(fig.panel_height) / (r.y.1 - r.y.0),
            xs: p.x.scale,
            ys: p.y.scale,
            region: None,
        };
        // An inset draws its region larger: the samples its pixels need are kept too.
        let zooms: Vec<Pixels> = p
            .insets
            .iter()
            .map(|i| zoom(p, i, fig.panel_width, fig.panel_height))
            .collect();
        keep.push(
            p.series
                .iter()
                .map(|s| {
                    let k = zooms
                        .iter()
                        .fold(series_keep(&px, s), |k, z| union(k, series_keep(z, s)));
                    if s.results && marks_each_sample(s.style) {
                        let visible = (fig.panel_width, fig.panel_height);
                        let shown = zooms
                            .iter()
                            .fold(in_view(&px, s, visible), |v, z| union(v, in_view(z, s, visible)));
                        union(k, shown)
                    } else {
                        k
                    }
                })
                .collect(),
        );
        ranges.push((values(p.x.scale, r.x), values(p.y.scale, r.y)));
    }
    Reduction { keep, ranges }
}

/// Keep only the samples `r` keeps in every series of `fig`, and fix its panels' ranges to those
/// of the full data.
pub fn apply(fig: &mut FigureData, r: &Reduction) {
    for ((p, keep), range) in fig.panels.iter_mut().zip(&r.keep).zip(&r.ranges) {
        for (s, k) in p.series.iter_mut().zip(keep) {
            s.x = pick(&s.x, k);
            s.y = pick(&s.y, k);
            s.y2 = s.y2.as_ref().map(|v| pick(v, k));
        }
        p.x.range = Some(range.0);
        p.y.range = Some(range.1);
    }
}

/// `v` at the indices `k`.
pub fn pick(v: &[f64], k: &[usize]) -> Vec<f64> {
    k.iter().map(|&i| v[i]).collect()
}

/// A plotting range back to data values (the inverse of `tf`).
fn values(scale: Scale, r: (f64, f64)) -> [f64; 2] {
    match scale {
        Scale::Log => [10f64.powf(r.0), 10f64.powf(r.1)],
        _ => [r.0, r.1],
    }
}

/// Data values to pixels (y up; only distances matter).
struct Pixels {
    x0: f64,
    y0: f64,
    sx: f64,
    sy: f64,
    xs: Scale,
    ys: Scale,
    /// Only samples in this region (plotting coordinates: x0, y0, x1, y1) have a position: an
    /// inset's (the samples just outside it are kept as the ends of runs without one).
    region: Option<[f64; 4]>,
}

impl Pixels {
    fn map(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        let (u, v) = (tf(self.xs, x), tf(self.ys, y));
        let inside = self
            .region
            .is_none_or(|r| (r[0]..=r[2]).contains(&u) && (r[1]..=r[3]).contains(&v));
        (u.is_finite() && v.is_finite() && inside).then_some(((u - self.x0) * self.sx, (v - self.y0) * self.sy))
    }
}

/// The pixels of an inset: its region over at most its share of the panel's size (its axes are
/// that share of the panel's axes, which are smaller than the panel).
fn zoom(p: &crate::PanelData, i: &fric_manifest::Inset, w: u32, h: u32) -> Pixels {
    let (x0, x1) = (tf(p.x.scale, i.x[0]), tf(p.x.scale, i.x[1]));
    let (y0, y1) = (tf(p.y.scale, i.y[0]), tf(p.y.scale, i.y[1]));
    Pixels {
        x0,
        y0,
        sx: i.size * f64::from(w) / (x1 - x0),
        sy: i.size * f64::from(h) / (y1 - y0),
        xs: p.x.scale,
        ys: p.y.scale,
        region: Some([x0, y0, x1, y1]),
    }
}

/// Whether `style` draws a marker at every sample (so a computed point is drawn as a result).
fn marks_each_sample(style: Style) -> bool {
    style.marker().is_some()
}

/// Two increasing index lists merged (increasing, without repeats).
fn union(a: Vec<usize>, b: Vec<usize>) -> Vec<usize> {
    let mut v = a;
    v.extend(b);
    v.sort_unstable();
    v.dedup();
    v
}

/// The samples of `s` drawn inside the pixels' view: the panel's ranges (`size`: the panel's
/// pixel size, the ranges' extent) or, for an inset, its region.
fn in_view(px: &Pixels, s: &SeriesData, size: (u32, u32)) -> Vec<usize> {
    let (w, h) = (f64::from(size.0), f64::from(size.1));
    let inside = |(u, v): (f64, f64)| px.region.is_some() || ((0.0..=w).contains(&u) && (0.0..=h).contains(&v));
    let n = s.x.len().min(s.y.len());
    (0..n).filter(|&i| px.map(s.x[i], s.y[i]).is_some_and(inside)).collect()
}

fn series_keep(px: &Pixels, s: &SeriesData) -> Vec<usize> {
    let n = s.x.len().min(s.y.len());
    let mapped = |y: &[f64]| -> Vec<Option<(f64, f64)>> { (0..n).map(|i| px.map(s.x[i], y[i])).collect() };
    let a = mapped(&s.y);
    match (s.style.keep, &s.y2) {
        (Keep::Distinct, _) => distinct_markers(&a),
        // Published values are few and each carries its label: all kept.
        (Keep::All, _) => (0..n).collect(),
        (Keep::Band, Some(y2)) if y2.len() >= n => {
            let b = mapped(y2);
            // A sample is drawable only if both its edges are.
            let both: Vec<Option<(f64, f64)>> = a.iter().zip(&b).map(|(p, q)| p.and(*q)).collect();
            pieces(&both, |piece| {
                let idx: Vec<usize> = piece.collect();
                douglas_peucker(&idx, &[&a, &b], TOLERANCE_PX)
            })
        }
        _ => pieces(&a, |piece| {
            let m4 = columns(piece, &a, TOLERANCE_PX / 2.0);
            douglas_peucker(&m4, &[&a], TOLERANCE_PX / 2.0)
        }),
    }
}

/// Markers at distinct positions (markers without one are not drawn): the first marker of each square cell whose diagonal is a
/// quarter pixel, in order; a dropped marker is within a quarter pixel of a kept one, so its
/// ink is that marker's ink shifted by less than a quarter pixel.
fn distinct_markers(a: &[Option<(f64, f64)>]) -> Vec<usize> {
    let cell = TOLERANCE_PX / std::f64::consts::SQRT_2;
    let mut seen = std::collections::HashSet::new();
    (0..a.len())
        .filter(|&i| match a[i] {
            Some((u, v)) => seen.insert(((u / cell).floor() as i64, (v / cell).floor() as i64)),
            // A marker without a position is not drawn (nor does it split anything).
            None => false,
        })
        .collect()
}

/// Reduce each drawable piece of a series with `f` (given the piece's indices); keep the first
/// and last sample of every run without a position.
fn pieces(a: &[Option<(f64, f64)>], mut f: impl FnMut(std::ops::Range<usize>) -> Vec<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < a.len() {
        let start = i;
        let drawable = a[i].is_some();
        while i < a.len() && a[i].is_some() == drawable {
            i += 1;
        }
        if drawable {
            out.extend(f(start..i));
        } else {
            out.push(start);
            if i - 1 > start {
                out.push(i - 1);
            }
        }
    }
    out
}

/// M4 over consecutive runs within one column `w` pixels wide: each run's first, lowest,
/// highest and last sample, in order.
fn columns(piece: std::ops::Range<usize>, a: &[Option<(f64, f64)>], w: f64) -> Vec<usize> {
    let at = |i: usize| a[i].expect("a piece holds drawable samples only");
    let col = |i: usize| (at(i).0 / w).floor();
    let mut out = Vec::new();
    let mut start = piece.start;
    while start < piece.end {
        let c = col(start);
        let (mut lo, mut hi, mut end) = (start, start, start);
        while end + 1 < piece.end && col(end + 1) == c {
            end += 1;
            if at(end).1 < at(lo).1 {
                lo = end;
            }
            if at(end).1 > at(hi).1 {
                hi = end;
            }
        }
        let mut k = [start, lo, hi, end];
        k.sort_unstable();
        for i in k {
            if out.last() != Some(&i) {
                out.push(i);
            }
        }
        start = end + 1;
    }
    out
}

/// Distance from `p` to the segment `a`–`b`.
fn to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
}

/// Douglas–Peucker on the polyline through `idx` (indices into every curve of `curves`, all
/// drawable there): the kept indices, so that every dropped one is within `tol` of the chord
/// between its kept neighbours on every curve. Iterative (no recursion depth limit).
fn douglas_peucker(idx: &[usize], curves: &[&Vec<Option<(f64, f64)>>], tol: f64) -> Vec<usize> {
    if idx.len() <= 2 {
        return idx.to_vec();
    }
    let at = |c: &Vec<Option<(f64, f64)>>, i: usize| c[i].expect("drawable");
    let mut keep = vec![false; idx.len()];
    keep[0] = true;
    keep[idx.len() - 1] = true;
    let mut stack = vec![(0, idx.len() - 1)];
    while let Some((s, e)) = stack.pop() {
        let (mut worst, mut at_k) = (0.0, 0);
        for k in s + 1..e {
            let d = curves
                .iter()
                .map(|c| to_segment(at(c, idx[k]), at(c, idx[s]), at(c, idx[e])))
                .fold(0.0, f64::max);
            if d > worst {
                worst = d;
                at_k = k;
            }
        }
        if worst > tol {
            keep[at_k] = true;
            stack.push((s, at_k));
            stack.push((at_k, e));
        }
    }
    idx.iter().zip(keep).filter_map(|(&i, k)| k.then_some(i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn px() -> Pixels {
        Pixels {
            x0: 0.0,
            y0: 0.0,
            sx: 1.0,
            sy: 1.0,
            xs: Scale::Linear,
            ys: Scale::Linear,
            region: None,
        }
    }

    fn line(x: Vec<f64>, y: Vec<f64>, style: Style) -> SeriesData {
        SeriesData {
            x,
            y,
            y2: None,
            style,
            label: None,
            color: None,
            arrows: 0,
            point_labels: vec![],
            marker_size: None,
            results: false,
        }
    }

    /// Distance from `p` to the polyline through `pts`.
    fn to_polyline(p: (f64, f64), pts: &[(f64, f64)]) -> f64 {
        if pts.len() == 1 {
            return (p.0 - pts[0].0).hypot(p.1 - pts[0].1);
        }
        pts.windows(2)
            .map(|w| to_segment(p, w[0], w[1]))
            .fold(f64::INFINITY, f64::min)
    }

    /// A loop traced many times (x not monotone) and a dense sawtooth: far fewer samples, and
    /// every sample within a quarter pixel of the reduced curve.
    #[test]
    fn every_sample_stays_within_a_quarter_pixel() {
        let n = 200_000;
        let t: Vec<f64> = (0..n).map(|i| i as f64 / n as f64).collect();
        let cases = [
            (
                t.iter().map(|t| 300.0 * (40.0 * t).cos()).collect::<Vec<f64>>(),
                t.iter()
                    .map(|t| 200.0 * (40.0 * t).sin() + 30.0 * (400.0 * t).sin())
                    .collect::<Vec<f64>>(),
            ),
            (
                t.iter().map(|t| 600.0 * t).collect(),
                t.iter().map(|t| 400.0 * ((3000.0 * t) % 1.0)).collect(),
            ),
        ];
        for (x, y) in cases {
            let s = line(x.clone(), y.clone(), crate::style::SOLID);
            let k = series_keep(&px(), &s);
            assert!(k.len() < n / 5, "kept {} of {n}", k.len());
            let pts: Vec<(f64, f64)> = k.iter().map(|&i| (x[i], y[i])).collect();
            let worst = (0..n)
                .step_by(7)
                .map(|i| to_polyline((x[i], y[i]), &pts))
                .fold(0.0, f64::max);
            assert!(
                worst <= TOLERANCE_PX + 1e-9,
                "a sample {worst} px from the reduced curve"
            );
        }
    }

    #[test]
    fn coincident_markers_only_are_dropped_and_gaps_stay() {
        let s = line(
            vec![0.0, 1.0, 0.01, 2.0, 2.2, 3.0],
            vec![0.0, 1.0, 0.01, 2.0, 2.0, f64::NAN],
            crate::style::POINTS,
        );
        assert_eq!(series_keep(&px(), &s), vec![0, 1, 3, 4]);
        let s = line(
            (0..10).map(f64::from).collect(),
            vec![0.0, 0.0, f64::NAN, f64::NAN, f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0],
            crate::style::SOLID,
        );
        assert_eq!(series_keep(&px(), &s), vec![0, 1, 2, 4, 5, 9]);
    }

    /// A figure of one panel showing x in [0.4, 0.6] of a straight series of 101 samples over
    /// [0, 1] (a refined describing-function curve crossing a zoom window is straight there).
    fn zoomed(computed: bool, style: Style) -> FigureData {
        let x: Vec<f64> = (0..=100).map(|i| f64::from(i) / 100.0).collect();
        let mut s = line(x.clone(), x.iter().map(|v| 2.0 * v).collect(), style);
        s.results = computed;
        let axis = |r: [f64; 2]| crate::AxisSpec {
            label: "x".into(),
            unit: None,
            scale: Scale::Linear,
            range: Some(r),
        };
        FigureData {
            rows: 1,
            cols: 1,
            panel_width: 640,
            panel_height: 480,
            panels: vec![crate::PanelData {
                id: "a".into(),
                title: None,
                x: axis([0.4, 0.6]),
                y: axis([0.8, 1.2]),
                legend: fric_manifest::LegendPos::None,
                series: vec![s],
                equal_aspect: false,
                insets: vec![],
            }],
            companions: vec![],
        }
    }

    /// Thinning keeps every computed sample the panel shows as a marker (21 in the window, as
    /// points or circles), and thins a straight line to its ends whether its samples are computed
    /// points (a grid run drawn as a line) or an integrator's output.
    #[test]
    fn computed_points_inside_the_view_are_all_kept() {
        let shown: Vec<usize> = (40..=60).collect();
        for style in [crate::style::POINTS, crate::style::CIRCLES] {
            let keep = &reduce(&zoomed(true, style)).keep[0][0];
            for i in &shown {
                assert!(
                    keep.contains(i),
                    "computed sample {i} in the window dropped ({style:?}): kept {keep:?}"
                );
            }
        }
        for computed in [true, false] {
            let thinned = &reduce(&zoomed(computed, crate::style::SOLID)).keep[0][0];
            assert!(
                thinned.len() < 6,
                "a straight line (computed points: {computed}) kept {thinned:?}"
            );
        }
    }
}
