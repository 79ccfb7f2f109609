//! `sawtooth-equilibria`: the equilibria set (3.58) of the force-driven block with the sawtooth
//! friction (3.47)–(3.49), thesis Figs 3.11 and 3.12 (the FFBM's set (3.76)–(3.78) is the same,
//! L1302), as a band a panel can shade.
//!
//! The set is `{(ū, x̄) : K x̄ + F_f^l(x̄) ≤ ū ≤ K x̄ + F_f^r(x̄)}`: at each x̄ an interval of ū,
//! bounded by two sawtooth curves (the boundary equilibria). A `band` shades between `y` and
//! `y2` at a common abscissa, here ū. Away from the lattice ΔZ, `F_f^r(x̄) − F_f^l(x̄) = F_min
//! + F_max = W`, so the left boundary is the right one moved by −W in ū; when `W / (K Δ)` is a
//! whole number n, moving by +W/K = nΔ in x̄ is the same (the sawtooth repeats every Δ with a rise
//! K Δ in ū). The right boundary's point `(ū, x̄)` and the left boundary's `(ū, x̄ + W/K)` then
//! share ū, and the band `x = ū`, `y = x̄`, `y2 = x̄ + W/K` is the set exactly, jumps included.

use crate::input::{grid, table};
use crate::system::{params, positive, Column, System, GRID};
use crate::{Invalid, RunData, RunRequest};
use fric_models::rbm::Sawtooth;

params! {
    pub struct Params {
        k_spring: f64 = positive("N/m", "wall spring stiffness K"),
        f_min: f64 = positive("N", "F_min of the sawtooth (3.48)-(3.49)"),
        f_max: f64 = positive("N", "F_max of the sawtooth (3.48)-(3.49)"),
        delta: f64 = positive("m", "sawtooth period Δ"),
    }
}

pub struct SawtoothEquilibria;

/// How far `W / (K Δ)` may be from a whole number (relative rounding of the printed parameters).
const WHOLE_TOL: f64 = 1e-9;

/// `W / (K Δ)` rounded, if it is a whole number: the teeth between the two boundaries.
fn teeth_between(p: &Params) -> Option<f64> {
    let n = (p.f_min + p.f_max) / (p.k_spring * p.delta);
    let r = n.round();
    (r >= 1.0 && (n - r).abs() <= WHOLE_TOL * n).then_some(r)
}

/// How close (in cells) a grid sample may be to a lattice point `nΔ` to be taken as that point.
const LATTICE_TOL: f64 = 1e-9;

/// The right boundary `ū = K x̄ + F_f^r(x̄)` over `[from, to]`: the grid's samples off the lattice
/// plus both one-sided limits at every lattice point `nΔ` in the range (the jump is a horizontal
/// edge; at an end on the lattice only the limit inside the range). A grid sample within
/// `LATTICE_TOL` cells of a lattice point is replaced by that point's limits: evaluated by
/// `rem_euclid`, a sample rounded a few ulps to either side of `nΔ` would take the wrong side's
/// value and bend the edge of the whole cell. Returns `(x̄, ū)`, x̄ non-decreasing.
pub(crate) fn right_boundary(saw: &Sawtooth, k: f64, xs: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let (Some(&lo), Some(&hi)) = (xs.first(), xs.last()) else {
        return (vec![], vec![]);
    };
    let cells = |x: f64| x / saw.delta;
    let on_lattice = |x: f64| (cells(x) - cells(x).round()).abs() <= LATTICE_TOL;
    let mut pts: Vec<(f64, f64)> = xs
        .iter()
        .filter(|&&x| !on_lattice(x))
        .map(|&x| (x, k * x + saw.right(x)))
        .collect();
    let first = (cells(lo) - LATTICE_TOL).ceil() as i64;
    let last = (cells(hi) + LATTICE_TOL).floor() as i64;
    for n in first..=last {
        let x = n as f64 * saw.delta;
        if n != first || !on_lattice(lo) {
            pts.push((x, k * x + saw.f_max)); // the limit from below
        }
        if n != last || !on_lattice(hi) {
            pts.push((x, k * x + saw.f_min)); // from above: F_f^r(nΔ) = F_min
        }
    }
    // Stable: the two limits at a lattice point keep their order (below, then above).
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    pts.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    pts.into_iter().unzip()
}

