//! Executing a resolved run into columns.

use crate::{RunData, RunRequest};
use fric_manifest::{InputSpec, Scale};
use fric_models::duhem::Semilinear;
use fric_models::mass_spring::{Plant, WithDahl, WithLuGre, WithMaxwellSlip};
use fric_models::maxwell_slip::MaxwellSlipState;
use fric_models::signal::{Piecewise, Signal, Sine};
use fric_models::{
    coulomb, cubic::Cubic, dahl, linear::LinearMsd, lugre::LuGre, maxwell_slip::MaxwellSlip, InputDriven,
};
use fric_solvers::analysis::until_periodic;
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{solve, Method, OdeSystem, Stats, Tolerances};
use std::cell::RefCell;
use std::f64::consts::PI;

const DEFAULT_SAMPLES: usize = 2000;

/// Execute a resolved run. Errors are solver failures, described in one line.
pub fn execute(req: &RunRequest) -> Result<RunData, String> {
    match req.system.as_str() {
        "linear-msd" => {
            let m = LinearMsd {
                m: req.scalar("m"),
                c: req.scalar("c"),
                k: req.scalar("k"),
            };
            driven(
                req,
                &signal(&req.input),
                &m,
                vec![req.scalar("x0"), req.scalar("v0")],
                &["y", "v"],
                |_, _, x, out| {
                    out[0] = x[0];
                    out[1] = x[1];
                },
            )
        }
        "cubic" => driven(
            req,
            &signal(&req.input),
            &Cubic,
            vec![req.scalar("x0")],
            &["x", "eq_residual"],
            |u, _, x, out| {
                out[0] = x[0];
                out[1] = (u - Cubic::equilibrium_input(x[0])).abs();
            },
        ),
        "lugre" => {
            let m = lugre(req);
            driven(
                req,
                &signal(&req.input),
                &m,
                vec![req.scalar("z0")],
                &["v", "z", "F"],
                |u, du, x, out| {
                    out[0] = du;
                    out[1] = x[0];
                    out[2] = m.output(u, du, x);
                },
            )
        }
        "dahl" => {
            let m = dahl_of(req);
            if method_name(req) == "ode" {
                driven(
                    req,
                    &signal(&req.input),
                    &m,
                    vec![req.scalar("f0")],
                    &["v", "F"],
                    |_, du, x, out| {
                        out[0] = du;
                        out[1] = x[0];
                    },
                )
            } else {
                let sig = signal(&req.input);
                let mut op = dahl::DahlOperator::new(m, sig.value(0.0), req.scalar("f0"));
                exact(req, &sig, move |u| op.advance(u))
            }
        }
        "maxwell-slip" => {
            let m = MaxwellSlip::new(req.vector("k").to_vec(), req.vector("delta").to_vec());
            let sig = signal(&req.input);
            if method_name(req) == "ode" {
                let u0 = sig.value(0.0);
                let x0: Vec<f64> = m.delta.iter().map(|d| u0 - req.scalar("s0").clamp(-d, *d)).collect();
                driven(req, &sig, &m, x0, &["v", "F"], |u, du, x, out| {
                    out[0] = du;
                    out[1] = m.output(u, du, x);
                })
            } else {
                let mut st = m.state(sig.value(0.0), req.scalar("s0"));
                let mm = m.clone();
                exact(req, &sig, move |u| mm.advance(&mut st, u))
            }
        }
        "coulomb-mass-spring" => coulomb_mass_spring(req),
        "cubic-equilibria" => {
            let x = grid(&req.input);
            let u: Vec<f64> = x.iter().map(|&x| Cubic::equilibrium_input(x)).collect();
            let s: Vec<f64> = x.iter().map(|&x| if Cubic::is_stable(x) { 1.0 } else { 0.0 }).collect();
            Ok(table(vec![("x", x), ("u", u), ("stable", s)]))
        }
        "coulomb-friction-curve" => {
            let fc = req.scalar("fc");
            let (v, f) = curve_with_jump(&grid(&req.input), |v| coulomb::force(fc, v), -fc, fc);
            Ok(table(vec![("v", v), ("F", f)]))
        }
        "coulomb-equilibria" => {
            let m = coulomb::MassSpring {
                m: 1.0,
                k: req.scalar("k"),
                fc: req.scalar("fc"),
            };
            let u = grid(&req.input);
            let (lo, hi): (Vec<f64>, Vec<f64>) = u.iter().map(|&u| m.equilibria(u)).unzip();
            Ok(table(vec![("u", u), ("x_lo", lo), ("x_hi", hi)]))
        }
        "lugre-steady-state" => {
            let m = lugre(req);
            let (v, f) = curve_with_jump(&grid(&req.input), |v| m.steady_state(v), -m.fs, m.fs);
            Ok(table(vec![("v", v), ("F", f)]))
        }
        "semilinear-duhem" => {
            let m = Semilinear {
                a_plus: req.scalar("a_plus"),
                b_plus: req.scalar("b_plus"),
                e_plus: req.scalar("e_plus"),
                a_minus: req.scalar("a_minus"),
                b_minus: req.scalar("b_minus"),
                e_minus: req.scalar("e_minus"),
                c: req.scalar("c"),
                d: req.scalar("d"),
            };
            let sig = signal(&req.input);
            let (u_min, u_max) = match &sig {
                Signal::Sine(s) => (s.offset - s.amplitude.abs(), s.offset + s.amplitude.abs()),
                Signal::Piecewise(_) => return Err("semilinear-duhem takes a sine or cosine input".into()),
            };
            driven(
                req,
                &sig,
                &m,
                vec![req.scalar("x0")],
                &["v", "y", "y_limit"],
                |u, du, x, out| {
                    out[0] = du;
                    out[1] = m.output(u, du, x);
                    out[2] = m.limit_output(u.clamp(u_min, u_max), du > 0.0, u_min, u_max);
                },
            )
        }
        "mass-spring-dahl" | "drum-dahl" => {
            let (plant, sig, x0, map) = spring_setup(req);
            let m = WithDahl {
                plant,
                dahl: dahl_of(req),
            };
            let d = driven(
                req,
                &sig,
                &m,
                vec![x0[0], x0[1], req.scalar("f0")],
                &["q", "v", "F"],
                |_, _, x, out| out.copy_from_slice(x),
            )?;
            Ok(map.apply(d))
        }
        "mass-spring-lugre" | "drum-lugre" => {
            let (plant, sig, x0, map) = spring_setup(req);
            let m = WithLuGre {
                plant,
                lugre: lugre(req),
            };
            let d = driven(
                req,
                &sig,
                &m,
                vec![x0[0], x0[1], req.scalar("z0")],
                &["q", "v", "F"],
                |_, _, x, out| {
                    out[0] = x[0];
                    out[1] = x[1];
                    out[2] = m.friction(x[1], x[2]);
                },
            )?;
            Ok(map.apply(d))
        }
        "mass-spring-maxwell-slip" | "drum-maxwell-slip" => {
            let (plant, sig, x0, map) = spring_setup(req);
            let elements = MaxwellSlip::new(req.vector("k").to_vec(), req.vector("delta").to_vec());
            let m = WithMaxwellSlip { plant, elements };
            Ok(map.apply(spring_maxwell_slip(req, &sig, &m, x0)?))
        }
        "ruderman-potential" => Ok(crate::ruderman::potential(req, grid(&req.input))),
        "ruderman-omega" => Ok(crate::ruderman::omega(req, grid(&req.input))),
        "ruderman-branch" => crate::ruderman::branch(req, grid(&req.input)),
        "ruderman-reversals" => Ok(crate::ruderman::reversals(req, grid(&req.input))),
        "ruderman-oscillator" => crate::ruderman::oscillator(req),
        "cbm-stick-slip" => crate::cbm::stick_slip(req),
        "ruderman-oscillator-reversals" => crate::ruderman::oscillator_reversals(req),
        other => Err(format!("system `{other}` has no runner")),
    }
}

