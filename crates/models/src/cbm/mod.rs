//! Compressed bristle model (CBM), thesis ch. IV §4.2 (Drinčić 2012), eqs. (4.1)–(4.27) and the
//! Switch-Model vector fields (4.44)–(4.51), source lines L1430–L1720.
//!
//! A rigid body (mass `m`, length `d`, thickness `w`, front face slanted by `α` from the vertical)
//! slides over a row of bristles, each a massless frictionless roller on a spring of stiffness `k`
//! and relaxed length `h0` (L1432–L1443). Only bristles under the slanted face push horizontally;
//! their summed horizontal force is the friction force (L1447).
//!
//! # Equations
//!
//! * `d1 = w tan α` (L1461): the horizontal extent of the slant.
//! * Slanted window (closed intervals): `X_b+(x) = {x_bi : x + d/2 − d1 ≤ x_bi ≤ x + d/2}` (4.7)
//!   L1477, `X_b−(x) = {x_bi : x − d/2 ≤ x_bi ≤ x − d/2 + d1}` (4.8) L1481. Both are
//!   `[x + o_σ − d1, x + o_σ]` with `o_+ = d/2`, `o_− = d1 − d/2`.
//! * Bristle lengths (4.2)–(4.3) L1457–L1459. Both read `h_i = y + w/2 − (w/d1)·s_i` with `s_i ≥ 0`
//!   the horizontal distance of the base from the *tip* of the slant: the tip is the upper window
//!   end `x + d/2` for `+`, the lower end `x − d/2` for `−`.
//! * `F_f± = ±k cos α Σ (h0 − h_i±)` (4.10), (4.12) L1489, L1497; `F_ys± = k sin α Σ (h0 − h_i±)`
//!   (4.15)–(4.16) L1511–L1513; `F_yb = N k (h0 − y + w/2)` (4.17) L1517; `F_y± = F_ys± + F_yb`
//!   (4.46)–(4.47) L1653–L1655. `v ≥ 0` uses the `+` branch (4.1), (4.9).
//!
//! # Closed form
//!
//! The window holds the consecutive lattice indices `first..=last`, `n = last − first + 1`, so with
//! `mid = Δ (first + last)/2` (the centroid of the bases) the sum is, in O(1) and without
//! allocation,
//! `Σ (h0 − h_i) = n (h0 − y − w/2) + (w/d1) · n · s̄`, `s̄ = (x + d/2) − mid` for `+`,
//! `s̄ = mid − (x − d/2)` for `−` (derived from (4.2)–(4.3)).
//!
//! # Frozen window and events
//!
//! `F_f±` jumps in `x` whenever a lattice point crosses a window end (catalog M1(b)): a bristle
//! entering at the tip adds `k cos α (h0 − y − w/2)`, one leaving at the bottom corner removes
//! `k cos α (h0 − y + w/2)`, net `−k cos α · w` per bristle passed. An ODE solver must not step
//! across these blindly. The state that makes the right-hand side smooth is the index range, held
//! in a [`Window`] (one per branch; [`Windows`] holds both because the Switch Model blends `f+` and
//! `f−` inside the stick band):
//!
//! 1. Before a segment, [`Windows::locate`] computes the ranges from `x`.
//! 2. During the segment every force takes the frozen range: `Σ` is then a polynomial in `(x, y)`
//!    (linear), smooth even if a trial step goes past the range's validity interval.
//! 3. A window is valid on the `x`-interval `[x_lo, x_hi]` ([`Cbm::window_bounds`]). The event
//!    functions [`Cbm::window_events`] are `[x − x_hi, x_lo − x]`: negative inside, continuous
//!    (linear in `x`), and crossing zero *upward* exactly when the geometric range would change,
//!    which matches the rising guards of `fric-solvers::hybrid`.
//! 4. When event `j` fires the caller advances the range with [`Cbm::cross`] (forward for `j = 0`,
//!    backward for `j = 1`), not by re-locating: at the located `x` the two adjacent ranges are
//!    both valid (closed intervals), and a located root may sit a rounding error on either side.
//!    `cross` is deterministic and the new interval starts exactly at the old boundary. Then
//!    [`Cbm::settle`] / [`Windows::settle`] crosses further if `x` is already past another
//!    threshold (both ends at once, or the other branch), so every event function is `≤ 0` at the
//!    restart. Protocol per segment: `locate` once, then integrate with terminal rising events
//!    [`Windows::events`]; on event `j`: `cross(j)`, `settle(x)`, continue.
//!
//! A located root that lands exactly on a threshold leaves the new window's opposite event at
//! exactly `0`; a solver that triggers only on `g0 < 0 ≤ g1` would miss an immediate reversal
//! from there (`settle` cannot help: `x` lies on both adjacent intervals). Locators that return the
//! right end of the bracket (as `fric-solvers` does) make this a measure-zero case.
//!
//! [`Cbm::friction`], [`Cbm::vertical`] without a window locate it first (exact, discontinuous).
//!
//! # Assumptions and corrections
//!
//! * Lattice `x_bi = iΔ`, `i ∈ ℤ` (offset unstated; catalog M1(e)). It is symmetric under
//!   `x ↦ −x`, so `F_f−(x, y) = −F_f+(−x, y)` (up to rounding).
//! * `N` is a constant in (4.17) (L1517). L1519 defines `N = (d − d1)/Δ + 1`, which the published
//!   parameters violate (N = 500, Δ = 0.0035 gives 495.87, derived; catalog M1(d)). Here `N`
//!   ([`Cbm::n_bottom`]) enters only `F_yb`, `Δ` only the slanted windows; where a figure gives only
//!   `N`, use [`delta_from_n`] = `(d − d1)/(N − 1)`.
//! * No clipping: a bristle with `h_i > h0` pulls (tensile force) as the linear equations say
//!   (catalog M1(c)); [`Cbm::tensile`] flags heights where this happens.
//! * Typo fix (catalog M2): the last rows of (4.44), (4.45), (4.50), (4.51) read `−mg + F_y±`
//!   (L1647–L1649, L1711–L1713); implemented as `ÿ = −g + F_y±/m` from (4.21).
//! * (4.67) L1806 writes `k̃ = k n cos α` with an integer `n`; the average of `F_f+` over one
//!   lattice period in `x` is exactly `k cos α (d1/Δ)(h0 − y)` (derived), so [`Cbm::k_tilde`] uses
//!   the mean count `d1/Δ`.
//!
//! Files: this one holds the body, its branches and frozen windows ([`Cbm`], [`Branch`],
//! [`Windows`]); `configurations.rs` the three configurations in Switch-Model form
//! ([`Configuration`]); `mean_fit.rs` the mean height and friction fits; `tests.rs` the unit
//! tests.

