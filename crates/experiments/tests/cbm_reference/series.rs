//! The columns of a reference or a production run and the numbers compared, computed by the
//! same code from either.

use super::reference::{Model, Samples};
use fric_experiments::RunData;

/// The numbers compared, computed by the same code from either run's samples.
#[derive(Debug, Clone, Copy)]
pub struct Numbers {
    /// `∮ u dx` over the window (trapezoid, closed), J (Fig 4.7's `area`).
    pub area: f64,
    /// Fraction of samples stuck over the whole run.
    pub stuck_fraction: f64,
    /// Number of stick phases over the whole run.
    pub sticks: usize,
    pub v_max: f64,
    pub v_min: f64,
    pub y_max: f64,
    /// Least-squares slope of |F_f| on y over the window (Fig 4.8 `slope_f_y`), N/m.
    pub slope_f_y: f64,
    /// Least-squares slope of |F_f| on |v| for |v| > 1e-3 over the window (Fig 4.8), N·s/m.
    pub slope_f_speed: f64,
    /// `∮ F_f dv` over the window (trapezoid, closed), N·m/s (Fig 4.8's `stribeck_area`).
    pub stribeck_area: f64,
}

/// Columns of one run over a sample window, with the friction (4.13) at each sample.
pub struct Series {
    pub t: Vec<f64>,
    pub x: Vec<f64>,
    pub v: Vec<f64>,
    pub y: Vec<f64>,
    pub l: Vec<f64>,
    pub ff: Vec<f64>,
    pub stuck: Vec<bool>,
}

