//! The Switch Model of Leine (thesis (3.22)–(3.37), L1031–L1099, repeated as (4.28)–(4.43),
//! L1569–L1637): a discontinuous vector field `f+` on `g(x) > 0`, `f−` on `g(x) < 0`, regularised by
//! a stick band `G = {|g| ≤ η}` in which the Filippov convex combination `α f+ + (1 − α) f−` is used
//! when the field is attractive on both sides.
//!
//! This module owns the case analysis of the Switch Model and nothing else: what `f±`, `g` and
//! `∇g` are belongs to the system (no physics here). It turns a [`Switched`] system into a
//! [`HybridSystem`] whose discrete modes are the Switch Model's regions, so that every mode has a
//! smooth vector field and every change of case is a located event — an adaptive integrator never
//! steps across a discontinuity, and the stick band of η = 1e-6 costs a handful of events instead
//! of thousands of rejected steps.
//!
//! Regions (with `a± = ∇g·f±`):
//! - [`Region::Above`]: `g > η`, field `f+`; [`Region::Below`]: `g < −η`, field `f−` ((3.37),
//!   with the typo `G− = {g < η}` of L1099 read as `g < −η`).
//! - [`Region::Stick`]: `|g| ≤ η` and attractive, `a− ≥ 0 ≥ a+` ((3.27); the equality cases, which
//!   the thesis leaves open, are treated as attractive): field `α f+ + (1 − α) f−` with
//!   `α = (a− + g/τ)/(a− − a+)` (3.32), so that `ġ = −g/τ`.
//! - [`Region::BandPlus`]: `|g| ≤ η`, `a+ > 0` (transversal towards `g > 0`, (3.34), or repulsive,
//!   (3.36)): field `f+`. [`Region::BandMinus`]: `|g| ≤ η`, `a+ ≤ 0`, `a− < 0` (transversal
//!   towards `g < 0`): field `f−`.
//!
//! **The time constant τ.** (3.29) writes `ġ = −τ g` but (3.32) contains `τ⁻¹ g`, which is
//! `ġ = −g/τ`; "τ is a time constant" (L1069) supports the latter, which is what is implemented.
//! Its value is never given. Inside the band `|g| ≤ η`, so the state differs from the exact
//! (η = 0) stick solution by at most `η` in `g` whatever τ is; τ only sets how fast `g` relaxes
//! towards 0. The tests show the event times and states do not depend on τ over three decades
//! within a bound proportional to η.
//!
//! The system may carry its own discrete state (e.g. which bristles touch a body) with its own
//! guards and jumps; they are passed through unchanged and appended after the Switch Model's
//! guards.

use crate::hybrid::HybridSystem;
use std::cell::RefCell;

/// Which side of the switching surface a vector field belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Branch {
    /// `f+`, used for `g > 0`.
    Plus,
    /// `f−`, used for `g < 0`.
    Minus,
}

/// A piecewise-smooth system `ẋ = f±(x)` with switching function `g`.
pub trait Switched {
    /// The system's own discrete state, `()` if it has none.
    type Mode: Copy + PartialEq + std::fmt::Debug;
    fn dim(&self) -> usize;
    /// `dx = f±(t, x)` in the system mode `mode`.
    fn field(&self, branch: Branch, mode: Self::Mode, t: f64, x: &[f64], dx: &mut [f64]);
    /// Both fields at one point, `f+` into `plus` and `f−` into `minus` (what the stick band's
    /// normals `a± = ∇g·f±` need at every right-hand side and guard there). A system whose two
    /// fields share work (an input evaluated at `t`) computes it once; the values must be
    /// [`Switched::field`]'s, bit for bit.
    fn fields(&self, mode: Self::Mode, t: f64, x: &[f64], plus: &mut [f64], minus: &mut [f64]) {
        self.field(Branch::Plus, mode, t, x, plus);
        self.field(Branch::Minus, mode, t, x, minus);
    }
    /// The switching function `g(t, x)`.
    fn switching(&self, t: f64, x: &[f64]) -> f64;
    /// Its gradient `n = ∇g` with respect to `x` (the thesis' normal `n`).
    fn normal(&self, t: f64, x: &[f64], n: &mut [f64]);
    /// Number of the system's own guards in `mode` (fire when rising through zero).
    fn n_guards(&self, _mode: Self::Mode) -> usize {
        0
    }
    fn guards(&self, _mode: Self::Mode, _t: f64, _x: &[f64], _g: &mut [f64]) {}
    /// New system mode after its own guard fired; may reset `x`.
    fn jump(&self, mode: Self::Mode, _guard: usize, _t: f64, _x: &mut [f64]) -> Self::Mode {
        mode
    }
}