fn dahl_of(req: &RunRequest) -> dahl::Dahl {
    dahl::Dahl {
        sigma: req.scalar("sigma"),
        fc: req.scalar("fc"),
        gamma: req.scalar("gamma"),
    }
}

fn lugre(req: &RunRequest) -> LuGre {
    LuGre {
        sigma0: req.scalar("sigma0"),
        sigma1: req.scalar("sigma1"),
        sigma2: req.scalar("sigma2"),
        fc: req.scalar("fc"),
        fs: req.scalar("fs"),
        vs: req.scalar("vs"),
    }
}

fn table(cols: Vec<(&str, Vec<f64>)>) -> RunData {
    RunData {
        columns: cols.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
        period: None,
        info: Default::default(),
    }
}

fn method_of(req: &RunRequest) -> Method {
    match method_name(req) {
        "rosenbrock23" => Method::Rosenbrock23,
        "radau5" => Method::Radau5,
        "dop853" => Method::Dop853,
        _ => Method::Dopri5,
    }
}

fn method_name(req: &RunRequest) -> &str {
    req.sim
        .method
        .as_deref()
        .unwrap_or_else(|| crate::system(&req.system).map(|s| s.methods[0]).unwrap_or(""))
}

/// The input signal of a prescribed-input run.
pub fn signal(input: &InputSpec) -> Signal {
    match *input {
        InputSpec::Sine {
            amplitude,
            omega,
            phase,
            offset,
        } => Signal::Sine(Sine {
            amplitude,
            omega,
            phase,
            offset,
        }),
        InputSpec::Cosine {
            amplitude,
            omega,
            phase,
            offset,
        } => Signal::Sine(Sine {
            amplitude,
            omega,
            phase: phase + PI / 2.0,
            offset,
        }),
        InputSpec::SwitchedSine { omega, ref pieces } => Signal::Piecewise(Piecewise {
            pieces: pieces
                .iter()
                .map(|p| {
                    (
                        p.from_period * 2.0 * PI / omega,
                        Sine {
                            amplitude: p.amplitude,
                            omega,
                            phase: 0.0,
                            offset: 0.0,
                        },
                    )
                })
                .collect(),
        }),
        InputSpec::Grid { .. } | InputSpec::None => unreachable!("validated: a signal input"),
    }
}

