//! The RBM's contact sets as a per-bristle state machine ([`BristleState`], [`step_bristle`])
//! and the body sliding over the row ([`Rbm`]).

use super::Bristles;

/// One bristle's contact state in the rotating bristle model (RBM).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BristleState {
    Up,
    /// Rotated by the right corner, `0 ≤ θ < θ_max`.
    R,
    /// Rotated by the left corner, `−θ_max < θ ≤ 0`.
    L,
    /// Pressed flat under the body at `+θ_max` (tip at `x_b + d0`).
    FlatP,
    /// Pressed flat at `−θ_max` (tip at `x_b − d0`).
    FlatM,
}

/// Next state of a bristle at base `xb` after the corners moved from `x_prev` to `x` (monotone
/// in between, `|x − x_prev|` small against `d`). Iterates the positional transitions to a fixed
/// point, so a step may cross several thresholds.
pub fn step_bristle(b: &Bristles, st: BristleState, xb: f64, x_prev: f64, x: f64) -> BristleState {
    let (cr, cl) = (x + b.d / 2.0, x - b.d / 2.0);
    let d0 = b.d0();
    let mut s = st;
    for _ in 0..4 {
        let n = match s {
            BristleState::Up => {
                if x > x_prev && x_prev + b.d / 2.0 < xb && cr >= xb {
                    BristleState::R
                } else if x < x_prev && x_prev - b.d / 2.0 > xb && cl <= xb {
                    BristleState::L
                } else {
                    s
                }
            }
            BristleState::R => {
                if cr - xb >= d0 {
                    BristleState::FlatP
                } else if cr < xb {
                    BristleState::Up
                } else {
                    s
                }
            }
            BristleState::L => {
                if xb - cl >= d0 {
                    BristleState::FlatM
                } else if cl > xb {
                    BristleState::Up
                } else {
                    s
                }
            }
            BristleState::FlatP => {
                if cl > xb + d0 {
                    BristleState::Up
                } else if cr < xb + d0 {
                    BristleState::R
                } else {
                    s
                }
            }
            BristleState::FlatM => {
                if cr < xb - d0 {
                    BristleState::Up
                } else if cl > xb - d0 {
                    BristleState::L
                } else {
                    s
                }
            }
        };
        if n == s {
            break;
        }
        s = n;
    }
    s
}

/// The RBM along a prescribed path: bristle states on the lattice indices `[i0, i0 + n)`.
#[derive(Clone, Debug)]
pub struct Rbm {
    pub b: Bristles,
    pub i0: i64,
    pub states: Vec<BristleState>,
    pub x: f64,
}

