//! Dormand–Prince 8(5,3) (Hairer's DOP853) with its 7th-order continuous extension.
//!
//! Twelve stages per step (the thirteenth, `f(t + h, y_new)`, is the first stage of the next
//! step), an error estimate that combines the 5th- and 3rd-order embedded formulas as
//! `|h| ‖e5‖² / sqrt(‖e5‖² + 0.01 ‖e3‖²)`, and a dense output of degree 7 that needs three more
//! stages, computed only for steps on which dense output is actually requested.
//!
//! The tableau (SciPy's transcription of Hairer's `dop853.f`; `B` is row 12 of `A`) and its
//! consistency test are in `tableau.rs`.

mod tableau;

use crate::steppers::{SolveError, Stats, Stepper, Tolerances};
use crate::OdeSystem;
use tableau::{A, C, D, E3, E5, N_EXT, N_STAGES};

pub(crate) struct Dop853 {
    /// Stages 0..12 of the last attempt (12 = derivative at its end point), 13..16 the extra
    /// stages of the interpolant.
    k: [Vec<f64>; N_EXT],
    y1: Vec<f64>,
    ytmp: Vec<f64>,
    /// `rcont[0]` = start of the step, `rcont[1..8]` the seven interpolation coefficients.
    rcont: [Vec<f64>; 8],
    /// After an accepted step `k[12]` holds the new derivative; it becomes `k[0]` at the next
    /// attempt (not at acceptance: the interpolant still needs the old `k[0]`).
    fsal_pending: bool,
    /// The previous attempt was rejected: the next accepted step may not grow (Hairer).
    rejected: bool,
    /// The error of the last accepted step (0 after `init`). An error that fell more than
    /// twofold since it does not grow the step beyond what half of it would: on a solution
    /// that oscillates within a few steps (the pre-sliding ringing of report ch. 5, ω_n ≈ 290
    /// rad/s, at `h ω_n` ≈ 1–2) the estimate swings with the phase of the oscillation inside
    /// the step, 0.05 then 2.5 at nearly the same `h`, and Hairer's controller grew the step
    /// after each low reading into a rejection: 16–21 % of the attempts on the DF runs of
    /// report Figs 5.22–5.24. With the rule 7–10 %, right-hand sides per period map 8–11 %
    /// fewer; on a smooth solution the error changes little from step to step and the rule
    /// does not act (of `cargo xtask check`'s 723 runs only the 16 DF runs changed).
    e_prev: f64,
}

impl Dop853 {
    pub(crate) fn new(n: usize) -> Self {
        let v = || vec![0.0; n];
        Self {
            k: std::array::from_fn(|_| v()),
            y1: v(),
            ytmp: v(),
            rcont: std::array::from_fn(|_| v()),
            fsal_pending: false,
            rejected: false,
            e_prev: 0.0,
        }
    }
}

/// The state of stage `S`: `y = x + h Σ_{j<S} A[S][j] k_j`, component by component with the
/// terms in order of `j` and zero coefficients skipped. `S` is a constant, so the sum unrolls and
/// the zero tests fold away.
#[inline(always)]
fn stage_state<const S: usize>(y: &mut [f64], x: &[f64], h: f64, k: &[Vec<f64>]) {
    let n = y.len();
    let x = &x[..n];
    let a: [f64; S] = std::array::from_fn(|j| h * A[S][j]);
    let k: [&[f64]; S] = std::array::from_fn(|j| &k[j][..n]);
    for i in 0..n {
        let mut yi = x[i];
        for j in 0..S {
            if A[S][j] != 0.0 {
                yi += a[j] * k[j][i];
            }
        }
        y[i] = yi;
    }
}

