//! DOP853 and Radau IIA in one integration, switched by stiffness (the idea of LSODA, with a
//! high-order pair): the explicit method while its steps are limited by accuracy, the implicit
//! one while the explicit steps would be limited by stability.
//!
//! The case it is for: an inertia on a stiff, lightly damped spring (pre-sliding friction,
//! ω_n ≈ 290 rad/s in report ch. 5) under a slow input. After every velocity reversal the
//! spring rings at a level that the tolerance resolves, and there the explicit method's
//! high order is cheapest; once the ringing has decayed the solution is slow, and an explicit
//! method still needs `h ω_n ≲ 2` to stay stable (8 800 DOP853 steps per 63 s period) while
//! Radau IIA takes the steps the slow solution allows.
//!
//! Switching rules, evaluated after every accepted step and applied at the next attempt:
//! - explicit → implicit: every [`CHECK_EVERY`] DOP853 steps the Jacobian's spectral radius
//!   `ρ` is estimated at the current point by a power iteration on finite-difference directional
//!   derivatives ([`fd_spectral_radius`], 11 evaluations of `f` whatever the dimension), and `h ρ`
//!   above [`STIFF`] switches (a stability-limited DOP853 settles near `h ω_n ≈ 2` on a lightly
//!   damped oscillation, 6 on a real mode; an accuracy-limited one stays well below). Hairer's
//!   cheaper estimate from DOP853's last two stages, `h ‖f(y₁₂) − f(y₁₁)‖ / ‖y₁₂ − y₁₁‖`, does
//!   not see it here: on the inertia of report Fig 5.22 it read 0.2–0.7 at `h ω_n ≈ 2.3`, the
//!   stage difference lying mostly off the fast mode;
//! - implicit → explicit: `h ρ(J)` below [`NONSTIFF`] for [`NONSTIFF_STEPS`] steps in a row
//!   (Radau IIA takes steps at which the explicit method is stable, so the explicit method's
//!   higher order and cheaper steps win); the next step is then cut to `NONSTIFF / ρ`;
//! - a Radau IIA stint that never reached `h ρ` = [`PAYS`] doubles the wait before the next
//!   estimate (up to 2^[`MAX_BACKOFF`]), one that did resets it: while ringing decays, the two
//!   rules would otherwise hand the integration back and forth (on the inertia of Fig 5.22 at
//!   a = 0.05 N·m, ω = 0.1 rad/s: 61 switches per period without the back-off).
//!
//! Each switch starts the other method afresh at the current point (one evaluation of `f`,
//! and for Radau IIA a Jacobian), so a segment between events always begins explicit.

use crate::dop853::Dop853;
use crate::radau::Radau5;
use crate::steppers::{Stats, Stepper};
use crate::{OdeSystem, SolveError, Tolerances};

/// `h ρ` of DOP853 above which its step counts as stability-limited.
pub(crate) const STIFF: f64 = 1.5;
/// DOP853 steps between two estimates of `ρ`.
pub(crate) const CHECK_EVERY: usize = 16;
/// Products with `J` in an estimate of `ρ`.
pub(crate) const POWER_PRODUCTS: usize = 8;
/// `h ρ(J)` of Radau IIA below which DOP853 would be stable at the same step.
pub(crate) const NONSTIFF: f64 = 1.0;
/// Such Radau IIA steps in a row that switch to DOP853.
pub(crate) const NONSTIFF_STEPS: usize = 5;
/// `h ρ` that a Radau IIA stint must reach to count as worth it (DOP853 is held near 2).
pub(crate) const PAYS: f64 = 4.0;
/// The largest `backoff`: at most `CHECK_EVERY · 2^6` = 1024 DOP853 steps between estimates.
pub(crate) const MAX_BACKOFF: u32 = 6;

pub(crate) struct Switching {
    explicit: Dop853,
    implicit: Radau5,
    /// Radau IIA is the active method (it took the last step, and takes the next unless a
    /// switch is pending).
    stiff: bool,
    /// Switch methods before the next attempt.
    pending: bool,
    /// Steps in a row that satisfied the current switching rule.
    streak: usize,
    /// DOP853 steps since the last estimate of `ρ`.
    since_check: usize,
    /// The next estimate waits `CHECK_EVERY · 2^backoff` DOP853 steps: raised by each Radau IIA
    /// stint that never reached `h ρ` = [`PAYS`], reset by one that did.
    backoff: u32,
    /// The largest `h ρ` of the current Radau IIA stint.
    stint_max: f64,
    /// Work vectors of [`fd_spectral_radius`].
    work: [Vec<f64>; 5],
}

