//! `rbm-stick-slip-table`: `rbm-stick-slip`'s rig ((3.10)–(3.12), thesis Fig 3.5) with the
//! contact sets read literally from Tables 3.1 and 3.2 (`fric_models::rbm::TableReading`) instead
//! of the geometric state machine, also after the short reversals the table does not describe
//! (it assumes each reversal is followed by at least `d + d0` of travel). The two agree on
//! isolated reversals; after a short one the table's row (a)-(1) puts the full left window on
//! the left corner.
//!
//! Events, each located by the hybrid integrator (Dormand–Prince between them): the body
//! reaching a threshold of the table's sets ([`TableReading::next_thresholds`]; the jump moves it
//! [`NUDGE`] past, as `rbm-stick-slip` does), and the velocity changing sign, where the other
//! half of Table 3.1 takes over with its memory `x_{r∓}` set at the reversal's position (the jump
//! sets `v` to `±1e-12` m/s on the new side, changing `½ m v²` by 1e-24 J). A reversal that the new
//! half-table's force turns back at once (a stick, for which the tables have no row) is an error.

use super::rbm_stick_slip::{columns, row, tolerances, works, Params, RbmStickSlip, NUDGE};
use crate::spring::pulled_rhs;
use crate::system::{Column, System, NONE};
use crate::{Invalid, RunData, RunRequest};
use fric_models::rbm::TableReading;
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{Method, Tolerances};
use std::cell::{Cell, RefCell};

pub struct RbmStickSlipTable;

/// How far a reversal's jump sets `v` onto the new direction's side, m/s.
const V_NUDGE: f64 = 1e-12;

/// Reversals closer together than this (in s) count as one stick ([`Rig::reversal`]).
const STICK_GAP: f64 = 1e-9;

/// (3.10)–(3.12) with the table's sets frozen between events; the mode counts the events.
struct Rig {
    table: RefCell<TableReading>,
    m: f64,
    k: f64,
    vp: f64,
    /// The last reversal's time and how many reversals came within [`STICK_GAP`] of each other.
    last_reversal: Cell<(f64, usize)>,
    /// Reversals so far.
    reversals: Cell<usize>,
}

impl Rig {
    /// Book a reversal at `t`; false once 20 came each within `STICK_GAP` of the last.
    fn reversal(&self, t: f64) -> bool {
        self.reversals.set(self.reversals.get() + 1);
        let (t0, n) = self.last_reversal.get();
        let n = if t - t0 < STICK_GAP { n + 1 } else { 0 };
        self.last_reversal.set((t, n));
        n < 20
    }
}

impl HybridSystem for Rig {
    type Mode = u64;
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _: u64, _: f64, s: &[f64], ds: &mut [f64]) {
        pulled_rhs(self.k, self.m, self.vp, self.table.borrow().friction_at(s[0]), s, ds);
    }
    fn n_guards(&self, _: u64) -> usize {
        3
    }
    fn guards(&self, _: u64, _: f64, s: &[f64], g: &mut [f64]) {
        let t = self.table.borrow();
        let (below, above) = t.next_thresholds();
        g[0] = s[0] - above;
        g[1] = below - s[0];
        // `v ≥ 0` reads the `+` rows (L884): moving right, the guard rises when v turns negative.
        g[2] = if t.right { -s[1] } else { s[1] };
    }
    fn jump(&self, mode: u64, guard: usize, t: f64, s: &mut [f64]) -> u64 {
        let mut table = self.table.borrow_mut();
        if guard == 2 {
            table.reverse(s[0]);
            s[1] = if table.right { V_NUDGE } else { -V_NUDGE };
            if !self.reversal(t) {
                // Stop here: the run reports it ([`run`]).
                s[1] = f64::NAN;
            }
        } else {
            let (below, above) = table.next_thresholds();
            s[0] = if guard == 0 { above + NUDGE } else { below - NUDGE };
            table.advance(s[0]);
        }
        mode + 1
    }
    fn n_quadratures(&self) -> usize {
        2
    }
    /// The energy balance's works, as `rbm-stick-slip`'s: `W_in = ∫ K l v_p dt`, `W_f = ∫ F v dt`.
    fn integrands(&self, _: u64, _: f64, s: &[f64], q: &mut [f64]) {
        works(self.k, self.vp, 1.0, self.table.borrow().friction_at(s[0]), s, q);
    }
}

impl System for RbmStickSlipTable {
    const NAME: &'static str = "rbm-stick-slip-table";
    const DOC: &'static str = "rbm-stick-slip's rig with the contact sets of Tables 3.1-3.2 (L884-L896, L910-L913) read literally, also after reversals shorter than the d + d0 of travel the table assumes (after a - to + reversal row (a)-(1) loads the full left window whatever the travel since the previous reversal); the memory x_r- / x_r+ set at each located reversal (v = 0), every threshold of the sets a located event (Dormand-Prince between events). Initial bristles as Table 3.2 for a first motion to the right.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = <RbmStickSlip as System>::COLUMNS;
    const METHODS: crate::methods::Methods = &[&crate::methods::DOPRI5];
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = <RbmStickSlip as System>::INVARIANTS;

    fn check(p: &Params, req: &RunRequest, errs: &mut Vec<Invalid>) {
        <RbmStickSlip as System>::check(p, req, errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        let rig = Rig {
            table: RefCell::new(TableReading::new(p.row.bristles(), p.x0, true)),
            m: p.spring.m,
            k: p.spring.k_spring,
            vp: p.spring.vp,
            last_reversal: Cell::new((f64::NEG_INFINITY, 0)),
            reversals: Cell::new(0),
        };
        let (rtol, atol) = tolerances(req);
        let tol = Tolerances {
            rtol,
            atol,
            ..Default::default()
        };
        let mut rows: Vec<[f64; 9]> = Vec::with_capacity(save.len());
        let (m, k) = (p.spring.m, p.spring.k_spring);
        let mut out = |t: f64, _: u64, s: &[f64]| rows.push(row(m, k, t, s, rig.table.borrow().friction_at(s[0])));
        let r = simulate(&rig, 0, Method::Dopri5, &tol, 0.0, &[p.x0, p.v0, p.l0], t_end, &save, 50_000_000, &mut out);
        if rig.last_reversal.get().1 >= 20 {
            return Err(format!(
                "the body sticks at t = {} s: the direction reverses 20 times within {STICK_GAP} s (the tables have no row for sticking)",
                rig.last_reversal.get().0
            ));
        }
        let r = r.map_err(|e| e.to_string())?;
        let mut data = RunData {
            columns: columns(&rows),
            period: None,
            ..Default::default()
        };
        data.info.insert("state_events".into(), r.switches.len() as f64);
        data.info.insert("steps".into(), r.stats.accepted as f64);
        data.info.insert("d0".into(), p.row.bristles().d0());
        data.info.insert("reversals".into(), rig.reversals.get() as f64);
        Ok(data)
    }
}
