//! LuGre model, thesis eqs. (1.24)–(1.27):
//! `z' = u' − |u'| z / z_ss(u')`, `F = σ0 z + σ1 z' + σ2 u'`,
//! `z_ss(v) = (F_c + (F_s − F_c) e^{−(v/v_s)²}) / σ0`.
//! The output uses `z'` from the right-hand side (an algebraic output). The model is stiff: the
//! relaxation rate `|u'| σ0 / (σ0 z_ss)` reaches ~1e4 1/s in thesis Fig 1.11.

use crate::{sgn, InputDriven};

#[derive(Clone, Copy, Debug)]
pub struct LuGre {
    pub sigma0: f64,
    pub sigma1: f64,
    pub sigma2: f64,
    pub fc: f64,
    pub fs: f64,
    pub vs: f64,
}

impl LuGre {
    /// `σ0 z_ss(v)`: the Stribeck function `F_c + (F_s − F_c) e^{−(v/v_s)²}`.
    pub fn g(&self, v: f64) -> f64 {
        self.fc + (self.fs - self.fc) * (-(v / self.vs).powi(2)).exp()
    }
    /// Steady-state friction (1.27): `F_ss(v) = g(v) sgn v + σ2 v` (0 at v = 0, where it jumps).
    pub fn steady_state(&self, v: f64) -> f64 {
        self.g(v) * sgn(v) + self.sigma2 * v
    }
    fn zdot(&self, du: f64, z: f64) -> f64 {
        du - du.abs() * self.sigma0 * z / self.g(du)
    }
}

impl InputDriven for LuGre {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, _u: f64, du: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = self.zdot(du, x[0]);
    }
    fn output(&self, _u: f64, du: f64, x: &[f64]) -> f64 {
        self.sigma0 * x[0] + self.sigma1 * self.zdot(du, x[0]) + self.sigma2 * du
    }
    fn jacobian(&self, _u: f64, du: f64, _x: &[f64], j: &mut [f64]) -> bool {
        j[0] = -du.abs() * self.sigma0 / self.g(du);
        true
    }
    /// `z' = −(|u'| σ0 / g(u')) z + u'`: affine in `z` along the input.
    fn affine(&self, _u: f64, du: f64) -> Option<(f64, f64)> {
        Some((-du.abs() * self.sigma0 / self.g(du), du))
    }
    /// `max(F_s, F_c) / σ0`, the largest steady-state deflection.
    fn state_scale(&self) -> f64 {
        self.fs.abs().max(self.fc.abs()) / self.sigma0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_state_values_of_fig_1_10() {
        let m = LuGre {
            sigma0: 1e5,
            sigma1: 1e5f64.sqrt(),
            sigma2: 0.4,
            fc: 1.0,
            fs: 1.5,
            vs: 0.001,
        };
        assert!((m.steady_state(0.001) - (1.0 + 0.5 * (-1f64).exp() + 0.0004)).abs() < 1e-15);
        assert_eq!(m.steady_state(-0.002), -m.steady_state(0.002));
    }
}
