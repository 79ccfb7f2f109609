//! The discontinuous rotating bristle model (`fric-models::rbm`) and its sawtooth approximation
//! integrated with the Switch Model (`fric-solvers::switch`), thesis ch. III §3.3: `g = v`, the
//! stick band `|v| ≤ η`, and the frozen lattice ranges of both branches as the system's mode;
//! their thresholds (a bristle entering a corner window or reaching θ_max, a sawtooth tooth) are
//! terminal events, never stepped over.
//!
//! Owns only the glue: the two rigs (spring-pulled (3.38)–(3.39), force-driven (3.42)–(3.43)).

use fric_models::rbm::{Bristles, Cells, Range, Sawtooth, Side};
use fric_models::signal::Signal;
use fric_solvers::hybrid::simulate;
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
    /// Cross further thresholds `x` is already past. A located root may sit a rounding error
    /// before the threshold just crossed; crossing back over it would leave the state on the
    /// far side of a guard that can no longer rise, so only a clear violation (beyond 1e-9 of
    /// the lattice period) counts.
    fn settle(&self, mut c: Cells, x: f64) -> Cells {
        let eps = 1e-9
            * match self {
                Law::Bristle(b) => b.delta,
                Law::Saw(s) => s.delta,
            };
        for _ in 0..1000 {
            let e = self.events(c, x);
            match e.iter().position(|&g| g > eps) {
                Some(j) => c = self.cross(c, j),
                None => break,
            }
        }
        c
    }
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
        self.law.settle(c, x[0])
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
    let sm = SwitchModel::new(sys, eta, tau);
    let cells = sys.law.locate(x0[0]);
    let mode0 = sm.initial_mode(cells, t0, x0);
    let mut r = DrbmRun::default();
    let m = sys.mass();
    let o = simulate(
        &sm,
        mode0,
        method,
        tol,
        t0,
        x0,
        t1,
        saveat,
        50_000_000,
        &mut |t, (region, c), x| {
            let f = match region.branch() {
                Some(b) => sys.law.force(side(b), c, x[0]),
                None => sys.applied(t, x) + m * x[1] / tau,
            };
            r.t.push(t);
            r.state.push(x.to_vec());
            r.friction.push(f);
            r.stuck.push(if region == Region::Stick { 1.0 } else { 0.0 });
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

#[cfg(test)]
mod tests {
    use super::*;
    use fric_models::signal::{Signal, Sine};

    /// Sawtooth rig: every stick point lies in the equilibria set (3.58) and the friction never
    /// leaves [F_min, F_max] in magnitude (the tooth events fire).
    #[test]
    fn sawtooth_rig_stays_on_the_teeth() {
        let u = Signal::Sine(Sine {
            amplitude: 2.0,
            omega: 0.01,
            phase: 0.0,
            offset: 0.0,
        });
        let law = Law::Saw(Sawtooth {
            f_min: 0.5,
            f_max: 1.0,
            delta: 0.1,
        });
        let sys = DrbmSwitched {
            law,
            rig: Rig::Driven { m: 1.0, k: 1.0, u: &u },
        };
        let t1 = 700.0;
        let save: Vec<f64> = (0..=7000).map(|i| i as f64 * 0.1).collect();
        let tol = Tolerances {
            rtol: 1e-9,
            atol: 1e-12,
            hmax: 1.0,
            ..Default::default()
        };
        let r = run(&sys, &[0.0, 0.0], 0.0, t1, &save, 1e-6, 1e-3, Method::Dopri5, &tol).unwrap();
        assert!(r.lattice_events > 10, "{}", r.lattice_events);
        let mut worst = (0.0f64, 0.0, 0.0);
        for ((f, s), (t, x)) in r.friction.iter().zip(&r.stuck).zip(r.t.iter().zip(&r.state)) {
            if *s == 0.0 {
                let e = (f.abs() - 1.0).max(0.5 - f.abs());
                if e > worst.0 {
                    worst = (e, *t, x[0]);
                }
            }
        }
        assert!(worst.0 < 1e-6, "{worst:?} events {}", r.lattice_events);
    }
}
