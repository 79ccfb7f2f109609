//! Force-actuated mass–spring with friction, duhem-paper eqs. (28)–(36):
//! `m q'' + k_s q = F_e(t) − F`, with the friction `F` from Dahl (30), LuGre (34)–(36) or
//! Maxwell-slip (24)–(25) driven by the mass's own motion. The DC-motor/drum testbed (37)–(41)
//! is the same system with `m = I`, `k_s = (k_1 + k_2) r²`, `F_e = k_m i_m − (F_10 − F_20) r`.
//!
//! Dahl and LuGre are smooth ODEs ([`InputDriven`] with the external force as input). Maxwell-slip
//! with a mass is a hybrid automaton: each element is stuck (its deflection follows q) or sliding
//! (deflection held at ±Δ_i); guards and jumps are stated here.

use crate::dahl::Dahl;
use crate::lugre::LuGre;
use crate::{sgn, InputDriven};

#[derive(Clone, Copy, Debug)]
pub struct Plant {
    pub m: f64,
    pub ks: f64,
}

/// State `[q, v, F]`.
#[derive(Clone, Copy, Debug)]
pub struct WithDahl {
    pub plant: Plant,
    pub dahl: Dahl,
}

impl InputDriven for WithDahl {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, fe: f64, _dfe: f64, x: &[f64], dx: &mut [f64]) {
        let (q, v, f) = (x[0], x[1], x[2]);
        dx[0] = v;
        dx[1] = (fe - self.plant.ks * q - f) / self.plant.m;
        dx[2] = self.dahl.slope(f, sgn(v)) * v;
    }
    fn output(&self, _fe: f64, _dfe: f64, x: &[f64]) -> f64 {
        x[2]
    }
}

/// State `[q, v, z]`; the friction is `σ0 z + σ1 z' + σ2 v` with `z'` from (34).
#[derive(Clone, Copy, Debug)]
pub struct WithLuGre {
    pub plant: Plant,
    pub lugre: LuGre,
}

impl WithLuGre {
    pub fn zdot(&self, v: f64, z: f64) -> f64 {
        v - v.abs() * self.lugre.sigma0 * z / self.lugre.g(v)
    }
    pub fn friction(&self, v: f64, z: f64) -> f64 {
        self.lugre.sigma0 * z + self.lugre.sigma1 * self.zdot(v, z) + self.lugre.sigma2 * v
    }
}

impl InputDriven for WithLuGre {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, fe: f64, _dfe: f64, x: &[f64], dx: &mut [f64]) {
        let (q, v, z) = (x[0], x[1], x[2]);
        dx[0] = v;
        dx[1] = (fe - self.plant.ks * q - self.friction(v, z)) / self.plant.m;
        dx[2] = self.zdot(v, z);
    }
    fn output(&self, _fe: f64, _dfe: f64, x: &[f64]) -> f64 {
        self.friction(x[1], x[2])
    }
}

/// Most Maxwell-slip elements a hybrid mode can hold.
pub const MAX_ELEMENTS: usize = 32;

/// Per element: 0 stuck, +1/−1 sliding with the deflection held at ±Δ_i.
pub type Modes = [i8; MAX_ELEMENTS];

/// State `[q, v, s_1 … s_N]` with `s_i = q − x_i` the deflection of element i.
#[derive(Clone, Debug)]
pub struct WithMaxwellSlip {
    pub plant: Plant,
    pub k: Vec<f64>,
    pub delta: Vec<f64>,
}

impl WithMaxwellSlip {
    pub fn friction(&self, x: &[f64]) -> f64 {
        self.k.iter().zip(&x[2..]).map(|(k, s)| k * s).sum()
    }
    pub fn rhs(&self, modes: &Modes, fe: f64, x: &[f64], dx: &mut [f64]) {
        let v = x[1];
        dx[0] = v;
        dx[1] = (fe - self.plant.ks * x[0] - self.friction(x)) / self.plant.m;
        for i in 0..self.k.len() {
            dx[2 + i] = if modes[i] == 0 { v } else { 0.0 };
        }
    }
    /// Two guards per element (fire when rising through 0): stuck → the deflection reaches +Δ or
    /// −Δ; sliding → the velocity reverses. Inactive guards hold −1.
    pub fn guards(&self, modes: &Modes, x: &[f64], g: &mut [f64]) {
        let v = x[1];
        for i in 0..self.k.len() {
            let (s, d) = (x[2 + i], self.delta[i]);
            let (a, b) = match modes[i] {
                0 => (s - d, -s - d),
                1 => (-v, -1.0),
                _ => (v, -1.0),
            };
            g[2 * i] = a;
            g[2 * i + 1] = b;
        }
    }
    pub fn jump(&self, modes: &mut Modes, guard: usize, x: &mut [f64]) {
        let i = guard / 2;
        match modes[i] {
            0 => {
                let dir = if guard.is_multiple_of(2) { 1 } else { -1 };
                modes[i] = dir;
                x[2 + i] = dir as f64 * self.delta[i];
            }
            dir => {
                // The velocity reverses: every element sliding that way sticks at this instant
                // (their guards all cross together), and v is exactly 0 at the event.
                for m in modes.iter_mut().take(self.k.len()) {
                    if *m == dir {
                        *m = 0;
                    }
                }
                x[1] = 0.0;
            }
        }
    }
    /// Initial modes: elements at their deflection limit with the velocity pushing outward slide.
    pub fn initial_modes(&self, x: &[f64]) -> Modes {
        let mut m = [0i8; MAX_ELEMENTS];
        for i in 0..self.k.len() {
            let s = x[2 + i];
            if s >= self.delta[i] && x[1] > 0.0 {
                m[i] = 1;
            } else if s <= -self.delta[i] && x[1] < 0.0 {
                m[i] = -1;
            }
        }
        m
    }
}
