//! Plotting ranges of a panel: automatic (padded 5 %), fixed, shared by a column of panels, a
//! log axis' data-driven floor, and widened to equal aspect on request.

use crate::ticks::axis_power;
use crate::{AxisSpec, FigureData, PanelData};
use fric_manifest::Scale;

fn auto_range(vals: impl Iterator<Item = f64>, fixed: Option<[f64; 2]>, scale: Scale) -> (f64, f64) {
    let tf = crate::series::tf;
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

/// Plotting ranges of a panel (log10 of the values on a log axis).
pub(crate) struct Ranges {
    pub x: (f64, f64),
    pub y: (f64, f64),
    /// The powers of ten the x and y tick labels are shown in (see [`unit_powers`]).
    pub powers: (i32, i32),
}

/// A panel in a column of panels sharing their x axis: the common x range, and whether this
/// panel (the bottom one) carries the x tick labels and the axis label.
#[derive(Clone, Copy)]
pub(crate) struct Shared {
    pub x: (f64, f64),
    pub labels: bool,
}

/// Panel `i`'s share of the figure's common x range `x` (see [`shared_x`]), if it has one.
pub(crate) fn shared_of(fig: &FigureData, x: Option<(f64, f64)>, i: usize) -> Option<Shared> {
    x.map(|x| Shared {
        x,
        labels: i + 1 == fig.panels.len(),
    })
}

/// Panels stacked in one column with the same x quantity, unit and scale share one x range and
/// label it once, at the bottom (time histories of quantities with different units), unless one
/// panel's data span less than half of the common range.
pub(crate) fn shared_x(fig: &FigureData) -> Option<(f64, f64)> {
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

pub(crate) fn ranges(p: &PanelData, shared: Option<Shared>) -> Ranges {
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
    let x = shared.map_or_else(|| auto_range(xs, p.x.range, p.x.scale), |s| s.x);
    Ranges {
        powers: (own_power(&p.x, x), own_power(&p.y, y)),
        x,
        y,
    }
}

/// The power of ten an axis over `r` alone would be shown in (0 on a log axis).
fn own_power(a: &AxisSpec, r: (f64, f64)) -> i32 {
    if a.scale == Scale::Log {
        0
    } else {
        axis_power(r.0, r.1)
    }
}

/// The largest magnitude an axis shows in its group's unit below which the group's power of ten
/// gives way to the axis' own: its labels would start with more than three zeros after the
/// point. Report Fig 3.4's g(v) − 2 N panel (a 2.5 nN dip) in its group's mN printed 0 …
/// −0.0000025; report Figs 3.17(a) (0 … 0.0005) and 3.18(a) (±0.0003 rad), three zeros, keep
/// their group's unit as their companions print it.
const GROUP_UNIT_FLOOR: f64 = 1e-4;

/// The power of ten an axis over `r` with its own power `own` is shown in when its group's
/// largest magnitude in that unit is `group` (see [`GROUP_UNIT_FLOOR`]).
fn group_or_own(group: f64, r: (f64, f64), own: i32) -> i32 {
    let shared = axis_power(-group, group);
    let m = r.0.abs().max(r.1.abs()) / 10f64.powi(shared);
    if m < GROUP_UNIT_FLOOR {
        own
    } else {
        shared
    }
}

/// The powers of ten each panel's x and y tick labels are shown in. Linear axes of one figure
/// with the same unit share one, chosen by the largest magnitude among them (and among the
/// figure's `companions`, magnitudes by unit), so magnitudes the text compares read in the
/// same unit (mrad beside mrad, not beside rad); axes without a unit and log axes keep their
/// own, and so does an axis the shared unit would print with more than three zeros after the
/// point ([`GROUP_UNIT_FLOOR`]).
pub(crate) fn unit_powers(fig: &FigureData, shared: Option<(f64, f64)>) -> Vec<(i32, i32)> {
    use std::collections::BTreeMap;
    let all: Vec<Ranges> = (0..fig.panels.len())
        .map(|i| ranges(&fig.panels[i], shared_of(fig, shared, i)))
        .collect();
    let key = |a: &AxisSpec| {
        a.unit
            .as_deref()
            .filter(|u| !u.is_empty() && a.scale != Scale::Log)
            .map(str::to_string)
    };
    let mut biggest: BTreeMap<String, f64> = fig.companions.iter().cloned().collect();
    for (p, r) in fig.panels.iter().zip(&all) {
        for (a, (lo, hi)) in [(&p.x, r.x), (&p.y, r.y)] {
            if let Some(u) = key(a) {
                let m = biggest.entry(u).or_insert(0.0);
                *m = m.max(lo.abs().max(hi.abs()));
            }
        }
    }
    let power = |a: &AxisSpec, r: (f64, f64), own: i32| {
        key(a)
            .and_then(|u| biggest.get(&u))
            .map_or(own, |m| group_or_own(*m, r, own))
    };
    fig.panels
        .iter()
        .zip(&all)
        .map(|(p, r)| (power(&p.x, r.x, r.powers.0), power(&p.y, r.y, r.powers.1)))
        .collect()
}

/// The largest magnitude of each unit on the figure's linear axes (what [`unit_powers`] reads;
/// a companion figure's are passed to it in `FigureData::companions`).
pub fn unit_magnitudes(fig: &FigureData) -> Vec<(String, f64)> {
    let shared = shared_x(fig);
    let mut out: Vec<(String, f64)> = Vec::new();
    for (i, p) in fig.panels.iter().enumerate() {
        let r = ranges(p, shared_of(fig, shared, i));
        for (a, (lo, hi)) in [(&p.x, r.x), (&p.y, r.y)] {
            let Some(u) = a.unit.as_deref().filter(|u| !u.is_empty() && a.scale != Scale::Log) else {
                continue;
            };
            let m = lo.abs().max(hi.abs());
            match out.iter_mut().find(|(v, _)| v == u) {
                Some((_, b)) => *b = b.max(m),
                None => out.push((u.to_string(), m)),
            }
        }
    }
    out
}

/// The data-driven floor of a log axis (log10): per series, the smallest positive value, unless
/// some values fall more than a decade below the series' 2nd percentile (a quantity dipping
/// through zero, like an energy reset at each reversal): then a decade below that percentile, so
/// the dips are cut at the axis and the envelope is shown whole. The lowest over the series.
pub(crate) fn log_floor<'a>(series: impl Iterator<Item = &'a [f64]>) -> Option<f64> {
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

impl Ranges {
    /// Widen the x or the y range about its centre so that one unit of each is as long on a
    /// frame `w` by `h` drawing units (linear axes; a log axis is left as it is).
    pub(crate) fn equalize(&mut self, w: f64, h: f64, scales: (Scale, Scale)) {
        if scales.0 == Scale::Log || scales.1 == Scale::Log || w <= 0.0 || h <= 0.0 {
            return;
        }
        let (ux, uy) = ((self.x.1 - self.x.0) / w, (self.y.1 - self.y.0) / h);
        let widen = |r: &mut (f64, f64), span: f64| {
            let c = 0.5 * (r.0 + r.1);
            *r = (c - 0.5 * span, c + 0.5 * span);
        };
        if ux < uy {
            widen(&mut self.x, uy * w);
        } else if uy < ux {
            widen(&mut self.y, ux * h);
        }
    }
}
