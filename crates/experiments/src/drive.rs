//! Running a model driven by a prescribed input: the time plan (periods, `t_end` or a periodic
//! steady state), tolerances and step cap, restarts at every input extremum, sampling, and the
//! exact rate-independent operators on the input samples. Shared by every prescribed-input system.

use crate::budget::DEFAULT_SAMPLES;
use crate::methods::{self, How, Methods, Ode};
use crate::system::Column;
use crate::{RunData, RunRequest};
use fric_models::signal::Signal;
use fric_models::InputDriven;
use fric_solvers::affine::{solve_affine, AffineStats, AffineTolerance};
use fric_solvers::analysis::until_periodic;
use fric_solvers::expint::{ExpStats, ExpTolerance};
use fric_solvers::shooting::shoot;
use fric_solvers::{Method, OdeSystem, Stats, Tolerances};

mod edges;
mod exponential;
mod operator;

pub use exponential::{exponential_segment, STRIBECK_SPLIT};
pub(crate) use exponential::{relaxation, speed_splits};
pub use operator::{exact, exact_pl, Operator, StopOps};

/// Columns of a friction operator driven by a position (`dahl`, `maxwell-slip`).
pub const OPERATOR_COLUMNS: &[Column] = &[
    ("t", "s", "time"),
    ("u", "m", "input position"),
    ("v", "m/s", "input velocity u'"),
    ("F", "N", "friction force"),
];

/// Methods of a rate-independent operator: `exact` along the input samples, or `ode` in time.
pub const OPERATOR_METHODS: Methods = &[methods::Method::Exact, methods::Method::Ode];

/// The time integrator of a run: its method's solver, or an error naming a method that does not
/// step in time (every method declares what it does, none falls back to another).
pub fn method_of(req: &RunRequest) -> Result<Method, String> {
    Ok(ode_of(req)?.solver)
}

/// The solver and default tolerances of the run's method ([`methods::How::Ode`]), or an error
/// naming a method that does not step in time (`exact`, `analytic`, `integrating-factor`,
/// `exponential` are not these solvers).
pub fn ode_of(req: &RunRequest) -> Result<Ode, String> {
    let m = req.method;
    match m.how() {
        How::Ode(ode) => Ok(ode),
        _ => Err(format!("method `{m}` does not integrate in time")),
    }
}

/// Whether the run's method steps in time (every method but `exact`): an operator with an exact
/// evaluation is driven by [`exact`] otherwise.
pub fn steps_in_time(req: &RunRequest) -> bool {
    req.method.how() != How::Exact
}

/// Time plan of a prescribed-input run.
pub struct Plan {
    /// The input period, or `t_end` for an input that is not periodic: the span
    /// `samples_per_period` refers to.
    pub period: f64,
    /// The input's period, `None` when it is not periodic (what the run data records).
    pub input_period: Option<f64>,
    /// The time the step cap is 1/1000 of: the period, or a shorter time scale of the input
    /// (a sum of sines' shortest period).
    pub scale: f64,
    pub samples_per_period: usize,
    /// `(t_start, t_end)` of the recorded window.
    pub record: (f64, f64),
}

/// The tolerances of a run stepped by `ode`: `sim.rtol`, `sim.atol` or the method's defaults,
/// and a step cap of `scale`/1000.
pub fn tolerances(req: &RunRequest, ode: Ode, scale: f64) -> Tolerances {
    // The step cap keeps the integrator from stepping over short features of the input. An
    // error estimate only sees the stages: for LuGre in steady sliding f ≡ 0 at every stage, so
    // a step from mid-slide to the next reversal reports zero error while skipping the Stribeck
    // region |u'| ≲ v_s that lasts ~1 % of the period (thesis Fig 1.11(a)).
    Tolerances {
        rtol: req.sim.rtol.unwrap_or(ode.rtol),
        atol: req.sim.atol.unwrap_or(ode.atol),
        hmax: scale / 1000.0,
        ..Default::default()
    }
}

