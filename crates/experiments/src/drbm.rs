//! The discontinuous rotating bristle model (`fric-models::rbm`) and its sawtooth approximation
//! integrated with the Switch Model (`fric-solvers::switch`), thesis ch. III §3.3: `g = v`, the
//! stick band `|v| ≤ η`, and the frozen lattice ranges of both branches as the system's mode;
//! their thresholds (a bristle entering a corner window or reaching θ_max, a sawtooth tooth) are
//! terminal events, never stepped over.
//!
//! Owns only the glue: the two rigs (spring-pulled (3.38)–(3.39), force-driven (3.42)–(3.43)).

use crate::invariants::{col, every_sample, opposes_sliding, Violation};
use crate::RunData;
use fric_models::rbm::{Bristles, Cells, Range, Sawtooth, Side};
use fric_models::signal::Signal;
use fric_solvers::hybrid::{simulate, Quadratures, WithQuadratures};
use fric_solvers::switch::{Branch, Region, SwitchModel, Switched};
use fric_solvers::{Method, SolveError, Stats, Tolerances};

/// The friction law of the rig.
#[derive(Clone, Copy, Debug)]
pub enum Law {
    /// DRBM (3.13)–(3.16).
    Bristle(Bristles),
    /// Sawtooth (3.47)–(3.49); the cell index is held in `plus.first`.
    Saw(Sawtooth),
}

fn side(b: Branch) -> Side {
    match b {
        Branch::Plus => Side::Plus,
        Branch::Minus => Side::Minus,
    }
}

impl Law {
    pub fn locate(&self, x: f64) -> Cells {
        match self {
            Law::Bristle(b) => b.cells(x),
            Law::Saw(s) => {
                let k = s.cell(x);
                let r = Range { first: k, last: k };
                Cells { plus: r, minus: r }
            }
        }
    }
    pub fn force(&self, s: Side, c: Cells, x: f64) -> f64 {
        match self {
            Law::Bristle(b) => b.force_in(
                s,
                match s {
                    Side::Plus => c.plus,
                    Side::Minus => c.minus,
                },
                x,
            ),
            Law::Saw(w) => w.force_in(s, c.plus.first, x),
        }
    }
    /// The located (exact, discontinuous) force.
    pub fn force_at(&self, s: Side, x: f64) -> f64 {
        self.force(s, self.locate(x), x)
    }
    /// How far `a = u − K x` of a body at rest at `x` lies outside the equilibria interval
    /// `[F_f^l(x), F_f^r(x)]` of (3.58) (0 inside). At a lattice or tooth point the one-sided
    /// limits both count: a rest exactly at a jump is in the set if either limit admits it.
    pub fn equilibrium_excess(&self, x: f64, a: f64, delta: f64) -> f64 {
        let e = 1e-9 * delta;
        let fl = self.force_at(Side::Minus, x - e).min(self.force_at(Side::Minus, x + e));
        let fr = self.force_at(Side::Plus, x - e).max(self.force_at(Side::Plus, x + e));
        (fl - a).max(a - fr).max(0.0)
    }
    fn events(&self, c: Cells, x: f64) -> [f64; 4] {
        match self {
            Law::Bristle(b) => {
                let p = b.range_events(Side::Plus, c.plus, x);
                let m = b.range_events(Side::Minus, c.minus, x);
                [p[0], p[1], m[0], m[1]]
            }
            Law::Saw(s) => {
                let k = c.plus.first as f64 * s.delta;
                [x - (k + s.delta), k - x, -1.0, -1.0]
            }
        }
    }
    fn cross(&self, mut c: Cells, j: usize) -> Cells {
        let fwd = j.is_multiple_of(2);
        match self {
            Law::Bristle(b) => {
                if j < 2 {
                    c.plus = b.cross(Side::Plus, c.plus, fwd);
                } else {
                    c.minus = b.cross(Side::Minus, c.minus, fwd);
                }
            }
            Law::Saw(_) => {
                let d = if fwd { 1 } else { -1 };
                c.plus.first += d;
                c.plus.last += d;
                c.minus = c.plus;
            }
        }
        c
    }
    /// Cross further thresholds a body at `x` moving at `v` is already past, after guard `just`
    /// fired. A located root may sit a rounding error before the threshold just crossed;
    /// crossing back over it would leave the state on the far side of a guard that can no longer
    /// rise, so on that branch only a clear violation (beyond 1e-9 of the lattice period) counts.
    /// On the other branch a guard at zero counts too when the motion raises it: with `d/2` a
    /// multiple of `Δ`, the right window's entry threshold and the left window's exit coincide,
    /// the located state sits exactly on both, and a guard that starts the next step at exactly
    /// zero never rises through it (the driver's crossings start below zero), so that branch's
    /// range would stay stale for the rest of the run. Thesis Figs 3.7 and 3.9 until 2026-12-05:
    /// a left-window bristle that the left corner had passed kept pushing forward while the body
    /// slid backward, against (3.15). Crossing it here leaves its reverse guard at zero moving
    /// away, so it cannot chatter.
    fn settle(&self, mut c: Cells, x: f64, v: f64, just: usize) -> Cells {
        let eps = 1e-9
            * match self {
                Law::Bristle(b) => b.delta,
                Law::Saw(s) => s.delta,
            };
        // Even guards are `x − hi` (rising with v > 0), odd ones `lo − x` (rising with v < 0).
        let rising = |j: usize| if j.is_multiple_of(2) { v > 0.0 } else { v < 0.0 };
        let past = |j: usize, g: f64| {
            if j / 2 == just / 2 {
                g > eps
            } else {
                g > 0.0 || (g == 0.0 && rising(j))
            }
        };
        for _ in 0..1000 {
            let e = self.events(c, x);
            match (0..4).find(|&j| past(j, e[j])) {
                Some(j) => c = self.cross(c, j),
                None => break,
            }
        }
        c
    }
}