/// Evaluation grid of an analytic run.
fn grid(input: &InputSpec) -> Vec<f64> {
    let InputSpec::Grid {
        from,
        to,
        points,
        scale,
    } = *input
    else {
        unreachable!("validated: grid input")
    };
    let n = points.max(2);
    match scale {
        Scale::Linear => (0..n).map(|i| from + (to - from) * i as f64 / (n - 1) as f64).collect(),
        Scale::Log => (0..n)
            .map(|i| from * (to / from).powf(i as f64 / (n - 1) as f64))
            .collect(),
        Scale::SymLog => {
            // Log-spaced magnitudes from 1e-6 of the largest end, on each side of zero.
            let big = from.abs().max(to.abs());
            let small = 1e-6 * big;
            let half = n / 2;
            let mut out = Vec::with_capacity(n);
            if from < 0.0 {
                for i in (0..half).rev() {
                    out.push(-small * (from.abs() / small).powf(i as f64 / (half - 1).max(1) as f64));
                }
            }
            if to > 0.0 {
                for i in 0..half {
                    out.push(small * (to / small).powf(i as f64 / (half - 1).max(1) as f64));
                }
            }
            out
        }
    }
}

/// Evaluate a curve on a grid; where the grid crosses zero insert the vertical jump
/// `(0, lo), (0, hi)` of a set-valued law.
fn curve_with_jump(v: &[f64], f: impl Fn(f64) -> f64, lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let mut xs = Vec::with_capacity(v.len() + 2);
    let mut ys = Vec::with_capacity(v.len() + 2);
    for (i, &x) in v.iter().enumerate() {
        if x == 0.0 {
            xs.extend([0.0, 0.0]);
            ys.extend([lo, hi]);
            continue;
        }
        if i > 0 && v[i - 1] < 0.0 && x > 0.0 {
            xs.extend([0.0, 0.0]);
            ys.extend([lo, hi]);
        }
        xs.push(x);
        ys.push(f(x));
    }
    (xs, ys)
}

/// Time plan of a prescribed-input run.
struct Plan {
    period: f64,
    samples_per_period: usize,
    /// `(t_start, t_end)` of the recorded window.
    record: (f64, f64),
}

fn tolerances(req: &RunRequest, method: Method, period: f64) -> Tolerances {
    let (rtol, atol) = match method {
        Method::Dopri5 => (1e-10, 1e-12),
        Method::Rosenbrock23 => (1e-7, 1e-12),
        Method::Dop853 => (1e-12, 1e-14),
        Method::Radau5 => (1e-8, 1e-12),
    };
    // The step cap keeps the integrator from stepping over short features of the input. An
    // error estimate only sees the stages: for LuGre in steady sliding f ≡ 0 at every stage, so
    // a step from mid-slide to the next reversal reports zero error while skipping the Stribeck
    // region |u'| ≲ v_s that lasts ~1 % of the period (thesis Fig 1.11(a)).
    Tolerances {
        rtol: req.sim.rtol.unwrap_or(rtol),
        atol: req.sim.atol.unwrap_or(atol),
        hmax: period / 1000.0,
        ..Default::default()
    }
}

