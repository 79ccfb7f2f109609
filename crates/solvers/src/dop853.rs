//! Dormand–Prince 8(5,3) (Hairer's DOP853) with its 7th-order continuous extension.
//!
//! Twelve stages per step (the thirteenth, `f(t + h, y_new)`, is the first stage of the next
//! step), an error estimate that combines the 5th- and 3rd-order embedded formulas as
//! `|h| ‖e5‖² / sqrt(‖e5‖² + 0.01 ‖e3‖²)`, and a dense output of degree 7 that needs three more
//! stages, computed only for steps on which dense output is actually requested.
//!
//! Coefficients: `scipy/integrate/_ivp/dop853_coefficients.py` (SciPy's transcription of
//! Hairer's `dop853.f`), converted to the nearest `f64` by a script; `B` is row 12 of `A`.
//! The unit tests below check the row sums `Σ_j a_ij = c_i` and the quadrature conditions
//! `Σ b_i c_i^k = 1/(k+1)`, k ≤ 7.

use crate::steppers::{SolveError, Stats, Stepper, Tolerances};
use crate::OdeSystem;

const N_STAGES: usize = 12;
const N_EXT: usize = 16;

const C: [f64; 16] = [
    0.0,
    0.05260015195876773,
    0.0789002279381516,
    0.1183503419072274,
    0.2816496580927726,
    0.3333333333333333,
    0.25,
    0.3076923076923077,
    0.6512820512820513,
    0.6,
    0.8571428571428571,
    1.0,
    1.0,
    0.1,
    0.2,
    0.7777777777777778,
];
const A: [[f64; 16]; 16] = [
    [
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    ],
    [
        0.05260015195876773,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.0197250569845379,
        0.0591751709536137,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.02958758547680685,
        0.0,
        0.08876275643042054,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.2413651341592667,
        0.0,
        -0.8845494793282861,
        0.924834003261792,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.037037037037037035,
        0.0,
        0.0,
        0.17082860872947386,
        0.12546768756682242,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.037109375,
        0.0,
        0.0,
        0.17025221101954405,
        0.06021653898045596,
        -0.017578125,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.03709200011850479,
        0.0,
        0.0,
        0.17038392571223998,
        0.10726203044637328,
        -0.015319437748624402,
        0.008273789163814023,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.6241109587160757,
        0.0,
        0.0,
        -3.3608926294469414,
        -0.868219346841726,
        27.59209969944671,
        20.154067550477894,
        -43.48988418106996,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.47766253643826434,
        0.0,
        0.0,
        -2.4881146199716677,
        -0.590290826836843,
        21.230051448181193,
        15.279233632882423,
        -33.28821096898486,
        -0.020331201708508627,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        -0.9371424300859873,
        0.0,
        0.0,
        5.186372428844064,
        1.0914373489967295,
        -8.149787010746927,
        -18.52006565999696,
        22.739487099350505,
        2.4936055526796523,
        -3.0467644718982196,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        2.273310147516538,
        0.0,
        0.0,
        -10.53449546673725,
        -2.0008720582248625,
        -17.9589318631188,
        27.94888452941996,
        -2.8589982771350235,
        -8.87285693353063,
        12.360567175794303,
        0.6433927460157636,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.054293734116568765,
        0.0,
        0.0,
        0.0,
        0.0,
        4.450312892752409,
        1.8915178993145003,
        -5.801203960010585,
        0.3111643669578199,
        -0.1521609496625161,
        0.20136540080403034,
        0.04471061572777259,
        0.0,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.056167502283047954,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.25350021021662483,
        -0.2462390374708025,
        -0.12419142326381637,
        0.15329179827876568,
        0.00820105229563469,
        0.007567897660545699,
        -0.008298,
        0.0,
        0.0,
        0.0,
    ],
    [
        0.03183464816350214,
        0.0,
        0.0,
        0.0,
        0.0,
        0.028300909672366776,
        0.053541988307438566,
        -0.05492374857139099,
        0.0,
        0.0,
        -0.00010834732869724932,
        0.0003825710908356584,
        -0.00034046500868740456,
        0.1413124436746325,
        0.0,
        0.0,
    ],
    [
        -0.42889630158379194,
        0.0,
        0.0,
        0.0,
        0.0,
        -4.697621415361164,
        7.683421196062599,
        4.06898981839711,
        0.3567271874552811,
        0.0,
        0.0,
        0.0,
        -0.0013990241651590145,
        2.9475147891527724,
        -9.15095847217987,
        0.0,
    ],
];
const E3: [f64; 13] = [
    -0.18980075407240762,
    0.0,
    0.0,
    0.0,
    0.0,
    4.450312892752409,
    1.8915178993145003,
    -5.801203960010585,
    -0.4226823213237919,
    -0.1521609496625161,
    0.20136540080403034,
    0.02265179219836082,
    0.0,
];
const E5: [f64; 13] = [
    0.01312004499419488,
    0.0,
    0.0,
    0.0,
    0.0,
    -1.2251564463762044,
    -0.4957589496572502,
    1.6643771824549864,
    -0.35032884874997366,
    0.3341791187130175,
    0.08192320648511571,
    -0.022355307863886294,
    0.0,
];
const D: [[f64; 16]; 4] = [
    [
        -8.428938276109013,
        0.0,
        0.0,
        0.0,
        0.0,
        0.5667149535193777,
        -3.0689499459498917,
        2.38466765651207,
        2.117034582445028,
        -0.871391583777973,
        2.2404374302607883,
        0.6315787787694688,
        -0.08899033645133331,
        18.148505520854727,
        -9.194632392478356,
        -4.436036387594894,
    ],
    [
        10.427508642579134,
        0.0,
        0.0,
        0.0,
        0.0,
        242.28349177525817,
        165.20045171727028,
        -374.5467547226902,
        -22.113666853125306,
        7.733432668472264,
        -30.674084731089398,
        -9.332130526430229,
        15.697238121770845,
        -31.139403219565178,
        -9.35292435884448,
        35.81684148639408,
    ],
    [
        19.985053242002433,
        0.0,
        0.0,
        0.0,
        0.0,
        -387.0373087493518,
        -189.17813819516758,
        527.8081592054236,
        -11.57390253995963,
        6.8812326946963,
        -1.0006050966910838,
        0.7777137798053443,
        -2.778205752353508,
        -60.19669523126412,
        84.32040550667716,
        11.99229113618279,
    ],
    [
        -25.69393346270375,
        0.0,
        0.0,
        0.0,
        0.0,
        -154.18974869023643,
        -231.5293791760455,
        357.6391179106141,
        93.40532418362432,
        -37.45832313645163,
        104.0996495089623,
        29.8402934266605,
        -43.53345659001114,
        96.32455395918828,
        -39.17726167561544,
        -149.72683625798564,
    ],
];

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tableau_is_consistent() {
        for s in 0..N_EXT {
            let sum: f64 = A[s].iter().sum();
            assert!((sum - C[s]).abs() < 1e-14, "row {s}: {sum} vs {}", C[s]);
        }
        let b = &A[N_STAGES][..N_STAGES];
        for k in 0..8 {
            let q: f64 = b.iter().zip(&C).map(|(bi, ci)| bi * ci.powi(k)).sum();
            assert!((q - 1.0 / (k + 1) as f64).abs() < 1e-14, "k = {k}: {q}");
        }
        // Both error estimators are differences of consistent weights.
        assert!(E3.iter().sum::<f64>().abs() < 1e-14);
        assert!(E5.iter().sum::<f64>().abs() < 1e-14);
    }
}
