//! Cross-model check of thesis §2.3 (L612–L660, catalog M9): as the input frequency tends to zero
//! the multiplay model (2.3)–(2.4) tends to the Maxwell-slip model (2.12)–(2.13) with the same
//! `k_i`, `Δ_i`. The multiplay ODE is integrated with `fric-solvers` (DOP853) to its periodic
//! steady state under `u = A sin ωt`; over the last period its output is compared with the exact
//! Maxwell-slip operator driven by the same input samples.
//!
//! Parameters: `k = (1, 2, 3)`, `Δ = (0.2, 0.5, 0.8)`, `m_i = c_i = k_i` (the thesis' choice for
//! every multiplay example, L698), `A = 1`.
//!
//! Leading-order error (derived). On the rising branch a sliding element pushed at input speed
//! `v = u' > 0` obeys, with `z = x − (u − Δ)`, `m z'' + c z' + k z = −c v − m u''` (the falling
//! branch is its mirror image): quasi-statically `k z = −c v + O(ω²)`, so
//! it contributes `k Δ + c v` to `y` where the Maxwell-slip element gives `k Δ`. At the onset of
//! sliding the mass is at rest (`z = 0`, `z' = −v`); for `c/m = k/m = 1` the error of that element
//! is `c v g(t)` with `g = 1 − e^{−t/2} (cos(√3 t/2) − sin(√3 t/2)/√3)`, whose maximum is
//! `g* = 1 + e^{−2π/(3√3)} = 1.29844` at `t* = 4π/(3√3) = 2.418` (where `tan(√3 t/2) = −√3`).
//! Release at the input reversals happens at speed `O(ω²)`, so the rest positions, hence the
//! sliding onsets, agree with the Maxwell-slip model to `O(ω²)`. On the rising branch element `j`
//! starts sliding at `u_j = −A + 2Δ_j` = −0.6, 0, 0.6 where `v = ω √(A² − u_j²)` = 0.8ω, ω, 0.8ω.
//! The largest error is at the onset of element 3:
//! `E1 ω = 0.8 ω (c_1 + c_2 + c_3 g*) = 5.51625 ω`, against `ω (c_1 + c_2 g*) = 3.597 ω` at the
//! onset of element 2, `0.8 ω c_1 g* = 1.039 ω` at that of element 1, and the quasi-static
//! plateau maxima `ω`, `3ω`, `4.8ω` between onsets. So `max |y_multiplay − y_MS| = E1 ω + O(ω²)`.
//!
//! Relative size of the `O(ω)` correction to `E1 ω` (estimated): `v` changes by
//! `ω t* |tan θ| = 1.8 ω` (`tan θ = 0.6/0.8`) during the onset transient, and `m u''/(c u')` is
//! `ω |tan θ| = 0.75 ω`: about `C ω` with `|C| ≲ 3`. Hence:
//! - the observed order between ω = 0.1, 0.01, 0.001 is `1 + log10((1 + Cω₁)/(1 + Cω₂))`, within
//!   `[0.8, 1.2]` for `−3.8 ≤ C ≤ 6` (asserted);
//! - at ω = 0.001 the error is `E1 ω` to within `3ω ≈ 0.3%`; asserted within 1%;
//! - for ω ≤ 0.01 the largest error lies just past the onset of element 3, `|u| = 0.6`: the input
//!   travel until the peak is at most its leading-order value `sin(asin 0.6 + ω t*) − 0.6` (the peak
//!   of `v(t) h(t)`, `h = c_1 + c_2 + c_3 g`, with `v` falling comes before `t*`) and at least 80%
//!   of it: the peak satisfies `c_3 g' = ω tan θ h` (`v'/v = −ω tan θ`), so it moves earlier by
//!   `δt ≈ ω tan θ h(t*) / (c_3 |g''(t*)|) = 0.75ω · 6.895 / (3 · 0.298) ≈ 5.8ω` (`g''(t*) =
//!   −e^{−t*/2}`), 2.4% of `t*` at ω = 0.01. At ω = 0.1 the transient is not short against the
//!   quarter period (15.7) and the location is not asserted.
//!
//! The integration error (rtol 1e-10, atol 1e-12 on `O(1)` states) and the sampling of the last
//! period (spacing ≤ 0.02 time units against the 2.4-unit transient: relative miss of the peak
//! ≲ 1e-4) are far below these margins.

use std::f64::consts::PI;

use fric_models::multiplay::Multiplay;
use fric_models::InputDriven;
use fric_solvers::analysis::until_periodic;
use fric_solvers::{solve, Method, OdeSystem, SolveError, Tolerances};

const AMP: f64 = 1.0;

struct Driven<'a> {
    model: &'a Multiplay,
    omega: f64,
}

impl Driven<'_> {
    fn input(&self, t: f64) -> (f64, f64) {
        let th = self.omega * t;
        (AMP * th.sin(), AMP * self.omega * th.cos())
    }
}

