//! The RBM's contact sets read literally from thesis Tables 3.1 and 3.2 ([`TableReading`]), also
//! after reversals that the tables do not describe.
//!
//! Table 3.1 (L884–L896) gives `X_b^l`, `X_b^r` from `x`, the sign of `v` and the memory `x_{r−}`
//! (moving right) or `x_{r+}` (moving left) set at the last reversal (L882: the rightmost /
//! leftmost base touching the lower surface there; a base lying flat under the body touches it
//! with its tip, `d0` beyond the base); Table 3.2 (L910–L913) gives them from the start `x_0` to
//! the first reversal. The table assumes each reversal is followed by at least `d + d0` of travel;
//! read literally after a shorter one, row (a)-(1) puts the whole left window on the left corner
//! whatever the travel since the previous reversal, which the geometric state machine
//! ([`super::Rbm`]) does not (only bristles a corner has rotated push, L835–L840).
//!
//! Between two consecutive [`TableReading::next_thresholds`] the sets are constant: every
//! condition of the tables compares `x` with a base `iΔ` or with `x_r`, `x_0` plus a constant, and
//! the thresholds are all those positions; so the sets are read at the middle of the bracket and
//! frozen, and the force [`TableReading::friction_at`] is smooth in `x` between thresholds.
//! Set ends anchored at `x_{r∓}` (lattice points) are closed in every row of Table 3.1; the ends
//! `x_0 ± d/2` of Table 3.2 are open.

use super::tables::{ContactRow, RowAt, TABLE_3_1, TABLE_3_2};
use super::Bristles;

/// What the tables' row depends on besides `x` and the sign of `v`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Memory {
    /// Before the first reversal (Table 3.2): the start `x_0`.
    Start(f64),
    /// After a reversal (Table 3.1): the lattice index of `x_{r−}` (moving right) or `x_{r+}`.
    Reversed(i64),
}

/// The body over the row with the literal tables' contact sets, frozen between thresholds.
#[derive(Clone, Debug)]
pub struct TableReading {
    pub b: Bristles,
    /// `v ≥ 0` (the `+` rows) or not.
    pub right: bool,
    pub mem: Memory,
    /// Lattice indices of the bases in `X_b^l` and `X_b^r` on the current bracket.
    pub left: Vec<i64>,
    pub right_set: Vec<i64>,
    /// The bracket `(below, above)` of the body position the sets were read for.
    bracket: (f64, f64),
}

impl TableReading {
    /// The start (Table 3.2): the body at `x0`, first motion to the right if `right`.
    pub fn new(b: Bristles, x0: f64, right: bool) -> TableReading {
        let mut r = TableReading {
            b,
            right,
            mem: Memory::Start(x0),
            left: vec![],
            right_set: vec![],
            bracket: (x0, x0),
        };
        r.read(x0);
        r
    }

    /// `x_{r−}` at a `−` → `+` reversal at `x` (the rightmost base touching the lower surface:
    /// tip at most at the right corner, `x_b ≤ x + d/2 + d0`) or `x_{r+}` at a `+` → `−` one.
    pub fn x_r(&self, x: f64, to_right: bool) -> i64 {
        let (h, d0, dl) = (self.b.d / 2.0, self.b.d0(), self.b.delta);
        if to_right {
            ((x + h + d0) / dl).floor() as i64
        } else {
            ((x - h - d0) / dl).ceil() as i64
        }
    }

    /// The velocity changed sign at `x`: the other half of Table 3.1 with its memory set here.
    pub fn reverse(&mut self, x: f64) {
        self.right = !self.right;
        self.mem = Memory::Reversed(self.x_r(x, self.right));
        self.read(x);
    }

    /// Positions at which a condition of the current half-table changes value.
    fn breakpoints(&self, x: f64) -> Vec<f64> {
        let (h, d0, dl) = (self.b.d / 2.0, self.b.d0(), self.b.delta);
        let mut p = vec![];
        for c in [h, -h] {
            let lo = ((x + c - d0) / dl).floor() as i64 - 3;
            let hi = ((x + c + d0) / dl).ceil() as i64 + 3;
            for i in lo..=hi {
                let xb = i as f64 * dl;
                // A corner, or a window's inner end, on the base.
                p.extend([xb - c, xb - c + d0, xb - c - d0]);
            }
        }
        match self.mem {
            Memory::Start(x0) => p.extend([x0 + d0, x0 - d0]),
            Memory::Reversed(i) => {
                let xr = i as f64 * dl;
                for c in [h, -h] {
                    p.extend([-2.0, -1.0, 0.0, 1.0, 2.0].map(|k| xr + k * dl - c));
                    p.extend([xr + d0 - c, xr - d0 - c]);
                }
            }
        }
        p
    }

