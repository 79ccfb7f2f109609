//! Exponential quadrature in the relaxation variable for a scalar affine ODE
//! `z' = a(t) z + b(t)` with `a < 0`, with error control and dense output.
//!
//! Why: LuGre under prescribed motion, `z' = −(σ0 |u'|/g(u')) z + u'`, has its stiff coefficient
//! sweep from 0 at a reversal to ~σ0 |u'|/g within a fraction of a second. The collocation in
//! time ([`crate::expint`]) carries only the step's mean of `a` in closed form, so where `a`
//! changes by much over a step (`(a − ā) z` as large as the solution, in the boundary layer after
//! each reversal) it needs short steps: half of its steps on the benchmark are there. In the
//! relaxation variable `w(t) = −∫ a`, the same equation is
//!
//! `dz/dw = −z + β`, `β = −b/a`,
//!
//! a relaxation at unit rate towards `β` (for LuGre `β = sign(u') g(u')/σ0`, the steady-state
//! deflection, smooth in time between reversals). Over a step `[t, t + h]` with `W = w(t + h) −
//! w(t)`, exactly,
//!
//! `z(t + h) = e^{−W} z(t) + ∫_0^W e^{−(W−ω)} β(ω) dω`.
//!
//! The method: `a` and `b` are evaluated at the `S` Gauss–Legendre nodes `c_j` of the step (in
//! time: no inversion of `w(t)` is needed); `W` is the Gauss rule for `−∫a` (order `2S`), the
//! nodes' own relaxation variables `ω_j = w(t + c_j h) − w(t)` are the integrals of the
//! interpolant of `a` (exact for `a` polynomial of degree `< S`); `β` is interpolated at the
//! points `ω_j` (Newton's divided differences), and the integral against the kernel is then
//! closed form in φ-functions ([`crate::phi`]): with `P(x) = Σ q_k x^k` the interpolant in
//! `x = ω/W`, `∫_0^W e^{−(W−ω)} P(ω/W) dω = W Σ_k q_k k! φ_{k+1}(−W)`. No linear system (`β`
//! does not depend on `z`), one φ evaluation per step. Exact when `β` is a polynomial of degree
//! `< S` in `w` and `a` one of degree `< S` in `t` (a constant `β` with any such `a`: Dahl's ODE
//! with unit exponent, whose `β = sign(u') F_C/σ`, is exact whatever the step); the transient
//! after a reversal, a Gaussian in time, is an exponential in `w`.
//!
//! Error control, embedded as in [`crate::expint`]: the interpolant without the node nearest the
//! step start differs from `P` by the last term of Newton's form; integrated against the kernel it
//! estimates the local error of an order `S − 1` solution, and the order `S` one is propagated.
//! The error of the node positions `ω_j` (the interpolant of `a`, one order higher) is not
//! estimated: it moves `z` by `β'(w) δω`, which vanishes where `β` is flat in `w` and is checked
//! against the other integrators at rtol 1e-11 in the tests.
//!
//! Where the variable change does not apply, the step is taken by the collocation in time with the
//! same nodes (its own error estimate): `a ≥ 0` or not finite at a node, or node positions `ω_j`
//! that are not increasing with at least 1/100 of the nodes' own spacing in time (a coefficient
//! that vanishes on part of the step, where `β` would be interpolated at nearly coincident
//! points). LuGre and Dahl between reversals never need it.
//!
//! Kinks: as for [`crate::expint`], the caller splits the time span where `a` or `b` kink.

use crate::expint::{product_poly, ExpScheme, ExpStep, Scheme, Step};
use crate::phi::{inv_factorial, phis};

/// The smallest ratio of a gap between consecutive node positions `ω_j/W` to the same gap of the
/// nodes `c_j` in time; below it the step is taken in time (see the module docs).
const MIN_GAP_RATIO: f64 = 0.01;

