//! Prandtl–Ishlinskii (PI) operator, thesis eqs. (5.23)–(5.26) (L2230–L2256): a weighted
//! superposition of play operators acting on an envelope `γ` of the input,
//!
//! `x_i(t_j) = max(γ(u(t_j)) − w_i, min(γ(u(t_j)) + w_i, x_i(t_{j−1})))`   (5.23, L2236)
//! `y(t_j) = q γ(u(t_j)) + Σ_{i=1}^{N} p(w_i) x_i(t_j)`                   (5.24, L2240)
//!
//! (5.23) is `clamp(x_i, γ − w_i, γ + w_i)`, i.e. [`crate::maxwell_slip::play`] of half-width `w_i`
//! applied to `γ(u)`; this module reuses it. The classical PI model is the identity envelope
//! ([`Envelope::Identity`]); the generalized model of the thesis uses
//!
//! `γ(v) = c0 tanh(c1 v + c2) + c3`   (5.25, L2244)
//! `p(w) = ρ e^{−τ w}`, `w_k = k β`, `k = 1, …, N`   (5.26, L2248–L2250),
//!
//! built by [`PrandtlIshlinskii::generalized`].
//!
//! The operator is exact and rate independent: it is driven by input values, not time. Like every
//! play operator it is exact only when the sequence of inputs contains every input extremum
//! (between two samples the input must be monotone, as the thesis requires of `u`, L2232); `γ` is
//! strictly increasing, so the extrema of `γ(u)` are those of `u`.
//!
//! Ambiguities of the source (catalog M13), and what this module does about them:
//! - The number of plays `N` is not stated (L2230–L2250): it is a parameter of
//!   [`PrandtlIshlinskii::generalized`].
//! - The initial play states `x_{0i}` are not stated (L2232): [`PrandtlIshlinskii::state`] takes an
//!   initial input and one initial output value clamped into each play's band (`x0 = γ(u0)` is the
//!   relaxed state); [`PiState::x`] is public for anything else.
//! - L2238 asks for a "strictly increasing continuous odd" `γ`, but (5.25) with `c2, c3 ≠ 0` (as
//!   identified in Table 5.1) is not odd. Oddness is not needed for the operator, so it is not
//!   required here; strict monotonicity (`c0 c1 > 0`) is asserted.
//! - L2250 lists a constant `c4` that appears in no equation; it is ignored.
//! - Table 5.1 identifies `τ = −0.1909 < 0`, so `p(w)` grows with `w` although the text calls `p` a
//!   density; the constructor accepts any sign of `τ`.

use crate::maxwell_slip::play;

/// The envelope function `γ` of the generalized play operators (strictly increasing).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Envelope {
    /// `γ(v) = v`: the classical PI model.
    Identity,
    /// `γ(v) = a v` with `a > 0`.
    Linear(f64),
    /// `γ(v) = c0 tanh(c1 v + c2) + c3`, thesis (5.25), with `c0 c1 > 0`.
    Tanh { c0: f64, c1: f64, c2: f64, c3: f64 },
}

impl Envelope {
    /// `γ(v)`.
    #[inline]
    pub fn eval(&self, v: f64) -> f64 {
        match *self {
            Envelope::Identity => v,
            Envelope::Linear(a) => a * v,
            Envelope::Tanh { c0, c1, c2, c3 } => c0 * (c1 * v + c2).tanh() + c3,
        }
    }
    fn is_increasing(&self) -> bool {
        match *self {
            Envelope::Identity => true,
            Envelope::Linear(a) => a > 0.0,
            Envelope::Tanh { c0, c1, .. } => c0 * c1 > 0.0,
        }
    }
}

/// A Prandtl–Ishlinskii model `y = q γ(u) + Σ p_i play_{w_i}(γ(u))`, thesis (5.23)–(5.24).
#[derive(Clone, Debug, PartialEq)]
pub struct PrandtlIshlinskii {
    /// Gain `q` of the direct term.
    pub q: f64,
    /// Play half-widths (thresholds) `w_i ≥ 0`.
    pub thresholds: Vec<f64>,
    /// Play weights `p_i = p(w_i)`.
    pub weights: Vec<f64>,
    pub envelope: Envelope,
}

/// The state of a [`PrandtlIshlinskii`] model: the last input and the play outputs `x_i`.
#[derive(Clone, Debug, PartialEq)]
pub struct PiState {
    pub u: f64,
    pub x: Vec<f64>,
}

