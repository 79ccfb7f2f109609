//! The Bliman & Sorine friction model, report (Gäfvert 1996) eqs. (2.7)–(2.13), (2.16), (2.22)–(2.32).
//!
//! In the space domain (s = absolute displacement) it is linear and shift invariant, driven by
//! `sgn v` (2.7):
//! `dx₁/ds = −x₁/(ε_f η) + (f₁/(ε_f η)) sgn v`, `dx₂/ds = −x₂/ε_f − (f₂/ε_f) sgn v`, `F = x₁ + x₂`,
//! so it is rate independent and exact in closed form along every monotone displacement
//! increment (2.25). In time (2.12) the same equations are multiplied by `|v|`.
//! The kinetic level is `f_k = f₁ − f₂`; the zero-state stiffness is `σ = (f₁ − η f₂)/(ε_f η)`
//! (2.16). Printed-equation errors (catalog report_ch1_2.md): the exponent of (2.30)/(2.32) is
//! `η/(1 − η)`, not `1/(1 − η)`; `z₂ = −(ε_f/f₂) x₂` (L420 prints another form).

use crate::InputDriven;
use fric_roots::{bisect, Side};
use std::convert::Infallible;

/// Parameters `f₁, f₂` [N·m], `ε_f` [rad], `η` [–] of (2.7).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlimanSorine {
    pub f1: f64,
    pub f2: f64,
    pub eps: f64,
    pub eta: f64,
}

/// Why the identification map (2.22)–(2.23) has no solution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IdentifyError {
    /// `f_s ≤ f_k`, `f_k ≤ 0`, `s_e ≤ 0` or `s_p ≤ 0`: the characteristics of a saturated branch
    /// need `f_s > f_k > 0` and positive distances.
    Domain,
    /// `ln m₂ ≥ (m₁m₂ + 2)/(m₁m₂)` (L523–L525): (2.23) has no root `p > 1`, only the trivial
    /// `p = 1` and a root in (0, 1) that gives negative f₁, f₂.
    NoRootAboveOne { log_m2: f64, bound: f64 },
}

impl BlimanSorine {
    /// Kinetic friction `f_k = f₁ − f₂` (L360).
    pub fn kinetic(&self) -> f64 {
        self.f1 - self.f2
    }
    /// Zero-state stiffness σ (2.16).
    pub fn sigma(&self) -> f64 {
        (self.f1 - self.eta * self.f2) / (self.eps * self.eta)
    }
    /// Displacement from a reversal to the peak on a saturated branch, or from the zero state,
    /// (2.28): `s_e = (ε_f η/(1 − η)) ln(f₁/(η f₂))`.
    pub fn peak_distance(&self) -> f64 {
        self.eps * self.eta / (1.0 - self.eta) * (self.f1 / (self.eta * self.f2)).ln()
    }
    /// Peak of a saturated branch, (2.30) with the exponent corrected: the break-away level f_s.
    pub fn peak_saturated(&self) -> f64 {
        let e = self.eta / (1.0 - self.eta);
        self.kinetic() + 2.0 * self.f2 * (self.f2 * self.eta / self.f1).powf(e) * (1.0 - self.eta)
    }
    /// Peak of the first transient from the zero state, (2.32) with the exponent corrected:
    /// its excess over f_k is half the saturated one (L643–L645).
    pub fn peak_from_zero(&self) -> f64 {
        let e = self.eta / (1.0 - self.eta);
        self.kinetic() + self.f2 * (self.f2 * self.eta / self.f1).powf(e) * (1.0 - self.eta)
    }
    /// The characteristics `(f_s, f_k, s_e, s_p)` of the saturated branch, (2.24): the inverse of
    /// [`BlimanSorine::identify`].
    pub fn characteristics(&self) -> (f64, f64, f64, f64) {
        (
            self.peak_saturated(),
            self.kinetic(),
            self.peak_distance(),
            3.0 * self.eps,
        )
    }
    /// State after a monotone displacement increment `ds` (signed) from `x`, (2.25): exact.
    pub fn advance(&self, x: [f64; 2], ds: f64) -> [f64; 2] {
        if ds == 0.0 {
            return x;
        }
        let sg = ds.signum();
        let s = ds.abs();
        [
            relax(sg * self.f1, x[0], s / (self.eps * self.eta)),
            relax(-sg * self.f2, x[1], s / self.eps),
        ]
    }
    /// The saturated state at a reversal after motion in direction `sign` (2.29).
    pub fn saturated(&self, sign: f64) -> [f64; 2] {
        [sign * self.f1, -sign * self.f2]
    }