/// The `S`-node quadrature in the relaxation variable.
#[derive(Clone, Debug)]
pub struct Relaxation<const S: usize> {
    /// The collocation in time with the same nodes: its constants, and the fallback.
    time: Scheme<S>,
    /// `int[j][k]`: the coefficient of `θ^{k+1}` in `∫_0^θ ℓ_j`.
    int: [[f64; S]; S],
    /// `cpow[i][k] = c_i^{k+1}`.
    cpow: [[f64; S]; S],
    /// `dd[j] = 1/Π_{m≠j} (c_j − c_m)`: `Σ_j dd[j] f_j` is the divided difference `f[c_0, …, c_{S−1}]`.
    dd: [f64; S],
    /// `max_θ |∫_0^θ Π_{j≥1} (σ − c_j) dσ|` over `[0, 1]`: with `h` and the divided difference of
    /// the rate, the largest change of `w(t + θh) − w(t)` between the interpolants of `−a` with and
    /// without the first node.
    omega_gap: f64,
}

impl<const S: usize> Default for Relaxation<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const S: usize> Relaxation<S> {
    /// The scheme with `S` Gauss–Legendre nodes (`2 ≤ S ≤ 10`).
    pub fn new() -> Self {
        let time = Scheme::<S>::new();
        let (c, lag) = (*time.nodes(), *time.lagrange());
        let mut int = [[0.0; S]; S];
        let mut cpow = [[0.0; S]; S];
        for j in 0..S {
            for k in 0..S {
                int[j][k] = lag[j][k] * inv_factorial(k) / (k + 1) as f64;
                cpow[j][k] = c[j].powi(k as i32 + 1);
            }
        }
        let mut dd = [0.0; S];
        for j in 0..S {
            dd[j] = 1.0 / (0..S).filter(|&m| m != j).map(|m| c[j] - c[m]).product::<f64>();
        }
        // ∫_0^θ Π_{j≥1} (σ − c_j) dσ sampled finely (a polynomial of degree S on [0, 1]; 4096
        // samples locate its largest magnitude to well within 1 %).
        let mut node_poly = [0.0; 13];
        product_poly(c.iter().skip(1).copied(), 1.0, &mut node_poly);
        let omega_gap = (0..=4096)
            .map(|i| {
                let th = i as f64 / 4096.0;
                let (mut v, mut tp) = (0.0, th);
                for (k, pk) in node_poly[..S].iter().enumerate() {
                    v += pk * tp / (k + 1) as f64;
                    tp *= th;
                }
                v.abs()
            })
            .fold(0.0, f64::max);
        Self {
            time,
            int,
            cpow,
            dd,
            omega_gap,
        }
    }
}

/// A step of [`Relaxation`]: in the relaxation variable, or (where that does not apply) in time.
pub enum RelaxStep<const S: usize> {
    W(WStep<S>),
    Time(Step<S>),
}

/// A step taken in the relaxation variable.
pub struct WStep<const S: usize> {
    z0: f64,
    z1: f64,
    /// `e^{−W}`, the step's gain.
    g1: f64,
    /// `W = w(t + h) − w(t)`.
    big_w: f64,
    /// `w(t + θh) − w(t) = Σ_k r_k θ^{k+1}` (the integral of the interpolant of `−a`).
    r: [f64; S],
    /// The interpolant of `β` in `x = ω/W`: monomial coefficients times `k!`.
    q: [f64; S],
    err: f64,
}

