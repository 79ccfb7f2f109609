//! Radau IIA, three stages, order 5 (Hairer & Wanner's RADAU5), for stiff problems.
//!
//! The stage equations `Z = h (A ⊗ I) F(Z)` are solved by simplified Newton iterations with a
//! Jacobian `J` frozen over the iteration. `A⁻¹` has one real eigenvalue and a complex pair, so
//! after the transformation `W = T⁻¹ Z` each iteration solves one real system
//! `(μ_r/h − J) ΔW₀ = …` and one complex system `(μ_c/h − J) (ΔW₁ + iΔW₂) = …` instead of a
//! 3n × 3n real one. The error is estimated by Hairer's embedded formula of order 3, filtered
//! through `(μ_r/h − J)⁻¹` so that it stays bounded on stiff components; after a rejection (or
//! on the first step) an estimate above one is refined with one more evaluation of `f`. Step
//! sizes follow Gustafsson's predictive controller with Hairer's Newton-dependent safety factor;
//! `h` is kept when the proposed change is within [1, 1.2] so that the factorisations are
//! reused, and `J` is recomputed only when the Newton iteration converged slowly. The dense
//! output is the cubic collocation polynomial through the stages.
//!
//! If the system declares a banded Jacobian ([`OdeSystem::jacobian_band`]), `J` is kept in band
//! storage (analytic from [`OdeSystem::jacobian_banded`], else by finite differences with
//! `kl + ku + 1` grouped evaluations of `f`) and both iteration matrices are band matrices,
//! factored and solved by the band LU of `linalg.rs`: `O(n kl (kl + ku))` per factorisation
//! instead of `O(n³)`. Otherwise everything is dense, as before.
//!
//! Formulation and constants follow SciPy's `scipy/integrate/_ivp/radau.py` (transformation
//! matrices `T`, `T⁻¹` (written here as the shortest decimals of the same `f64` values),
//! eigenvalues, error and interpolation coefficients), which follows Hairer
//! & Wanner, *Solving ODEs II*, §IV.8. `C`, `E`, the eigenvalues and `P` were evaluated from their
//! closed forms in 50-digit decimal arithmetic; the unit tests check `T⁻¹ A⁻¹ T`, `T T⁻¹ = I`
//! and the interpolation conditions against the Radau IIA tableau.

use crate::fd_jacobian::{fd_jacobian_banded, fd_jacobian_dense, radau_increment, Divisor};
use crate::linalg::{Lu, Shape, C64};
use crate::steppers::{err_norm, SolveError, Stats, Stepper, Tolerances};
use crate::OdeSystem;

/// Nodes `(4 ∓ √6)/10, 1`.
const C: [f64; 3] = [0.1550510257216822, 0.6449489742783178, 1.0];
/// Error estimator weights `(−13 ∓ 7√6)/3, −1/3`.
const E: [f64; 3] = [-10.048809399827416, 1.382142733160749, -0.3333333333333333];
/// Real eigenvalue of `A⁻¹`: `3 + 3^(2/3) − 3^(1/3)`.
const MU_REAL: f64 = 3.637834252744496;
/// Complex eigenvalue of `A⁻¹` used in the transformed system, `α − iβ`.
const MU_COMPLEX: C64 = C64::new(2.6810828736277523, -3.0504301992474105);
const T: [[f64; 3]; 3] = [
    [0.09443876248897524, -0.1412552950209542, 0.03002919410514742],
    [0.2502131229653333, 0.20412935229379994, -0.3829421127572619],
    [1.0, 1.0, 0.0],
];
const TI: [[f64; 3]; 3] = [
    [4.178718591551904, 0.32768282076106237, 0.5233764454994495],
    [-4.178718591551904, -0.32768282076106237, 0.47662355450055044],
    [0.5028726349457868, -2.571926949855605, 0.5960392048282249],
];
/// Collocation polynomial: `u(θ) = y₀ + Σ_k (Σ_i Z_i P[i][k]) θ^(k+1)`.
const P: [[f64; 3]; 3] = [
    [10.048809399827416, -25.62959144707664, 15.580782047249224],
    [-1.382142733160749, 10.296258113743306, -8.914115380582556],
    [0.3333333333333333, -2.6666666666666665, 3.3333333333333335],
];