mod configurations;
mod mean_fit;
#[cfg(test)]
mod tests;

pub use configurations::{Configuration, ForceDriven, PrescribedHeight, StickSlip, VELOCITY};
pub use mean_fit::{MeanFit, Profile};

use std::cell::Cell;

/// `(tan α, sin α, cos α)`, memoised per thread for the last `α` asked for.
///
/// The forces, the window bounds and their event functions need these for every right-hand side
/// and every event test; computed each time they were 30 % of a force-driven run (thesis Fig 4.7,
/// measured with `perf`). The memo returns the very values `f64::tan/sin/cos` give, so results are
/// bit-identical; it is a pure function of `α` (no state visible outside).
fn trig(alpha: f64) -> (f64, f64, f64) {
    thread_local! {
        static MEMO: Cell<(u64, f64, f64, f64)> = const { Cell::new((u64::MAX, f64::NAN, f64::NAN, f64::NAN)) };
    }
    MEMO.with(|m| {
        let (bits, tan, sin, cos) = m.get();
        if bits == alpha.to_bits() {
            return (tan, sin, cos);
        }
        let (sin, cos) = (alpha.sin(), alpha.cos());
        let tan = alpha.tan();
        m.set((alpha.to_bits(), tan, sin, cos));
        (tan, sin, cos)
    })
}