impl Stepper for Dop853 {
    fn err_order(&self) -> f64 {
        8.0
    }
    fn init<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats) {
        sys.rhs(t, x, &mut self.k[0]);
        stats.rhs_evals += 1;
        self.fsal_pending = false;
        self.rejected = false;
        self.e_prev = 0.0;
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
        if self.fsal_pending {
            self.k.swap(0, N_STAGES);
            self.fsal_pending = false;
        }
        let n = x.len();
        macro_rules! stages {
            ($($s:literal)*) => {$({
                let y = if $s < N_STAGES { &mut self.ytmp } else { &mut self.y1 };
                stage_state::<$s>(y, x, h, &self.k);
                let (_, rest) = self.k.split_at_mut($s);
                sys.rhs(t + C[$s] * h, y, &mut rest[0]);
            })*};
        }
        stages!(1 2 3 4 5 6 7 8 9 10 11 12);
        stats.rhs_evals += N_STAGES;
        if !self.y1.iter().all(|v| v.is_finite()) {
            return Ok(f64::INFINITY);
        }
        let (mut s5, mut s3) = (0.0, 0.0);
        let k: [&[f64]; N_STAGES + 1] = std::array::from_fn(|j| &self.k[j][..n]);
        for i in 0..n {
            let (mut e5, mut e3) = (0.0, 0.0);
            for j in 0..=N_STAGES {
                e5 += E5[j] * k[j][i];
                e3 += E3[j] * k[j][i];
            }
            let sc = tol.atol + tol.rtol * x[i].abs().max(self.y1[i].abs());
            s5 += (e5 / sc) * (e5 / sc);
            s3 += (e3 / sc) * (e3 / sc);
        }
        let den = s5 + 0.01 * s3;
        if den == 0.0 {
            return Ok(0.0);
        }
        Ok(h.abs() * s5 / (den * n.max(1) as f64).sqrt())
    }
    fn accept(&mut self, x_old: &[f64], _h: f64, x: &mut [f64]) {
        self.rcont[0].copy_from_slice(x_old);
        x.copy_from_slice(&self.y1);
        self.fsal_pending = true;
    }
    fn prepare_dense<S: OdeSystem>(&mut self, sys: &S, t: f64, h: f64, stats: &mut Stats) {
        let n = self.y1.len();
        let x_old = &self.rcont[0];
        macro_rules! stages {
            ($($s:literal)*) => {$({
                let y = &mut self.ytmp;
                stage_state::<$s>(y, x_old, h, &self.k);
                let (_, rest) = self.k.split_at_mut($s);
                sys.rhs(t + C[$s] * h, y, &mut rest[0]);
            })*};
        }
        stages!(13 14 15);
        stats.rhs_evals += N_EXT - N_STAGES - 1;
        let [r0, r1, r2, r3, r4, r5, r6, r7] = &mut self.rcont;
        for i in 0..n {
            let dy = self.y1[i] - r0[i];
            let f_old = self.k[0][i];
            let f_new = self.k[N_STAGES][i];
            r1[i] = dy;
            r2[i] = h * f_old - dy;
            r3[i] = 2.0 * dy - h * (f_new + f_old);
            let mut d = [0.0; 4];
            for (row, dr) in D.iter().zip(d.iter_mut()) {
                let mut acc = 0.0;
                for j in 0..N_EXT {
                    acc += row[j] * self.k[j][i];
                }
                *dr = h * acc;
            }
            r4[i] = d[0];
            r5[i] = d[1];
            r6[i] = d[2];
            r7[i] = d[3];
        }
    }
    fn dense(&self, th: f64, out: &mut [f64]) {
        let th1 = 1.0 - th;
        let [r0, r1, r2, r3, r4, r5, r6, r7] = &self.rcont;
        for i in 0..out.len() {
            out[i] = r0[i]
                + th * (r1[i]
                    + th1 * (r2[i] + th * (r3[i] + th1 * (r4[i] + th * (r5[i] + th1 * (r6[i] + th * r7[i]))))));
        }
    }
    fn f0(&self) -> &[f64] {
        &self.k[0]
    }
    /// The step's 12 stages and its end (`k[0..=12]`; the dense output's extra stages only if
    /// prepared, so not used).
    fn stage_rate(&self, c: usize) -> f64 {
        self.k[..=N_STAGES].iter().fold(0.0, |m, k| m.max(k[c].abs()))
    }
    /// Hairer's controller for DOP853: factor in [1/3, 6], no growth right after a rejection, and
    /// growth from an error no lower than half the previous accepted step's ([`Dop853::e_prev`]).
    fn step_factor(&mut self, e: f64, _h: f64, accepted: bool) -> Option<f64> {
        // Growth after an accepted step trusts its error only down to half the previous step's
        // ([`Dop853::e_prev`]).
        let e = if accepted {
            let trusted = e.max(0.5 * self.e_prev);
            self.e_prev = e;
            trusted
        } else {
            e
        };
        let raw = if e == 0.0 {
            6.0
        } else if e.is_finite() {
            0.9 * e.powf(-1.0 / 8.0)
        } else {
            0.1
        };
        if accepted {
            let f = raw.clamp(1.0 / 3.0, 6.0);
            let f = if self.rejected { f.min(1.0) } else { f };
            self.rejected = false;
            Some(f)
        } else {
            self.rejected = true;
            Some(if e.is_finite() { raw.clamp(1.0 / 3.0, 1.0) } else { 0.1 })
        }
    }
}
