//! Thesis Tables 3.1 and 3.2 (the RBM's contact sets after a reversal and before the first
//! one) as data, for the tests that compare the state machine with them.

/// Where a row of thesis Tables 3.1/3.2 is evaluated: the body at `x`, the reversal memory
/// `xr` (`x_{r−}` or `x_{r+}` of Table 3.1, `x_0` of Table 3.2), half the body length `h = d/2`,
/// `d0` and the spacing `dl = Δ`.
#[derive(Clone, Copy, Debug)]
pub struct RowAt {
    pub x: f64,
    pub xr: f64,
    pub h: f64,
    pub d0: f64,
    pub dl: f64,
}

/// A row of thesis Table 3.1 or 3.2 (the RBM contact sets) as printed and as data: whether it
/// applies, and the bounds `(lo, hi)` of the bases in `X_b^l` and `X_b^r` (None: empty). The
/// printed text is what the manifests' LaTeX tables hold (checked by a test); the bounds are
/// what the state machine's sets are tested against row by row.
#[derive(Clone, Copy, Debug)]
pub struct ContactRow {
    pub velocity: &'static str,
    pub position: &'static str,
    pub left: &'static str,
    pub right: &'static str,
    /// The configuration of Figure 3.2 (Table 3.1), empty for Table 3.2.
    pub figure: &'static str,
    pub applies: fn(RowAt) -> bool,
    pub left_bounds: fn(RowAt) -> Option<(f64, f64)>,
    pub right_bounds: fn(RowAt) -> Option<(f64, f64)>,
}

const V_POS: &str = r"$v \geq 0$";
const V_NEG: &str = r"$v < 0$";
const EMPTY: &str = r"$\emptyset$";
const L_WINDOW: &str = r"$\{x - d/2 \leq x_b < x - d/2 + d_0\}$";
const R_WINDOW: &str = r"$\{x + d/2 - d_0 < x_b \leq x + d/2\}$";
fn none(_: RowAt) -> Option<(f64, f64)> {
    None
}
fn l_window(a: RowAt) -> Option<(f64, f64)> {
    Some((a.x - a.h, a.x - a.h + a.d0))
}
fn r_window(a: RowAt) -> Option<(f64, f64)> {
    Some((a.x + a.h - a.d0, a.x + a.h))
}