/// `t_end` and the save times of an autonomous run (input `none`): `sim.samples_per_period` + 1
/// equally spaced points over `[0, sim.t_end]` (default [`crate::budget::DEFAULT_AUTONOMOUS_SAMPLES`],
/// which the run budget assumes).
pub fn autonomous_times(req: &RunRequest) -> Result<(f64, Vec<f64>), String> {
    let t_end = req.sim.t_end.ok_or_else(|| format!("{} needs sim.t_end", req.system))?;
    let n = req
        .sim
        .samples_per_period
        .unwrap_or(crate::budget::DEFAULT_AUTONOMOUS_SAMPLES)
        .max(1);
    Ok((t_end, (0..=n).map(|i| t_end * i as f64 / n as f64).collect()))
}

pub fn save_times(plan: &Plan) -> Vec<f64> {
    let (a, b) = plan.record;
    let n = (((b - a) / plan.period) * plan.samples_per_period as f64)
        .round()
        .max(1.0) as usize;
    (0..=n).map(|i| a + (b - a) * i as f64 / n as f64).collect()
}

/// Works a driven run integrates beside its state (`fric_solvers`' quadrature outputs, on each
/// accepted step's dense output, outside error control): their number and integrands
/// `q(u, u', x)`. The record then receives the state followed by the works since the record's
/// start.
pub struct Works<'a> {
    pub n: usize,
    pub integrands: &'a Integrands<'a>,
}

/// `q = integrands(u, u', x)`: the works' rates ([`Works`]).
pub type Integrands<'a> = dyn Fn(f64, f64, &[f64], &mut [f64]) + 'a;

struct Driven<'a, M: InputDriven> {
    model: &'a M,
    sig: &'a Signal,
    works: Option<&'a Works<'a>>,
}

impl<M: InputDriven> OdeSystem for Driven<'_, M> {
    fn dim(&self) -> usize {
        self.model.dim()
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        self.model.rhs(self.sig.value(t), self.sig.deriv(t), x, dx)
    }
    fn jacobian(&self, t: f64, x: &[f64], j: &mut [f64]) -> bool {
        self.model.jacobian(self.sig.value(t), self.sig.deriv(t), x, j)
    }
    fn n_quadratures(&self) -> usize {
        self.works.map_or(0, |w| w.n)
    }
    fn integrands(&self, t: f64, x: &[f64], q: &mut [f64]) {
        if let Some(w) = self.works {
            (w.integrands)(self.sig.value(t), self.sig.deriv(t), x, q)
        }
    }
}

/// The exponential integrator's steps are at most the input's time scale (its period, or its
/// shortest sine period) over this. An error estimate sees the coefficients only at the nodes: a
/// feature of `g(u'(t))` that falls between them is invisible (a step from one LuGre reversal to
/// the next, with the nodes placed symmetrically in mid-slide, estimated zero error and was 0.47 N
/// wrong on thesis Fig 1.11(a)). The largest gap between the 4 Gauss nodes of consecutive steps is
/// 0.34 h, so every feature longer than 1/300 of the time scale holds a node. That alone guarded
/// LuGre's Stribeck region only while it lasted longer (|u'| < v_s: 1/100 of the period in Fig
/// 1.11(a); with v_s 40 times smaller the run was 6.4e-3 N wrong, `tests/exponential.rs`), so a
/// model with a speed scale is also split at [`STRIBECK_SPLIT`]. The cap stays: without it the
/// first step from a reversal (`a = b = 0` there, the estimate blind) spans its whole piece, and
/// the reduced LuGre of `tests/exponential.rs` left its bristle bound by 6 % in that step's dense
/// output (tried 2026-12-07). The ODE methods' cap is 10 times smaller (a feature must hold
/// several steps of a low-order method).
pub const EXPONENTIAL_STEPS_PER_SCALE: f64 = 100.0;

/// The local error allowed per step of the exponential integrator, relative to the model's state
/// scale, when the run sets no `rtol` (the integrating factor's default accuracy, 1e-10 of the
/// scale per output interval, is its neighbour).
pub const EXPONENTIAL_RTOL: f64 = 1e-10;