/// The Switch Model's case in the current state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Region {
    Above,
    Below,
    Stick,
    BandPlus,
    BandMinus,
}

impl Region {
    /// Guards of each region (all fire when rising through zero), in this order.
    fn n_guards(self) -> usize {
        match self {
            Region::Above | Region::Below => 1,
            Region::Stick | Region::BandPlus | Region::BandMinus => 3,
        }
    }
    /// The vector field used in the region (`None`: the blended stick field).
    pub fn branch(self) -> Option<Branch> {
        match self {
            Region::Above | Region::BandPlus => Some(Branch::Plus),
            Region::Below | Region::BandMinus => Some(Branch::Minus),
            Region::Stick => None,
        }
    }
}

/// Case analysis inside the band from the normal components `a± = ∇g·f±`.
fn band_region(a_minus: f64, a_plus: f64) -> Region {
    if a_plus > 0.0 {
        Region::BandPlus
    } else if a_minus < 0.0 {
        Region::BandMinus
    } else {
        Region::Stick
    }
}

/// A [`Switched`] system regularised by the Switch Model with stick band `η` and time constant
/// `τ`. Implements [`HybridSystem`] with modes `(Region, S::Mode)`; integrate it with
/// [`crate::hybrid::simulate`] starting from [`SwitchModel::initial_mode`].
pub struct SwitchModel<'a, S: Switched> {
    sys: &'a S,
    eta: f64,
    tau: f64,
    /// Scratch `[f+, f−, n]`, allocated once: the right-hand side does not allocate.
    scratch: RefCell<Vec<f64>>,
}

impl<'a, S: Switched> SwitchModel<'a, S> {
    /// `eta > 0` is the half-width of the stick band, `tau > 0` the time constant of `ġ = −g/τ`.
    pub fn new(sys: &'a S, eta: f64, tau: f64) -> Self {
        assert!(eta > 0.0 && tau > 0.0, "the Switch Model needs η > 0 and τ > 0");
        let n = sys.dim();
        Self {
            sys,
            eta,
            tau,
            scratch: RefCell::new(vec![0.0; 3 * n]),
        }
    }

    /// `(a−, a+) = (∇g·f−, ∇g·f+)` at `(t, x)`; leaves `f+`, `f−`, `n` in the scratch buffer.
    fn normals(&self, mode: S::Mode, t: f64, x: &[f64], buf: &mut [f64]) -> (f64, f64) {
        let n = self.sys.dim();
        let (fp, rest) = buf.split_at_mut(n);
        let (fm, nv) = rest.split_at_mut(n);
        self.sys.fields(mode, t, x, fp, fm);
        self.sys.normal(t, x, nv);
        let dot = |f: &[f64]| f.iter().zip(nv.iter()).map(|(a, b)| a * b).sum::<f64>();
        (dot(fm), dot(fp))
    }

    /// The region of `(t, x)` by the Switch Model's rules.
    pub fn classify(&self, mode: S::Mode, t: f64, x: &[f64]) -> Region {
        let g = self.sys.switching(t, x);
        if g > self.eta {
            Region::Above
        } else if g < -self.eta {
            Region::Below
        } else {
            let mut buf = self.scratch.borrow_mut();
            let (am, ap) = self.normals(mode, t, x, &mut buf);
            band_region(am, ap)
        }
    }

    /// The hybrid mode to start from at `(t0, x0)` with the system in `mode`.
    pub fn initial_mode(&self, mode: S::Mode, t0: f64, x0: &[f64]) -> (Region, S::Mode) {
        (self.classify(mode, t0, x0), mode)
    }
}

