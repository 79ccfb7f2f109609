//! An inertia driven by a torque `u(t)` with viscous friction and a friction law driven by its
//! own motion, report Appendix C (Fig C.2, L2545) and (3.29)/(4.1):
//! `J θ'' = u − α θ' − F(θ, θ', x)`. State `[θ, θ', x…]` with the law's states `x`.
//!
//! The equation of motion is written here once ([`Inertia::motion`]) for every inertia driven by
//! a law that is [`InputDriven`]: this model (with LuGre, Bliman & Sorine), the PID loop
//! ([`crate::pid::PidLoop`]) and the describing-function runs' torque-driven plant. Its
//! Jacobian is assembled from the law's ([`InputDriven::jacobian`] and
//! [`InputDriven::input_jacobian`]) where the law gives both, so a law with an analytic
//! Jacobian keeps it on the inertia.

use crate::InputDriven;

/// The largest number of law states whose Jacobian scratch [`Inertia::jacobian`] keeps on the
/// stack (a larger law's goes to the heap).
const MAX_STACK_LAW_STATES: usize = 8;

#[derive(Clone, Copy, Debug)]
pub struct Inertia<F> {
    pub j: f64,
    pub alpha: f64,
    /// The friction law, driven by the angle (its input `u`) and the velocity (`u'`).
    pub friction: F,
}

impl<F: InputDriven> Inertia<F> {
    /// The friction law's output at state `x` (without the viscous `α θ'`).
    pub fn friction_torque(&self, x: &[f64]) -> f64 {
        self.friction.output(x[0], x[1], &x[2..])
    }

    /// `[θ', θ'']` of `J θ'' = u − α θ' − F(θ, θ', z)` at `(θ, θ') = (theta, omega)` with the
    /// law's states `z` under the torque `u`; the law's own rates (driven by `θ`, `θ'`) go to `dz`.
    pub fn motion(&self, u: f64, theta: f64, omega: f64, z: &[f64], dz: &mut [f64]) -> [f64; 2] {
        let f = self.friction.output(theta, omega, z);
        self.friction.rhs(theta, omega, z, dz);
        [omega, (u - self.alpha * omega - f) / self.j]
    }
}

