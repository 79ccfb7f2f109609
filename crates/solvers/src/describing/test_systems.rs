//! Forced systems with known describing functions, shared by the unit tests of this module.

use super::Forced;

/// `J x'' + c x' + k x = u`: the DF of a linear system is its frequency response.
pub(super) struct Msd {
    pub(super) j: f64,
    pub(super) c: f64,
    pub(super) k: f64,
}
impl Forced for Msd {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = (u - self.c * x[1] - self.k * x[0]) / self.j;
    }
    fn output(&self, _: f64, x: &[f64]) -> f64 {
        x[0]
    }
}

/// `x' = −k x + u`: the distance to the orbit shrinks by `exp(−k T)` per period.
pub(super) struct Lag {
    pub(super) k: f64,
}
impl Forced for Lag {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = u - self.k * x[0];
    }
    fn output(&self, _: f64, x: &[f64]) -> f64 {
        x[0]
    }
}

/// A free inertia `J x'' + c x' = u` plus a constant torque bias: the position drifts, and the
/// DF of the drift-free part is still `1/(−J ω² + i c ω)`.
pub(super) struct Drifting {
    pub(super) j: f64,
    pub(super) c: f64,
    pub(super) bias: f64,
}
impl Forced for Drifting {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = (u + self.bias - self.c * x[1]) / self.j;
    }
    fn output(&self, _: f64, x: &[f64]) -> f64 {
        x[0]
    }
    fn drifting(&self, i: usize) -> bool {
        i == 0
    }
}
