//! Cubic nonlinear feedback example, thesis eqs. (1.5)–(1.6) and (1.8):
//! `x' = −x³ + x + u`, `y = x`; equilibria `ū = x̄³ − x̄`.

use crate::InputDriven;

#[derive(Clone, Copy, Debug, Default)]
pub struct Cubic;

impl Cubic {
    /// The equilibrium input for a state, (1.8): `ū = x̄³ − x̄`.
    pub fn equilibrium_input(x: f64) -> f64 {
        x * x * x - x
    }
    /// An equilibrium is stable iff `3x̄² − 1 > 0`.
    pub fn is_stable(x: f64) -> bool {
        3.0 * x * x - 1.0 > 0.0
    }
    /// Saddle-node points `(ū, x̄) = (∓2/(3√3), ±1/√3)`.
    pub fn saddle_nodes() -> [(f64, f64); 2] {
        let x = 1.0 / 3f64.sqrt();
        [(Self::equilibrium_input(x), x), (Self::equilibrium_input(-x), -x)]
    }
    /// Area of the DC hysteresis loop for input amplitude above the fold value: exactly 3/2
    /// (derived: `∮ x du` over the two stable branches and the two jumps).
    pub fn dc_loop_area() -> f64 {
        1.5
    }
}

impl InputDriven for Cubic {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, u: f64, _du: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = -x[0] * x[0] * x[0] + x[0] + u;
    }
    fn output(&self, _u: f64, _du: f64, x: &[f64]) -> f64 {
        x[0]
    }
    fn jacobian(&self, _u: f64, _du: f64, x: &[f64], j: &mut [f64]) -> bool {
        j[0] = -3.0 * x[0] * x[0] + 1.0;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saddle_nodes_match_catalog() {
        let [(u1, x1), (u2, x2)] = Cubic::saddle_nodes();
        assert!((x1 - 0.577350269).abs() < 1e-9 && (u1 + 0.384900179).abs() < 1e-9);
        assert!((x2 + 0.577350269).abs() < 1e-9 && (u2 - 0.384900179).abs() < 1e-9);
        assert!(!Cubic::is_stable(0.5) && Cubic::is_stable(0.6));
    }
}
