//! Unimodal output transformations of closed curves and butterflies, thesis ch. V, Defs 5.2.1–5.2.2,
//! Facts 5.2.1–5.2.2, Thms 5.3.1–5.3.3, (5.1)–(5.11) (L1931–L2109).
//!
//! A closed curve `C` with two points `y_min(x) < y_max(x)` on every vertical line of its open
//! x-range is mapped by a unimodal `f` into `C′ = {(x, f(y))}`. With
//! `D(x) = f(y_min(x)) − f(y_max(x))` (5.1), the loops of `C′` are the intervals between the zeros
//! of `D`, and for a counterclockwise `C` (lower branch traversed left to right) the signed area of
//! the loop over `I_k` is `∮ q dx = ∫_{I_k} D(x) dx` (clockwise positive; the lower branch maps to
//! `f(y_min)` traversed left to right, the upper to `f(y_max)` right to left). Fact 5.2.1: a
//! butterfly iff `D` has one sign change; Fact 5.2.2: a multibutterfly iff `D` alternates on
//! `n ≥ 3` intervals.
//!
//! [`reconstruct`] is the constructive inverse of Thm 5.3.3, (5.4)–(5.11): from the butterfly
//! `C′` and the two inverses of `f`, the curve `C1` (or `C2` with the inverses swapped).

use fric_roots::{bisect, Side};
use std::convert::Infallible;

/// A closed curve, traversed counterclockwise by [`Curve::point`] for `s ∈ [0, 1)`: `s ∈ [0, ½]`
/// runs along the lower branch from left to right, `s ∈ [½, 1)` along the upper branch back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Curve {
    /// `y = ±sqrt(1 − x²) + a x + b x²`, `x ∈ [−1, 1]`: the unit circle sheared (`a`) and bent
    /// (`b`).
    Circle { a: f64, b: f64 },
    /// `y = x ± r (1 − x²)`, `x ∈ [−1, 1]`, `0 < r < ½`: a lens with unique points at both ends
    /// whose branches both increase (piecewise monotonically increasing, Def 5.3.1).
    Lens { r: f64 },
    /// The right half-disc: the arc `x = sqrt(1 − y²)` and the vertical segment `x = 0`,
    /// `|y| ≤ 1` (up-down symmetric, not unique at `x0 = 0`, Ex 5.3.1).
    HalfDisc,
}

impl Curve {
    /// The x-range `[x0, x1]`.
    pub fn x_range(&self) -> (f64, f64) {
        match self {
            Curve::HalfDisc => (0.0, 1.0),
            _ => (-1.0, 1.0),
        }
    }
    /// `(y_min(x), y_max(x))` for `x` in the x-range.
    pub fn branches(&self, x: f64) -> (f64, f64) {
        let w = (1.0 - x * x).max(0.0);
        match *self {
            Curve::Circle { a, b } => {
                let c = a * x + b * x * x;
                (c - w.sqrt(), c + w.sqrt())
            }
            Curve::Lens { r } => (x - r * w, x + r * w),
            Curve::HalfDisc => (-w.sqrt(), w.sqrt()),
        }
    }
    /// The point at parameter `s ∈ [0, 1)` (counterclockwise; `s = 0` is the leftmost point).
    pub fn point(&self, s: f64) -> (f64, f64) {
        let s = s.rem_euclid(1.0);
        match self {
            Curve::HalfDisc => {
                if s < 0.5 {
                    let phi = -std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * s;
                    (phi.cos().max(0.0), phi.sin())
                } else {
                    (0.0, 1.0 - 4.0 * (s - 0.5))
                }
            }
            _ => {
                let phi = 2.0 * std::f64::consts::PI * s;
                let x = -phi.cos();
                let (lo, hi) = self.branches(x);
                (x, if s <= 0.5 { lo } else { hi })
            }
        }
    }
}

/// A unimodal map with its extremum at `y_c`:
/// `f(y) = peak − left (y_c − y)^p` for `y ≤ y_c`, `peak − right (y − y_c)^p` for `y ≥ y_c`.
/// `left, right > 0` gives a ∧-unimodal map, `left, right < 0` a ∨-unimodal one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unimodal {
    pub yc: f64,
    pub peak: f64,
    pub left: f64,
    pub right: f64,
    pub power: f64,
}

