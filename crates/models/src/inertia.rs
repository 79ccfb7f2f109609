//! An inertia driven by a torque `u(t)` with viscous friction and a friction law driven by its
//! own motion, report Appendix C (Fig C.2, L2545) and (3.29)/(4.1):
//! `J θ'' = u − α θ' − F(θ, θ', x)`. State `[θ, θ', x…]` with the law's states `x`.
//!
//! The equation of motion is written here once ([`Inertia::motion`]) for every inertia driven by
//! a law that is [`InputDriven`]: this model, the PID loop ([`crate::pid::PidLoop`]) and the
//! describing-function runs' torque-driven plant. (`bliman_sorine::Inertia` keeps its own: it
//! sums the two friction states in another order, and carries the full analytic Jacobian,
//! which the law's state Jacobian alone cannot give.)

use crate::InputDriven;

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lugre::LuGre;

    /// At rest with a deflected bristle the inertia feels `−σ0 z` and the bristle does not move.
    #[test]
    fn right_hand_side_at_rest() {
        let m = Inertia {
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
        };
        let mut dx = [0.0; 3];
        m.rhs(0.1, 0.0, &[0.5, 0.0, 1e-3], &mut dx);
        assert_eq!(dx[0], 0.0);
        assert!((dx[1] - (0.1 - 0.26) / 0.0025).abs() < 1e-12);
        assert_eq!(dx[2], 0.0);
    }
}
