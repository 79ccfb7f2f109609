//! The DC hysteresis map of a multiplay (its branches are piecewise linear) and its inverse.

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
