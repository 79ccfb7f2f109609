//! Multiplay model, thesis ch. II, eqs. (2.1)–(2.4) (L574–L602): `N` mass/spring/dashpot elements
//! with deadzone, driven by a common bar position `u`,
//!
//! `m_i x_i'' + c_i x_i' + k_i d_{2Δ_i}(x_i − u) = 0`   (2.3, L596)
//! `d_{2Δ}(v) = v − Δ (v ≥ Δ), 0 (|v| < Δ), v + Δ (v ≤ −Δ)`   (2.2, L580)
//! `y = Σ k_i (u − x_i)`   (2.4, L600)
//!
//! The output (2.4) is the sum of `k_i (u − x_i)`, not of the spring forces `k_i d(x_i − u)`: it
//! includes the gap offset (catalog M8). State `[x_1, x_1', …, x_N, x_N']`; the elements share only
//! the input. The right-hand side is continuous and piecewise linear with kinks at
//! `|x_i − u| = Δ_i`, and does not involve `u'` (no restart at input extrema is needed).
//!
//! DC limit (thesis §2.3, (2.5)–(2.15), L612–L660; catalog M9): as the input frequency tends to
//! zero the multiplay becomes the Maxwell-slip model (2.12)–(2.13) with the same `k_i` and `Δ_i`,
//! whatever `m_i, c_i`. [`Multiplay::dc_limit`] returns it as a [`MaxwellSlip`], whose exact
//! operator works on stop states `s_i = u − x_i` with `|s_i| ≤ Δ_i` and force `Σ k_i s_i`: the
//! same sign convention as (2.4), so the multiplay positions map to `s_i = u − x_i`
//! ([`Multiplay::dc_state`]). (2.5) as printed is not the time derivative of (2.3) (catalog M9); the
//! limit (2.11) does not depend on it.
//!
//! Notes and ambiguities:
//! - `k_i`, `m_i`, `c_i` may be negative (L602); a negative `k_i` needs negative `m_i, c_i` for
//!   stability (L700). Flipping the signs of `(m_i, c_i, k_i)` together leaves `x_i(t)` unchanged
//!   and flips the element's contribution to `y` (derived, catalog M8).
//! - (2.3) states only the initial positions `x_i(0) = x_{i0}`; the initial velocities of these
//!   second-order elements are not stated. [`Multiplay::state_at_rest`] assumes rest.
//! - Every example of the thesis sets `m_i = c_i = k_i` (L607, L698, L707, L709, L747):
//!   [`Multiplay::from_stiffness`].
//! - Finite-frequency error (derived, see `tests/multiplay_dc_limit.rs`): a sliding element lags
//!   its quasi-static position by `c_i u'/k_i`, so `y` exceeds the Maxwell-slip output by
//!   `Σ_{sliding} c_i u'` plus a damped transient at each sliding onset: the error is `O(ω)`.

use crate::maxwell_slip::{MaxwellSlip, MaxwellSlipState};
use crate::InputDriven;

/// The deadzone function `d_{2Δ}(v)` of width `2Δ`, thesis (2.2).
#[inline]
pub fn deadzone(v: f64, delta: f64) -> f64 {
    if v >= delta {
        v - delta
    } else if v <= -delta {
        v + delta
    } else {
        0.0
    }
}

/// `d'_{2Δ}(v)` with the convention of thesis (2.9) (L632): 1 for `|v| ≥ Δ`, 0 inside the gap.
#[inline]
pub fn deadzone_slope(v: f64, delta: f64) -> f64 {
    if v.abs() >= delta {
        1.0
    } else {
        0.0
    }
}

/// The multiplay model (2.3)–(2.4).
#[derive(Clone, Debug, PartialEq)]
pub struct Multiplay {
    pub m: Vec<f64>,
    pub c: Vec<f64>,
    pub k: Vec<f64>,
    /// Deadzone half-widths `Δ_i ≥ 0` (the gap is `2Δ_i`).
    pub delta: Vec<f64>,
}