/// Invariant of every DRBM/sawtooth run: on each sliding sample (not stuck, `|v| > η`) the friction
/// acting is the law's located force on the branch of `v`, (3.13)–(3.16) (or (3.47)–(3.49)): the
/// frozen contact range the integration carried is the geometric window at the sample's `x`. At
/// a lattice threshold either one-sided limit counts.
pub fn check_window(law: &Law, delta: f64, eta: f64, d: &RunData) -> Result<(), Violation> {
    let (t, x, v, f, stuck) = (col(d, "t")?, col(d, "x")?, col(d, "v")?, col(d, "F")?, col(d, "stuck")?);
    let e = 1e-9 * delta;
    every_sample(t, |i| {
        if stuck[i] == 1.0 || v[i].abs() <= eta {
            return None;
        }
        let s = if v[i] > 0.0 { Side::Plus } else { Side::Minus };
        let near = |g: f64, rel: f64| (f[i] - g).abs() <= 1e-12 + rel * g.abs();
        let a = law.force_at(s, x[i]);
        if near(a, 1e-9) {
            return None;
        }
        // Within 1e-9 Δ of a threshold: the one-sided limits (their slope moves them by ~1e-9).
        let (l, r) = (law.force_at(s, x[i] - e), law.force_at(s, x[i] + e));
        (!near(l, 1e-6) && !near(r, 1e-6)).then(|| {
            format!(
                "x = {:e} m, v = {:e} m/s: the friction acting is {:e} N but the contact window there gives {a:e} N",
                x[i], v[i], f[i]
            )
        })
    })
}

/// Invariant: the sign rule of (3.13)/(3.15): `F_f^r ≥ 0` while sliding with `v > η` and
/// `F_f^l ≤ 0` with `v < −η` (each bristle pushes against the motion), to 1e-9 N.
pub fn check_sign_rule(eta: f64, d: &RunData) -> Result<(), Violation> {
    opposes_sliding(col(d, "t")?, col(d, "v")?, col(d, "F")?, eta, 1e-9)
}

/// The largest slope `|∂F/∂x|` of the law's force with its contact range frozen (the force
/// inside one cell, what a dense-output error in `x` changes), on either branch over `[lo, hi]`:
/// central differences of `±10⁻⁶ Δ` at 4001 points.
pub fn frozen_slope(law: &Law, delta: f64, lo: f64, hi: f64) -> f64 {
    let e = 1e-6 * delta;
    let mut worst = 0.0f64;
    for i in 0..=4000 {
        let x = lo + (hi - lo) * i as f64 / 4000.0;
        let c = law.locate(x);
        for s in [Side::Plus, Side::Minus] {
            let d = (law.force(s, c, x + e) - law.force(s, c, x - e)) / (2.0 * e);
            worst = worst.max(d.abs());
        }
    }
    worst
}

