//! The compressed bristle model (`fric-models::cbm`) integrated with the Switch Model
//! (`fric-solvers::switch`): the switching function is the velocity, the stick band is
//! `|v| ≤ η`, and the system's own discrete state is the pair of frozen bristle windows, whose
//! entry/exit thresholds are terminal events (a bristle entering or leaving the slant is a jump
//! of the friction force, never stepped over).
//!
//! Owns only the glue: which model function is `f±`, `g`, `∇g`, the guards and the jumps.

mod energy;

pub use energy::{check_energy, powered, push_energy, Energy, EnergyRig, Powered, Works, ENERGY_COLUMNS};

use crate::invariants::{col, every_sample, Violation};
use crate::system::{params, positive};
use crate::{RunData, RunRequest};
use energy::acting;
use fric_models::cbm::{Branch as CbmBranch, Cbm, Configuration, Windows, VELOCITY};
use fric_solvers::hybrid::simulate;
use fric_solvers::switch::{Branch, Region, SwitchModel, Switched};
use fric_solvers::{Method, SolveError, Stats, Tolerances};
use std::cell::RefCell;

/// A CBM configuration seen as a [`Switched`] system with the frozen windows as its mode.
pub struct CbmSwitched<'a, C: Configuration> {
    pub config: &'a C,
    /// Switch Model band, to tell forward sliding (`v > η`) at an event.
    pub eta: f64,
    /// Jumps of `F_f+` at the located `+`-window events while sliding forward.
    pub jumps: RefCell<Jumps>,
}

/// Jumps of the friction `F_f+` at the bristle events met while sliding forward (`v > η`),
/// measured at the located event state: the friction with the window after the event minus the
/// friction with the window before it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Jumps {
    /// Number of `+`-window events while sliding forward.
    pub events: usize,
    /// Bristles that left the slant at its bottom corner in those events.
    pub exits: usize,
    /// Bristles that joined the slant at its tip in those events.
    pub entries: usize,
    /// Sum of the height `y` at the event over the bristles that joined, in m.
    pub entry_heights: f64,
    /// Sum of the height `y` at the event over the bristles that left, in m.
    pub exit_heights: f64,
    /// Sum of the jumps, in N.
    pub sum: f64,
    /// Largest drop (most negative jump), in N.
    pub max_drop: f64,
    /// Largest rise, in N.
    pub max_rise: f64,
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
    fn fields(&self, win: Windows, t: f64, x: &[f64], plus: &mut [f64], minus: &mut [f64]) {
        self.config.fields(t, x, &win, plus, minus)
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
    fn jump(&self, mut win: Windows, guard: usize, t: f64, x: &mut [f64]) -> Windows {
        let cbm = self.config.cbm();
        let before = win.plus;
        win.cross(cbm, guard);
        win.settle(cbm, x[0]);
        if guard < 2 && x[VELOCITY] > self.eta {
            let y = self.config.height(t, x);
            let df =
                cbm.friction_in(CbmBranch::Plus, win.plus, x[0], y) - cbm.friction_in(CbmBranch::Plus, before, x[0], y);
            let mut j = self.jumps.borrow_mut();
            let exits = (win.plus.first - before.first).max(0) as usize;
            let entries = (win.plus.last - before.last).max(0) as usize;
            j.events += 1;
            j.exits += exits;
            j.entries += entries;
            j.exit_heights += exits as f64 * y;
            j.entry_heights += entries as f64 * y;
            j.sum += df;
            j.max_drop = j.max_drop.min(df);
            j.max_rise = j.max_rise.max(df);
        }
        win
    }
}

