//! Systems shared by the integration tests (`mod common;` in each).

use fric_solvers::OdeSystem;

/// `x'' = −x`: the harmonic oscillator, `x = cos t` from `(1, 0)`.
pub struct Oscillator;
impl OdeSystem for Oscillator {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = -x[0];
    }
}
