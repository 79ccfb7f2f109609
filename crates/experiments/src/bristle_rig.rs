//! The pulled rig over the rotating bristles, thesis (3.10)–(3.12) on the state `[x, v, l]`
//! with the contact sets frozen between the body's thresholds, one hybrid system generic over
//! where its contact sets come from ([`ContactSets`]): the geometric state machine
//! (`rbm-stick-slip`) or Tables 3.1–3.2 read literally (`rbm-stick-slip-table`). Each threshold
//! is a located event whose jump moves the body [`NUDGE`] past it; the energy balance's works
//! are its quadrature outputs, and the observer's rows give both systems' columns.

use crate::spring::{pulled_rhs, PulledSpring};
use crate::{RunData, RunRequest};
use fric_solvers::hybrid::{simulate, HybridOutcome, HybridSystem};
use fric_solvers::{Method, Tolerances};
use std::cell::RefCell;

/// How far past a threshold a jump places the body, so that the contact sets see the crossing
/// and the new guard starts on its negative side: 1e-12 m, far below every length of the model.
pub const NUDGE: f64 = 1e-12;

/// Where a [`Rig`]'s friction comes from: contact sets frozen while the body stays between two
/// thresholds, and guards of the source's own (none by default) after the thresholds' two.
pub trait ContactSets {
    /// The corners' forces `(F_l, F_r)` with the body at `x` and the sets frozen.
    fn friction_at(&self, x: f64) -> (f64, f64);
    /// `(below, above)`: the thresholds around the body between which the sets are frozen.
    fn thresholds(&self) -> (f64, f64);
    /// The body moved to `x`, just past a threshold: the sets there.
    fn advance(&mut self, x: f64);
    /// How many guards of its own the source adds.
    fn n_own_guards(&self) -> usize {
        0
    }
    /// Their values on the state `s = [x, v, l]`.
    fn own_guards(&self, _s: &[f64], _g: &mut [f64]) {}
    /// Own guard `guard` (counted from 0) fired at `(t, s)`; may reset `s`.
    fn own_jump(&mut self, _guard: usize, _t: f64, _s: &mut [f64]) {}
}

/// (3.10)–(3.12) with the contact sets of `sets` frozen between events; the mode counts the
/// events. Quadrature outputs: `W_in = ∫ K l v_p dt` and `W_f = ∫ report · F v dt` with `F` the
/// friction of the frozen sets (`report` = 1 in production; another value only in the test that
/// the energy balance catches a misreported force).
pub struct Rig<C> {
    pub sets: RefCell<C>,
    m: f64,
    k: f64,
    vp: f64,
    report: f64,
}

impl<C: ContactSets> Rig<C> {
    pub fn new(spring: &PulledSpring, sets: C, report: f64) -> Self {
        Rig {
            sets: RefCell::new(sets),
            m: spring.m,
            k: spring.k_spring,
            vp: spring.vp,
            report,
        }
    }

    /// Simulate from `s0 = [x, v, l]` at 0 to `t_end` (Dormand–Prince between events, the
    /// run's [`tolerances`]): the observer's rows at `save` ([`columns`]) and the outcome.
    #[allow(clippy::type_complexity)]
    pub fn simulate(
        &self,
        req: &RunRequest,
        s0: [f64; 3],
        t_end: f64,
        save: &[f64],
    ) -> (Vec<[f64; 9]>, Result<HybridOutcome<u64>, String>) {
        let (rtol, atol) = tolerances(req);
        let tol = Tolerances {
            rtol,
            atol,
            ..Default::default()
        };
        let mut rows: Vec<[f64; 9]> = Vec::with_capacity(save.len());
        let (m, k) = (self.m, self.k);
        // The observer runs between events, when the frozen sets are those of the sample.
        let mut out = |t: f64, _: u64, s: &[f64]| rows.push(row(m, k, t, s, self.sets.borrow().friction_at(s[0])));
        let r = simulate(
            self,
            0,
            Method::Dopri5,
            &tol,
            0.0,
            &s0,
            t_end,
            save,
            50_000_000,
            &mut out,
        );
        (rows, r.map_err(|e| e.to_string()))
    }
}