/// Thesis Table 3.1 (L885–L894) as printed: the contact sets after a reversal, `xr = x_{r−}`
/// for v ≥ 0 and `x_{r+}` for v < 0 (L882).
pub const TABLE_3_1: [ContactRow; 10] = [
    ContactRow {
        velocity: V_POS,
        position: r"$x + d/2 \leq x_{r-} + \Delta$",
        left: L_WINDOW,
        right: EMPTY,
        figure: "3.2(a)-(1)",
        applies: |a| a.x + a.h <= a.xr + a.dl,
        left_bounds: l_window,
        right_bounds: none,
    },
    ContactRow {
        velocity: V_POS,
        position: r"$x_{r-} + 2\Delta > x + d/2 \geq x_{r-} + \Delta$",
        left: L_WINDOW,
        right: r"$\{x_{r-} + \Delta \leq x_b < x + d/2\}$",
        figure: "3.2(a)-(2)",
        applies: |a| a.xr + 2.0 * a.dl > a.x + a.h && a.x + a.h >= a.xr + a.dl,
        left_bounds: l_window,
        right_bounds: |a| Some((a.xr + a.dl, a.x + a.h)),
    },
    ContactRow {
        velocity: V_POS,
        position: r"$x + d/2 \geq x_{r-} + 2\Delta$, $x_{r-} - d_0 \geq x - d/2$",
        left: L_WINDOW,
        right: R_WINDOW,
        figure: "3.2(a)-(3)",
        applies: |a| a.x + a.h >= a.xr + 2.0 * a.dl && a.xr - a.d0 >= a.x - a.h,
        left_bounds: l_window,
        right_bounds: r_window,
    },
    ContactRow {
        velocity: V_POS,
        position: r"$x_{r-} \geq x - d/2 > x_{r-} - d_0$",
        left: r"$\{x - d/2 \leq x_b \leq x_{r-}\}$",
        right: R_WINDOW,
        figure: "3.2(a)-(4)",
        applies: |a| a.xr >= a.x - a.h && a.x - a.h > a.xr - a.d0,
        left_bounds: |a| Some((a.x - a.h, a.xr)),
        right_bounds: r_window,
    },
    ContactRow {
        velocity: V_POS,
        position: r"$x - d/2 > x_{r-}$",
        left: EMPTY,
        right: R_WINDOW,
        figure: "3.2(a)-(5)",
        applies: |a| a.x - a.h > a.xr,
        left_bounds: none,
        right_bounds: r_window,
    },
    ContactRow {
        velocity: V_NEG,
        position: r"$x - d/2 > x_{r+} - \Delta$",
        left: EMPTY,
        right: R_WINDOW,
        figure: "3.2(b)-(1)",
        applies: |a| a.x - a.h > a.xr - a.dl,
        left_bounds: none,
        right_bounds: r_window,
    },
    ContactRow {
        velocity: V_NEG,
        position: r"$x_{r+} - 2\Delta < x - d/2 \leq x_{r+} - \Delta$",
        left: r"$\{x - d/2 < x_b \leq x_{r+} - \Delta\}$",
        right: r"$\{x + d/2 - d_0 \leq x_b \leq x + d/2\}$",
        figure: "3.2(b)-(2)",
        applies: |a| a.xr - 2.0 * a.dl < a.x - a.h && a.x - a.h <= a.xr - a.dl,
        left_bounds: |a| Some((a.x - a.h, a.xr - a.dl)),
        right_bounds: r_window,
    },
    ContactRow {
        velocity: V_NEG,
        position: r"$x - d/2 \leq x_{r+} - 2\Delta$, $x_{r+} + d_0 \leq x + d/2$",
        left: L_WINDOW,
        right: R_WINDOW,
        figure: "3.2(b)-(3)",
        applies: |a| a.x - a.h <= a.xr - 2.0 * a.dl && a.xr + a.d0 <= a.x + a.h,
        left_bounds: l_window,
        right_bounds: r_window,
    },
    ContactRow {
        velocity: V_NEG,
        position: r"$x_{r+} \leq x + d/2 < x_{r+} + d_0$",
        left: r"$\{x - d/2 < x_b \leq x - d/2 + d_0\}$",
        right: r"$\{x_{r+} \leq x_b \leq x + d/2\}$",
        figure: "3.2(b)-(4)",
        applies: |a| a.xr <= a.x + a.h && a.x + a.h < a.xr + a.d0,
        left_bounds: l_window,
        right_bounds: |a| Some((a.xr, a.x + a.h)),
    },
    ContactRow {
        velocity: V_NEG,
        position: r"$x + d/2 < x_{r+}$",
        left: L_WINDOW,
        right: EMPTY,
        figure: "3.2(b)-(5)",
        applies: |a| a.x + a.h < a.xr,
        left_bounds: l_window,
        right_bounds: none,
    },
];

