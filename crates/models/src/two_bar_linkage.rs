//! The preloaded two-bar linkage, thesis eqs. (5.12)–(5.17) (L2111–L2157).
//!
//! Two bars of length `l` and inertia `m_bar` hinged at `Q`; a vertical force `F` acts at `Q`, a
//! spring `k` (relaxed at `q0 = 2 l cos θ0`) and a dashpot `c` act on the horizontal distance
//! `q = 2 l cos θ`; `y = l sin θ` (5.15). The dynamics (5.16), state `[θ, θ', E]` where
//! `E' = c q'²` accumulates the energy dissipated by the dashpot:
//!
//! `M(θ) θ'' + A sinθ cosθ θ'² + 2 k l² (cos θ0 − cos θ) sin θ + 2 c l² sin²θ θ' = −(l cos θ / 2) F`
//! with `A = 2 m l² + (9/8) m_bar l²`, `M(θ) = A sin²θ + (5/24) m_bar l² > 0`.
//!
//! (5.16) is half of Lagrange's equation with kinetic energy `M(θ) θ'²`, potential
//! `½ k (q − q0)²`, Rayleigh dissipation `½ c q'²` and generalized force `−F dy/dθ`, so over a
//! period `∮ y dF = −∮ F dy = ∫ c q'² dt` (tested).
//!
//! (5.17), the same dynamics in `q`, is printed with `(4l² − q²)^{3/2}` on the right; that is
//! `(2 l |sin θ|)³` and loses the sign of `sin θ`: for `θ < 0` the printed right-hand side has the
//! wrong sign (catalog M11). [`Linkage::q_residual`] uses the corrected reading
//! `(4l² − q²) · 2 l sin θ` in place of `(4l² − q²)^{3/2}`.

use crate::InputDriven;

/// Parameters of the preloaded two-bar linkage (SI units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Linkage {
    pub k: f64,
    pub m: f64,
    pub c: f64,
    pub m_bar: f64,
    pub l: f64,
    /// Angle of the relaxed spring, rad.
    pub theta0: f64,
}