impl Multiplay {
    pub fn new(m: Vec<f64>, c: Vec<f64>, k: Vec<f64>, delta: Vec<f64>) -> Self {
        let n = k.len();
        assert!(
            m.len() == n && c.len() == n && delta.len() == n,
            "m, c, k and Δ must have the same length"
        );
        assert!(
            delta.iter().all(|d| *d >= 0.0),
            "deadzone widths must be non-negative (L580)"
        );
        assert!(m.iter().all(|m| *m != 0.0), "masses must be non-zero");
        Self { m, c, k, delta }
    }

    /// `m_i = c_i = k_i`, as in the thesis examples (L607, L698, L707, L709, L747).
    pub fn from_stiffness(k: Vec<f64>, delta: Vec<f64>) -> Self {
        Self::new(k.clone(), k.clone(), k, delta)
    }

    /// Number of elements `N`.
    pub fn len(&self) -> usize {
        self.k.len()
    }

    pub fn is_empty(&self) -> bool {
        self.k.is_empty()
    }

    /// State `[x_10, 0, …, x_N0, 0]`: the given positions (2.3), at rest (the initial velocities
    /// are not stated in the thesis).
    pub fn state_at_rest(&self, x0: &[f64]) -> Vec<f64> {
        assert_eq!(x0.len(), self.len());
        x0.iter().flat_map(|x| [*x, 0.0]).collect()
    }

    /// The DC limit (2.12)–(2.13): the Maxwell-slip model with the same `k_i` and `Δ_i` (M9).
    pub fn dc_limit(&self) -> MaxwellSlip {
        MaxwellSlip::new(self.k.clone(), self.delta.clone())
    }

    /// The Maxwell-slip stop state matching a multiplay state at input `u`:
    /// `s_i = clamp(u − x_i, −Δ_i, Δ_i)` (at finite frequency a sliding element can lag beyond its
    /// gap; the DC model cannot, hence the clamp).
    pub fn dc_state(&self, u: f64, x: &[f64]) -> MaxwellSlipState {
        assert_eq!(x.len(), 2 * self.len());
        MaxwellSlipState {
            u,
            s: self
                .delta
                .iter()
                .enumerate()
                .map(|(i, d)| (u - x[2 * i]).clamp(-d, *d))
                .collect(),
        }
    }
}

impl InputDriven for Multiplay {
    fn dim(&self) -> usize {
        2 * self.len()
    }
    fn rhs(&self, u: f64, _du: f64, x: &[f64], dx: &mut [f64]) {
        for i in 0..self.len() {
            let (p, v) = (x[2 * i], x[2 * i + 1]);
            dx[2 * i] = v;
            dx[2 * i + 1] = -(self.c[i] * v + self.k[i] * deadzone(p - u, self.delta[i])) / self.m[i];
        }
    }
    fn output(&self, u: f64, _du: f64, x: &[f64]) -> f64 {
        self.k.iter().enumerate().map(|(i, k)| k * (u - x[2 * i])).sum()
    }
    fn jacobian(&self, u: f64, _du: f64, x: &[f64], j: &mut [f64]) -> bool {
        let n = self.dim();
        j.fill(0.0);
        for i in 0..self.len() {
            let r = 2 * i;
            j[r * n + r + 1] = 1.0;
            j[(r + 1) * n + r] = -self.k[i] * deadzone_slope(x[r] - u, self.delta[i]) / self.m[i];
            j[(r + 1) * n + r + 1] = -self.c[i] / self.m[i];
        }
        true
    }
}

/// The DC hysteresis map of a multiplay (thesis §2.4, (2.16)–(2.23), L662–L707; catalog M10): the
/// elements sorted by deadzone width, `Δ_1 ≤ … ≤ Δ_N` (L688 assumes ascending widths; Fig 2.4
/// lists them descending, so they are sorted here).
///
/// Along a branch that starts at a reversal where every element is saturated, element `i`
/// contributes `k_i min(τ, 2Δ_i)` to the rise of `y` after an input travel `τ`: its mass is
/// stationary (slope `k_i`) until the input has crossed the gap `2Δ_i`, then moves with the input
/// (slope 0). Summing gives the piecewise-linear branch with slopes `s = A k` (2.22)–(2.23).
#[derive(Clone, Debug, PartialEq)]
pub struct DcMap {
    pub k: Vec<f64>,
    pub delta: Vec<f64>,
}