fn save_times(plan: &Plan) -> Vec<f64> {
    let (a, b) = plan.record;
    let n = (((b - a) / plan.period) * plan.samples_per_period as f64)
        .round()
        .max(1.0) as usize;
    (0..=n).map(|i| a + (b - a) * i as f64 / n as f64).collect()
}

struct Driven<'a, M: InputDriven> {
    model: &'a M,
    sig: &'a Signal,
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
}

/// Integrate a driven model over `[t0, t1]`, restarting the integrator at every input extremum
/// and switch (the right-hand sides contain `|u'|` and `sign u'`, which kink there).
#[allow(clippy::too_many_arguments)]
fn integrate<M: InputDriven>(
    sys: &Driven<M>,
    method: Method,
    tol: &Tolerances,
    t0: f64,
    x: &mut Vec<f64>,
    t1: f64,
    saveat: &[f64],
    stats: &mut Stats,
    out: &mut dyn FnMut(f64, &[f64]),
) -> Result<(), String> {
    let mut stops = Vec::new();
    sys.sig.extrema(t0, t1, &mut stops);
    stops.push(t1);
    let mut a = t0;
    let mut idx = 0;
    for &b in &stops {
        if b <= a {
            continue;
        }
        let j = idx + saveat[idx..].partition_point(|&s| s <= b);
        let o = solve(sys, method, tol, a, x, b, &saveat[idx..j], out).map_err(|e| e.to_string())?;
        *stats += o.stats;
        *x = o.x;
        idx = j;
        a = b;
    }
    Ok(())
}

fn periodic_plan(req: &RunRequest, sig: &Signal) -> (Plan, Option<(f64, usize)>) {
    let period = sig.period();
    let spp = req.sim.samples_per_period.unwrap_or(DEFAULT_SAMPLES);
    if let Some(ss) = &req.sim.steady_state {
        return (
            Plan {
                period,
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
            samples_per_period: spp,
            record: (0.0, t_end),
        },
        None,
    )
}

/// Run a prescribed-input ODE model; `record(u, du, x, out)` fills the extra columns.
fn driven<M: InputDriven>(
    req: &RunRequest,
    sig: &Signal,
    model: &M,
    mut x: Vec<f64>,
    extra: &[&str],
    record: impl Fn(f64, f64, &[f64], &mut [f64]),
) -> Result<RunData, String> {
    let method = method_of(req);
    let (mut plan, steady) = periodic_plan(req, sig);
    let tol = tolerances(req, method, plan.period);
    let sys = Driven { model, sig };
    let mut stats = Stats::default();
    let mut data = RunData {
        period: Some(plan.period),
        ..Default::default()
    };
    if let Some((stol, max)) = steady {
        let p = plan.period;
        let per = until_periodic(&mut x, stol, max, |k, x| {
            let mut v = x.to_vec();
            integrate(
                &sys,
                method,
                &tol,
                k as f64 * p,
                &mut v,
                (k + 1) as f64 * p,
                &[],
                &mut stats,
                &mut |_, _| {},
            )?;
            x.copy_from_slice(&v);
            Ok::<(), String>(())
        })?;
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
    integrate(&sys, method, &tol, a, &mut x, b, &save, &mut stats, &mut push)?;
    let mut names = vec!["t", "u"];
    names.extend_from_slice(extra);
    data.columns = names.iter().map(|s| s.to_string()).zip(cols).collect();
    data.info.insert("steps".into(), stats.accepted as f64);
    data.info.insert("rejected".into(), stats.rejected as f64);
    data.info.insert("t_start".into(), a);
    Ok(data)
}

/// Run an exact rate-independent operator on the input samples (every extremum included).
fn exact(req: &RunRequest, sig: &Signal, mut op: impl FnMut(f64) -> f64) -> Result<RunData, String> {
    let (mut plan, steady) = periodic_plan(req, sig);
    let p = plan.period;
    let mut data = RunData {
        period: Some(p),
        ..Default::default()
    };
    let mut t = Vec::new();
    let mut u = Vec::new();
    let mut v = Vec::new();
    let mut f = Vec::new();
    if let Some((stol, max)) = steady {
        let mut last = [op(sig.value(0.0))];
        let per = until_periodic(&mut last, stol, max, |k, x| {
            for s in sig
                .sample_times(k as f64 * p, (k + 1) as f64 * p, plan.samples_per_period)
                .into_iter()
                .skip(1)
            {
                x[0] = op(sig.value(s));
            }
            Ok::<(), String>(())
        })?;
        if !per.converged {
            return Err(format!("no periodic steady state after {} periods", per.periods));
        }
        data.info.insert("periods_to_steady_state".into(), per.periods as f64);
        plan.record = (per.periods as f64 * p, (per.periods + 1) as f64 * p);
    }
    let (a, b) = plan.record;
    let n = (((b - a) / p) * plan.samples_per_period as f64).round().max(1.0) as usize;
    for s in sig.sample_times(a, b, n) {
        let us = sig.value(s);
        t.push(s);
        u.push(us);
        v.push(sig.deriv(s));
        f.push(op(us));
    }
    data.columns = vec![("t".into(), t), ("u".into(), u), ("v".into(), v), ("F".into(), f)];
    data.info.insert("t_start".into(), a);
    Ok(data)
}

struct CoulombHybrid<'a> {
    m: coulomb::MassSpring,
    sig: &'a Signal,
}

impl HybridSystem for CoulombHybrid<'_> {
    type Mode = coulomb::Mode;
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, mode: Self::Mode, t: f64, x: &[f64], dx: &mut [f64]) {
        self.m.rhs(mode, self.sig.value(t), x, dx)
    }
    fn n_guards(&self, mode: Self::Mode) -> usize {
        self.m.n_guards(mode)
    }
    fn guards(&self, mode: Self::Mode, t: f64, x: &[f64], g: &mut [f64]) {
        self.m.guards(mode, self.sig.value(t), x, g)
    }
    fn jump(&self, mode: Self::Mode, guard: usize, t: f64, x: &mut [f64]) -> Self::Mode {
        self.m.jump(mode, guard, self.sig.value(t), self.sig.deriv(t), x)
    }
}