impl<F: InputDriven> InputDriven for Inertia<F> {
    fn dim(&self) -> usize {
        2 + self.friction.dim()
    }
    fn rhs(&self, u: f64, _du: f64, x: &[f64], dx: &mut [f64]) {
        let (motion, law) = dx.split_at_mut(2);
        motion.copy_from_slice(&self.motion(u, x[0], x[1], &x[2..], law));
    }
    /// The friction torque without the viscous part.
    fn output(&self, _u: f64, _du: f64, x: &[f64]) -> f64 {
        self.friction_torque(x)
    }
    /// `∂f/∂x` of `[θ', (u − α θ' − F)/J, z']` with the law driven by `(θ, θ')`: the law's state
    /// Jacobian in the lower right, its input derivatives in the first two columns, and the
    /// output's gradient in the motion row. `false` when the law does not give both.
    fn jacobian(&self, _u: f64, _du: f64, x: &[f64], jac: &mut [f64]) -> bool {
        let (n, m) = (self.dim(), self.friction.dim());
        // Scratch for the law's parts: on the stack up to `MAX_STACK_LAW_STATES` states (every law
        // with input derivatives has at most 2), so the solvers' inner loop does not allocate.
        let mut stack = [0.0; MAX_STACK_LAW_STATES * (MAX_STACK_LAW_STATES + 3)];
        let mut heap = Vec::new();
        let scratch: &mut [f64] = if m <= MAX_STACK_LAW_STATES {
            &mut stack[..m * (m + 3)]
        } else {
            heap.resize(m * (m + 3), 0.0);
            &mut heap
        };
        let (law, rest) = scratch.split_at_mut(m * m);
        let (df_du, rest) = rest.split_at_mut(m);
        let (df_ddu, dy_dx) = rest.split_at_mut(m);
        let (theta, omega, z) = (x[0], x[1], &x[2..]);
        if !self.friction.jacobian(theta, omega, z, law) {
            return false;
        }
        let Some([dy_du, dy_ddu]) = self.friction.input_jacobian(theta, omega, z, df_du, df_ddu, dy_dx) else {
            return false;
        };
        jac.fill(0.0);
        jac[1] = 1.0;
        jac[n] = (0.0 - dy_du) / self.j;
        jac[n + 1] = (-self.alpha - dy_ddu) / self.j;
        for k in 0..m {
            jac[n + 2 + k] = (0.0 - dy_dx[k]) / self.j;
            let row = &mut jac[(2 + k) * n..(3 + k) * n];
            row[0] = df_du[k];
            row[1] = df_ddu[k];
            row[2..].copy_from_slice(&law[k * m..(k + 1) * m]);
        }
        true
    }
    /// The law's: its states are the stiff ones.
    fn state_scale(&self) -> f64 {
        self.friction.state_scale()
    }
    /// θ and θ' on the trait's unit scale (no scale of the motion is known), the law's states on
    /// the law's own: the law's scale (F_s/σ0 ≈ 1e-3 for LuGre) applied to θ and θ' would make
    /// shooting's finite-difference steps on them about 1000× smaller near rest. (Shooting an
    /// inertia whose law ignores θ, as LuGre's does, has a singular Newton matrix in θ and a
    /// drifting θ; no manifest does.)
    fn state_scales(&self) -> Vec<f64> {
        let mut s = vec![1.0, 1.0];
        s.extend(self.friction.state_scales());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bliman_sorine::BlimanSorine;
    use crate::lugre::LuGre;

    /// The LuGre inertia of the tests: report Table 3.3 (L1127), `α = α2 = 0.0177`.
    fn lugre_inertia() -> Inertia<LuGre> {
        Inertia {
            j: 0.0025,
            alpha: 0.0177,
            friction: LuGre {
                sigma0: 260.0,
                sigma1: 1.2,
                sigma2: 0.0,
                fc: 0.279,
                fs: 0.3179,
                vs: 0.1,
            },
        }
    }

    /// The inertia's Jacobian assembled from Bliman & Sorine's (report Table 5.9 set) matches
    /// finite differences of its right-hand side, the motion's rows included.
    #[test]
    fn the_jacobian_from_the_law_matches_finite_differences() {
        let m = Inertia {
            j: 0.0025,
            alpha: 0.018,
            friction: BlimanSorine {
                f1: 0.45,
                f2: 0.23,
                eps: 0.0067,
                eta: 0.28,
            },
        };
        for x in [[0.01, 0.3, 0.2, -0.1], [0.01, -0.3, -0.2, 0.1]] {
            let mut jac = [0.0; 16];
            assert!(m.jacobian(0.3, 0.0, &x, &mut jac));
            let (mut f0, mut f1) = ([0.0; 4], [0.0; 4]);
            m.rhs(0.3, 0.0, &x, &mut f0);
            for c in 0..4 {
                let mut y = x;
                let h = 1e-7 * (1.0 + x[c].abs());
                y[c] += h;
                m.rhs(0.3, 0.0, &y, &mut f1);
                for r in 0..4 {
                    let fd = (f1[r] - f0[r]) / h;
                    assert!(
                        (fd - jac[4 * r + c]).abs() < 1e-5 * (1.0 + fd.abs()),
                        "({r}, {c}): {fd} vs {}",
                        jac[4 * r + c]
                    );
                }
            }
        }
    }

    /// A law without input derivatives (LuGre) leaves the inertia's Jacobian to finite differences.
    #[test]
    fn no_jacobian_without_the_laws_input_derivatives() {
        let m = lugre_inertia();
        assert!(!m.jacobian(0.0, 0.0, &[0.0, 0.1, 1e-3], &mut [0.0; 9]));
    }

    /// Shooting's finite-difference steps scale θ and θ' by 1 and the bristle by the law's
    /// F_s/σ0, not every component by the law's scale.
    #[test]
    fn motion_states_keep_their_own_scale() {
        let m = lugre_inertia();
        let s = m.state_scales();
        assert_eq!(s.len(), m.dim());
        assert_eq!(&s[..2], &[1.0, 1.0]);
        assert_eq!(s[2], m.friction.state_scale());
        assert!(s[2] < 2e-3, "the law's own scale, F_s/σ0 = {}", s[2]);
    }

    /// At rest with a deflected bristle the inertia feels `−σ0 z` and the bristle does not move.
    #[test]
    fn right_hand_side_at_rest() {
        let m = lugre_inertia();
        let mut dx = [0.0; 3];
        m.rhs(0.1, 0.0, &[0.5, 0.0, 1e-3], &mut dx);
        assert_eq!(dx[0], 0.0);
        assert!((dx[1] - (0.1 - 0.26) / 0.0025).abs() < 1e-12);
        assert_eq!(dx[2], 0.0);
    }
}