const NEWTON_MAXITER: usize = 6;

pub(crate) struct Radau5 {
    n: usize,
    newton_tol: f64,
    /// `f(t, x)` at the start of the current step, valid if `f_fresh`.
    f0: Vec<f64>,
    f_fresh: bool,
    /// Structure of `J` and of the iteration matrices.
    shape: Shape,
    /// `J`: row-major, or in band storage (see [`OdeSystem::jacobian_banded`]).
    jac: Vec<f64>,
    /// `J` exists; `jac_current`: it was evaluated at the start of the current step;
    /// `jac_wanted`: evaluate it there before the next Newton iteration.
    jac_valid: bool,
    jac_current: bool,
    jac_wanted: bool,
    /// `μ_r/h − J` and `μ_c/h − J`, factored.
    lu_real: Lu<f64>,
    lu_cplx: Lu<C64>,
    /// Step size the factorisations belong to (NaN: none).
    h_lu: f64,
    z: [Vec<f64>; 3],
    w: [Vec<f64>; 3],
    fz: [Vec<f64>; 3],
    rhs_real: Vec<f64>,
    rhs_cplx: Vec<C64>,
    scal: Vec<f64>,
    ytmp: Vec<f64>,
    y1: Vec<f64>,
    err: Vec<f64>,
    ze: Vec<f64>,
    /// Collocation polynomial of the last accepted step: start value, coefficients, step size.
    y_old: Vec<f64>,
    cont: [Vec<f64>; 3],
    h_old: f64,
    has_poly: bool,
    // Newton statistics of the last attempt.
    n_iter: usize,
    rate: f64,
    newton_failed: bool,
    singular: usize,
    // Step size control.
    first: bool,
    rejected: bool,
    h_acc: f64,
    err_acc: f64,
    /// Spectral radius of `J` (NaN until [`Radau5::spectral_radius`] computed it for this `J`)
    /// and the power iteration's work vectors.
    rho: f64,
    power: [Vec<f64>; 3],
}

impl Radau5 {
    pub(crate) fn new(n: usize, band: Option<(usize, usize)>, tol: &Tolerances) -> Self {
        let v = || vec![0.0; n];
        let shape = Shape::of(n, band);
        Self {
            n,
            newton_tol: (10.0 * f64::EPSILON / tol.rtol).max(0.03f64.min(tol.rtol.sqrt())),
            f0: v(),
            f_fresh: false,
            shape,
            jac: vec![0.0; shape.jac_len(n)],
            jac_valid: false,
            jac_current: false,
            jac_wanted: true,
            lu_real: Lu::new(n, shape),
            lu_cplx: Lu::new(n, shape),
            h_lu: f64::NAN,
            z: [v(), v(), v()],
            w: [v(), v(), v()],
            fz: [v(), v(), v()],
            rhs_real: v(),
            rhs_cplx: vec![C64::default(); n],
            scal: v(),
            ytmp: v(),
            y1: v(),
            err: v(),
            ze: v(),
            y_old: v(),
            cont: [v(), v(), v()],
            h_old: 0.0,
            has_poly: false,
            n_iter: 0,
            rate: 0.0,
            newton_failed: false,
            singular: 0,
            first: true,
            rejected: false,
            h_acc: f64::NAN,
            err_acc: f64::NAN,
            rho: f64::NAN,
            power: [v(), v(), v()],
        }
    }

    /// [`crate::switching::spectral_radius`] of the current Jacobian (0 before there is one),
    /// cached until `J` is evaluated again.
    pub(crate) fn spectral_radius(&mut self) -> f64 {
        if !self.jac_valid {
            return 0.0;
        }
        if self.rho.is_nan() {
            let (n, shape, jac) = (self.n, self.shape, &self.jac);
            let apply = |v: &[f64], w: &mut [f64]| match shape {
                Shape::Dense => {
                    for i in 0..n {
                        w[i] = (0..n).map(|j| jac[i * n + j] * v[j]).sum();
                    }
                }
                Shape::Band { kl, ku } => {
                    let bw = kl + ku + 1;
                    w.iter_mut().for_each(|x| *x = 0.0);
                    for j in 0..n {
                        for i in j.saturating_sub(ku)..=(j + kl).min(n - 1) {
                            w[i] += jac[j * bw + ku + i - j] * v[j];
                        }
                    }
                }
            };
            let [v, w, q] = &mut self.power;
            self.rho = crate::switching::spectral_radius(apply, v, w, q);
        }
        self.rho
    }