/// How a driven model is integrated: an ODE method in time, or (for a single-state model that
/// is affine along the input, [`InputDriven::affine`]) exactly from its integrating factor by
/// adaptive quadrature (`fric_solvers::affine`), with no time step, or by exponential
/// collocation (`fric_solvers::expint`), the stiff part in closed form.
enum Integrator {
    Ode(Method, Tolerances),
    Affine(AffineTolerance),
    Exponential(ExpTolerance),
}

/// Work counters of any integrator.
#[derive(Default)]
struct Work {
    ode: Stats,
    affine: AffineStats,
    exp: ExpStats,
    /// The works ([`Works`]) of the segments integrated since they were last reset, and the
    /// observer's buffer.
    works: Vec<f64>,
    buf: Vec<f64>,
    /// The model's held edges ([`fric_models::Edges`]) and the input's direction they were
    /// held in, carried from one segment to the next of the same direction.
    held: Vec<bool>,
    direction: f64,
    /// Edge events located.
    edges: usize,
    /// The exponential driver's pieces of a monotone segment (its ends and the splits at
    /// [`STRIBECK_SPLIT`]), kept so that no segment allocates them ([`exponential_segment`]).
    pieces: Vec<f64>,
}

/// Integrate a driven model over `[t0, t1]`, restarting the integrator at every input extremum
/// and switch (the right-hand sides contain `|u'|` and `sign u'`, which kink there).
#[allow(clippy::too_many_arguments)]
fn integrate<M: InputDriven>(
    sys: &Driven<M>,
    how: &Integrator,
    t0: f64,
    x: &mut [f64],
    t1: f64,
    saveat: &[f64],
    work: &mut Work,
    out: &mut dyn FnMut(f64, &[f64]),
) -> Result<(), String> {
    // Held edges are a function of the state at the start (a period map's shooting may start
    // anywhere).
    work.held.clear();
    let mut stops = Vec::new();
    sys.sig.kinks(t0, t1, &mut stops);
    stops.push(t1);
    let mut a = t0;
    let mut idx = 0;
    for &b in &stops {
        if b <= a {
            continue;
        }
        let j = idx + saveat[idx..].partition_point(|&s| s <= b);
        match how {
            Integrator::Ode(method, tol) => {
                edges::ode_segment(sys, *method, tol, a, x, b, &saveat[idx..j], work, out)?;
            }
            Integrator::Affine(tol) => {
                let coef = |t: f64| {
                    sys.model
                        .affine(sys.sig.value(t), sys.sig.deriv(t))
                        .expect("checked when the integrator was chosen")
                };
                let before = work.affine.unresolved;
                x[0] = solve_affine(
                    &coef,
                    a,
                    x[0],
                    b,
                    &saveat[idx..j],
                    *tol,
                    &mut work.affine,
                    &mut |t, z| out(t, &[z]),
                );
                if work.affine.unresolved > before {
                    return Err(format!(
                        "integrating factor: {} interval(s) in [{a}, {b}] s not resolved to {:e} at the deepest bisection",
                        work.affine.unresolved - before,
                        tol.abs
                    ));
                }
            }
            Integrator::Exponential(tol) => {
                let coef = |t: f64| {
                    sys.model
                        .affine(sys.sig.value(t), sys.sig.deriv(t))
                        .expect("checked when the integrator was chosen")
                };
                x[0] = exponential::exponential_segment(
                    exponential::relaxation(),
                    &coef,
                    &|t| sys.sig.deriv(t),
                    sys.model.speed_scale(),
                    (a, x[0], b),
                    &saveat[idx..j],
                    *tol,
                    &mut work.exp,
                    &mut work.pieces,
                    &mut |t, z| out(t, &[z]),
                )?;
            }
        }
        idx = j;
        a = b;
    }
    Ok(())
}

/// Whether the run asks for its periodic steady state by shooting (`steady_state.shooting`).
pub fn shooting(req: &RunRequest) -> bool {
    req.sim.steady_state.as_ref().is_some_and(|s| s.shooting)
}

