//! The comparisons of the production with the reference as one table: each row a number of
//! each run and how close they must be, checked by one loop ([`check`]) that names every row
//! that fails.

/// How close the production's number must be to the reference's.
#[derive(Clone, Copy, Debug)]
pub enum Within {
    /// `|p − r| / |r| < tol`.
    Rel(f64),
    /// `|p − r| < tol`.
    Abs(f64),
    /// `|p − r| ≤ tol` (counts: 0 for equal, 1 for one apart).
    AbsLe(f64),
}

impl Within {
    /// Whether `production` is close enough to `reference`.
    pub fn holds(self, production: f64, reference: f64) -> bool {
        let d = (production - reference).abs();
        match self {
            Within::Rel(t) => d / reference.abs() < t,
            Within::Abs(t) => d < t,
            Within::AbsLe(t) => d <= t,
        }
    }
    /// The largest `|p − r|` allowed (the relative bound made absolute).
    fn allowed(self, reference: f64) -> f64 {
        match self {
            Within::Rel(t) => t * reference.abs(),
            Within::Abs(t) | Within::AbsLe(t) => t,
        }
    }
}

/// One row: a named number of each run and its bound.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub name: &'static str,
    pub production: f64,
    pub reference: f64,
    pub within: Within,
}

/// A row `name`: `production` against `reference` within `within`.
pub fn case(name: &'static str, production: f64, reference: f64, within: Within) -> Case {
    Case {
        name,
        production,
        reference,
        within,
    }
}

/// Check every row of `cases` (`context` names the figure, run and tolerance); panics naming
/// each row that fails. Every row must also fail when its production number is moved twice its
/// bound away from the reference's (at least 1e-12 relative), so that no row passes whatever
/// the number.
pub fn check(context: &str, cases: &[Case]) {
    let mut failed = vec![];
    for c in cases {
        if !c.within.holds(c.production, c.reference) {
            failed.push(format!(
                "{}: production {} vs reference {} (within {:?})",
                c.name, c.production, c.reference, c.within
            ));
        }
        let step = c.within.allowed(c.reference).max(1e-12 * c.reference.abs()).max(1e-300);
        let moved = c.reference + 2.0 * step;
        assert!(
            step.is_finite() && !c.within.holds(moved, c.reference),
            "{context}: row `{}` passes a production number {moved} twice its bound away",
            c.name
        );
    }
    assert!(failed.is_empty(), "{context}:\n  {}", failed.join("\n  "));
}

/// A row holds within its bound, and fails once its production number is moved past it.
#[test]
fn a_row_fails_when_its_number_is_perturbed() {
    let rows = [
        case("rel", 1.005, 1.0, Within::Rel(0.01)),
        case("abs", 0.2, 0.21, Within::Abs(0.02)),
        case("count", 18.0, 17.0, Within::AbsLe(1.0)),
        case("equal", 17.0, 17.0, Within::AbsLe(0.0)),
    ];
    check("in bounds", &rows);
    for (i, r) in rows.iter().enumerate() {
        let mut moved = rows;
        moved[i].production = r.reference + 2.0 * r.within.allowed(r.reference) + 1e-9;
        let caught = std::panic::catch_unwind(|| check("moved", &moved)).is_err();
        assert!(caught, "row `{}` passed moved to {}", r.name, moved[i].production);
    }
}

/// A row whose bound lets any number pass (an infinite one) is refused.
#[test]
fn a_row_that_passes_anything_is_refused() {
    for within in [Within::Rel(f64::INFINITY), Within::Abs(f64::INFINITY)] {
        let rows = [case("vacuous", 1.0, 1.0, within)];
        assert!(
            std::panic::catch_unwind(|| check("vacuous", &rows)).is_err(),
            "{within:?}"
        );
    }
}
