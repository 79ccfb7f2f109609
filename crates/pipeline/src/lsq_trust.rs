//! The fit as argmin's trust region sees it (lsq.rs drives it): the cost `½ Σ r_i² / c₀` (`c₀`
//! the start's `Σ r_i²`, so that argmin's absolute thresholds, e.g. Steihaug's 1e-9 on the
//! gradient's norm, are relative to the start) over box-scaled coordinates
//! `z_j = (p_j − start_j) / (hi_j − lo_j)` (a trust radius of 1 spans a parameter's whole box,
//! whatever its unit), with the Gauss–Newton gradient `Jᵀr` and Hessian `JᵀJ` of the
//! forward-difference Jacobian of [`crate::lsq`].
//!
//! Bounds by projection: every evaluation is at the
//! point projected onto the box (`z` beyond a bound maps to that bound exactly), and a parameter
//! on a bound whose descent points out of the box is held (its gradient component and its
//! Hessian row and column, but the diagonal, are zero), so that the model's steps stay inside.

use crate::lsq::{jacobian, Counted, Problem};
use crate::lsq_algebra::sum_sq;
use argmin::core::{CostFunction, Error, Gradient, Hessian};
use std::cell::RefCell;

/// One point evaluated: its parameters, its residuals and, once taken, its Jacobian.
struct Point {
    p: Vec<f64>,
    r: Vec<f64>,
    jac: Option<Vec<Vec<f64>>>,
}

/// The problem in scaled coordinates, the budgeted residuals and the last points evaluated.
pub(crate) struct Scaled<'a, F> {
    pub(crate) pr: &'a Problem,
    pub(crate) c: RefCell<Counted<F>>,
    seen: RefCell<Vec<Point>>,
    /// The last point the cost was asked at (a trial of the trust region), projected.
    pub(crate) trial: RefCell<Vec<f64>>,
    c0: f64,
    /// Per parameter the box's width and the scaled bounds `(lo − start)/w`, `(hi − start)/w`.
    w: Vec<f64>,
    zlo: Vec<f64>,
    zhi: Vec<f64>,
}

impl<'a, F: FnMut(&[f64]) -> Result<Vec<f64>, String>> Scaled<'a, F> {
    /// The problem seen from its start, whose residuals `r0` and Jacobian `jac0` are known.
    pub(crate) fn new(pr: &'a Problem, c: Counted<F>, r0: Vec<f64>, jac0: Vec<Vec<f64>>) -> Self {
        let w: Vec<f64> = pr.lower.iter().zip(&pr.upper).map(|(l, u)| u - l).collect();
        let c0 = sum_sq(&r0);
        Self {
            c: RefCell::new(c),
            seen: RefCell::new(vec![Point {
                p: pr.start.clone(),
                r: r0,
                jac: Some(jac0),
            }]),
            trial: RefCell::new(pr.start.clone()),
            c0: if c0 > 0.0 { c0 } else { 1.0 },
            zlo: (0..w.len()).map(|j| (pr.lower[j] - pr.start[j]) / w[j]).collect(),
            zhi: (0..w.len()).map(|j| (pr.upper[j] - pr.start[j]) / w[j]).collect(),
            w,
            pr,
        }
    }

    /// The start's `Σ r_i²` (1 when 0).
    pub(crate) fn start_cost(&self) -> f64 {
        self.c0
    }

    /// The budgeted residuals back, for a restart.
    pub(crate) fn into_counted(self) -> Counted<F> {
        self.c.into_inner()
    }

    /// `z` projected onto the scaled box.
    pub(crate) fn project(&self, z: &[f64]) -> Vec<f64> {
        (0..z.len()).map(|j| z[j].clamp(self.zlo[j], self.zhi[j])).collect()
    }

    /// The parameters at `z`, projected onto the box: a bound exactly when `z` reaches it.
    pub(crate) fn at(&self, z: &[f64]) -> Vec<f64> {
        let pr = self.pr;
        (0..z.len())
            .map(|j| {
                if z[j] <= self.zlo[j] {
                    pr.lower[j]
                } else if z[j] >= self.zhi[j] {
                    pr.upper[j]
                } else {
                    (pr.start[j] + z[j] * self.w[j]).clamp(pr.lower[j], pr.upper[j])
                }
            })
            .collect()
    }

