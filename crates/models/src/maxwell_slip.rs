//! Maxwell-slip model, thesis eqs. (1.20)–(1.22) with (2.15): N massless elements with stiffness
//! `k_i` and deadband `Δ_i`; `F = Σ k_i (u − x_i)` with `|u − x_i| ≤ Δ_i` (the reading of (1.20):
//! total play `2Δ_i`, break-away force `k_i Δ_i`, L430).
//!
//! [`MaxwellSlip`] is the exact rate-independent operator on stop states `s_i = u − x_i`,
//! updated by clamping for each monotone input increment. It also implements the time-domain ODE
//! (1.20) as [`InputDriven`] (state `x_i`), used to cross-check the operator.

use crate::{Edges, InputDriven};

#[derive(Clone, Debug)]
pub struct MaxwellSlip {
    pub k: Vec<f64>,
    pub delta: Vec<f64>,
}

/// Stop-operator state of a [`MaxwellSlip`] model.
#[derive(Clone, Debug)]
pub struct MaxwellSlipState {
    pub u: f64,
    pub s: Vec<f64>,
}

impl MaxwellSlip {
    pub fn new(k: Vec<f64>, delta: Vec<f64>) -> Self {
        assert_eq!(k.len(), delta.len(), "k and Δ must have the same length");
        Self { k, delta }
    }
    /// State with all element displacements `s_i` given.
    pub fn state(&self, u0: f64, s0: f64) -> MaxwellSlipState {
        MaxwellSlipState {
            u: u0,
            s: self.delta.iter().map(|d| s0.clamp(-d, *d)).collect(),
        }
    }
    /// Move the input to `u` (monotone from the current input) and return the force.
    pub fn advance(&self, st: &mut MaxwellSlipState, u: f64) -> f64 {
        let du = u - st.u;
        let mut f = 0.0;
        for ((s, k), d) in st.s.iter_mut().zip(&self.k).zip(&self.delta) {
            *s = stop(*s, du, *d);
            f += k * *s;
        }
        st.u = u;
        f
    }
    /// Force at input `u` reached monotonically from the state's input, without changing the
    /// state: `Σ k_i clamp(s_i + u − u_state, −Δ_i, Δ_i)`.
    pub fn force_at(&self, st: &MaxwellSlipState, u: f64) -> f64 {
        let du = u - st.u;
        st.s.iter()
            .zip(&self.k)
            .zip(&self.delta)
            .map(|((s, k), d)| k * stop(*s, du, *d))
            .sum()
    }
    /// The inputs strictly between the state's input and `u` (a monotone move) where an element
    /// reaches its deadband edge and starts to slip: the kinks of the piecewise-linear force,
    /// appended to `out` in the order they are passed. An onset within `1e-9 |u − u_state|` of
    /// either end is left out (the force's slope changes there by a negligible amount of the move).
    pub fn onsets(&self, st: &MaxwellSlipState, u: f64, out: &mut Vec<f64>) {
        let du = u - st.u;
        let near = 1e-9 * du.abs();
        let start = out.len();
        for (s, d) in st.s.iter().zip(&self.delta) {
            // Distance the input travels before this element is on its edge.
            let gap = if du > 0.0 { d - s } else { d + s };
            if gap > near && gap < du.abs() - near {
                out.push(st.u + gap * du.signum());
            }
        }
        let tail = &mut out[start..];
        if du > 0.0 {
            tail.sort_by(f64::total_cmp);
        } else {
            tail.sort_by(|a, b| b.total_cmp(a));
        }
        let mut seen = start;
        for i in start..out.len() {
            if i == start || out[i] != out[seen - 1] {
                out[seen] = out[i];
                seen += 1;
            }
        }
        out.truncate(seen);
    }
    pub fn force(&self, st: &MaxwellSlipState) -> f64 {
        st.s.iter().zip(&self.k).map(|(s, k)| s * k).sum()
    }
    /// Saturated force `Σ k_i Δ_i`.
    pub fn saturation(&self) -> f64 {
        self.k.iter().zip(&self.delta).map(|(k, d)| k * d).sum()
    }
    /// Area of the symmetric periodic loop with input amplitude `A` (derived, thesis M10):
    /// `Σ 2 k_i Δ_i (2A − 2Δ_i)` over elements with `Δ_i < A`, clockwise.
    pub fn loop_area(&self, amplitude: f64) -> f64 {
        self.k
            .iter()
            .zip(&self.delta)
            .filter(|(_, d)| **d < amplitude)
            .map(|(k, d)| 4.0 * k * d * (amplitude - d))
            .sum()
    }
}