/// Invariant of every CBM run with a friction column: on each sliding sample (not stuck,
/// `|v| > η`) the friction acting is the bristle friction (4.10)/(4.12) of the slanted window
/// (4.7)/(4.8) located at the sample's `(x, y)` on the branch of `v`: the frozen window the
/// integration carried is the geometric one, and its force is the linear force law
/// `±k cos α Σ (h0 − h_i)`. At a window threshold either one-sided limit (`x ± 10⁻⁹ Δ`) counts.
///
/// What it does not state: that the bristles are compressed. The published law has no contact
/// condition (no clipping, catalog M1(c)), so a bristle longer than `h0` pulls; that is the
/// model as written, flagged by the checks of the figures it reaches (thesis Fig 4.4's bound
/// y ≤ h0 − w/2, a known discrepancy; [`fric_models::cbm::Cbm::stretched_contact`]), not a
/// defect of a run.
pub fn check_window(cbm: &Cbm, eta: f64, d: &RunData) -> Result<(), Violation> {
    let (t, x, v, y, f, stuck) = (
        col(d, "t")?,
        col(d, "x")?,
        col(d, "v")?,
        col(d, "y")?,
        col(d, "F")?,
        col(d, "stuck")?,
    );
    let e = 1e-9 * cbm.delta;
    every_sample(t, |i| {
        if stuck[i] == 1.0 || v[i].abs() <= eta {
            return None;
        }
        let b = if v[i] > 0.0 { CbmBranch::Plus } else { CbmBranch::Minus };
        let near = |g: f64, rel: f64| (f[i] - g).abs() <= 1e-12 + rel * g.abs();
        let a = cbm.friction(b, x[i], y[i]);
        if near(a, 1e-9) {
            return None;
        }
        let (l, r) = (cbm.friction(b, x[i] - e, y[i]), cbm.friction(b, x[i] + e, y[i]));
        (!near(l, 1e-6) && !near(r, 1e-6)).then(|| {
            format!(
                "x = {:e} m, y = {:e} m, v = {:e} m/s: the friction acting is {:e} N but the slanted window there gives {a:e} N",
                x[i], y[i], v[i], f[i]
            )
        })
    })
}

