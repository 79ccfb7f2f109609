//! Rotating bristle models, thesis ch. III §3.2–§3.3 (Drinčić 2012), source lines L833–L1219.
//!
//! A rigid body of length `d` slides at height `h` over an infinite row of rigid bristles of length
//! `l_b` with bases `x_b = iΔ` (the lattice phase is not stated; catalog M1) and torsional springs
//! `κ`. Only bristles touching a lower corner push horizontally (L835–L840).
//!
//! # Equations
//!
//! * `d0 = sqrt(l_b² − h²)` (L833), (3.1) `θ_max = arccos(h/l_b)` (L852).
//! * (3.2) `θ^r = arctan((x + d/2 − x_b)/h)`, (3.3) `θ^l = arctan((x − d/2 − x_b)/h)` (L858, L862).
//! * (3.4)–(3.6) `F_f,i = κ θ cos²θ / h` (L870–L878).
//! * (3.7)–(3.9) `F_f = (κ/h) Σ θ cos²θ` over the contact sets (L904, L921, L925).
//! * DRBM (3.13)–(3.16): `X^r = {x + d/2 − d0 < x_b ≤ x + d/2}` for `v ≥ 0`,
//!   `X^l = {x − d/2 ≤ x_b < x − d/2 + d0}` for `v < 0` (L980–L992).
//! * (3.19) `F_min = (κ/h) φ cos²φ`, `φ = arctan((d0 − Δ)/h)` (L1010): the sawtooth minimum
//!   when one bristle remains, valid for `1 < d0/Δ ≤ 2` (catalog M4 caveat).
//! * Sawtooth (3.48)–(3.49) with the floored modulus (L1166–L1178).
//!
//! # RBM contact sets as a per-bristle state machine
//!
//! Table 3.1 (L884–L896) describes the contact sets after an isolated reversal with `2Δ`
//! thresholds that are consistent only for `d0 ≤ 2Δ` and only when a reversal is followed by at
//! least `d + d0` of travel (catalog Table 3.1 notes). [`BristleState`] replaces it by the
//! geometry it describes: every bristle is upright, rotated by the right corner (`R`, θ ≥ 0), by
//! the left corner (`L`, θ ≤ 0), or pressed flat under the body at `±θ_max` (`FlatP`, `FlatM`).
//! The transitions are purely positional (corners `c_r = x + d/2`, `c_l = x − d/2`):
//! `Up → R` when `c_r` passes the base moving right, `Up → L` when `c_l` passes it moving left;
//! `R → FlatP` at `c_r − x_b ≥ d0`, `R → Up` at `c_r ≤ x_b`; `L → FlatM` at `x_b − c_l ≥ d0`,
//! `L → Up` at `c_l ≥ x_b`; `FlatP → R` when the right corner comes back over the tip
//! (`c_r < x_b + d0`), `FlatP → Up` when the left corner passes the tip (`c_l > x_b + d0`);
//! `FlatM → L` when `c_l > x_b − d0`, `FlatM → Up` when `c_r < x_b − d0`. Before the first
//! reversal this is Table 3.2, and after an isolated reversal with `d0 ≤ 2Δ` Table 3.1.

/// Bristle row and body geometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bristles {
    /// Torsional stiffness `κ`, N·m/rad.
    pub kappa: f64,
    /// Height of the body's lower surface `h`, m.
    pub h: f64,
    /// Bristle length `l_b`, m.
    pub lb: f64,
    /// Bristle spacing `Δ`, m (bases at `iΔ`).
    pub delta: f64,
    /// Body length `d`, m.
    pub d: f64,
}

/// Which branch of the discontinuous law: `Plus` for `v ≥ 0`, `Minus` for `v < 0` (3.13), (3.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Plus,
    Minus,
}

/// A frozen lattice index range `first..=last` (empty when `first > last`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    pub first: i64,
    pub last: i64,
}

/// Frozen ranges of both branches of a discontinuous friction law.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cells {
    pub plus: Range,
    pub minus: Range,
}