impl<C: ContactSets> HybridSystem for Rig<C> {
    type Mode = u64;
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _: u64, _: f64, s: &[f64], ds: &mut [f64]) {
        pulled_rhs(self.k, self.m, self.vp, self.sets.borrow().friction_at(s[0]), s, ds);
    }
    fn n_guards(&self, _: u64) -> usize {
        2 + self.sets.borrow().n_own_guards()
    }
    fn guards(&self, _: u64, _: f64, s: &[f64], g: &mut [f64]) {
        let sets = self.sets.borrow();
        let (below, above) = sets.thresholds();
        g[0] = s[0] - above;
        g[1] = below - s[0];
        sets.own_guards(s, &mut g[2..]);
    }
    fn jump(&self, mode: u64, guard: usize, t: f64, s: &mut [f64]) -> u64 {
        let mut sets = self.sets.borrow_mut();
        if guard < 2 {
            let (below, above) = sets.thresholds();
            s[0] = if guard == 0 { above + NUDGE } else { below - NUDGE };
            sets.advance(s[0]);
        } else {
            sets.own_jump(guard - 2, t, s);
        }
        mode + 1
    }
    fn n_quadratures(&self) -> usize {
        2
    }
    fn integrands(&self, _: u64, _: f64, s: &[f64], q: &mut [f64]) {
        let (fl, fr) = self.sets.borrow().friction_at(s[0]);
        q[0] = self.k * s[2] * self.vp;
        q[1] = self.report * (fl + fr) * s[1];
    }
}

/// rtol 1e-10, atol 1e-12 unless the run sets them.
pub fn tolerances(req: &RunRequest) -> (f64, f64) {
    (req.sim.rtol.unwrap_or(1e-10), req.sim.atol.unwrap_or(1e-12))
}

/// The run's data: the columns of the observer's rows, the events, steps and `d0`.
pub fn data(rows: &[[f64; 9]], r: &HybridOutcome<u64>, d0: f64) -> RunData {
    let mut data = RunData {
        columns: columns(rows),
        period: None,
        ..Default::default()
    };
    data.info.insert("state_events".into(), r.switches.len() as f64);
    data.info.insert("steps".into(), r.stats.accepted as f64);
    data.info.insert("d0".into(), d0);
    data
}

/// The observer's row `[t, x, v, l, F_l, F_r, W_in, W_f, E]` at the state `s = [x, v, l, W_in,
/// W_f]` with the friction's corner forces `(fl, fr)`.
fn row(m: f64, k: f64, t: f64, s: &[f64], (fl, fr): (f64, f64)) -> [f64; 9] {
    let e = 0.5 * m * s[1] * s[1] + 0.5 * k * s[2] * s[2];
    [t, s[0], s[1], s[2], fl, fr, s[3], s[4], e]
}

/// The columns `t, x, v, l, F, Fl, Fr, W_in, W_f, E` (`rbm-stick-slip`'s) from the observer's
/// rows `[t, x, v, l, F_l, F_r, W_in, W_f, E]`.
fn columns(rows: &[[f64; 9]]) -> Vec<(String, Vec<f64>)> {
    let col = |j: usize| rows.iter().map(|r| r[j]).collect::<Vec<f64>>();
    let f: Vec<f64> = rows.iter().map(|r| r[4] + r[5]).collect();
    vec![
        ("t".into(), col(0)),
        ("x".into(), col(1)),
        ("v".into(), col(2)),
        ("l".into(), col(3)),
        ("F".into(), f),
        ("Fl".into(), col(4)),
        ("Fr".into(), col(5)),
        ("W_in".into(), col(6)),
        ("W_f".into(), col(7)),
        ("E".into(), col(8)),
    ]
}
