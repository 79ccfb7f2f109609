//! Exponential collocation for a scalar affine ODE `z' = a(t) z + b(t)` with error control and
//! dense output.
//!
//! Single-state friction models under prescribed motion (LuGre and its variants, Dahl with unit
//! exponent) are affine in their state once the input is known, with one stiff scalar
//! coefficient: LuGre's `a = −σ0 |u'|/g(u')` reaches ~1e4 1/s. A step-based method is held to
//! steps of `1/|a|` by stability or to a cap; the exact integrating factor
//! ([`crate::affine`]) has no step but resolves `exp ∫a` by quadrature. Here the stiff part is
//! treated in closed form, and steps follow the smoothness of `a(t)` and `b(t)`, not the size of `a`.
//!
//! The method (an exponential collocation method, Hochbruck & Ostermann, Acta Numerica 2010,
//! §2.4). On a step `[t, t + h]` let `ā` be the Gauss mean of `a` over the step, `λ = h ā`, and
//! write the equation as `z' = ā z + N(s)` with `N(s) = (a(s) − ā) z(s) + b(s)`. By variation of
//! constants, exactly,
//!
//! `z(t + θh) = e^{θλ} z(t) + h ∫_0^θ e^{(θ−σ)λ} N(t + σh) dσ`.
//!
//! `N` is replaced by its interpolant `P` at the `S` Gauss–Legendre nodes `c_j` (monomial
//! coefficients `p_k`), the integral is then closed form,
//! `∫_0^θ e^{(θ−σ)λ} σ^k dσ = k! θ^{k+1} φ_{k+1}(θλ)` ([`crate::phi`]), and the stage values
//! `Z_i = z(t + c_i h)` satisfy that formula at `θ = c_i`. Because `N` is affine in `Z`, the
//! stage equations are an `S × S` linear system, solved directly (no Newton iteration). The
//! same formula at any `θ` is the dense output.
//!
//! Properties (all tested): exact for constant `a` and polynomial `b` of degree `< S` (then
//! `N = b`); stiff order `S = 4` (the interpolation error of `N` enters damped by
//! `∫ e^{(θ−σ)λ}`, so the error constant does not grow with `|a|`); A-stable (the exponential
//! carries `ā`, only the small `(a − ā)` is in the linear solve).
//!
//! Error control, embedded: the solution from the interpolant `P'` of `N` at the first `S − 1`
//! nodes differs from the propagated one by `h N[c_1..c_S] ∫_0^1 e^{(1−σ)λ} ω'(σ) dσ`,
//! `ω'(σ) = Π_{j<S} (σ − c_j)` (`P − P'` is the last term of Newton's form), an estimate of the
//! local error of an order `S − 1` solution that costs no evaluation. Leaving out the node nearest
//! the step end makes it sensitive to how `N` behaves there, where in stiff decay the solution is
//! decided. Steps are accepted when it is at most `tol.abs` and resized by `(tol/err)^{1/S}`; the
//! order `S` solution is propagated (local extrapolation, as Dormand–Prince). A defect estimate
//! from the step end (`N(t + h) − P(1)`, one more evaluation) was tried first and rejected: in
//! stiff decay `z(t + h)` makes the defect vanish whenever `a(t + h) z + b(t + h) = 0` holds for
//! any `z`, as at LuGre's reversals (`u' = 0`), so a single step from one reversal to the next was
//! accepted with an error of 0.47 N on the benchmark.
//!
//! Kinks: `a` and `b` must be smooth over the interval given (LuGre's `|u'|` kinks at each zero
//! of `u'`); the caller splits the time span at them, so that every step sees a smooth
//! coefficient (`fric-experiments`' driver stops at every input extremum).

use crate::phi::{inv_factorial, phis};

/// The number of collocation nodes of the default scheme, which is its order.
pub const NODES: usize = 4;

/// Accuracy and step bounds of [`solve_expint`].
#[derive(Clone, Copy, Debug)]
pub struct ExpTolerance {
    /// The local error allowed in `z` per step, absolute (the caller sets it from the scale of `z`).
    pub abs: f64,
    /// The size of `z`, for the first step's size.
    pub z_scale: f64,
    /// The largest step (`f64::INFINITY` for none).
    pub hmax: f64,
}