/// For the systems that find periodic steady states only by integrating period after period:
/// an error when the run asks for shooting.
pub fn no_shooting(req: &RunRequest) -> Result<(), String> {
    if shooting(req) {
        return Err(format!(
            "steady_state.shooting is not available for system {}: it needs a smooth period map from \
             the prescribed-input driver; remove `shooting` to integrate period after period",
            req.system
        ));
    }
    Ok(())
}

pub fn periodic_plan(req: &RunRequest, sig: &Signal) -> (Plan, Option<(f64, usize)>) {
    // A signal's own period, else the one its input declares (a `csv` input's `period`: its
    // linear interpolation of the samples does not know it).
    let input_period = sig.period().or_else(|| req.input.period());
    // Validation requires `t_end` for an input without a period.
    let period = input_period.unwrap_or_else(|| req.sim.t_end.unwrap_or(1.0));
    let scale = sig.time_scale().map_or(period, |s| s.min(period));
    let spp = req.sim.samples_per_period.unwrap_or(DEFAULT_SAMPLES);
    if let Some(ss) = &req.sim.steady_state {
        return (
            Plan {
                period,
                input_period,
                scale,
                samples_per_period: spp,
                record: (0.0, 0.0),
            },
            Some((ss.tol, ss.max_periods)),
        );
    }
    let t_end = req.sim.t_end.unwrap_or_else(|| req.sim.periods.unwrap_or(1.0) * period);
    (
        Plan {
            period,
            input_period,
            scale,
            samples_per_period: spp,
            record: (0.0, t_end),
        },
        None,
    )
}

/// Run a prescribed-input ODE model; `record(u, du, x, out)` fills the extra columns.
pub fn driven<M: InputDriven>(
    req: &RunRequest,
    sig: &Signal,
    model: &M,
    x: Vec<f64>,
    extra: &[&str],
    record: impl Fn(f64, f64, &[f64], &mut [f64]),
) -> Result<RunData, String> {
    driven_with_works(req, sig, model, x, extra, None, record)
}

