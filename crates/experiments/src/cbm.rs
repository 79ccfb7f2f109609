//! The compressed bristle model (`fric-models::cbm`) integrated with the Switch Model
//! (`fric-solvers::switch`): the switching function is the velocity, the stick band is
//! `|v| ≤ η`, and the system's own discrete state is the pair of frozen bristle windows, whose
//! entry/exit thresholds are terminal events (a bristle entering or leaving the slant is a jump
//! of the friction force, never stepped over).
//!
//! Owns only the glue: which model function is `f±`, `g`, `∇g`, the guards and the jumps.

use crate::{RunData, RunRequest};
use fric_models::cbm::{Branch as CbmBranch, Cbm, Configuration, StickSlip, Windows, VELOCITY};
use fric_solvers::hybrid::simulate;
use fric_solvers::switch::{Branch, Region, SwitchModel, Switched};
use fric_solvers::{Method, SolveError, Stats, Tolerances};

/// A CBM configuration seen as a [`Switched`] system with the frozen windows as its mode.
pub struct CbmSwitched<'a, C: Configuration> {
    pub config: &'a C,
}

fn branch(b: Branch) -> CbmBranch {
    match b {
        Branch::Plus => CbmBranch::Plus,
        Branch::Minus => CbmBranch::Minus,
    }
}

impl<C: Configuration> Switched for CbmSwitched<'_, C> {
    type Mode = Windows;
    fn dim(&self) -> usize {
        self.config.dim()
    }
    fn field(&self, b: Branch, win: Windows, t: f64, x: &[f64], dx: &mut [f64]) {
        self.config.f(branch(b), t, x, &win, dx)
    }
    fn switching(&self, _t: f64, x: &[f64]) -> f64 {
        x[VELOCITY]
    }
    fn normal(&self, _t: f64, _x: &[f64], n: &mut [f64]) {
        n.fill(0.0);
        n[VELOCITY] = 1.0;
    }
    fn n_guards(&self, _win: Windows) -> usize {
        4
    }
    fn guards(&self, win: Windows, _t: f64, x: &[f64], g: &mut [f64]) {
        g[..4].copy_from_slice(&win.events(self.config.cbm(), x[0]));
    }
    /// Cross the window whose threshold was reached, then any further one `x` is already past.
    /// The solver returns the event state on the far side of the threshold, so `settle` never
    /// crosses back.
    fn jump(&self, mut win: Windows, guard: usize, _t: f64, x: &mut [f64]) -> Windows {
        let cbm = self.config.cbm();
        win.cross(cbm, guard);
        win.settle(cbm, x[0]);
        win
    }
}

/// Settings of a CBM run: Switch Model band and time constant, method and tolerances.
#[derive(Clone, Copy, Debug)]
pub struct CbmSettings {
    pub eta: f64,
    pub tau: f64,
    pub method: Method,
    pub tol: Tolerances,
    /// Bound on the number of events (bristle passes and stick/slip changes).
    pub max_events: usize,
}

/// Samples of a CBM run at the save times.
#[derive(Clone, Debug, Default)]
pub struct CbmRun {
    pub t: Vec<f64>,
    /// The state at each save time (row-major, `dim` columns).
    pub state: Vec<Vec<f64>>,
    /// The friction force acting: `F_f±` on a branch, and in the stick band the blended force
    /// that keeps `v̇ = −v/τ`, i.e. `applied + m v/τ`.
    pub friction: Vec<f64>,
    /// 1 while the Switch Model is in its attractive (stick) case.
    pub stuck: Vec<f64>,
    /// Events: `(t, region)` of every Switch Model region change, and the number of bristle
    /// window changes.
    pub region_changes: Vec<(f64, Region)>,
    pub window_events: usize,
    pub stats: Stats,
}