/// The spectral radius of a matrix `J` given by its products (`apply(v, w)`: `w = J v`): a
/// power iteration of [`POWER_PRODUCTS`] products from `v = (1, …, 1)`, normalised after each,
/// then the Rayleigh–Ritz values of `J` on `span{v, J v}` (two more products). A complex pair
/// (a lightly damped oscillation) has two eigenvalues of one modulus, so `v` does not settle on
/// an eigenvector but on their plane, and the 2 × 2 projection there has the pair itself as
/// eigenvalues: the estimate is exact once the other modes have died out of `v`. (The growth of
/// the norms alone is not: on a spring with ω_n = 300 and ζ = 0.01 it read 349 after 8
/// products, `J²` being far from `λ² I` on that plane.) `v`, `w`, `q` are work vectors of `J`'s
/// dimension.
pub(crate) fn spectral_radius(
    mut apply: impl FnMut(&[f64], &mut [f64]),
    v: &mut [f64],
    w: &mut [f64],
    q: &mut [f64],
) -> f64 {
    let n = v.len();
    let norm = |x: &[f64]| x.iter().map(|a| a * a).sum::<f64>().sqrt();
    let dot = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(a, b)| a * b).sum::<f64>();
    v.iter_mut().for_each(|a| *a = 1.0 / (n as f64).sqrt());
    for _ in 0..POWER_PRODUCTS {
        apply(v, w);
        let nw = norm(w);
        if !(nw > 0.0 && nw.is_finite()) {
            // J v = 0 (v in the kernel of a nilpotent or zero J), or overflow: no growth seen.
            return 0.0;
        }
        for i in 0..n {
            v[i] = w[i] / nw;
        }
    }
    // Arnoldi's two steps on the unit vector v: J [v q] = [v q] H + (rest).
    apply(v, w);
    let h11 = dot(v, w);
    for i in 0..n {
        w[i] -= h11 * v[i];
    }
    let h21 = norm(w);
    if h21 <= 1e-12 * h11.abs() {
        // v is an eigenvector.
        return h11.abs();
    }
    for i in 0..n {
        q[i] = w[i] / h21;
    }
    apply(q, w);
    let (h12, h22) = (dot(v, w), dot(q, w));
    let (half, det) = (0.5 * (h11 + h22), h11 * h22 - h12 * h21);
    let disc = half * half - det;
    if disc >= 0.0 {
        half.abs() + disc.sqrt()
    } else {
        // A complex pair: |λ|² = det.
        det.sqrt()
    }
}

/// [`spectral_radius`] of `∂f/∂x` at `(t, x)` by forward-difference directional derivatives,
/// `J v ≈ (f(x + ε v) − f(x))/ε` with `ε = √eps ‖x‖`: [`POWER_PRODUCTS`] + 3 evaluations of `f`
/// whatever the dimension. `work` holds five vectors of the dimension.
fn fd_spectral_radius<S: OdeSystem>(sys: &S, t: f64, x: &[f64], work: &mut [Vec<f64>; 5], stats: &mut Stats) -> f64 {
    let [v, w, q, xp, fx] = work;
    sys.rhs(t, x, fx);
    let eps = f64::EPSILON.sqrt() * x.iter().map(|a| a * a).sum::<f64>().sqrt().max(1e-8);
    let mut evals = 1;
    let apply = |d: &[f64], out: &mut [f64]| {
        for i in 0..x.len() {
            xp[i] = x[i] + eps * d[i];
        }
        sys.rhs(t, xp, out);
        for i in 0..x.len() {
            out[i] = (out[i] - fx[i]) / eps;
        }
        evals += 1;
    };
    let rho = spectral_radius(apply, v, w, q);
    stats.rhs_evals += evals;
    rho
}

impl Switching {
    pub(crate) fn new(n: usize, band: Option<(usize, usize)>, tol: &Tolerances) -> Self {
        Self {
            explicit: Dop853::new(n),
            implicit: Radau5::new(n, band, tol),
            stiff: false,
            pending: false,
            streak: 0,
            since_check: 0,
            backoff: 0,
            stint_max: 0.0,
            work: std::array::from_fn(|_| vec![0.0; n]),
        }
    }
}

