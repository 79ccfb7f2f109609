//! Physical invariants: what every run of a system must satisfy whatever its parameters (friction
//! opposes sliding where the model says so, state bounds, a contact set equal to its geometry).
//! A system declares its invariants once, beside its parameters ([`crate::system::System::INVARIANTS`]);
//! [`crate::check_invariants`] applies them to every run's data, computed or read from the cache,
//! and a violation is that run's error, naming the invariant, the time and the offending sample.
//!
//! The helpers here are the shared forms; a system's invariant is a function of its parameters,
//! its request and its data.
//!
//! **Friction opposes sliding** ([`opposes_sliding`]), sample by sample, is declared where the
//! source states it for every sliding instant: Coulomb friction (`coulomb-mass-spring`), the
//! classical model's kinetic level τk± sgn θ' (`inertia-pid-classical`, report (1.2)–(1.4)) and
//! the rotating-bristle models' sign rule (3.18) (`drbm-*`, `crate::drbm`). The other models' sources
//! do not state it, and their own equations break it on purpose (read 2026-12-06, issue 43):
//! - LuGre (thesis (1.24)–(1.27), report (3.3)–(3.4)): only the steady state
//!   F_ss(v) = g(v) sgn v + σ2 v opposes the velocity; after a reversal the bristle deflection z
//!   keeps its sign until z' = v − σ0 |v| z/g(v) has carried it through zero, so σ0 z + σ1 z' + σ2 v
//!   points along v for a while (the model's pre-sliding hysteresis). The steady level is checked
//!   by the steady-state metrics, not per sample; the state bound ([`LUGRE_BOUND`]) holds on every
//!   sample.
//! - Dahl (duhem-paper L136) and Bliman & Sorine (report (2.7)): rate-independent hysteresis;
//!   F moves towards F_C sgn u' after a reversal and keeps its old sign until it crosses zero.
//! - Maxwell-slip (thesis (1.20)–(1.21)): an element inside its deadband sticks, so after a
//!   reversal Σ k_i (u − x_i) keeps its sign while the springs unload; a sliding element pushes
//!   k_i Δ_i against its motion, but the output is the sum only ([`MAXWELL_SLIP_BOUND`] holds).
//! - Compressed bristles (thesis ch. IV): the window force of the branch of v (the
//!   `contact-window` invariant) opposes v while every bristle is compressed; the published linear
//!   law allows tension, which a check flags, so no sign rule is an invariant of it.

use crate::RunData;

/// One declared invariant of a system with parameters `P`.
pub struct Invariant<P> {
    /// Short name, shown in `cargo xtask schema` and in the error.
    pub name: &'static str,
    /// What it states, with the source's equation where there is one.
    pub doc: &'static str,
    /// `Err` with the first violation.
    pub check: fn(&P, &crate::RunRequest, &RunData) -> Result<(), Violation>,
}

/// The first sample that breaks an invariant.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Time of the sample.
    pub t: f64,
    /// What is wrong at that sample, with its values.
    pub message: String,
    /// How many samples break it in all.
    pub count: usize,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at t = {} s: {}", self.t, self.message)?;
        if self.count > 1 {
            write!(f, " ({} samples break it)", self.count)?;
        }
        Ok(())
    }
}

/// A column of `d` that the system itself writes (a missing one is the system's bug).
pub fn col<'a>(d: &'a RunData, name: &str) -> Result<&'a [f64], Violation> {
    d.column(name).ok_or_else(|| Violation {
        t: f64::NAN,
        message: format!("the run has no column `{name}`"),
        count: 1,
    })
}

/// Check `bad(i)` on every sample: `Err` at the first one it describes, counting them all.
pub fn every_sample(t: &[f64], mut bad: impl FnMut(usize) -> Option<String>) -> Result<(), Violation> {
    let mut first: Option<Violation> = None;
    let mut count = 0;
    for (i, &ti) in t.iter().enumerate() {
        if let Some(m) = bad(i) {
            count += 1;
            if first.is_none() {
                first = Some(Violation {
                    t: ti,
                    message: m,
                    count: 0,
                });
            }
        }
    }
    match first {
        Some(v) => Err(Violation { count, ..v }),
        None => Ok(()),
    }
}

/// Friction opposes sliding: on every sample with `|v| > v_min` (sliding), `F · sign(v) ≥ −tol`,
/// where `F` is the friction acting against the motion (`m v̇ = … − F`).
pub fn opposes_sliding(t: &[f64], v: &[f64], f: &[f64], v_min: f64, tol: f64) -> Result<(), Violation> {
    every_sample(t, |i| {
        let (v, f) = (v[i], f[i]);
        (v.abs() > v_min && f * v.signum() < -tol)
            .then(|| format!("sliding with v = {v:e} while the friction F = {f:e} pushes the same way"))
    })
}

/// How far past a state bound an integrated sample may sit: the bound is a contracting
/// equilibrium of the exact solution, so a numerical one passes it by at most one accepted step's
/// local error, about `rtol · bound + atol`, which does not accumulate. 1e-8 relative is the
/// project's default rtol. First set to 1e-9; the first failure that moved it: drum-dahl in
/// `spring::tests` at rtol 1e-9 sat 8.2e-10 N past F_C = 0.75 N (1.1e-9 relative, rtol · F_C
/// = 7.5e-10 N plus atol), on merged main 2026-12-06.
pub const BOUND_SLACK: f64 = 1e-8;