impl Rbm {
    /// Initial state (L900, Table 3.2): the body at `x0`, bristles under the flat surface pressed
    /// flat, the corner sets empty, `F_f = 0`. `span` bounds the travel `|x − x0|`. The lying
    /// direction of the bristles under the body is not stated; they start `FlatP` for a first
    /// motion to the right (flat in the direction of the first motion, so no corner set is
    /// populated until a corner passes a base, as Table 3.2 says).
    pub fn new(b: Bristles, x0: f64, span: f64, first_right: bool) -> Rbm {
        let lo = ((x0 - span - b.d / 2.0 - 2.0 * b.d0()) / b.delta).floor() as i64 - 2;
        let hi = ((x0 + span + b.d / 2.0 + 2.0 * b.d0()) / b.delta).ceil() as i64 + 2;
        let (cl, cr) = (x0 - b.d / 2.0, x0 + b.d / 2.0);
        let d0 = b.d0();
        let states = (lo..hi)
            .map(|i| {
                let xb = i as f64 * b.delta;
                // Flat toward the first motion, tip under the body; bases within d0 of the
                // leading corner are out of contact until the corner passes them (Table 3.2).
                if first_right && xb + d0 >= cl && xb + d0 <= cr {
                    BristleState::FlatP
                } else if !first_right && xb - d0 >= cl && xb - d0 <= cr {
                    BristleState::FlatM
                } else {
                    BristleState::Up
                }
            })
            .collect();
        Rbm {
            b,
            i0: lo,
            states,
            x: x0,
        }
    }
    fn xb(&self, k: usize) -> f64 {
        (self.i0 + k as i64) as f64 * self.b.delta
    }
    /// Move the body to `x`, updating only the bristles near the two corners.
    pub fn advance(&mut self, x: f64) {
        let reach = self.b.d0() + (x - self.x).abs() + 2.0 * self.b.delta;
        for c in [self.b.d / 2.0, -self.b.d / 2.0] {
            let lo = (self.x.min(x) + c - reach) / self.b.delta;
            let hi = (self.x.max(x) + c + reach) / self.b.delta;
            let k0 = ((lo.floor() as i64) - self.i0).max(0) as usize;
            let k1 = ((hi.ceil() as i64) - self.i0).min(self.states.len() as i64 - 1) as usize;
            for k in k0..=k1 {
                let xb = self.xb(k);
                self.states[k] = step_bristle(&self.b, self.states[k], xb, self.x, x);
            }
        }
        self.x = x;
    }
    /// Move to `x` updating every bristle (brute force; for verification).
    pub fn advance_all(&mut self, x: f64) {
        for k in 0..self.states.len() {
            let xb = self.xb(k);
            self.states[k] = step_bristle(&self.b, self.states[k], xb, self.x, x);
        }
        self.x = x;
    }
    /// (3.7)–(3.9): `F_f = F_f^l + F_f^r` over the bristles in `R` and `L`.
    pub fn friction(&self) -> (f64, f64) {
        self.friction_at(self.x)
    }
    /// (3.7)–(3.9) with the contact states frozen and the body at `x` (smooth in `x` between
    /// two [`Rbm::next_thresholds`]).
    pub fn friction_at(&self, x: f64) -> (f64, f64) {
        let (mut fl, mut fr) = (0.0, 0.0);
        let (cr, cl) = (x + self.b.d / 2.0, x - self.b.d / 2.0);
        let reach = self.b.d0() + 2.0 * self.b.delta;
        for c in [cr, cl] {
            let k0 = (((c - reach) / self.b.delta).floor() as i64 - self.i0).max(0) as usize;
            let k1 = (((c + reach) / self.b.delta).ceil() as i64 - self.i0).min(self.states.len() as i64 - 1) as usize;
            for k in k0..=k1 {
                let xb = self.xb(k);
                match self.states[k] {
                    BristleState::R if c == cr => fr += self.b.force_of_angle(self.b.angle(cr, xb)),
                    BristleState::L if c == cl => fl += self.b.force_of_angle(self.b.angle(cl, xb)),
                    _ => {}
                }
            }
        }
        (fl, fr)
    }
    /// The nearest body positions above and below the current `x` at which a bristle changes
    /// state ([`step_bristle`]'s thresholds: a corner reaching a base, a bristle reaching θ_max,
    /// a corner passing the tip of a flat bristle), each counted only in the direction in which
    /// it fires. Between them the contact states are constant and [`Rbm::friction_at`] is smooth.
    pub fn next_thresholds(&self) -> (f64, f64) {
        let (h, d0) = (self.b.d / 2.0, self.b.d0());
        let (mut above, mut below) = (f64::INFINITY, f64::NEG_INFINITY);
        let reach = d0 + h + 2.0 * self.b.delta;
        let k0 = (((self.x - reach - h) / self.b.delta).floor() as i64 - self.i0).max(0) as usize;
        let k1 = (((self.x + reach + h) / self.b.delta).ceil() as i64 - self.i0).clamp(0, self.states.len() as i64 - 1)
            as usize;
        for k in k0..=k1 {
            let xb = self.xb(k);
            // (crossed from below, crossed from above)
            let (up, down) = match self.states[k] {
                BristleState::Up => (xb - h, xb + h),
                BristleState::R => (xb - h + d0, xb - h),
                BristleState::L => (xb + h, xb + h - d0),
                BristleState::FlatP => (xb + d0 + h, xb + d0 - h),
                BristleState::FlatM => (xb - d0 + h, xb - d0 - h),
            };
            if up > self.x {
                above = above.min(up);
            }
            if down < self.x {
                below = below.max(down);
            }
        }
        (above, below)
    }
    /// Number of bristles in each state `[Up, R, L, FlatP, FlatM]`.
    pub fn census(&self) -> [usize; 5] {
        let mut c = [0; 5];
        for s in &self.states {
            c[*s as usize] += 1;
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rbm::test_rigs::{fig33, fig35};
    use crate::rbm::Side;

    /// Brute-force check of the RBM state machine: random back-and-forth motions, the local
    /// update with coarse steps against updating every bristle with fine substeps.
    /// An independent geometric model of one bristle: a rigid rod of length l_b pivoted at
    /// (x_b, 0), spring-loaded toward upright, that may not enter the body (the region above
    /// height h between the corners). After each small move of the body the rod is pushed out of
    /// the body if the body moved into it, and otherwise relaxes toward θ = 0 as far as the body
    /// lets it. Nothing of `step_bristle`'s transition rules is used.
    struct Rod {
        theta: f64,
    }

    /// The angles in (−θ_max, θ_max) at which the rod enters the body, an open interval
    /// `(lo, hi)` (None: empty). For θ ≥ 0 the part of the rod above h spans
    /// [x_b + h tan θ, x_b + l_b sin θ], both ends increasing in θ, so it meets (c_l, c_r) for
    /// its bounds follow in closed form; likewise for θ ≤ 0; the two pieces join at θ = 0.
    fn penetrating(b: &Bristles, xb: f64, x: f64) -> Option<(f64, f64)> {
        let (cl, cr, tm) = (x - b.d / 2.0, x + b.d / 2.0, b.theta_max());
        let asin = |s: f64| s.clamp(-1.0, 1.0).asin();
        // θ ≥ 0: enters iff x_b + h tan θ < c_r and x_b + l_b sin θ > c_l.
        let plus = (asin((cl - xb) / b.lb).max(0.0), ((cr - xb) / b.h).atan().min(tm));
        // θ ≤ 0: enters iff x_b + l_b sin θ < c_r and x_b + h tan θ > c_l.
        let minus = (((cl - xb) / b.h).atan().max(-tm), asin((cr - xb) / b.lb).min(0.0));
        match (plus.0 < plus.1, minus.0 < minus.1) {
            (true, true) => Some((minus.0, plus.1)),
            (true, false) => Some(plus),
            (false, true) => Some(minus),
            (false, false) => None,
        }
    }

    impl Rod {
        fn update(&mut self, b: &Bristles, xb: f64, x: f64) {
            let tm = b.theta_max();
            let Some((lo, hi)) = penetrating(b, xb, x) else {
                self.theta = 0.0;
                return;
            };
            let th = self.theta;
            if th > lo && th < hi {
                // Pushed: to the nearer side of the body, flat at ±θ_max if the body covers it.
                self.theta = if th - lo < hi - th { lo } else { hi };
            } else if th >= hi && hi > 0.0 {
                // Relaxes toward 0 until the rod touches the body.
                self.theta = hi;
            } else if th <= lo && lo < 0.0 {
                self.theta = lo;
            } else {
                self.theta = 0.0;
            }
            if self.theta.abs() > tm - 1e-12 {
                self.theta = tm.copysign(self.theta);
            }
        }
    }

    #[test]
    fn rbm_state_machine_matches_an_independent_rod_geometry() {
        // Random paths with long legs and repeated short reversals: at every leg end the state
        // machine's contact states and friction equal those of the rod model, for the Fig 3.5
        // (d0/Δ = 1.99) and Fig 3.3 (d0/Δ = 9.95) bristles.
        let mut seed = 4242u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64) / ((1u64 << 53) as f64)
        };
        for b in [fig35(), fig33()] {
            let tm = b.theta_max();
            let mut sm = Rbm::new(b, 0.0, 1.5, true);
            // Table 3.2 leaves the bases within d0 behind the leading corner upright and out of
            // contact (F_f(t0) = 0), which a rod cannot be (it would stand inside the body):
            // start both models from the geometric state, those bristles on the corner.
            for i in 0..sm.states.len() {
                let xb = sm.xb(i);
                if xb <= b.d / 2.0 && xb > b.d / 2.0 - b.d0() && sm.states[i] == BristleState::Up {
                    sm.states[i] = BristleState::R;
                }
            }
            let reach = 2.0 * b.d0() + 2.0 * b.delta;
            let mut rods: Vec<Rod> = (0..sm.states.len())
                .map(|i| Rod {
                    theta: match sm.states[i] {
                        BristleState::FlatP => tm,
                        BristleState::R => b.angle(b.d / 2.0, sm.xb(i)),
                        _ => 0.0,
                    },
                })
                .collect();
            let mut x = 0.0;
            let mut compared = [0usize; 5];
            for _ in 0..60 {
                let len = if rnd() < 0.5 { 0.03 * rnd() } else { 0.3 * rnd() };
                let dir = if rnd() < 0.5 { -1.0 } else { 1.0 };
                let target: f64 = (x + dir * len).clamp(-1.2, 1.2);
                let steps = ((target - x).abs() / (b.delta / 40.0)).ceil().max(1.0) as usize;
                for k in 1..=steps {
                    let xn = x + (target - x) * k as f64 / steps as f64;
                    sm.advance(xn);
                    // A rod reaches at most d0 from its base: only those near a corner can move.
                    for (i, r) in rods.iter_mut().enumerate() {
                        let xb = sm.xb(i);
                        if (xb - xn - b.d / 2.0).abs() < reach || (xb - xn + b.d / 2.0).abs() < reach {
                            r.update(&b, xb, xn);
                        }
                    }
                }
                x = target;
                let mut f = 0.0;
                for (i, r) in rods.iter().enumerate() {
                    let geo = if r.theta == 0.0 {
                        BristleState::Up
                    } else if r.theta == tm {
                        BristleState::FlatP
                    } else if r.theta == -tm {
                        BristleState::FlatM
                    } else if r.theta > 0.0 {
                        BristleState::R
                    } else {
                        BristleState::L
                    };
                    if matches!(geo, BristleState::R | BristleState::L) {
                        f += b.force_of_angle(r.theta);
                    }
                    assert_eq!(sm.states[i], geo, "bristle {} at x = {x}: θ = {}", sm.xb(i), r.theta);
                    compared[geo as usize] += 1;
                }
                let (fl, fr) = sm.friction();
                assert!(
                    (fl + fr - f).abs() < 1e-9,
                    "x = {x}: state machine {} vs rods {f}",
                    fl + fr
                );
            }
            // Every state was met.
            assert!(compared.iter().all(|&c| c > 0), "{compared:?}");
        }
    }