impl Stepper for Switching {
    fn err_order(&self) -> f64 {
        if self.stiff {
            self.implicit.err_order()
        } else {
            self.explicit.err_order()
        }
    }
    fn init<S: OdeSystem>(&mut self, sys: &S, t: f64, x: &[f64], stats: &mut Stats) {
        self.stiff = false;
        self.pending = false;
        self.streak = 0;
        self.since_check = 0;
        self.backoff = 0;
        self.stint_max = 0.0;
        self.explicit.init(sys, t, x, stats);
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
        if !self.stiff && !self.pending && self.since_check >= CHECK_EVERY << self.backoff {
            self.since_check = 0;
            let rho = fd_spectral_radius(sys, t, x, &mut self.work, stats);
            self.pending = h * rho > STIFF;
        }
        if self.pending {
            self.pending = false;
            self.stiff = !self.stiff;
            self.streak = 0;
            stats.switches += 1;
            if !self.stiff {
                // Back from Radau IIA: wait longer before the next try unless the stint paid.
                self.backoff = if self.stint_max >= PAYS {
                    0
                } else {
                    (self.backoff + 1).min(MAX_BACKOFF)
                };
            }
            self.stint_max = 0.0;
            if self.stiff {
                self.implicit.init(sys, t, x, stats);
            } else {
                self.explicit.init(sys, t, x, stats);
            }
        }
        if self.stiff {
            self.implicit.attempt(sys, t, x, h, tol, stats)
        } else {
            self.explicit.attempt(sys, t, x, h, tol, stats)
        }
    }
    fn accept(&mut self, x_old: &[f64], h: f64, x: &mut [f64]) {
        if self.stiff {
            self.implicit.accept(x_old, h, x);
            let h_rho = h * self.implicit.spectral_radius();
            self.stint_max = self.stint_max.max(h_rho);
            let nonstiff = h_rho < NONSTIFF;
            self.streak = if nonstiff { self.streak + 1 } else { 0 };
            self.pending = self.streak >= NONSTIFF_STEPS;
        } else {
            self.explicit.accept(x_old, h, x);
            self.since_check += 1;
        }
    }
    fn prepare_dense<S: OdeSystem>(&mut self, sys: &S, t: f64, h: f64, stats: &mut Stats) {
        if self.stiff {
            self.implicit.prepare_dense(sys, t, h, stats)
        } else {
            self.explicit.prepare_dense(sys, t, h, stats)
        }
    }
    fn dense(&self, theta: f64, out: &mut [f64]) {
        if self.stiff {
            self.implicit.dense(theta, out)
        } else {
            self.explicit.dense(theta, out)
        }
    }
    fn dense_component(&self, theta: f64, c: usize) -> Option<f64> {
        if self.stiff {
            self.implicit.dense_component(theta, c)
        } else {
            self.explicit.dense_component(theta, c)
        }
    }
    fn f0(&self) -> &[f64] {
        if self.stiff {
            self.implicit.f0()
        } else {
            self.explicit.f0()
        }
    }
    fn stage_rate(&self, c: usize) -> f64 {
        if self.stiff {
            self.implicit.stage_rate(c)
        } else {
            self.explicit.stage_rate(c)
        }
    }
    fn step_factor(&mut self, e: f64, h: f64, accepted: bool) -> Option<f64> {
        let f = if self.stiff {
            self.implicit.step_factor(e, h, accepted)
        } else {
            self.explicit.step_factor(e, h, accepted)
        };
        if accepted && self.pending && self.stiff {
            // To DOP853: start where it is stable.
            let rho = self.implicit.spectral_radius();
            if rho > 0.0 {
                return f.map(|f| f.min(NONSTIFF / (rho * h)));
            }
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use crate::{solve, Direction, EventKind, Method, OdeSystem, Outcome, Tolerances};

    /// `x'' + 2 ζ ω_n x' + ω_n² x = ω_n² sin ωt` from rest: a stiff, lightly damped spring under a
    /// slow input (ω_n = 300, ζ = 0.01, ω = 0.1, the inertia of report Fig 5.22 in pre-sliding).
    struct Spring {
        wn: f64,
        zeta: f64,
        w: f64,
    }

    impl Spring {
        /// The exact solution `(x, x')` at `t`: the forced response plus the free ringing that
        /// the start from rest excites.
        fn exact(&self, t: f64) -> (f64, f64) {
            let (wn, z, w) = (self.wn, self.zeta, self.w);
            // Forced response A sin ωt + B cos ωt.
            let (re, im) = (wn * wn - w * w, 2.0 * z * wn * w);
            let q = wn * wn / (re * re + im * im);
            let (a, b) = (q * re, -q * im);
            let wd = wn * (1.0 - z * z).sqrt();
            let s = z * wn;
            // Free part e^{−st}(C cos ω_d t + D sin ω_d t) cancelling the forced part at t = 0.
            let c = -b;
            let d = (-a * w + s * c) / wd;
            let e = (-s * t).exp();
            let (sn, cs) = (w * t).sin_cos();
            let (sd, cd) = (wd * t).sin_cos();
            let x = a * sn + b * cs + e * (c * cd + d * sd);
            let v = w * (a * cs - b * sn) + e * ((-s * c + wd * d) * cd + (-s * d - wd * c) * sd);
            (x, v)
        }
    }

    impl OdeSystem for Spring {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
            dx[0] = x[1];
            dx[1] = self.wn * self.wn * ((self.w * t).sin() - x[0]) - 2.0 * self.zeta * self.wn * x[1];
        }
        fn n_events(&self) -> usize {
            1
        }
        /// The forced response's velocity reversals (the free ringing has decayed by then).
        fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
            g[0] = x[1];
        }
        fn event_kind(&self, _i: usize) -> EventKind {
            EventKind {
                direction: Direction::Either,
                terminal: false,
            }
        }
    }