/// Branch of the friction law: `Plus` for `v ≥ 0` (4.9), `Minus` for `v < 0` (4.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Branch {
    Plus,
    Minus,
}

impl Branch {
    /// The branch used by the discontinuous law at velocity `v` (4.1): `v ≥ 0` is `Plus`.
    pub fn of_velocity(v: f64) -> Branch {
        if v >= 0.0 {
            Branch::Plus
        } else {
            Branch::Minus
        }
    }
    /// `+1` or `−1`.
    pub fn sign(self) -> f64 {
        match self {
            Branch::Plus => 1.0,
            Branch::Minus => -1.0,
        }
    }
}

/// Body, bristle and spring parameters (L1432–L1443; `K` at L1523, L1556).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cbm {
    /// Body mass `m`, in kg.
    pub m: f64,
    /// Body thickness `w`, in m.
    pub w: f64,
    /// Body length `d`, in m.
    pub d: f64,
    /// Slant angle `α` from the vertical, in rad.
    pub alpha: f64,
    /// Spring stiffness `K` of the configuration (Figs 4.2, 4.3), in N/m.
    pub spring_k: f64,
    /// Number `N` of bristles under the flat bottom, a constant in (4.17).
    pub n_bottom: f64,
    /// Bristle stiffness `k`, in N/m.
    pub k: f64,
    /// Relaxed bristle length `h0`, in m.
    pub h0: f64,
    /// Bristle spacing `Δ`, in m; bases at `iΔ`.
    pub delta: f64,
    /// Gravity `g`, in m/s².
    pub g: f64,
}

/// `Δ = (d − d1)/(N − 1)` with `d1 = w tan α`: L1519 solved for `Δ` (catalog M1(d)).
pub fn delta_from_n(d: f64, w: f64, alpha: f64, n: f64) -> f64 {
    (d - w * alpha.tan()) / (n - 1.0)
}

/// A frozen index range `first..=last` of lattice bristles under the slanted face of one branch.
/// Empty when `first > last` (only possible for `Δ > d1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    pub first: i64,
    pub last: i64,
}

impl Window {
    /// Number of bristles `n±`.
    pub fn count(self) -> i64 {
        (self.last - self.first + 1).max(0)
    }
}

/// Frozen windows of both branches, as a Switch Model integration segment needs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Windows {
    pub plus: Window,
    pub minus: Window,
}

impl Windows {
    /// Both windows at position `x`.
    pub fn locate(cbm: &Cbm, x: f64) -> Windows {
        Windows {
            plus: cbm.window(Branch::Plus, x),
            minus: cbm.window(Branch::Minus, x),
        }
    }
    pub fn get(&self, sigma: Branch) -> Window {
        match sigma {
            Branch::Plus => self.plus,
            Branch::Minus => self.minus,
        }
    }
    /// Event functions `[+ forward, + backward, − forward, − backward]`, see
    /// [`Cbm::window_events`]: all `≤ 0` while both frozen windows are valid; each fires rising.
    pub fn events(&self, cbm: &Cbm, x: f64) -> [f64; 4] {
        let p = cbm.window_events(Branch::Plus, self.plus, x);
        let m = cbm.window_events(Branch::Minus, self.minus, x);
        [p[0], p[1], m[0], m[1]]
    }
    /// Advance after event `j` (index into [`Windows::events`]) fired.
    pub fn cross(&mut self, cbm: &Cbm, j: usize) {
        let forward = j.is_multiple_of(2);
        if j < 2 {
            self.plus = cbm.cross(Branch::Plus, self.plus, forward);
        } else {
            self.minus = cbm.cross(Branch::Minus, self.minus, forward);
        }
    }
    /// Cross further, in either branch, until every event function at `x` is `≤ 0` (several
    /// thresholds passed at once, or rounding). Returns the number of crossings made.
    pub fn settle(&mut self, cbm: &Cbm, x: f64) -> usize {
        cbm.settle(Branch::Plus, &mut self.plus, x) + cbm.settle(Branch::Minus, &mut self.minus, x)
    }
}

