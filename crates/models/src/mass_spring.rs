//! Force-actuated mass–spring with friction, duhem-paper eqs. (28)–(36):
//! `m q'' + k_s q = F_e(t) − F`, with the friction `F` from Dahl (30), LuGre (34)–(36) or
//! Maxwell-slip (24)–(25) driven by the mass's own motion. The DC-motor/drum testbed (37)–(41)
//! is the same system with `m = I`, `k_s = (k_1 + k_2) r²`, `F_e = k_m i_m − (F_10 − F_20) r`.
//!
//! Dahl and LuGre are smooth ODEs ([`InputDriven`] with the external force as input). Maxwell-slip
//! with a mass is integrated between velocity reversals with the exact stop operators of the
//! travelled distance (see [`WithMaxwellSlip`]).

use crate::dahl::Dahl;
use crate::lugre::LuGre;
use crate::maxwell_slip::{MaxwellSlip, MaxwellSlipState};
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

/// Maxwell-slip friction driven by the mass's position. State `[q, v]`; the element
/// deflections live in a [`MaxwellSlipState`] snapshot taken at the last velocity reversal.
/// Between reversals `q` is monotone, so each element is exactly the stop operator
/// `clamp(s_i + q − q_r, −Δ_i, Δ_i)` of the distance travelled since the reversal: the friction is
/// a continuous, piecewise-linear function of `q` and can never exceed `Σ k_i Δ_i`. The only
/// events are the velocity reversals, where the snapshot advances to the current `q`.
#[derive(Clone, Debug)]
pub struct WithMaxwellSlip {
    pub plant: Plant,
    pub elements: MaxwellSlip,
}

impl WithMaxwellSlip {
    pub fn friction(&self, snapshot: &MaxwellSlipState, q: f64) -> f64 {
        self.elements.force_at(snapshot, q)
    }
    /// `x = [q, v]`.
    pub fn rhs(&self, snapshot: &MaxwellSlipState, fe: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = (fe - self.plant.ks * x[0] - self.friction(snapshot, x[0])) / self.plant.m;
    }
    /// Guards: the velocity crossing zero upward and downward.
    pub fn guards(&self, x: &[f64], g: &mut [f64]) {
        g[0] = x[1];
        g[1] = -x[1];
    }
    /// At a reversal: advance the elements to the current position and set v exactly to 0.
    pub fn reverse(&self, snapshot: &mut MaxwellSlipState, x: &mut [f64]) {
        self.elements.advance(snapshot, x[0]);
        x[1] = 0.0;
    }
}

/// Body on a spring whose free end moves at `v_p`, with LuGre friction: thesis (4.18)–(4.20)
/// with `F_f` from (4.54)–(4.56) (the SCBM (4.76)–(4.77) of Fig 4.12(a), L1884). State
/// `[x, v, l, z]`: `ẋ = v`, `v̇ = (K l − F)/m`, `l̇ = v_p − v`, `ż = v − |v| σ0 z / g(v)`.
#[derive(Clone, Copy, Debug)]
pub struct PulledLuGre {
    pub plant: Plant,
    pub vp: f64,
    pub lugre: LuGre,
}

impl PulledLuGre {
    pub fn zdot(&self, v: f64, z: f64) -> f64 {
        v - v.abs() * self.lugre.sigma0 * z / self.lugre.g(v)
    }
    pub fn friction(&self, v: f64, z: f64) -> f64 {
        self.lugre.sigma0 * z + self.lugre.sigma1 * self.zdot(v, z) + self.lugre.sigma2 * v
    }
    /// `ẋ = f(x)` for `[x, v, l, z]`.
    pub fn rhs(&self, x: &[f64], dx: &mut [f64]) {
        let (v, l, z) = (x[1], x[2], x[3]);
        dx[0] = v;
        dx[1] = (self.plant.ks * l - self.friction(v, z)) / self.plant.m;
        dx[2] = self.vp - v;
        dx[3] = self.zdot(v, z);
    }
}

#[cfg(test)]
mod pulled_tests {
    use super::*;

    #[test]
    fn pulled_lugre_steady_sliding_is_an_equilibrium_of_the_relative_motion() {
        // At v = v_p, z = z_ss(v_p), K l = F_ss(v_p): v̇ = l̇ = ż = 0 (derived).
        let lugre = LuGre {
            sigma0: 1e5,
            sigma1: 0.0,
            sigma2: 0.0,
            fc: 1.0,
            fs: 1.5,
            vs: 0.1,
        };
        let m = PulledLuGre {
            plant: Plant { m: 1.0, ks: 1.0 },
            vp: 0.1,
            lugre,
        };
        let z = lugre.g(0.1) / 1e5;
        let l = lugre.g(0.1);
        let mut dx = [0.0; 4];
        m.rhs(&[3.0, 0.1, l, z], &mut dx);
        assert!((dx[0] - 0.1).abs() < 1e-15 && dx[1].abs() < 1e-12 && dx[2].abs() < 1e-15 && dx[3].abs() < 1e-12);
    }
}