impl Bristles {
    /// `d0 = sqrt(l_b² − h²)` (L833).
    pub fn d0(&self) -> f64 {
        (self.lb * self.lb - self.h * self.h).sqrt()
    }
    /// (3.1) `θ_max = arccos(h/l_b)` (L852).
    pub fn theta_max(&self) -> f64 {
        (self.h / self.lb).acos()
    }
    /// (3.5)–(3.6): horizontal force of one bristle at angle `θ`.
    pub fn force_of_angle(&self, theta: f64) -> f64 {
        let c = theta.cos();
        self.kappa * theta * c * c / self.h
    }
    /// (3.2)/(3.3): angle of a bristle at base `xb` touching a corner at `c`.
    pub fn angle(&self, corner: f64, xb: f64) -> f64 {
        ((corner - xb) / self.h).atan()
    }
    /// Energy stored in one bristle pivoted to `θ_max`: `κ θ_max²/2` (implicit in (3.45)).
    pub fn bristle_energy(&self) -> f64 {
        0.5 * self.kappa * self.theta_max().powi(2)
    }
    /// (3.19) `F_f,min = (κ/h) φ cos²φ`, `φ = arctan((d0 − Δ)/h)` (L1010).
    pub fn f_min_319(&self) -> f64 {
        self.force_of_angle(((self.d0() - self.delta) / self.h).atan())
    }
    /// Offsets `(a, b)` of the DRBM window relative to `x`: bases in `(x + a, x + b]` for `Plus`,
    /// `[x + a, x + b)` for `Minus` (3.14), (3.16).
    fn window_offsets(&self, s: Side) -> (f64, f64) {
        match s {
            Side::Plus => (self.d / 2.0 - self.d0(), self.d / 2.0),
            Side::Minus => (-self.d / 2.0, -self.d / 2.0 + self.d0()),
        }
    }
    /// The DRBM contact range at `x` (3.14)/(3.16).
    pub fn range(&self, s: Side, x: f64) -> Range {
        let (a, b) = self.window_offsets(s);
        let dl = self.delta;
        match s {
            Side::Plus => Range {
                first: ((x + a) / dl).floor() as i64 + 1,
                last: ((x + b) / dl).floor() as i64,
            },
            Side::Minus => Range {
                first: ((x + a) / dl).ceil() as i64,
                last: ((x + b) / dl).ceil() as i64 - 1,
            },
        }
    }
    /// Both ranges at `x`.
    pub fn cells(&self, x: f64) -> Cells {
        Cells {
            plus: self.range(Side::Plus, x),
            minus: self.range(Side::Minus, x),
        }
    }
    /// DRBM friction with a frozen range: (3.7) for `Plus` (corner `x + d/2`), (3.8) for `Minus`.
    pub fn force_in(&self, s: Side, r: Range, x: f64) -> f64 {
        let corner = match s {
            Side::Plus => x + self.d / 2.0,
            Side::Minus => x - self.d / 2.0,
        };
        (r.first..=r.last)
            .map(|i| self.force_of_angle(self.angle(corner, i as f64 * self.delta)))
            .sum()
    }
    /// DRBM friction (3.13)/(3.15) at `x` (located range, exact and discontinuous in `x`).
    pub fn drbm(&self, s: Side, x: f64) -> f64 {
        self.force_in(s, self.range(s, x), x)
    }
    /// The `x`-interval on which the frozen range `r` is the geometric one: `[lo, hi]`.
    pub fn range_bounds(&self, s: Side, r: Range) -> (f64, f64) {
        let (a, b) = self.window_offsets(s);
        let dl = self.delta;
        let (f, l) = (r.first as f64, r.last as f64);
        // Plus: (f−1)Δ ≤ x + a < fΔ and lΔ ≤ x + b < (l+1)Δ; Minus: (f−1)Δ < x + a ≤ fΔ and
        // lΔ < x + b ≤ (l+1)Δ; the closures differ only on a null set.
        (
            (((f - 1.0) * dl - a).max(l * dl - b)),
            ((f * dl - a).min((l + 1.0) * dl - b)),
        )
    }
    /// Event functions `[x − hi, lo − x]`: `≤ 0` while `r` is valid, each rising when violated.
    pub fn range_events(&self, s: Side, r: Range, x: f64) -> [f64; 2] {
        let (lo, hi) = self.range_bounds(s, r);
        [x - hi, lo - x]
    }
    /// The range after crossing its upper (`forward`) or lower bound: the index ends whose
    /// threshold is the active bound move, deterministically (no re-location at the boundary).
    pub fn cross(&self, s: Side, r: Range, forward: bool) -> Range {
        let (a, b) = self.window_offsets(s);
        let dl = self.delta;
        let (f, l) = (r.first as f64, r.last as f64);
        let mut n = r;
        if forward {
            let (tf, tl) = (f * dl - a, (l + 1.0) * dl - b);
            let hi = tf.min(tl);
            if tf <= hi {
                n.first += 1;
            }
            if tl <= hi {
                n.last += 1;
            }
        } else {
            let (tf, tl) = ((f - 1.0) * dl - a, l * dl - b);
            let lo = tf.max(tl);
            if tf >= lo {
                n.first -= 1;
            }
            if tl >= lo {
                n.last -= 1;
            }
        }
        n
    }
    /// Cross until `x` lies in the range's interval; returns the number of crossings.
    pub fn settle(&self, s: Side, r: &mut Range, x: f64) -> usize {
        let mut n = 0;
        loop {
            let e = self.range_events(s, *r, x);
            if e[0] > 0.0 {
                *r = self.cross(s, *r, true);
            } else if e[1] > 0.0 {
                *r = self.cross(s, *r, false);
            } else {
                return n;
            }
            n += 1;
        }
    }
    /// Sawtooth range of the DRBM for `v ≥ 0` on a fine grid over one lattice period:
    /// `(min, max, mean)` of `F_f^r` (the numerical minimum that replaces (3.19) for `d0/Δ > 2`).
    pub fn sawtooth_stats(&self, n: usize) -> (f64, f64, f64) {
        let (mut lo, mut hi, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
        for k in 0..n {
            let x = self.delta * (k as f64 + 0.5) / n as f64;
            let f = self.drbm(Side::Plus, x);
            lo = lo.min(f);
            hi = hi.max(f);
            sum += f;
        }
        (lo, hi, sum / n as f64)
    }
    /// Sum of the signed pivot angles of the contributing bristles (θ_s of L1313).
    pub fn angle_sum(&self, s: Side, x: f64) -> f64 {
        let r = self.range(s, x);
        let corner = match s {
            Side::Plus => x + self.d / 2.0,
            Side::Minus => x - self.d / 2.0,
        };
        (r.first..=r.last)
            .map(|i| self.angle(corner, i as f64 * self.delta))
            .sum()
    }
}

/// Sawtooth approximation (3.48)–(3.49), `F_min ≤ |F| < F_max`, period `Δ` (L1166–L1178).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sawtooth {
    pub f_min: f64,
    pub f_max: f64,
    pub delta: f64,
}

