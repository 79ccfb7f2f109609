//! Arrowheads showing a curve's direction of travel, declared once for every backend: their
//! size, where they go on a curve ([`place`]), and how the SVG ([`svg`]) and PGFPlots
//! ([`pgf`]) draw them. An arrowhead is always solid, whatever the curve's dash pattern.
//!
//! Placement: the `n` heads are aimed at arc-length fractions (k + 1/2)/n of the curve's
//! longest piece; each then moves, within its share of the curve, to the point farthest from
//! the curve's turning points (extrema in x or y, where a head on a peak points nowhere useful)
//! and from the panel's markers, and a head is dropped when it would sit on one already placed
//! (a loop retraced many times gets one head per place, not one per cycle).

/// Length and half width of a head, in SVG pixels (a series' stroke is 2 px).
pub const LEN_PX: f64 = 8.0;
pub const HALF_PX: f64 = 4.0;
/// How far, in SVG pixels, a head keeps from turning points and markers when it can.
pub const CLEAR_PX: f64 = 14.0;

/// An arrowhead: its tip and its base's centre (both on the curve).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Head {
    pub tip: (f64, f64),
    pub base: (f64, f64),
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// Points where the polyline turns back in x or in y (by more than `eps`), and its ends.
fn turning_points(l: &[(f64, f64)], eps: f64) -> Vec<(f64, f64)> {
    let mut out = vec![l[0], l[l.len() - 1]];
    for axis in 0..2 {
        let c = |p: (f64, f64)| if axis == 0 { p.0 } else { p.1 };
        // The last extreme point and the direction since it (0 until it moved by eps).
        let (mut ext, mut dir) = (l[0], 0.0f64);
        for &p in &l[1..] {
            let d = c(p) - c(ext);
            if dir == 0.0 {
                if d.abs() > eps {
                    dir = d.signum();
                    ext = p;
                }
            } else if d * dir > 0.0 {
                ext = p;
            } else if -d * dir > eps {
                out.push(ext);
                dir = -dir;
                ext = p;
            }
        }
    }
    out
}

/// A grid of obstacle points for distance queries up to one cell.
struct Grid {
    cell: f64,
    map: std::collections::HashMap<(i64, i64), Vec<(f64, f64)>>,
}

impl Grid {
    fn new(cell: f64, pts: impl IntoIterator<Item = (f64, f64)>) -> Self {
        let mut map: std::collections::HashMap<(i64, i64), Vec<(f64, f64)>> = Default::default();
        for p in pts {
            map.entry(Self::key(cell, p)).or_default().push(p);
        }
        Grid { cell, map }
    }
    fn key(cell: f64, p: (f64, f64)) -> (i64, i64) {
        ((p.0 / cell).floor() as i64, (p.1 / cell).floor() as i64)
    }
    /// Distance to the nearest point, capped at the cell size.
    fn clearance(&self, p: (f64, f64)) -> f64 {
        let (cx, cy) = Self::key(self.cell, p);
        let mut best = self.cell;
        for dx in -1..=1 {
            for dy in -1..=1 {
                for q in self.map.get(&(cx + dx, cy + dy)).into_iter().flatten() {
                    best = best.min(dist(p, *q));
                }
            }
        }
        best
    }
}

/// The point at arc length `s` along `l` (cumulative lengths `cum`).
fn at(l: &[(f64, f64)], cum: &[f64], s: f64) -> (f64, f64) {
    let i = cum.partition_point(|&c| c < s).clamp(1, l.len() - 1);
    let d = cum[i] - cum[i - 1];
    let t = if d > 0.0 { (s - cum[i - 1]) / d } else { 0.0 };
    (
        l[i - 1].0 + t * (l[i].0 - l[i - 1].0),
        l[i - 1].1 + t * (l[i].1 - l[i - 1].1),
    )
}