    /// `J = ∂f/∂x` at `(t, x)`: analytic if the system provides it, else forward differences
    /// with the increments of [`radau_increment`]. A banded `J` takes `kl + ku + 1` evaluations of `f` with the same
    /// increments (column grouping, [`fd_jacobian_banded`]).
    fn jacobian<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats) {
        stats.jac_evals += 1;
        if let Shape::Band { kl, ku } = self.shape {
            if !sys.jacobian_banded(t, x, &mut self.jac) {
                let evals = fd_jacobian_banded(
                    sys,
                    t,
                    x,
                    &self.f0,
                    (kl, ku),
                    radau_increment,
                    &mut self.ytmp,
                    &mut self.err,
                    &mut self.jac,
                );
                stats.rhs_evals += evals;
                stats.jac_rhs_evals += evals;
            }
        } else if !sys.jacobian(t, x, &mut self.jac) {
            let evals = fd_jacobian_dense(
                sys,
                t,
                x,
                &self.f0,
                radau_increment,
                Divisor::Taken,
                &mut self.ytmp,
                &mut self.err,
                &mut self.jac,
            );
            stats.rhs_evals += evals;
            stats.jac_rhs_evals += evals;
        }
        self.jac_valid = true;
        self.jac_current = true;
        self.jac_wanted = false;
        self.h_lu = f64::NAN;
        self.rho = f64::NAN;
    }

    /// Factor `μ_r/h − J` and `μ_c/h − J`; `false` if either is singular.
    fn factor(&mut self, h: f64) -> bool {
        let n = self.n;
        let (mr, mc) = (MU_REAL / h, C64::new(MU_COMPLEX.re / h, MU_COMPLEX.im / h));
        match self.shape {
            Shape::Dense => {
                let (lr, lc) = (&mut self.lu_real.a, &mut self.lu_cplx.a);
                for i in 0..n {
                    for j in 0..n {
                        let a = -self.jac[i * n + j];
                        lr[i * n + j] = a;
                        lc[i * n + j] = C64::new(a, 0.0);
                    }
                    lr[i * n + i] += mr;
                    lc[i * n + i].re += mc.re;
                    lc[i * n + i].im = mc.im;
                }
            }
            Shape::Band { .. } => {
                self.lu_real.set_band(&self.jac, |v| -v, |a| a + mr);
                self.lu_cplx
                    .set_band(&self.jac, |v| C64::new(-v, 0.0), |a| C64::new(a.re + mc.re, mc.im));
            }
        }
        self.h_lu = f64::NAN;
        if !self.lu_real.factor() || !self.lu_cplx.factor() {
            return false;
        }
        self.h_lu = h;
        true
    }

    /// Simplified Newton iteration for the stage increments `Z` (scipy's
    /// `solve_collocation_system`); returns whether it converged.
    fn newton<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], h: f64, stats: &mut Stats) -> bool {
        let n = self.n;
        // Starting values: the previous collocation polynomial extrapolated to the new nodes.
        for s in 0..3 {
            if self.has_poly {
                let th = 1.0 + C[s] * h / self.h_old;
                let [c0, c1, c2] = &self.cont;
                for i in 0..n {
                    self.z[s][i] = self.y_old[i] + th * (c0[i] + th * (c1[i] + th * c2[i])) - x[i];
                }
            } else {
                self.z[s].fill(0.0);
            }
        }
        for s in 0..3 {
            for i in 0..n {
                self.w[s][i] = TI[s][0] * self.z[0][i] + TI[s][1] * self.z[1][i] + TI[s][2] * self.z[2][i];
            }
        }
        let mr = MU_REAL / h;
        let mc = C64::new(MU_COMPLEX.re / h, MU_COMPLEX.im / h);
        let mut dw_norm_old = f64::NAN;
        let mut rate = f64::NAN;
        self.n_iter = 0;
        for k in 0..NEWTON_MAXITER {
            self.n_iter = k + 1;
            for s in 0..3 {
                for i in 0..n {
                    self.ytmp[i] = x[i] + self.z[s][i];
                }
                sys.rhs(t + C[s] * h, &self.ytmp, &mut self.fz[s]);
            }
            stats.rhs_evals += 3;
            if !self.fz.iter().all(|f| f.iter().all(|v| v.is_finite())) {
                return false;
            }
            let [f1, f2, f3] = &self.fz;
            let [w0, w1, w2] = &self.w;
            for i in 0..n {
                self.rhs_real[i] = TI[0][0] * f1[i] + TI[0][1] * f2[i] + TI[0][2] * f3[i] - mr * w0[i];
                let re = TI[1][0] * f1[i] + TI[1][1] * f2[i] + TI[1][2] * f3[i];
                let im = TI[2][0] * f1[i] + TI[2][1] * f2[i] + TI[2][2] * f3[i];
                // μ_c (w1 + i w2)
                let pr = mc.re * w1[i] - mc.im * w2[i];
                let pi = mc.re * w2[i] + mc.im * w1[i];
                self.rhs_cplx[i] = C64::new(re - pr, im - pi);
            }
            self.lu_real.solve(&mut self.rhs_real);
            self.lu_cplx.solve(&mut self.rhs_cplx);
            let mut ss = 0.0;
            for i in 0..n {
                let sc = self.scal[i];
                let (a, b, c) = (
                    self.rhs_real[i] / sc,
                    self.rhs_cplx[i].re / sc,
                    self.rhs_cplx[i].im / sc,
                );
                ss += a * a + b * b + c * c;
            }
            let dw_norm = (ss / (3 * n.max(1)) as f64).sqrt();
            if k > 0 {
                rate = dw_norm / dw_norm_old;
                if rate >= 1.0
                    || rate.powi((NEWTON_MAXITER - k) as i32) / (1.0 - rate) * dw_norm > self.newton_tol
                    || rate.is_nan()
                {
                    self.rate = rate;
                    return false;
                }
            }
            let [w0, w1, w2] = &mut self.w;
            for i in 0..n {
                w0[i] += self.rhs_real[i];
                w1[i] += self.rhs_cplx[i].re;
                w2[i] += self.rhs_cplx[i].im;
            }
            for s in 0..3 {
                for i in 0..n {
                    self.z[s][i] = T[s][0] * w0[i] + T[s][1] * w1[i] + T[s][2] * w2[i];
                }
            }
            if dw_norm == 0.0 || (k > 0 && rate / (1.0 - rate) * dw_norm < self.newton_tol) {
                self.rate = if k > 0 { rate } else { 0.0 };
                return true;
            }
            dw_norm_old = dw_norm;
        }
        self.rate = rate;
        false
    }
}