impl Series {
    pub fn from_reference(model: &Model, r: &Samples) -> Series {
        let col = |i: usize| r.s.iter().map(|s| s[i]).collect::<Vec<f64>>();
        Series {
            t: r.t.clone(),
            x: col(0),
            v: col(1),
            y: col(2),
            l: col(4),
            ff: r
                .t
                .iter()
                .zip(&r.s)
                .map(|(&t, s)| model.body.friction(s[1] >= 0.0, s[0], model.height(t, s)))
                .collect(),
            stuck: r.stuck.clone(),
        }
    }
    /// The production's columns; its `Ff` is (4.13) with branch `+` for `v ≥ −η`.
    pub fn from_production(d: &RunData) -> Series {
        let c = |n: &str| d.column(n).map(|c| c.to_vec()).unwrap_or_default();
        Series {
            t: c("t"),
            x: c("x"),
            v: c("v"),
            y: c("y"),
            l: c("l"),
            ff: c("Ff"),
            stuck: c("stuck").iter().map(|&s| s == 1.0).collect(),
        }
    }
    pub fn stick_phases(&self) -> usize {
        let mut n = usize::from(self.stuck.first() == Some(&true));
        n += self.stuck.windows(2).filter(|w| !w[0] && w[1]).count();
        n
    }
    /// The numbers over samples `from..` (`u` from the forced drive, or 0).
    pub fn numbers(&self, from: usize, u: impl Fn(f64) -> f64) -> Numbers {
        self.numbers_range(from, self.t.len() - 1, u)
    }
    pub fn numbers_range(&self, from: usize, to: usize, u: impl Fn(f64) -> f64) -> Numbers {
        let r = from..to + 1;
        let (x, t) = (&self.x[r.clone()], &self.t[r.clone()]);
        let uu: Vec<f64> = t.iter().map(|&t| u(t)).collect();
        let mut area = 0.0;
        for i in 0..x.len() - 1 {
            area += 0.5 * (uu[i] + uu[i + 1]) * (x[i + 1] - x[i]);
        }
        area += 0.5 * (uu[x.len() - 1] + uu[0]) * (x[0] - x[x.len() - 1]);
        let (vv, ff) = (&self.v[r.clone()], &self.ff[r.clone()]);
        let mut stribeck_area = 0.0;
        for i in 0..vv.len() - 1 {
            stribeck_area += 0.5 * (ff[i] + ff[i + 1]) * (vv[i + 1] - vv[i]);
        }
        stribeck_area += 0.5 * (ff[vv.len() - 1] + ff[0]) * (vv[0] - vv[vv.len() - 1]);
        let fabs: Vec<f64> = self.ff[r.clone()].iter().map(|f| f.abs()).collect();
        let (v, y) = (&self.v[r.clone()], &self.y[r.clone()]);
        let speed: Vec<(f64, f64)> = v
            .iter()
            .zip(&fabs)
            .filter(|(v, _)| v.abs() > 1e-3)
            .map(|(v, f)| (v.abs(), *f))
            .collect();
        let max = |s: &[f64]| s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        Numbers {
            area,
            stuck_fraction: self.stuck.iter().filter(|&&s| s).count() as f64 / self.stuck.len() as f64,
            sticks: self.stick_phases(),
            v_max: max(v),
            v_min: v.iter().cloned().fold(f64::INFINITY, f64::min),
            y_max: max(y),
            slope_f_y: slope(&y.iter().cloned().zip(fabs.iter().cloned()).collect::<Vec<_>>()),
            slope_f_speed: slope(&speed),
            stribeck_area,
        }
    }
    pub fn max_in(&self, col: &[f64], t0: f64, t1: f64) -> f64 {
        self.t
            .iter()
            .zip(col)
            .filter(|(t, _)| **t >= t0 && **t <= t1)
            .map(|(_, c)| *c)
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// The numbers of thesis Fig 4.5 (the manifest `thesis/fig4.5`) over a time window, as its
/// metrics define them: `slope_f_y` (F_f on y), `slope_f_v` (F_f on v for v in [1e-3, 1] m/s),
/// `slope_y_v` (y on v, same samples), `ff_swing` (max − min of F_f), `ff_dv` (∫ F_f dv along
/// the window, trapezoid).
#[derive(Debug, Clone, Copy)]
pub struct Fig45 {
    pub slope_f_y: f64,
    pub slope_f_v: f64,
    pub slope_y_v: f64,
    pub ff_swing: f64,
    pub ff_dv: f64,
    /// `|v(t1) − v(t0)|` at the window's first and last samples (the manifest's `v_gap`).
    pub v_gap: f64,
}

impl Series {
    pub fn fig_4_5(&self, t0: f64, t1: f64) -> Fig45 {
        let w: Vec<usize> = (0..self.t.len())
            .filter(|&i| self.t[i] >= t0 && self.t[i] <= t1)
            .collect();
        let pairs = |a: &[f64], b: &[f64], sliding: bool| -> Vec<(f64, f64)> {
            w.iter()
                .filter(|&&i| !sliding || (1e-3..=1.0).contains(&self.v[i]))
                .map(|&i| (a[i], b[i]))
                .collect()
        };
        let f: Vec<f64> = w.iter().map(|&i| self.ff[i]).collect();
        let mut ff_dv = 0.0;
        for k in 1..w.len() {
            let (i, j) = (w[k - 1], w[k]);
            ff_dv += 0.5 * (self.ff[i] + self.ff[j]) * (self.v[j] - self.v[i]);
        }
        Fig45 {
            slope_f_y: slope(&pairs(&self.y, &self.ff, false)),
            slope_f_v: slope(&pairs(&self.v, &self.ff, true)),
            slope_y_v: slope(&pairs(&self.v, &self.y, true)),
            ff_swing: f.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
                - f.iter().cloned().fold(f64::INFINITY, f64::min),
            ff_dv,
            v_gap: (self.v[*w.last().unwrap()] - self.v[w[0]]).abs(),
        }
    }
}

/// Least-squares slope of `b` on `a`.
fn slope(p: &[(f64, f64)]) -> f64 {
    let n = p.len() as f64;
    let (ma, mb) = (
        p.iter().map(|q| q.0).sum::<f64>() / n,
        p.iter().map(|q| q.1).sum::<f64>() / n,
    );
    let cov: f64 = p.iter().map(|q| (q.0 - ma) * (q.1 - mb)).sum();
    let var: f64 = p.iter().map(|q| (q.0 - ma).powi(2)).sum();
    cov / var
}