    /// The identification map (2.22)–(2.23): parameters from the characteristics of a saturated
    /// branch, the peak `(s_e, f_s)` and the point `(s_p, f_k)`. `p` is the root of (2.23) above
    /// 1 (p = 1 is always a trivial root). Returns the parameters and `p`.
    pub fn identify(fs: f64, fk: f64, se: f64, sp: f64) -> Result<(BlimanSorine, f64), IdentifyError> {
        if !(fk > 0.0 && fs > fk && se > 0.0 && sp > 0.0) {
            return Err(IdentifyError::Domain);
        }
        let m1 = (fs - fk) / fk;
        let m2 = (3.0 * se / sp).exp();
        let a = (m1 * m2 + 2.0) / (m1 * m2);
        let l = m2.ln();
        if l >= a {
            return Err(IdentifyError::NoRootAboveOne { log_m2: l, bound: a });
        }
        // g(p) = a ln p − (p − 1) ln m₂: g(1) = 0, g'(1) = a − ln m₂ > 0, g concave, g → −∞.
        let g = |p: f64| a * p.ln() - (p - 1.0) * l;
        // Lower end: the maximum of g, at p = a/ln m₂ > 1, where g > 0.
        let lo = a / l;
        let mut hi = 2.0 * lo;
        while g(hi) > 0.0 {
            hi *= 2.0;
        }
        let side = |p: f64| Ok::<_, Infallible>(if g(p) > 0.0 { Side::Lo } else { Side::Hi });
        let Ok((lo, hi)) = bisect(side, lo, hi, 0.0, 200);
        let p = 0.5 * (lo + hi);
        let f1 = (m1 * m2 + 2.0) * p / (2.0 * (p - 1.0)) * fk;
        let f2 = (m1 * m2 * p + 2.0) / (2.0 * (p - 1.0)) * fk;
        let eta = (m1 * m2 + 2.0) / (m1 * m2 * p + 2.0);
        Ok((
            BlimanSorine {
                f1,
                f2,
                eps: sp / 3.0,
                eta,
            },
            p,
        ))
    }
}

/// Decay exponent from which [`relax`] skips the exponential: `e^{−40} = 4.2e-18`.
const SATURATED: f64 = 40.0;

/// `c + (x − c) e^{−q}` (one state of (2.25)), rounded as written. Where `q ≥` [`SATURATED`] and
/// `|x − c| ≤ 4 |c|` (`|c|` normal) the product is below `4 |c| · 4.3e-18 < |c| 2^-54`, half the
/// spacing of the doubles next to `c` on either side, so the sum rounds to `c` itself: returned
/// without the exponential, the same bits (on a long slide the state is saturated).
#[inline]
fn relax(c: f64, x: f64, q: f64) -> f64 {
    let d = x - c;
    if q >= SATURATED && c.abs() >= f64::MIN_POSITIVE && d.abs() <= 4.0 * c.abs() {
        return c;
    }
    c + d * (-q).exp()
}

/// The free model along a prescribed displacement: the exact operator of (2.25) on the input's
/// samples (the samples include every reversal, so it is exact at every sample).
#[derive(Clone, Debug)]
pub struct BlimanSorineOperator {
    pub model: BlimanSorine,
    pub x: [f64; 2],
    last: f64,
}

