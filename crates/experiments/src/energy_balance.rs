//! The energy-balance invariant of the mass–spring rigs: the work put in equals the work of the
//! friction plus the change of the stored (kinetic and spring) energy, at every sample,
//!
//! ```text
//! W_in(t) − W_f(t) − (E(t) − E(t₀)) = 0,   W_in = ∫ P_in dt,  W_f = ∫ F v dt,  E = ½ m v² + ½ K s²
//! ```
//!
//! (`P_in = u v` for a force-driven body, `K l v_p` for a spring pulled at `v_p`; `s` the spring's
//! extension). It is the equation of motion `m v̇ = (applied) − F` multiplied by `v` and
//! integrated, so it holds for every friction law; `W_f` counts the work done against friction,
//! dissipated or stored in the law's own elastic states (a bristle's torsion). What it checks is
//! that the friction **reported** (the `F` column every figure and metric reads) is the friction
//! the integration **applied**, over the whole run, and that the integration kept its tolerance.
//!
//! The works are quadrature outputs of the integration (`fric_solvers`'s `n_quadratures`:
//! five-point Gauss–Legendre on each accepted step's dense output, outside error control, so the
//! step sequence is unchanged); the rigs write them as columns `W_in`, `W_f`.
//!
//! **Tolerance (derived from the solver's).** Error control keeps each accepted step's error
//! estimate `‖e‖ ≤ 1` in the RMS norm scaled by `σ_c = atol + rtol |x_c|`, so no component's
//! local error exceeds `√n σ_c`. A local error `δ` changes `E` by `∇E·δ`, and nothing restores
//! it, so over `N` steps the computed `E` may drift from the exact balance by at most
//! `N √n Σ_c G_c σ_c` with `G_c = max |∂E/∂x_c|` over the run (`G_v = m max|v|`,
//! `G_s = K max|s|`). The works are integrals of the dense output, whose error at any point of a
//! step is again of the local error's size: over the run that adds at most
//! `T √n Σ_c H_c σ_c` with `H_c = max |∂(P_in − F v)/∂x_c|` and `T` the span. The bound uses
//! the run's largest `|x_c|` in `σ_c`. It is a bound, not an estimate: the propagated solution
//! is the higher-order one, whose error is below the estimate it is controlled by. Measured on
//! the production runs (2026-12-05, empty cache): residual/bound 4e-6 to 8e-5 for thesis Figs
//! 1.5, 3.7, 3.11–3.14, median 0.19 and at most 0.35 for Fig 3.9's runs and its explanation
//! chain (42 runs, DOP853 switched with Radau IIA at rtol down to 1e-12).

use crate::invariants::{every_sample, Violation};

/// What the bound of the module doc needs from a run.
pub struct Bound {
    /// `n`: the state's dimension under error control.
    pub dim: usize,
    /// Accepted steps `N`.
    pub steps: f64,
    /// Integrated span `T`.
    pub span: f64,
    pub rtol: f64,
    pub atol: f64,
    /// Per state component under error control: `(max |x_c|, G_c, H_c)`.
    pub components: Vec<(f64, f64, f64)>,
}

impl Bound {
    /// The bound of a run's data `d`: `n` is the number of `components`, `T` the span of its
    /// column `t`, and `N` the accepted steps the run records — `recorded_steps` (the record
    /// window's, when a driver took steps before it: period maps, a transient) else `steps`
    /// (every step the run took). A run that records neither gets a NaN bound, which
    /// [`check`] rejects, so a missing step count cannot pass.
    pub fn for_run(d: &crate::RunData, (rtol, atol): (f64, f64), components: Vec<(f64, f64, f64)>) -> Bound {
        let t = d.column("t").unwrap_or(&[]);
        Bound {
            dim: components.len(),
            steps: d
                .info
                .get("recorded_steps")
                .or_else(|| d.info.get("steps"))
                .copied()
                .unwrap_or(f64::NAN),
            span: t.last().unwrap_or(&0.0) - t.first().unwrap_or(&0.0),
            rtol,
            atol,
            components,
        }
    }

    /// `√n (N Σ G_c σ_c + T Σ H_c σ_c)`, `σ_c = atol + rtol max|x_c|`.
    pub fn tolerance(&self) -> f64 {
        let (g, h) = self.components.iter().fold((0.0, 0.0), |(g, h), &(x, gc, hc)| {
            let s = self.atol + self.rtol * x;
            (g + gc * s, h + hc * s)
        });
        (self.dim as f64).sqrt() * (self.steps * g + self.span * h)
    }
}

/// The `(rtol, atol)` the driver integrated a run with (`crate::drive::tolerances` for the
/// run's method), for an energy balance's bound; a request it cannot read is a violation.
pub fn driver_tolerance(req: &crate::RunRequest) -> Result<(f64, f64), Violation> {
    let unusable = |message: String| Violation {
        t: f64::NAN,
        count: 1,
        message,
    };
    let ode = crate::drive::ode_of(req).map_err(unusable)?;
    let sig = crate::input::signal(req).map_err(unusable)?;
    let tol = crate::drive::tolerances(req, ode, crate::drive::periodic_plan(req, &sig).0.scale);
    Ok((tol.rtol, tol.atol))
}

/// The largest `|a|` over the samples.
pub fn max_abs(a: &[f64]) -> f64 {
    a.iter().fold(0.0, |m, x| m.max(x.abs()))
}