/// Work done, for benchmarks and run metadata.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExpStats {
    /// Steps accepted.
    pub steps: usize,
    /// Steps rejected by the error estimate.
    pub rejected: usize,
    /// Evaluations of the coefficients `(a, b)`.
    pub evals: usize,
    /// Values given by the dense output (not at a step end).
    pub dense: usize,
    /// Newton iterations inverting the path variable ([`crate::expint_path`]; 0 in time).
    pub inversions: usize,
}

impl std::ops::AddAssign for ExpStats {
    fn add_assign(&mut self, o: ExpStats) {
        self.steps += o.steps;
        self.rejected += o.rejected;
        self.evals += o.evals;
        self.dense += o.dense;
        self.inversions += o.inversions;
    }
}

/// One step of an exponential scheme: the value at its end, its error estimate and its dense
/// output.
pub trait ExpStep {
    /// `z(t + h)`.
    fn end(&self) -> f64;
    /// The estimate of the local error (infinite for a failed step).
    fn error(&self) -> f64;
    /// `z(t + θh)`, `0 ≤ θ ≤ 1`.
    fn at(&self, theta: f64) -> f64 {
        self.at_gain(theta).0
    }
    /// `∂z(t + h)/∂z(t)`: every scheme's step is affine in its start value for given
    /// coefficients, `z(t + h) = gain · z(t) + (the step from 0)`
    /// ([`crate::expint_periodic`] composes these into the period map).
    fn gain(&self) -> f64;
    /// `(z(t + θh), ∂z(t + θh)/∂z(t))`: the dense output and its gain.
    fn at_gain(&self, theta: f64) -> (f64, f64);
    /// `ln gain()` ([`crate::expint_periodic`] sums them: `1 − G = −expm1(Σ)`, no cancellation);
    /// by default from `gain()`, whose `1 − gain` has lost its relative accuracy near 1.
    fn log_gain(&self) -> f64 {
        self.gain().ln()
    }
}

/// A one-step scheme for `z' = a(t) z + b(t)` that the error-controlled driver
/// ([`solve_capped`]) can run: this module's collocation in time ([`Scheme`]) or the quadrature
/// in the relaxation variable ([`crate::expquad::Relaxation`]).
pub trait ExpScheme {
    type Step: ExpStep;
    /// The power of `h` the error estimate scales with (the step factor is its root).
    const ORDER: usize;
    /// One step from `(t, z)` of size `h`; `coef(t) = (a(t), b(t))`, evaluations counted.
    fn step<F: Fn(f64) -> (f64, f64)>(&self, coef: &F, t: f64, z: f64, h: f64, evals: &mut usize) -> Self::Step;
}

/// Gauss–Legendre nodes on `[0, 1]`, by Newton's method on the Legendre polynomial `P_S`.
pub(crate) fn gauss_nodes<const S: usize>() -> [f64; S] {
    let mut c = [0.0; S];
    for (i, ci) in c.iter_mut().enumerate() {
        let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (S as f64 + 0.5)).cos();
        for _ in 0..100 {
            // P_S(x) and P_S'(x) by the three-term recurrence.
            let (mut p0, mut p1) = (1.0, x);
            for n in 2..=S {
                let p2 = ((2 * n - 1) as f64 * x * p1 - (n - 1) as f64 * p0) / n as f64;
                p0 = p1;
                p1 = p2;
            }
            let dp = S as f64 * (x * p1 - p0) / (x * x - 1.0);
            let dx = p1 / dp;
            x -= dx;
            if dx.abs() < 1e-16 {
                break;
            }
        }
        *ci = (1.0 - x) / 2.0;
    }
    c
}

/// Monomial coefficients of `Π_{m ∈ roots} (σ − c_m) · scale`, lowest first, into `out`
/// (`out.len() ≥ roots.len() + 1`).
pub(crate) fn product_poly(roots: impl Iterator<Item = f64>, scale: f64, out: &mut [f64]) {
    out.iter_mut().for_each(|v| *v = 0.0);
    out[0] = scale;
    let mut deg = 0;
    for r in roots {
        deg += 1;
        for k in (0..=deg).rev() {
            let lower = if k > 0 { out[k - 1] } else { 0.0 };
            out[k] = lower - r * out[k];
        }
    }
}

