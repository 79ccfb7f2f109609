//! Physical invariants: what every run of a system must satisfy whatever its parameters (friction
//! opposes sliding where the model says so, state bounds, a contact set equal to its geometry).
//! A system declares its invariants once, beside its parameters ([`crate::system::System::INVARIANTS`]);
//! [`crate::check_invariants`] applies them to every run's data, computed or read from the cache,
//! and a violation is that run's error, naming the invariant, the time and the offending sample.
//!
//! The helpers here are the shared forms; a system's invariant is a function of its parameters,
//! its request and its data.

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

/// A state bound: `|z| ≤ bound` on every sample, to `1e-9` relative.
pub fn bounded(t: &[f64], z: &[f64], bound: f64, what: &str) -> Result<(), Violation> {
    every_sample(t, |i| {
        (z[i].abs() > bound * (1.0 + 1e-9)).then(|| format!("|{what}| = {:e} exceeds its bound {bound:e}", z[i].abs()))
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