/// The slope inverse (2.27)–(2.29) of a DC map: an inverse multiplay (stiffnesses `k'`, widths
/// `Δ'`) driven by `y`, and the output level where the forward map has its zero-slope segment
/// `s_{N+1} = 0`, which the inverse cannot represent: a vertical segment (L768), made explicit here
/// instead of dividing by zero.
#[derive(Clone, Debug, PartialEq)]
pub struct SlopeInverse {
    pub k: Vec<f64>,
    pub delta: Vec<f64>,
    /// `|y|` of the forward saturation `Σ k_i Δ_i`: on a loop whose span exceeds `2Δ_N` the
    /// forward map is flat there and the true inverse is vertical.
    pub vertical_at: f64,
}

/// Why a map has no slope inverse (2.27).
#[derive(Clone, Debug, PartialEq)]
pub enum InverseError {
    /// `s_i = 0` for some `i ≤ N`: (2.27) needs `s_i ≠ 0` (a zero-slope segment inside the branch
    /// would be a vertical segment of the inverse).
    ZeroSlope { index: usize },
    /// The slopes change sign: the branch is not monotone, so it is not a function of `y`.
    NotMonotone { index: usize },
}

impl std::fmt::Display for InverseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::ZeroSlope { index } => write!(f, "segment {} has zero slope: (2.27) needs s_i ≠ 0", index + 1),
            Self::NotMonotone { index } => write!(f, "slope {} changes sign: the branch is not monotone", index + 1),
        }
    }
}

/// `s = A k` with `A` upper-triangular all ones (2.22)–(2.23): `s_i = Σ_{j ≥ i} k_j`.
pub fn slopes_from_stiffness(k: &[f64]) -> Vec<f64> {
    let mut s = vec![0.0; k.len()];
    let mut acc = 0.0;
    for i in (0..k.len()).rev() {
        acc += k[i];
        s[i] = acc;
    }
    s
}

/// `k = A⁻¹ s` (2.24)–(2.25): `k_i = s_i − s_{i+1}`, `k_N = s_N`.
pub fn stiffness_from_slopes(s: &[f64]) -> Vec<f64> {
    (0..s.len())
        .map(|i| s[i] - s.get(i + 1).copied().unwrap_or(0.0))
        .collect()
}

impl DcMap {
    /// Sort the pairs `(Δ_i, k_i)` by width.
    pub fn new(k: &[f64], delta: &[f64]) -> Self {
        assert_eq!(k.len(), delta.len(), "k and Δ must have the same length");
        let mut pairs: Vec<(f64, f64)> = delta.iter().copied().zip(k.iter().copied()).collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        Self {
            delta: pairs.iter().map(|p| p.0).collect(),
            k: pairs.iter().map(|p| p.1).collect(),
        }
    }

    /// Slopes `s_1 … s_{N+1}` of a branch from a saturated reversal: `A k` (2.22), then
    /// `s_{N+1} = 0` once every mass moves.
    pub fn slopes(&self) -> Vec<f64> {
        let mut s = slopes_from_stiffness(&self.k);
        s.push(0.0);
        s
    }

    /// Input travel from the reversal at each slope change: `2Δ_i` (L692).
    pub fn breakpoints(&self) -> Vec<f64> {
        self.delta.iter().map(|d| 2.0 * d).collect()
    }

    /// Rise of `y` after an input travel `τ ≥ 0` from a saturated reversal: `Σ k_i min(τ, 2Δ_i)`.
    pub fn rise(&self, travel: f64) -> f64 {
        self.k
            .iter()
            .zip(&self.delta)
            .map(|(k, d)| k * travel.min(2.0 * d))
            .sum()
    }

    /// Cumulative rises `y(u_i) − y(u_min)` at the breakpoints `τ = 2Δ_i` (the points of (2.29)).
    pub fn rises(&self) -> Vec<f64> {
        self.breakpoints().iter().map(|t| self.rise(*t)).collect()
    }

