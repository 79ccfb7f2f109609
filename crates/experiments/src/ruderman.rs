//! Shared glue of the Ruderman systems: the parameter groups, the next-reversal formula choice,
//! and the simulated unforced oscillator (one-mode hybrid system with reversal and force-zero
//! events) that `ruderman-oscillator` and `ruderman-oscillator-reversals` sample differently.

use crate::system::{between, initial, invalid, params, positive, Spec};
use crate::{Invalid, RunRequest};
use fric_models::ruderman::Variant;
use fric_solvers::hybrid::{simulate, HybridSystem, Quadratures, WithQuadratures};
use fric_solvers::{Method, Tolerances};
use std::cell::RefCell;

params! {
    /// Dahl friction with γ = 1 as Ruderman writes it (3.4).
    pub struct Friction {
        fc: f64 = positive("N", "Coulomb level"),
        sigma: f64 = positive("N/m", "rest stiffness"),
    }
}

params! {
    /// The unforced oscillator (2.1) with (3.4) and its initial state.
    pub struct OscillatorParams {
        m: f64 = positive("kg", "mass"),
        law: Friction = crate::system::Group(crate::system::LINEAR),
        x0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
        f0: f64 = initial("N", "initial friction force"),
    }
}

/// The `variant` parameter: which next-reversal formula.
pub const VARIANT: Spec = between(
    "1",
    0.0,
    2.0,
    "next-reversal formula: 0 exact root of (3.10), 1 (3.13) as derived from (3.11)-(3.12), 2 (3.13) as printed",
)
.default(0.0);

/// The formula a `variant` value selects.
pub fn variant(v: f64) -> Variant {
    match v as i64 {
        1 => Variant::Corrected,
        2 => Variant::Printed,
        _ => Variant::Exact,
    }
}

/// `variant` must be 0, 1 or 2.
pub fn check_variant(v: f64, errs: &mut Vec<Invalid>) {
    if v.fract() != 0.0 {
        errs.push(invalid("variant", "variant must be 0, 1 or 2", "0, 1, 2"));
    }
}

/// The oscillator as a one-mode hybrid system whose guards are the sign changes of v (reversals)
/// and of F (peak kinetic energy); the jumps change nothing but record the state.
pub struct Oscillator {
    pub m: f64,
    pub sigma: f64,
    pub fc: f64,
    events: RefCell<Vec<(usize, f64, [f64; 3])>>,
}

impl HybridSystem for Oscillator {
    type Mode = ();
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _: (), _t: f64, x: &[f64], dx: &mut [f64]) {
        let (v, f) = (x[1], x[2]);
        dx[0] = v;
        dx[1] = -f / self.m;
        dx[2] = self.sigma * (v - v.abs() * f / self.fc);
    }
    fn n_guards(&self, _: ()) -> usize {
        4
    }
    fn guards(&self, _: (), _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[1];
        g[1] = -x[1];
        g[2] = x[2];
        g[3] = -x[2];
    }
    fn jump(&self, _: (), guard: usize, t: f64, x: &mut [f64]) {
        // The event defines the crossing variable as zero: set it exactly, so that the restarted
        // integration does not see the same crossing again from a residue of the root finder.
        x[if guard < 2 { 1 } else { 2 }] = 0.0;
        self.events.borrow_mut().push((guard, t, [x[0], x[1], x[2]]));
    }
}

/// The friction work `W_f = ∫ report · F v dt` as a quadrature output carried across the events
/// (the energy balance of `ruderman-oscillator`; `report` = 1 in production, another value only
/// in the test that the balance catches a misreported force).
struct FrictionWork {
    report: f64,
}

impl Quadratures<()> for FrictionWork {
    fn count(&self) -> usize {
        1
    }
    fn integrands(&self, _: (), _: f64, x: &[f64], q: &mut [f64]) {
        q[0] = self.report * x[2] * x[1];
    }
}

/// Samples and events of one oscillator run; an event is `(guard, t, state)`, guards 0 and 1
/// being reversals (v = 0) and 2 and 3 force zero crossings. `w_f` is the friction work
/// `∫ F v dt` from the start at each sample, `steps` the accepted steps.
pub struct Sim {
    pub t: Vec<f64>,
    pub state: Vec<[f64; 3]>,
    pub events: Vec<(usize, f64, [f64; 3])>,
    pub w_f: Vec<f64>,
    pub steps: usize,
}

/// Simulate from the initial state to `sim.t_end`, sampling at `samples`.
pub fn simulate_oscillator(
    p: &OscillatorParams,
    req: &RunRequest,
    samples: &[f64],
) -> Result<(Oscillator, Sim), String> {
    simulate_reporting(p, req, samples, 1.0)
}

/// rtol 1e-11, atol 1e-14 unless the run sets them.
pub fn oscillator_tolerances(req: &RunRequest) -> (f64, f64) {
    (req.sim.rtol.unwrap_or(1e-11), req.sim.atol.unwrap_or(1e-14))
}

/// [`simulate_oscillator`] with the friction work integrated from `report ×` the force acting.
pub(crate) fn simulate_reporting(
    p: &OscillatorParams,
    req: &RunRequest,
    samples: &[f64],
    report: f64,
) -> Result<(Oscillator, Sim), String> {
    let osc = Oscillator {
        m: p.m,
        sigma: p.law.sigma,
        fc: p.law.fc,
        events: RefCell::new(Vec::new()),
    };
    let t_end = req.sim.t_end.ok_or("t_end")?;
    let period = 2.0 * std::f64::consts::PI * (osc.m / osc.sigma).sqrt();
    let (rtol, atol) = oscillator_tolerances(req);
    let tol = Tolerances {
        rtol,
        atol,
        hmax: period / 50.0,
        ..Default::default()
    };
    let mut sim = Sim {
        t: Vec::new(),
        state: Vec::new(),
        events: Vec::new(),
        w_f: Vec::new(),
        steps: 0,
    };
    let x0 = [p.x0, p.v0, p.f0];
    let powered = WithQuadratures::new(osc, FrictionWork { report });
    let o = simulate(
        &powered,
        (),
        Method::Dopri5,
        &tol,
        0.0,
        &x0,
        t_end,
        samples,
        1_000_000,
        &mut |t, _, x| {
            sim.t.push(t);
            sim.state.push([x[0], x[1], x[2]]);
            sim.w_f.push(x[3]);
        },
    )
    .map_err(|e| e.to_string())?;
    let osc = powered.sys;
    sim.events = osc.events.borrow().clone();
    sim.steps = o.stats.accepted;
    Ok((osc, sim))
}

/// `sim.samples_per_period` + 1 equally spaced samples over `[0, sim.t_end]`.
pub fn sample_times(req: &RunRequest) -> Vec<f64> {
    let t_end = req.sim.t_end.unwrap_or(1.0);
    let n = req
        .sim
        .samples_per_period
        .unwrap_or(crate::budget::DEFAULT_AUTONOMOUS_SAMPLES);
    (0..=n).map(|i| t_end * i as f64 / n as f64).collect()
}