impl Sawtooth {
    fn slope(&self) -> f64 {
        (self.f_max - self.f_min) / self.delta
    }
    /// (3.48) `F_f^r(x)` with the floored modulus.
    pub fn right(&self, x: f64) -> f64 {
        self.f_min + self.slope() * x.rem_euclid(self.delta)
    }
    /// (3.49) `F_f^l(x)`.
    pub fn left(&self, x: f64) -> f64 {
        -(self.f_min + self.slope() * (-x).rem_euclid(self.delta))
    }
    /// (3.47): `F_f^r` for `v ≥ 0`, `F_f^l` for `v < 0`.
    pub fn force(&self, v: f64, x: f64) -> f64 {
        if v >= 0.0 {
            self.right(x)
        } else {
            self.left(x)
        }
    }
    /// Lattice cell `k` with `x ∈ [kΔ, (k+1)Δ)`.
    pub fn cell(&self, x: f64) -> i64 {
        (x / self.delta).floor() as i64
    }
    /// (3.48)/(3.49) with a frozen cell `k` (smooth, linear in `x`).
    pub fn force_in(&self, s: Side, k: i64, x: f64) -> f64 {
        let k = k as f64 * self.delta;
        match s {
            Side::Plus => self.f_min + self.slope() * (x - k),
            Side::Minus => -(self.f_min + self.slope() * (k + self.delta - x)),
        }
    }
    /// Boundary equilibria (3.58): `ū` interval `[K x̄ + F_f^l(x̄), K x̄ + F_f^r(x̄)]` at `x̄`.
    pub fn equilibrium_band(&self, k_spring: f64, x: f64) -> (f64, f64) {
        (k_spring * x + self.left(x), k_spring * x + self.right(x))
    }
}

/// The friction-force-based model (FFBM), thesis (3.65)–(3.67) (L1254–L1302): a single-state
/// model whose steady-state force is the sawtooth (3.47)–(3.49):
/// `ż = v − σ0 |v| z / S(v, x)`, `F_f = σ0 z`, with `S(v, x) = F_min + ((F_max − F_min)/Δ)
/// mod(sign(v) x, Δ) = |F_f^{r/l}(x)|`. S jumps at the lattice points `x ∈ ΔZ`, so an
/// integrator works in one frozen cell `k` (`x ∈ [kΔ, (k+1)Δ]`) at a time, where it is smooth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ffbm {
    pub saw: Sawtooth,
    /// σ0: the stiffness of z (N/m; L1266 calls z a force, but (3.66) makes it a length).
    pub sigma0: f64,
}

impl Ffbm {
    /// `S(v, x) = σ0 z_ss(v, x)` (3.65) in the frozen cell `k`: `F_f^r` for v ≥ 0, `|F_f^l|` for v < 0.
    pub fn level_in(&self, k: i64, v: f64, x: f64) -> f64 {
        let side = if v >= 0.0 { Side::Plus } else { Side::Minus };
        self.saw.force_in(side, k, x).abs()
    }
    /// (3.66) in the frozen cell `k`. Continuous at v = 0 (the factor |v|), smooth in x.
    pub fn z_rate_in(&self, k: i64, v: f64, x: f64, z: f64) -> f64 {
        v - self.sigma0 * v.abs() * z / self.level_in(k, v, x)
    }
    /// (3.66) as written, the cell located from x.
    pub fn z_rate(&self, v: f64, x: f64, z: f64) -> f64 {
        self.z_rate_in(self.saw.cell(x), v, x, z)
    }
    /// (3.67) `F_f = σ0 z`.
    pub fn force(&self, z: f64) -> f64 {
        self.sigma0 * z
    }
}

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

