//! Linear mass/dashpot/spring with position input, thesis eqs. (1.3)–(1.4):
//! `m x'' + c x' + k (x − u) = 0`, `y = x`. Not hysteretic: its loops vanish as ω → 0.

use crate::InputDriven;

#[derive(Clone, Copy, Debug)]
pub struct LinearMsd {
    pub m: f64,
    pub c: f64,
    pub k: f64,
}

impl LinearMsd {
    /// Steady-state response to `u = A sin(ωt)`: `(gain, phase)` of `G(s) = k / (m s² + c s + k)`.
    pub fn frequency_response(&self, omega: f64) -> (f64, f64) {
        let re = self.k - self.m * omega * omega;
        let im = self.c * omega;
        let gain = self.k / (re * re + im * im).sqrt();
        let phase = -im.atan2(re);
        (gain, phase)
    }
    /// Signed loop area `∮ y du` of the steady-state ellipse for `u = A sin(ωt)`:
    /// `π A² |G| sin φ` (negative: y lags u, the loop is counterclockwise).
    pub fn loop_area(&self, amplitude: f64, omega: f64) -> f64 {
        let (g, phi) = self.frequency_response(omega);
        std::f64::consts::PI * amplitude * amplitude * g * phi.sin()
    }
}

impl InputDriven for LinearMsd {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, u: f64, _du: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = (-self.c * x[1] - self.k * (x[0] - u)) / self.m;
    }
    fn output(&self, _u: f64, _du: f64, x: &[f64]) -> f64 {
        x[0]
    }
    fn jacobian(&self, _u: f64, _du: f64, _x: &[f64], j: &mut [f64]) -> bool {
        j.copy_from_slice(&[0.0, 1.0, -self.k / self.m, -self.c / self.m]);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critically_damped_values_from_catalog() {
        // m = 1, c = 2, k = 1: G = 1/(s+1)², |G| = 1/(1+ω²), phase = −2 atan ω.
        let s = LinearMsd { m: 1.0, c: 2.0, k: 1.0 };
        for w in [1.0, 0.1, 0.01, 0.001] {
            let (g, p) = s.frequency_response(w);
            assert!((g - 1.0 / (1.0 + w * w)).abs() < 1e-14);
            assert!((p + 2.0 * f64::atan(w)).abs() < 1e-14);
        }
        assert!((s.loop_area(1.0, 1.0) + std::f64::consts::FRAC_PI_2).abs() < 1e-14);
    }
}