    const SPRING: Spring = Spring {
        wn: 300.0,
        zeta: 0.01,
        w: 0.1,
    };

    fn run(method: Method, saveat: &[f64], out: &mut Vec<(f64, f64)>) -> Outcome {
        let tol = Tolerances {
            rtol: 1e-8,
            atol: 1e-12,
            ..Default::default()
        };
        let t1 = 2.0 * std::f64::consts::PI / SPRING.w;
        solve(&SPRING, method, &tol, 0.0, &[0.0, 0.0], t1, saveat, &mut |_, x| {
            out.push((x[0], x[1]))
        })
        .unwrap()
    }

    #[test]
    fn on_a_stiff_spring_under_a_slow_input_radau_takes_over_once_the_ringing_has_decayed() {
        // Save times in the ringing (dense output of DOP853) and after it (of Radau IIA).
        let saveat = [0.05, 0.3, 1.0, 5.0, 15.7, 31.4, 47.1, 60.0];
        let (mut mixed, mut plain) = (Vec::new(), Vec::new());
        let m = run(Method::Dop853Radau5, &saveat, &mut mixed);
        let p = run(Method::Dop853, &saveat, &mut plain);
        for (k, &t) in saveat.iter().enumerate() {
            let (x, v) = SPRING.exact(t);
            let (ex, ev) = ((mixed[k].0 - x).abs(), (mixed[k].1 - v).abs());
            assert!(
                ex < 1e-6 && ev < 1e-6 * SPRING.wn,
                "t = {t}: {:?} vs ({x}, {v})",
                mixed[k]
            );
        }
        let (x, v) = SPRING.exact(m.t);
        assert!(
            (m.x[0] - x).abs() < 1e-6 && (m.x[1] - v).abs() < 1e-6,
            "{:?} vs ({x}, {v})",
            m.x
        );
        // The two velocity reversals of the forced response, at a quarter and three quarters of
        // the period (shifted by its phase lag 2ζω/ω_n), found across the switches.
        let lag = (2.0 * SPRING.zeta * SPRING.w / SPRING.wn).atan() / SPRING.w;
        let quarter = 0.5 * std::f64::consts::PI / SPRING.w;
        let times: Vec<f64> = m.passed_events.iter().map(|e| e.1).collect();
        assert_eq!(times.len(), 2, "{times:?}");
        assert!((times[0] - (quarter + lag)).abs() < 1e-6, "{times:?}");
        assert!((times[1] - (3.0 * quarter + lag)).abs() < 1e-6, "{times:?}");
        // DOP853 alone is held at h ω_n ≈ 2 by stability for the whole period.
        assert!(m.stats.switches >= 1, "{:?}", m.stats);
        assert!(
            3 * m.stats.accepted < p.stats.accepted,
            "{:?} against DOP853 {:?}",
            m.stats,
            p.stats
        );
    }

