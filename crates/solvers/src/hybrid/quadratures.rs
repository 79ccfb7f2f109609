//! One wrapper that appends quadrature outputs (integrals carried across the modes, e.g. the
//! works of an energy balance) to any [`HybridSystem`] and forwards everything else, so that
//! no system has to forward the trait by hand (a hand-written forwarder once dropped
//! [`HybridSystem::guard_rate`], the thesis Fig 3.9 graze defect).

use super::HybridSystem;

/// Integrands appended to a hybrid system's quadrature outputs ([`WithQuadratures`]).
pub trait Quadratures<M> {
    /// How many integrals.
    fn count(&self) -> usize;
    /// Their integrands in `mode` at `(t, x)` (`x` the system's state, without quadratures).
    fn integrands(&self, mode: M, t: f64, x: &[f64], q: &mut [f64]);
}

/// `sys` with `quad`'s integrals appended after its own quadrature outputs; every other
/// [`HybridSystem`] method is `sys`'s (the test `forwards_every_trait_method` holds the list
/// of forwarded methods equal to the trait's).
pub struct WithQuadratures<S, Q> {
    /// The system integrated.
    pub sys: S,
    /// The integrals appended.
    pub quad: Q,
}

impl<S, Q> WithQuadratures<S, Q> {
    /// `sys` with the integrals of `quad` appended.
    pub fn new(sys: S, quad: Q) -> Self {
        WithQuadratures { sys, quad }
    }
}

impl<S: HybridSystem, Q: Quadratures<S::Mode>> HybridSystem for WithQuadratures<S, Q> {
    type Mode = S::Mode;
    fn dim(&self) -> usize {
        self.sys.dim()
    }
    fn rhs(&self, mode: Self::Mode, t: f64, x: &[f64], dx: &mut [f64]) {
        self.sys.rhs(mode, t, x, dx)
    }
    fn n_guards(&self, mode: Self::Mode) -> usize {
        self.sys.n_guards(mode)
    }
    fn guards(&self, mode: Self::Mode, t: f64, x: &[f64], g: &mut [f64]) {
        self.sys.guards(mode, t, x, g)
    }
    fn jump(&self, mode: Self::Mode, guard: usize, t: f64, x: &mut [f64]) -> Self::Mode {
        self.sys.jump(mode, guard, t, x)
    }
    fn guards_fire_from_zero(&self) -> bool {
        self.sys.guards_fire_from_zero()
    }
    fn guard_rates(&self) -> bool {
        self.sys.guard_rates()
    }
    fn guard_rate(&self, mode: Self::Mode, guard: usize, t: f64, x: &[f64], f: &[f64]) -> Option<f64> {
        self.sys.guard_rate(mode, guard, t, x, f)
    }
    fn n_quadratures(&self) -> usize {
        self.sys.n_quadratures() + self.quad.count()
    }
    fn integrands(&self, mode: Self::Mode, t: f64, x: &[f64], q: &mut [f64]) {
        let own = self.sys.n_quadratures();
        self.sys.integrands(mode, t, x, &mut q[..own]);
        self.quad.integrands(mode, t, x, &mut q[own..]);
    }
}

#[cfg(test)]
mod tests;
