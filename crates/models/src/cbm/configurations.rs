//! The CBM configurations in Switch-Model form (4.32): stick–slip under a pulled spring, a
//! prescribed height, a driving force.

use super::{Branch, Cbm, Windows};
use crate::signal::Sine;

/// Index of the velocity in every configuration's state; the switching function is
/// `g(x) = v` with normal `e_VELOCITY` (L1645, L1709).
pub const VELOCITY: usize = 1;

/// A CBM configuration in Switch-Model form (4.32): two smooth vector fields `f±` on a frozen
/// window, switched on `g = state[VELOCITY]`.
pub trait Configuration {
    fn dim(&self) -> usize;
    fn cbm(&self) -> &Cbm;
    /// Height `y` of the body at `(t, state)`.
    fn height(&self, t: f64, state: &[f64]) -> f64;
    /// Applied horizontal force (spring and input) the friction must balance to stick.
    fn applied(&self, t: f64, state: &[f64]) -> f64;
    /// `out = f_σ(t, state)` with the frozen windows `win`.
    fn f(&self, sigma: Branch, t: f64, state: &[f64], win: &Windows, out: &mut [f64]);
    /// `f+` into `plus` and `f−` into `minus` at one `(t, state)` (the Switch Model's normals in
    /// the stick band need both at every right-hand side): a configuration driven by an input
    /// evaluates it once. The values are [`Configuration::f`]'s, bit for bit.
    fn fields(&self, t: f64, state: &[f64], win: &Windows, plus: &mut [f64], minus: &mut [f64]) {
        self.f(Branch::Plus, t, state, win, plus);
        self.f(Branch::Minus, t, state, win, minus);
    }
    /// `F_f±` at `(t, state)` with the frozen window of branch `sigma`.
    fn friction(&self, sigma: Branch, t: f64, state: &[f64], win: &Windows) -> f64 {
        let y = self.height(t, state);
        self.cbm().friction_in(sigma, win.get(sigma), state[0], y)
    }
    /// Attractive sliding mode (4.33) for these fields: `F_f− < applied < F_f+`, i.e.
    /// `v̇(f−) > 0 > v̇(f+)`.
    fn sticks(&self, t: f64, state: &[f64], win: &Windows) -> bool {
        let a = self.applied(t, state);
        self.friction(Branch::Minus, t, state, win) < a && a < self.friction(Branch::Plus, t, state, win)
    }
}

/// Stick–slip configuration of Fig 4.2 (L1523–L1529): state `[x, v, l, y, ẏ]`, `f±` (4.44)–(4.45)
/// with `ÿ = −g + F_y±/m`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StickSlip {
    pub cbm: Cbm,
    /// Speed `v_p` of the spring's free end, in m/s.
    pub vp: f64,
}

impl Configuration for StickSlip {
    fn dim(&self) -> usize {
        5
    }
    fn cbm(&self) -> &Cbm {
        &self.cbm
    }
    fn height(&self, _t: f64, state: &[f64]) -> f64 {
        state[3]
    }
    fn applied(&self, _t: f64, state: &[f64]) -> f64 {
        self.cbm.spring_k * state[2]
    }
    fn f(&self, sigma: Branch, t: f64, state: &[f64], win: &Windows, out: &mut [f64]) {
        let c = &self.cbm;
        let (x, v, y, yd) = (state[0], state[1], state[3], state[4]);
        let w = win.get(sigma);
        out[0] = v;
        out[1] = (self.applied(t, state) - c.friction_in(sigma, w, x, y)) / c.m;
        out[2] = self.vp - v;
        out[3] = yd;
        out[4] = -c.g + c.vertical_in(sigma, w, x, y) / c.m;
    }
}

/// Stick–slip configuration with prescribed height `y(t)` (L1688–L1696): state `[x, v, l]`,
/// `f±` (4.48)–(4.49); `y = A sin ωt` is a [`Sine`]. `N` and `g` are unused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrescribedHeight {
    pub cbm: Cbm,
    pub vp: f64,
    pub height: Sine,
}

impl Configuration for PrescribedHeight {
    fn dim(&self) -> usize {
        3
    }
    fn cbm(&self) -> &Cbm {
        &self.cbm
    }
    fn height(&self, t: f64, _state: &[f64]) -> f64 {
        self.height.value(t)
    }
    fn applied(&self, _t: f64, state: &[f64]) -> f64 {
        self.applied_at(state)
    }
    fn f(&self, sigma: Branch, t: f64, state: &[f64], win: &Windows, out: &mut [f64]) {
        self.f_at(sigma, self.height(t, state), state, win, out)
    }
    /// The height's sine once for both fields.
    fn fields(&self, t: f64, state: &[f64], win: &Windows, plus: &mut [f64], minus: &mut [f64]) {
        let y = self.height(t, state);
        self.f_at(Branch::Plus, y, state, win, plus);
        self.f_at(Branch::Minus, y, state, win, minus);
    }
}

impl PrescribedHeight {
    /// The spring's pull `k l` (the applied force, which does not depend on `t`).
    fn applied_at(&self, state: &[f64]) -> f64 {
        self.cbm.spring_k * state[2]
    }
    /// `f_σ` at the height `y`.
    fn f_at(&self, sigma: Branch, y: f64, state: &[f64], win: &Windows, out: &mut [f64]) {
        let c = &self.cbm;
        let (x, v) = (state[0], state[1]);
        out[0] = v;
        out[1] = (self.applied_at(state) - c.friction_in(sigma, win.get(sigma), x, y)) / c.m;
        out[2] = self.vp - v;
    }
}

/// Force-driven configuration of Fig 4.3 (L1556–L1564): state `[x, v, y, ẏ]`, `f±`
/// (4.50)–(4.51) with `ÿ = −g + F_y±/m`; input `u(t)` is a [`Sine`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForceDriven {
    pub cbm: Cbm,
    pub input: Sine,
}

impl Configuration for ForceDriven {
    fn dim(&self) -> usize {
        4
    }
    fn cbm(&self) -> &Cbm {
        &self.cbm
    }
    fn height(&self, _t: f64, state: &[f64]) -> f64 {
        state[2]
    }
    fn applied(&self, t: f64, state: &[f64]) -> f64 {
        self.applied_at(self.input.value(t), state)
    }
    fn f(&self, sigma: Branch, t: f64, state: &[f64], win: &Windows, out: &mut [f64]) {
        self.f_at(sigma, self.input.value(t), state, win, out)
    }
    /// The input's sine once for both fields.
    fn fields(&self, t: f64, state: &[f64], win: &Windows, plus: &mut [f64], minus: &mut [f64]) {
        let u = self.input.value(t);
        self.f_at(Branch::Plus, u, state, win, plus);
        self.f_at(Branch::Minus, u, state, win, minus);
    }
}

impl ForceDriven {
    /// The applied force `u − k x` under the input value `u`.
    fn applied_at(&self, u: f64, state: &[f64]) -> f64 {
        u - self.cbm.spring_k * state[0]
    }
    /// `f_σ` under the input value `u`.
    fn f_at(&self, sigma: Branch, u: f64, state: &[f64], win: &Windows, out: &mut [f64]) {
        let c = &self.cbm;
        let (x, v, y, yd) = (state[0], state[1], state[2], state[3]);
        let w = win.get(sigma);
        out[0] = v;
        out[1] = (self.applied_at(u, state) - c.friction_in(sigma, w, x, y)) / c.m;
        out[2] = yd;
        out[3] = -c.g + c.vertical_in(sigma, w, x, y) / c.m;
    }
}