/// A state bound: `|z| ≤ bound` on every sample, to [`BOUND_SLACK`] relative.
pub fn bounded(t: &[f64], z: &[f64], bound: f64, what: &str) -> Result<(), Violation> {
    every_sample(t, |i| {
        (z[i].abs() > bound * (1.0 + BOUND_SLACK))
            .then(|| format!("|{what}| = {:e} exceeds its bound {bound:e}", z[i].abs()))
    })
}

/// The name of the LuGre bristle bound, one per LuGre-class system ([`lugre_bound`]).
pub const LUGRE_BOUND: &str = "bristle-bound";

/// What the LuGre bristle bound states, shared by every LuGre-class system.
pub const LUGRE_BOUND_DOC: &str = "|z| <= max(|z(0)|, max_v g(v)/sigma0): z' = v - sigma0 |v| z/g(v) shrinks |z| wherever sigma0 |z| > g(v), so the deflection never leaves the bound it starts inside (report Property 3.4, L955-957: 0 < g(v) <= a and sigma0 |z(0)| < a give sigma0 |z(t)| < a; thesis (1.24)-(1.26)); to 1e-8 relative (one accepted step's error, BOUND_SLACK)";

/// The LuGre bristle bound on the column `z` of `d`: `|z| ≤ max(|z0|, g_max/σ0)` on every sample,
/// `g_max` the largest value of the law's `g(v)` (on either side of an asymmetric law).
pub fn lugre_bound(d: &RunData, z: &str, z0: f64, g_max: f64, sigma0: f64) -> Result<(), Violation> {
    bounded(col(d, "t")?, col(d, z)?, z0.abs().max(g_max / sigma0), z)
}

/// The name of the Dahl force bound ([`dahl_bound`]).
pub const DAHL_BOUND: &str = "force-bound";

/// What the Dahl force bound states, shared by every Dahl-class system.
pub const DAHL_BOUND_DOC: &str = "|F| <= max(|F(0)|, F_C): F' has the sign that drives F towards F_C sgn u' and vanishes there (duhem-paper L136: F' > 0 for F < F_C and < 0 for F > F_C while u increases, mirrored while it decreases), so a force that starts inside [-F_C, F_C] stays inside; to 1e-8 relative (one accepted step's error, BOUND_SLACK)";

/// The Dahl force bound on the column `f` of `d`: `|F| ≤ max(|f0|, fc)` on every sample.
pub fn dahl_bound(d: &RunData, f: &str, f0: f64, fc: f64) -> Result<(), Violation> {
    bounded(col(d, "t")?, col(d, f)?, f0.abs().max(fc), f)
}

/// The name of the Maxwell-slip force bound ([`MaxwellSlipElements::check_bound`](crate::laws::MaxwellSlipElements::check_bound)).
pub const MAXWELL_SLIP_BOUND: &str = "element-bound";

/// What the Maxwell-slip force bound states, shared by every Maxwell-slip system.
pub const MAXWELL_SLIP_BOUND_DOC: &str = "|F| <= sum |k_i| Delta_i: (1.20) stops each element at the edge of its deadband |u - x_i| <= Delta_i (thesis L437-441; every element starts inside it), so each k_i (u - x_i) of (1.21) stays within its break-away level |k_i| Delta_i; to 1e-8 relative (BOUND_SLACK)";

/// The name of the rotating-bristle window bound ([`corner_forces`]).
pub const BRISTLE_WINDOWS: &str = "bristle-windows";

/// What the rotating-bristle window bound states (thesis ch. III, RBM and DRBM).
pub const BRISTLE_WINDOWS_DOC: &str = "0 <= F_f^r <= n kappa theta_max/h and -n kappa theta_max/h <= F_f^l <= 0, theta_max = atan(d0/h), n = floor(d0/Delta) + 1: every bristle of a corner's contact set lies in that corner's window (Table 3.1, (3.14), (3.16): x + d/2 - d0 < x_b <= x + d/2 on the right, x - d/2 <= x_b < x - d/2 + d0 on the left), so its pivot angle is in [0, theta_max) on the right ((3.17), L997) and in (-theta_max, 0] on the left, adding kappa theta cos^2 theta/h ((3.6)-(3.8)) of that sign and of size below kappa theta_max/h; a window of length d0 holds at most n bases. To 1e-12 of the bound";

/// The rotating-bristle window bound on the columns `Fl`, `Fr` of `d`: `0 ≤ F_r ≤ per_corner`,
/// `−per_corner ≤ F_l ≤ 0` on every sample.
pub fn corner_forces(d: &RunData, per_corner: f64) -> Result<(), Violation> {
    let (t, fl, fr) = (col(d, "t")?, col(d, "Fl")?, col(d, "Fr")?);
    let tol = 1e-12 * per_corner;
    every_sample(t, |i| {
        let (l, r) = (fl[i], fr[i]);
        let inside = (-tol..=per_corner + tol).contains(&r) && (-per_corner - tol..=tol).contains(&l);
        (!inside).then(|| {
            format!("corner forces F_f^l = {l:e}, F_f^r = {r:e} outside [-{per_corner:e}, 0] and [0, {per_corner:e}]")
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposes_sliding_finds_the_first_violation_and_counts() {
        let t = [0.0, 1.0, 2.0, 3.0, 4.0];
        let v = [1.0, -1.0, -1.0, 1e-9, -2.0];
        let f = [0.5, -0.5, 0.1, 0.3, 0.2];
        let e = opposes_sliding(&t, &v, &f, 1e-6, 1e-12).unwrap_err();
        assert_eq!((e.t, e.count), (2.0, 2), "{e}");
        assert!(e.to_string().contains("at t = 2 s"), "{e}");
        assert!(opposes_sliding(&t[..2], &v[..2], &f[..2], 1e-6, 0.0).is_ok());
    }
}