    /// [`SPRING`] stopped at every velocity reversal (the ringing's after the start, then the
    /// forced response's): the switched method hands over to Radau IIA once the ringing has
    /// decayed, so its implicit stepper has state (a Jacobian, factorisations, a step history)
    /// when the next segment begins.
    struct Stopped;
    impl OdeSystem for Stopped {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
            SPRING.rhs(t, x, dx)
        }
        fn n_events(&self) -> usize {
            1
        }
        fn events(&self, t: f64, x: &[f64], g: &mut [f64]) {
            SPRING.events(t, x, g)
        }
        fn event_kind(&self, _i: usize) -> EventKind {
            EventKind {
                direction: Direction::Either,
                terminal: true,
            }
        }
    }

    #[test]
    fn a_reused_implicit_stepper_restarts_as_a_fresh_one() {
        // `Integrator` keeps the implicit steppers from one call to the next (same dimension,
        // band and tolerances); every restart must be that of a fresh `solve`, to the bit.
        let tol = Tolerances {
            rtol: 1e-8,
            atol: 1e-10,
            ..Default::default()
        };
        for method in [Method::Radau5, Method::Dop853Radau5] {
            let run = |fresh: bool| {
                let mut integrator = crate::Integrator::new(method);
                let (mut t, mut x, mut stops, mut stats) = (0.0, vec![0.0, 0.0], Vec::new(), crate::Stats::default());
                loop {
                    let o = if fresh {
                        solve(&Stopped, method, &tol, t, &x, 130.0, &[], &mut |_, _| {})
                    } else {
                        integrator.solve(&Stopped, &tol, t, &x, 130.0, &[], &mut |_, _| {})
                    }
                    .unwrap();
                    stats += o.stats;
                    stops.push((o.t, o.x.clone()));
                    if o.event.is_none() {
                        return (stops, stats);
                    }
                    (t, x) = (o.t, o.x);
                }
            };
            let (fresh, a) = run(true);
            let (kept, b) = run(false);
            // The forced response's reversals at t ≈ 15.7, 47.1, 78.5, 110.0 (and for DOP853 the ringing's).
            assert!(fresh.len() >= 5, "{method:?}: {}", fresh.len());
            if method == Method::Dop853Radau5 {
                assert!(a.switches > 0, "{method:?}: {a:?}");
            }
            assert_eq!(kept, fresh, "{method:?}");
            assert_eq!(
                (b.accepted, b.rejected, b.rhs_evals, b.jac_evals, b.switches),
                (a.accepted, a.rejected, a.rhs_evals, a.jac_evals, a.switches),
                "{method:?}"
            );
        }
    }

    #[test]
    fn on_a_non_stiff_problem_it_is_dop853_step_for_step() {
        // ω_n = 3: DOP853's steps are limited by accuracy, h ω_n stays far below the threshold.
        struct Slow(Spring);
        impl OdeSystem for Slow {
            fn dim(&self) -> usize {
                2
            }
            fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
                self.0.rhs(t, x, dx)
            }
        }
        let sys = Slow(Spring {
            wn: 3.0,
            zeta: 0.01,
            w: 0.1,
        });
        let tol = Tolerances {
            rtol: 1e-8,
            atol: 1e-12,
            ..Default::default()
        };
        let go = |m| solve(&sys, m, &tol, 0.0, &[0.0, 0.0], 60.0, &[], &mut |_, _| {}).unwrap();
        let (m, p) = (go(Method::Dop853Radau5), go(Method::Dop853));
        assert_eq!(m.stats.switches, 0);
        assert_eq!(m.stats.accepted, p.stats.accepted);
        assert_eq!(m.x, p.x);
    }

    #[test]
    fn the_spectral_radius_estimates_see_an_oscillatory_pair() {
        // J = [[0, 1], [−ω_n², −2ζω_n]]: |λ| = ω_n, however non-normal J is; by differences
        // of f at a point of the spring, and of stored matrices (a real dominant eigenvalue too).
        let mut stats = crate::Stats::default();
        let mut work: [Vec<f64>; 5] = std::array::from_fn(|_| vec![0.0; 2]);
        let rho = super::fd_spectral_radius(&SPRING, 1.0, &[1e-3, 0.2], &mut work, &mut stats);
        assert!((rho / SPRING.wn - 1.0).abs() < 1e-4, "{rho}");
        assert_eq!(stats.rhs_evals, 3 + super::POWER_PRODUCTS);
        let radius = |a: [[f64; 3]; 3]| {
            let (mut v, mut w, mut q) = (vec![0.0; 3], vec![0.0; 3], vec![0.0; 3]);
            let apply = |x: &[f64], y: &mut [f64]| {
                for i in 0..3 {
                    y[i] = (0..3).map(|j| a[i][j] * x[j]).sum();
                }
            };
            super::spectral_radius(apply, &mut v, &mut w, &mut q)
        };
        let wn2 = 9e4;
        let rho = radius([[0.0, 1.0, 0.0], [-wn2, -6.0, 0.0], [0.0, 0.0, -5.0]]);
        assert!((rho / 300.0 - 1.0).abs() < 1e-6, "{rho}");
        let rho = radius([[-1e3, 1.0, 0.0], [0.0, -2.0, 1.0], [0.0, 0.0, -3.0]]);
        assert!((rho / 1e3 - 1.0).abs() < 1e-6, "{rho}");
        assert_eq!(radius([[0.0; 3]; 3]), 0.0);
    }
}