/// The stop operator of half-width `delta`: the new state `clamp(s + Δu, −δ, δ)`.
pub fn stop(s: f64, du: f64, delta: f64) -> f64 {
    (s + du).clamp(-delta, delta)
}

/// The play operator of half-width `delta` (backlash): the output `p` follows the input only when
/// it is more than `delta` away, `p = u − stop`; returns the new output for input `u`.
pub fn play(p: f64, u: f64, delta: f64) -> f64 {
    p.clamp(u - delta, u + delta)
}

fn heaviside(v: f64) -> f64 {
    if v >= 0.0 {
        1.0
    } else {
        0.0
    }
}

impl InputDriven for MaxwellSlip {
    fn dim(&self) -> usize {
        self.k.len()
    }
    fn rhs(&self, u: f64, du: f64, x: &[f64], dx: &mut [f64]) {
        let up = du.max(0.0);
        let dn = du.min(0.0);
        for i in 0..x.len() {
            let d = self.delta[i];
            dx[i] = heaviside(u - x[i] - d) * up + (1.0 - heaviside(u - x[i] + d)) * dn;
        }
    }
    fn output(&self, u: f64, _du: f64, x: &[f64]) -> f64 {
        x.iter().zip(&self.k).map(|(xi, k)| k * (u - xi)).sum()
    }
    fn edges(&self) -> Option<&dyn Edges> {
        Some(self)
    }
}

/// The deadband edges of (1.20) as events: element `i` moving with an input of direction `s`
/// reaches its edge where `s (u − x_i) = Δ_i`; from there `x_i' = u'` (it slides) until the input
/// reverses, which is a kink of the input where the driver restarts and [`Edges::settle`] starts
/// afresh. The held element's `u − x_i` stays on its edge exactly in the model and to the
/// integration error of `x_i' = u'` numerically (neutral: no drift builds up beyond it).
impl Edges for MaxwellSlip {
    fn n_edges(&self) -> usize {
        self.k.len()
    }
    fn settle(&self, u: f64, s: f64, x: &mut [f64], held: &mut [bool]) {
        for ((x, h), d) in x.iter_mut().zip(held.iter_mut()).zip(&self.delta) {
            *h |= s != 0.0 && s * (u - *x) >= *d;
            if *h {
                *x = u - s * d;
            }
        }
    }
    fn rhs_held(&self, _u: f64, du: f64, _x: &[f64], held: &[bool], dx: &mut [f64]) {
        for (dx, h) in dx.iter_mut().zip(held) {
            *dx = if *h { du } else { 0.0 };
        }
    }
    fn edge_values(&self, u: f64, s: f64, x: &[f64], held: &[bool], g: &mut [f64]) {
        for (((g, x), h), d) in g.iter_mut().zip(x).zip(held).zip(&self.delta) {
            *g = if *h { -d } else { s * (u - x) - d };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig_1_7() -> MaxwellSlip {
        let delta: Vec<f64> = (0..10).map(|i| 0.15 + 0.09 * i as f64).collect();
        let k: Vec<f64> = (0..10).map(|i| 1.0 + 0.8 * i as f64).collect();
        MaxwellSlip::new(k, delta)
    }

    #[test]
    fn saturation_and_area_of_fig_1_7() {
        let m = fig_1_7();
        assert!((m.saturation() - 31.47).abs() < 1e-9);
        assert!((m.loop_area(1.0) - 30.534).abs() < 1e-9);
    }

    /// Operator identity: play + stop = input, along any input path.
    #[test]
    fn play_plus_stop_is_the_input() {
        let (delta, mut s, mut p, mut u) = (0.3, 0.0, 0.0, 0.0);
        for next in [0.5, 0.1, -0.7, -0.2, 0.9, 0.85, -1.0] {
            s = stop(s, next - u, delta);
            p = play(p, next, delta);
            u = next;
            assert!((p + s - u).abs() < 1e-15, "p + s = {} at u = {u}", p + s);
        }
    }

    #[test]
    fn operator_equals_sum_of_clamps() {
        let m = fig_1_7();
        let mut st = m.state(0.0, 0.0);
        for u in [0.3, 1.0, -0.2, 0.4, -1.0] {
            let f = m.advance(&mut st, u);
            assert!((f - m.force(&st)).abs() < 1e-12);
            assert!(f.abs() <= m.saturation() + 1e-12);
        }
        // After a full swing to −1 every element is saturated at −Δ_i.
        assert!((m.force(&st) + m.saturation()).abs() < 1e-12);
    }
}
