//! The rate-independent semilinear Duhem model, duhem-paper eqs. (6)–(10), scalar state:
//! `x' = u'₊ (a₊ x + b₊ u + e₊) + u'₋ (a₋ x + b₋ u + e₋)`, `y = c x + d u`, with
//! `u'₊ = max(0, u')`, `u'₋ = min(0, u')`. Dahl with γ = 1 is the case a₊ = −σ/F_c, e₊ = σ,
//! a₋ = σ/F_c, e₋ = σ, b = 0, c = 1, d = 0 (D-L160).

use crate::InputDriven;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Semilinear {
    pub a_plus: f64,
    pub b_plus: f64,
    pub e_plus: f64,
    pub a_minus: f64,
    pub b_minus: f64,
    pub e_minus: f64,
    pub c: f64,
    pub d: f64,
}

/// `Z(u, u0)` of Theorem 1: `x(u) = e^{a(u−u0)} x(u0) − Z(u, u0)` solves `dx/du = a x + b u + e`.
fn z(a: f64, b: f64, e: f64, u: f64, u0: f64) -> f64 {
    let ex = (a * (u - u0)).exp();
    (u - u0 * ex) * b / a + (1.0 - ex) * b / (a * a) + (1.0 - ex) * e / a
}

impl Semilinear {
    /// Condition (9) for a scalar state: `e^{β a₊} e^{−β a₋} < 1`.
    pub fn condition_9(&self, beta: f64) -> bool {
        (beta * self.a_plus - beta * self.a_minus).exp() < 1.0
    }

    /// The states at the start of the ascending (`x̂₊`, at u_min) and descending (`x̂₋`, at u_max)
    /// branches of the periodic solution, (10). Requires a₊, a₋ ≠ 0.
    pub fn periodic_states(&self, u_min: f64, u_max: f64) -> (f64, f64) {
        let beta = u_max - u_min;
        let zp = z(self.a_plus, self.b_plus, self.e_plus, u_max, u_min);
        let zm = z(self.a_minus, self.b_minus, self.e_minus, u_min, u_max);
        let em = (-beta * self.a_minus).exp();
        let ep = (beta * self.a_plus).exp();
        let xp = -(em * zp + zm) / (1.0 - em * ep);
        let xm = -(ep * zm + zp) / (1.0 - ep * em);
        (xp, xm)
    }

    /// Output of the limiting map H∞ (10) at input `u` on the ascending (`rising`) or descending
    /// branch of the loop between `u_min` and `u_max`.
    pub fn limit_output(&self, u: f64, rising: bool, u_min: f64, u_max: f64) -> f64 {
        let (xp, xm) = self.periodic_states(u_min, u_max);
        let x = if rising {
            (self.a_plus * (u - u_min)).exp() * xp - z(self.a_plus, self.b_plus, self.e_plus, u, u_min)
        } else {
            (self.a_minus * (u - u_max)).exp() * xm - z(self.a_minus, self.b_minus, self.e_minus, u, u_max)
        };
        self.c * x + self.d * u
    }
}