impl Unimodal {
    pub fn eval(&self, y: f64) -> f64 {
        if y <= self.yc {
            self.peak - self.left * (self.yc - y).powf(self.power)
        } else {
            self.peak - self.right * (y - self.yc).powf(self.power)
        }
    }
    /// `true` for a ∧-unimodal map (maximum at `y_c`).
    pub fn is_wedge(&self) -> bool {
        self.left > 0.0
    }
    /// `f₋⁻¹(q)`: the `y ≤ y_c` with `f(y) = q` (clamped to `y_c` outside the range of `f`).
    pub fn inverse_left(&self, q: f64) -> f64 {
        self.yc - ((self.peak - q) / self.left).max(0.0).powf(1.0 / self.power)
    }
    /// `f₊⁻¹(q)`: the `y ≥ y_c` with `f(y) = q`.
    pub fn inverse_right(&self, q: f64) -> f64 {
        self.yc + ((self.peak - q) / self.right).max(0.0).powf(1.0 / self.power)
    }
}

/// `D(x) = f(y_min(x)) − f(y_max(x))` (5.1).
pub fn sign_function(c: &Curve, f: &Unimodal, x: f64) -> f64 {
    let (lo, hi) = c.branches(x);
    f.eval(lo) - f.eval(hi)
}

/// The zeros of `D` in the open x-range that separate loops: its sign changes, located by
/// bisection between the `n` interior grid points, and its isolated touching zeros (interior grid
/// points that are local minima of `|D|` with `|D| ≤ 1e-9 max|D|` without a sign change, as at
/// `x = 0` in Ex 5.2.2). Empty when `D ≡ 0` (within 1e-12), a degenerate curve (Ex 5.2.1).
pub fn loop_boundaries(c: &Curve, f: &Unimodal, n: usize) -> Vec<f64> {
    let (x0, x1) = c.x_range();
    let xs: Vec<f64> = (1..n).map(|i| x0 + (x1 - x0) * i as f64 / n as f64).collect();
    let d: Vec<f64> = xs.iter().map(|&x| sign_function(c, f, x)).collect();
    let big = d.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    let mut roots = Vec::new();
    if big <= 1e-12 {
        return roots;
    }
    let tiny = 1e-9 * big;
    let mut last: Option<(f64, f64)> = None; // (x, D) of the last point with |D| > tiny
    for i in 0..xs.len() {
        if d[i].abs() > tiny {
            if let Some((xa, da)) = last {
                if da.signum() != d[i].signum() {
                    // At most 100 midpoints (the bracket 2¹⁰⁰ times narrower: to rounding but near x = 0).
                    let side = |m: f64| {
                        let same = sign_function(c, f, m).signum() == da.signum();
                        Ok::<_, Infallible>(if same { Side::Lo } else { Side::Hi })
                    };
                    let Ok((a, b)) = bisect(side, xa, xs[i], 0.0, 100);
                    roots.push(0.5 * (a + b));
                }
            }
            last = Some((xs[i], d[i]));
        } else if i > 0 && i + 1 < xs.len() {
            let touch = d[i].abs() <= d[i - 1].abs() && d[i].abs() <= d[i + 1].abs();
            let same = d[i - 1].signum() == d[i + 1].signum() && d[i - 1].abs() > tiny && d[i + 1].abs() > tiny;
            if touch && same {
                roots.push(xs[i]);
            }
        }
    }
    roots
}

/// Signed areas (clockwise positive) of the loops of `f(C)` for the counterclockwise `C`: `∫ D dx`
/// over each interval between consecutive [`loop_boundaries`] (composite Simpson, `m` panels per
/// interval).
pub fn loop_areas(c: &Curve, f: &Unimodal, bounds: &[f64], m: usize) -> Vec<f64> {
    let (x0, x1) = c.x_range();
    let mut edges = vec![x0];
    edges.extend_from_slice(bounds);
    edges.push(x1);
    let m = m.max(2) & !1;
    edges
        .windows(2)
        .map(|w| {
            let h = (w[1] - w[0]) / m as f64;
            let mut s = sign_function(c, f, w[0]) + sign_function(c, f, w[1]);
            for k in 1..m {
                s += if k % 2 == 1 { 4.0 } else { 2.0 } * sign_function(c, f, w[0] + k as f64 * h);
            }
            s * h / 3.0
        })
        .collect()
}