/// Invariant: the energy balance of `crate::energy_balance` on a DRBM/sawtooth run (columns
/// `W_in`, `W_f`, `E`), to the bound derived there. The rig is the pulled one if `vp` is given
/// (state `x, v, l`, `P_in = K l v_p`), else the force-driven one (`x, v`, `P_in = u v`, column
/// `u`). The integrand `P_in − F v` has the sensitivities `∂/∂v = −F − m v/τ` in the stick band
/// (`F + m η/τ` bounds it), `∂/∂x = −v ∂F/∂x` ([`frozen_slope`]), `∂/∂l = K |v_p|`.
#[allow(clippy::too_many_arguments)]
pub fn check_energy(
    law: &Law,
    delta: f64,
    m: f64,
    k: f64,
    vp: Option<f64>,
    eta: f64,
    tau: f64,
    (rtol, atol): (f64, f64),
    d: &RunData,
) -> Result<(), Violation> {
    use crate::energy_balance::{check, max_abs, Bound};
    let (t, x, v, f) = (col(d, "t")?, col(d, "x")?, col(d, "v")?, col(d, "F")?);
    let (xm, vm, fm) = (max_abs(x), max_abs(v), max_abs(f));
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let slope = if lo < hi { frozen_slope(law, delta, lo, hi) } else { 0.0 };
    let hv = fm + m * eta / tau;
    let mut components = vec![(xm, 0.0, vm * slope), (vm, m * vm, hv)];
    match vp {
        Some(vp) => {
            let lm = max_abs(col(d, "l")?);
            components.push((lm, k * lm, k * vp.abs()));
        }
        None => {
            components[0].1 = k * xm;
            components[1].2 += max_abs(col(d, "u")?);
        }
    }
    let bound = Bound::for_run(d, (rtol, atol), components);
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}

/// The rig: spring pulled at `v_p` (state `x, v, l`), or force-driven on a wall spring (`x, v`).
pub enum Rig<'a> {
    Pulled { m: f64, k: f64, vp: f64 },
    Driven { m: f64, k: f64, u: &'a Signal },
}

pub struct DrbmSwitched<'a> {
    pub law: Law,
    pub rig: Rig<'a>,
}

impl DrbmSwitched<'_> {
    /// The force other than friction: `K l` (pulled) or `u − K x` (driven).
    pub fn applied(&self, t: f64, x: &[f64]) -> f64 {
        match self.rig {
            Rig::Pulled { k, .. } => k * x[2],
            Rig::Driven { k, u, .. } => u.value(t) - k * x[0],
        }
    }
    pub fn mass(&self) -> f64 {
        match self.rig {
            Rig::Pulled { m, .. } | Rig::Driven { m, .. } => m,
        }
    }
    /// The friction reported (the `F` column): the law's force `F_f±` on the region's branch,
    /// in the stick band `applied + m v/τ` (what makes `m v̇ = −m v/τ`, `ġ = −g/τ` with `g = v`).
    pub fn friction(&self, region: Region, c: Cells, t: f64, x: &[f64], tau: f64) -> f64 {
        match region.branch() {
            Some(b) => self.law.force(side(b), c, x[0]),
            None => self.applied(t, x) + self.mass() * x[1] / tau,
        }
    }
    /// The power put in: `u v` (driven), `K l v_p` at the spring's free end (pulled).
    pub fn input_power(&self, t: f64, x: &[f64]) -> f64 {
        match self.rig {
            Rig::Pulled { k, vp, .. } => k * x[2] * vp,
            Rig::Driven { u, .. } => u.value(t) * x[1],
        }
    }
    /// The stored energy `½ m v² + ½ K s²` (`s` = `l` pulled, `x` driven).
    pub fn stored(&self, x: &[f64]) -> f64 {
        let (m, k, s) = match self.rig {
            Rig::Pulled { m, k, .. } => (m, k, x[2]),
            Rig::Driven { m, k, .. } => (m, k, x[0]),
        };
        0.5 * m * x[1] * x[1] + 0.5 * k * s * s
    }
}

/// The energy balance's works (`crate::energy_balance`), appended to a rig's Switch Model as
/// quadrature outputs ([`WithQuadratures`], which forwards everything else): `W_in = ∫ P_in dt`
/// and `W_f = ∫ F v dt` with `F` the friction reported ([`DrbmSwitched::friction`]), not the
/// field's, so that the balance checks the one against the other.
struct Works<'s, 'a> {
    sys: &'s DrbmSwitched<'a>,
    tau: f64,
}

impl Quadratures<(Region, Cells)> for Works<'_, '_> {
    fn count(&self) -> usize {
        2
    }
    fn integrands(&self, (region, c): (Region, Cells), t: f64, x: &[f64], q: &mut [f64]) {
        q[0] = self.sys.input_power(t, x);
        q[1] = self.sys.friction(region, c, t, x, self.tau) * x[1];
    }
}