impl<S: Switched> HybridSystem for SwitchModel<'_, S> {
    type Mode = (Region, S::Mode);

    fn dim(&self) -> usize {
        self.sys.dim()
    }

    fn rhs(&self, (region, mode): Self::Mode, t: f64, x: &[f64], dx: &mut [f64]) {
        if let Some(b) = region.branch() {
            return self.sys.field(b, mode, t, x, dx);
        }
        let mut buf = self.scratch.borrow_mut();
        let (am, ap) = self.normals(mode, t, x, &mut buf);
        let g = self.sys.switching(t, x);
        let den = am - ap;
        // a− = a+ = 0: both fields are tangent; any convex combination keeps ġ = 0.
        let alpha = if den > 0.0 {
            ((am + g / self.tau) / den).clamp(0.0, 1.0)
        } else {
            0.5
        };
        let n = dx.len();
        for i in 0..n {
            dx[i] = alpha * buf[i] + (1.0 - alpha) * buf[n + i];
        }
    }

    fn n_guards(&self, (region, mode): Self::Mode) -> usize {
        region.n_guards() + self.sys.n_guards(mode)
    }

    fn guards(&self, (region, mode): Self::Mode, t: f64, x: &[f64], out: &mut [f64]) {
        let k = region.n_guards();
        let g = self.sys.switching(t, x);
        match region {
            Region::Above => out[0] = self.eta - g,
            Region::Below => out[0] = g + self.eta,
            _ => {
                let mut buf = self.scratch.borrow_mut();
                let (am, ap) = self.normals(mode, t, x, &mut buf);
                out[0] = g - self.eta;
                out[1] = -self.eta - g;
                out[2] = match region {
                    // Leaves the attractive case when a+ rises through 0 …
                    Region::Stick => ap.max(-am),
                    // … the f+ case when a+ falls through 0, the f− case when a− rises.
                    Region::BandPlus => -ap,
                    _ => am,
                };
            }
        }
        self.sys.guards(mode, t, x, &mut out[k..]);
    }

    /// Outside the band the one guard is the distance to it (`η − g` above, `g + η` below), and
    /// its rate along the flow is `∓∇g·f` (the switching function of (3.22) is `g(x)`, with no
    /// explicit `t`). A motion that rises to the band and turns back inside one step (a
    /// reversal grazing `|g| ≤ η`) enters it at its first touch: without the rate, both ends of
    /// the step outside the band hid it, and the mode outlived its region (thesis Fig 4.7 at
    /// rtol 1e-7 until 2026-12-05: the minus branch's force at v = +7.3e-6 m/s, η = 1e-6 m/s).
    /// Inside the band each guard watches a motion that leaves through it or is stopped by
    /// another guard first, so the band's guards carry no rate.
    fn guard_rates(&self) -> bool {
        true
    }

    fn guard_rate(&self, (region, _): Self::Mode, guard: usize, t: f64, x: &[f64], f: &[f64]) -> Option<f64> {
        let side = match (region, guard) {
            (Region::Above, 0) => -1.0,
            (Region::Below, 0) => 1.0,
            _ => return None,
        };
        let mut buf = self.scratch.borrow_mut();
        let nv = &mut buf[..self.sys.dim()];
        self.sys.normal(t, x, nv);
        Some(side * nv.iter().zip(f).map(|(a, b)| a * b).sum::<f64>())
    }

    /// The band is entered through one edge (`g = ±η` located exactly) and its guards watch the
    /// other edges, so a band region may start with a guard at zero: the motion grazing the band
    /// and leaving it where it came in must fire it.
    fn guards_fire_from_zero(&self) -> bool {
        true
    }

    fn jump(&self, (region, mode): Self::Mode, guard: usize, t: f64, x: &mut [f64]) -> Self::Mode {
        let k = region.n_guards();
        if guard >= k {
            let mode = self.sys.jump(mode, guard - k, t, x);
            // The system's own jump may change the fields: re-examine the case inside the band.
            let region = match region {
                Region::Above | Region::Below => region,
                _ => self.classify(mode, t, x),
            };
            return (region, mode);
        }
        let next = match (region, guard) {
            (Region::Above | Region::Below, _) => {
                let mut buf = self.scratch.borrow_mut();
                let (am, ap) = self.normals(mode, t, x, &mut buf);
                band_region(am, ap)
            }
            (_, 0) => Region::Above,
            (_, 1) => Region::Below,
            // Stick left through a+ = 0 (now a+ > 0) or a− = 0 (now a− < 0).
            (Region::Stick, _) => {
                let mut buf = self.scratch.borrow_mut();
                let (am, ap) = self.normals(mode, t, x, &mut buf);
                if ap >= -am {
                    Region::BandPlus
                } else {
                    Region::BandMinus
                }
            }
            // a+ fell to 0: attractive if a− ≥ 0, transversal towards g < 0 otherwise.
            (Region::BandPlus, _) => {
                let mut buf = self.scratch.borrow_mut();
                let (am, _) = self.normals(mode, t, x, &mut buf);
                if am >= 0.0 {
                    Region::Stick
                } else {
                    Region::BandMinus
                }
            }
            // a− rose to 0 with a+ ≤ 0: attractive.
            (Region::BandMinus, _) => Region::Stick,
        };
        (next, mode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ẋ = ∓1 + c`: with |c| < 1 both sides point to the surface x = 0.
    struct Relay(f64);
    impl Switched for Relay {
        type Mode = ();
        fn dim(&self) -> usize {
            1
        }
        fn field(&self, b: Branch, _m: (), _t: f64, _x: &[f64], dx: &mut [f64]) {
            dx[0] = self.0
                + match b {
                    Branch::Plus => -1.0,
                    Branch::Minus => 1.0,
                };
        }
        fn switching(&self, _t: f64, x: &[f64]) -> f64 {
            x[0]
        }
        fn normal(&self, _t: f64, _x: &[f64], n: &mut [f64]) {
            n[0] = 1.0;
        }
    }

    #[test]
    fn regions_follow_the_case_analysis() {
        let attractive = Relay(0.5);
        let sm = SwitchModel::new(&attractive, 1e-3, 1e-2);
        assert_eq!(sm.classify((), 0.0, &[0.1]), Region::Above);
        assert_eq!(sm.classify((), 0.0, &[-0.1]), Region::Below);
        assert_eq!(sm.classify((), 0.0, &[5e-4]), Region::Stick);
        // Transversal: both fields point up.
        let up = Relay(1.5);
        assert_eq!(
            SwitchModel::new(&up, 1e-3, 1e-2).classify((), 0.0, &[0.0]),
            Region::BandPlus
        );
        let down = Relay(-1.5);
        assert_eq!(
            SwitchModel::new(&down, 1e-3, 1e-2).classify((), 0.0, &[0.0]),
            Region::BandMinus
        );
    }

    /// `f−`: `ẋ = 2(1 − t)`, `f+`: `ẋ = −1`. From `x0 = η/2 − 1` the minus field alone rises to
    /// the peak `η/2` at t = 1 and falls back: it enters the band at `x = −η`, where both fields
    /// point to it (attractive).
    struct Rise;
    impl Switched for Rise {
        type Mode = ();
        fn dim(&self) -> usize {
            1
        }
        fn field(&self, b: Branch, _m: (), t: f64, _x: &[f64], dx: &mut [f64]) {
            dx[0] = match b {
                Branch::Plus => -1.0,
                Branch::Minus => 2.0 * (1.0 - t),
            };
        }
        fn switching(&self, _t: f64, x: &[f64]) -> f64 {
            x[0]
        }
        fn normal(&self, _t: f64, _x: &[f64], n: &mut [f64]) {
            n[0] = 1.0;
        }
    }

    /// A motion that reaches the band and would turn back inside one step (one Dormand–Prince
    /// step spans the whole rise and fall: both its ends are below the band) enters it at
    /// `x = −η`, derived `t = 1 − √(1.5 η)`, and sticks.
    #[test]
    fn a_motion_grazing_the_band_inside_a_step_enters_it() {
        let eta = 1e-3;
        let sm = SwitchModel::new(&Rise, eta, 1e-2);
        let x0 = [0.5 * eta - 1.0];
        let mode0 = sm.initial_mode((), 0.0, &x0);
        assert_eq!(mode0.0, Region::Below);
        let tol = crate::Tolerances {
            h0: 4.0,
            hmax: 4.0,
            ..Default::default()
        };
        let o = crate::hybrid::simulate(
            &sm,
            mode0,
            crate::Method::Dopri5,
            &tol,
            0.0,
            &x0,
            3.0,
            &[],
            10,
            &mut |_, _, _| {},
        )
        .unwrap();
        let (t, (region, ())) = *o.switches.first().expect("the band was never entered");
        let want = 1.0 - (1.5 * eta).sqrt();
        assert_eq!(region, Region::Stick);
        assert!((t - want).abs() < 1e-9, "{t} vs {want}");
    }

    #[test]
    fn stick_field_relaxes_g_with_time_constant_tau() {
        let sys = Relay(0.3);
        let tau = 0.02;
        let sm = SwitchModel::new(&sys, 1e-3, tau);
        let mut dx = [0.0];
        let g = 4e-4;
        sm.rhs((Region::Stick, ()), 0.0, &[g], &mut dx);
        assert!((dx[0] + g / tau).abs() < 1e-15, "ġ = {} vs −g/τ = {}", dx[0], -g / tau);
    }
}
