//! One segment of a driven run by an ODE method (the input is monotone inside it: the driver
//! restarts at every kink), with the model's deadband edges located as events where it has
//! any ([`fric_models::Edges`]): integrated on the held-edge right-hand side, smooth between
//! two events, restarted at each edge with the element put on it.

use super::{Driven, Work};
use fric_models::{Edges, InputDriven};
use fric_solvers::{Direction, EventKind, Integrator, Method, OdeSystem, Tolerances};

/// The driven system on one segment with the edges `held` held and the input moving in
/// direction `s`: the right-hand side [`Edges::rhs_held`] and one rising terminal event per edge.
struct OnEdges<'a, M: InputDriven> {
    sys: &'a Driven<'a, M>,
    edges: &'a dyn Edges,
    held: &'a [bool],
    s: f64,
}

impl<M: InputDriven> OdeSystem for OnEdges<'_, M> {
    fn dim(&self) -> usize {
        self.sys.dim()
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        let sig = self.sys.sig;
        self.edges.rhs_held(sig.value(t), sig.deriv(t), x, self.held, dx)
    }
    fn n_events(&self) -> usize {
        self.edges.n_edges()
    }
    fn events(&self, t: f64, x: &[f64], g: &mut [f64]) {
        self.edges.edge_values(self.sys.sig.value(t), self.s, x, self.held, g)
    }
    fn event_kind(&self, _i: usize) -> EventKind {
        EventKind {
            direction: Direction::Rising,
            terminal: true,
        }
    }
    fn n_quadratures(&self) -> usize {
        self.sys.n_quadratures()
    }
    fn integrands(&self, t: f64, x: &[f64], q: &mut [f64]) {
        self.sys.integrands(t, x, q)
    }
}

/// Integrate `sys` over the segment `[a, b]` from `x` by `method`, `out` at `saves` (the state,
/// then the works from the record's start, [`super::Works`]). A model with edges is integrated
/// from event to event: at most one restart per edge, as an edge once held stays held until
/// the input's direction changes at a later segment (`work.held` carries them across segments
/// of one direction; `integrate` clears it at its start).
#[allow(clippy::too_many_arguments)]
pub(super) fn ode_segment<M: InputDriven>(
    sys: &Driven<M>,
    method: Method,
    tol: &Tolerances,
    a: f64,
    x: &mut [f64],
    b: f64,
    saves: &[f64],
    work: &mut Work,
    out: &mut dyn FnMut(f64, &[f64]),
) -> Result<(), String> {
    let n = x.len();
    work.works.resize(sys.n_quadratures(), 0.0);
    let edges = sys.model.edges();
    // The input's direction on the segment (constant between kinks).
    let s = fric_models::sgn(sys.sig.deriv(0.5 * (a + b)));
    if let Some(e) = edges {
        if work.held.len() != e.n_edges() || s != work.direction {
            work.held.clear();
            work.held.resize(e.n_edges(), false);
        }
        work.direction = s;
    }
    let mut integrator = Integrator::new(method);
    let (mut t, mut saves, mut tol) = (a, saves, *tol);
    let mut last_edge: Option<(usize, f64)> = None;
    for _ in 0..=work.held.len() {
        // Each segment's works start at 0: the observer sees them from the reset.
        let (base, buf) = (&work.works, &mut work.buf);
        let mut shifted = |t: f64, s: &[f64]| {
            if base.is_empty() {
                return out(t, s);
            }
            buf.clear();
            buf.extend_from_slice(s);
            buf[n..].iter_mut().zip(base.iter()).for_each(|(q, b)| *q += b);
            out(t, buf)
        };
        let o = match edges {
            None => integrator.solve(sys, &tol, t, x, b, saves, &mut shifted),
            Some(e) => {
                e.settle(sys.sig.value(t), s, x, &mut work.held);
                if let Some((i, te)) = last_edge.filter(|(i, _)| !work.held[*i]) {
                    return Err(format!(
                        "edge {i} of the model was located at t = {te} s but the state there is not on it"
                    ));
                }
                let view = OnEdges {
                    sys,
                    edges: e,
                    held: &work.held,
                    s,
                };
                integrator.solve(&view, &tol, t, x, b, saves, &mut shifted)
            }
        }
        .map_err(|e| e.to_string())?;
        work.works.iter_mut().zip(&o.quadrature).for_each(|(w, q)| *w += q);
        work.ode += o.stats;
        x.copy_from_slice(&o.x);
        let Some(i) = o.event else {
            return Ok(());
        };
        // The saves up to the edge were written; the restart continues with the step before it.
        work.edges += 1;
        saves = &saves[saves.partition_point(|&s| s <= o.t)..];
        (t, tol.h0, last_edge) = (o.t, o.h, Some((i, o.t)));
    }
    Err(format!(
        "more edge events in [{a}, {b}] s than the model has edges ({}): an edge held at one was not held at the next",
        work.held.len()
    ))
}