impl Switched for DrbmSwitched<'_> {
    type Mode = Cells;
    fn dim(&self) -> usize {
        match self.rig {
            Rig::Pulled { .. } => 3,
            Rig::Driven { .. } => 2,
        }
    }
    /// (3.38)–(3.39) or (3.42)–(3.43).
    fn field(&self, b: Branch, c: Cells, t: f64, x: &[f64], dx: &mut [f64]) {
        let f = self.law.force(side(b), c, x[0]);
        dx[0] = x[1];
        dx[1] = (self.applied(t, x) - f) / self.mass();
        if let Rig::Pulled { vp, .. } = self.rig {
            dx[2] = vp - x[1];
        }
    }
    fn switching(&self, _t: f64, x: &[f64]) -> f64 {
        x[1]
    }
    fn normal(&self, _t: f64, _x: &[f64], n: &mut [f64]) {
        n.fill(0.0);
        n[1] = 1.0;
    }
    fn n_guards(&self, _c: Cells) -> usize {
        4
    }
    fn guards(&self, c: Cells, _t: f64, x: &[f64], g: &mut [f64]) {
        g[..4].copy_from_slice(&self.law.events(c, x[0]));
    }
    fn jump(&self, c: Cells, guard: usize, _t: f64, x: &mut [f64]) -> Cells {
        let c = self.law.cross(c, guard);
        self.law.settle(c, x[0], x[1], guard)
    }
}

/// Samples of a run.
#[derive(Clone, Debug, Default)]
pub struct DrbmRun {
    pub t: Vec<f64>,
    pub state: Vec<Vec<f64>>,
    /// Friction acting: `F_f±` on a branch; in the stick band `applied + m v/τ`.
    pub friction: Vec<f64>,
    pub stuck: Vec<f64>,
    /// Input work `W_in` and friction work `W_f` from the start (`crate::energy_balance`).
    pub w_in: Vec<f64>,
    pub w_f: Vec<f64>,
    /// The stored energy `½ m v² + ½ K s²`.
    pub stored: Vec<f64>,
    pub sticks: usize,
    pub lattice_events: usize,
    pub stats: Stats,
}

/// Integrate from `(t0, x0)` to `t1` with the Switch Model (band `η`, `ġ = −g/τ`).
#[allow(clippy::too_many_arguments)]
pub fn run(
    sys: &DrbmSwitched,
    x0: &[f64],
    t0: f64,
    t1: f64,
    saveat: &[f64],
    eta: f64,
    tau: f64,
    method: Method,
    tol: &Tolerances,
) -> Result<DrbmRun, SolveError> {
    run_reporting(sys, sys, x0, t0, t1, saveat, eta, tau, method, tol)
}

/// [`run`] integrating `sys` while reporting (column `F`, and the friction work) the friction
/// of `reported`: `sys` itself in production; another law in the test that shows the energy
/// balance catching a reported force that is not the one applied.
#[allow(clippy::too_many_arguments)]
fn run_reporting(
    sys: &DrbmSwitched,
    reported: &DrbmSwitched,
    x0: &[f64],
    t0: f64,
    t1: f64,
    saveat: &[f64],
    eta: f64,
    tau: f64,
    method: Method,
    tol: &Tolerances,
) -> Result<DrbmRun, SolveError> {
    let sm = SwitchModel::new(sys, eta, tau);
    let cells = sys.law.locate(x0[0]);
    let mode0 = sm.initial_mode(cells, t0, x0);
    let powered = WithQuadratures::new(sm, Works { sys: reported, tau });
    let n = x0.len();
    let mut r = DrbmRun::default();
    let o = simulate(
        &powered,
        mode0,
        method,
        tol,
        t0,
        x0,
        t1,
        saveat,
        50_000_000,
        &mut |t, (region, c), xq| {
            let x = &xq[..n];
            r.t.push(t);
            r.state.push(x.to_vec());
            r.friction.push(reported.friction(region, c, t, x, tau));
            r.stuck.push(if region == Region::Stick { 1.0 } else { 0.0 });
            r.w_in.push(xq[n]);
            r.w_f.push(xq[n + 1]);
            r.stored.push(sys.stored(x));
        },
    )?;
    let mut prev = mode0;
    for &(_, mode) in &o.switches {
        if mode.0 != prev.0 && mode.0 == Region::Stick {
            r.sticks += 1;
        }
        if mode.1 != prev.1 {
            r.lattice_events += 1;
        }
        prev = mode;
    }
    r.stats = o.stats;
    Ok(r)
}

