//! The forced system `u = a sin ωt` with the two Fourier integrals `∫ y sin ωt dt` and
//! `∫ y cos ωt dt` appended as ODE states.

use super::Forced;
use crate::OdeSystem;

/// The forced system with the two Fourier integrals appended.
pub(super) struct Augmented<'a, S> {
    sys: &'a S,
    a: f64,
    w: f64,
    /// The last [`TRIG_CACHE`] values of `(ωt).sin_cos()` by the bits of `t` (oldest replaced):
    /// the integrators evaluate the right-hand side at the same times again (Radau IIA's Newton
    /// iterations and finite-difference Jacobian at its three stage times, DOP853's last stage
    /// and the next step's first at the step's end, the events there). On report chapter 5's
    /// DF runs (2026-11-29, one thread): the sine, cosine and this right-hand side 28.5 % of
    /// the profile before, 25.4 % with the cache (now one `sincos`); outputs bit-identical.
    trig: [std::cell::Cell<(u64, f64, f64)>; TRIG_CACHE],
    oldest: std::cell::Cell<usize>,
}

const TRIG_CACHE: usize = 4;

impl<'a, S> Augmented<'a, S> {
    pub(super) fn new(sys: &'a S, a: f64, w: f64) -> Self {
        Self {
            sys,
            a,
            w,
            // No time has the bits of a NaN the sine of which is wanted.
            trig: std::array::from_fn(|_| std::cell::Cell::new((f64::NAN.to_bits(), 0.0, 0.0))),
            oldest: std::cell::Cell::new(0),
        }
    }

    /// `(ωt).sin_cos()`, the same bits as computing it.
    pub(super) fn sin_cos(&self, t: f64) -> (f64, f64) {
        let bits = t.to_bits();
        if let Some(e) = self.trig.iter().map(std::cell::Cell::get).find(|e| e.0 == bits) {
            return (e.1, e.2);
        }
        let (s, c) = (self.w * t).sin_cos();
        let k = self.oldest.get();
        self.trig[k].set((bits, s, c));
        self.oldest.set((k + 1) % TRIG_CACHE);
        (s, c)
    }
}

impl<S: Forced> OdeSystem for Augmented<'_, S> {
    fn dim(&self) -> usize {
        self.sys.dim() + 2
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        let n = self.sys.dim();
        let (s, c) = self.sin_cos(t);
        let u = self.a * s;
        self.sys.rhs(u, &x[..n], &mut dx[..n]);
        let y = self.sys.output(u, &x[..n]);
        dx[n] = y * s;
        dx[n + 1] = y * c;
    }
    fn n_events(&self) -> usize {
        self.sys.n_events()
    }
    fn events(&self, t: f64, x: &[f64], g: &mut [f64]) {
        self.sys.events(self.a * self.sin_cos(t).0, &x[..self.sys.dim()], g);
    }
    fn event_kind(&self, _i: usize) -> crate::EventKind {
        crate::EventKind {
            direction: crate::Direction::Either,
            terminal: true,
        }
    }
    fn event_samples(&self) -> usize {
        self.sys.event_samples()
    }
    fn event_component(&self, i: usize) -> Option<usize> {
        self.sys.event_component(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::describing::test_systems::Msd;

    #[test]
    fn the_cached_sine_and_cosine_are_the_computed_bits() {
        let m = Msd { j: 0.5, c: 0.3, k: 2.0 };
        let ode = Augmented::new(&m, 1.0, 0.7);
        // Repeats among more distinct times than the cache holds, zero's signs included.
        let ts = [0.0, -0.0, 1.0, 2.5, 1.0, 3.0, 4.0, 5.0, 0.0, 2.5, 2.5, -0.0, 9.0, 1.0];
        for t in ts {
            let (s, c) = ode.sin_cos(t);
            let (s0, c0) = (0.7 * t).sin_cos();
            assert_eq!((s.to_bits(), c.to_bits()), (s0.to_bits(), c0.to_bits()), "t = {t}");
        }
    }
}