fn coulomb_mass_spring(req: &RunRequest) -> Result<RunData, String> {
    let sig = signal(&req.input);
    let m = coulomb::MassSpring {
        m: req.scalar("m"),
        k: req.scalar("k"),
        fc: req.scalar("fc"),
    };
    let (plan, steady) = periodic_plan(req, &sig);
    if steady.is_some() {
        return Err("coulomb-mass-spring runs for `periods` or `t_end`; steady_state is not supported".into());
    }
    let natural = 2.0 * PI * (m.m / m.k).sqrt();
    let tol = Tolerances {
        rtol: req.sim.rtol.unwrap_or(1e-10),
        atol: req.sim.atol.unwrap_or(1e-12),
        hmax: natural / 8.0,
        ..Default::default()
    };
    let x0 = [req.scalar("x0"), req.scalar("v0")];
    let mode0 = m.initial_mode(sig.value(0.0), &x0);
    let save = save_times(&plan);
    let h = CoulombHybrid { m, sig: &sig };
    let mut cols: [Vec<f64>; 7] = Default::default();
    let o = simulate(
        &h,
        mode0,
        Method::Dopri5,
        &tol,
        plan.record.0,
        &x0,
        plan.record.1,
        &save,
        10_000_000,
        &mut |t, mode, x| {
            let u = sig.value(t);
            cols[0].push(t);
            cols[1].push(u);
            cols[2].push(x[0]);
            cols[3].push(x[1]);
            cols[4].push(m.friction(mode, u, x));
            cols[5].push(m.applied(u, x));
            cols[6].push(match mode {
                coulomb::Mode::Stick => 0.0,
                coulomb::Mode::Slip(s) => s,
            });
        },
    )
    .map_err(|e| e.to_string())?;
    let names = ["t", "u", "x", "v", "F", "applied", "mode"];
    let mut data = RunData {
        period: Some(plan.period),
        ..Default::default()
    };
    data.columns = names.iter().map(|s| s.to_string()).zip(cols).collect();
    data.info.insert("switches".into(), o.switches.len() as f64);
    data.info.insert("steps".into(), o.stats.accepted as f64);
    data.info.insert("t_start".into(), plan.record.0);
    Ok(data)
}

/// How a spring run's columns are presented: as the mass–spring of (28) or as the drum testbed.
enum SpringView {
    MassSpring,
    /// Drum: `F_e = km i − bias`; columns renamed to i, Tm, theta, omega, Tf.
    Drum {
        km: f64,
        bias: f64,
    },
}

