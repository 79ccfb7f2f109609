//! PID position control of an inertia with friction, report ch. 5 (Gäfvert 1996): the design
//! rule (5.1)/(5.6) and the heuristic limit-cycle formulas of §5.4, Property 5.1 ((5.12),
//! (5.13), inverse (5.15)) and Property 5.2 ((5.23), (5.24), inverse (5.25) and (5.26)).
//!
//! Gains: the report designs J-normalised gains `k̄′` (Tables 5.2, 5.13, 5.14); the physical
//! gains are `k = J k̄′` ((5.4), L1736). The limit-cycle formulas take physical gains.

use crate::inertia::Inertia;

/// J-normalised PID gains `k̄′_p, k̄′_i, k̄′_d` (Tables 5.2, 5.13, 5.14).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    pub kp: f64,
    pub ki: f64,
    pub kd: f64,
}

/// The design rule (5.1) with the viscous friction in the loop (5.6): the closed loop
/// `s³ + (k̄_d + α/J) s² + k̄_p s + k̄_i` is made `(s² + 2ζ_c ω_c s + ω_c²)(s + n_c ω_c)`.
/// (5.6) writes α where α/J is meant (catalog M2).
pub fn design(omega_c: f64, zeta_c: f64, n_c: f64, alpha_over_j: f64) -> Gains {
    Gains {
        kd: (2.0 * zeta_c + n_c) * omega_c - alpha_over_j,
        kp: omega_c * omega_c * (1.0 + 2.0 * zeta_c * n_c),
        ki: n_c * omega_c.powi(3),
    }
}

/// The `n_c` of (5.1) that gives `k̄′_p` for `ω_c, ζ_c`: `n_c = (k̄′_p/ω_c² − 1)/(2ζ_c)`.
pub fn n_c_of(kp: f64, omega_c: f64, zeta_c: f64) -> f64 {
    (kp / (omega_c * omega_c) - 1.0) / (2.0 * zeta_c)
}

/// Property 5.1, (5.12)–(5.13) (L2063, L2067): symmetric static friction (stiction τ_s, kinetic
/// τ_k) under PID with physical gains `kp, ki`: the error amplitude and the period,
/// `a_e = (τ_s − τ_k)/(2 k_p)`, `T = (4 k_p/k_i)(τ_s + τ_k)/(τ_s − τ_k)`.
pub fn property_5_1(tau_s: f64, tau_k: f64, kp: f64, ki: f64) -> (f64, f64) {
    let d = tau_s - tau_k;
    (d / (2.0 * kp), 4.0 * kp / ki * (tau_s + tau_k) / d)
}

/// The inverse (5.15) (L2086): `τ_s = (k_i T/4 + k_p) a_e`, `τ_k = (k_i T/4 − k_p) a_e`.
pub fn property_5_1_inverse(a_e: f64, period: f64, kp: f64, ki: f64) -> (f64, f64) {
    ((ki * period / 4.0 + kp) * a_e, (ki * period / 4.0 - kp) * a_e)
}

/// Property 5.2 needs the same stiction–kinetic difference in both directions (5.22).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnequalDifferences {
    pub minus: f64,
    pub plus: f64,
}

/// Property 5.2, (5.23)–(5.24) (L2152, L2157): asymmetric static friction with
/// `τ_d = τ_s⁻ − τ_k⁻ = τ_s⁺ − τ_k⁺` (to `rel_tol`): `a_e⁺ = a_e⁻ = τ_d/(2 k_p)` and the stick
/// times `T⁺ = T⁻ = (2 k_p/k_i)(τ_k⁺ + τ_k⁻ + τ_d)/τ_d`; the period is `2 T⁺` (L2162).
pub fn property_5_2(
    (tau_s_minus, tau_k_minus): (f64, f64),
    (tau_s_plus, tau_k_plus): (f64, f64),
    kp: f64,
    ki: f64,
    rel_tol: f64,
) -> Result<(f64, f64), UnequalDifferences> {
    let (dm, dp) = (tau_s_minus - tau_k_minus, tau_s_plus - tau_k_plus);
    if (dm - dp).abs() > rel_tol * dm.abs().max(dp.abs()) {
        return Err(UnequalDifferences { minus: dm, plus: dp });
    }
    let d = 0.5 * (dm + dp);
    Ok((d / (2.0 * kp), 2.0 * kp / ki * (tau_k_plus + tau_k_minus + d) / d))
}

/// The inverse of Property 5.2 from `a_e` and the stick time `T⁺` (= T/2): `τ_d = 2 k_p a_e`
/// (5.25) and `τ_k⁺ + τ_k⁻ = (k_i T⁺ − 2 k_p) a_e`, which is (5.26) read with T = T⁺ (as printed
/// with T = 2T⁺ it contradicts (5.23); catalog M7).
pub fn property_5_2_inverse(a_e: f64, t_half: f64, kp: f64, ki: f64) -> (f64, f64) {
    (2.0 * kp * a_e, (ki * t_half - 2.0 * kp) * a_e)
}

/// The closed loop of report Fig 5.1 / Fig C.2: an inertia `J θ'' = u − α θ' − F` under PID
/// control (5.3)–(5.4) toward a constant reference `r`, with a friction law `F` driven by the
/// angle. State `[θ, ω, I, friction states…]` with `I = ∫ e dt`, `e = r − θ`, and
/// `u = k_p e + k_i I − k_d ω`: the derivative acts on the measurement, so a reference step
/// gives no impulse (catalog A1; the limit cycle does not depend on it).
#[derive(Clone, Copy, Debug)]
pub struct PidLoop<F> {
    /// The inertia `J`, its viscous friction `α` and the friction law `F`.
    pub plant: Inertia<F>,
    /// Physical gains `k = J k̄′`.
    pub kp: f64,
    pub ki: f64,
    pub kd: f64,
    pub r: f64,
}