/// `n` heads along the longest of `lines` (drawing units, `unit` of them per SVG pixel), away
/// from its turning points and from `avoid` (markers), none on top of another.
pub fn place(lines: &[Vec<(f64, f64)>], n: u32, avoid: &[(f64, f64)], unit: f64) -> Vec<Head> {
    let Some(l) = lines
        .iter()
        .filter(|l| l.len() > 1)
        .max_by(|a, b| length(a).total_cmp(&length(b)))
    else {
        return vec![];
    };
    let mut cum = vec![0.0];
    for w in l.windows(2) {
        cum.push(cum.last().unwrap_or(&0.0) + dist(w[0], w[1]));
    }
    let total = *cum.last().unwrap_or(&0.0);
    let (len, clear) = (LEN_PX * unit, CLEAR_PX * unit);
    if n == 0 || total <= 2.0 * len {
        return vec![];
    }
    let obstacles = turning_points(l, 2.0 * unit).into_iter().chain(avoid.iter().copied());
    let grid = Grid::new(clear, obstacles);
    let share = total / n as f64;
    let mut heads: Vec<Head> = Vec::new();
    for k in 0..n {
        let aim = (k as f64 + 0.5) * share;
        // Candidates every pixel within the head's share, nearest the aim first.
        let steps = ((share / 2.0 / unit).floor() as i64).min(400);
        let mut best: Option<(f64, Head)> = None;
        for j in 0..=2 * steps {
            let off = if j % 2 == 0 { j / 2 } else { -(j + 1) / 2 } as f64 * unit;
            let s = aim + off;
            if s < len || s > total {
                continue;
            }
            let (tip, base) = (at(l, &cum, s), at(l, &cum, s - len));
            if dist(tip, base) < 0.5 * len || heads.iter().any(|h| dist(h.tip, tip) < 2.0 * len) {
                continue;
            }
            let score = grid.clearance(tip).min(grid.clearance(base));
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, Head { tip, base }));
            }
            if score >= clear {
                break;
            }
        }
        heads.extend(best.map(|(_, h)| h));
    }
    heads
}

fn length(l: &[(f64, f64)]) -> f64 {
    l.windows(2).map(|w| dist(w[0], w[1])).sum()
}

/// The SVG of a head in colour `col` (`#RRGGBB`), `unit` drawing units per pixel: a filled
/// triangle outlined in its colour, never dashed.
pub fn svg(h: &Head, col: &str, unit: f64) -> String {
    let (dx, dy) = ((h.tip.0 - h.base.0), (h.tip.1 - h.base.1));
    let d = dx.hypot(dy).max(f64::MIN_POSITIVE);
    let (ux, uy) = (dx / d, dy / d);
    let (len, half) = (LEN_PX * unit, HALF_PX * unit);
    let (bx, by) = (h.tip.0 - len * ux, h.tip.1 - len * uy);
    format!(
        r#"<path class="fric-arrow" d="M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{col}" stroke="{col}" stroke-width="{unit}" stroke-linejoin="miter"/>"#,
        h.tip.0,
        h.tip.1,
        bx - half * uy,
        by + half * ux,
        bx + half * uy,
        by - half * ux
    )
}

/// The PGFPlots command drawing a head given in data coordinates (`base`, `tip`), in the
/// defined colour `color`: a solid stroke from base to tip ending in a LaTeX arrow tip.
pub fn pgf(base: (f64, f64), tip: (f64, f64), color: &str) -> String {
    format!(
        "\\draw[{color}, solid, thick, -latex] (axis cs:{:e},{:e}) -- (axis cs:{:e},{:e});",
        base.0, base.1, tip.0, tip.1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(turns: usize) -> Vec<(f64, f64)> {
        (0..=360 * turns)
            .map(|i| {
                let a = (i as f64).to_radians();
                (500.0 + 300.0 * a.cos(), 500.0 + 300.0 * a.sin())
            })
            .collect()
    }

    /// On a loop, heads keep away from the loop's extrema in x and y.
    #[test]
    fn heads_keep_off_extrema() {
        let l = circle(1);
        let heads = place(&[l], 4, &[], 1.0);
        assert_eq!(heads.len(), 4);
        let ext = [(800.0, 500.0), (500.0, 800.0), (200.0, 500.0), (500.0, 200.0)];
        for h in &heads {
            for e in ext {
                assert!(
                    dist(h.tip, e) >= CLEAR_PX && dist(h.base, e) >= CLEAR_PX,
                    "{h:?} near {e:?}"
                );
            }
        }
        // A marker where a head would go pushes it aside.
        let a = place(&[circle(1)], 1, &[], 1.0)[0];
        let b = place(&[circle(1)], 1, &[a.tip], 1.0)[0];
        assert!(dist(b.tip, a.tip) >= CLEAR_PX, "{a:?} {b:?}");
    }

    /// A loop retraced five times with five heads asked for gets heads at distinct places.
    #[test]
    fn a_retraced_loop_gets_one_head_per_place() {
        let heads = place(&[circle(5)], 5, &[], 1.0);
        for (i, a) in heads.iter().enumerate() {
            for b in &heads[i + 1..] {
                assert!(dist(a.tip, b.tip) >= 2.0 * LEN_PX, "{a:?} on {b:?}");
            }
        }
    }

    #[test]
    fn heads_are_solid_in_both_backends() {
        let h = Head {
            tip: (10.0, 0.0),
            base: (2.0, 0.0),
        };
        let s = svg(&h, "#000000", 1.0);
        assert!(!s.contains("dasharray") && s.contains("fill=\"#000000\""), "{s}");
        assert!(pgf((0.0, 0.0), (1.0, 1.0), "fricblack").contains("solid"));
    }
}
