//! Coulomb friction, thesis eqs. (1.16)–(1.19), and the force-driven mass–spring
//! `m x'' + K x = u − F_f` with set-valued `F_f ∈ F_C sign(v)` (1.18).
//!
//! The mass–spring is a hybrid automaton: in `Stick` the mass rests while the applied force
//! `u − K x` stays inside `[−F_C, F_C]`; in `Slip(s)` it moves with friction `s F_C`. The guards and
//! jumps are stated here as data; a solver locates them (see `fric-solvers::hybrid`).
//! Typo corrected: L415 writes `sign(v) ≜ [0,1]`; the meaning (1.19) is `sign(0) = [−1, 1]`.

use crate::sgn;

/// Coulomb friction force for a nonzero velocity, (1.17). At `v = 0` the force is set-valued;
/// this returns `0` there (the midpoint of the set).
pub fn force(fc: f64, v: f64) -> f64 {
    fc * sgn(v)
}

/// The classical static friction maps of the report (Gäfvert 1996) (1.2)–(1.5) for `v ≠ 0`:
/// Coulomb `F_C sgn v`, plus viscous `F_v |v|^δ sgn v` (δ = 1: linear (1.4); δ ∈ {1/3, 2/3}:
/// (1.5)), plus a Stribeck drop from `F_s` to `F_C` (no formula in the report; the Gaussian
/// `(F_s − F_C) e^{−(v/v_s)²}` when `v_s > 0`). Stiction (1.3) is the set `[−F_s, F_s]` at
/// `v = 0`, which a curve draws as a vertical segment.
pub fn static_map(v: f64, fc: f64, fs: f64, fv: f64, delta: f64, vs: f64) -> f64 {
    let stribeck = if vs > 0.0 {
        (fs - fc) * (-(v / vs).powi(2)).exp()
    } else {
        0.0
    };
    sgn(v) * (fc + stribeck + fv * v.abs().powf(delta))
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    Stick,
    /// Sliding with velocity sign `+1.0` or `-1.0`.
    Slip(f64),
}

#[derive(Clone, Copy, Debug)]
pub struct MassSpring {
    pub m: f64,
    pub k: f64,
    pub fc: f64,
}

impl MassSpring {
    /// Net applied force on the mass, spring included.
    pub fn applied(&self, u: f64, x: &[f64]) -> f64 {
        u - self.k * x[0]
    }
    /// `x = [position, velocity]`.
    pub fn rhs(&self, mode: Mode, u: f64, x: &[f64], dx: &mut [f64]) {
        match mode {
            Mode::Stick => {
                dx[0] = 0.0;
                dx[1] = 0.0;
            }
            Mode::Slip(s) => {
                dx[0] = x[1];
                dx[1] = (self.applied(u, x) - s * self.fc) / self.m;
            }
        }
    }
    /// Friction force in a mode (in `Stick` it balances the applied force).
    pub fn friction(&self, mode: Mode, u: f64, x: &[f64]) -> f64 {
        match mode {
            Mode::Stick => self.applied(u, x),
            Mode::Slip(s) => s * self.fc,
        }
    }
    /// Number of guards in a mode: stick has two (break-away forward and backward), slip one
    /// (the velocity reaching zero).
    pub fn n_guards(&self, mode: Mode) -> usize {
        match mode {
            Mode::Stick => 2,
            Mode::Slip(_) => 1,
        }
    }
    /// Guard functions; each triggers when it crosses zero from below (rising).
    pub fn guards(&self, mode: Mode, u: f64, x: &[f64], g: &mut [f64]) {
        match mode {
            Mode::Stick => {
                let f = self.applied(u, x);
                g[0] = f - self.fc;
                g[1] = -f - self.fc;
            }
            Mode::Slip(s) => g[0] = -s * x[1],
        }
    }
    /// The mode entered when a guard fires; may reset the state (`v = 0` on sticking).
    /// `du` is the input rate, deciding a graze exactly on the boundary.
    pub fn jump(&self, mode: Mode, guard: usize, u: f64, du: f64, x: &mut [f64]) -> Mode {
        match mode {
            Mode::Stick => {
                if guard == 0 {
                    Mode::Slip(1.0)
                } else {
                    Mode::Slip(-1.0)
                }
            }
            Mode::Slip(s) => {
                x[1] = 0.0;
                let f = self.applied(u, x);
                if f.abs() < self.fc {
                    Mode::Stick
                } else if sgn(f) == s || (f.abs() == self.fc && sgn(du) == s) {
                    // The velocity grazes zero with the applied force still at or beyond the
                    // static limit in the direction of motion: sliding continues.
                    Mode::Slip(s)
                } else {
                    Mode::Slip(-s)
                }
            }
        }
    }
    /// The mode for an initial state.
    pub fn initial_mode(&self, u: f64, x: &[f64]) -> Mode {
        let f = self.applied(u, x);
        if x[1] != 0.0 {
            Mode::Slip(sgn(x[1]))
        } else if f.abs() <= self.fc {
            Mode::Stick
        } else {
            Mode::Slip(sgn(f))
        }
    }
    /// Equilibria band (1.19): `x̄ ∈ [(ū − F_C)/K, (ū + F_C)/K]`.
    pub fn equilibria(&self, u: f64) -> (f64, f64) {
        ((u - self.fc) / self.k, (u + self.fc) / self.k)
    }
    /// DC hysteresis loop area `∮ x du` for `u = A sin ωt`, `A > F_C` (derived: the parallelogram
    /// with stick segments at `x = ±(A − F_C)/K` and slip segments on `x = (u ∓ F_C)/K`),
    /// `−4 F_C (A − F_C)/K`: counterclockwise in (u, x).
    pub fn dc_loop_area(&self, amplitude: f64) -> f64 {
        -4.0 * self.fc * (amplitude - self.fc) / self.k
    }
}
