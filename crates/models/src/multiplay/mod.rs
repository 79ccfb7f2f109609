//! Multiplay model, thesis ch. II, eqs. (2.1)–(2.4) (L574–L602): `N` mass/spring/dashpot elements
//! with deadzone, driven by a common bar position `u`,
//!
//! `m_i x_i'' + c_i x_i' + k_i d_{2Δ_i}(x_i − u) = 0`   (2.3, L596)
//! `d_{2Δ}(v) = v − Δ (v ≥ Δ), 0 (|v| < Δ), v + Δ (v ≤ −Δ)`   (2.2, L580)
//! `y = Σ k_i (u − x_i)`   (2.4, L600)
//!
//! The output (2.4) is the sum of `k_i (u − x_i)`, not of the spring forces `k_i d(x_i − u)`: it
//! includes the gap offset (catalog M8). State `[x_1, x_1', …, x_N, x_N']`; the elements share only
//! the input. The right-hand side is continuous and piecewise linear with kinks at
//! `|x_i − u| = Δ_i`, and does not involve `u'` (no restart at input extrema is needed).
//!
//! DC limit (thesis §2.3, (2.5)–(2.15), L612–L660; catalog M9): as the input frequency tends to
//! zero the multiplay becomes the Maxwell-slip model (2.12)–(2.13) with the same `k_i` and `Δ_i`,
//! whatever `m_i, c_i`. [`Multiplay::dc_limit`] returns it as a [`MaxwellSlip`], whose exact
//! operator works on stop states `s_i = u − x_i` with `|s_i| ≤ Δ_i` and force `Σ k_i s_i`: the
//! same sign convention as (2.4), so the multiplay positions map to `s_i = u − x_i`
//! ([`Multiplay::dc_state`]). (2.5) as printed is not the time derivative of (2.3) (catalog M9); the
//! limit (2.11) does not depend on it.
//!
//! Notes and ambiguities:
//! - `k_i`, `m_i`, `c_i` may be negative (L602); a negative `k_i` needs negative `m_i, c_i` for
//!   stability (L700). Flipping the signs of `(m_i, c_i, k_i)` together leaves `x_i(t)` unchanged
//!   and flips the element's contribution to `y` (derived, catalog M8).
//! - (2.3) states only the initial positions `x_i(0) = x_{i0}`; the initial velocities of these
//!   second-order elements are not stated. [`Multiplay::state_at_rest`] assumes rest.
//! - Every example of the thesis sets `m_i = c_i = k_i` (L607, L698, L707, L709, L747):
//!   [`Multiplay::from_stiffness`].
//! - Finite-frequency error (derived, see `tests/multiplay_dc_limit.rs`): a sliding element lags
//!   its quasi-static position by `c_i u'/k_i`, so `y` exceeds the Maxwell-slip output by
//!   `Σ_{sliding} c_i u'` plus a damped transient at each sliding onset: the error is `O(ω)`.
//!
//! Files: this one holds the deadzone and the [`Multiplay`] model; `dc_map.rs` its DC hysteresis
//! map and that map's inverse; `dynamic_inverse.rs` the dynamic inverse; `tests.rs` the unit
//! tests.

mod dc_map;
mod dynamic_inverse;
#[cfg(test)]
mod tests;

pub use dc_map::{branch_vertices, slopes_from_stiffness, stiffness_from_slopes, DcMap, InverseError, SlopeInverse};
pub use dynamic_inverse::DynamicInverse;

use crate::maxwell_slip::{MaxwellSlip, MaxwellSlipState};
use crate::InputDriven;

/// The deadzone function `d_{2Δ}(v)` of width `2Δ`, thesis (2.2).
#[inline]
pub fn deadzone(v: f64, delta: f64) -> f64 {
    if v >= delta {
        v - delta
    } else if v <= -delta {
        v + delta
    } else {
        0.0
    }
}

/// `d'_{2Δ}(v)` with the convention of thesis (2.9) (L632): 1 for `|v| ≥ Δ`, 0 inside the gap.
#[inline]
pub fn deadzone_slope(v: f64, delta: f64) -> f64 {
    if v.abs() >= delta {
        1.0
    } else {
        0.0
    }
}