/// The constants of an `S`-node scheme.
#[derive(Clone, Debug)]
pub struct Scheme<const S: usize> {
    /// Nodes in `(0, 1)`.
    c: [f64; S],
    /// Gauss weights (`∫_0^1 ℓ_j`).
    w: [f64; S],
    /// `lag[j][k]`: the coefficient of `σ^k` in the Lagrange basis polynomial `ℓ_j`, times `k!`.
    lag: [[f64; S]; S],
    /// The coefficients of `ω'(σ) = Π_{j<S} (σ − c_j)` (degree `S − 1`) times `k!`, divided by
    /// `(S − 1)!` (so that with the leading coefficient of the interpolant times `(S − 1)!`, the
    /// last entry of `p`, they give `P − P'`).
    omega: [f64; S],
}

impl<const S: usize> Default for Scheme<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const S: usize> Scheme<S> {
    /// The scheme with `S` Gauss–Legendre nodes (`2 ≤ S ≤ 10`).
    pub fn new() -> Self {
        assert!((2..=10).contains(&S), "exponential collocation with 2 to 10 nodes");
        let c = gauss_nodes::<S>();
        let mut lag = [[0.0; S]; S];
        let mut w = [0.0; S];
        let mut tmp = [0.0; 13];
        for j in 0..S {
            let denom: f64 = (0..S).filter(|&m| m != j).map(|m| c[j] - c[m]).product();
            product_poly((0..S).filter(|&m| m != j).map(|m| c[m]), 1.0 / denom, &mut tmp);
            for k in 0..S {
                lag[j][k] = tmp[k] / inv_factorial(k);
                w[j] += tmp[k] / (k + 1) as f64;
            }
        }
        let mut omega = [0.0; S];
        product_poly(c.iter().skip(1).copied(), inv_factorial(S - 1), &mut tmp);
        for k in 0..S {
            omega[k] = tmp[k] / inv_factorial(k);
        }
        Self { c, w, lag, omega }
    }

    /// The nodes, ascending in `(0, 1)`.
    pub(crate) fn nodes(&self) -> &[f64; S] {
        &self.c
    }

    /// `lag[j][k]`: the coefficient of `σ^k` in the Lagrange basis polynomial `ℓ_j`, times `k!`.
    pub(crate) fn lagrange(&self) -> &[[f64; S]; S] {
        &self.lag
    }
}

impl<const S: usize> ExpScheme for Scheme<S> {
    type Step = Step<S>;
    const ORDER: usize = S;

    /// One step from `(t, z)` of size `h`: the new value, the error estimate and the dense
    /// output of the step. `coef(t) = (a(t), b(t))`.
    fn step<F: Fn(f64) -> (f64, f64)>(&self, coef: &F, t: f64, z: f64, h: f64, evals: &mut usize) -> Step<S> {
        let (mut a, mut b) = ([0.0; S], [0.0; S]);
        for j in 0..S {
            (a[j], b[j]) = coef(t + self.c[j] * h);
        }
        *evals += S;
        let abar: f64 = (0..S).map(|j| self.w[j] * a[j]).sum();
        let lam = h * abar;
        // Stage equations (I − h A D) Z = e z + h A b, D = diag(a_j − ā); the second column, e,
        // gives the stages' derivative in z (the step's gain).
        let mut m = [[0.0; S]; S];
        let mut rhs = [[0.0; 2]; S];
        let mut ph = [0.0; 13];
        for i in 0..S {
            let ci = self.c[i];
            phis(ci * lam, &mut ph[..S + 1]);
            let mut ab = 0.0;
            for j in 0..S {
                // A_ij = ∫_0^{c_i} e^{(c_i − σ)λ} ℓ_j(σ) dσ = Σ_k ℓ_jk k! c_i^{k+1} φ_{k+1}(c_i λ).
                let mut aij = 0.0;
                let mut cp = ci;
                for k in 0..S {
                    aij += self.lag[j][k] * cp * ph[k + 1];
                    cp *= ci;
                }
                m[i][j] = -h * aij * (a[j] - abar);
                ab += aij * b[j];
            }
            m[i][i] += 1.0;
            rhs[i] = [ph[0] * z + h * ab, ph[0]];
        }
        let Some(zs) = solve_small(m, rhs) else {
            return Step::failed(h);
        };
        // The interpolant of N in monomial form (coefficients times k!), and its derivative in z.
        let (mut p, mut pg) = ([0.0; S], [0.0; S]);
        for j in 0..S {
            let nj = (a[j] - abar) * zs[j][0] + b[j];
            let gj = (a[j] - abar) * zs[j][1];
            for k in 0..S {
                p[k] += self.lag[j][k] * nj;
                pg[k] += self.lag[j][k] * gj;
            }
        }
        phis(lam, &mut ph[..S + 1]);
        let z1 = ph[0] * z + h * (0..S).map(|k| p[k] * ph[k + 1]).sum::<f64>();
        let g1 = ph[0] + h * (0..S).map(|k| pg[k] * ph[k + 1]).sum::<f64>();
        // P − P' = p_{S−1}/(S−1)! ω'(σ), integrated against e^{(1−σ)λ}.
        let weight: f64 = (0..S).map(|k| self.omega[k] * ph[k + 1]).sum();
        Step {
            h,
            z0: z,
            z1,
            g1,
            lam,
            p,
            pg,
            err: (h * p[S - 1] * weight).abs(),
        }
    }
}