impl Cbm {
    /// Thesis Fig 4.4 (L1659, caption L1677): m = 1, w = 1, d = 2, α = 15°, K = 5, N = 500,
    /// k = 0.01, h0 = 2.69; g = 10 (as stated for Figs 4.7, 4.9) and Δ = 0.0035 (Fig 4.7) are
    /// assumptions. The one reference body of the CBM tests: another figure's body is this one
    /// with the fields it changes (`Cbm { h0: 1.65, ..Cbm::fig_4_4() }`).
    pub fn fig_4_4() -> Cbm {
        Cbm {
            m: 1.0,
            w: 1.0,
            d: 2.0,
            alpha: 15f64.to_radians(),
            spring_k: 5.0,
            n_bottom: 500.0,
            k: 0.01,
            h0: 2.69,
            delta: 0.0035,
            g: 10.0,
        }
    }

    /// `d1 = w tan α` (L1461).
    pub fn d1(&self) -> f64 {
        self.w * trig(self.alpha).0
    }
    /// `(d − d1)/Δ + 1`, the definition of `N` at L1519 (not used by the forces).
    pub fn n_from_delta(&self) -> f64 {
        (self.d - self.d1()) / self.delta + 1.0
    }
    /// Mean number of slanted-face bristles over `x`, `d1/Δ` (derived).
    pub fn mean_slant_count(&self) -> f64 {
        self.d1() / self.delta
    }
    /// Offset of the upper window end from `x`: `o_+ = d/2`, `o_− = d1 − d/2` (4.7)–(4.8).
    fn offset(&self, sigma: Branch) -> f64 {
        match sigma {
            Branch::Plus => 0.5 * self.d,
            Branch::Minus => self.d1() - 0.5 * self.d,
        }
    }
    /// Position `x` at which the upper window end reaches base `i` (from below).
    fn upper_reaches(&self, sigma: Branch, i: i64) -> f64 {
        i as f64 * self.delta - self.offset(sigma)
    }
    /// Position `x` at which the lower window end reaches base `i` (from below).
    fn lower_reaches(&self, sigma: Branch, i: i64) -> f64 {
        i as f64 * self.delta - self.offset(sigma) + self.d1()
    }

    /// The index range of (4.7)/(4.8) at `x`: base `i` is in the window iff
    /// `upper_reaches(i) ≤ x ≤ lower_reaches(i)`. The floor/ceil estimate is corrected against the
    /// same threshold expressions the events use, so the result always satisfies
    /// `window_events(…) ≤ 0`.
    pub fn window(&self, sigma: Branch, x: f64) -> Window {
        let o = self.offset(sigma);
        let mut last = ((x + o) / self.delta).floor() as i64;
        while self.upper_reaches(sigma, last + 1) <= x {
            last += 1;
        }
        while self.upper_reaches(sigma, last) > x {
            last -= 1;
        }
        let mut first = ((x + o - self.d1()) / self.delta).ceil() as i64;
        while self.lower_reaches(sigma, first - 1) >= x {
            first -= 1;
        }
        while self.lower_reaches(sigma, first) < x {
            first += 1;
        }
        Window { first, last }
    }

    /// The closed `x`-interval `[x_lo, x_hi]` on which the geometric window equals `win`.
    pub fn window_bounds(&self, sigma: Branch, win: Window) -> (f64, f64) {
        let lo = self
            .upper_reaches(sigma, win.last)
            .max(self.lower_reaches(sigma, win.first - 1));
        let hi = self
            .upper_reaches(sigma, win.last + 1)
            .min(self.lower_reaches(sigma, win.first));
        (lo, hi)
    }