impl SpringView {
    fn apply(&self, mut d: RunData) -> RunData {
        let SpringView::Drum { km, bias } = *self else { return d };
        let take = |d: &mut RunData, n: &str| {
            d.columns
                .iter()
                .position(|c| c.0 == n)
                .map(|i| d.columns.remove(i).1)
                .unwrap_or_default()
        };
        let t = take(&mut d, "t");
        let fe = take(&mut d, "u");
        let (q, v, f) = (take(&mut d, "q"), take(&mut d, "v"), take(&mut d, "F"));
        let tm: Vec<f64> = fe.iter().map(|x| x + bias).collect();
        let i = tm.iter().map(|x| x / km).collect();
        d.columns = vec![
            ("t".into(), t),
            ("i".into(), i),
            ("Tm".into(), tm),
            ("theta".into(), q),
            ("omega".into(), v),
            ("Tf".into(), f),
        ];
        d
    }
}

/// Plant, external-force signal, initial `[q, v]` and the column view of a spring system.
fn spring_setup(req: &RunRequest) -> (Plant, Signal, [f64; 2], SpringView) {
    let sig = signal(&req.input);
    if req.system.starts_with("drum-") {
        // (40)–(41): I θ'' + (k1 + k2) r² θ = km i_m − T_f − (F10 − F20) r.
        let r = req.scalar("r");
        let km = req.scalar("km");
        let bias = (req.scalar("f10") - req.scalar("f20")) * r;
        let plant = Plant {
            m: req.scalar("inertia"),
            ks: (req.scalar("k1") + req.scalar("k2")) * r * r,
        };
        (
            plant,
            sig.affine(km, -bias),
            [req.scalar("theta0"), req.scalar("omega0")],
            SpringView::Drum { km, bias },
        )
    } else {
        (
            Plant {
                m: req.scalar("m"),
                ks: req.scalar("ks"),
            },
            sig,
            [req.scalar("q0"), req.scalar("v0")],
            SpringView::MassSpring,
        )
    }
}

struct SpringHybrid<'a> {
    m: &'a WithMaxwellSlip,
    sig: &'a Signal,
    /// Element deflections at the last velocity reversal.
    snapshot: RefCell<MaxwellSlipState>,
}

impl HybridSystem for SpringHybrid<'_> {
    type Mode = ();
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _: (), t: f64, x: &[f64], dx: &mut [f64]) {
        self.m.rhs(&self.snapshot.borrow(), self.sig.value(t), x, dx)
    }
    fn n_guards(&self, _: ()) -> usize {
        2
    }
    fn guards(&self, _: (), _t: f64, x: &[f64], g: &mut [f64]) {
        self.m.guards(x, g)
    }
    fn jump(&self, _: (), _guard: usize, _t: f64, x: &mut [f64]) {
        self.m.reverse(&mut self.snapshot.borrow_mut(), x);
    }
}

fn spring_maxwell_slip(req: &RunRequest, sig: &Signal, m: &WithMaxwellSlip, x0: [f64; 2]) -> Result<RunData, String> {
    let (plan, steady) = periodic_plan(req, sig);
    if steady.is_some() {
        return Err("Maxwell-slip spring runs take `periods` or `t_end`".into());
    }
    let stiffness = m.plant.ks + m.elements.k.iter().map(|k| k.abs()).sum::<f64>();
    let natural = 2.0 * PI * (m.plant.m / stiffness).sqrt();
    let tol = Tolerances {
        rtol: req.sim.rtol.unwrap_or(1e-10),
        atol: req.sim.atol.unwrap_or(1e-13),
        hmax: (natural / 8.0).min(plan.period / 1000.0),
        ..Default::default()
    };
    let h = SpringHybrid {
        m,
        sig,
        snapshot: RefCell::new(m.elements.state(x0[0], 0.0)),
    };
    let save = save_times(&plan);
    let mut cols: [Vec<f64>; 5] = Default::default();
    let o = simulate(
        &h,
        (),
        Method::Dopri5,
        &tol,
        plan.record.0,
        &x0,
        plan.record.1,
        &save,
        50_000_000,
        &mut |t, _, x| {
            cols[0].push(t);
            cols[1].push(sig.value(t));
            cols[2].push(x[0]);
            cols[3].push(x[1]);
            cols[4].push(m.friction(&h.snapshot.borrow(), x[0]));
        },
    )
    .map_err(|e| e.to_string())?;
    let mut data = RunData {
        period: Some(plan.period),
        ..Default::default()
    };
    data.columns = ["t", "u", "q", "v", "F"]
        .iter()
        .map(|s| s.to_string())
        .zip(cols)
        .collect();
    data.info.insert("reversals".into(), o.switches.len() as f64);
    data.info.insert("steps".into(), o.stats.accepted as f64);
    Ok(data)
}