impl<F: crate::InputDriven> PidLoop<F> {
    pub fn dim(&self) -> usize {
        3 + self.plant.friction.dim()
    }
    /// The control signal at state `x`.
    pub fn control(&self, x: &[f64]) -> f64 {
        self.kp * (self.r - x[0]) + self.ki * x[2] - self.kd * x[1]
    }
    /// The friction law's output (without the viscous `α ω`).
    pub fn friction(&self, x: &[f64]) -> f64 {
        self.plant.friction.output(x[0], x[1], &x[3..])
    }
    /// `[θ', θ'', I', law…]`: the inertia's motion ([`Inertia::motion`]) under the control, and
    /// the integral of the error.
    pub fn rhs(&self, x: &[f64], dx: &mut [f64]) {
        let u = self.control(x);
        let (motion, rest) = dx.split_at_mut(2);
        let (integral, law) = rest.split_at_mut(1);
        motion.copy_from_slice(&self.plant.motion(u, x[0], x[1], &x[3..], law));
        integral[0] = self.r - x[0];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_gives_the_characteristic_polynomial() {
        // Table 5.1 → Table 5.2 with α/J = 0.017/0.0025 (catalog M2).
        let g = design(6.0, 0.5, 1.0, 0.017 / 0.0025);
        assert!((g.kp - 72.0).abs() < 1e-12 && (g.ki - 216.0).abs() < 1e-12 && (g.kd - 5.2).abs() < 1e-12);
        // The closed loop s³ + (k_d + α/J)s² + k_p s + k_i has the designed roots.
        let g = design(3.5, 0.58, 2.0, 7.0);
        let p = |s: f64| s.powi(3) + (g.kd + 7.0) * s * s + g.kp * s + g.ki;
        assert!(p(-2.0 * 3.5).abs() < 1e-9);
        assert!((n_c_of(g.kp, 3.5, 0.58) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn properties_invert_and_reduce() {
        let (kp, ki) = (0.18, 0.54);
        let (a, t) = property_5_1(0.38, 0.22, kp, ki);
        let (ts, tk) = property_5_1_inverse(a, t, kp, ki);
        assert!((ts - 0.38).abs() < 1e-12 && (tk - 0.22).abs() < 1e-12);
        // Property 5.2 with equal kinetic levels is Property 5.1 with T = 2 T⁺ (L2159).
        let (a2, th) = property_5_2((0.38, 0.22), (0.38, 0.22), kp, ki, 1e-12).unwrap();
        assert!((a2 - a).abs() < 1e-15 && (2.0 * th - t).abs() < 1e-12);
        let (d, sum) = property_5_2_inverse(a2, th, kp, ki);
        assert!((d - 0.16).abs() < 1e-12 && (sum - 0.44).abs() < 1e-12);
        assert!(property_5_2((0.35, 0.15), (0.45, 0.40), kp, ki, 1e-9).is_err());
    }

    /// The loop without friction is the design's linear closed loop: the Jacobian of the right-hand
    /// side has the characteristic polynomial s³ + (k̄_d + α/J) s² + k̄_p s + k̄_i of (5.6), which
    /// for Table 5.2 is s³ + 12 s² + 72 s + 216 (Table 5.1's poles).
    #[test]
    fn frictionless_loop_has_the_designed_polynomial() {
        struct NoFriction;
        impl crate::InputDriven for NoFriction {
            fn dim(&self) -> usize {
                0
            }
            fn rhs(&self, _: f64, _: f64, _: &[f64], _: &mut [f64]) {}
            fn output(&self, _: f64, _: f64, _: &[f64]) -> f64 {
                0.0
            }
        }
        let j = 0.0025;
        let lp = PidLoop {
            plant: Inertia {
                j,
                alpha: 0.017,
                friction: NoFriction,
            },
            kp: 72.0 * j,
            ki: 216.0 * j,
            kd: 5.2 * j,
            r: 0.3,
        };
        // A = ∂f/∂x by central differences (the loop is linear, so they are exact to rounding).
        let mut a = [[0.0; 3]; 3];
        let x0 = [0.1, -0.2, 0.05];
        for c in 0..3 {
            let (mut xp, mut xm) = (x0, x0);
            xp[c] += 1e-6;
            xm[c] -= 1e-6;
            let (mut fp, mut fm) = ([0.0; 3], [0.0; 3]);
            lp.rhs(&xp, &mut fp);
            lp.rhs(&xm, &mut fm);
            for r in 0..3 {
                a[r][c] = (fp[r] - fm[r]) / 2e-6;
            }
        }
        let tr = a[0][0] + a[1][1] + a[2][2];
        let minors = a[0][0] * a[1][1] - a[0][1] * a[1][0] + a[0][0] * a[2][2] - a[0][2] * a[2][0] + a[1][1] * a[2][2]
            - a[1][2] * a[2][1];
        let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
        // det(sI − A) = s³ − tr s² + minors s − det.
        assert!(
            (-tr - 12.0).abs() < 1e-6 && (minors - 72.0).abs() < 1e-6 && (-det - 216.0).abs() < 1e-5,
            "{tr} {minors} {det}"
        );
        // At the setpoint with no motion only the integral state would move, and not at all with e = 0.
        let mut dx = [0.0; 3];
        lp.rhs(&[0.3, 0.0, 0.0], &mut dx);
        assert_eq!(dx, [0.0, 0.0, 0.0]);
    }
}