    /// The saturated output `Σ k_i Δ_i`.
    pub fn saturation(&self) -> f64 {
        self.k.iter().zip(&self.delta).map(|(k, d)| k * d).sum()
    }

    /// Output at the lower reversal `u = −a` of the periodic loop of a centred input of amplitude
    /// `a` started from the relaxed state (`x_i = u`): `−Σ k_i min(Δ_i, a)` (an element with
    /// `Δ_i ≥ a` never slides and stays elastic).
    pub fn loop_min(&self, amplitude: f64) -> f64 {
        -self
            .k
            .iter()
            .zip(&self.delta)
            .map(|(k, d)| k * d.min(amplitude))
            .sum::<f64>()
    }

    /// Ascending branch of that loop at input `u ∈ [−a, a]`; the descending branch is its 180°
    /// rotation, `y_desc(u) = −y_asc(−u)` (C2 symmetry, L713).
    pub fn ascending(&self, amplitude: f64, u: f64) -> f64 {
        self.loop_min(amplitude) + self.rise(u + amplitude)
    }

    /// Vertices `(u, y)` of the ascending branch of that loop: `u_min`, the breakpoints inside the
    /// span, `u_max` — the points (2.25)–(2.26) are computed from.
    pub fn vertices(&self, amplitude: f64) -> Vec<(f64, f64)> {
        let mut v = vec![(-amplitude, self.loop_min(amplitude))];
        for t in self.breakpoints() {
            if t > 0.0 && t < 2.0 * amplitude {
                let u = -amplitude + t;
                v.push((u, self.ascending(amplitude, u)));
            }
        }
        v.push((amplitude, self.ascending(amplitude, amplitude)));
        v
    }

    /// Loop area `∮ y du` of that periodic loop, positive clockwise: `Σ 4 k_i Δ_i (a − Δ_i)` over
    /// the elements that slide (catalog M10).
    pub fn loop_area(&self, amplitude: f64) -> f64 {
        self.k
            .iter()
            .zip(&self.delta)
            .filter(|(_, d)| **d < amplitude)
            .map(|(k, d)| 4.0 * k * d * (amplitude - d))
            .sum()
    }

    /// Identification (2.24)–(2.26) from the vertices `(u_min, y_min), (u_1, y_1), …, (u_N, y_N),
    /// (u_max, y_max)` of an ascending branch: slopes from consecutive vertices, `k = A⁻¹ s` over
    /// `s_1 … s_N` (`s_{N+1}` unused, L728), `Δ_i = (u_i − u_min)/2`.
    pub fn identify(vertices: &[(f64, f64)]) -> Self {
        assert!(vertices.len() >= 3, "need at least u_min, one breakpoint and u_max");
        let n = vertices.len() - 2;
        let s: Vec<f64> = (0..n)
            .map(|i| {
                let (a, b) = (vertices[i], vertices[i + 1]);
                (b.1 - a.1) / (b.0 - a.0)
            })
            .collect();
        let u0 = vertices[0].0;
        Self {
            k: stiffness_from_slopes(&s),
            delta: vertices[1..=n].iter().map(|v| (v.0 - u0) / 2.0).collect(),
        }
    }

    /// The slope inverse (2.27)–(2.29): `s'_i = 1/s_i` for `i ≤ N`, `k' = A⁻¹ s'`,
    /// `Δ'_i = (y(u_i) − y(u_min))/2` from the cumulative rises (a breakpoint beyond the loop's
    /// span is extrapolated along the map, as Fig 2.10 needs). The zero slope `s_{N+1}` is not
    /// inverted: it is returned as [`SlopeInverse::vertical_at`]. For a decreasing map (`s_i < 0`)
    /// the widths are `|rise|/2` and `k' < 0`.
    pub fn slope_inverse(&self) -> Result<SlopeInverse, InverseError> {
        let s = slopes_from_stiffness(&self.k);
        for (i, si) in s.iter().enumerate() {
            if *si == 0.0 {
                return Err(InverseError::ZeroSlope { index: i });
            }
            if si.signum() != s[0].signum() {
                return Err(InverseError::NotMonotone { index: i });
            }
        }
        let sp: Vec<f64> = s.iter().map(|si| 1.0 / si).collect();
        Ok(SlopeInverse {
            k: stiffness_from_slopes(&sp),
            delta: self.rises().iter().map(|r| r.abs() / 2.0).collect(),
            vertical_at: self.saturation().abs(),
        })
    }
}