impl<const S: usize> ExpStep for RelaxStep<S> {
    fn end(&self) -> f64 {
        match self {
            RelaxStep::W(s) => s.z1,
            RelaxStep::Time(s) => s.end(),
        }
    }
    fn error(&self) -> f64 {
        match self {
            RelaxStep::W(s) => s.err,
            RelaxStep::Time(s) => s.error(),
        }
    }
    /// `e^{−W}`: the relaxation's decay over the step (the forcing's part does not depend on `z`).
    fn gain(&self) -> f64 {
        match self {
            RelaxStep::W(s) => s.g1,
            RelaxStep::Time(s) => s.gain(),
        }
    }
    /// `−W` in the relaxation variable (exact: no `1 − e^{−W}` cancellation near a gain of 1).
    fn log_gain(&self) -> f64 {
        match self {
            RelaxStep::W(s) => -s.big_w,
            RelaxStep::Time(s) => s.log_gain(),
        }
    }
    /// `z(t + θh) = e^{−ω} z(t) + ω Σ_k q_k (ω/W)^k k! φ_{k+1}(−ω)`, `ω = w(t + θh) − w(t)`, and
    /// its gain `e^{−ω}`.
    fn at_gain(&self, theta: f64) -> (f64, f64) {
        let s = match self {
            RelaxStep::W(s) => s,
            RelaxStep::Time(s) => return s.at_gain(theta),
        };
        let mut om = 0.0;
        let mut tp = theta;
        for k in 0..S {
            om += s.r[k] * tp;
            tp *= theta;
        }
        let rho = om / s.big_w;
        let mut ph = [0.0; 12];
        phis(-om, &mut ph[..S + 1]);
        let (mut sum, mut rp) = (0.0, 1.0);
        for k in 0..S {
            sum += s.q[k] * rp * ph[k + 1];
            rp *= rho;
        }
        (ph[0] * s.z0 + om * sum, ph[0])
    }
}

impl<const S: usize> ExpScheme for Relaxation<S> {
    type Step = RelaxStep<S>;
    const ORDER: usize = S;