impl PrandtlIshlinskii {
    /// Classical PI model (identity envelope) with thresholds `w_i` and weights `p_i`.
    pub fn new(q: f64, thresholds: Vec<f64>, weights: Vec<f64>) -> Self {
        assert_eq!(
            thresholds.len(),
            weights.len(),
            "thresholds and weights must have the same length"
        );
        assert!(
            thresholds.iter().all(|w| *w >= 0.0),
            "play thresholds must be non-negative (L2238)"
        );
        Self {
            q,
            thresholds,
            weights,
            envelope: Envelope::Identity,
        }
    }

    /// The same model with envelope `γ`. Panics unless `γ` is strictly increasing (L2238).
    pub fn with_envelope(mut self, envelope: Envelope) -> Self {
        assert!(
            envelope.is_increasing(),
            "the envelope must be strictly increasing (L2238)"
        );
        self.envelope = envelope;
        self
    }

    /// The generalized PI model of thesis (5.24)–(5.26): envelope `c = [c0, c1, c2, c3]` (5.25),
    /// `n` plays with thresholds `w_k = k β` and weights `p(w_k) = ρ e^{−τ w_k}`, `k = 1..=n`.
    pub fn generalized(q: f64, c: [f64; 4], rho: f64, tau: f64, beta: f64, n: usize) -> Self {
        assert!(beta > 0.0, "β > 0 (L2250)");
        let thresholds: Vec<f64> = (1..=n).map(|k| k as f64 * beta).collect();
        let weights = thresholds.iter().map(|w| rho * (-tau * w).exp()).collect();
        Self::new(q, thresholds, weights).with_envelope(Envelope::Tanh {
            c0: c[0],
            c1: c[1],
            c2: c[2],
            c3: c[3],
        })
    }

    /// Number of plays `N`.
    pub fn len(&self) -> usize {
        self.thresholds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.thresholds.is_empty()
    }

    /// State at input `u0` with every play output set to `x0` clamped into its admissible band
    /// `[γ(u0) − w_i, γ(u0) + w_i]`; `x0 = γ(u0)` is the relaxed state.
    pub fn state(&self, u0: f64, x0: f64) -> PiState {
        let g = self.envelope.eval(u0);
        PiState {
            u: u0,
            x: self.thresholds.iter().map(|w| play(x0, g, *w)).collect(),
        }
    }

    /// Move the input to `u` (monotone from the state's input, (5.23)) and return the output
    /// (5.24). Does not allocate.
    pub fn advance(&self, st: &mut PiState, u: f64) -> f64 {
        let g = self.envelope.eval(u);
        let mut y = self.q * g;
        for ((x, w), p) in st.x.iter_mut().zip(&self.thresholds).zip(&self.weights) {
            *x = play(*x, g, *w);
            y += p * *x;
        }
        st.u = u;
        y
    }

    /// Output (5.24) of a state.
    pub fn output(&self, st: &PiState) -> f64 {
        let g = self.envelope.eval(st.u);
        self.q * g + st.x.iter().zip(&self.weights).map(|(x, p)| p * x).sum::<f64>()
    }