/// One step's result and its dense output.
pub struct Step<const S: usize> {
    h: f64,
    z0: f64,
    z1: f64,
    /// `∂z1/∂z0`.
    g1: f64,
    lam: f64,
    /// The interpolant of `N`, monomial coefficients times `k!`, and its derivative in `z0`.
    p: [f64; S],
    pg: [f64; S],
    err: f64,
}

impl<const S: usize> ExpStep for Step<S> {
    fn end(&self) -> f64 {
        self.z1
    }
    fn error(&self) -> f64 {
        self.err
    }
    fn gain(&self) -> f64 {
        self.g1
    }
    /// `z(t + θh)`, `0 ≤ θ ≤ 1` (the collocation solution, of the step's order), and its gain.
    fn at_gain(&self, theta: f64) -> (f64, f64) {
        let mut ph = [0.0; 12];
        phis(theta * self.lam, &mut ph[..S + 1]);
        let (mut s, mut sg) = (0.0, 0.0);
        let mut tp = theta;
        for k in 0..S {
            s += self.p[k] * tp * ph[k + 1];
            sg += self.pg[k] * tp * ph[k + 1];
            tp *= theta;
        }
        (ph[0] * self.z0 + self.h * s, ph[0] + self.h * sg)
    }
}

impl<const S: usize> Step<S> {
    fn failed(h: f64) -> Self {
        Step {
            h,
            z0: f64::NAN,
            z1: f64::NAN,
            g1: f64::NAN,
            lam: 0.0,
            p: [0.0; S],
            pg: [0.0; S],
            err: f64::INFINITY,
        }
    }
}

/// Gaussian elimination with partial pivoting on a small dense system with `R` right-hand sides
/// (the columns of `r`); `None` if singular.
fn solve_small<const S: usize, const R: usize>(mut m: [[f64; S]; S], mut r: [[f64; R]; S]) -> Option<[[f64; R]; S]> {
    for col in 0..S {
        let piv = (col..S).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[piv][col] == 0.0 || !m[piv][col].is_finite() {
            return None;
        }
        m.swap(col, piv);
        r.swap(col, piv);
        for row in col + 1..S {
            let f = m[row][col] / m[col][col];
            for k in col..S {
                m[row][k] -= f * m[col][k];
            }
            for c in 0..R {
                r[row][c] -= f * r[col][c];
            }
        }
    }
    for col in (0..S).rev() {
        for c in 0..R {
            let s: f64 = (col + 1..S).map(|k| m[col][k] * r[k][c]).sum();
            r[col][c] = (r[col][c] - s) / m[col][col];
        }
    }
    Some(r)
}

/// `z` at every save time in `[t0, t1]` (each passed to `out`, from the dense output between step
/// ends) and at `t1`, from `z(t0) = z0`, by the `NODES`-node exponential collocation with error
/// control. `coef(t) = (a(t), b(t))` must be smooth on `[t0, t1]` (split the span at kinks).
/// Returns `z(t1)`, or an error when the step size underflows or the solution stops being finite.
#[allow(clippy::too_many_arguments)]
pub fn solve_expint<F: Fn(f64) -> (f64, f64)>(
    coef: &F,
    t0: f64,
    z0: f64,
    t1: f64,
    saveat: &[f64],
    tol: ExpTolerance,
    stats: &mut ExpStats,
    out: &mut dyn FnMut(f64, f64),
) -> Result<f64, String> {
    solve_with(&Scheme::<NODES>::new(), coef, t0, z0, t1, saveat, tol, stats, out)
}