/// The multiplay model (2.3)–(2.4).
#[derive(Clone, Debug, PartialEq)]
pub struct Multiplay {
    pub m: Vec<f64>,
    pub c: Vec<f64>,
    pub k: Vec<f64>,
    /// Deadzone half-widths `Δ_i ≥ 0` (the gap is `2Δ_i`).
    pub delta: Vec<f64>,
}

impl Multiplay {
    pub fn new(m: Vec<f64>, c: Vec<f64>, k: Vec<f64>, delta: Vec<f64>) -> Self {
        let n = k.len();
        assert!(
            m.len() == n && c.len() == n && delta.len() == n,
            "m, c, k and Δ must have the same length"
        );
        assert!(
            delta.iter().all(|d| *d >= 0.0),
            "deadzone widths must be non-negative (L580)"
        );
        assert!(m.iter().all(|m| *m != 0.0), "masses must be non-zero");
        Self { m, c, k, delta }
    }

    /// `m_i = c_i = k_i`, as in the thesis examples (L607, L698, L707, L709, L747).
    pub fn from_stiffness(k: Vec<f64>, delta: Vec<f64>) -> Self {
        Self::new(k.clone(), k.clone(), k, delta)
    }

    /// Number of elements `N`.
    pub fn len(&self) -> usize {
        self.k.len()
    }

    pub fn is_empty(&self) -> bool {
        self.k.is_empty()
    }

    /// State `[x_10, 0, …, x_N0, 0]`: the given positions (2.3), at rest (the initial velocities
    /// are not stated in the thesis).
    pub fn state_at_rest(&self, x0: &[f64]) -> Vec<f64> {
        assert_eq!(x0.len(), self.len());
        x0.iter().flat_map(|x| [*x, 0.0]).collect()
    }

    /// The DC limit (2.12)–(2.13): the Maxwell-slip model with the same `k_i` and `Δ_i` (M9).
    pub fn dc_limit(&self) -> MaxwellSlip {
        MaxwellSlip::new(self.k.clone(), self.delta.clone())
    }

    /// The Maxwell-slip stop state matching a multiplay state at input `u`:
    /// `s_i = clamp(u − x_i, −Δ_i, Δ_i)` (at finite frequency a sliding element can lag beyond its
    /// gap; the DC model cannot, hence the clamp).
    pub fn dc_state(&self, u: f64, x: &[f64]) -> MaxwellSlipState {
        assert_eq!(x.len(), 2 * self.len());
        MaxwellSlipState {
            u,
            s: self
                .delta
                .iter()
                .enumerate()
                .map(|(i, d)| (u - x[2 * i]).clamp(-d, *d))
                .collect(),
        }
    }
}

impl InputDriven for Multiplay {
    fn dim(&self) -> usize {
        2 * self.len()
    }
    fn rhs(&self, u: f64, _du: f64, x: &[f64], dx: &mut [f64]) {
        for i in 0..self.len() {
            let (p, v) = (x[2 * i], x[2 * i + 1]);
            dx[2 * i] = v;
            dx[2 * i + 1] = -(self.c[i] * v + self.k[i] * deadzone(p - u, self.delta[i])) / self.m[i];
        }
    }
    fn output(&self, u: f64, _du: f64, x: &[f64]) -> f64 {
        self.k.iter().enumerate().map(|(i, k)| k * (u - x[2 * i])).sum()
    }
    fn jacobian(&self, u: f64, _du: f64, x: &[f64], j: &mut [f64]) -> bool {
        let n = self.dim();
        j.fill(0.0);
        for i in 0..self.len() {
            let r = 2 * i;
            j[r * n + r + 1] = 1.0;
            j[(r + 1) * n + r] = -self.k[i] * deadzone_slope(x[r] - u, self.delta[i]) / self.m[i];
            j[(r + 1) * n + r + 1] = -self.c[i] / self.m[i];
        }
        true
    }
}
