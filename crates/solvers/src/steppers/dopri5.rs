//! Dormand–Prince 5(4): FSAL, Hairer's 4th-order continuous extension.

use super::{err_norm, SolveError, Stats, Stepper, Tolerances};
use crate::OdeSystem;

pub(super) struct Dopri5 {
    k: [Vec<f64>; 7],
    y1: Vec<f64>,
    ytmp: Vec<f64>,
    err: Vec<f64>,
    rcont: [Vec<f64>; 5],
}

const C2: f64 = 1.0 / 5.0;
const C3: f64 = 3.0 / 10.0;
const C4: f64 = 4.0 / 5.0;
const C5: f64 = 8.0 / 9.0;
const A21: f64 = 1.0 / 5.0;
const A31: f64 = 3.0 / 40.0;
const A32: f64 = 9.0 / 40.0;
const A41: f64 = 44.0 / 45.0;
const A42: f64 = -56.0 / 15.0;
const A43: f64 = 32.0 / 9.0;
const A51: f64 = 19372.0 / 6561.0;
const A52: f64 = -25360.0 / 2187.0;
const A53: f64 = 64448.0 / 6561.0;
const A54: f64 = -212.0 / 729.0;
const A61: f64 = 9017.0 / 3168.0;
const A62: f64 = -355.0 / 33.0;
const A63: f64 = 46732.0 / 5247.0;
const A64: f64 = 49.0 / 176.0;
const A65: f64 = -5103.0 / 18656.0;
const A71: f64 = 35.0 / 384.0;
const A73: f64 = 500.0 / 1113.0;
const A74: f64 = 125.0 / 192.0;
const A75: f64 = -2187.0 / 6784.0;
const A76: f64 = 11.0 / 84.0;
const E1: f64 = 71.0 / 57600.0;
const E3: f64 = -71.0 / 16695.0;
const E4: f64 = 71.0 / 1920.0;
const E5: f64 = -17253.0 / 339200.0;
const E6: f64 = 22.0 / 525.0;
const E7: f64 = -1.0 / 40.0;
const D1: f64 = -12715105075.0 / 11282082432.0;
const D3: f64 = 87487479700.0 / 32700410799.0;
const D4: f64 = -10690763975.0 / 1880347072.0;
const D5: f64 = 701980252875.0 / 199316789632.0;
const D6: f64 = -1453857185.0 / 822651844.0;
const D7: f64 = 69997945.0 / 29380423.0;

impl Dopri5 {
    pub(super) fn new(n: usize) -> Self {
        let v = || vec![0.0; n];
        Self {
            k: [v(), v(), v(), v(), v(), v(), v()],
            y1: v(),
            ytmp: v(),
            err: v(),
            rcont: [v(), v(), v(), v(), v()],
        }
    }
}

impl Stepper for Dopri5 {
    fn err_order(&self) -> f64 {
        5.0
    }
    fn init<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats) {
        sys.rhs(t, x, &mut self.k[0]);
        stats.rhs_evals += 1;
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
        let n = x.len();
        let [k1, k2, k3, k4, k5, k6, k7] = &mut self.k;
        let y = &mut self.ytmp;
        for i in 0..n {
            y[i] = x[i] + h * A21 * k1[i];
        }
        sys.rhs(t + C2 * h, y, k2);
        for i in 0..n {
            y[i] = x[i] + h * (A31 * k1[i] + A32 * k2[i]);
        }
        sys.rhs(t + C3 * h, y, k3);
        for i in 0..n {
            y[i] = x[i] + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i]);
        }
        sys.rhs(t + C4 * h, y, k4);
        for i in 0..n {
            y[i] = x[i] + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i]);
        }
        sys.rhs(t + C5 * h, y, k5);
        for i in 0..n {
            y[i] = x[i] + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i]);
        }
        sys.rhs(t + h, y, k6);
        let y1 = &mut self.y1;
        for i in 0..n {
            y1[i] = x[i] + h * (A71 * k1[i] + A73 * k3[i] + A74 * k4[i] + A75 * k5[i] + A76 * k6[i]);
        }
        sys.rhs(t + h, y1, k7);
        stats.rhs_evals += 6;
        for i in 0..n {
            self.err[i] = h * (E1 * k1[i] + E3 * k3[i] + E4 * k4[i] + E5 * k5[i] + E6 * k6[i] + E7 * k7[i]);
        }
        if !y1.iter().all(|v| v.is_finite()) {
            return Ok(f64::INFINITY);
        }
        Ok(err_norm(&self.err, x, y1, tol))
    }
    fn accept(&mut self, x_old: &[f64], h: f64, x: &mut [f64]) {
        let n = x.len();
        let [k1, _k2, k3, k4, k5, k6, k7] = &self.k;
        let [r1, r2, r3, r4, r5] = &mut self.rcont;
        for i in 0..n {
            let ydiff = self.y1[i] - x_old[i];
            let bspl = h * k1[i] - ydiff;
            r1[i] = x_old[i];
            r2[i] = ydiff;
            r3[i] = bspl;
            r4[i] = ydiff - h * k7[i] - bspl;
            r5[i] = h * (D1 * k1[i] + D3 * k3[i] + D4 * k4[i] + D5 * k5[i] + D6 * k6[i] + D7 * k7[i]);
        }
        x.copy_from_slice(&self.y1);
        // FSAL: the last stage is the first of the next step.
        self.k.swap(0, 6);
    }
    fn dense(&self, th: f64, out: &mut [f64]) {
        let th1 = 1.0 - th;
        let [r1, r2, r3, r4, r5] = &self.rcont;
        for i in 0..out.len() {
            out[i] = r1[i] + th * (r2[i] + th1 * (r3[i] + th * (r4[i] + th1 * r5[i])));
        }
    }
    fn f0(&self) -> &[f64] {
        &self.k[0]
    }
}
