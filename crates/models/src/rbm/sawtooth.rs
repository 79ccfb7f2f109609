//! The sawtooth approximation (3.48)–(3.49) and the fixed-friction bristle model (FFBM).

use super::Side;

/// Sawtooth approximation (3.48)–(3.49), `F_min ≤ |F| < F_max`, period `Δ` (L1166–L1178).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sawtooth {
    pub f_min: f64,
    pub f_max: f64,
    pub delta: f64,
}

impl Sawtooth {
    fn slope(&self) -> f64 {
        (self.f_max - self.f_min) / self.delta
    }
    /// (3.48) `F_f^r(x)` with the floored modulus.
    pub fn right(&self, x: f64) -> f64 {
        self.f_min + self.slope() * x.rem_euclid(self.delta)
    }
    /// (3.49) `F_f^l(x)`.
    pub fn left(&self, x: f64) -> f64 {
        -(self.f_min + self.slope() * (-x).rem_euclid(self.delta))
    }
    /// (3.47): `F_f^r` for `v ≥ 0`, `F_f^l` for `v < 0`.
    pub fn force(&self, v: f64, x: f64) -> f64 {
        if v >= 0.0 {
            self.right(x)
        } else {
            self.left(x)
        }
    }
    /// Lattice cell `k` with `x ∈ [kΔ, (k+1)Δ)`.
    pub fn cell(&self, x: f64) -> i64 {
        (x / self.delta).floor() as i64
    }
    /// (3.48)/(3.49) with a frozen cell `k` (smooth, linear in `x`).
    pub fn force_in(&self, s: Side, k: i64, x: f64) -> f64 {
        let k = k as f64 * self.delta;
        match s {
            Side::Plus => self.f_min + self.slope() * (x - k),
            Side::Minus => -(self.f_min + self.slope() * (k + self.delta - x)),
        }
    }
    /// Boundary equilibria (3.58): `ū` interval `[K x̄ + F_f^l(x̄), K x̄ + F_f^r(x̄)]` at `x̄`.
    pub fn equilibrium_band(&self, k_spring: f64, x: f64) -> (f64, f64) {
        (k_spring * x + self.left(x), k_spring * x + self.right(x))
    }
}

/// The friction-force-based model (FFBM), thesis (3.65)–(3.67) (L1254–L1302): a single-state
/// model whose steady-state force is the sawtooth (3.47)–(3.49):
/// `ż = v − σ0 |v| z / S(v, x)`, `F_f = σ0 z`, with `S(v, x) = F_min + ((F_max − F_min)/Δ)
/// mod(sign(v) x, Δ) = |F_f^{r/l}(x)|`. S jumps at the lattice points `x ∈ ΔZ`, so an
/// integrator works in one frozen cell `k` (`x ∈ [kΔ, (k+1)Δ]`) at a time, where it is smooth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ffbm {
    pub saw: Sawtooth,
    /// σ0: the stiffness of z (N/m; L1266 calls z a force, but (3.66) makes it a length).
    pub sigma0: f64,
}

impl Ffbm {
    /// `S(v, x) = σ0 z_ss(v, x)` (3.65) in the frozen cell `k`: `F_f^r` for v ≥ 0, `|F_f^l|` for v < 0.
    pub fn level_in(&self, k: i64, v: f64, x: f64) -> f64 {
        let side = if v >= 0.0 { Side::Plus } else { Side::Minus };
        self.saw.force_in(side, k, x).abs()
    }
    /// (3.66) in the frozen cell `k`. Continuous at v = 0 (the factor |v|), smooth in x.
    pub fn z_rate_in(&self, k: i64, v: f64, x: f64, z: f64) -> f64 {
        v - self.sigma0 * v.abs() * z / self.level_in(k, v, x)
    }
    /// (3.66) as written, the cell located from x.
    pub fn z_rate(&self, v: f64, x: f64, z: f64) -> f64 {
        self.z_rate_in(self.saw.cell(x), v, x, z)
    }
    /// (3.67) `F_f = σ0 z`.
    pub fn force(&self, z: f64) -> f64 {
        self.sigma0 * z
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ffbm_steady_state_is_the_sawtooth() {
        // (3.65): σ0 z_ss = |F_f^r(x)| for v > 0 and |F_f^l(x)| for v < 0, at every x; ż = 0 there.
        let f = Ffbm {
            saw: Sawtooth {
                f_min: 1.0,
                f_max: 1.5,
                delta: 0.05,
            },
            sigma0: 1e5,
        };
        for i in -40..40 {
            let x = 0.0123 * i as f64 + 1e-4;
            let (r, l) = (f.saw.right(x), f.saw.left(x));
            assert!((f.z_rate(0.3, x, r / f.sigma0)).abs() < 1e-12, "x = {x}");
            assert!((f.z_rate(-0.3, x, l / f.sigma0)).abs() < 1e-12, "x = {x}");
            // The frozen cell agrees with the located one inside the cell, and continues the
            // tooth linearly past its end.
            let k = f.saw.cell(x);
            assert!((f.level_in(k, 1.0, x) - r).abs() < 1e-12 && (f.level_in(k, -1.0, x) + l).abs() < 1e-12);
            let beyond = (k + 1) as f64 * 0.05 + 0.01;
            assert!((f.level_in(k, 1.0, beyond) - 1.6).abs() < 1e-9);
        }
        // At v = 0 the state does not move, whatever z.
        assert_eq!(f.z_rate(0.0, 0.02, 3e-5), 0.0);
    }

    #[test]
    fn sawtooth_floored_mod() {
        let s = Sawtooth {
            f_min: 0.5,
            f_max: 1.0,
            delta: 0.033,
        };
        assert_eq!(s.right(0.0), 0.5);
        for k in 0..1000 {
            let x = -1.0 + 1.3e-7 + k as f64 * 0.002;
            let (r, l) = (s.right(x), s.left(x));
            assert!((0.5..1.0).contains(&r) && (-1.0..=-0.5).contains(&l));
            let c = s.cell(x);
            assert!((s.force_in(Side::Plus, c, x) - r).abs() < 1e-9);
            assert!((s.force_in(Side::Minus, c, x) - l).abs() < 1e-9, "{x}");
        }
    }
}