    /// The residuals at `p`, evaluated unless among the last points.
    pub(crate) fn residuals(&self, p: &[f64]) -> Result<Vec<f64>, String> {
        if let Some(x) = self.seen.borrow().iter().find(|x| x.p == p) {
            return Ok(x.r.clone());
        }
        let r = self.c.borrow_mut().eval(p)?;
        let mut seen = self.seen.borrow_mut();
        if seen.len() >= 4 {
            seen.remove(0);
        }
        seen.push(Point {
            p: p.to_vec(),
            r: r.clone(),
            jac: None,
        });
        Ok(r)
    }

    /// The residuals and the Jacobian at `p`, each evaluated unless known.
    pub(crate) fn jacobian(&self, p: &[f64]) -> Result<(Vec<f64>, Vec<Vec<f64>>), String> {
        let r = self.residuals(p)?;
        if let Some(jac) = self.seen.borrow().iter().find(|x| x.p == p).and_then(|x| x.jac.clone()) {
            return Ok((r, jac));
        }
        let jac = jacobian(&mut self.c.borrow_mut(), self.pr, p, &r)?;
        if let Some(x) = self.seen.borrow_mut().iter_mut().find(|x| x.p == p) {
            x.jac = Some(jac.clone());
        }
        Ok((r, jac))
    }

    /// The scaled gradient and Gauss–Newton Hessian at `z`, a parameter held on its bound where
    /// the descent points outwards.
    fn model(&self, z: &[f64]) -> Result<(Vec<f64>, Vec<Vec<f64>>), String> {
        let p = self.at(z);
        let (r, jac) = self.jacobian(&p)?;
        let n = p.len();
        let mut g: Vec<f64> = (0..n)
            .map(|j| jac.iter().zip(&r).map(|(row, ri)| row[j] * ri).sum::<f64>() * self.w[j] / self.c0)
            .collect();
        let mut h: Vec<Vec<f64>> = (0..n)
            .map(|j| {
                (0..n)
                    .map(|k| jac.iter().map(|row| row[j] * row[k]).sum::<f64>() * self.w[j] * self.w[k] / self.c0)
                    .collect()
            })
            .collect();
        for j in 0..n {
            let out = (p[j] == self.pr.lower[j] && g[j] > 0.0) || (p[j] == self.pr.upper[j] && g[j] < 0.0);
            if out {
                g[j] = 0.0;
                for k in (0..n).filter(|&k| k != j) {
                    h[j][k] = 0.0;
                    h[k][j] = 0.0;
                }
            }
        }
        Ok((g, h))
    }
}

/// A borrowed [`Scaled`] handed to argmin (which owns its problem), so that the caller keeps
/// the budget and the points after the iteration.
pub(crate) struct View<'b, 'a, F>(pub(crate) &'b Scaled<'a, F>);

impl<F: FnMut(&[f64]) -> Result<Vec<f64>, String>> CostFunction for View<'_, '_, F> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, z: &Vec<f64>) -> Result<f64, Error> {
        let p = self.0.at(z);
        let r = self.0.residuals(&p).map_err(Error::msg)?;
        *self.0.trial.borrow_mut() = p;
        Ok(0.5 * sum_sq(&r) / self.0.c0)
    }
}

impl<F: FnMut(&[f64]) -> Result<Vec<f64>, String>> Gradient for View<'_, '_, F> {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, z: &Vec<f64>) -> Result<Vec<f64>, Error> {
        Ok(self.0.model(z).map_err(Error::msg)?.0)
    }
}

impl<F: FnMut(&[f64]) -> Result<Vec<f64>, String>> Hessian for View<'_, '_, F> {
    type Param = Vec<f64>;
    type Hessian = Vec<Vec<f64>>;
    fn hessian(&self, z: &Vec<f64>) -> Result<Vec<Vec<f64>>, Error> {
        Ok(self.0.model(z).map_err(Error::msg)?.1)
    }
}