/// One bristle's contact state in the rotating bristle model (RBM).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BristleState {
    Up,
    /// Rotated by the right corner, `0 ≤ θ < θ_max`.
    R,
    /// Rotated by the left corner, `−θ_max < θ ≤ 0`.
    L,
    /// Pressed flat under the body at `+θ_max` (tip at `x_b + d0`).
    FlatP,
    /// Pressed flat at `−θ_max` (tip at `x_b − d0`).
    FlatM,
}

/// Next state of a bristle at base `xb` after the corners moved from `x_prev` to `x` (monotone
/// in between, `|x − x_prev|` small against `d`). Iterates the positional transitions to a fixed
/// point, so a step may cross several thresholds.
pub fn step_bristle(b: &Bristles, st: BristleState, xb: f64, x_prev: f64, x: f64) -> BristleState {
    let (cr, cl) = (x + b.d / 2.0, x - b.d / 2.0);
    let d0 = b.d0();
    let mut s = st;
    for _ in 0..4 {
        let n = match s {
            BristleState::Up => {
                if x > x_prev && x_prev + b.d / 2.0 < xb && cr >= xb {
                    BristleState::R
                } else if x < x_prev && x_prev - b.d / 2.0 > xb && cl <= xb {
                    BristleState::L
                } else {
                    s
                }
            }
            BristleState::R => {
                if cr - xb >= d0 {
                    BristleState::FlatP
                } else if cr < xb {
                    BristleState::Up
                } else {
                    s
                }
            }
            BristleState::L => {
                if xb - cl >= d0 {
                    BristleState::FlatM
                } else if cl > xb {
                    BristleState::Up
                } else {
                    s
                }
            }
            BristleState::FlatP => {
                if cl > xb + d0 {
                    BristleState::Up
                } else if cr < xb + d0 {
                    BristleState::R
                } else {
                    s
                }
            }
            BristleState::FlatM => {
                if cr < xb - d0 {
                    BristleState::Up
                } else if cl > xb - d0 {
                    BristleState::L
                } else {
                    s
                }
            }
        };
        if n == s {
            break;
        }
        s = n;
    }
    s
}

/// The RBM along a prescribed path: bristle states on the lattice indices `[i0, i0 + n)`.
#[derive(Clone, Debug)]
pub struct Rbm {
    pub b: Bristles,
    pub i0: i64,
    pub states: Vec<BristleState>,
    pub x: f64,
}