    /// Read the sets for the body at `x`: the bracket of thresholds around `x`, the table's row
    /// in its middle, the bases in the row's sets.
    fn read(&mut self, x: f64) {
        let p = self.breakpoints(x);
        let above = p.iter().copied().filter(|&q| q > x).fold(f64::INFINITY, f64::min);
        let below = p.iter().copied().filter(|&q| q < x).fold(f64::NEG_INFINITY, f64::max);
        let mid = 0.5 * (above + below);
        let (table, xr, closed): (&[ContactRow], f64, bool) = match (self.mem, self.right) {
            (Memory::Start(x0), true) => (&TABLE_3_2[..2], x0, false),
            (Memory::Start(x0), false) => (&TABLE_3_2[2..], x0, false),
            (Memory::Reversed(i), true) => (&TABLE_3_1[..5], i as f64 * self.b.delta, true),
            (Memory::Reversed(i), false) => (&TABLE_3_1[5..], i as f64 * self.b.delta, true),
        };
        let at = RowAt {
            x: mid,
            xr,
            h: self.b.d / 2.0,
            d0: self.b.d0(),
            dl: self.b.delta,
        };
        let row = table
            .iter()
            .find(|r| (r.applies)(at))
            .expect("the half-table's rows cover every position");
        let dl = self.b.delta;
        // Closed ends (at x_r, lattice points) take the base on them; open ones (x_0 ± d/2) do
        // not; the ends that move with x are off the lattice at the bracket's middle.
        let eps = if closed { 1e-9 } else { -1e-9 };
        let bases = |lo_hi: Option<(f64, f64)>| -> Vec<i64> {
            lo_hi.map_or(vec![], |(lo, hi)| {
                ((lo / dl - eps).ceil() as i64..=(hi / dl + eps).floor() as i64).collect()
            })
        };
        self.left = bases((row.left_bounds)(at));
        self.right_set = bases((row.right_bounds)(at));
        self.bracket = (below, above);
    }

    /// Move the body to `x` (across at most the thresholds of one bracket in production; any
    /// distance works): the sets of the bracket that holds `x`.
    pub fn advance(&mut self, x: f64) {
        if !(self.bracket.0 < x && x < self.bracket.1) {
            self.read(x);
        }
    }

    /// `(below, above)`: the nearest positions where the sets may change in the current direction.
    pub fn next_thresholds(&self) -> (f64, f64) {
        self.bracket
    }

    /// (3.7)–(3.9) with the frozen sets and the body at `x`: `(F_f^l, F_f^r)`.
    pub fn friction_at(&self, x: f64) -> (f64, f64) {
        let (cl, cr, dl) = (x - self.b.d / 2.0, x + self.b.d / 2.0, self.b.delta);
        let f = |c: f64, set: &[i64]| -> f64 {
            set.iter()
                .map(|&i| self.b.force_of_angle(self.b.angle(c, i as f64 * dl)))
                .sum()
        };
        (f(cl, &self.left), f(cr, &self.right_set))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rbm::test_rigs::fig35;
    use crate::rbm::{BristleState, Rbm};

    /// On isolated reversals (each followed by more than `d + d0` of travel, the tables' domain)
    /// the literal reading's sets equal the geometric state machine's at every sampled position;
    /// after a short reversal (5 mm back) they differ: row (a)-(1) loads the full left window.
    #[test]
    fn literal_reading_equals_the_state_machine_on_isolated_reversals_only() {
        let b = fig35();
        let of = |r: &Rbm, st: BristleState| -> Vec<i64> {
            (0..r.states.len())
                .filter(|&k| r.states[k] == st)
                .map(|k| r.i0 + k as i64)
                .collect()
        };
        let x0 = 0.0037;
        let mut geo = Rbm::new(b, x0, 4.0, false);
        let mut lit = TableReading::new(b, x0, false);
        let mut x = x0;
        let mut compared = 0;
        for (to, right) in [(-1.3, false), (0.2, true), (-1.1, false), (0.3, true)] {
            if right != lit.right {
                lit.reverse(x);
            }
            let n: f64 = (to - x).abs() / (b.delta / 20.0);
            let from = x;
            for i in 1..=n as usize {
                x = from + (to - from) * (i as f64 - 0.37) / n;
                geo.advance(x);
                lit.advance(x);
                assert_eq!(
                    (of(&geo, BristleState::L), of(&geo, BristleState::R)),
                    (lit.left.clone(), lit.right_set.clone()),
                    "x = {x}"
                );
                let (g, l) = (geo.friction_at(x), lit.friction_at(x));
                assert!((g.0 - l.0).abs() < 1e-12 && (g.1 - l.1).abs() < 1e-12);
                compared += 1;
            }
        }
        assert!(compared > 10_000, "{compared}");
        // A short reversal: 5 mm back to the left, then right again.
        for (to, right) in [(x - 0.005, false), (x + 0.001, true)] {
            if right != lit.right {
                lit.reverse(x);
            }
            let (from, n) = (x, 200);
            for i in 1..=n {
                x = from + (to - from) * i as f64 / n as f64;
                geo.advance(x);
                lit.advance(x);
            }
        }
        let (g, l) = (geo.friction_at(x).0, lit.friction_at(x).0);
        eprintln!(
            "after 5 mm back: F_f^l geometric {g}, literal {l}; L {:?} vs {:?}",
            of(&geo, BristleState::L),
            lit.left
        );
        assert_eq!(lit.left.len(), 2, "row (a)-(1): the full left window (d0/Δ = 1.99)");
        assert!(
            of(&geo, BristleState::L).len() < 2 && l < g - 0.2,
            "geometric {g}, literal {l}"
        );
    }
}