/// [`solve_expint`] with a given scheme (any number of nodes).
#[allow(clippy::too_many_arguments)]
pub fn solve_with<X: ExpScheme, F: Fn(f64) -> (f64, f64)>(
    scheme: &X,
    coef: &F,
    t0: f64,
    z0: f64,
    t1: f64,
    saveat: &[f64],
    tol: ExpTolerance,
    stats: &mut ExpStats,
    out: &mut dyn FnMut(f64, f64),
) -> Result<f64, String> {
    solve_capped(scheme, coef, t0, z0, t1, saveat, tol, &|_| f64::INFINITY, stats, out)
}

/// [`solve_with`] with a largest step that depends on where the step starts: `cap(t)` (besides
/// `tol.hmax`). The path-variable driver ([`crate::expint_path`]) caps its steps in the path so
/// that none spans more than a given time.
#[allow(clippy::too_many_arguments)]
pub fn solve_capped<X: ExpScheme, F: Fn(f64) -> (f64, f64)>(
    scheme: &X,
    coef: &F,
    t0: f64,
    z0: f64,
    t1: f64,
    saveat: &[f64],
    tol: ExpTolerance,
    cap: &dyn Fn(f64) -> f64,
    stats: &mut ExpStats,
    out: &mut dyn FnMut(f64, f64),
) -> Result<f64, String> {
    let saves = &saveat[saveat.partition_point(|&s| s < t0)..saveat.partition_point(|&s| s <= t1)];
    let mut next = 0;
    while next < saves.len() && saves[next] <= t0 {
        out(saves[next], z0);
        next += 1;
    }
    let mut dense = 0;
    let z = solve_steps(scheme, coef, (t0, z0, t1), tol, cap, stats, &mut |t, h, t_end, st| {
        while next < saves.len() && saves[next] < t_end {
            out(saves[next], st.at((saves[next] - t) / h));
            dense += 1;
            next += 1;
        }
        while next < saves.len() && saves[next] <= t_end {
            out(saves[next], st.end());
            next += 1;
        }
    });
    stats.dense += dense;
    z
}

/// What [`solve_steps`] hands each accepted step to: `(t, h, t_end, step)`.
pub type Accepted<'a, S> = dyn FnMut(f64, f64, f64, &S) + 'a;

/// The error-controlled driver: `z' = a(t) z + b(t)` from `z0` at `t0` to `t1` by `scheme`, each
/// accepted step handed to `accepted(t, h, t_end, step)` (it spans `[t, t_end]`, `t_end = t + h`
/// but for the last step, which ends at `t1` exactly; its dense output is in `θ = (s − t)/h`)
/// before the next is tried. Returns `z(t1)`.
pub fn solve_steps<X: ExpScheme, F: Fn(f64) -> (f64, f64)>(
    scheme: &X,
    coef: &F,
    (t0, z0, t1): (f64, f64, f64),
    tol: ExpTolerance,
    cap: &dyn Fn(f64) -> f64,
    stats: &mut ExpStats,
    accepted: &mut Accepted<'_, X::Step>,
) -> Result<f64, String> {
    if t1 <= t0 {
        return Ok(z0);
    }
    let (mut t, mut z) = (t0, z0);
    let mut h = first_step(coef, t0, z0, t1, tol, stats);
    let mut rejected_last = false;
    while t < t1 {
        // `h` stays the controller's proposal: a step shortened by the cap (a save point or the
        // time cap of the path driver) does not shrink the steps after it (review M9).
        let h_cap = h.min(cap(t));
        let rem = t1 - t;
        let h_try = if rem <= h_cap {
            rem
        } else if rem < 2.0 * h_cap {
            rem / 2.0
        } else {
            h_cap
        };
        let last = h_try == rem;
        let st = scheme.step(coef, t, z, h_try, &mut stats.evals);
        let (err, z1) = (st.error(), st.end());
        let ok = err <= tol.abs && z1.is_finite();
        let fac = if err > 0.0 && err.is_finite() {
            0.9 * root(tol.abs / err, X::ORDER)
        } else if err == 0.0 {
            4.0
        } else {
            0.2
        };
        if ok {
            let t_end = if last { t1 } else { t + h_try };
            accepted(t, h_try, t_end, &st);
            stats.steps += 1;
            t = t_end;
            z = z1;
            let grown = h_try * fac.clamp(0.2, if rejected_last { 1.0 } else { 4.0 });
            // A capped step that met its tolerance with room to spare says nothing against the
            // larger proposal it was cut from; one that barely met it does.
            h = if h_cap < h && fac >= 1.0 { grown.max(h) } else { grown }.min(tol.hmax);
            rejected_last = false;
        } else {
            stats.rejected += 1;
            h = h_try * fac.clamp(0.1, 0.5);
            rejected_last = true;
            if h.is_nan() || h <= 1e-14 * t.abs().max(rem) {
                return Err(format!(
                    "exponential integrator: step size underflow at t = {t} s (estimate {:e} for tolerance {:e})",
                    err, tol.abs
                ));
            }
        }
    }
    Ok(z)
}