/// The phase of the exact (event-driven) stick–slip solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Sliding with `v ≥ 0` on `F_f^r`.
    Plus,
    /// Sliding with `v < 0` on `F_f^l`.
    Minus,
    /// Exact stick: `v = 0`, the friction `K l ∈ [F_f^l(x), F_f^r(x)]`.
    Stick,
}

/// The spring-pulled rig (3.10)–(3.12) with the DRBM or the sawtooth, solved exactly as a
/// hybrid system: sliding on one branch, exact stick (`x` and `v = 0` frozen, `l̇ = v_p`) while
/// `K l` lies in `[F_f^l(x), F_f^r(x)]`, and every switch a located event. The limit of the
/// Switch Model as `η, τ → 0`, against which that model is verified.
struct Exact {
    law: Law,
    m: f64,
    k: f64,
    vp: f64,
}

impl fric_solvers::hybrid::HybridSystem for Exact {
    type Mode = (Phase, Cells);
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, (p, c): (Phase, Cells), _: f64, x: &[f64], dx: &mut [f64]) {
        let f = match p {
            Phase::Plus => self.law.force(Side::Plus, c, x[0]),
            Phase::Minus => self.law.force(Side::Minus, c, x[0]),
            Phase::Stick => {
                dx[0] = 0.0;
                dx[1] = 0.0;
                dx[2] = self.vp;
                return;
            }
        };
        crate::spring::pulled_rhs(self.k, self.m, self.vp, (f, 0.0), x, dx);
    }
    fn n_guards(&self, _: (Phase, Cells)) -> usize {
        5
    }
    fn guards(&self, (p, c): (Phase, Cells), _: f64, x: &[f64], g: &mut [f64]) {
        match p {
            Phase::Stick => {
                let a = self.k * x[2];
                g[0] = a - self.law.force(Side::Plus, c, x[0]);
                g[1] = self.law.force(Side::Minus, c, x[0]) - a;
                g[2..].fill(-1.0);
            }
            Phase::Plus | Phase::Minus => {
                g[0] = if p == Phase::Plus { -x[1] } else { x[1] };
                g[1..].copy_from_slice(&self.law.events(c, x[0]));
            }
        }
    }
    fn jump(&self, (p, c): (Phase, Cells), guard: usize, _: f64, x: &mut [f64]) -> (Phase, Cells) {
        if p == Phase::Stick {
            return (if guard == 0 { Phase::Plus } else { Phase::Minus }, c);
        }
        if guard > 0 {
            let c = self.law.cross(c, guard - 1);
            return (p, self.law.settle(c, x[0], x[1], guard - 1));
        }
        // v reached 0: stick if the spring force lies in the friction interval, else reverse.
        x[1] = 0.0;
        let a = self.k * x[2];
        if a > self.law.force(Side::Plus, c, x[0]) {
            (Phase::Plus, c)
        } else if a < self.law.force(Side::Minus, c, x[0]) {
            (Phase::Minus, c)
        } else {
            (Phase::Stick, c)
        }
    }
}

/// The exact solution of the spring-pulled rig from rest-or-sliding `(x0, v0, l0)` at `t = 0`
/// to `t1`: `(t, [x, v, l])` at `saveat`.
#[allow(clippy::too_many_arguments)]
pub fn run_exact_pulled(
    law: Law,
    m: f64,
    k: f64,
    vp: f64,
    x0: [f64; 3],
    t1: f64,
    saveat: &[f64],
    tol: &Tolerances,
) -> Result<Vec<(f64, [f64; 3])>, SolveError> {
    let sys = Exact { law, m, k, vp };
    let c = law.locate(x0[0]);
    let a = k * x0[2];
    let phase = if x0[1] > 0.0 || (x0[1] == 0.0 && a > law.force(Side::Plus, c, x0[0])) {
        Phase::Plus
    } else if x0[1] < 0.0 || a < law.force(Side::Minus, c, x0[0]) {
        Phase::Minus
    } else {
        Phase::Stick
    };
    let mut out = Vec::with_capacity(saveat.len());
    simulate(
        &sys,
        (phase, c),
        Method::Dopri5,
        tol,
        0.0,
        &x0,
        t1,
        saveat,
        50_000_000,
        &mut |t, _, x| out.push((t, [x[0], x[1], x[2]])),
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests;