impl Linkage {
    fn a(&self) -> f64 {
        (2.0 * self.m + 9.0 / 8.0 * self.m_bar) * self.l * self.l
    }
    /// `M(θ)` of (5.16).
    pub fn mass(&self, th: f64) -> f64 {
        self.a() * th.sin().powi(2) + 5.0 / 24.0 * self.m_bar * self.l * self.l
    }
    /// `y = l sin θ` (5.15).
    pub fn y(&self, th: f64) -> f64 {
        self.l * th.sin()
    }
    /// `q = 2 l cos θ` (5.15).
    pub fn q(&self, th: f64) -> f64 {
        2.0 * self.l * th.cos()
    }
    /// `q0 = 2 l cos θ0`.
    pub fn q0(&self) -> f64 {
        self.q(self.theta0)
    }
    /// The constant force that holds the linkage at angle `θ`, (5.12):
    /// `F = 4 k l sin θ (1 − cos θ0 / cos θ)` for `|θ| < π/2`.
    pub fn equilibrium_force(&self, th: f64) -> f64 {
        4.0 * self.k * self.l * th.sin() * (1.0 - self.theta0.cos() / th.cos())
    }
    /// `dF/dθ` along the equilibria (5.12); an equilibrium is stable iff `dF/dθ < 0` (positive `F`
    /// pushes `θ` down, so the restoring stiffness is `−dF/dθ`).
    pub fn equilibrium_slope(&self, th: f64) -> f64 {
        let c0 = self.theta0.cos();
        4.0 * self.k * self.l * (th.cos() - c0 / th.cos().powi(2))
    }
    /// The fold of (5.12): `cos³ θ_c = cos θ0`, returns `(θ_c, F(θ_c))` with `θ_c > 0`, where
    /// `F(θ_c)` is the largest force of the branch `0 < θ < θ0`.
    pub fn fold(&self) -> (f64, f64) {
        let th = self.theta0.cos().cbrt().acos();
        (th, self.equilibrium_force(th))
    }
    /// Residual of (5.13) at `(F, y)`: `y (1 − l cos θ0 / sqrt(l² − y²)) − F/(4k)`.
    pub fn residual_fy(&self, f: f64, y: f64) -> f64 {
        let l = self.l;
        y * (1.0 - l * self.theta0.cos() / (l * l - y * y).sqrt()) - f / (4.0 * self.k)
    }
    /// Residual of (5.14) at `(F, q)` on the branch `sign = ±1` (the sign of `sin θ`):
    /// `± sqrt(4l² − q²)(1 − 2 l cos θ0 / q) − F/(2k)`.
    pub fn residual_fq(&self, f: f64, q: f64, sign: f64) -> f64 {
        let l = self.l;
        sign * (4.0 * l * l - q * q).sqrt() * (1.0 - 2.0 * l * self.theta0.cos() / q) - f / (2.0 * self.k)
    }
    /// Residual of (5.17) with the corrected right-hand side (see the module text) at a state
    /// `(θ, θ', θ'')`, in terms of `q = 2l cos θ`, `q' = −2l sin θ θ'`,
    /// `q'' = −2l (cos θ θ'² + sin θ θ'')`.
    pub fn q_residual(&self, th: f64, dth: f64, ddth: f64, f: f64) -> f64 {
        let (l, mb) = (self.l, self.m_bar);
        let q = self.q(th);
        let dq = -2.0 * l * th.sin() * dth;
        let ddq = -2.0 * l * (th.cos() * dth * dth + th.sin() * ddth);
        let s = 4.0 * l * l - q * q;
        ((self.m + 9.0 / 16.0 * mb) * s + 5.0 / 12.0 * mb * l * l) * s * ddq
            + 5.0 / 12.0 * mb * l * l * q * dq * dq
            + self.c * dq * s * s
            + self.k * (q - self.q0()) * s * s
            - 0.5 * q * s * (2.0 * l * th.sin()) * f
    }
    /// `θ''` from (5.16).
    pub fn accel(&self, th: f64, dth: f64, f: f64) -> f64 {
        let (l, s, c) = (self.l, th.sin(), th.cos());
        let rhs = -(l * c / 2.0) * f
            - self.a() * s * c * dth * dth
            - 2.0 * self.k * l * l * (self.theta0.cos() - c) * s
            - 2.0 * self.c * l * l * s * s * dth;
        rhs / self.mass(th)
    }
    /// Dissipated power `c q'²`.
    pub fn dissipation(&self, th: f64, dth: f64) -> f64 {
        let dq = -2.0 * self.l * th.sin() * dth;
        self.c * dq * dq
    }
}

/// (5.16) driven by `u = F`, state `[θ, θ', E]` with `E' = c q'²`; output `y`.
impl InputDriven for Linkage {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, u: f64, _du: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = self.accel(x[0], x[1], u);
        dx[2] = self.dissipation(x[0], x[1]);
    }
    fn output(&self, _u: f64, _du: f64, x: &[f64]) -> f64 {
        self.y(x[0])
    }
}

