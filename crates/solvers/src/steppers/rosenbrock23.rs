//! Rosenbrock 2(3), Shampine & Reichelt (1997): the L-stable pair of MATLAB's `ode23s`, with
//! its own continuous extension; for stiff problems (LuGre with σ0 = 1e4…1e5).

use super::{err_norm, SolveError, Stats, Stepper, Tolerances};
use crate::fd_jacobian::{fd_jacobian_banded, fd_jacobian_dense, rosenbrock_increment, Divisor};
use crate::linalg::{Lu, Shape};
use crate::OdeSystem;

pub(super) struct Rosenbrock23 {
    n: usize,
    f0: Vec<f64>,
    f1: Vec<f64>,
    f2: Vec<f64>,
    k1: Vec<f64>,
    k2: Vec<f64>,
    k3: Vec<f64>,
    dfdt: Vec<f64>,
    shape: Shape,
    /// `J`: row-major, or in band storage (see [`OdeSystem::jacobian_banded`]).
    jac: Vec<f64>,
    /// `I − h d J`, factored.
    w: Lu<f64>,
    y1: Vec<f64>,
    ytmp: Vec<f64>,
    err: Vec<f64>,
    x_old: Vec<f64>,
    h: f64,
    jac_fresh: bool,
}

const RD: f64 = 1.0 / (2.0 + std::f64::consts::SQRT_2);
const RE32: f64 = 6.0 + std::f64::consts::SQRT_2;

impl Rosenbrock23 {
    pub(super) fn new(n: usize, band: Option<(usize, usize)>) -> Self {
        let v = || vec![0.0; n];
        let shape = Shape::of(n, band);
        Self {
            n,
            f0: v(),
            f1: v(),
            f2: v(),
            k1: v(),
            k2: v(),
            k3: v(),
            dfdt: v(),
            shape,
            jac: vec![0.0; shape.jac_len(n)],
            w: Lu::new(n, shape),
            y1: v(),
            ytmp: v(),
            err: v(),
            x_old: v(),
            h: 0.0,
            jac_fresh: false,
        }
    }

    fn jacobian<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], h: f64, stats: &mut Stats) {
        let n = self.n;
        stats.jac_evals += 1;
        if let Shape::Band { kl, ku } = self.shape {
            if !sys.jacobian_banded(t, x, &mut self.jac) {
                // Forward differences, columns grouped.
                let evals = fd_jacobian_banded(
                    sys,
                    t,
                    x,
                    &self.f0,
                    (kl, ku),
                    rosenbrock_increment,
                    &mut self.ytmp,
                    &mut self.f2,
                    &mut self.jac,
                );
                stats.rhs_evals += evals;
                stats.jac_rhs_evals += evals;
            }
        } else if !sys.jacobian(t, x, &mut self.jac) {
            // Forward differences, column by column.
            let evals = fd_jacobian_dense(
                sys,
                t,
                x,
                &self.f0,
                rosenbrock_increment,
                Divisor::Nominal,
                &mut self.ytmp,
                &mut self.f2,
                &mut self.jac,
            );
            stats.rhs_evals += evals;
            stats.jac_rhs_evals += evals;
        }
        // Time derivative of f by a forward difference (the inputs are smooth in t).
        let dt = f64::EPSILON.sqrt() * t.abs().max(h.abs()).max(1e-8);
        sys.rhs(t + dt, x, &mut self.f2);
        stats.rhs_evals += 1;
        for i in 0..n {
            self.dfdt[i] = (self.f2[i] - self.f0[i]) / dt;
        }
        self.jac_fresh = true;
    }
}

impl Stepper for Rosenbrock23 {
    fn err_order(&self) -> f64 {
        3.0
    }
    fn init<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats) {
        sys.rhs(t, x, &mut self.f0);
        stats.rhs_evals += 1;
        self.jac_fresh = false;
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
        if !self.jac_fresh {
            self.jacobian(sys, t, x, h, stats);
        }
        match self.shape {
            Shape::Dense => {
                for i in 0..n {
                    for j in 0..n {
                        self.w.a[i * n + j] = if i == j { 1.0 } else { 0.0 } - h * RD * self.jac[i * n + j];
                    }
                }
            }
            Shape::Band { .. } => self.w.set_band(&self.jac, |v| 0.0 - h * RD * v, |a| a + 1.0),
        }
        if !self.w.factor() {
            return Err(SolveError::SingularMatrix { t });
        }
        for i in 0..n {
            self.k1[i] = self.f0[i] + h * RD * self.dfdt[i];
        }
        self.w.solve(&mut self.k1);
        for i in 0..n {
            self.ytmp[i] = x[i] + 0.5 * h * self.k1[i];
        }
        sys.rhs(t + 0.5 * h, &self.ytmp, &mut self.f1);
        for i in 0..n {
            self.k2[i] = self.f1[i] - self.k1[i];
        }
        self.w.solve(&mut self.k2);
        for i in 0..n {
            self.k2[i] += self.k1[i];
            self.y1[i] = x[i] + h * self.k2[i];
        }
        sys.rhs(t + h, &self.y1, &mut self.f2);
        for i in 0..n {
            self.k3[i] =
                self.f2[i] - RE32 * (self.k2[i] - self.f1[i]) - 2.0 * (self.k1[i] - self.f0[i]) + h * RD * self.dfdt[i];
        }
        self.w.solve(&mut self.k3);
        stats.rhs_evals += 2;
        for i in 0..n {
            self.err[i] = h / 6.0 * (self.k1[i] - 2.0 * self.k2[i] + self.k3[i]);
        }
        if !self.y1.iter().all(|v| v.is_finite()) {
            return Ok(f64::INFINITY);
        }
        Ok(err_norm(&self.err, x, &self.y1, tol))
    }
    fn accept(&mut self, x_old: &[f64], h: f64, x: &mut [f64]) {
        self.x_old.copy_from_slice(x_old);
        self.h = h;
        x.copy_from_slice(&self.y1);
        std::mem::swap(&mut self.f0, &mut self.f2);
        self.jac_fresh = false;
    }
    fn dense(&self, s: f64, out: &mut [f64]) {
        let a = s * (1.0 - s) / (1.0 - 2.0 * RD);
        let b = s * (s - 2.0 * RD) / (1.0 - 2.0 * RD);
        for i in 0..out.len() {
            out[i] = self.x_old[i] + self.h * (a * self.k1[i] + b * self.k2[i]);
        }
    }
    fn f0(&self) -> &[f64] {
        &self.f0
    }
}