/// `x^{1/order}`, the step factor of an error `∝ h^order`: by square and cube roots for the
/// schemes in use, `powf` otherwise (several times slower, and paid once a step).
fn root(x: f64, order: usize) -> f64 {
    match order {
        4 => x.sqrt().sqrt(),
        6 => x.sqrt().cbrt(),
        8 => x.sqrt().sqrt().sqrt(),
        _ => x.powf(1.0 / order as f64),
    }
}

/// The first step: `1 %` of the time `z` needs to change by its scale at the initial rate, within
/// the span and `hmax`.
fn first_step<F: Fn(f64) -> (f64, f64)>(
    coef: &F,
    t0: f64,
    z0: f64,
    t1: f64,
    tol: ExpTolerance,
    stats: &mut ExpStats,
) -> f64 {
    let (a, b) = coef(t0);
    stats.evals += 1;
    let rate = (a * z0 + b).abs();
    let size = z0.abs().max(tol.z_scale);
    let h = if rate > 0.0 { 0.01 * size / rate } else { t1 - t0 };
    h.min(t1 - t0).min(tol.hmax)
}

/// `n` equal steps of the `S`-node scheme from `(t0, z0)` to `t1`, no error control: for
/// measuring the order of convergence.
pub fn fixed_steps<const S: usize, F: Fn(f64) -> (f64, f64)>(coef: &F, t0: f64, z0: f64, t1: f64, n: usize) -> f64 {
    fixed_steps_with(&Scheme::<S>::new(), coef, t0, z0, t1, n)
}

/// [`fixed_steps`] with any scheme.
pub fn fixed_steps_with<X: ExpScheme, F: Fn(f64) -> (f64, f64)>(
    scheme: &X,
    coef: &F,
    t0: f64,
    z0: f64,
    t1: f64,
    n: usize,
) -> f64 {
    let h = (t1 - t0) / n as f64;
    let mut z = z0;
    let mut evals = 0;
    for i in 0..n {
        z = scheme.step(coef, t0 + i as f64 * h, z, h, &mut evals).end();
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nodes_and_weights_are_gauss_legendre() {
        let s = Scheme::<4>::new();
        let want = [
            0.069_431_844_202_973_7,
            0.330_009_478_207_571_9,
            0.669_990_521_792_428_1,
            0.930_568_155_797_026_3,
        ];
        let mut c = s.c;
        c.sort_by(f64::total_cmp);
        for (x, y) in c.iter().zip(want) {
            assert!((x - y).abs() < 1e-15, "{x} vs {y}");
        }
        // The weights integrate polynomials of degree 2S − 1 = 7 exactly.
        for deg in 0..8 {
            let q: f64 = (0..4).map(|j| s.w[j] * s.c[j].powi(deg)).sum();
            assert!((q - 1.0 / (deg + 1) as f64).abs() < 1e-15, "degree {deg}: {q}");
        }
    }

    #[test]
    fn the_linear_solve_matches_a_known_system() {
        let m = [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]];
        // Two right-hand sides: b and 2b.
        let x = solve_small(m, [[5.0, 10.0], [3.0, 6.0], [6.0, 12.0]]).unwrap();
        for (g, w) in x.iter().zip([1.4, 1.6, 1.8]) {
            assert!((g[0] - w).abs() < 1e-14 && (g[1] - 2.0 * w).abs() < 1e-14, "{x:?}");
        }
        assert!(solve_small([[1.0, 2.0], [2.0, 4.0]], [[1.0], [1.0]]).is_none());
    }
}