/// `(max |x_c|, max |∂P/∂x_c|)` per state component over the samples, for a rate `P` of the
/// works (`P_in − F v`) that is not differentiated by hand: `state(i, x)` writes sample `i`'s
/// state into `x`, and each derivative is a central difference of step `10⁻⁶ (1 + max |x_c|)`
/// (the `H_c` of [`Bound`]).
pub fn sensitivities(
    samples: usize,
    dim: usize,
    state: impl Fn(usize, &mut [f64]),
    power: impl Fn(&[f64]) -> f64,
) -> Vec<(f64, f64)> {
    let mut x = vec![0.0; dim];
    let mut out = vec![(0.0f64, 0.0f64); dim];
    for i in 0..samples {
        state(i, &mut x);
        for (o, xc) in out.iter_mut().zip(&x) {
            o.0 = o.0.max(xc.abs());
        }
    }
    for i in 0..samples {
        state(i, &mut x);
        for c in 0..dim {
            let (xc, h) = (x[c], 1e-6 * (1.0 + out[c].0));
            x[c] = xc + h;
            let up = power(&x);
            x[c] = xc - h;
            let down = power(&x);
            x[c] = xc;
            out[c].1 = out[c].1.max(((up - down) / (2.0 * h)).abs());
        }
    }
    out
}

/// `|ΔW_in − ΔW_f − ΔE| ≤ tol` on every sample, each `Δ` from the first sample.
pub fn check(t: &[f64], w_in: &[f64], w_f: &[f64], stored: &[f64], tol: f64) -> Result<(), Violation> {
    let first = |a: &[f64]| a.first().copied().unwrap_or(0.0);
    let (e0, wi0, wf0) = (first(stored), first(w_in), first(w_f));
    every_sample(t, |i| {
        let r = (w_in[i] - wi0) - (w_f[i] - wf0) - (stored[i] - e0);
        // `!(… <= …)`: a NaN residual breaks it too.
        (!(r.abs() <= tol)).then(|| {
            format!(
                "input work {:e} J − friction work {:e} J − stored-energy change {:e} J = {r:e} J, beyond the solver's bound {tol:e} J",
                w_in[i] - wi0,
                w_f[i] - wf0,
                stored[i] - e0
            )
        })
    })
}

/// Test support shared by every system that declares an energy balance: its `energy-balance`
/// invariant holds on `run(1.0)` (the production run, whose `work` column exceeds `min_work`, so
/// the balance is tested on a run that does work) and fails on `run(1.001)` (the work integrated
/// from a force or torque 0.1 % off the one acting).
#[cfg(test)]
pub(crate) fn assert_holds_and_catches_misreport<P>(
    invariants: &[crate::invariants::Invariant<P>],
    p: &P,
    req: &crate::RunRequest,
    work: &str,
    min_work: f64,
    run: impl Fn(f64) -> Result<crate::RunData, String>,
) {
    let inv = invariants
        .iter()
        .find(|i| i.name == "energy-balance")
        .expect("an energy-balance invariant");
    let d = run(1.0).unwrap();
    (inv.check)(p, req, &d).unwrap();
    let w = max_abs(d.column(work).unwrap());
    assert!(w > min_work, "{work} reaches {w}, not over {min_work}");
    let e = (inv.check)(p, req, &run(1.001).unwrap()).unwrap_err();
    assert!(e.message.contains("beyond the solver's bound"), "{e}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_residual_beyond_the_bound_or_nan_breaks_it() {
        let t = [0.0, 1.0, 2.0];
        let e = [1.0, 1.5, 2.0];
        let w_f = [0.0, 0.5, 1.0];
        assert!(check(&t, &[0.0, 1.0, 2.0], &w_f, &e, 1e-12).is_ok());
        let v = check(&t, &[0.0, 1.0, 2.1], &w_f, &e, 1e-3).unwrap_err();
        assert_eq!((v.t, v.count), (2.0, 1), "{v}");
        assert!(check(&t, &[0.0, f64::NAN, 2.0], &w_f, &e, 1.0).is_err());
    }

    #[test]
    fn a_runs_bound_counts_its_recorded_steps_and_nan_without_any() {
        let mut d = crate::RunData {
            columns: vec![("t".into(), vec![1.0, 2.0, 5.0])],
            ..Default::default()
        };
        let b = |d: &crate::RunData| Bound::for_run(d, (1e-6, 0.0), vec![(2.0, 3.0, 0.5)]);
        assert!(b(&d).tolerance().is_nan());
        assert!(check(&[0.0], &[0.0], &[0.0], &[0.0], b(&d).tolerance()).is_err());
        d.info.insert("steps".into(), 30.0);
        assert_eq!((b(&d).steps, b(&d).span, b(&d).dim), (30.0, 4.0, 1));
        d.info.insert("recorded_steps".into(), 10.0);
        assert_eq!(b(&d).steps, 10.0);
    }

    #[test]
    fn the_bound_is_steps_and_span_times_the_scaled_sensitivities() {
        let b = Bound {
            dim: 4,
            steps: 10.0,
            span: 100.0,
            rtol: 1e-6,
            atol: 0.0,
            components: vec![(2.0, 3.0, 0.5)],
        };
        // √4 (10 · 3 · 2e-6 + 100 · 0.5 · 2e-6) = 2 (6e-5 + 1e-4)
        assert!((b.tolerance() - 3.2e-4).abs() < 1e-18, "{}", b.tolerance());
    }
}