    /// Event functions of a frozen window: `[x − x_hi, x_lo − x]`. Both are `≤ 0` while `win` is
    /// the geometric window, continuous and linear in `x`; `[0]` crosses zero upward when `x`
    /// passes the next forward threshold, `[1]` when it passes the next backward one. Then call
    /// [`Cbm::cross`].
    pub fn window_events(&self, sigma: Branch, win: Window, x: f64) -> [f64; 2] {
        let (lo, hi) = self.window_bounds(sigma, win);
        [x - hi, lo - x]
    }

    /// The window valid just beyond the forward (`x_hi`) or backward (`x_lo`) bound of `win`.
    /// Forward: a base reaching the upper end joins (`last + 1`), the base at the lower end leaves
    /// (`first + 1`), both if they coincide; backward the reverse.
    pub fn cross(&self, sigma: Branch, win: Window, forward: bool) -> Window {
        let Window { mut first, mut last } = win;
        if forward {
            let enter = self.upper_reaches(sigma, last + 1);
            let leave = self.lower_reaches(sigma, first);
            if enter <= leave {
                last += 1;
            }
            if leave <= enter {
                first += 1;
            }
        } else {
            let leave = self.upper_reaches(sigma, last);
            let enter = self.lower_reaches(sigma, first - 1);
            if leave >= enter {
                last -= 1;
            }
            if enter >= leave {
                first -= 1;
            }
        }
        Window { first, last }
    }

    /// Cross `win` forward or backward until `x ∈ [x_lo, x_hi]`; returns the number of crossings.
    pub fn settle(&self, sigma: Branch, win: &mut Window, x: f64) -> usize {
        let mut n = 0;
        loop {
            let [fwd, bwd] = self.window_events(sigma, *win, x);
            if fwd > 0.0 {
                *win = self.cross(sigma, *win, true);
            } else if bwd > 0.0 {
                *win = self.cross(sigma, *win, false);
            } else {
                return n;
            }
            n += 1;
        }
    }

    /// `Σ_{i ∈ win} (h0 − h_i±(x, y))` in closed form (module docs), for a frozen window.
    pub fn slant_sum(&self, sigma: Branch, win: Window, x: f64, y: f64) -> f64 {
        let n = win.count();
        if n == 0 {
            return 0.0;
        }
        let n = n as f64;
        let mid = 0.5 * self.delta * (win.first as f64 + win.last as f64);
        let s_bar = match sigma {
            Branch::Plus => x + 0.5 * self.d - mid,
            Branch::Minus => mid - (x - 0.5 * self.d),
        };
        n * (self.h0 - y - 0.5 * self.w + self.w / self.d1() * s_bar)
    }

    /// `F_f±` (4.10)/(4.12) with a frozen window: `+` is `≥ 0` and `−` is `≤ 0` while no bristle
    /// is stretched.
    pub fn friction_in(&self, sigma: Branch, win: Window, x: f64, y: f64) -> f64 {
        sigma.sign() * self.k * trig(self.alpha).2 * self.slant_sum(sigma, win, x, y)
    }
    /// `F_ys±` (4.15)–(4.16) with a frozen window (upward for both branches).
    pub fn vertical_slant_in(&self, sigma: Branch, win: Window, x: f64, y: f64) -> f64 {
        self.k * trig(self.alpha).1 * self.slant_sum(sigma, win, x, y)
    }
    /// `F_yb(y) = N k (h0 − y + w/2)` (4.17).
    pub fn vertical_bottom(&self, y: f64) -> f64 {
        self.n_bottom * self.k * (self.h0 - y + 0.5 * self.w)
    }
    /// `F_y± = F_ys± + F_yb` (4.46)–(4.47) with a frozen window.
    pub fn vertical_in(&self, sigma: Branch, win: Window, x: f64, y: f64) -> f64 {
        self.vertical_slant_in(sigma, win, x, y) + self.vertical_bottom(y)
    }
    /// `F_f±(x, y)`, window located at `x` (discontinuous in `x`).
    pub fn friction(&self, sigma: Branch, x: f64, y: f64) -> f64 {
        self.friction_in(sigma, self.window(sigma, x), x, y)
    }
    /// `F_ys±(x, y)`, window located at `x`.
    pub fn vertical_slant(&self, sigma: Branch, x: f64, y: f64) -> f64 {
        self.vertical_slant_in(sigma, self.window(sigma, x), x, y)
    }
    /// `F_y±(x, y)`, window located at `x`.
    pub fn vertical(&self, sigma: Branch, x: f64, y: f64) -> f64 {
        self.vertical_in(sigma, self.window(sigma, x), x, y)
    }