impl Rbm {
    /// Initial state (L900, Table 3.2): the body at `x0`, bristles under the flat surface pressed
    /// flat, the corner sets empty, `F_f = 0`. `span` bounds the travel `|x − x0|`. The lying
    /// direction of the bristles under the body is not stated; they start `FlatP` for a first
    /// motion to the right (flat in the direction of the first motion, so no corner set is
    /// populated until a corner passes a base, as Table 3.2 says).
    pub fn new(b: Bristles, x0: f64, span: f64, first_right: bool) -> Rbm {
        let lo = ((x0 - span - b.d / 2.0 - 2.0 * b.d0()) / b.delta).floor() as i64 - 2;
        let hi = ((x0 + span + b.d / 2.0 + 2.0 * b.d0()) / b.delta).ceil() as i64 + 2;
        let (cl, cr) = (x0 - b.d / 2.0, x0 + b.d / 2.0);
        let d0 = b.d0();
        let states = (lo..hi)
            .map(|i| {
                let xb = i as f64 * b.delta;
                // Flat toward the first motion, tip under the body; bases within d0 of the
                // leading corner are out of contact until the corner passes them (Table 3.2).
                if first_right && xb + d0 >= cl && xb + d0 <= cr {
                    BristleState::FlatP
                } else if !first_right && xb - d0 >= cl && xb - d0 <= cr {
                    BristleState::FlatM
                } else {
                    BristleState::Up
                }
            })
            .collect();
        Rbm {
            b,
            i0: lo,
            states,
            x: x0,
        }
    }
    fn xb(&self, k: usize) -> f64 {
        (self.i0 + k as i64) as f64 * self.b.delta
    }
    /// Move the body to `x`, updating only the bristles near the two corners.
    pub fn advance(&mut self, x: f64) {
        let reach = self.b.d0() + (x - self.x).abs() + 2.0 * self.b.delta;
        for c in [self.b.d / 2.0, -self.b.d / 2.0] {
            let lo = (self.x.min(x) + c - reach) / self.b.delta;
            let hi = (self.x.max(x) + c + reach) / self.b.delta;
            let k0 = ((lo.floor() as i64) - self.i0).max(0) as usize;
            let k1 = ((hi.ceil() as i64) - self.i0).min(self.states.len() as i64 - 1) as usize;
            for k in k0..=k1 {
                let xb = self.xb(k);
                self.states[k] = step_bristle(&self.b, self.states[k], xb, self.x, x);
            }
        }
        self.x = x;
    }
    /// Move to `x` updating every bristle (brute force; for verification).
    pub fn advance_all(&mut self, x: f64) {
        for k in 0..self.states.len() {
            let xb = self.xb(k);
            self.states[k] = step_bristle(&self.b, self.states[k], xb, self.x, x);
        }
        self.x = x;
    }
    /// (3.7)–(3.9): `F_f = F_f^l + F_f^r` over the bristles in `R` and `L`.
    pub fn friction(&self) -> (f64, f64) {
        self.friction_at(self.x)
    }
    /// (3.7)–(3.9) with the contact states frozen and the body at `x` (smooth in `x` between
    /// two [`Rbm::next_thresholds`]).
    pub fn friction_at(&self, x: f64) -> (f64, f64) {
        let (mut fl, mut fr) = (0.0, 0.0);
        let (cr, cl) = (x + self.b.d / 2.0, x - self.b.d / 2.0);
        let reach = self.b.d0() + 2.0 * self.b.delta;
        for c in [cr, cl] {
            let k0 = (((c - reach) / self.b.delta).floor() as i64 - self.i0).max(0) as usize;
            let k1 = (((c + reach) / self.b.delta).ceil() as i64 - self.i0).min(self.states.len() as i64 - 1) as usize;
            for k in k0..=k1 {
                let xb = self.xb(k);
                match self.states[k] {
                    BristleState::R if c == cr => fr += self.b.force_of_angle(self.b.angle(cr, xb)),
                    BristleState::L if c == cl => fl += self.b.force_of_angle(self.b.angle(cl, xb)),
                    _ => {}
                }
            }
        }
        (fl, fr)
    }
    /// The nearest body positions above and below the current `x` at which a bristle changes
    /// state ([`step_bristle`]'s thresholds: a corner reaching a base, a bristle reaching θ_max,
    /// a corner passing the tip of a flat bristle), each counted only in the direction in which
    /// it fires. Between them the contact states are constant and [`Rbm::friction_at`] is smooth.
    pub fn next_thresholds(&self) -> (f64, f64) {
        let (h, d0) = (self.b.d / 2.0, self.b.d0());
        let (mut above, mut below) = (f64::INFINITY, f64::NEG_INFINITY);
        let reach = d0 + h + 2.0 * self.b.delta;
        let k0 = (((self.x - reach - h) / self.b.delta).floor() as i64 - self.i0).max(0) as usize;
        let k1 = (((self.x + reach + h) / self.b.delta).ceil() as i64 - self.i0).clamp(0, self.states.len() as i64 - 1)
            as usize;
        for k in k0..=k1 {
            let xb = self.xb(k);
            // (crossed from below, crossed from above)
            let (up, down) = match self.states[k] {
                BristleState::Up => (xb - h, xb + h),
                BristleState::R => (xb - h + d0, xb - h),
                BristleState::L => (xb + h, xb + h - d0),
                BristleState::FlatP => (xb + d0 + h, xb + d0 - h),
                BristleState::FlatM => (xb - d0 + h, xb - d0 - h),
            };
            if up > self.x {
                above = above.min(up);
            }
            if down < self.x {
                below = below.max(down);
            }
        }
        (above, below)
    }
    /// Number of bristles in each state `[Up, R, L, FlatP, FlatM]`.
    pub fn census(&self) -> [usize; 5] {
        let mut c = [0; 5];
        for s in &self.states {
            c[*s as usize] += 1;
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Fig 3.5 bristles (L958): d0/Δ = 1.99.
    fn fig35() -> Bristles {
        Bristles {
            kappa: 0.5,
            h: 0.098,
            lb: 0.1,
            delta: 0.01,
            d: 1.0,
        }
    }

    fn fig33() -> Bristles {
        Bristles {
            kappa: 0.1,
            h: 0.098,
            lb: 0.1,
            delta: 0.002,
            d: 1.0,
        }
    }

    #[test]
    fn geometry_d0_and_theta_max() {
        let b = fig33();
        assert!((b.d0() - 0.0199).abs() < 1e-5); // L929
        assert!((b.theta_max() - 0.98f64.acos()).abs() < 1e-15);
        assert!((b.theta_max().tan() - b.d0() / b.h).abs() < 1e-12);
    }

    #[test]
    fn work_per_bristle_is_kappa_theta_max_sq_over_two() {
        // ∫ F dx with x = h tan θ: κ θ_max²/2.
        let b = fig33();
        let n = 200_000;
        let mut w = 0.0;
        for k in 0..n {
            let s = b.d0() * (k as f64 + 0.5) / n as f64;
            w += b.force_of_angle((s / b.h).atan()) * b.d0() / n as f64;
        }
        assert!((w - b.bristle_energy()).abs() < 1e-9 * b.bristle_energy());
    }

    #[test]
    fn drbm_frozen_range_matches_located_and_sign() {
        let b = Bristles {
            kappa: 0.1,
            h: 0.0995,
            lb: 0.1,
            delta: 0.005,
            d: 0.5,
        };
        let mut rp = b.range(Side::Plus, -0.3);
        let mut rm = b.range(Side::Minus, -0.3);
        for k in 0..60_000 {
            let x = -0.3 + 3.7e-7 + k as f64 * 1.0003e-5;
            b.settle(Side::Plus, &mut rp, x);
            b.settle(Side::Minus, &mut rm, x);
            assert_eq!(rp, b.range(Side::Plus, x), "x = {x}");
            assert_eq!(rm, b.range(Side::Minus, x), "x = {x}");
            assert!(b.drbm(Side::Plus, x) > 0.0 && b.drbm(Side::Minus, x) < 0.0);
        }
        // (3.19) is the sawtooth minimum when 1 < d0/Δ ≤ 2.
        let (lo, _, _) = b.sawtooth_stats(20_000);
        assert!((lo - b.f_min_319()).abs() < 1e-4 * lo, "{lo} vs {}", b.f_min_319());
    }

    #[test]
    fn ffbm_steady_state_is_the_sawtooth() {
        // (3.65): σ0 z_ss = |F_f^r(x)| for v > 0 and |F_f^l(x)| for v < 0, at every x; ż = 0 there.
        let f = Ffbm {
            saw: Sawtooth {
                f_min: 1.0,
                f_max: 1.5,
                delta: 0.05,
            },
            sigma0: 1e5,
        };
        for i in -40..40 {
            let x = 0.0123 * i as f64 + 1e-4;
            let (r, l) = (f.saw.right(x), f.saw.left(x));
            assert!((f.z_rate(0.3, x, r / f.sigma0)).abs() < 1e-12, "x = {x}");
            assert!((f.z_rate(-0.3, x, l / f.sigma0)).abs() < 1e-12, "x = {x}");
            // The frozen cell agrees with the located one inside the cell, and continues the
            // tooth linearly past its end.
            let k = f.saw.cell(x);
            assert!((f.level_in(k, 1.0, x) - r).abs() < 1e-12 && (f.level_in(k, -1.0, x) + l).abs() < 1e-12);
            let beyond = (k + 1) as f64 * 0.05 + 0.01;
            assert!((f.level_in(k, 1.0, beyond) - 1.6).abs() < 1e-9);
        }
        // At v = 0 the state does not move, whatever z.
        assert_eq!(f.z_rate(0.0, 0.02, 3e-5), 0.0);
    }

    #[test]
    fn sawtooth_floored_mod() {
        let s = Sawtooth {
            f_min: 0.5,
            f_max: 1.0,
            delta: 0.033,
        };
        assert_eq!(s.right(0.0), 0.5);
        for k in 0..1000 {
            let x = -1.0 + 1.3e-7 + k as f64 * 0.002;
            let (r, l) = (s.right(x), s.left(x));
            assert!((0.5..1.0).contains(&r) && (-1.0..=-0.5).contains(&l));
            let c = s.cell(x);
            assert!((s.force_in(Side::Plus, c, x) - r).abs() < 1e-9);
            assert!((s.force_in(Side::Minus, c, x) - l).abs() < 1e-9, "{x}");
        }
    }

    /// Brute-force check of the RBM state machine: random back-and-forth motions, the local
    /// update with coarse steps against updating every bristle with fine substeps.
    /// An independent geometric model of one bristle: a rigid rod of length l_b pivoted at
    /// (x_b, 0), spring-loaded toward upright, that may not enter the body (the region above
    /// height h between the corners). After each small move of the body the rod is pushed out of
    /// the body if the body moved into it, and otherwise relaxes toward θ = 0 as far as the body
    /// lets it. Nothing of `step_bristle`'s transition rules is used.
    struct Rod {
        theta: f64,
    }

    /// The angles in (−θ_max, θ_max) at which the rod enters the body, an open interval
    /// `(lo, hi)` (None: empty). For θ ≥ 0 the part of the rod above h spans
    /// [x_b + h tan θ, x_b + l_b sin θ], both ends increasing in θ, so it meets (c_l, c_r) for
    /// its bounds follow in closed form; likewise for θ ≤ 0; the two pieces join at θ = 0.
    fn penetrating(b: &Bristles, xb: f64, x: f64) -> Option<(f64, f64)> {
        let (cl, cr, tm) = (x - b.d / 2.0, x + b.d / 2.0, b.theta_max());
        let asin = |s: f64| s.clamp(-1.0, 1.0).asin();
        // θ ≥ 0: enters iff x_b + h tan θ < c_r and x_b + l_b sin θ > c_l.
        let plus = (asin((cl - xb) / b.lb).max(0.0), ((cr - xb) / b.h).atan().min(tm));
        // θ ≤ 0: enters iff x_b + l_b sin θ < c_r and x_b + h tan θ > c_l.
        let minus = (((cl - xb) / b.h).atan().max(-tm), asin((cr - xb) / b.lb).min(0.0));
        match (plus.0 < plus.1, minus.0 < minus.1) {
            (true, true) => Some((minus.0, plus.1)),
            (true, false) => Some(plus),
            (false, true) => Some(minus),
            (false, false) => None,
        }
    }

    impl Rod {
        fn update(&mut self, b: &Bristles, xb: f64, x: f64) {
            let tm = b.theta_max();
            let Some((lo, hi)) = penetrating(b, xb, x) else {
                self.theta = 0.0;
                return;
            };
            let th = self.theta;
            if th > lo && th < hi {
                // Pushed: to the nearer side of the body, flat at ±θ_max if the body covers it.
                self.theta = if th - lo < hi - th { lo } else { hi };
            } else if th >= hi && hi > 0.0 {
                // Relaxes toward 0 until the rod touches the body.
                self.theta = hi;
            } else if th <= lo && lo < 0.0 {
                self.theta = lo;
            } else {
                self.theta = 0.0;
            }
            if self.theta.abs() > tm - 1e-12 {
                self.theta = tm.copysign(self.theta);
            }
        }
    }

    #[test]
    fn rbm_state_machine_matches_an_independent_rod_geometry() {
        // Random paths with long legs and repeated short reversals: at every leg end the state
        // machine's contact states and friction equal those of the rod model, for the Fig 3.5
        // (d0/Δ = 1.99) and Fig 3.3 (d0/Δ = 9.95) bristles.
        let mut seed = 4242u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64) / ((1u64 << 53) as f64)
        };
        for b in [fig35(), fig33()] {
            let tm = b.theta_max();
            let mut sm = Rbm::new(b, 0.0, 1.5, true);
            // Table 3.2 leaves the bases within d0 behind the leading corner upright and out of
            // contact (F_f(t0) = 0), which a rod cannot be (it would stand inside the body):
            // start both models from the geometric state, those bristles on the corner.
            for i in 0..sm.states.len() {
                let xb = sm.xb(i);
                if xb <= b.d / 2.0 && xb > b.d / 2.0 - b.d0() && sm.states[i] == BristleState::Up {
                    sm.states[i] = BristleState::R;
                }
            }
            let reach = 2.0 * b.d0() + 2.0 * b.delta;
            let mut rods: Vec<Rod> = (0..sm.states.len())
                .map(|i| Rod {
                    theta: match sm.states[i] {
                        BristleState::FlatP => tm,
                        BristleState::R => b.angle(b.d / 2.0, sm.xb(i)),
                        _ => 0.0,
                    },
                })
                .collect();
            let mut x = 0.0;
            let mut compared = [0usize; 5];
            for _ in 0..60 {
                let len = if rnd() < 0.5 { 0.03 * rnd() } else { 0.3 * rnd() };
                let dir = if rnd() < 0.5 { -1.0 } else { 1.0 };
                let target: f64 = (x + dir * len).clamp(-1.2, 1.2);
                let steps = ((target - x).abs() / (b.delta / 40.0)).ceil().max(1.0) as usize;
                for k in 1..=steps {
                    let xn = x + (target - x) * k as f64 / steps as f64;
                    sm.advance(xn);
                    // A rod reaches at most d0 from its base: only those near a corner can move.
                    for (i, r) in rods.iter_mut().enumerate() {
                        let xb = sm.xb(i);
                        if (xb - xn - b.d / 2.0).abs() < reach || (xb - xn + b.d / 2.0).abs() < reach {
                            r.update(&b, xb, xn);
                        }
                    }
                }
                x = target;
                let mut f = 0.0;
                for (i, r) in rods.iter().enumerate() {
                    let geo = if r.theta == 0.0 {
                        BristleState::Up
                    } else if r.theta == tm {
                        BristleState::FlatP
                    } else if r.theta == -tm {
                        BristleState::FlatM
                    } else if r.theta > 0.0 {
                        BristleState::R
                    } else {
                        BristleState::L
                    };
                    if matches!(geo, BristleState::R | BristleState::L) {
                        f += b.force_of_angle(r.theta);
                    }
                    assert_eq!(sm.states[i], geo, "bristle {} at x = {x}: θ = {}", sm.xb(i), r.theta);
                    compared[geo as usize] += 1;
                }
                let (fl, fr) = sm.friction();
                assert!(
                    (fl + fr - f).abs() < 1e-9,
                    "x = {x}: state machine {} vs rods {f}",
                    fl + fr
                );
            }
            // Every state was met.
            assert!(compared.iter().all(|&c| c > 0), "{compared:?}");
        }
    }

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