/// Detect the vertices of a piecewise-linear branch from samples `(u_j, y_j)` with `u` strictly
/// increasing (a digitised or computed branch, as for Fig 2.7, L732): consecutive sample chords
/// with the same slope (within `tol`, relative to the largest |slope|) form one segment; a vertex
/// is the intersection of the lines of two consecutive segments (so a breakpoint between two
/// samples is located exactly). Chords that straddle a breakpoint are skipped. Returns the first
/// sample, the interior vertices and the last sample.
pub fn branch_vertices(u: &[f64], y: &[f64], tol: f64) -> Vec<(f64, f64)> {
    assert_eq!(u.len(), y.len());
    assert!(u.len() >= 2);
    let chords: Vec<f64> = u
        .windows(2)
        .zip(y.windows(2))
        .map(|(a, b)| (b[1] - b[0]) / (a[1] - a[0]))
        .collect();
    let scale = chords.iter().fold(1.0f64, |m, c| m.max(c.abs()));
    // Segments: maximal runs of ≥ 2 chords with equal slope, as (slope, point on the line).
    let mut segs: Vec<(f64, (f64, f64))> = Vec::new();
    let mut j = 0;
    while j < chords.len() {
        let mut e = j + 1;
        while e < chords.len() && (chords[e] - chords[j]).abs() <= tol * scale {
            e += 1;
        }
        // A lone chord between two different runs straddles a breakpoint; the first and last
        // chords always open/close a segment.
        if e - j >= 2 || j == 0 || e == chords.len() {
            segs.push((chords[j], (u[j], y[j])));
        }
        j = e;
    }
    let mut v = vec![(u[0], y[0])];
    for w in segs.windows(2) {
        let ((s1, (u1, y1)), (s2, (u2, y2))) = (w[0], w[1]);
        // y1 + s1 (x − u1) = y2 + s2 (x − u2)
        let x = (y2 - y1 + s1 * u1 - s2 * u2) / (s1 - s2);
        v.push((x, y1 + s1 * (x - u1)));
    }
    v.push((u[u.len() - 1], y[y.len() - 1]));
    v
}

/// The dynamic inverse (2.32)–(2.33) (L778–L798; catalog M14): the multiplay elements driven by
/// `ȳ = (ū + Σ k_j x_j)/Σ k_j`, which is (2.30) solved for the input; the input `ū` is the forward
/// output `y`, the output `ȳ` recreates `u`. The elements are coupled through `ȳ`, which is
/// explicit in the state (no algebraic loop). Needs `Σ k_j ≠ 0`.
#[derive(Clone, Debug)]
pub struct DynamicInverse {
    pub model: Multiplay,
    sum_k: f64,
}

impl DynamicInverse {
    pub fn new(model: Multiplay) -> Result<Self, String> {
        let sum_k: f64 = model.k.iter().sum();
        if sum_k == 0.0 {
            return Err("the dynamic inverse (2.32) needs Σ k_j ≠ 0 (L784)".into());
        }
        Ok(Self { model, sum_k })
    }
    /// `ȳ` (2.33) from the input `ū` and the state `[x_1, x_1', …]`.
    #[inline]
    pub fn recreated_input(&self, ubar: f64, x: &[f64]) -> f64 {
        let kx: f64 = self.model.k.iter().enumerate().map(|(i, k)| k * x[2 * i]).sum();
        (ubar + kx) / self.sum_k
    }
}

