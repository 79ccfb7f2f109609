//! Dahl model, thesis eq. (1.23):
//! `F' = σ |1 − (F/F_c) sgn u'|^γ sgn(1 − (F/F_c) sgn u') u'`.
//!
//! Two forms: the time-domain ODE ([`Dahl`] as [`InputDriven`]) and the exact rate-independent
//! operator ([`DahlOperator`]), which integrates the model in closed form along each monotone
//! input increment. With `r = 1 − (F/F_c) s` and travel `ξ = |Δu|` in direction `s`,
//! `dr/dξ = −(σ/F_c) |r|^γ sgn r`, so `r = r₀ e^{−σξ/F_c}` for γ = 1,
//! `r^{1−γ} = r₀^{1−γ} − (1−γ) σξ/F_c` (reaching 0 at finite travel) for γ < 1, and
//! `r = (r₀^{1−γ} + (γ−1) σξ/F_c)^{−1/(γ−1)}` for γ > 1. γ = 0 is the stop operator with slope σ
//! (`|0|^0 sgn 0 = 0`).

use crate::{sgn, InputDriven};

#[derive(Clone, Copy, Debug)]
pub struct Dahl {
    pub sigma: f64,
    pub fc: f64,
    pub gamma: f64,
}

impl Dahl {
    /// `dF/du` for direction `s = sgn(u')`.
    pub fn slope(&self, f: f64, s: f64) -> f64 {
        let r = 1.0 - f / self.fc * s;
        if r == 0.0 {
            return 0.0;
        }
        self.sigma * r.abs().powf(self.gamma) * sgn(r)
    }

    /// Evolve `r` over travel `xi ≥ 0` in closed form.
    pub fn evolve_r(&self, r0: f64, xi: f64) -> f64 {
        if r0 == 0.0 || xi <= 0.0 {
            return r0;
        }
        let a = r0.abs();
        let b = self.sigma * xi / self.fc;
        let g = self.gamma;
        let r = if g == 1.0 {
            a * (-b).exp()
        } else if g == 0.0 {
            (a - b).max(0.0)
        } else if g < 1.0 {
            let p = a.powf(1.0 - g) - (1.0 - g) * b;
            if p <= 0.0 {
                0.0
            } else {
                p.powf(1.0 / (1.0 - g))
            }
        } else {
            (a.powf(1.0 - g) + (g - 1.0) * b).powf(-1.0 / (g - 1.0))
        };
        r * sgn(r0)
    }

    /// Tip force of the symmetric periodic loop with amplitude `A` for γ = 1:
    /// `F_r = F_c tanh(σA/F_c)`.
    pub fn gamma1_tip(&self, amplitude: f64) -> f64 {
        self.fc * (self.sigma * amplitude / self.fc).tanh()
    }
    /// Loop area for γ = 1: `4 (A F_c − F_r F_c/σ)` (derived), clockwise.
    pub fn gamma1_area(&self, amplitude: f64) -> f64 {
        4.0 * (amplitude * self.fc - self.gamma1_tip(amplitude) * self.fc / self.sigma)
    }
}

impl InputDriven for Dahl {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, _u: f64, du: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = self.slope(x[0], sgn(du)) * du;
    }
    fn output(&self, _u: f64, _du: f64, x: &[f64]) -> f64 {
        x[0]
    }
    /// For γ = 1, `F' = σ u' − (σ |u'|/F_c) F`: affine in `F` along the input (`|r|^γ sgn r = r`).
    fn affine(&self, _u: f64, du: f64) -> Option<(f64, f64)> {
        (self.gamma == 1.0).then(|| (-self.sigma * du.abs() / self.fc, self.sigma * du))
    }
    /// For γ = 1 both coefficients are `|u'|` times `(−σ/F_c, σ sign u')`.
    fn moves_with_input(&self) -> bool {
        self.gamma == 1.0
    }
}

/// The exact Dahl operator: state `(u, F)`, advanced by input values.
#[derive(Clone, Copy, Debug)]
pub struct DahlOperator {
    pub model: Dahl,
    pub u: f64,
    pub f: f64,
}

impl DahlOperator {
    pub fn new(model: Dahl, u0: f64, f0: f64) -> Self {
        Self { model, u: u0, f: f0 }
    }
    /// Move the input monotonically to `u` and return the new force. Exact when consecutive
    /// inputs bracket no extremum.
    pub fn advance(&mut self, u: f64) -> f64 {
        let du = u - self.u;
        if du != 0.0 {
            let s = sgn(du);
            let r0 = 1.0 - self.f / self.model.fc * s;
            let r = self.model.evolve_r(r0, du.abs());
            self.f = s * self.model.fc * (1.0 - r);
            self.u = u;
        }
        self.f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn integrate_numerically(m: &Dahl, f0: f64, s: f64, xi: f64) -> f64 {
        // Small-step RK4 in the travel variable, as an independent check of the closed form.
        let n = 200_000;
        let h = xi / n as f64;
        let mut f = f0;
        for _ in 0..n {
            let k1 = m.slope(f, s) * s;
            let k2 = m.slope(f + 0.5 * h * k1, s) * s;
            let k3 = m.slope(f + 0.5 * h * k2, s) * s;
            let k4 = m.slope(f + h * k3, s) * s;
            f += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        }
        f
    }

    #[test]
    fn closed_form_matches_numerical_integration() {
        for gamma in [0.5, 1.0, 2.0, 3.5] {
            let m = Dahl {
                sigma: 1.5,
                fc: 0.75,
                gamma,
            };
            for (f0, s) in [(-0.7, 1.0), (0.3, -1.0), (0.0, 1.0)] {
                let mut op = DahlOperator::new(m, 0.0, f0);
                let exact = op.advance(s * 0.8);
                let num = integrate_numerically(&m, f0, s, 0.8);
                assert!((exact - num).abs() < 1e-8, "γ={gamma}: {exact} vs {num}");
            }
        }
    }

    #[test]
    fn gamma_below_one_saturates_at_finite_travel() {
        let m = Dahl {
            sigma: 1.5,
            fc: 0.75,
            gamma: 0.5,
        };
        // From F = −F_c (r0 = 2): saturation after ξ* = r0^{1/2} F_c / (0.5 σ) = 1.4142 m.
        let xi_star = 2f64.sqrt() * 0.75 / (0.5 * 1.5);
        let mut op = DahlOperator::new(m, 0.0, -0.75);
        assert!(op.advance(xi_star * 0.999) < 0.75);
        let mut op = DahlOperator::new(m, 0.0, -0.75);
        assert_eq!(op.advance(xi_star * 1.001), 0.75);
    }

    #[test]
    fn gamma_zero_is_elastic_perfectly_plastic() {
        let m = Dahl {
            sigma: 1.5,
            fc: 0.75,
            gamma: 0.0,
        };
        let mut op = DahlOperator::new(m, 0.0, 0.0);
        assert!((op.advance(0.2) - 0.3).abs() < 1e-15);
        assert_eq!(op.advance(1.0), 0.75);
        assert!((op.advance(0.9) - 0.6).abs() < 1e-12);
    }

    #[test]
    fn gamma1_tip_and_area_of_fig_1_9() {
        let m = Dahl {
            sigma: 7.5,
            fc: 1.5,
            gamma: 1.0,
        };
        assert!((m.gamma1_area(5.0) - 28.8).abs() < 1e-9);
        assert!((m.gamma1_tip(1.0) - 1.5 * 5f64.tanh()).abs() < 1e-15);
    }
}