impl System for SawtoothEquilibria {
    const NAME: &'static str = "sawtooth-equilibria";
    const DOC: &'static str = "Equilibria set (3.58) of the force-driven block with the sawtooth friction (3.47)-(3.49) (= the FFBM's (3.76)-(3.78)), over a grid of x̄: the right boundary u = K x̄ + F_f^r(x̄) with both limits at each jump, and x_left = x̄ + (F_min + F_max)/K, the left boundary's point at the same ū, so a band x: u, y: x, y2: x_left shades the set. Needs (F_min + F_max)/(K Δ) whole. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("x", "m", "x̄ on the right boundary"),
        (
            "u",
            "N",
            "ū = K x̄ + F_f^r(x̄), the right boundary (boundary equilibria, α = 1)",
        ),
        (
            "x_left",
            "m",
            "x̄ + (F_min + F_max)/K: the left boundary ū = K x̄ + F_f^l(x̄) at the same ū",
        ),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.f_max <= p.f_min {
            errs.push(crate::system::invalid(
                "f_max",
                format!("F_max = {} is not above F_min = {}", p.f_max, p.f_min),
                "f_max > f_min > 0",
            ));
        } else if teeth_between(p).is_none() {
            errs.push(crate::system::invalid(
                "delta",
                format!(
                    "(F_min + F_max)/(K Δ) = {} is not a whole number: the two boundaries do not share ū sample by sample, so the set is no band over ū",
                    (p.f_min + p.f_max) / (p.k_spring * p.delta)
                ),
                "(f_min + f_max) / (k_spring · delta) a whole number",
            ));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let saw = Sawtooth {
            f_min: p.f_min,
            f_max: p.f_max,
            delta: p.delta,
        };
        let n = teeth_between(p).ok_or("(F_min + F_max)/(K Δ) is not a whole number")?;
        let (x, u) = right_boundary(&saw, p.k_spring, &grid(&req.input));
        let x_left = x.iter().map(|&x| x + n * p.delta).collect();
        Ok(table(vec![("x", x), ("u", u), ("x_left", x_left)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Even–odd ray casting: is `q` inside the closed polygon `poly`?
    fn inside(poly: &[(f64, f64)], q: (f64, f64)) -> bool {
        let mut c = false;
        for (&a, &b) in poly.iter().zip(poly.iter().cycle().skip(1)) {
            if (a.1 > q.1) != (b.1 > q.1) && q.0 < a.0 + (q.1 - a.1) / (b.1 - a.1) * (b.0 - a.0) {
                c = !c;
            }
        }
        c
    }

    /// The band polygon (lower edge forward, upper edge back, as the renderer draws it) is the set
    /// (3.58) wherever the band is not cut by its ends: checked on a lattice of points for the
    /// parameters of Figs 3.11 (K = 1, Δ = 0.1, F = 0.5…1) and 3.12 (K = 1, Δ = 0.05, F = 1…1.5).
    #[test]
    fn the_band_is_the_equilibria_set() {
        for (k, f_min, f_max, delta) in [(1.0, 0.5, 1.0, 0.1), (1.0, 1.0, 1.5, 0.05)] {
            let saw = Sawtooth { f_min, f_max, delta };
            let n = ((f_min + f_max) / (k * delta)).round();
            let xs: Vec<f64> = (0..=60).map(|i| -3.0 + 0.1 * i as f64).collect();
            let (x, u) = right_boundary(&saw, k, &xs);
            let mut poly: Vec<(f64, f64)> = u.iter().zip(&x).map(|(&u, &x)| (u, x)).collect();
            poly.extend(u.iter().zip(&x).rev().map(|(&u, &x)| (u, x + n * delta)));
            let (mut tested, mut shaded) = (0, 0);
            for i in 0..200 {
                for j in 0..200 {
                    let q = (-1.0 + 0.01 * i as f64 + 0.0013, -1.0 + 0.01 * j as f64 + 0.0007);
                    let expect = k * q.1 + saw.left(q.1) <= q.0 && q.0 <= k * q.1 + saw.right(q.1);
                    assert_eq!(inside(&poly, q), expect, "K {k} Δ {delta}: (ū, x̄) = {q:?}");
                    tested += 1;
                    shaded += expect as usize;
                }
            }
            assert!(
                shaded > tested / 10 && shaded < tested,
                "the test lattice sees both sides"
            );
        }
    }

    /// A grid sample a few ulps off a lattice point (here −3 + 0.1·29 ≈ −0.1) does not take the
    /// other side's value: each cell's edge rises from F_min to F_max.
    #[test]
    fn grid_samples_on_the_lattice_take_no_side() {
        let saw = Sawtooth {
            f_min: 0.5,
            f_max: 1.0,
            delta: 0.1,
        };
        let xs: Vec<f64> = (0..=60).map(|i| -3.0 + 0.1 * i as f64).collect();
        let (x, u) = right_boundary(&saw, 1.0, &xs);
        assert_eq!(x.len(), 2 * 61 - 2, "both limits at each lattice point, one at each end");
        for (w, v) in x.windows(2).zip(u.windows(2)) {
            let cell = (w[0] / 0.1).round();
            if w[1] > w[0] {
                assert!((v[0] - w[0] - 0.5).abs() < 1e-12, "cell {cell} starts at F_min");
                assert!((v[1] - w[1] - 1.0).abs() < 1e-12, "cell {cell} ends at F_max");
            }
        }
    }

    #[test]
    fn jumps_are_horizontal_edges() {
        let saw = Sawtooth {
            f_min: 0.5,
            f_max: 1.0,
            delta: 0.1,
        };
        let (x, u) = right_boundary(&saw, 1.0, &[-0.05, 0.15]);
        assert_eq!(x.len(), 6);
        assert_eq!((x[1], u[1]), (0.0, 1.0));
        assert_eq!((x[2], u[2]), (0.0, 0.5));
    }
}
