//! Hybrid automata: continuous flows in discrete modes, switched when a guard crosses zero
//! upward. Guards and jumps are data supplied by the system; the driver integrates one mode at a
//! time with a [`crate::solve`] call whose terminal events are the mode's guards, applies the
//! jump and continues. Used for exact event-driven stick–slip.

use crate::{Direction, EventKind, Integrator, Method, OdeSystem, SolveError, Stats, Tolerances};

mod quadratures;
pub use quadratures::{Quadratures, WithQuadratures};

pub trait HybridSystem {
    type Mode: Copy + PartialEq + std::fmt::Debug;
    fn dim(&self) -> usize;
    fn rhs(&self, mode: Self::Mode, t: f64, x: &[f64], dx: &mut [f64]);
    fn n_guards(&self, mode: Self::Mode) -> usize;
    /// Guard values; guard `i` fires when it crosses zero from below.
    fn guards(&self, mode: Self::Mode, t: f64, x: &[f64], g: &mut [f64]);
    /// New mode after guard `guard` fired at `(t, x)`; may reset `x`.
    fn jump(&self, mode: Self::Mode, guard: usize, t: f64, x: &mut [f64]) -> Self::Mode;
    /// Whether a guard exactly at zero after a jump fires as soon as it rises
    /// ([`crate::OdeSystem::event_from_zero`]); off by default.
    fn guards_fire_from_zero(&self) -> bool {
        false
    }
    /// Whether some guard declares its rate ([`HybridSystem::guard_rate`];
    /// [`crate::OdeSystem::event_rates`]); false by default.
    fn guard_rates(&self) -> bool {
        false
    }
    /// The rate of guard `guard` in `mode` along the flow at `(t, x)` with `f` the mode's field
    /// there, if the guard is watched for grazes ([`crate::OdeSystem::event_rate`]): a guard that
    /// rises to zero and falls back inside one step fires at its first zero.
    fn guard_rate(&self, _mode: Self::Mode, _guard: usize, _t: f64, _x: &[f64], _f: &[f64]) -> Option<f64> {
        None
    }
    /// Quadrature outputs carried across the modes ([`crate::OdeSystem::n_quadratures`]): the
    /// observer receives the state followed by the integrals from the simulation's start.
    fn n_quadratures(&self) -> usize {
        0
    }
    /// Their integrands in `mode` (a jump adds nothing to them).
    fn integrands(&self, _mode: Self::Mode, _t: f64, _x: &[f64], _q: &mut [f64]) {}
}

struct InMode<'a, H: HybridSystem> {
    sys: &'a H,
    mode: H::Mode,
}

impl<H: HybridSystem> OdeSystem for InMode<'_, H> {
    fn dim(&self) -> usize {
        self.sys.dim()
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        self.sys.rhs(self.mode, t, x, dx)
    }
    fn n_events(&self) -> usize {
        self.sys.n_guards(self.mode)
    }
    fn events(&self, t: f64, x: &[f64], g: &mut [f64]) {
        self.sys.guards(self.mode, t, x, g)
    }
    fn event_kind(&self, _i: usize) -> EventKind {
        EventKind {
            direction: Direction::Rising,
            terminal: true,
        }
    }
    fn event_from_zero(&self, _i: usize) -> bool {
        self.sys.guards_fire_from_zero()
    }
    fn event_rates(&self) -> bool {
        self.sys.guard_rates()
    }
    fn event_rate(&self, i: usize, t: f64, x: &[f64], f: &[f64]) -> Option<f64> {
        self.sys.guard_rate(self.mode, i, t, x, f)
    }
    fn n_quadratures(&self) -> usize {
        self.sys.n_quadratures()
    }
    fn integrands(&self, t: f64, x: &[f64], q: &mut [f64]) {
        self.sys.integrands(self.mode, t, x, q)
    }
}

/// Observer of a hybrid simulation: `(t, mode, x)` at every save time (`x` followed by the
/// quadrature outputs if the system has any).
pub type HybridObserver<'a, M> = dyn FnMut(f64, M, &[f64]) + 'a;

#[derive(Clone, Debug)]
pub struct HybridOutcome<M> {
    pub t: f64,
    pub x: Vec<f64>,
    pub mode: M,
    /// Every switch: `(time, new mode)`.
    pub switches: Vec<(f64, M)>,
    pub stats: Stats,
    /// The quadrature outputs from `t0` to `t` (empty if the system has none).
    pub quadrature: Vec<f64>,
}

/// Simulate from `(t0, x0)` in `mode0` to `t1`; `out(t, mode, x)` at every save time.
/// `max_switches` bounds Zeno behaviour.
#[allow(clippy::too_many_arguments)]
pub fn simulate<H: HybridSystem>(
    sys: &H,
    mode0: H::Mode,
    method: Method,
    tol: &Tolerances,
    t0: f64,
    x0: &[f64],
    t1: f64,
    saveat: &[f64],
    max_switches: usize,
    out: &mut HybridObserver<'_, H::Mode>,
) -> Result<HybridOutcome<H::Mode>, SolveError> {
    let mut mode = mode0;
    let mut t = t0;
    let mut x = x0.to_vec();
    let mut switches = Vec::new();
    let mut stats = Stats::default();
    let mut save_from = saveat.partition_point(|&s| s < t0);
    let (n, nq) = (sys.dim(), sys.n_quadratures());
    // The integrals of the modes before the current one, and the observer's buffer.
    let mut base = vec![0.0; nq];
    let mut buf = Vec::with_capacity(n + nq);
    // One integrator for every segment: its buffers and steppers allocated once, results bit
    // for bit those of a fresh `solve` per segment.
    let mut integrator = Integrator::new(method);
    loop {
        let view = InMode { sys, mode };
        let m = mode;
        let mut last_saved = f64::NEG_INFINITY;
        let o = integrator.solve(&view, tol, t, &x, t1, &saveat[save_from..], &mut |ts, xs| {
            last_saved = ts;
            if nq == 0 {
                return out(ts, m, xs);
            }
            buf.clear();
            buf.extend_from_slice(xs);
            buf[n..].iter_mut().zip(&base).for_each(|(q, b)| *q += b);
            out(ts, m, &buf)
        })?;
        stats += o.stats;
        base.iter_mut().zip(&o.quadrature).for_each(|(b, q)| *b += q);
        save_from += saveat[save_from..].partition_point(|&s| s <= last_saved.max(o.t).min(o.t));
        t = o.t;
        x = o.x;
        match o.event {
            None => {
                return Ok(HybridOutcome {
                    t,
                    x,
                    mode,
                    switches,
                    stats,
                    quadrature: base,
                })
            }
            Some(i) => {
                if switches.len() >= max_switches {
                    return Err(SolveError::TooManySteps { t });
                }
                mode = sys.jump(mode, i, t, &mut x);
                switches.push((t, mode));
            }
        }
    }
}