impl InputDriven for DynamicInverse {
    fn dim(&self) -> usize {
        2 * self.model.len()
    }
    fn rhs(&self, ubar: f64, _du: f64, x: &[f64], dx: &mut [f64]) {
        let ybar = self.recreated_input(ubar, x);
        self.model.rhs(ybar, 0.0, x, dx)
    }
    fn output(&self, ubar: f64, _du: f64, x: &[f64]) -> f64 {
        self.recreated_input(ubar, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadzone_is_2_2() {
        assert_eq!(deadzone(0.5, 0.2), 0.3);
        assert_eq!(deadzone(-0.5, 0.2), -0.3);
        assert_eq!(deadzone(0.19, 0.2), 0.0);
        assert_eq!(deadzone(0.2, 0.2), 0.0);
        assert_eq!(deadzone(0.7, 0.0), 0.7);
        assert_eq!(deadzone_slope(0.2, 0.2), 1.0);
        assert_eq!(deadzone_slope(-0.1, 0.2), 0.0);
    }

    /// (2.4) includes the gap offset: an element at rest touching its wall (`x = u − Δ`) exerts no
    /// spring force through the deadzone but contributes `k Δ` to `y`.
    #[test]
    fn output_includes_the_gap_offset() {
        let mp = Multiplay::from_stiffness(vec![1.0, 2.0], vec![0.2, 0.5]);
        let u = 0.3;
        let x = [u - 0.2, 0.0, u + 0.5, 0.0];
        let mut dx = [0.0; 4];
        mp.rhs(u, 0.0, &x, &mut dx);
        assert_eq!(dx, [0.0; 4]);
        assert!((mp.output(u, 0.0, &x) - (1.0 * 0.2 - 2.0 * 0.5)).abs() < 1e-15);
        // The DC state of a touching element is saturated, with the same force.
        let dc = mp.dc_limit();
        let st = mp.dc_state(u, &x);
        assert!((dc.force(&st) - mp.output(u, 0.0, &x)).abs() < 1e-15);
    }

    #[test]
    fn analytic_jacobian_matches_finite_differences() {
        let mp = Multiplay::new(
            vec![1.0, -2.0, 0.5],
            vec![0.3, -1.0, 2.0],
            vec![1.0, -2.0, 3.0],
            vec![0.2, 0.5, 0.8],
        );
        let u = 0.1;
        // Element 1 in contact, element 2 inside its gap, element 3 in contact from the other side.
        let x = [u - 0.5, 0.4, u + 0.1, -0.2, u + 1.3, 0.05];
        let n = 6;
        let mut jac = vec![f64::NAN; n * n];
        assert!(mp.jacobian(u, 0.0, &x, &mut jac));
        let h = 1e-7;
        let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
        for col in 0..n {
            let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
            xp[col] += h;
            xm[col] -= h;
            mp.rhs(u, 0.0, &xp, &mut fp);
            mp.rhs(u, 0.0, &xm, &mut fm);
            for row in 0..n {
                let fd = (fp[row] - fm[row]) / (2.0 * h);
                assert!(
                    (jac[row * n + col] - fd).abs() < 1e-7,
                    "({row}, {col}): {} vs {fd}",
                    jac[row * n + col]
                );
            }
        }
    }

    /// Flipping the signs of `(m_i, c_i, k_i)` leaves the dynamics unchanged and negates the
    /// output (derived, catalog M8).
    #[test]
    fn sign_flip_negates_the_output_only() {
        let a = Multiplay::from_stiffness(vec![2.0, 4.0], vec![1.0, 3.0]);
        let b = Multiplay::from_stiffness(vec![-2.0, -4.0], vec![1.0, 3.0]);
        let (u, x) = (0.7, [-0.9, 0.2, 4.1, -0.3]);
        let (mut da, mut db) = ([0.0; 4], [0.0; 4]);
        a.rhs(u, 0.0, &x, &mut da);
        b.rhs(u, 0.0, &x, &mut db);
        assert_eq!(da, db);
        assert_eq!(a.output(u, 0.0, &x), -b.output(u, 0.0, &x));
    }

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
    }

    /// Fig 2.5 (L698, L707): slopes 6, 4, 0 and −6, −4, 0, breakpoints u = −3 and 1 on the loop
    /// between −5 and 5, vertices (−5, −14), (−3, −2), (1, 14), (5, 14) (catalog, derived).
    #[test]
    fn fig_2_5_slopes_breakpoints_and_vertices() {
        let a = DcMap::new(&[2.0, 4.0], &[1.0, 3.0]);
        assert_eq!(a.slopes(), vec![6.0, 4.0, 0.0]);
        let v = a.vertices(5.0);
        assert_eq!(v, vec![(-5.0, -14.0), (-3.0, -2.0), (1.0, 14.0), (5.0, 14.0)]);
        assert_eq!(a.loop_area(5.0), 128.0);
        let b = DcMap::new(&[-2.0, -4.0], &[1.0, 3.0]);
        assert_eq!(b.slopes(), vec![-6.0, -4.0, 0.0]);
        assert_eq!(b.loop_area(5.0), -128.0);
    }

    /// Fig 2.4 lists Δ descending (0.8, 0.2; L607): sorted before (2.22).
    #[test]
    fn widths_are_sorted() {
        let m = DcMap::new(&[1.0, 3.0], &[0.8, 0.2]);
        assert_eq!(m.delta, vec![0.2, 0.8]);
        assert_eq!(m.k, vec![3.0, 1.0]);
        assert_eq!(m.slopes(), vec![4.0, 1.0, 0.0]);
    }

    /// Fig 2.6 (L709): slopes, cumulative rises, saturation and area (catalog, derived).
    #[test]
    fn fig_2_6_derived_values() {
        let k = [-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
        let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
        let m = DcMap::new(&k, &d);
        assert_eq!(m.slopes(), vec![5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 8.0, 6.0, 4.0, 2.0, 0.0]);
        let r = [10.0, 34.0, 62.0, 94.0, 130.0, 170.0, 202.0, 226.0, 242.0, 250.0];
        assert_eq!(m.rises(), r.to_vec());
        assert_eq!(m.saturation(), 125.0);
        assert_eq!(m.loop_area(20.0), 1340.0);
        // C2 symmetry of the vertices: the loop top equals minus its bottom.
        let v = m.vertices(20.0);
        assert_eq!(v.first().unwrap().1, -v.last().unwrap().1);
    }

    /// The ascending branch agrees with the exact stop operators (M9) on the periodic loop.
    #[test]
    fn branch_matches_stop_operators() {
        let k = [-2.0, -2.0, -2.0, -2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0];
        let d = [1.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0];
        let m = DcMap::new(&k, &d);
        let ms = MaxwellSlip::new(k.to_vec(), d.to_vec());
        let mut st = ms.state(0.0, 0.0);
        for u in [20.0, -20.0] {
            ms.advance(&mut st, u);
        }
        for j in 0..=400 {
            let u = -20.0 + 0.1 * j as f64;
            let f = ms.advance(&mut st, u);
            assert!((f - m.ascending(20.0, u)).abs() < 1e-9, "u = {u}: {f}");
        }
        assert_eq!(m.loop_area(20.0), 2184.0);
    }

    /// (2.24)–(2.26) recover k and Δ exactly from the vertices of the Fig 2.6 map, and from
    /// vertices detected in samples that straddle the breakpoints (the Fig 2.7 procedure, L732).
    #[test]
    fn identification_round_trip() {
        let k = [-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
        let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
        let m = DcMap::new(&k, &d);
        let id = DcMap::identify(&m.vertices(20.0));
        assert!(close(&id.k, &m.k, 1e-12) && close(&id.delta, &m.delta, 1e-12), "{id:?}");
        // Samples with spacing 40/997 never fall on a breakpoint.
        let n = 997;
        let u: Vec<f64> = (0..=n).map(|j| -20.0 + 40.0 * j as f64 / n as f64).collect();
        let y: Vec<f64> = u.iter().map(|u| m.ascending(20.0, *u)).collect();
        let v = branch_vertices(&u, &y, 1e-9);
        assert_eq!(v.len(), 12, "{v:?}");
        let id = DcMap::identify(&v);
        assert!(close(&id.k, &m.k, 1e-9) && close(&id.delta, &m.delta, 1e-9), "{id:?}");
    }

    /// Fig 2.9 parameters (catalog, derived): k', Δ', Σ k' Δ' = 19; the zero slope is explicit.
    #[test]
    fn slope_inverse_of_fig_2_6() {
        let k = [-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
        let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
        let inv = DcMap::new(&k, &d).slope_inverse().unwrap();
        let kp = [
            1.0 / 30.0,
            1.0 / 42.0,
            1.0 / 56.0,
            1.0 / 72.0,
            1.0 / 90.0,
            -1.0 / 40.0,
            -1.0 / 24.0,
            -1.0 / 12.0,
            -1.0 / 4.0,
            1.0 / 2.0,
        ];
        assert!(close(&inv.k, &kp, 1e-15), "{:?}", inv.k);
        let dp = [5.0, 17.0, 31.0, 47.0, 65.0, 85.0, 101.0, 113.0, 121.0, 125.0];
        assert_eq!(inv.delta, dp.to_vec());
        let kd: f64 = inv.k.iter().zip(&inv.delta).map(|(k, d)| k * d).sum();
        assert!((kd - 19.0).abs() < 1e-12);
        assert_eq!(inv.vertical_at, 125.0);
        // An interior zero slope is reported, not divided by.
        let z = DcMap::new(&[1.0, -1.0, 1.0], &[1.0, 2.0, 3.0]);
        assert_eq!(z.slope_inverse(), Err(InverseError::ZeroSlope { index: 1 }));
        let nm = DcMap::new(&[3.0, -2.0], &[1.0, 2.0]);
        assert_eq!(nm.slope_inverse(), Err(InverseError::NotMonotone { index: 1 }));
    }

    /// inverse ∘ model = identity on the invertible range (|u| ≤ 18 < Δ_10 = 19 for the Fig 2.10
    /// map, no zero-slope segment): the forward stop operators driven by u, the inverse ones by y,
    /// along an arbitrary reversal sequence, from the relaxed state.
    #[test]
    fn slope_inverse_composed_with_model_is_identity() {
        let k = [-1.0, -1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
        let d: Vec<f64> = (0..10).map(|i| (2 * i + 1) as f64).collect();
        let inv = DcMap::new(&k, &d).slope_inverse().unwrap();
        let fwd = MaxwellSlip::new(k.to_vec(), d.clone());
        let back = MaxwellSlip::new(inv.k.clone(), inv.delta.clone());
        let (mut sf, mut sb) = (fwd.state(0.0, 0.0), back.state(0.0, 0.0));
        let turns = [18.0, -18.0, 7.0, -3.0, 12.5, -17.0, 17.9, 0.3, -18.0, 18.0];
        let mut u0 = 0.0;
        let mut worst = 0.0f64;
        for t in turns {
            for j in 1..=200 {
                let u = u0 + (t - u0) * j as f64 / 200.0;
                let y = fwd.advance(&mut sf, u);
                worst = worst.max((back.advance(&mut sb, y) - u).abs());
            }
            u0 = t;
        }
        assert!(worst < 1e-12, "max |u_rec − u| = {worst}");
    }

    #[test]
    fn dynamic_inverse_output_solves_2_30() {
        let mp = Multiplay::from_stiffness(vec![-1.0, 2.0, 2.0], vec![1.0, 3.0, 5.0]);
        let inv = DynamicInverse::new(mp.clone()).unwrap();
        let (u, x) = (0.7, [0.2, 0.1, -1.5, 0.0, 3.0, -0.2]);
        let y = mp.output(u, 0.0, &x);
        assert!((inv.output(y, 0.0, &x) - u).abs() < 1e-14);
        let (mut a, mut b) = ([0.0; 6], [0.0; 6]);
        mp.rhs(u, 0.0, &x, &mut a);
        inv.rhs(y, 0.0, &x, &mut b);
        assert!(close(&a, &b, 1e-14));
        assert!(DynamicInverse::new(Multiplay::from_stiffness(vec![1.0, -1.0], vec![1.0, 2.0])).is_err());
    }
}