/// Integrate a CBM configuration from `(0, x0)` to `t1` with the Switch Model.
pub fn run<C: Configuration>(
    config: &C,
    x0: &[f64],
    t1: f64,
    saveat: &[f64],
    s: &CbmSettings,
) -> Result<CbmRun, SolveError> {
    let sys = CbmSwitched { config };
    let sm = SwitchModel::new(&sys, s.eta, s.tau);
    let win = Windows::locate(config.cbm(), x0[0]);
    let mode0 = sm.initial_mode(win, 0.0, x0);
    let mut r = CbmRun::default();
    let m = config.cbm().m;
    let o = simulate(
        &sm,
        mode0,
        s.method,
        &s.tol,
        0.0,
        x0,
        t1,
        saveat,
        s.max_events,
        &mut |t, (region, win), x| {
            let f = match region.branch() {
                Some(b) => config.friction(branch(b), t, x, &win),
                None => config.applied(t, x) + m * x[VELOCITY] / s.tau,
            };
            r.t.push(t);
            r.state.push(x.to_vec());
            r.friction.push(f);
            r.stuck.push(if region == Region::Stick { 1.0 } else { 0.0 });
        },
    )?;
    let mut prev = mode0;
    for &(t, mode) in &o.switches {
        if mode.0 != prev.0 {
            r.region_changes.push((t, mode.0));
        }
        if mode.1 != prev.1 {
            r.window_events += 1;
        }
        prev = mode;
    }
    r.stats = o.stats;
    Ok(r)
}

/// The `cbm-stick-slip` system of the registry: samples `sim.samples_per_period` + 1 points over
/// `[0, sim.t_end]`.
pub fn stick_slip(req: &RunRequest) -> Result<RunData, String> {
    let config = StickSlip {
        cbm: Cbm {
            m: req.scalar("m"),
            w: req.scalar("w"),
            d: req.scalar("d"),
            alpha: req.scalar("alpha").to_radians(),
            spring_k: req.scalar("k_spring"),
            n_bottom: req.scalar("n"),
            k: req.scalar("k"),
            h0: req.scalar("h0"),
            delta: req.scalar("delta"),
            g: req.scalar("g"),
        },
        vp: req.scalar("vp"),
    };
    let t_end = req.sim.t_end.ok_or("cbm-stick-slip needs sim.t_end")?;
    let n = req.sim.samples_per_period.unwrap_or(20_000);
    let save: Vec<f64> = (0..=n).map(|i| t_end * i as f64 / n as f64).collect();
    let method = match req.sim.method.as_deref() {
        Some("radau5") => Method::Radau5,
        _ => Method::Dopri5,
    };
    let settings = CbmSettings {
        eta: req.scalar("eta"),
        tau: req.scalar("tau"),
        method,
        tol: Tolerances {
            rtol: req.sim.rtol.unwrap_or(1e-9),
            atol: req.sim.atol.unwrap_or(1e-11),
            ..Default::default()
        },
        max_events: 10_000_000,
    };
    let x0 = ["x0", "v0", "l0", "y0", "yd0"].map(|p| req.scalar(p));
    let r = run(&config, &x0, t_end, &save, &settings).map_err(|e| e.to_string())?;
    let col = |i: usize| r.state.iter().map(|s| s[i]).collect::<Vec<f64>>();
    let v_stuck = r
        .state
        .iter()
        .zip(&r.stuck)
        .map(|(s, &k)| if k == 1.0 { s[1].abs() } else { 0.0 })
        .collect();
    // (4.13) with sign(0) = +1 ((4.1), (4.9)), evaluated at the sampled state; inside the stick
    // band v is a creep of at most η (either sign), which counts as v = 0.
    let ff = r
        .state
        .iter()
        .map(|s| {
            let b = if s[1] < -settings.eta {
                CbmBranch::Minus
            } else {
                CbmBranch::Plus
            };
            config.cbm.friction(b, s[0], s[3])
        })
        .collect();
    let sticks = r.region_changes.iter().filter(|c| c.1 == Region::Stick).count();
    let mut data = RunData {
        columns: vec![
            ("t".to_string(), r.t.clone()),
            ("x".to_string(), col(0)),
            ("v".to_string(), col(1)),
            ("l".to_string(), col(2)),
            ("y".to_string(), col(3)),
            ("yd".to_string(), col(4)),
            ("F".to_string(), r.friction.clone()),
            ("Ff".to_string(), ff),
            ("stuck".to_string(), r.stuck.clone()),
            ("v_stuck".to_string(), v_stuck),
        ],
        ..Default::default()
    };
    data.info.insert("stick_phases".into(), sticks as f64);
    data.info.insert("window_events".into(), r.window_events as f64);
    data.info.insert("steps".into(), r.stats.accepted as f64);
    Ok(data)
}
