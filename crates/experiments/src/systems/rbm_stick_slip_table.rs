//! `rbm-stick-slip-table`: `rbm-stick-slip`'s rig ((3.10)–(3.12), thesis Fig 3.5) with the
//! contact sets read literally from Tables 3.1 and 3.2 (`fric_models::rbm::TableReading`) instead
//! of the geometric state machine, also after the short reversals the table does not describe
//! (it assumes each reversal is followed by at least `d + d0` of travel). The two agree on
//! isolated reversals; after a short one the table's row (a)-(1) puts the full left window on
//! the left corner.
//!
//! The rig is `rbm-stick-slip`'s ([`crate::bristle_rig::Rig`]) with the table's sets as its
//! [`ContactSets`]. Events, each located by the hybrid integrator (Dormand–Prince between them):
//! the body reaching a threshold of the table's sets ([`TableReading::next_thresholds`]; the jump
//! moves it [`crate::bristle_rig::NUDGE`] past, as `rbm-stick-slip` does), and the velocity
//! changing sign (the sets' own guard), where the other half of Table 3.1 takes over with its
//! memory `x_{r∓}` set at the reversal's position (the jump sets `v` to `±1e-12` m/s on the new
//! side, changing `½ m v²` by 1e-24 J). A reversal that the new half-table's force turns back at
//! once (a stick, for which the tables have no row) is an error.

use super::rbm_stick_slip::{Params, RbmStickSlip};
use crate::bristle_rig::{data, ContactSets, Rig};
use crate::system::{Column, System, NONE};
use crate::{Invalid, RunData, RunRequest};
use fric_models::rbm::TableReading;

pub struct RbmStickSlipTable;

/// How far a reversal's jump sets `v` onto the new direction's side, m/s.
const V_NUDGE: f64 = 1e-12;

/// Reversals closer together than this (in s) count as one stick ([`Literal::reversal`]).
const STICK_GAP: f64 = 1e-9;

/// The table's contact sets, with the velocity's sign a guard of their own (the reversal).
struct Literal {
    table: TableReading,
    /// The last reversal's time and how many reversals came within [`STICK_GAP`] of each other.
    last_reversal: (f64, usize),
    /// Reversals so far.
    reversals: usize,
}

impl Literal {
    /// Book a reversal at `t`; false once 20 came each within `STICK_GAP` of the last.
    fn reversal(&mut self, t: f64) -> bool {
        self.reversals += 1;
        let (t0, n) = self.last_reversal;
        let n = if t - t0 < STICK_GAP { n + 1 } else { 0 };
        self.last_reversal = (t, n);
        n < 20
    }
}

impl ContactSets for Literal {
    fn friction_at(&self, x: f64) -> (f64, f64) {
        self.table.friction_at(x)
    }
    fn thresholds(&self) -> (f64, f64) {
        self.table.next_thresholds()
    }
    fn advance(&mut self, x: f64) {
        self.table.advance(x);
    }
    fn n_own_guards(&self) -> usize {
        1
    }
    fn own_guards(&self, s: &[f64], g: &mut [f64]) {
        // `v ≥ 0` reads the `+` rows (L884): moving right, the guard rises when v turns negative.
        g[0] = if self.table.right { -s[1] } else { s[1] };
    }
    fn own_jump(&mut self, _: usize, t: f64, s: &mut [f64]) {
        self.table.reverse(s[0]);
        s[1] = if self.table.right { V_NUDGE } else { -V_NUDGE };
        if !self.reversal(t) {
            // Stop here: the run reports it ([`RbmStickSlipTable::run`]).
            s[1] = f64::NAN;
        }
    }
}

impl System for RbmStickSlipTable {
    const NAME: &'static str = "rbm-stick-slip-table";
    const DOC: &'static str = "rbm-stick-slip's rig with the contact sets of Tables 3.1-3.2 (L884-L896, L910-L913) read literally, also after reversals shorter than the d + d0 of travel the table assumes (after a - to + reversal row (a)-(1) loads the full left window whatever the travel since the previous reversal); the memory x_r- / x_r+ set at each located reversal (v = 0), every threshold of the sets a located event (Dormand-Prince between events). Initial bristles as Table 3.2 for a first motion to the right.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = <RbmStickSlip as System>::COLUMNS;
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5];
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = <RbmStickSlip as System>::INVARIANTS;

    fn check(p: &Params, req: &RunRequest, errs: &mut Vec<Invalid>) {
        <RbmStickSlip as System>::check(p, req, errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        let sets = Literal {
            table: TableReading::new(p.row.bristles(), p.x0, true),
            last_reversal: (f64::NEG_INFINITY, 0),
            reversals: 0,
        };
        // The friction work from the force acting (`report` = 1, as `rbm-stick-slip`'s).
        let rig = Rig::new(&p.spring, sets, 1.0);
        let (rows, r) = rig.simulate(req, [p.x0, p.v0, p.l0], t_end, &save);
        let sets = rig.sets.into_inner();
        if sets.last_reversal.1 >= 20 {
            return Err(format!(
                "the body sticks at t = {} s: the direction reverses 20 times within {STICK_GAP} s (the tables have no row for sticking)",
                sets.last_reversal.0
            ));
        }
        let mut data = data(&rows, &r?, p.row.bristles().d0());
        data.info.insert("reversals".into(), sets.reversals as f64);
        Ok(data)
    }
}