/// Thesis Table 3.2 (L910–L913; rows 3–4 with the catalog's reading of the OCR typo
/// 'x − d/2 ≥ x_b <'): the contact sets from the start at `xr = x_0` to the first reversal.
pub const TABLE_3_2: [ContactRow; 4] = [
    ContactRow {
        velocity: V_POS,
        position: r"$x < x_0 + d_0$",
        left: EMPTY,
        right: r"$\{x_0 + d/2 < x_b \leq x + d/2\}$",
        figure: "",
        applies: |a| a.x < a.xr + a.d0,
        left_bounds: none,
        right_bounds: |a| Some((a.xr + a.h, a.x + a.h)),
    },
    ContactRow {
        velocity: V_POS,
        position: r"$x \geq x_0 + d_0$",
        left: EMPTY,
        right: R_WINDOW,
        figure: "",
        applies: |a| a.x >= a.xr + a.d0,
        left_bounds: none,
        right_bounds: r_window,
    },
    ContactRow {
        velocity: V_NEG,
        position: r"$x > x_0 - d_0$",
        left: r"$\{x - d/2 \leq x_b < x_0 - d/2\}$",
        right: EMPTY,
        figure: "",
        applies: |a| a.x > a.xr - a.d0,
        left_bounds: |a| Some((a.x - a.h, a.xr - a.h)),
        right_bounds: none,
    },
    ContactRow {
        velocity: V_NEG,
        position: r"$x \leq x_0 - d_0$",
        left: L_WINDOW,
        right: EMPTY,
        figure: "",
        applies: |a| a.x <= a.xr - a.d0,
        left_bounds: l_window,
        right_bounds: none,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rbm::test_rigs::fig35;
    use crate::rbm::{BristleState, Rbm};

    /// Thesis Table 3.1 (L885–L894), row by row: through an isolated − → + reversal and then an
    /// isolated + → − reversal (each followed by more than d + d0 of travel), at every position
    /// the state machine's sets X_b^l = {bases in L} and X_b^r = {bases in R} equal the sets of
    /// the table row whose position condition holds, with x_r− and x_r+ as the catalog reads
    /// L882 (the rightmost / leftmost base touching the lower surface at the reversal). Run for
    /// the Fig 3.5 bristles (d0/Δ = 1.99, where the table's 2Δ thresholds apply) at random lattice
    /// phases. The ends at x_r± are lattice points and closed in every row; the ends that move
    /// with x fall between bases at the random positions, so their open/closed type is moot.
    #[test]
    fn table_3_1_row_by_row() {
        let b = fig35();
        let (h, d0, dl) = (b.d / 2.0, b.d0(), b.delta);
        let (rows_a, rows_b) = TABLE_3_1.split_at(5);
        fn lcg(seed: &mut u64) -> f64 {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((*seed >> 11) as f64) / ((1u64 << 53) as f64)
        }
        let mut seed = 99u64;
        let set_of = |r: &Rbm, st: BristleState| -> Vec<i64> {
            (0..r.states.len())
                .filter(|&k| r.states[k] == st)
                .map(|k| r.i0 + k as i64)
                .collect()
        };
        let bases_in = |lo_hi: Option<(f64, f64)>| -> Vec<i64> {
            match lo_hi {
                None => vec![],
                // Ends at x_r± are lattice points, closed in every row: included up to rounding.
                Some((lo, hi)) => ((lo / dl - 1e-9).ceil() as i64..=(hi / dl + 1e-9).floor() as i64).collect(),
            }
        };
        let mut seen: std::collections::BTreeMap<&'static str, usize> = Default::default();
        for _ in 0..20 {
            let start = dl * lcg(&mut seed);
            let mut r = Rbm::new(b, start, 4.0, false);
            let walk = |r: &mut Rbm, to: f64| {
                let n = ((to - r.x).abs() / (dl / 20.0)).ceil() as usize;
                let from = r.x;
                for i in 1..=n {
                    r.advance(from + (to - from) * i as f64 / n as f64);
                }
            };
            // Left far enough to load the left corner and lay the bristles under the body left.
            let x_rev1 = start - 1.2 - 0.3 * lcg(&mut seed);
            walk(&mut r, x_rev1);
            let x_rm = ((x_rev1 + h + d0) / dl).floor() * dl;
            let phase_checks =
                |r: &mut Rbm,
                 to: f64,
                 xr: f64,
                 rows: &[ContactRow],
                 seed: &mut u64,
                 seen: &mut std::collections::BTreeMap<&'static str, usize>| {
                    let n = 4000;
                    let from = r.x;
                    for i in 1..=n {
                        // A random position in each small step, so that no base sits on a row's end.
                        let x = from + (to - from) * (i as f64 - lcg(seed)) / n as f64;
                        walk(r, x);
                        let at = RowAt { x, xr, h, d0, dl };
                        let Some(row) = rows.iter().find(|row| (row.applies)(at)) else {
                            panic!("x = {x}: no row of the table applies (x_r = {xr})");
                        };
                        let want_l = bases_in((row.left_bounds)(at));
                        let want_r = bases_in((row.right_bounds)(at));
                        assert_eq!(
                            set_of(r, BristleState::L),
                            want_l,
                            "{} X_b^l at x = {x}, x_r = {xr}",
                            row.figure
                        );
                        assert_eq!(
                            set_of(r, BristleState::R),
                            want_r,
                            "{} X_b^r at x = {x}, x_r = {xr}",
                            row.figure
                        );
                        *seen.entry(row.figure).or_insert(0) += 1;
                    }
                };
            let x_rev2 = x_rev1 + b.d + 3.0 * d0 + 0.2 * lcg(&mut seed);
            phase_checks(&mut r, x_rev2, x_rm, rows_a, &mut seed, &mut seen);
            let x_rp = ((x_rev2 - h - d0) / dl).ceil() * dl;
            phase_checks(&mut r, x_rev2 - b.d - 3.0 * d0, x_rp, rows_b, &mut seed, &mut seen);
        }
        assert_eq!(seen.len(), 10, "every row met: {seen:?}");
    }

    /// Thesis Table 3.2 (L910–L913, rows 3–4 with the catalog's reading of the OCR typo), row by
    /// row: from the initial state (Table 3.2, L900) the state machine's corner sets equal the
    /// table's until the first reversal, moving right (rows 1–2) and moving left (rows 3–4), at
    /// random lattice phases x0.
    #[test]
    fn table_3_2_row_by_row() {
        let b = fig35();
        let (h, d0, dl) = (b.d / 2.0, b.d0(), b.delta);
        let bases = |lo: f64, hi: f64| -> Vec<i64> { ((lo / dl).ceil() as i64..=(hi / dl).floor() as i64).collect() };
        let of = |r: &Rbm, st: BristleState| -> Vec<i64> {
            (0..r.states.len())
                .filter(|&k| r.states[k] == st)
                .map(|k| r.i0 + k as i64)
                .collect()
        };
        let mut rows_met = [0usize; 4];
        for trial in 0..50 {
            let x0 = dl * ((trial as f64 + 0.5) * 0.618_033_988_7).fract() + 0.37;
            for right in [true, false] {
                let mut r = Rbm::new(b, x0, 1.0, right);
                let dir = if right { 1.0 } else { -1.0 };
                for i in 1..=3000 {
                    let x = x0 + dir * 3.0 * d0 * (i as f64 - 0.5) / 3000.0;
                    r.advance(x);
                    let at = RowAt { x, xr: x0, h, d0, dl };
                    let rows = if right { &TABLE_3_2[..2] } else { &TABLE_3_2[2..] };
                    let k = rows.iter().position(|row| (row.applies)(at)).expect("a row applies");
                    let row = if right { k } else { k + 2 };
                    let set = |b: Option<(f64, f64)>| b.map_or(vec![], |(lo, hi)| bases(lo, hi));
                    let (l, rr) = (set((rows[k].left_bounds)(at)), set((rows[k].right_bounds)(at)));
                    assert_eq!(
                        (of(&r, BristleState::L), of(&r, BristleState::R)),
                        (l, rr),
                        "row {} at x = {x}, x0 = {x0}",
                        row + 1
                    );
                    rows_met[row] += 1;
                }
            }
        }
        assert!(rows_met.iter().all(|&n| n > 0), "{rows_met:?}");
    }
}