/// The ∧-unimodal output map from `y` to `q` of (5.15): `f(y) = sqrt(4(l² − y²))` (L2156).
pub fn q_of_y(l: f64, y: f64) -> f64 {
    (4.0 * (l * l - y * y)).max(0.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_4;

    fn thesis() -> Linkage {
        Linkage {
            k: 1.0,
            m: 1.0,
            c: 1.0,
            m_bar: 0.5,
            l: 1.0,
            theta0: FRAC_PI_4,
        }
    }

    #[test]
    fn fold_and_equilibria_match_the_catalog() {
        let s = thesis();
        let (th, f) = s.fold();
        assert!((th - 0.47148).abs() < 1e-5 && (f - 0.374807).abs() < 1e-6, "{th} {f}");
        assert!((s.y(th) - 0.45420).abs() < 1e-5 && (s.q(th) - 1.78180).abs() < 1e-5);
        // The fold is the maximum of F on (0, θ0): the slope vanishes there.
        assert!(s.equilibrium_slope(th).abs() < 1e-12);
        // F = 0 equilibria: θ = 0 (unstable) and ±θ0 (stable), L2118, L2123.
        for t in [0.0, FRAC_PI_4, -FRAC_PI_4] {
            assert!(s.equilibrium_force(t).abs() < 1e-15);
        }
        assert!(s.equilibrium_slope(0.0) > 0.0);
        assert!(s.equilibrium_slope(FRAC_PI_4) < 0.0 && s.equilibrium_slope(-FRAC_PI_4) < 0.0);
        // (5.12), (5.13) and (5.14) describe the same set.
        for t in [-1.2, -0.6, -0.2, 0.1, 0.4, 0.9, 1.3] {
            let f = s.equilibrium_force(t);
            assert!(s.residual_fy(f, s.y(t)).abs() < 1e-12);
            assert!(s.residual_fq(f, s.q(t), t.signum()).abs() < 1e-12);
            // Setting θ' = θ'' = 0 in (5.16) gives back (5.12).
            assert!(s.accel(t, 0.0, f).abs() < 1e-12);
        }
    }

    #[test]
    fn corrected_q_form_agrees_with_5_16_for_both_signs_of_theta() {
        let s = thesis();
        for (th, dth, f) in [(0.7, 0.3, 0.2), (-0.7, 0.3, 0.2), (-0.3, -1.1, -0.8), (1.1, 0.5, 0.9)] {
            let dd = s.accel(th, dth, f);
            assert!(s.q_residual(th, dth, dd, f).abs() < 1e-12, "θ = {th}");
            // The printed (5.17), with (4l² − q²)^{3/2} = (2l|sin θ|)³, is violated for θ < 0
            // (unless F = 0).
            let q = s.q(th);
            let sq = 4.0 - q * q;
            let printed =
                s.q_residual(th, dth, dd, f) + 0.5 * q * sq * (2.0 * th.sin()) * f - 0.5 * q * sq.powf(1.5) * f;
            assert_eq!(printed.abs() < 1e-9, th > 0.0, "θ = {th}");
        }
    }

    #[test]
    fn q_map_is_wedge_unimodal() {
        assert_eq!(q_of_y(1.0, 0.0), 2.0);
        assert_eq!(q_of_y(1.0, 1.0), 0.0);
        assert!(q_of_y(1.0, -0.5) < q_of_y(1.0, -0.2) && q_of_y(1.0, 0.2) > q_of_y(1.0, 0.5));
        let s = thesis();
        assert!((q_of_y(1.0, s.y(0.3)) - s.q(0.3)).abs() < 1e-15);
    }

    /// The quasi-static loop area ∮ y dF over |F| ≤ 1 (derived: the two stable branches and the two
    /// jumps at ±F*): `∮ y dF = ∫_{−1}^{1} (y_up(F) − y_down(F)) dF` over the bistable range,
    /// i.e. `2 ∫_{−F*}^{F*} ...`; computed by quadrature along θ on the stable branches.
    #[test]
    fn quasi_static_loop_area() {
        let s = thesis();
        let (thc, fstar) = s.fold();
        // Upper branch (θ > θc) from F = −1 up to F*, then the jump to the lower branch; the
        // lower branch is the mirror image. Area = ∫ (y_upper − y_lower) dF over [−F*, F*].
        // y on the upper branch at F: solve F(θ) = F for θ ∈ (θc, π/2).
        let solve = |f: f64, lo: f64, hi: f64| {
            let r = |th: f64| Ok::<_, std::convert::Infallible>(s.equilibrium_force(th) - f);
            let Ok((a, _, b, _)) = fric_roots::bisect_sign(r, (lo, r(lo).unwrap()), (hi, r(hi).unwrap()), 0.0);
            0.5 * (a + b)
        };
        let n = 20000;
        let mut area = 0.0;
        for i in 0..n {
            let f = -fstar + 2.0 * fstar * (i as f64 + 0.5) / n as f64;
            let up = s.y(solve(f, thc, std::f64::consts::FRAC_PI_2 - 1e-9));
            let down = -s.y(solve(-f, thc, std::f64::consts::FRAC_PI_2 - 1e-9));
            area += (up - down) * 2.0 * fstar / n as f64;
        }
        assert!((area - 1.0340).abs() < 5e-4, "{area}");
    }
}
