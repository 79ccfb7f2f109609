//! The branches of a loop: which branch each row of a measured loop lies on ([`branches`], a
//! `csv` fit target with `loop: true`), and a curve's y on one branch at a given x
//! ([`value_on_branch`], a `value-at` metric with `branch`). A point on the ascending branch is
//! compared with the model's ascending branch, whatever else the loop does at that x.

use fric_manifest::Branch;

/// The share of a branch's span that a point may lie beyond its end and still be read at that
/// end: the rounding of printed digits (a measured turning point written to ten digits), not a
/// point off the loop.
pub const END_SLACK: f64 = 1e-9;

/// The branch of each point of a loop sampled in order as `x`: the sign of its step from the
/// point before (ascending where x increased, descending where it decreased); the first
/// point's, its step to the next; a point repeating x, the branch before it (or, at the start,
/// the first after it). `None` for every point when x never moves.
pub fn branches(x: &[f64]) -> Vec<Option<Branch>> {
    let sign = |d: f64| {
        if d > 0.0 {
            Some(Branch::Ascending)
        } else if d < 0.0 {
            Some(Branch::Descending)
        } else {
            None
        }
    };
    let steps: Vec<Option<Branch>> = x.windows(2).map(|w| sign(w[1] - w[0])).collect();
    let first = steps.iter().find_map(|s| *s);
    let mut out = Vec::with_capacity(x.len());
    let mut last = first;
    for k in 0..x.len() {
        if let Some(s) = k.checked_sub(1).and_then(|j| steps[j]) {
            last = Some(s);
        }
        out.push(last);
    }
    out
}

/// y at x = `at` on the first segment of the curve (`x`, `y`) that runs along `branch` (x
/// increasing for ascending, decreasing for descending) and brackets `at`, linear between the
/// samples. A point beyond the branch's extent by at most [`END_SLACK`] of its span is read at
/// that end; further out, or in a gap between the branch's segments, it is an error naming the
/// branch's extent.
pub fn value_on_branch(x: &[f64], y: &[f64], at: f64, branch: Branch) -> Result<f64, String> {
    let along = |i: usize| match branch {
        Branch::Ascending => x[i] > x[i - 1],
        Branch::Descending => x[i] < x[i - 1],
    };
    let segs: Vec<usize> = (1..x.len().min(y.len())).filter(|&i| along(i)).collect();
    let (lo, hi) = segs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &i| {
        (l.min(x[i]).min(x[i - 1]), h.max(x[i]).max(x[i - 1]))
    });
    let name = branch.name();
    if segs.is_empty() {
        return Err(format!("the window has no {name} segment (x never {})", verb(branch)));
    }
    let slack = END_SLACK * (hi - lo);
    if !(at >= lo - slack && at <= hi + slack) {
        return Err(format!(
            "x = {at} lies outside the {name} branch, [{lo}, {hi}] over the window"
        ));
    }
    fric_solvers::analysis::value_at_where(x, y, at.clamp(lo, hi), along).ok_or_else(|| {
        format!("x = {at} falls in a gap of the {name} branch ([{lo}, {hi}] over the window, not covered throughout)")
    })
}

fn verb(b: Branch) -> &'static str {
    match b {
        Branch::Ascending => "increases",
        Branch::Descending => "decreases",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Branch::{Ascending as Up, Descending as Down};

    #[test]
    fn each_point_takes_the_branch_of_its_step_from_the_one_before() {
        let x = [0.0, 1.0, 2.0, 1.0, 1.0, 0.0, -1.0, 0.0];
        let b = branches(&x);
        let want = [Up, Up, Up, Down, Down, Down, Down, Up];
        assert_eq!(b, want.map(Some).to_vec());
        // Leading repeats take the first step; a constant x has no branch.
        assert_eq!(branches(&[1.0, 1.0, 0.0]), vec![Some(Down); 3]);
        assert_eq!(branches(&[1.0, 1.0]), vec![None; 2]);
    }

    #[test]
    fn a_value_is_read_on_its_branch_only() {
        // A loop: up along y = x + 1, a drop at the tip, down along y = x − 1.
        let x = [-1.0, 0.0, 1.0, 1.0, 0.0, -1.0];
        let y = [0.0, 1.0, 2.0, 0.0, -1.0, -2.0];
        assert_eq!(value_on_branch(&x, &y, 0.5, Up), Ok(1.5));
        assert_eq!(value_on_branch(&x, &y, 0.5, Down), Ok(-0.5));
        // A turning point printed a little beyond the branch's end is read at the end.
        assert_eq!(value_on_branch(&x, &y, 1.0 + 1e-12, Up), Ok(2.0));
        let far = value_on_branch(&x, &y, 1.1, Down).unwrap_err();
        assert!(far.contains("outside the descending branch"), "{far}");
        let none = value_on_branch(&x[..3], &y[..3], 0.0, Down).unwrap_err();
        assert!(none.contains("no descending segment"), "{none}");
    }
}