    fn step<F: Fn(f64) -> (f64, f64)>(&self, coef: &F, t: f64, z: f64, h: f64, evals: &mut usize) -> RelaxStep<S> {
        let c = self.time.nodes();
        let (mut rate, mut beta) = ([0.0; S], [0.0; S]);
        for j in 0..S {
            let (a, b) = coef(t + c[j] * h);
            rate[j] = -a;
            beta[j] = b / -a;
        }
        *evals += S;
        if rate
            .iter()
            .zip(&beta)
            .any(|(r, b)| !(*r > 0.0 && r.is_finite() && b.is_finite()))
        {
            return RelaxStep::Time(self.time.step(coef, t, z, h, evals));
        }
        // w(t + θh) − w(t) = h Σ_j rate_j ∫_0^θ ℓ_j, as a polynomial in θ.
        let mut r = [0.0; S];
        for (j, rj) in rate.iter().enumerate() {
            for k in 0..S {
                r[k] += h * rj * self.int[j][k];
            }
        }
        let big_w: f64 = r.iter().sum();
        // The nodes' positions x_j = ω_j/W, increasing and spread, or the step is taken in time.
        let mut x = [0.0; S];
        for i in 0..S {
            x[i] = (0..S).map(|k| r[k] * self.cpow[i][k]).sum::<f64>() / big_w;
        }
        let spread = (0..=S).all(|i| {
            let (lo, hi) = (if i == 0 { 0.0 } else { x[i - 1] }, if i == S { 1.0 } else { x[i] });
            let (clo, chi) = (if i == 0 { 0.0 } else { c[i - 1] }, if i == S { 1.0 } else { c[i] });
            hi - lo >= MIN_GAP_RATIO * (chi - clo)
        });
        if !(big_w.is_finite() && spread) {
            return RelaxStep::Time(self.time.step(coef, t, z, h, evals));
        }
        // Newton's divided differences on the nodes ordered x_1, …, x_{S−1}, x_0: the last term
        // is what the interpolant without x_0 (nearest the step start) leaves out.
        let (mut y, mut d) = ([0.0; S], [0.0; S]);
        for m in 0..S {
            let j = if m + 1 < S { m + 1 } else { 0 };
            y[m] = x[j];
            d[m] = beta[j];
        }
        for level in 1..S {
            for m in (level..S).rev() {
                d[m] = (d[m] - d[m - 1]) / (y[m] - y[m - level]);
            }
        }
        // Monomial form by nested multiplication: q = d_{S−1}; q ← q (x − y_m) + d_m.
        let mut q = [0.0; S];
        q[0] = d[S - 1];
        for m in (0..S - 1).rev() {
            for k in (1..S - m).rev() {
                q[k] = q[k - 1] - y[m] * q[k];
            }
            q[0] = d[m] - y[m] * q[0];
        }
        let mut nl = [0.0; 13];
        product_poly(y[..S - 1].iter().copied(), d[S - 1], &mut nl);
        let mut ph = [0.0; 13];
        phis(-big_w, &mut ph[..S + 1]);
        let (mut sum, mut last) = (0.0, 0.0);
        for k in 0..S {
            q[k] /= inv_factorial(k);
            sum += q[k] * ph[k + 1];
            last += nl[k] / inv_factorial(k) * ph[k + 1];
        }
        let z1 = ph[0] * z + big_w * sum;
        // The error of the node positions: w(t + θh) − w(t) moves by up to `w_gap` between the
        // interpolants of `−a` with and without the first node, and `z` moves with it at the rate
        // `dz/dw = β − z`, at most the distance from `z(t)` to the farthest `β_j` plus the spread
        // of `β` (z relaxes towards the moving `β`). A negative `w` near the step start (an
        // interpolant of `−a` below 0 there) would amplify by `e^{|w|}` in the dense output; this
        // term rejects such steps.
        let w_gap = h * self.dd.iter().zip(&rate).map(|(d, r)| d * r).sum::<f64>().abs() * self.omega_gap;
        let (lo, hi) = beta
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, u), &b| (l.min(b), u.max(b)));
        let sens = (z - lo).abs().max((z - hi).abs()) + (hi - lo);
        RelaxStep::W(WStep {
            z0: z,
            z1,
            g1: ph[0],
            big_w,
            r,
            q,
            err: (big_w * last).abs() + w_gap * sens,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Constant decay with a forcing whose `β = −b/a` is a cubic in `w`: one step is exact, and
    /// the dense output too.
    #[test]
    fn a_cubic_beta_under_constant_decay_is_exact_in_one_step() {
        let lam = 3.0;
        // b(t) = λ β(λt) with β(w) = 1 + w − w²/2 + w³/6 ⇒ z' = −λ z + λ β(λ t).
        let beta = |w: f64| 1.0 + w - w * w / 2.0 + w * w * w / 6.0;
        // Particular solution of dz/dw = −z + β: z_p = β − β' + β'' − β''' (β'''' = 0).
        let zp = |w: f64| beta(w) - (1.0 - w + w * w / 2.0) + (-1.0 + w) - 1.0;
        let exact = |t: f64, z0: f64| zp(lam * t) + (z0 - zp(0.0)) * (-lam * t).exp();
        let coef = |t: f64| (-lam, lam * beta(lam * t));
        let s = Relaxation::<4>::new();
        let mut ev = 0;
        let st = s.step(&coef, 0.0, 0.7, 2.0, &mut ev);
        assert!(matches!(st, RelaxStep::W(_)));
        assert!(
            (st.end() - exact(2.0, 0.7)).abs() < 1e-13,
            "{} vs {}",
            st.end(),
            exact(2.0, 0.7)
        );
        for th in [0.1, 0.37, 0.8] {
            let want = exact(2.0 * th, 0.7);
            assert!((st.at(th) - want).abs() < 1e-13, "θ = {th}: {} vs {want}", st.at(th));
        }
        // β of degree 3 = S − 1: the interpolant without a node misses it, the estimate is not 0.
        assert!(st.error() > 0.0);
    }

    /// A growing coefficient (`a > 0`) is taken by the collocation in time, and still solved.
    #[test]
    fn a_positive_coefficient_falls_back_to_the_time_collocation() {
        let coef = |_t: f64| (0.5, 1.0);
        let s = Relaxation::<4>::new();
        let mut ev = 0;
        let st = s.step(&coef, 0.0, 1.0, 0.3, &mut ev);
        assert!(matches!(st, RelaxStep::Time(_)));
        // z = (z0 + b/a) e^{at} − b/a.
        let want = 3.0 * (0.15f64).exp() - 2.0;
        assert!((st.end() - want).abs() < 1e-14, "{} vs {want}", st.end());
    }
}
