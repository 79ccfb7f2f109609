//! `maxwell-slip-area`: the closed-form loop area of the Maxwell-slip element set
//! k_i = 1/N, δ_i = i/N (i = 1..N) under u = A sin ωt, drawn over N beside the simulated areas
//! (followup Fig 3).

use crate::input::{grid, table};
use crate::system::{params, positive, Column, System, GRID};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        a: f64 = positive("m", "input amplitude A (every element slips when A > 1 m)"),
    }
}

pub struct MaxwellSlipArea;

/// Σ_{i=1..N} 4 k_i δ_i (A − δ_i) with k_i = 1/N, δ_i = i/N, summed in closed form:
/// 2A(N + 1)/N − 2(N + 1)(2N + 1)/(3N²) (at A = 2 m: 2(N + 1)(4N − 1)/(3N²)).
fn area(a: f64, n: f64) -> f64 {
    2.0 * a * (n + 1.0) / n - 2.0 * (n + 1.0) * (2.0 * n + 1.0) / (3.0 * n * n)
}

/// The continuum limit N → ∞ of [`area`]: 2A − 4/3.
fn area_limit(a: f64) -> f64 {
    2.0 * a - 4.0 / 3.0
}

impl System for MaxwellSlipArea {
    const NAME: &'static str = "maxwell-slip-area";
    const DOC: &'static str = "Closed-form loop area ∮F du of the Maxwell-slip element set k_i = 1/N N/m, δ_i = i/N m (i = 1..N) under u = A sin ωt with A > 1 m (every element slips): Σ 4 k_i δ_i (A − δ_i) = 2A(N + 1)/N − 2(N + 1)(2N + 1)/(3N²), evaluated on the input grid of N (the rational function between whole N, a curve to draw, not an element count), and its continuum limit 2A − 4/3: columns n, area, area_limit. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("n", "1", "number of elements N"),
        ("area", "J", "closed-form loop area"),
        ("area_limit", "J", "continuum limit 2A − 4/3"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn check(p: &Params, req: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.a <= 1.0 {
            errs.push(crate::system::invalid(
                "a",
                format!("A = {} m leaves elements stuck (δ_N = 1 m)", p.a),
                "A > 1 m, so that every element slips and the closed form holds",
            ));
        }
        if grid(&req.input).iter().any(|&n| n < 1.0) {
            errs.push(Invalid::new("input", "a grid value N < 1", "N ≥ 1 over the whole grid"));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let n = grid(&req.input);
        let area: Vec<f64> = n.iter().map(|&n| area(p.a, n)).collect();
        let limit = vec![area_limit(p.a); n.len()];
        Ok(table(vec![("n", n), ("area", area), ("area_limit", limit)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed form equals the element sum at whole N (A = 2 m: 4, 3.5, 3.125, 2.90625 J).
    #[test]
    fn closed_form_matches_the_sum() {
        for n in 1..=8 {
            let nf = n as f64;
            let sum: f64 = (1..=n)
                .map(|i| 4.0 / nf * (i as f64 / nf) * (2.0 - i as f64 / nf))
                .sum();
            assert!(
                (area(2.0, nf) - sum).abs() < 1e-12,
                "N = {n}: {} vs {sum}",
                area(2.0, nf)
            );
        }
        assert_eq!(area(2.0, 8.0), 2.90625);
        assert!((area(2.0, 1e9) - area_limit(2.0)).abs() < 1e-8);
    }
}