/// Thm 5.3.3 (5.4)–(5.11): rebuild a curve from the butterfly `C′` given as samples `(x_i, q_i)`
/// in traversal order, `forward[i]` telling whether sample `i` is on the branch `g₊` traversed with
/// increasing `x` (else on `g₋`), and the two inverses of the unimodal `f`. `x_b` is where `g₊` is
/// extremal (its minimum for a ∨-unimodal `f`, its maximum for a ∧-unimodal one), `x_a` the same
/// on `g₋`. `C1` (`swap = false`): `y = f₋⁻¹(g₊)` on `[x0, x_b]`, `f₊⁻¹(g₊)` on `[x_b, x1]`,
/// `f₊⁻¹(g₋)` on `[x_a, x1]`, `f₋⁻¹(g₋)` on `[x0, x_a]` (5.4)–(5.7); `C2` (`swap = true`) swaps
/// `f₋⁻¹` and `f₊⁻¹` (5.8)–(5.11). Returns the `y` of each sample.
pub fn reconstruct(x: &[f64], q: &[f64], forward: &[bool], f: &Unimodal, swap: bool) -> Vec<f64> {
    let key = |v: f64| if f.is_wedge() { -v } else { v };
    let extremum = |fw: bool| {
        (0..x.len())
            .filter(|&i| forward[i] == fw)
            .min_by(|&i, &j| key(q[i]).total_cmp(&key(q[j])))
            .map_or(0.0, |i| x[i])
    };
    let (xb, xa) = (extremum(true), extremum(false));
    (0..x.len())
        .map(|i| {
            let split = if forward[i] { xb } else { xa };
            let left_side = (x[i] <= split) != swap;
            if left_side {
                f.inverse_left(q[i])
            } else {
                f.inverse_right(q[i])
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lin(yc: f64, peak: f64, left: f64, right: f64) -> Unimodal {
        Unimodal {
            yc,
            peak,
            left,
            right,
            power: 1.0,
        }
    }

    #[test]
    fn examples_of_the_thesis() {
        // Ex 5.2.1: D ≡ 0.
        let circle = Curve::Circle { a: 0.0, b: 0.0 };
        let f = lin(0.0, 1.0, 1.0, 1.0);
        assert!(loop_boundaries(&circle, &f, 2000).is_empty());
        // Ex 5.2.2: one touching zero at 0, two loops of the same orientation.
        let c = Curve::Circle { a: 0.0, b: 0.3 };
        let z = loop_boundaries(&c, &f, 2000);
        assert_eq!(z.len(), 1);
        assert!(z[0].abs() < 1e-12);
        let a = loop_areas(&c, &f, &z, 2000);
        assert!(a[0] > 0.0 && a[1] > 0.0, "{a:?}");
        // Ex 5.2.3: sign change at 0, opposite orientation; D = 0.6x while 0.3|x| < sqrt(1 − x²),
        // 2 sqrt(1 − x²) sign(x) beyond x* = 1/sqrt(1.09): loops ∓(0.3 x*² + ∫_{x*}^1 2 sqrt(1 − x²) dx)
        // = ∓0.2914568 (Simpson's error near the square-root end point is ~3e-6).
        let c = Curve::Circle { a: 0.3, b: 0.0 };
        let z = loop_boundaries(&c, &f, 2000);
        assert_eq!(z.len(), 1);
        assert!(z[0].abs() < 1e-9);
        let a = loop_areas(&c, &f, &z, 2000);
        assert!(
            (a[0] + 0.2914568).abs() < 1e-5 && (a[1] - 0.2914568).abs() < 1e-5,
            "{a:?}"
        );
        // Ex 5.3.2: boundaries ±sqrt(11)/6.
        let z = loop_boundaries(&circle, &lin(0.5, 2.0, 1.0, 4.0), 2000);
        assert_eq!(z.len(), 2);
        let r = 11f64.sqrt() / 6.0;
        assert!((z[0] + r).abs() < 1e-12 && (z[1] - r).abs() < 1e-12, "{z:?}");
    }

    #[test]
    fn interval_areas_agree_with_the_polygon_loops() {
        // The loops of the sampled image polygon, cut at its self-intersections, have the areas
        // ∫ D dx over the intervals between the zeros of D.
        for (c, f) in [
            (Curve::Circle { a: 0.3, b: 0.0 }, lin(0.0, 1.0, 1.0, 1.0)),
            (Curve::Circle { a: 0.0, b: 0.0 }, lin(0.5, 2.0, 1.0, 4.0)),
            (Curve::HalfDisc, lin(0.25, 1.0, 1.0, 3.0)),
        ] {
            let n = 20000;
            let (xs, qs): (Vec<f64>, Vec<f64>) = (0..n)
                .map(|i| {
                    let (x, y) = c.point(i as f64 / n as f64);
                    (x, f.eval(y))
                })
                .unzip();
            let z = loop_boundaries(&c, &f, 4000);
            let mut a = loop_areas(&c, &f, &z, 4000);
            let mut p = fric_solvers_free_loop_areas(&xs, &qs);
            a.sort_by(f64::total_cmp);
            p.sort_by(f64::total_cmp);
            assert_eq!(a.len(), p.len(), "{c:?}: {a:?} vs {p:?}");
            for (u, v) in a.iter().zip(&p) {
                assert!((u - v).abs() < 1e-4, "{c:?}: {a:?} vs {p:?}");
            }
        }
    }

    /// fric-models does not depend on fric-solvers: the same cut-at-crossings algorithm is
    /// reimplemented here, for the test only, in its simplest O(n²) form.
    fn fric_solvers_free_loop_areas(x: &[f64], y: &[f64]) -> Vec<f64> {
        let n = x.len();
        let mut path: Vec<(f64, f64)> = vec![(x[0], y[0])];
        let mut out = Vec::new();
        let area = |p: &[(f64, f64)]| {
            -0.5 * (0..p.len())
                .map(|i| {
                    let (a, b) = (p[i], p[(i + 1) % p.len()]);
                    a.0 * b.1 - b.0 * a.1
                })
                .sum::<f64>()
        };
        for i in 1..=n {
            let next = (x[i % n], y[i % n]);
            loop {
                let m = path.len();
                let p0 = path[m - 1];
                let mut hit = None;
                for j in (usize::from(i == n)..m.saturating_sub(2)).rev() {
                    let (q0, q1) = (path[j], path[j + 1]);
                    let r = (next.0 - p0.0, next.1 - p0.1);
                    let s = (q1.0 - q0.0, q1.1 - q0.1);
                    let den = r.0 * s.1 - r.1 * s.0;
                    if den == 0.0 {
                        continue;
                    }
                    let d = (q0.0 - p0.0, q0.1 - p0.1);
                    let t = (d.0 * s.1 - d.1 * s.0) / den;
                    let u = (d.0 * r.1 - d.1 * r.0) / den;
                    if t > 0.0 && t <= 1.0 && (0.0..1.0).contains(&u) {
                        hit = Some((j, (p0.0 + t * r.0, p0.1 + t * r.1)));
                        break;
                    }
                }
                let Some((j, c)) = hit else { break };
                let mut lp = vec![c];
                lp.extend_from_slice(&path[j + 1..]);
                out.push(area(&lp));
                path.truncate(j + 1);
                path.push(c);
            }
            if i < n {
                path.push(next);
            }
        }
        out.push(area(&path));
        out
    }

    /// A deterministic generator (64-bit LCG) for the property tests.
    struct Lcg(u64);
    impl Lcg {
        fn uniform(&mut self, a: f64, b: f64) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            a + (b - a) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
        }
    }

    fn random_case(g: &mut Lcg) -> (Curve, Unimodal) {
        let c = Curve::Lens {
            r: g.uniform(0.05, 0.45),
        };
        let f = Unimodal {
            yc: g.uniform(-0.8, 0.8),
            peak: g.uniform(-1.0, 1.0),
            left: -g.uniform(0.2, 3.0),
            right: -g.uniform(0.2, 3.0),
            power: g.uniform(0.5, 3.0),
        };
        (c, f)
    }

    /// Thms 5.3.1 and 5.3.2 over 300 generated piecewise monotonic curves and ∨-unimodal maps:
    /// `f(C)` is a butterfly (one sign change of D, two loops of opposite orientation), and along
    /// `C′` the output has exactly two local minima, both equal to `f(y_c)`, at different x.
    #[test]
    fn theorems_5_3_1_and_5_3_2_on_generated_curves() {
        let mut g = Lcg(20260523);
        for case in 0..300 {
            let (c, f) = random_case(&mut g);
            let z = loop_boundaries(&c, &f, 2000);
            assert_eq!(z.len(), 1, "case {case}: {c:?} {f:?} {z:?}");
            let a = loop_areas(&c, &f, &z, 2000);
            assert!(a[0] * a[1] < 0.0, "case {case}: {a:?}");
            let n = 4000;
            let pts: Vec<(f64, f64)> = (0..n).map(|i| c.point(i as f64 / n as f64)).collect();
            let q: Vec<f64> = pts.iter().map(|p| f.eval(p.1)).collect();
            let minima: Vec<usize> = (0..n)
                .filter(|&i| q[i] < q[(i + n - 1) % n] && q[i] <= q[(i + 1) % n])
                .collect();
            assert_eq!(minima.len(), 2, "case {case}: {c:?} {f:?}");
            // Between samples the curve moves by less than 2π/n·(1 + 2r) in y.
            let dy = 2.0 * std::f64::consts::PI / n as f64 * 2.0;
            let tol = f.left.abs().max(f.right.abs()) * dy.powf(f.power);
            for &i in &minima {
                assert!((q[i] - f.peak).abs() <= tol, "case {case}: {} vs {}", q[i], f.peak);
            }
            assert!((pts[minima[0]].0 - pts[minima[1]].0).abs() > 1e-3);
        }
    }

    /// Thm 5.3.3 over 300 generated cases: from `C′ = f(C)` and `f` alone, `C1` is `C` itself (the
    /// piecewise monotonically increasing, counterclockwise solution), `C2` is piecewise decreasing
    /// and clockwise, and `f(C1) = f(C2) = C′`.
    #[test]
    fn theorem_5_3_3_on_generated_curves() {
        let mut g = Lcg(7);
        for case in 0..300 {
            let (c, f) = random_case(&mut g);
            let n = 4001;
            let s: Vec<f64> = (0..n).map(|i| i as f64 / n as f64).collect();
            let pts: Vec<(f64, f64)> = s.iter().map(|&s| c.point(s)).collect();
            let x: Vec<f64> = pts.iter().map(|p| p.0).collect();
            let q: Vec<f64> = pts.iter().map(|p| f.eval(p.1)).collect();
            let fw: Vec<bool> = s.iter().map(|&s| s <= 0.5).collect();
            let c1 = reconstruct(&x, &q, &fw, &f, false);
            let c2 = reconstruct(&x, &q, &fw, &f, true);
            // C1 = C except possibly at the one sample per branch next to the switch point, where
            // both inverses are within one sample step of y_c.
            let step = 2.0 * std::f64::consts::PI / n as f64 * 2.0;
            for i in 0..n {
                assert!((c1[i] - pts[i].1).abs() <= 2.0 * step + 1e-9, "case {case} i {i}");
                assert!((f.eval(c1[i]) - q[i]).abs() < 1e-9 && (f.eval(c2[i]) - q[i]).abs() < 1e-9);
            }
            // Orientation: C1 counterclockwise (clockwise-positive area < 0), C2 clockwise.
            let area = |y: &[f64]| {
                -0.5 * (0..n)
                    .map(|i| x[i] * y[(i + 1) % n] - x[(i + 1) % n] * y[i])
                    .sum::<f64>()
            };
            assert!(area(&c1) < 0.0 && area(&c2) > 0.0, "case {case}");
            // C2's branches decrease (up to the switch sample).
            let fwd: Vec<f64> = (0..n).filter(|&i| fw[i]).map(|i| c2[i]).collect();
            let rises = fwd.windows(2).filter(|w| w[1] > w[0] + 2.0 * step).count();
            assert_eq!(rises, 0, "case {case}");
        }
    }
}