impl InputDriven for Semilinear {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, u: f64, du: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = du.max(0.0) * (self.a_plus * x[0] + self.b_plus * u + self.e_plus)
            + du.min(0.0) * (self.a_minus * x[0] + self.b_minus * u + self.e_minus);
    }
    fn output(&self, u: f64, _du: f64, x: &[f64]) -> f64 {
        self.c * x[0] + self.d * u
    }
    fn jacobian(&self, _u: f64, du: f64, _x: &[f64], j: &mut [f64]) -> bool {
        j[0] = du.max(0.0) * self.a_plus + du.min(0.0) * self.a_minus;
        true
    }
    /// The right-hand side (6) collected in `x`: `x' = a x + b` with
    /// `a = u'₊ a₊ + u'₋ a₋` and `b = u'₊ (b₊ u + e₊) + u'₋ (b₋ u + e₋)`, affine along the input.
    fn affine(&self, u: f64, du: f64) -> Option<(f64, f64)> {
        let (up, um) = (du.max(0.0), du.min(0.0));
        Some((
            up * self.a_plus + um * self.a_minus,
            up * (self.b_plus * u + self.e_plus) + um * (self.b_minus * u + self.e_minus),
        ))
    }
    /// Both coefficients are `|u'|` times `(a₊, b₊ u + e₊)` for `u' > 0` and
    /// `(−a₋, −(b₋ u + e₋))` for `u' < 0` (rate independence, duhem-paper L156).
    fn moves_with_input(&self) -> bool {
        true
    }
    /// With `b₊ = b₋ = 0` the state relaxes towards `−e₊/a₊` on the rising and `−e₋/a₋` on the
    /// falling branch: the larger of the two (`F_C` for Dahl γ = 1). With `b ≠ 0` that target
    /// moves with `u`, whose range the model does not know: 1.
    fn state_scale(&self) -> f64 {
        let s = (self.e_plus / self.a_plus)
            .abs()
            .max((self.e_minus / self.a_minus).abs());
        if self.b_plus == 0.0 && self.b_minus == 0.0 && s.is_finite() && s > 0.0 {
            s
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dahl::Dahl;

    #[test]
    fn dahl_gamma1_as_semilinear_matches_corollary_1() {
        // Duhem Fig 1 values: F_c = 0.75, σ = 1.5, u ∈ [−1, 1].
        let (fc, sigma) = (0.75, 1.5);
        let s = Semilinear {
            a_plus: -sigma / fc,
            b_plus: 0.0,
            e_plus: sigma,
            a_minus: sigma / fc,
            b_minus: 0.0,
            e_minus: sigma,
            c: 1.0,
            d: 0.0,
        };
        assert!(s.condition_9(2.0));
        let tip = Dahl { sigma, fc, gamma: 1.0 }.gamma1_tip(1.0);
        // α̂₊ = −F_c tanh(βσ/(2F_c)) at u_min; the descending branch ends there too.
        assert!((s.limit_output(-1.0, true, -1.0, 1.0) + tip).abs() < 1e-12);
        assert!((s.limit_output(1.0, true, -1.0, 1.0) - tip).abs() < 1e-12);
        assert!((s.limit_output(1.0, false, -1.0, 1.0) - tip).abs() < 1e-12);
        assert!((s.limit_output(-1.0, false, -1.0, 1.0) + tip).abs() < 1e-12);
        // Odd symmetry of the loop.
        assert!((s.limit_output(0.3, true, -1.0, 1.0) + s.limit_output(-0.3, false, -1.0, 1.0)).abs() < 1e-12);
    }

    #[test]
    fn affine_coefficients_reproduce_the_right_hand_side() {
        let s = Semilinear {
            a_plus: -3.0,
            b_plus: 0.5,
            e_plus: 2.0,
            a_minus: 1.5,
            b_minus: -0.4,
            e_minus: 1.0,
            c: 1.2,
            d: 0.3,
        };
        for (u, du, x) in [(0.3, 2.0, -0.7), (-1.1, -0.6, 0.4), (0.9, 0.0, 1.3)] {
            let mut dx = [0.0];
            s.rhs(u, du, &[x], &mut dx);
            let (a, b) = s.affine(u, du).unwrap();
            assert!(
                (a * x + b - dx[0]).abs() <= 1e-15 * dx[0].abs().max(1.0),
                "{u} {du} {x}"
            );
        }
        assert_eq!(s.state_scale(), 1.0);
        let dahl = Semilinear {
            b_plus: 0.0,
            b_minus: 0.0,
            e_plus: 1.5,
            e_minus: 1.5,
            a_plus: -2.0,
            a_minus: 2.0,
            ..s
        };
        assert_eq!(dahl.state_scale(), 0.75);
    }
}
