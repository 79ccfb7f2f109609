//! The compressed bristle model (`fric-models::cbm`) integrated with the Switch Model
//! (`fric-solvers::switch`): the switching function is the velocity, the stick band is
//! `|v| ≤ η`, and the system's own discrete state is the pair of frozen bristle windows, whose
//! entry/exit thresholds are terminal events (a bristle entering or leaving the slant is a jump
//! of the friction force, never stepped over).
//!
//! Owns only the glue: which model function is `f±`, `g`, `∇g`, the guards and the jumps.

use fric_models::cbm::{Branch as CbmBranch, Configuration, Windows, VELOCITY};
use fric_solvers::hybrid::simulate;
use fric_solvers::switch::{Branch, Region, SwitchModel, Switched};
use fric_solvers::{Method, SolveError, Stats, Tolerances};

/// A CBM configuration seen as a [`Switched`] system with the frozen windows as its mode.
pub struct CbmSwitched<'a, C: Configuration> {
    pub config: &'a C,
}

/// The model's branch for a Switch Model branch.
pub fn branch(b: Branch) -> CbmBranch {
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