impl OdeSystem for Driven<'_> {
    fn dim(&self) -> usize {
        self.model.dim()
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        let (u, du) = self.input(t);
        self.model.rhs(u, du, x, dx)
    }
    fn jacobian(&self, t: f64, x: &[f64], j: &mut [f64]) -> bool {
        let (u, du) = self.input(t);
        self.model.jacobian(u, du, x, j)
    }
}

struct Measured {
    error: f64,
    u_at_max: f64,
    periods: usize,
    steps: usize,
}

fn dc_error(model: &Multiplay, omega: f64) -> Result<Measured, SolveError> {
    let sys = Driven { model, omega };
    let period = 2.0 * PI / omega;
    let tol = Tolerances {
        rtol: 1e-10,
        atol: 1e-12,
        ..Default::default()
    };
    let mut steps = 0;
    let mut x = model.state_at_rest(&[0.0; 3]);
    // A 1e-9 period-to-period change of O(1) states is far below the measured errors (≥ 5e-3).
    let per = until_periodic(&mut x, 1e-9, 20, |k, x| {
        let t0 = k as f64 * period;
        let out = solve(&sys, Method::Dop853, &tol, t0, x, t0 + period, &[], &mut |_, _| {})?;
        steps += out.stats.accepted + out.stats.rejected;
        x.copy_from_slice(&out.x);
        Ok(())
    })?;
    assert!(per.converged, "ω = {omega}: not periodic after {} periods", per.periods);

    // Maxwell-slip in its periodic state at u = 0 on the rising branch: every element was last
    // pushed down at u = −A (2Δ_i < 2A), which the exact operator reaches from any state.
    let dc = model.dc_limit();
    let mut ms = dc.state(0.0, 0.0);
    for u in [AMP, -AMP, 0.0] {
        dc.advance(&mut ms, u);
    }

    // One more period, sampled with spacing ≤ 0.02 and a multiple of 4 samples, so that the input
    // extrema are samples and the operator sees monotone increments only.
    let t0 = per.periods as f64 * period;
    let n = 4 * (period / 0.08).ceil() as usize;
    let saveat: Vec<f64> = (0..=n).map(|j| t0 + period * j as f64 / n as f64).collect();
    let (mut error, mut u_at_max) = (0.0f64, 0.0);
    let out = solve(&sys, Method::Dop853, &tol, t0, &x, t0 + period, &saveat, &mut |t, x| {
        let (u, du) = sys.input(t);
        let e = (model.output(u, du, x) - dc.advance(&mut ms, u)).abs();
        if e > error {
            (error, u_at_max) = (e, u);
        }
    })?;
    steps += out.stats.accepted + out.stats.rejected;
    Ok(Measured {
        error,
        u_at_max,
        periods: per.periods + 1,
        steps,
    })
}

#[test]
fn multiplay_tends_to_maxwell_slip_linearly_in_omega() {
    let model = Multiplay::from_stiffness(vec![1.0, 2.0, 3.0], vec![0.2, 0.5, 0.8]);
    let t_star = 4.0 * PI / (3.0 * 3f64.sqrt());
    let g_star = 1.0 + (-t_star / 2.0).exp();
    let e1 = 0.8 * (1.0 + 2.0 + 3.0 * g_star);
    assert!((e1 - 5.51625).abs() < 1e-5);

    let omegas = [0.1, 0.01, 0.001];
    let mut errors = Vec::new();
    for &omega in &omegas {
        let m = dc_error(&model, omega).expect("integration failed");
        eprintln!(
            "ω = {omega}: max|y_mp − y_MS| = {:.6e} = {:.5}·ω (derived leading term {e1:.5}·ω) at u = {:+.4}; \
             {} periods, {} steps",
            m.error,
            m.error / omega,
            m.u_at_max,
            m.periods,
            m.steps
        );
        if omega <= 0.01 {
            // The peak follows the onset at |u| = 0.6 by at most t* of input travel, and by not
            // much less (v falls during the transient, which moves the peak earlier by ≈ 5.8ω,
            // ≤ 2.4% of t* here).
            let shift = m.u_at_max.abs() - 0.6;
            let leading = (0.6f64.asin() + omega * t_star).sin() - 0.6;
            assert!(
                (0.8 * leading..=leading).contains(&shift),
                "ω = {omega}: max error at u = {}, {shift} past the onset (leading order {leading})",
                m.u_at_max
            );
        }
        errors.push(m.error);
    }
    for (i, pair) in errors.windows(2).enumerate() {
        assert!(pair[1] < pair[0], "error does not decrease: {errors:?}");
        let order = (pair[0] / pair[1]).ln() / (omegas[i] / omegas[i + 1]).ln();
        eprintln!(
            "observed order between ω = {} and {}: {order:.4}",
            omegas[i],
            omegas[i + 1]
        );
        assert!(
            (0.8..=1.2).contains(&order),
            "observed order {order} outside [0.8, 1.2]"
        );
    }
    let last = errors[2] / omegas[2];
    assert!((last / e1 - 1.0).abs() < 0.01, "error/ω = {last} vs derived {e1}");
}