/// A CBM run's `(rtol, atol)`: the request's, else 1e-9 and 1e-11.
pub fn tolerance(req: &RunRequest) -> (f64, f64) {
    (req.sim.rtol.unwrap_or(1e-9), req.sim.atol.unwrap_or(1e-11))
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

impl CbmSettings {
    /// The settings of thesis ch. IV's manifests with `method`: band η = 1e-6 m/s (L1659),
    /// τ = 1e-3 s (the manifests' assumption), rtol 1e-9, atol 1e-11, at most 10⁶ events. The
    /// one fixture of the CBM tests: a test that needs other settings changes these fields
    /// (`CbmSettings { tau, ..CbmSettings::thesis_ch4(Method::Dopri5) }`).
    pub fn thesis_ch4(method: Method) -> CbmSettings {
        CbmSettings {
            eta: 1e-6,
            tau: 1e-3,
            method,
            tol: Tolerances {
                rtol: 1e-9,
                atol: 1e-11,
                ..Default::default()
            },
            max_events: 1_000_000,
        }
    }
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
    /// Friction jumps at the bristle events while sliding forward.
    pub jumps: Jumps,
    /// Input work `W_in` and friction work `W_f` from the start, and the stored energy
    /// ([`Energy`], `crate::energy_balance`), at each save time.
    pub w_in: Vec<f64>,
    pub w_f: Vec<f64>,
    pub stored: Vec<f64>,
    pub stats: Stats,
}

impl CbmRun {
    /// The columns `t, x, v, l, y, yd, F, stuck` of a spring-pulled run with the vertical motion
    /// (state `[x, v, l, y, ẏ]`): `cbm-stick-slip`'s (which adds `Ff` and `v_stuck`) and those of
    /// `cbm-mean-height`'s inner runs, checked as that system's.
    pub fn pulled_columns(&self) -> Vec<(String, Vec<f64>)> {
        let col = |i: usize| self.state.iter().map(|s| s[i]).collect::<Vec<f64>>();
        vec![
            ("t".to_string(), self.t.clone()),
            ("x".to_string(), col(0)),
            ("v".to_string(), col(1)),
            ("l".to_string(), col(2)),
            ("y".to_string(), col(3)),
            ("yd".to_string(), col(4)),
            ("F".to_string(), self.friction.clone()),
            ("stuck".to_string(), self.stuck.clone()),
        ]
    }
}

/// Integrate a CBM configuration from `(0, x0)` to `t1` with the Switch Model.
pub fn run<C: Energy>(config: &C, x0: &[f64], t1: f64, saveat: &[f64], s: &CbmSettings) -> Result<CbmRun, SolveError> {
    run_reporting(config, x0, t1, saveat, s, 1.0)
}

/// [`run`] with the friction work integrated from `report ×` the friction acting ([`Powered`]).
fn run_reporting<C: Energy>(
    config: &C,
    x0: &[f64],
    t1: f64,
    saveat: &[f64],
    s: &CbmSettings,
    report: f64,
) -> Result<CbmRun, SolveError> {
    let sys = CbmSwitched {
        config,
        eta: s.eta,
        jumps: RefCell::new(Jumps::default()),
    };
    let sm = SwitchModel::new(&sys, s.eta, s.tau);
    let win = Windows::locate(config.cbm(), x0[0]);
    let mode0 = sm.initial_mode(win, 0.0, x0);
    let powered = Powered::new(
        sm,
        Works {
            config,
            tau: s.tau,
            report,
        },
    );
    let n = x0.len();
    let mut r = CbmRun::default();
    let o = simulate(
        &powered,
        mode0,
        s.method,
        &s.tol,
        0.0,
        x0,
        t1,
        saveat,
        s.max_events,
        &mut |t, mode, xq| {
            let x = &xq[..n];
            r.t.push(t);
            r.state.push(x.to_vec());
            r.friction.push(acting(config, mode, t, x, s.tau));
            r.stuck.push(if mode.0 == Region::Stick { 1.0 } else { 0.0 });
            r.w_in.push(xq[n]);
            r.w_f.push(xq[n + 1]);
            r.stored.push(config.stored(x));
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
    r.jumps = *sys.jumps.borrow();
    Ok(r)
}

params! {
    /// Body, bristles and spring of a CBM configuration (L1432–L1443; `K` at L1523, L1556).
    pub struct CbmBody {
        m: f64 = positive("kg", "body mass"),
        w: f64 = positive("m", "body thickness"),
        d: f64 = positive("m", "body length"),
        alpha: f64 = positive("deg", "slant angle from the vertical"),
        k_spring: f64 = positive("N/m", "spring stiffness K"),
        k: f64 = positive("N/m", "bristle stiffness"),
        h0: f64 = positive("m", "relaxed bristle length"),
        delta: f64 = positive("m", "bristle spacing (bases at i delta)"),
    }
}

params! {
    /// The vertical degree of freedom (4.17), (4.21): flat-bottom bristle count and gravity.
    pub struct CbmVertical {
        n: f64 = positive("1", "number N of bristles under the flat bottom (4.17)"),
        g: f64 = positive("m/s^2", "gravity"),
    }
}

params! {
    /// The Switch Model's stick band and time constant (4.33)–(4.43).
    pub struct SwitchBand {
        eta: f64 = positive("m/s", "Switch Model stick band |v| <= eta"),
        tau: f64 = positive("s", "Switch Model time constant (g' = -g/tau in the band)"),
    }
}

impl CbmBody {
    /// The model; `vertical` `None` (prescribed height) leaves `N = g = 0` (unused).
    pub fn cbm(&self, vertical: Option<&CbmVertical>) -> Cbm {
        Cbm {
            m: self.m,
            w: self.w,
            d: self.d,
            alpha: self.alpha.to_radians(),
            spring_k: self.k_spring,
            n_bottom: vertical.map_or(0.0, |v| v.n),
            k: self.k,
            h0: self.h0,
            delta: self.delta,
            g: vertical.map_or(0.0, |v| v.g),
        }
    }
}

impl SwitchBand {
    /// Run settings: Dormand–Prince (or Radau IIA by `sim.method`), rtol 1e-9, atol 1e-11 unless
    /// the manifest says otherwise.
    pub fn settings(&self, req: &RunRequest) -> Result<CbmSettings, String> {
        let (rtol, atol) = tolerance(req);
        Ok(CbmSettings {
            eta: self.eta,
            tau: self.tau,
            method: crate::drive::method_of(req)?,
            tol: Tolerances {
                rtol,
                atol,
                ..Default::default()
            },
            max_events: 10_000_000,
        })
    }
}

/// The common columns of a CBM run: `t`, the state (named by `names`), `F` (acting), `Ff`
/// ((4.13) at the sampled state, branch `+` for `v ≥ −η`), `stuck`, `v_stuck`; diagnostics
/// `stick_phases`, `window_events`, `steps`, `stuck_fraction`.
pub fn columns<C: Configuration>(config: &C, r: &CbmRun, eta: f64, names: &[&str]) -> RunData {
    let col = |i: usize| r.state.iter().map(|s| s[i]).collect::<Vec<f64>>();
    let mut columns = vec![("t".to_string(), r.t.clone())];
    for (i, n) in names.iter().enumerate() {
        columns.push((n.to_string(), col(i)));
    }
    let ff =
        r.t.iter()
            .zip(&r.state)
            .map(|(&t, s)| {
                let b = if s[VELOCITY] < -eta {
                    CbmBranch::Minus
                } else {
                    CbmBranch::Plus
                };
                config.cbm().friction(b, s[0], config.height(t, s))
            })
            .collect();
    let v_stuck = r
        .state
        .iter()
        .zip(&r.stuck)
        .map(|(s, &k)| if k == 1.0 { s[VELOCITY].abs() } else { 0.0 })
        .collect();
    columns.push(("F".to_string(), r.friction.clone()));
    columns.push(("Ff".to_string(), ff));
    columns.push(("stuck".to_string(), r.stuck.clone()));
    columns.push(("v_stuck".to_string(), v_stuck));
    let sticks = r.region_changes.iter().filter(|c| c.1 == Region::Stick).count();
    let frac = r.stuck.iter().sum::<f64>() / r.stuck.len().max(1) as f64;
    RunData {
        columns,
        ..Default::default()
    }
    .with_info(&[
        ("stick_phases", sticks as f64),
        ("window_events", r.window_events as f64),
        ("steps", r.stats.accepted as f64),
        ("stuck_fraction", frac),
        ("n_from_delta", config.cbm().n_from_delta()),
        ("forward_events", r.jumps.events as f64),
        ("forward_exits", r.jumps.exits as f64),
        (
            "jump_per_bristle",
            if r.jumps.exits > 0 {
                r.jumps.sum / r.jumps.exits as f64
            } else {
                f64::NAN
            },
        ),
        (
            "jump_per_bristle_heights",
            jump_at_event_heights(config.cbm(), &r.jumps),
        ),
        (
            "jump_height_shift",
            r.jumps.exit_heights / r.jumps.exits as f64 - r.jumps.entry_heights / r.jumps.entries as f64,
        ),
        ("jump_max_drop", r.jumps.max_drop),
        ("jump_max_rise", r.jumps.max_rise),
    ])
}

/// The sum of the `F_f+` jumps per bristle passed that the derivation of catalog M1(b) gives at
/// the heights the events happened at: a bristle joining at the tip adds `k cos α (h0 − y − w/2)`,
/// one leaving at the bottom corner removes `k cos α (h0 − y + w/2)`, summed over the recorded
/// entries and exits and divided by the exits (`NaN` without one). Compared with the jumps the
/// force law gives (`jump_per_bristle`), it tests that law at the window edges; with equal mean
/// heights at entry and exit it is `−k cos α w`.
pub fn jump_at_event_heights(cbm: &fric_models::cbm::Cbm, j: &Jumps) -> f64 {
    if j.exits == 0 {
        return f64::NAN;
    }
    let (en, ex) = (j.entries as f64, j.exits as f64);
    let rise = (cbm.h0 - 0.5 * cbm.w) * en - j.entry_heights;
    let drop = (cbm.h0 + 0.5 * cbm.w) * ex - j.exit_heights;
    cbm.k * cbm.alpha.cos() * (rise - drop) / ex
}

/// The angular frequency of an oscillating signal over the second half of the record:
/// `2π (c − 1)/(t_c − t_1)` from its `c` upward crossings of its mean there (derived; linear
/// interpolation of each crossing). `NaN` with fewer than two crossings.
pub fn dominant_omega(t: &[f64], y: &[f64]) -> f64 {
    let half = t.len() / 2;
    let (t, y) = (&t[half..], &y[half..]);
    let mean = y.iter().sum::<f64>() / y.len().max(1) as f64;
    let mut first = None;
    let mut last = 0.0;
    let mut count = 0usize;
    for i in 1..y.len() {
        let (a, b) = (y[i - 1] - mean, y[i] - mean);
        if a < 0.0 && b >= 0.0 {
            let tc = t[i - 1] + (t[i] - t[i - 1]) * (-a) / (b - a);
            first.get_or_insert(tc);
            last = tc;
            count += 1;
        }
    }
    match first {
        Some(t1) if count >= 2 => 2.0 * std::f64::consts::PI * (count - 1) as f64 / (last - t1),
        _ => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fric_models::cbm::{ForceDriven, StickSlip};

    /// Thesis Fig 4.4's run over its first 20 s (stick–slip with the bristle windows moving):
    /// the contact-window invariant holds, and fails on the sample where the friction reported
    /// is that of the window one bristle behind (a stale frozen window).
    #[test]
    fn contact_window_holds_and_catches_a_stale_window() {
        let cbm = Cbm::fig_4_4();
        let config = StickSlip { cbm, vp: 0.1 };
        let s = CbmSettings::thesis_ch4(Method::Dopri5);
        let save: Vec<f64> = (0..=4000).map(|i| i as f64 * 0.005).collect();
        let r = run(&config, &[0.0, 0.0, 0.0, 0.0, 0.0], 20.0, &save, &s).unwrap();
        assert!(r.window_events > 100, "{}", r.window_events);
        let mut d = columns(&config, &r, s.eta, &["x", "v", "l", "y", "yd"]);
        check_window(&cbm, s.eta, &d).unwrap();
        let (x, v, y) = (
            d.column("x").unwrap().to_vec(),
            d.column("v").unwrap().to_vec(),
            d.column("y").unwrap().to_vec(),
        );
        let i = (0..r.t.len()).find(|&i| v[i] > 0.01 && r.stuck[i] == 0.0).unwrap();
        let win = cbm.window(CbmBranch::Plus, x[i]);
        let behind = fric_models::cbm::Window {
            first: win.first - 1,
            last: win.last - 1,
        };
        let f = &mut d.columns.iter_mut().find(|c| c.0 == "F").unwrap().1;
        f[i] = cbm.friction_in(CbmBranch::Plus, behind, x[i], y[i]);
        let e = check_window(&cbm, s.eta, &d).unwrap_err();
        assert_eq!((e.t, e.count), (r.t[i], 1), "{e}");
    }

    /// The energy balance on thesis Fig 4.4's pulled rig (20 s of stick–slip over its bristles)
    /// and on a force-driven body over the same bristles (u = 1.5 sin 0.5t N), both with
    /// Dormand–Prince and Radau IIA, holds within the derived bound, and fails when the friction
    /// work is integrated from a force 0.1 % off the one acting; the quadrature leaves the
    /// integration alone (same steps, same states).
    #[test]
    fn energy_balance_holds_and_catches_a_misreported_force() {
        let cbm = Cbm::fig_4_4();
        let pulled = StickSlip { cbm, vp: 0.1 };
        let driven = ForceDriven {
            cbm,
            input: fric_models::signal::Sine {
                amplitude: 1.5,
                omega: 0.5,
                phase: 0.0,
                offset: 0.0,
            },
        };
        let save: Vec<f64> = (0..=4000).map(|i| i as f64 * 0.005).collect();
        for method in [Method::Dopri5, Method::Radau5] {
            let s = CbmSettings::thesis_ch4(method);
            let check = |d: &RunData, vp: Option<f64>| {
                let rig = EnergyRig { vp, y_state: true };
                check_energy(&cbm, s.eta, s.tau, &rig, (1e-9, 1e-11), d)
            };
            // Pulled.
            let x0 = [0.0, 0.0, 0.0, 0.0, 0.0];
            let data = |r: &CbmRun| {
                let mut d = columns(&pulled, r, s.eta, &["x", "v", "l", "y", "yd"]);
                push_energy(&mut d, r);
                d
            };
            let r = run(&pulled, &x0, 20.0, &save, &s).unwrap();
            assert!(r.window_events > 100 && !r.region_changes.is_empty(), "{method:?}");
            check(&data(&r), Some(0.1)).unwrap_or_else(|e| panic!("{method:?} pulled: {e}"));
            let broken = run_reporting(&pulled, &x0, 20.0, &save, &s, 1.001).unwrap();
            assert_eq!((broken.stats, &broken.state), (r.stats, &r.state), "{method:?}");
            let e = check(&data(&broken), Some(0.1)).unwrap_err();
            assert!(e.message.contains("friction work"), "{method:?}: {e}");
            // Force-driven.
            let x0 = [0.0, 0.0, 0.0, 0.0];
            let data = |r: &CbmRun| {
                let mut d = columns(&driven, r, s.eta, &["x", "v", "y", "yd"]);
                d.columns
                    .push(("u".into(), r.t.iter().map(|&t| driven.input.value(t)).collect()));
                push_energy(&mut d, r);
                d
            };
            let r = run(&driven, &x0, 20.0, &save, &s).unwrap();
            assert!(r.window_events > 10, "{method:?}: {} events", r.window_events);
            check(&data(&r), None).unwrap_or_else(|e| panic!("{method:?} driven: {e}"));
            let broken = run_reporting(&driven, &x0, 20.0, &save, &s, 1.001).unwrap();
            let e = check(&data(&broken), None).unwrap_err();
            assert!(e.message.contains("friction work"), "{method:?}: {e}");
        }
    }

    #[test]
    fn dominant_omega_of_a_sine() {
        let t: Vec<f64> = (0..20001).map(|i| i as f64 * 0.005).collect();
        let y: Vec<f64> = t.iter().map(|&t| 0.3 + 1.2 * (2.28 * t + 0.4).sin()).collect();
        let w = dominant_omega(&t, &y);
        assert!((w - 2.28).abs() < 1e-4, "{w}");
    }
}