    #[test]
    fn next_thresholds_bound_the_state_changes() {
        // Along a random path: moving anywhere strictly between the two thresholds changes no
        // state, and moving just past the nearer one in its direction changes at least one.
        let b = fig35();
        let mut seed = 777u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64) / ((1u64 << 53) as f64)
        };
        let mut r = Rbm::new(b, 0.0, 3.0, true);
        let mut changes = 0;
        for _ in 0..2000 {
            let (above, below) = r.next_thresholds();
            assert!(below < r.x && r.x < above && above - below < 3.0 * b.d0() + 2.0 * b.delta);
            let inside = below + (above - below) * (0.05 + 0.9 * rnd());
            let mut probe = r.clone();
            probe.advance(inside);
            assert_eq!(probe.states, r.states, "a state changed between the thresholds");
            // Then cross one threshold (mostly the one ahead in a random direction).
            let target = if rnd() < 0.5 { above + 1e-9 } else { below - 1e-9 };
            let mut crossed = r.clone();
            crossed.advance(target);
            assert_ne!(crossed.states, r.states, "crossing a threshold changed no state");
            changes += 1;
            r = crossed;
            assert!(r.x.abs() < 2.5, "the walk left the lattice");
        }
        assert_eq!(changes, 2000);
    }

    #[test]
    fn rbm_state_machine_local_equals_brute_force() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64) / ((1u64 << 53) as f64)
        };
        for b in [fig33(), fig35()] {
            let mut fast = Rbm::new(b, 0.0, 3.0, true);
            let mut slow = fast.clone();
            let mut x = 0.0;
            for _ in 0..200 {
                // A leg of random length (short ones: repeated short reversals) and sign.
                let len = if rnd() < 0.5 { 0.05 * rnd() } else { 0.6 * rnd() };
                let dir = if rnd() < 0.5 { -1.0 } else { 1.0 };
                let target = (x + dir * len).clamp(-2.5, 2.5);
                let nsteps = 20;
                for k in 1..=nsteps {
                    let xn = if k == nsteps {
                        x + (target - x)
                    } else {
                        x + (target - x) * k as f64 / nsteps as f64
                    };
                    fast.advance(xn);
                }
                let nfine = ((target - x).abs() / (b.delta / 7.0)).ceil().max(1.0) as usize;
                for k in 1..=nfine {
                    let xn = if k == nfine {
                        x + (target - x)
                    } else {
                        x + (target - x) * k as f64 / nfine as f64
                    };
                    slow.advance_all(xn);
                }
                x += target - x;
                assert_eq!(fast.states, slow.states);
                let (a, c) = (fast.friction(), slow.friction());
                assert!((a.0 - c.0).abs() < 1e-12 && (a.1 - c.1).abs() < 1e-12);
                // Geometry: every corner-contact bristle has |θ| ≤ θ_max, every flat bristle
                // has its tip under the body.
                for (k, s) in slow.states.iter().enumerate() {
                    let xb = slow.xb(k);
                    let (cr, cl) = (x + b.d / 2.0, x - b.d / 2.0);
                    match s {
                        BristleState::R => assert!(cr >= xb && cr - xb <= b.d0() + 1e-12),
                        BristleState::L => assert!(cl <= xb && xb - cl <= b.d0() + 1e-12),
                        BristleState::FlatP => assert!(xb + b.d0() >= cl && xb + b.d0() <= cr + 1e-12),
                        BristleState::FlatM => assert!(xb - b.d0() <= cr && xb - b.d0() >= cl - 1e-12),
                        BristleState::Up => {}
                    }
                }
            }
        }
    }

    /// In unidirectional sliding the RBM equals the DRBM (Table 3.1 rows (a)-(5), (b)-(5)).
    #[test]
    fn rbm_unidirectional_equals_drbm() {
        let b = fig33();
        let mut r = Rbm::new(b, 0.0, 2.0, true);
        let mut x = 0.0;
        while x < 1.5 {
            x += 1.3e-4;
            r.advance(x);
            if x > b.d + b.d0() {
                let (fl, fr) = r.friction();
                assert_eq!(fl, 0.0);
                assert!((fr - b.drbm(Side::Plus, x)).abs() < 1e-12, "{x}");
            }
        }
    }
}