/// [`driven`] integrating `works` beside the state (ODE methods only): `record` receives the
/// state followed by the works from the record's start.
pub fn driven_with_works<M: InputDriven>(
    req: &RunRequest,
    sig: &Signal,
    model: &M,
    mut x: Vec<f64>,
    extra: &[&str],
    works: Option<&Works>,
    record: impl Fn(f64, f64, &[f64], &mut [f64]),
) -> Result<RunData, String> {
    let (mut plan, steady) = periodic_plan(req, sig);
    let method = req.method;
    let how = match method.how() {
        How::IntegratingFactor | How::Exponential => {
            if model.dim() != 1 || model.affine(sig.value(0.0), sig.deriv(0.0)).is_none() {
                return Err(format!(
                    "method {method} needs a single-state model affine along the input; {} is not",
                    req.system
                ));
            }
            let scale = model.state_scale();
            let atol = req.sim.atol.unwrap_or(0.0);
            if method.how() == How::Exponential {
                Integrator::Exponential(ExpTolerance {
                    abs: req.sim.rtol.unwrap_or(EXPONENTIAL_RTOL) * scale + atol,
                    z_scale: scale,
                    hmax: plan.scale / EXPONENTIAL_STEPS_PER_SCALE,
                })
            } else {
                Integrator::Affine(AffineTolerance {
                    abs: req.sim.rtol.unwrap_or(1e-10) * scale + atol,
                    z_scale: scale,
                })
            }
        }
        How::Ode(ode) => Integrator::Ode(ode.solver, tolerances(req, ode, plan.scale)),
        How::Exact | How::Analytic => return Err(format!("method `{method}` does not integrate in time")),
    };
    if works.is_some() && !matches!(how, Integrator::Ode(..)) {
        return Err(format!(
            "{}: the energy balance's works need an ODE method, not {method}",
            req.system
        ));
    }
    let sys = Driven { model, sig, works };
    let mut work = Work::default();
    let mut data = RunData {
        period: plan.input_period,
        ..Default::default()
    };
    let p = plan.period;
    // One input period from `t0`, in place (the input is periodic, so any `t0 = k p` will do).
    let mut period_map = |t0: f64, v: &mut [f64]| -> Result<(), String> {
        let mut w = v.to_vec();
        integrate(&sys, &how, t0, &mut w, t0 + p, &[], &mut work, &mut |_, _| {})?;
        v.copy_from_slice(&w);
        Ok(())
    };
    if let (Some((stol, max)), true) = (steady, shooting(req)) {
        // Newton on the period map [0, p].
        let scale = model.state_scales();
        let shot = shoot(&mut x, &scale, stol, max, |v| period_map(0.0, v))?;
        if !shot.converged {
            return Err(format!(
                "no periodic steady state by shooting after {} period maps (residual {:e})",
                shot.maps, shot.residual
            ));
        }
        data.info.insert("periods_to_steady_state".into(), shot.maps as f64);
        data.info.insert("steady_state_residual".into(), shot.residual);
        data.info.insert("newton_steps".into(), shot.newton_steps as f64);
        plan.record = (0.0, p);
    } else if let Some((stol, max)) = steady {
        let per = until_periodic(&mut x, stol, max, |k, x| period_map(k as f64 * p, x))?;
        if !per.converged {
            return Err(format!(
                "no periodic steady state after {} periods (change {:e})",
                per.periods, per.change
            ));
        }
        data.info.insert("periods_to_steady_state".into(), per.periods as f64);
        data.info.insert("steady_state_change".into(), per.change);
        plan.record = (per.periods as f64 * p, (per.periods + 1) as f64 * p);
    }
    let save = save_times(&plan);
    let mut cols: Vec<Vec<f64>> = vec![Vec::with_capacity(save.len()); 2 + extra.len()];
    let mut buf = vec![0.0; extra.len()];
    let mut push = |t: f64, x: &[f64]| {
        let (u, du) = (sig.value(t), sig.deriv(t));
        record(u, du, x, &mut buf);
        cols[0].push(t);
        cols[1].push(u);
        for (c, v) in cols[2..].iter_mut().zip(&buf) {
            c.push(*v);
        }
    };
    // With a steady state, the record window is the period after it was reached.
    let (a, b) = plan.record;
    work.works.clear();
    // Steps taken before the record window (period maps, transients) are not the recorded
    // run's: a bound that grows with the steps (the energy balance's) counts only these.
    let before = (work.ode.accepted, work.exp.steps);
    integrate(&sys, &how, a, &mut x, b, &save, &mut work, &mut push)?;
    let recorded = match how {
        Integrator::Ode(..) => Some(work.ode.accepted - before.0),
        Integrator::Exponential(_) => Some(work.exp.steps - before.1),
        Integrator::Affine(_) => None,
    };
    if let Some(n) = recorded {
        data.info.insert("recorded_steps".into(), n as f64);
    }
    let mut names = vec!["t", "u"];
    names.extend_from_slice(extra);
    data.columns = names.iter().map(|s| s.to_string()).zip(cols).collect();
    match how {
        Integrator::Ode(..) => {
            data.info.insert("steps".into(), work.ode.accepted as f64);
            data.info.insert("rejected".into(), work.ode.rejected as f64);
            if model.edges().is_some() {
                data.info.insert("edge_events".into(), work.edges as f64);
            }
        }
        Integrator::Affine(_) => {
            data.info
                .insert("quadrature_intervals".into(), work.affine.accepted as f64);
            data.info.insert("quadrature_leaves".into(), work.affine.leaves as f64);
        }
        Integrator::Exponential(_) => {
            data.info.insert("steps".into(), work.exp.steps as f64);
            data.info.insert("rejected".into(), work.exp.rejected as f64);
            data.info
                .insert("coefficient_evaluations".into(), work.exp.evals as f64);
        }
    }
    data.info.insert("t_start".into(), a);
    Ok(data)
}