impl BlimanSorineOperator {
    pub fn new(model: BlimanSorine, u0: f64, x0: [f64; 2]) -> Self {
        Self { model, x: x0, last: u0 }
    }
    /// Move to displacement `u`; returns `F = x₁ + x₂`.
    pub fn advance(&mut self, u: f64) -> f64 {
        self.x = self.model.advance(self.x, u - self.last);
        self.last = u;
        self.x[0] + self.x[1]
    }
}

/// The time form (2.12) of the free model, for integration in time (rate-independence tests).
impl InputDriven for BlimanSorine {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _u: f64, du: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = -du.abs() * x[0] / (self.eps * self.eta) + self.f1 / (self.eps * self.eta) * du;
        dx[1] = -du.abs() * x[1] / self.eps - self.f2 / self.eps * du;
    }
    fn output(&self, _u: f64, _du: f64, x: &[f64]) -> f64 {
        x[0] + x[1]
    }
    fn jacobian(&self, _u: f64, du: f64, _x: &[f64], j: &mut [f64]) -> bool {
        j[0] = -du.abs() / (self.eps * self.eta);
        j[1] = 0.0;
        j[2] = 0.0;
        j[3] = -du.abs() / self.eps;
        true
    }
    /// `∂f/∂u' = ((−sgn u') x₁ + f₁)/(ε_f η), ((−sgn u') x₂ − f₂)/ε_f`; `F = x₁ + x₂` depends on
    /// neither `u` nor `u'`.
    fn input_jacobian(
        &self,
        _u: f64,
        du: f64,
        x: &[f64],
        df_du: &mut [f64],
        df_ddu: &mut [f64],
        dy_dx: &mut [f64],
    ) -> Option<[f64; 2]> {
        let s = crate::sgn(du);
        df_du.fill(0.0);
        df_ddu[0] = (-s * x[0] + self.f1) / (self.eps * self.eta);
        df_ddu[1] = (-s * x[1] - self.f2) / self.eps;
        dy_dx.fill(1.0);
        Some([0.0, 0.0])
    }
    fn state_scale(&self) -> f64 {
        self.f1.abs().max(self.f2.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Report Table 5.9 set [catalog XREF L1891].
    const T59: BlimanSorine = BlimanSorine {
        f1: 0.45,
        f2: 0.23,
        eps: 0.0067,
        eta: 0.28,
    };

    #[test]
    fn identification_inverts_the_characteristics() {
        for m in [
            T59,
            BlimanSorine {
                f1: 0.3192,
                f2: 0.0387,
                eps: 0.0036,
                eta: 0.2227,
            },
        ] {
            let (fs, fk, se, sp) = m.characteristics();
            let (back, p) = BlimanSorine::identify(fs, fk, se, sp).unwrap();
            assert!(p > 1.0);
            for (a, b) in [(back.f1, m.f1), (back.f2, m.f2), (back.eps, m.eps), (back.eta, m.eta)] {
                assert!((a - b).abs() < 1e-12 * b.abs().max(1.0), "{back:?} vs {m:?}");
            }
        }
    }

    #[test]
    fn no_root_above_one_is_an_error_not_a_panic() {
        // s_e large against s_p: ln m₂ = 3 s_e/s_p exceeds (m₁m₂ + 2)/(m₁m₂).
        let e = BlimanSorine::identify(0.31, 0.3, 0.02, 0.01).unwrap_err();
        assert!(matches!(e, IdentifyError::NoRootAboveOne { .. }), "{e:?}");
        assert_eq!(
            BlimanSorine::identify(0.2, 0.3, 0.01, 0.01).unwrap_err(),
            IdentifyError::Domain
        );
    }

    #[test]
    fn saturated_branch_peaks_at_s_e_with_f_s_and_the_zero_state_transient_has_half_the_excess() {
        let m = T59;
        let se = m.peak_distance();
        // Saturated branch from [−f₁, f₂]: F(s) sampled finely around s_e.
        let f = |x0: [f64; 2], s: f64| {
            let x = m.advance(x0, s);
            x[0] + x[1]
        };
        let sat = m.saturated(-1.0);
        let (mut best, mut arg) = (f64::NEG_INFINITY, 0.0);
        for k in 0..=20000 {
            let s = 3.0 * se * k as f64 / 20000.0;
            if f(sat, s) > best {
                (best, arg) = (f(sat, s), s);
            }
        }
        assert!((arg - se).abs() < 3.0 * se / 20000.0, "{arg} vs {se}");
        // The sampled maximum lies below the peak by at most F''·Δs²/2 ≈ 1e-7.
        assert!(
            best <= m.peak_saturated() + 1e-15 && best > m.peak_saturated() - 1e-6,
            "{best}"
        );
        assert!((f(sat, se) - m.peak_saturated()).abs() < 1e-14);
        let zero = f([0.0, 0.0], se);
        assert!(((zero - m.kinetic()) / (m.peak_saturated() - m.kinetic()) - 0.5).abs() < 1e-13);
        assert!((zero - m.peak_from_zero()).abs() < 1e-14);
        // Far from the reversal, F is the kinetic level.
        assert!((f(sat, 1.0) - m.kinetic()).abs() < 1e-12);
        // Initial slope from zero is σ (2.15), from saturation 2σ.
        let h = 1e-9;
        assert!((f([0.0, 0.0], h) / h - m.sigma()).abs() < 1e-4 * m.sigma());
        assert!(((f(sat, h) - f(sat, 0.0)) / h - 2.0 * m.sigma()).abs() < 1e-4 * m.sigma());
    }

    #[test]
    fn the_saturated_shortcut_is_the_formula_bit_for_bit() {
        // `c + (x − c) e^{−q}` as written, against `relax` from just below its threshold to far
        // beyond: levels at and beside powers of two (the spacing below 2^k is half that above)
        // and signed, states from the level's mirror (d = ±2|c|, what (2.25) reaches) to the
        // bound d = ±4|c| and beyond it, and the next double below the threshold.
        let full = |c: f64, x: f64, q: f64| c + (x - c) * (-q).exp();
        let mut r = 0x9e37_79b9_7f4a_7c15_u64;
        let mut uniform = move || {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            (r >> 11) as f64 / (1u64 << 53) as f64
        };
        let qs = |u: f64| {
            [
                SATURATED.next_down(),
                SATURATED,
                SATURATED + 10.0 * u,
                745.0 + u,
                f64::INFINITY,
            ]
        };
        let mut shortcuts = 0;
        for _ in 0..200_000 {
            let k = (uniform() * 8.0).floor() as i32 - 4;
            let c = match (uniform() * 3.0) as u32 {
                0 => 2f64.powi(k),
                1 => 2f64.powi(k).next_up(),
                _ => 2f64.powi(k) * (1.0 + uniform()),
            } * if uniform() < 0.5 { -1.0 } else { 1.0 };
            let d = c * (10.0 * uniform() - 5.0);
            for q in qs(uniform()) {
                let (a, b) = (relax(c, c + d, q), full(c, c + d, q));
                assert_eq!(a.to_bits(), b.to_bits(), "c = {c:e}, x = {:e}, q = {q}", c + d);
                shortcuts += usize::from(a == c && q >= SATURATED);
            }
        }
        assert!(shortcuts > 300_000, "{shortcuts}");
        // The threshold's bound is tight enough to matter: at q = 30 the formula still moves
        // a saturated level by an ulp.
        let c = 1.0f64.next_up();
        assert_ne!(full(c, c - 4.0 * c, 30.0), c);
    }

    #[test]
    fn the_operator_is_exact_across_subdivisions() {
        // One increment or a thousand small ones: the same state (the semigroup property).
        let m = T59;
        let one = m.advance([0.01, -0.02], 0.037);
        let mut x = [0.01, -0.02];
        for _ in 0..1000 {
            x = m.advance(x, 0.037 / 1000.0);
        }
        assert!((x[0] - one[0]).abs() < 1e-14 && (x[1] - one[1]).abs() < 1e-14);
    }
}
