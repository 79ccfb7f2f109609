//! The samples of a steady orbit's period, for a system's invariants ([`Forced::check_orbit`]):
//! the period is integrated once more from the orbit's start, as the DF's period is (the same
//! system with its Fourier integrals, the same tolerances, quarter periods, the same events),
//! with the system's works ([`Forced::works`]) carried as quadratures outside error control, so
//! the step sequence is that of the integration without them.

use super::augmented::Augmented;
use super::Forced;
use crate::{Integrator, Method, OdeSystem, Tolerances};

/// Evenly spaced samples per period recorded by [`orbit`] (besides its start, its end and both
/// sides of every event).
pub const ORBIT_SAMPLES: usize = 256;

/// One period of a steady orbit, sampled.
#[derive(Clone, Debug, Default)]
pub struct Orbit {
    /// Amplitude and frequency of the input `u = a sin ωt`.
    pub a: f64,
    pub w: f64,
    /// Sample times from the period's start (0) to its end (`2π/ω`); an event is sampled twice
    /// at its time, before and after [`Forced::on_event`].
    pub t: Vec<f64>,
    /// The input at each sample.
    pub u: Vec<f64>,
    /// The system's state at each sample.
    pub x: Vec<Vec<f64>>,
    /// The works ([`Forced::works`]) integrated from the period's start, at each sample.
    pub works: Vec<Vec<f64>>,
    /// Dimension of the integrated state under error control (the system's and its two
    /// Fourier integrals), accepted steps over the period, and the tolerances.
    pub dim: usize,
    pub steps: usize,
    pub rtol: f64,
    pub atol: f64,
}

impl Orbit {
    /// State component `c` at every sample.
    pub fn component(&self, c: usize) -> Vec<f64> {
        self.x.iter().map(|x| x[c]).collect()
    }
    /// Work `k` at every sample.
    pub fn work(&self, k: usize) -> Vec<f64> {
        self.works.iter().map(|q| q[k]).collect()
    }
}

/// The DF's augmented system with the works as quadrature outputs.
struct Worked<'a, S>(Augmented<'a, S>, &'a S, f64);

impl<S: Forced> OdeSystem for Worked<'_, S> {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(t, x, dx)
    }
    fn n_events(&self) -> usize {
        self.0.n_events()
    }
    fn events(&self, t: f64, x: &[f64], g: &mut [f64]) {
        self.0.events(t, x, g)
    }
    fn event_kind(&self, i: usize) -> crate::EventKind {
        self.0.event_kind(i)
    }
    fn event_samples(&self) -> usize {
        self.0.event_samples()
    }
    fn event_component(&self, i: usize) -> Option<usize> {
        self.0.event_component(i)
    }
    fn n_quadratures(&self) -> usize {
        self.1.n_works()
    }
    fn integrands(&self, t: f64, x: &[f64], q: &mut [f64]) {
        self.1.works(self.2 * self.0.sin_cos(t).0, &x[..self.1.dim()], q)
    }
}

/// One period of `sys` under `u = a sin ωt` from the state `start` (the system's full state,
/// consistent: [`Forced::prepare`] applied), integrated by `method` to `tol`, sampled at
/// [`ORBIT_SAMPLES`] even times, its ends and both sides of every event.
pub fn orbit<S: Forced>(
    sys: &S,
    a: f64,
    w: f64,
    method: Method,
    tol: &Tolerances,
    start: &[f64],
) -> Result<Orbit, String> {
    let n = sys.dim();
    let period = 2.0 * std::f64::consts::PI / w;
    let ode = Worked(Augmented::new(sys, a, w), sys, a);
    let nq = sys.n_works();
    let mut integrator = Integrator::new(method);
    let mut o = Orbit {
        a,
        w,
        dim: n + 2,
        rtol: tol.rtol,
        atol: tol.atol,
        ..Default::default()
    };
    let save: Vec<f64> = (1..=ORBIT_SAMPLES)
        .map(|k| period * k as f64 / ORBIT_SAMPLES as f64)
        .collect();
    // The works integrated before the current restart (each integration starts its own at 0).
    let mut done = vec![0.0; nq];
    let mut x = vec![0.0; n + 2];
    x[..n].copy_from_slice(start);
    let push = |o: &mut Orbit, t: f64, x: &[f64], q: &[f64]| {
        o.t.push(t);
        o.u.push(a * (w * t).sin());
        o.x.push(x[..n].to_vec());
        o.works.push(q.to_vec());
    };
    push(&mut o, 0.0, &x, &done);
    let mut tol = *tol;
    let mut events = 0usize;
    for q in 1..=4 {
        let (mut t, end) = ((q - 1) as f64 * period / 4.0, q as f64 * period / 4.0);
        loop {
            let from = save.partition_point(|&s| s <= t);
            let upto = save.partition_point(|&s| s <= end);
            let mut rows: Vec<(f64, Vec<f64>)> = Vec::new();
            let out = integrator
                .solve(&ode, &tol, t, &x, end, &save[from..upto.max(from)], &mut |s, xq| {
                    rows.push((s, xq.to_vec()))
                })
                .map_err(|e| format!("a = {a}, ω = {w}: the orbit's period: {e}"))?;
            for (s, xq) in rows {
                let works: Vec<f64> = (0..nq).map(|k| done[k] + xq[n + 2 + k]).collect();
                push(&mut o, s, &xq, &works);
            }
            o.steps += out.stats.accepted;
            tol.h0 = out.h;
            for (d, q) in done.iter_mut().zip(&out.quadrature) {
                *d += q;
            }
            x.copy_from_slice(&out.x);
            let Some(i) = out.event.filter(|_| out.t < end) else {
                break;
            };
            events += 1;
            if events > 100_000 {
                return Err(format!(
                    "a = {a}, ω = {w}: more than 100000 events in the orbit's period"
                ));
            }
            let u = a * ode.0.sin_cos(out.t).0;
            push(&mut o, out.t, &x, &done);
            sys.on_event(i, u, &mut x[..n]);
            push(&mut o, out.t, &x, &done);
            t = out.t;
        }
    }
    Ok(o)
}