    /// `k_uo = N k + n k sin α` (4.23)–(4.25), L1541–L1549: the vertical stiffness `−∂F_y/∂y` with `n` bristles
    /// on the slant.
    pub fn k_uo(&self, n: i64) -> f64 {
        self.n_bottom * self.k + n as f64 * self.k * trig(self.alpha).1
    }
    /// Net friction change per bristle passed, `−k cos α · w` (catalog M1(b), derived): the entry
    /// jump `k cos α (h0 − y − w/2)` plus the exit jump `−k cos α (h0 − y + w/2)`.
    pub fn sawtooth_drop(&self) -> f64 {
        self.k * trig(self.alpha).2 * self.w
    }
    /// `∂F_f+/∂x = n k cos α (w/d1)` between events (derived from (4.2), (4.10)).
    pub fn slope_between_events(&self, n: i64) -> f64 {
        n as f64 * self.k * trig(self.alpha).2 * self.w / self.d1()
    }
    /// `k̃ = k cos α · d1/Δ`, (4.67) L1806 with the mean count (module docs).
    pub fn k_tilde(&self) -> f64 {
        self.k * trig(self.alpha).2 * self.mean_slant_count()
    }
    /// Mean friction `sign(v) k̃ (h0 − y)` (4.67) with `sign(0) = +1`.
    pub fn mean_friction(&self, sigma: Branch, y: f64) -> f64 {
        sigma.sign() * self.k_tilde() * (self.h0 - y)
    }
    /// The tip bristle `h = y + w/2` is longer than `h0`: the unclipped law gives a tensile force
    /// (catalog M1(c)).
    pub fn tensile(&self, y: f64) -> bool {
        y + 0.5 * self.w > self.h0
    }

    /// The largest stretch `h_i − h0 > 0` of a bristle the body is in contact with at `(x, y)` on
    /// branch `sigma`, or `None` when every contacting bristle is compressed (or relaxed).
    ///
    /// Physical invariant: the bristles push and never pull (L1432, "the bristles are
    /// compressed"; L1814, "the bristles do not stretch beyond their relaxed length h0"), but the
    /// linear law (4.2)–(4.6), (4.10)–(4.17) has no contact condition: a bristle of the slanted
    /// window (4.7)/(4.8) whose height (4.2)/(4.3) exceeds `h0` contributes `k (h0 − h_i) < 0`,
    /// a pull. The highest contacting bristle is the slant's bristle nearest its tip (height up to
    /// `y + w/2`), or, for an empty window, the flat bottom at `y − w/2` ((4.17)). A pure
    /// function of the geometry, for invariant checks on sampled runs.
    pub fn stretched_contact(&self, sigma: Branch, x: f64, y: f64) -> Option<f64> {
        let win = self.window(sigma, x);
        let bottom = y - 0.5 * self.w;
        let highest = if win.count() == 0 {
            bottom
        } else {
            // The bristle nearest the tip: `last` for `+`, `first` for `−` (module docs).
            let tip = match sigma {
                Branch::Plus => win.last,
                Branch::Minus => win.first,
            };
            let s = match sigma {
                Branch::Plus => x + 0.5 * self.d - tip as f64 * self.delta,
                Branch::Minus => tip as f64 * self.delta - (x - 0.5 * self.d),
            };
            (y + 0.5 * self.w - self.w / self.d1() * s).max(bottom)
        };
        let stretch = highest - self.h0;
        (stretch > 0.0).then_some(stretch)
    }
}
