//! The bristle row and the body: contact geometry, forces, and the DRBM's contact ranges.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bristles {
    /// Torsional stiffness `κ`, N·m/rad.
    pub kappa: f64,
    /// Height of the body's lower surface `h`, m.
    pub h: f64,
    /// Bristle length `l_b`, m.
    pub lb: f64,
    /// Bristle spacing `Δ`, m (bases at `iΔ`).
    pub delta: f64,
    /// Body length `d`, m.
    pub d: f64,
}

/// Which branch of the discontinuous law: `Plus` for `v ≥ 0`, `Minus` for `v < 0` (3.13), (3.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Plus,
    Minus,
}

/// A frozen lattice index range `first..=last` (empty when `first > last`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    pub first: i64,
    pub last: i64,
}

/// Frozen ranges of both branches of a discontinuous friction law.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cells {
    pub plus: Range,
    pub minus: Range,
}

impl Bristles {
    /// `d0 = sqrt(l_b² − h²)` (L833).
    pub fn d0(&self) -> f64 {
        (self.lb * self.lb - self.h * self.h).sqrt()
    }
    /// (3.1) `θ_max = arccos(h/l_b)` (L852).
    pub fn theta_max(&self) -> f64 {
        (self.h / self.lb).acos()
    }
    /// (3.5)–(3.6): horizontal force of one bristle at angle `θ`.
    pub fn force_of_angle(&self, theta: f64) -> f64 {
        let c = theta.cos();
        self.kappa * theta * c * c / self.h
    }
    /// (3.2)/(3.3): angle of a bristle at base `xb` touching a corner at `c`.
    pub fn angle(&self, corner: f64, xb: f64) -> f64 {
        ((corner - xb) / self.h).atan()
    }
    /// Energy stored in one bristle pivoted to `θ_max`: `κ θ_max²/2` (implicit in (3.45)).
    pub fn bristle_energy(&self) -> f64 {
        0.5 * self.kappa * self.theta_max().powi(2)
    }
    /// (3.19) `F_f,min = (κ/h) φ cos²φ`, `φ = arctan((d0 − Δ)/h)` (L1010).
    pub fn f_min_319(&self) -> f64 {
        self.force_of_angle(((self.d0() - self.delta) / self.h).atan())
    }
    /// Offsets `(a, b)` of the DRBM window relative to `x`: bases in `(x + a, x + b]` for `Plus`,
    /// `[x + a, x + b)` for `Minus` (3.14), (3.16).
    fn window_offsets(&self, s: Side) -> (f64, f64) {
        match s {
            Side::Plus => (self.d / 2.0 - self.d0(), self.d / 2.0),
            Side::Minus => (-self.d / 2.0, -self.d / 2.0 + self.d0()),
        }
    }
    /// The DRBM contact range at `x` (3.14)/(3.16).
    pub fn range(&self, s: Side, x: f64) -> Range {
        let (a, b) = self.window_offsets(s);
        let dl = self.delta;
        match s {
            Side::Plus => Range {
                first: ((x + a) / dl).floor() as i64 + 1,
                last: ((x + b) / dl).floor() as i64,
            },
            Side::Minus => Range {
                first: ((x + a) / dl).ceil() as i64,
                last: ((x + b) / dl).ceil() as i64 - 1,
            },
        }
    }
    /// Both ranges at `x`.
    pub fn cells(&self, x: f64) -> Cells {
        Cells {
            plus: self.range(Side::Plus, x),
            minus: self.range(Side::Minus, x),
        }
    }
    /// DRBM friction with a frozen range: (3.7) for `Plus` (corner `x + d/2`), (3.8) for `Minus`.
    pub fn force_in(&self, s: Side, r: Range, x: f64) -> f64 {
        let corner = match s {
            Side::Plus => x + self.d / 2.0,
            Side::Minus => x - self.d / 2.0,
        };
        (r.first..=r.last)
            .map(|i| self.force_of_angle(self.angle(corner, i as f64 * self.delta)))
            .sum()
    }
    /// DRBM friction (3.13)/(3.15) at `x` (located range, exact and discontinuous in `x`).
    pub fn drbm(&self, s: Side, x: f64) -> f64 {
        self.force_in(s, self.range(s, x), x)
    }
    /// The `x`-interval on which the frozen range `r` is the geometric one: `[lo, hi]`.
    pub fn range_bounds(&self, s: Side, r: Range) -> (f64, f64) {
        let (a, b) = self.window_offsets(s);
        let dl = self.delta;
        let (f, l) = (r.first as f64, r.last as f64);
        // Plus: (f−1)Δ ≤ x + a < fΔ and lΔ ≤ x + b < (l+1)Δ; Minus: (f−1)Δ < x + a ≤ fΔ and
        // lΔ < x + b ≤ (l+1)Δ; the closures differ only on a null set.
        (
            (((f - 1.0) * dl - a).max(l * dl - b)),
            ((f * dl - a).min((l + 1.0) * dl - b)),
        )
    }
    /// Event functions `[x − hi, lo − x]`: `≤ 0` while `r` is valid, each rising when violated.
    pub fn range_events(&self, s: Side, r: Range, x: f64) -> [f64; 2] {
        let (lo, hi) = self.range_bounds(s, r);
        [x - hi, lo - x]
    }
    /// The range after crossing its upper (`forward`) or lower bound: the index ends whose
    /// threshold is the active bound move, deterministically (no re-location at the boundary).
    pub fn cross(&self, s: Side, r: Range, forward: bool) -> Range {
        let (a, b) = self.window_offsets(s);
        let dl = self.delta;
        let (f, l) = (r.first as f64, r.last as f64);
        let mut n = r;
        if forward {
            let (tf, tl) = (f * dl - a, (l + 1.0) * dl - b);
            let hi = tf.min(tl);
            if tf <= hi {
                n.first += 1;
            }
            if tl <= hi {
                n.last += 1;
            }
        } else {
            let (tf, tl) = ((f - 1.0) * dl - a, l * dl - b);
            let lo = tf.max(tl);
            if tf >= lo {
                n.first -= 1;
            }
            if tl >= lo {
                n.last -= 1;
            }
        }
        n
    }
    /// Cross until `x` lies in the range's interval; returns the number of crossings.
    pub fn settle(&self, s: Side, r: &mut Range, x: f64) -> usize {
        let mut n = 0;
        loop {
            let e = self.range_events(s, *r, x);
            if e[0] > 0.0 {
                *r = self.cross(s, *r, true);
            } else if e[1] > 0.0 {
                *r = self.cross(s, *r, false);
            } else {
                return n;
            }
            n += 1;
        }
    }
    /// Sawtooth range of the DRBM for `v ≥ 0` on a fine grid over one lattice period:
    /// `(min, max, mean)` of `F_f^r` (the numerical minimum that replaces (3.19) for `d0/Δ > 2`).
    pub fn sawtooth_stats(&self, n: usize) -> (f64, f64, f64) {
        let (mut lo, mut hi, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
        for k in 0..n {
            let x = self.delta * (k as f64 + 0.5) / n as f64;
            let f = self.drbm(Side::Plus, x);
            lo = lo.min(f);
            hi = hi.max(f);
            sum += f;
        }
        (lo, hi, sum / n as f64)
    }
    /// Sum of the signed pivot angles of the contributing bristles (θ_s of L1313).
    pub fn angle_sum(&self, s: Side, x: f64) -> f64 {
        let r = self.range(s, x);
        let corner = match s {
            Side::Plus => x + self.d / 2.0,
            Side::Minus => x - self.d / 2.0,
        };
        (r.first..=r.last)
            .map(|i| self.angle(corner, i as f64 * self.delta))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rbm::test_rigs::fig33;

    #[test]
    fn geometry_d0_and_theta_max() {
        let b = fig33();
        assert!((b.d0() - 0.0199).abs() < 1e-5); // L929
        assert!((b.theta_max() - 0.98f64.acos()).abs() < 1e-15);
        assert!((b.theta_max().tan() - b.d0() / b.h).abs() < 1e-12);
    }

    #[test]
    fn work_per_bristle_is_kappa_theta_max_sq_over_two() {
        // ∫ F dx with x = h tan θ: κ θ_max²/2.
        let b = fig33();
        let n = 200_000;
        let mut w = 0.0;
        for k in 0..n {
            let s = b.d0() * (k as f64 + 0.5) / n as f64;
            w += b.force_of_angle((s / b.h).atan()) * b.d0() / n as f64;
        }
        assert!((w - b.bristle_energy()).abs() < 1e-9 * b.bristle_energy());
    }

    #[test]
    fn drbm_frozen_range_matches_located_and_sign() {
        let b = Bristles {
            kappa: 0.1,
            h: 0.0995,
            lb: 0.1,
            delta: 0.005,
            d: 0.5,
        };
        let mut rp = b.range(Side::Plus, -0.3);
        let mut rm = b.range(Side::Minus, -0.3);
        for k in 0..60_000 {
            let x = -0.3 + 3.7e-7 + k as f64 * 1.0003e-5;
            b.settle(Side::Plus, &mut rp, x);
            b.settle(Side::Minus, &mut rm, x);
            assert_eq!(rp, b.range(Side::Plus, x), "x = {x}");
            assert_eq!(rm, b.range(Side::Minus, x), "x = {x}");
            assert!(b.drbm(Side::Plus, x) > 0.0 && b.drbm(Side::Minus, x) < 0.0);
        }
        // (3.19) is the sawtooth minimum when 1 < d0/Δ ≤ 2.
        let (lo, _, _) = b.sawtooth_stats(20_000);
        assert!((lo - b.f_min_319()).abs() < 1e-4 * lo, "{lo} vs {}", b.f_min_319());
    }
}