    #[test]
    fn next_thresholds_bound_the_state_changes() {
        // Along a random path: moving anywhere strictly between the two thresholds changes no
        // state, and moving just past the nearer one in its direction changes at least one.
        let b = fig35();
        let mut seed = 777u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64) / ((1u64 << 53) as f64)
        };
        let mut r = Rbm::new(b, 0.0, 3.0, true);
        let mut changes = 0;
        for _ in 0..2000 {
            let (above, below) = r.next_thresholds();
            assert!(below < r.x && r.x < above && above - below < 3.0 * b.d0() + 2.0 * b.delta);
            let inside = below + (above - below) * (0.05 + 0.9 * rnd());
            let mut probe = r.clone();
            probe.advance(inside);
            assert_eq!(probe.states, r.states, "a state changed between the thresholds");
            // Then cross one threshold (mostly the one ahead in a random direction).
            let target = if rnd() < 0.5 { above + 1e-9 } else { below - 1e-9 };
            let mut crossed = r.clone();
            crossed.advance(target);
            assert_ne!(crossed.states, r.states, "crossing a threshold changed no state");
            changes += 1;
            r = crossed;
            assert!(r.x.abs() < 2.5, "the walk left the lattice");
        }
        assert_eq!(changes, 2000);
    }

    #[test]
    fn rbm_state_machine_local_equals_brute_force() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64) / ((1u64 << 53) as f64)
        };
        for b in [fig33(), fig35()] {
            let mut fast = Rbm::new(b, 0.0, 3.0, true);
            let mut slow = fast.clone();
            let mut x = 0.0;
            for _ in 0..200 {
                // A leg of random length (short ones: repeated short reversals) and sign.
                let len = if rnd() < 0.5 { 0.05 * rnd() } else { 0.6 * rnd() };
                let dir = if rnd() < 0.5 { -1.0 } else { 1.0 };
                let target = (x + dir * len).clamp(-2.5, 2.5);
                let nsteps = 20;
                for k in 1..=nsteps {
                    let xn = if k == nsteps {
                        x + (target - x)
                    } else {
                        x + (target - x) * k as f64 / nsteps as f64
                    };
                    fast.advance(xn);
                }
                let nfine = ((target - x).abs() / (b.delta / 7.0)).ceil().max(1.0) as usize;
                for k in 1..=nfine {
                    let xn = if k == nfine {
                        x + (target - x)
                    } else {
                        x + (target - x) * k as f64 / nfine as f64
                    };
                    slow.advance_all(xn);
                }
                x += target - x;
                assert_eq!(fast.states, slow.states);
                let (a, c) = (fast.friction(), slow.friction());
                assert!((a.0 - c.0).abs() < 1e-12 && (a.1 - c.1).abs() < 1e-12);
                // Geometry: every corner-contact bristle has |θ| ≤ θ_max, every flat bristle
                // has its tip under the body.
                for (k, s) in slow.states.iter().enumerate() {
                    let xb = slow.xb(k);
                    let (cr, cl) = (x + b.d / 2.0, x - b.d / 2.0);
                    match s {
                        BristleState::R => assert!(cr >= xb && cr - xb <= b.d0() + 1e-12),
                        BristleState::L => assert!(cl <= xb && xb - cl <= b.d0() + 1e-12),
                        BristleState::FlatP => assert!(xb + b.d0() >= cl && xb + b.d0() <= cr + 1e-12),
                        BristleState::FlatM => assert!(xb - b.d0() <= cr && xb - b.d0() >= cl - 1e-12),
                        BristleState::Up => {}
                    }
                }
            }
        }
    }

    /// In unidirectional sliding the RBM equals the DRBM (Table 3.1 rows (a)-(5), (b)-(5)).
    #[test]
    fn rbm_unidirectional_equals_drbm() {
        let b = fig33();
        let mut r = Rbm::new(b, 0.0, 2.0, true);
        let mut x = 0.0;
        while x < 1.5 {
            x += 1.3e-4;
            r.advance(x);
            if x > b.d + b.d0() {
                let (fl, fr) = r.friction();
                assert_eq!(fl, 0.0);
                assert!((fr - b.drbm(Side::Plus, x)).abs() < 1e-12, "{x}");
            }
        }
    }
}