    /// Signed area `∮ y du` of the periodic loop for the identity envelope and an input
    /// oscillating between `−A` and `A` (derived, see the tests): each play with `w_i < A` traces a
    /// parallelogram of area `4 w_i (A − w_i)` counterclockwise in the `(u, x_i)` plane, so
    /// `∮ y du = −Σ_{w_i < A} 4 p_i w_i (A − w_i)` (`q u` encloses nothing). Panics for other
    /// envelopes.
    pub fn loop_area(&self, amplitude: f64) -> f64 {
        assert_eq!(
            self.envelope,
            Envelope::Identity,
            "loop_area is derived for γ(v) = v only"
        );
        -self
            .thresholds
            .iter()
            .zip(&self.weights)
            .filter(|(w, _)| **w < amplitude)
            .map(|(w, p)| 4.0 * p * w * (amplitude - w))
            .sum::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piecewise-monotone input given by its turning points, sampled `per_leg` times per leg
    /// (the turning points themselves are samples).
    fn path(turns: &[f64], per_leg: usize) -> Vec<f64> {
        let mut u = vec![turns[0]];
        for leg in turns.windows(2) {
            for j in 1..=per_leg {
                u.push(leg[0] + (leg[1] - leg[0]) * j as f64 / per_leg as f64);
            }
        }
        u
    }

    const TURNS: [f64; 9] = [0.0, 0.9, -0.35, 0.5, 0.1, 1.7, -1.2, -0.4, -0.95];

    #[test]
    fn one_play_with_unit_weight_is_that_play() {
        let w = 0.3;
        let pi = PrandtlIshlinskii::new(0.0, vec![w], vec![1.0]);
        let mut st = pi.state(0.0, 0.0);
        let mut x = 0.0;
        for u in path(&TURNS, 37) {
            let y = pi.advance(&mut st, u);
            // (5.23) written out literally, independently of `play`.
            let literal = (u - w).max((u + w).min(x));
            x = play(x, u, w);
            assert_eq!(y.to_bits(), x.to_bits(), "u = {u}");
            assert_eq!(literal.to_bits(), x.to_bits(), "u = {u}");
        }
    }

    #[test]
    fn output_is_the_explicit_sum_of_plays() {
        let (q, w, p) = (0.7, [0.05, 0.2, 0.45, 0.8, 2.5], [1.3, 0.4, 2.0, 0.25, 5.0]);
        for env in [
            Envelope::Identity,
            Envelope::Tanh {
                c0: 1.5,
                c1: 0.8,
                c2: -0.1,
                c3: 0.2,
            },
        ] {
            let pi = PrandtlIshlinskii::new(q, w.to_vec(), p.to_vec()).with_envelope(env);
            let mut st = pi.state(0.0, 0.1);
            let mut xs: Vec<f64> = w.iter().map(|wi| play(0.1, env.eval(0.0), *wi)).collect();
            for u in path(&TURNS, 23) {
                let y = pi.advance(&mut st, u);
                let g = env.eval(u);
                let mut sum = q * g;
                let mut scale = (q * g).abs();
                for i in 0..w.len() {
                    xs[i] = play(xs[i], g, w[i]);
                    sum += p[i] * xs[i];
                    scale += (p[i] * xs[i]).abs();
                }
                // Same terms in the same order: equal up to (here: exactly) summation rounding.
                assert!((y - sum).abs() <= 8.0 * f64::EPSILON * scale, "u = {u}: {y} vs {sum}");
                assert!((y - pi.output(&st)).abs() <= 8.0 * f64::EPSILON * scale);
            }
        }
    }

    /// Rate independence: the output at the common samples does not depend on how densely the
    /// monotone legs are sampled, as long as the turning points are samples.
    #[test]
    fn output_does_not_depend_on_sampling_density() {
        let pi = PrandtlIshlinskii::generalized(0.5, [2.0, 0.7, -0.1, 0.3], 1.2, 0.4, 0.15, 6);
        let coarse = path(&TURNS, 1);
        let fine = path(&TURNS, 1000);
        let (mut a, mut b) = (pi.state(0.0, 0.0), pi.state(0.0, 0.0));
        let ya: Vec<f64> = coarse.iter().map(|u| pi.advance(&mut a, *u)).collect();
        let yb: Vec<f64> = fine.iter().map(|u| pi.advance(&mut b, *u)).collect();
        for (j, y) in ya.iter().enumerate() {
            let yf = yb[j * 1000];
            assert!((y - yf).abs() < 1e-13, "turn {j}: {y} vs {yf}");
        }
    }

    /// With `γ(v) = a v` every play output stays within `w_i` of `γ(u)` once inside its band, so
    /// `|y − (q + Σp_i) a u| ≤ Σ p_i w_i` (derived), with equality after a monotone swing longer
    /// than `2 max w_i`. With `w_i = ε i → 0` the PI output tends to `(q + Σp) a u`, linearly in ε.
    #[test]
    fn vanishing_thresholds_give_a_linear_map() {
        let (q, a, p) = (0.4, 1.7, [0.5, 1.0, 2.0, 0.25]);
        let gain = (q + p.iter().sum::<f64>()) * a;
        let mut errors = Vec::new();
        for eps in [1e-1, 1e-2, 1e-3, 1e-4] {
            let w: Vec<f64> = (1..=p.len()).map(|i| eps * i as f64).collect();
            let bound: f64 = p.iter().zip(&w).map(|(p, w)| p * w).sum();
            let pi = PrandtlIshlinskii::new(q, w, p.to_vec()).with_envelope(Envelope::Linear(a));
            let mut st = pi.state(0.0, 0.0);
            let mut max_err = 0.0f64;
            for u in path(&TURNS, 50) {
                let err = (pi.advance(&mut st, u) - gain * u).abs();
                assert!(err <= bound * (1.0 + 1e-12) + 1e-14, "ε = {eps}: {err} > {bound}");
                max_err = max_err.max(err);
            }
            // The bound is attained (every leg of TURNS is longer than 2·4ε for ε ≤ 0.1).
            assert!((max_err - bound).abs() <= 1e-12, "ε = {eps}: {max_err} vs {bound}");
            errors.push(max_err);
        }
        for e in errors.windows(2) {
            assert!((e[0] / e[1] - 10.0).abs() < 1e-6, "error not linear in ε: {errors:?}");
        }
    }

    /// Loop area, derived: for `γ(v) = v`, `u` oscillating between `−A` and `A` and a play of
    /// half-width `w < A`, the periodic play output rises along `x = max(−A + w, u − w)` and falls
    /// along `x = min(A − w, u + w)`. The loop is the parallelogram with vertices `(−A, −A + w)`,
    /// `(−A + 2w, −A + w)`, `(A, A − w)`, `(A − 2w, A − w)`: horizontal sides `2w`, height
    /// `2(A − w)`, area `4 w (A − w)`. The falling branch lies above the rising one, so
    /// `∮ x du = ∫_{−A}^{A} (x_rise − x_fall) du = −4 w (A − w)` (counterclockwise; its stop
    /// `u − x` gives the clockwise `+4w(A − w)` of `MaxwellSlip::loop_area`). A play with `w ≥ A`
    /// started inside its band never moves: area 0. `q u` encloses no area.
    ///
    /// Numeric check: trapezoidal `∮ y du` over the second period of `u = A sin θ` (the first
    /// reaches `A` and saturates every play with `w < A`). `y(u)` is piecewise linear along each
    /// branch and the turning points `θ = π/2, 3π/2` are samples, so the rule is exact except on
    /// the two sample intervals per play containing a slope kink, each in error by at most
    /// `p_i h²/8` for interval length `h ≤ A·2π/n` (derived: the trapezoid error of
    /// `p max(0, u − c)` over `[a, b] ∋ c` is `p (b − c)(c − a)/2 ≤ p h²/8`).
    #[test]
    fn loop_area_matches_the_derived_parallelograms() {
        let amp = 1.3;
        let w = [0.1, 0.35, 0.7, 1.0, 1.6];
        let p = [2.0, 1.0, 0.5, 0.8, 3.0];
        let pi = PrandtlIshlinskii::new(0.9, w.to_vec(), p.to_vec());
        let derived = pi.loop_area(amp);
        let by_hand = -(4.0 * 2.0 * 0.1 * 1.2 + 4.0 * 0.35 * 0.95 + 4.0 * 0.5 * 0.7 * 0.6 + 4.0 * 0.8 * 0.3);
        assert!((derived - by_hand).abs() < 1e-12);

        let n = 40_000; // divisible by 4: the extrema are samples
        let mut st = pi.state(0.0, 0.0);
        let (mut area, mut u_prev, mut y_prev) = (0.0, 0.0, 0.0);
        for j in 1..=2 * n {
            let u = amp * (2.0 * std::f64::consts::PI * j as f64 / n as f64).sin();
            let y = pi.advance(&mut st, u);
            if j > n {
                area += 0.5 * (y + y_prev) * (u - u_prev);
            }
            (u_prev, y_prev) = (u, y);
        }
        let h = amp * 2.0 * std::f64::consts::PI / n as f64;
        let kinks: f64 = w
            .iter()
            .zip(&p)
            .filter(|(w, _)| **w < amp)
            .map(|(_, p)| 2.0 * p * h * h / 8.0)
            .sum();
        // Rounding: 2n products of size ≤ max|y|·h, each with relative error of a few ε.
        let y_max = 0.9 * amp + p.iter().map(|p| p * amp).sum::<f64>();
        let rounding = 2.0 * n as f64 * 4.0 * f64::EPSILON * y_max * h;
        let diff = (area - derived).abs();
        eprintln!(
            "PI loop area: derived {derived:.12}, numeric {area:.12}, |diff| {diff:.3e}, bound {:.3e}",
            kinks + rounding
        );
        assert!(diff <= kinks + rounding, "{area} vs {derived}");
    }

    /// Table 5.1 (L2256–L2262) values through the constructors: `p(w_k) = 4.6403 e^{0.1909·1.1386 k}`
    /// = 5.767, 7.167, 8.907 (derived, catalog M13 (vi)); `γ` ranges over
    /// `(c3 − c0, c3 + c0) = (−4.359, 3.822)` (derived).
    #[test]
    fn table_5_1_weights_and_envelope_range() {
        let c = [4.0904, 0.7774, -0.0666, -0.2686];
        let pi = PrandtlIshlinskii::generalized(11.9609, c, 4.6403, -0.1909, 1.1386, 3);
        let expected = [5.767, 7.167, 8.907];
        for (p, e) in pi.weights.iter().zip(expected) {
            assert!((p - e).abs() < 5e-4, "{p} vs {e}");
        }
        assert!((pi.thresholds[2] - 3.4158).abs() < 1e-12);
        assert!((pi.envelope.eval(1e3) - 3.8218).abs() < 1e-12);
        assert!((pi.envelope.eval(-1e3) + 4.359).abs() < 1e-12);
        // Not odd (catalog M13 (iv)): γ(0) = c0 tanh(c2) + c3 ≠ 0.
        assert!(pi.envelope.eval(0.0) < -0.5);
    }
}
