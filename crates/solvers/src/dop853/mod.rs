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
    /// The 5th- and 3rd-order error estimates of the last attempt, per component.
    e5: Vec<f64>,
    e3: Vec<f64>,
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
            e5: v(),
            e3: v(),
            fsal_pending: false,
            rejected: false,
            e_prev: 0.0,
        }
    }
}

impl Dop853 {
    /// Component `i` of the degree-7 interpolant at fraction `th` of the last accepted step.
    #[inline(always)]
    fn interpolant(&self, th: f64, i: usize) -> f64 {
        let th1 = 1.0 - th;
        let [r0, r1, r2, r3, r4, r5, r6, r7] = &self.rcont;
        r0[i] + th * (r1[i] + th1 * (r2[i] + th * (r3[i] + th1 * (r4[i] + th * (r5[i] + th1 * (r6[i] + th * r7[i]))))))
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
        // The stages the error estimates weigh by zero are skipped below; a non-finite one
        // made them NaN, which rejected the step as an infinite error does.
        let zero_weight = |j: usize| E5[j] == 0.0 && E3[j] == 0.0;
        let finite = |v: &[f64]| v.iter().all(|v| v.is_finite());
        if !finite(&self.y1) || !(0..=N_STAGES).filter(|&j| zero_weight(j)).all(|j| finite(&self.k[j])) {
            return Ok(f64::INFINITY);
        }
        // The embedded errors per component, each summed over the stages in order (as
        // `Σ_j E[j] k_j[i]` would be) with the zero weights left out: the same bits, and the
        // sums run across the components.
        let (e5, e3) = (&mut self.e5[..n], &mut self.e3[..n]);
        e5.fill(0.0);
        e3.fill(0.0);
        for j in (0..=N_STAGES).filter(|&j| !zero_weight(j)) {
            let kj = &self.k[j][..n];
            for i in 0..n {
                e5[i] += E5[j] * kj[i];
                e3[i] += E3[j] * kj[i];
            }
        }
        let (mut s5, mut s3) = (0.0, 0.0);
        for i in 0..n {
            let sc = tol.atol + tol.rtol * x[i].abs().max(self.y1[i].abs());
            s5 += (e5[i] / sc) * (e5[i] / sc);
            s3 += (e3[i] / sc) * (e3[i] / sc);
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
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.interpolant(th, i);
        }
    }
    fn dense_component(&self, th: f64, c: usize) -> Option<f64> {
        Some(self.interpolant(th, c))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A forced, damped, nonlinear oscillator with a drifting and a constant state (as the B&S
    /// path form's), so every stage's components differ.
    struct Osc;
    impl OdeSystem for Osc {
        fn dim(&self) -> usize {
            5
        }
        fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
            dx[0] = x[1];
            dx[1] = (3.0 * t).sin() - 0.3 * x[1] - 40.0 * x[0] - 5.0 * x[0].powi(3) - x[3];
            dx[2] = x[1] * x[1];
            dx[3] = 0.0;
            dx[4] = (-x[2]).exp();
        }
    }

    #[test]
    fn the_errors_the_dense_coefficients_and_one_component_are_the_plain_sums_bit_for_bit() {
        // `attempt` sums the errors over the stages across the components with the zero
        // weights skipped: they must be the plain sums `Σ_j E_j k_j[i]` (all j, in order) to the
        // bit, the error the norm of those; one component of the dense output must be that
        // component of the whole (the driver's event samples read it alone).
        let tol = Tolerances::default();
        let mut st = Dop853::new(5);
        let mut stats = Stats::default();
        let (mut t, mut x) = (0.3, vec![0.7, -1.1, 0.2, 0.05, 1.0]);
        st.init(&Osc, t, &x, &mut stats);
        for h in [0.01, 0.05, 0.2, 0.013] {
            let e = st.attempt(&Osc, t, &x, h, &tol, &mut stats).unwrap();
            let (mut s5, mut s3) = (0.0, 0.0);
            for i in 0..5 {
                let (mut e5, mut e3) = (0.0, 0.0);
                for j in 0..=N_STAGES {
                    e5 += E5[j] * st.k[j][i];
                    e3 += E3[j] * st.k[j][i];
                }
                let sc = tol.atol + tol.rtol * x[i].abs().max(st.y1[i].abs());
                s5 += (e5 / sc) * (e5 / sc);
                s3 += (e3 / sc) * (e3 / sc);
            }
            let plain = h * s5 / ((s5 + 0.01 * s3) * 5.0).sqrt();
            assert_eq!(e.to_bits(), plain.to_bits(), "h = {h}: {e} vs {plain}");
            let x_old = x.clone();
            st.accept(&x_old, h, &mut x);
            st.prepare_dense(&Osc, t, h, &mut stats);
            for (r, row) in D.iter().enumerate() {
                for i in 0..5 {
                    let mut acc = 0.0;
                    for j in 0..N_EXT {
                        acc += row[j] * st.k[j][i];
                    }
                    assert_eq!(
                        st.rcont[4 + r][i].to_bits(),
                        (h * acc).to_bits(),
                        "h = {h}, r{}[{i}]",
                        4 + r
                    );
                }
            }
            for th in [0.0, 1.0 / 9.0, 0.5, 0.987, 1.0] {
                let mut all = [0.0; 5];
                st.dense(th, &mut all);
                for (i, v) in all.iter().enumerate() {
                    let one = st.dense_component(th, i).unwrap();
                    assert_eq!(one.to_bits(), v.to_bits(), "h = {h}, θ = {th}, component {i}");
                }
            }
            t += h;
        }
    }

    #[test]
    fn a_non_finite_stage_of_zero_weight_rejects_the_step() {
        // Finite everywhere except at stage 2's time, whose stage both error estimates weigh
        // by zero: the step is rejected (an infinite error), as the NaN error rejected it.
        struct Pole;
        impl OdeSystem for Pole {
            fn dim(&self) -> usize {
                1
            }
            fn rhs(&self, t: f64, _x: &[f64], dx: &mut [f64]) {
                dx[0] = if t == 0.5 + C[2] * 0.25 { f64::INFINITY } else { 1.0 };
            }
        }
        let mut st = Dop853::new(1);
        let mut stats = Stats::default();
        st.init(&Pole, 0.5, &[0.0], &mut stats);
        let e = st
            .attempt(&Pole, 0.5, &[0.0], 0.25, &Tolerances::default(), &mut stats)
            .unwrap();
        assert!(st.y1[0].is_finite() && e == f64::INFINITY, "{e}");
    }
}