impl Stepper for Radau5 {
    fn err_order(&self) -> f64 {
        4.0
    }
    fn init<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats) {
        sys.rhs(t, x, &mut self.f0);
        stats.rhs_evals += 1;
        self.f_fresh = true;
        self.jac_valid = false;
        self.jac_current = false;
        self.jac_wanted = true;
        self.h_lu = f64::NAN;
        self.has_poly = false;
        self.first = true;
        self.rejected = false;
        self.h_acc = f64::NAN;
        self.err_acc = f64::NAN;
        // The rest of what `new` sets, for a stepper reused across calls (`Integrator`).
        self.singular = 0;
        self.rho = f64::NAN;
        self.jac.fill(0.0);
    }
    fn attempt<S: OdeSystem>(
        &mut self,
        sys: &S,
        t: f64,
        x: &[f64],
        h: f64,
        tol: &Tolerances,
        stats: &mut Stats,
    ) -> Result<f64, SolveError> {
        let n = self.n;
        self.newton_failed = false;
        if !self.f_fresh {
            sys.rhs(t, x, &mut self.f0);
            stats.rhs_evals += 1;
            self.f_fresh = true;
        }
        for i in 0..n {
            self.scal[i] = tol.atol + tol.rtol * x[i].abs();
        }
        loop {
            if !self.jac_valid || self.jac_wanted {
                self.jacobian(sys, t, x, stats);
            }
            if self.h_lu != h && !self.factor(h) {
                self.singular += 1;
                if self.singular > 5 {
                    return Err(SolveError::SingularMatrix { t });
                }
                self.newton_failed = true;
                return Ok(f64::INFINITY);
            }
            self.singular = 0;
            if self.newton(sys, t, x, h, stats) {
                break;
            }
            if self.jac_current {
                self.newton_failed = true;
                return Ok(f64::INFINITY);
            }
            // Retry the same step with a Jacobian evaluated here.
            self.jac_wanted = true;
        }
        for i in 0..n {
            self.y1[i] = x[i] + self.z[2][i];
            self.ze[i] = (E[0] * self.z[0][i] + E[1] * self.z[1][i] + E[2] * self.z[2][i]) / h;
            self.err[i] = self.f0[i] + self.ze[i];
        }
        if !self.y1.iter().all(|v| v.is_finite()) {
            return Ok(f64::INFINITY);
        }
        self.lu_real.solve(&mut self.err);
        let mut e = err_norm(&self.err, x, &self.y1, tol);
        if e > 1.0 && (self.first || self.rejected) {
            for i in 0..n {
                self.ytmp[i] = x[i] + self.err[i];
            }
            sys.rhs(t, &self.ytmp, &mut self.err);
            stats.rhs_evals += 1;
            for i in 0..n {
                self.err[i] += self.ze[i];
            }
            self.lu_real.solve(&mut self.err);
            e = err_norm(&self.err, x, &self.y1, tol);
        }
        Ok(if e.is_nan() { f64::INFINITY } else { e })
    }
    fn accept(&mut self, x_old: &[f64], h: f64, x: &mut [f64]) {
        let n = self.n;
        self.y_old.copy_from_slice(x_old);
        let [c0, c1, c2] = &mut self.cont;
        let [z0, z1, z2] = &self.z;
        for i in 0..n {
            c0[i] = z0[i] * P[0][0] + z1[i] * P[1][0] + z2[i] * P[2][0];
            c1[i] = z0[i] * P[0][1] + z1[i] * P[1][1] + z2[i] * P[2][1];
            c2[i] = z0[i] * P[0][2] + z1[i] * P[1][2] + z2[i] * P[2][2];
        }
        self.h_old = h;
        self.has_poly = true;
        x.copy_from_slice(&self.y1);
        self.f_fresh = false;
        self.jac_current = false;
        // Slow convergence: re-evaluate J at the start of the next step.
        self.jac_wanted = self.n_iter > 2 && self.rate > 1e-3;
        self.first = false;
    }
    fn dense(&self, th: f64, out: &mut [f64]) {
        let [c0, c1, c2] = &self.cont;
        for i in 0..out.len() {
            out[i] = self.y_old[i] + th * (c0[i] + th * (c1[i] + th * c2[i]));
        }
    }
    fn f0(&self) -> &[f64] {
        &self.f0
    }
    fn step_factor(&mut self, e: f64, h: f64, accepted: bool) -> Option<f64> {
        if self.newton_failed {
            self.rejected = true;
            return Some(0.5);
        }
        let safety = 0.9 * (2 * NEWTON_MAXITER + 1) as f64 / (2 * NEWTON_MAXITER + self.n_iter) as f64;
        // Gustafsson's predictive controller (Hairer & Wanner IV.8, eq. 8.25).
        let mult = if self.h_acc.is_finite() && self.err_acc.is_finite() && e > 0.0 {
            (h / self.h_acc * (self.err_acc / e).powf(0.25)).min(1.0)
        } else {
            1.0
        };
        let raw = mult * e.max(1e-10).powf(-0.25) * safety;
        if !accepted {
            self.rejected = true;
            return Some(if raw.is_finite() { raw.clamp(0.2, 0.9) } else { 0.2 });
        }
        self.rejected = false;
        self.h_acc = h;
        self.err_acc = e.max(1e-10);
        let f = raw.clamp(0.2, 10.0);
        // Keep h, and with it the factorisations, if the change would be small.
        if !self.jac_wanted && (1.0..=1.2).contains(&f) {
            Some(1.0)
        } else {
            Some(f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Radau IIA tableau (collocation at `C`).
    fn tableau() -> [[f64; 3]; 3] {
        let s6 = 6f64.sqrt();
        [
            [
                (88.0 - 7.0 * s6) / 360.0,
                (296.0 - 169.0 * s6) / 1800.0,
                (-2.0 + 3.0 * s6) / 225.0,
            ],
            [
                (296.0 + 169.0 * s6) / 1800.0,
                (88.0 + 7.0 * s6) / 360.0,
                (-2.0 - 3.0 * s6) / 225.0,
            ],
            [(16.0 - s6) / 36.0, (16.0 + s6) / 36.0, 1.0 / 9.0],
        ]
    }

    fn mul(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
        let mut c = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                c[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
            }
        }
        c
    }

    #[test]
    fn constants_match_their_closed_forms() {
        let s6 = 6f64.sqrt();
        assert!((C[0] - (4.0 - s6) / 10.0).abs() < 1e-16 && (C[1] - (4.0 + s6) / 10.0).abs() < 1e-16);
        assert!((E[0] - (-13.0 - 7.0 * s6) / 3.0).abs() < 1e-14 && (E[1] - (-13.0 + 7.0 * s6) / 3.0).abs() < 1e-14);
        assert!((MU_REAL - (3.0 + 9f64.cbrt() - 3f64.cbrt())).abs() < 1e-14);
        assert!((MU_COMPLEX.re - (3.0 + 0.5 * (3f64.cbrt() - 9f64.cbrt()))).abs() < 1e-14);
        assert!((MU_COMPLEX.im + 0.5 * (3f64.powf(5.0 / 6.0) + 3f64.powf(7.0 / 6.0))).abs() < 1e-14);
        // The collocation conditions Σ_j a_ij c_j^k = c_i^(k+1)/(k+1), k < 3.
        let a = tableau();
        for k in 0..3 {
            for i in 0..3 {
                let q: f64 = (0..3).map(|j| a[i][j] * C[j].powi(k)).sum();
                assert!((q - C[i].powi(k + 1) / (k + 1) as f64).abs() < 1e-15);
            }
        }
    }

    #[test]
    fn transformation_block_diagonalises_the_inverse_tableau() {
        let id = mul(&T, &TI);
        for i in 0..3 {
            for j in 0..3 {
                assert!((id[i][j] - if i == j { 1.0 } else { 0.0 }).abs() < 1e-15, "{id:?}");
            }
        }
        // A⁻¹ from A T Λ T⁻¹ = I ⇔ T⁻¹ A⁻¹ T = Λ: check A T Λ = T instead of inverting A.
        let (a, b) = (MU_COMPLEX.re, -MU_COMPLEX.im);
        let lambda = [[MU_REAL, 0.0, 0.0], [0.0, a, b], [0.0, -b, a]];
        let lhs = mul(&mul(&tableau(), &T), &lambda);
        for i in 0..3 {
            for j in 0..3 {
                assert!((lhs[i][j] - T[i][j]).abs() < 1e-14, "{lhs:?}");
            }
        }
    }

    #[test]
    fn dense_polynomial_interpolates_the_stages() {
        // u(θ) = Σ_k (Σ_i Z_i P[i][k]) θ^(k+1) with Z = e_s must give δ_sj at θ = c_j.
        for s in 0..3 {
            for j in 0..3 {
                let th = C[j];
                let u = P[s][0] * th + P[s][1] * th * th + P[s][2] * th * th * th;
                let want = if s == j { 1.0 } else { 0.0 };
                assert!((u - want).abs() < 1e-13, "s={s} j={j}: {u}");
            }
        }
    }
}
