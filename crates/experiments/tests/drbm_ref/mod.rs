//! The DRBM reference of `drbm_reference.rs` (its module docs give the equations), kept apart from
//! the tests that compare the production with it (the 600-line rule).
#![allow(dead_code)]
use fric_experiments::{execute, resolve, RunData};
use fric_manifest::{ParamValue, SimSpec};

#[derive(Clone, Copy)]
pub struct Row {
    pub kappa: f64,
    pub h: f64,
    pub lb: f64,
    pub delta: f64,
    pub d: f64,
}

/// The bristle indices touching one corner: `lo..=hi` (empty when `lo > hi`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Set {
    pub lo: i64,
    pub hi: i64,
}

impl Row {
    pub fn d0(&self) -> f64 {
        (self.lb * self.lb - self.h * self.h).sqrt()
    }
    /// (3.14): `x + d/2 − d0 < iΔ ≤ x + d/2`.
    pub fn right_set(&self, x: f64) -> Set {
        let c = x + self.d / 2.0;
        Set {
            lo: ((c - self.d0()) / self.delta).floor() as i64 + 1,
            hi: (c / self.delta).floor() as i64,
        }
    }
    /// (3.16): `x − d/2 ≤ iΔ < x − d/2 + d0`.
    pub fn left_set(&self, x: f64) -> Set {
        let c = x - self.d / 2.0;
        Set {
            lo: (c / self.delta).ceil() as i64,
            hi: ((c + self.d0()) / self.delta).ceil() as i64 - 1,
        }
    }
    pub fn set(&self, right: bool, x: f64) -> Set {
        if right {
            self.right_set(x)
        } else {
            self.left_set(x)
        }
    }
    /// (3.7)/(3.8) with a given contact set: `Σ κ θ cos²θ / h`.
    pub fn force(&self, right: bool, s: Set, x: f64) -> f64 {
        let c = if right { x + self.d / 2.0 } else { x - self.d / 2.0 };
        let mut f = 0.0;
        for i in s.lo..=s.hi {
            let th = ((c - i as f64 * self.delta) / self.h).atan();
            f += self.kappa * th * th.cos() * th.cos() / self.h;
        }
        f
    }
    /// `θ_s`: the sum of the pivot angles `arctan((c − iΔ)/h)` of the bristles touching the
    /// corner `c` of the side given, at `x` (L1313).
    pub fn angle_sum(&self, right: bool, x: f64) -> f64 {
        let c = if right { x + self.d / 2.0 } else { x - self.d / 2.0 };
        let s = self.set(right, x);
        (s.lo..=s.hi)
            .map(|i| ((c - i as f64 * self.delta) / self.h).atan())
            .sum()
    }
    /// The located force: `F_f^r(x)` or `F_f^l(x)`.
    pub fn at(&self, right: bool, x: f64) -> f64 {
        self.force(right, self.set(right, x), x)
    }
}

/// The two rigs.
#[derive(Clone, Copy)]
pub enum Rig {
    /// `u = A sin ωt` on a mass `m` tied to a wall by `K`; the third state is `∫ u v dt`.
    Driven { m: f64, k: f64, a: f64, w: f64 },
    /// A spring `K` pulled at `v_p`; the third state is its extension `l`.
    Pulled { m: f64, k: f64, vp: f64 },
}

impl Rig {
    pub fn mass(&self) -> f64 {
        match *self {
            Rig::Driven { m, .. } | Rig::Pulled { m, .. } => m,
        }
    }
    /// The force on the body other than friction.
    pub fn applied(&self, t: f64, y: &[f64; 3]) -> f64 {
        match *self {
            Rig::Driven { k, a, w, .. } => a * (w * t).sin() - k * y[0],
            Rig::Pulled { k, .. } => k * y[2],
        }
    }
    pub fn third_rate(&self, t: f64, y: &[f64; 3]) -> f64 {
        match *self {
            Rig::Driven { a, w, .. } => a * (w * t).sin() * y[1],
            Rig::Pulled { vp, .. } => vp - y[1],
        }
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Phase {
    /// Sliding with `v > 0` on the right corner's frozen set.
    Plus,
    /// Sliding with `v < 0` on the left corner's frozen set.
    Minus,
    /// `v = 0` exactly, `x` frozen.
    Stick,
}

pub struct Reference {
    pub row: Row,
    pub rig: Rig,
    pub dt: f64,
    /// The production's stick band `η`, for counting the sliding phases' minima of `|v|` below
    /// it ([`Trace::grazes`]); it does not enter the motion.
    pub band: f64,
}

/// Samples `(t, x, v, third, friction)`.
pub struct Trace {
    pub t: Vec<f64>,
    pub x: Vec<f64>,
    pub v: Vec<f64>,
    pub third: Vec<f64>,
    pub f: Vec<f64>,
    /// Exact stick phases entered from sliding (a velocity zero with the applied force inside
    /// the friction interval).
    pub sticks: usize,
    /// Each of them: `(start, end, x)` (`end` = the run's end if still stuck).
    pub spans: Vec<(f64, f64, f64)>,
    /// Local minima of `|v|` at the step ends of a sliding phase (no reversal): below the
    /// band `η` (`grazes.0`), and within ±10 % of it (`grazes.1`, borderline).
    pub grazes: (usize, usize),
}

impl Reference {
    pub fn rate(&self, right: bool, s: Set, t: f64, y: &[f64; 3]) -> [f64; 3] {
        let f = self.row.force(right, s, y[0]);
        [
            y[1],
            (self.rig.applied(t, y) - f) / self.rig.mass(),
            self.rig.third_rate(t, y),
        ]
    }
    /// One classical RK4 step of size `h` on a frozen contact set.
    pub fn rk4(&self, right: bool, s: Set, t: f64, y: &[f64; 3], h: f64) -> [f64; 3] {
        let add = |y: &[f64; 3], k: &[f64; 3], c: f64| [y[0] + c * k[0], y[1] + c * k[1], y[2] + c * k[2]];
        let k1 = self.rate(right, s, t, y);
        let k2 = self.rate(right, s, t + h / 2.0, &add(y, &k1, h / 2.0));
        let k3 = self.rate(right, s, t + h / 2.0, &add(y, &k2, h / 2.0));
        let k4 = self.rate(right, s, t + h, &add(y, &k3, h));
        let mut out = *y;
        for i in 0..3 {
            out[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        out
    }
    /// The phase a body at rest at `(t, y)` takes: stick when the applied force lies in the
    /// friction interval (3.58), else it slides towards the side it is pushed.
    pub fn phase_at_rest(&self, t: f64, y: &[f64; 3]) -> Phase {
        let a = self.rig.applied(t, y);
        if a > self.row.at(true, y[0]) {
            Phase::Plus
        } else if a < self.row.at(false, y[0]) {
            Phase::Minus
        } else {
            Phase::Stick
        }
    }
    /// Integrate from rest at `x = 0` (third state `y2`) to `t1`, sampling at `save` (sorted).
    pub fn run(&self, y2: f64, t1: f64, save: &[f64]) -> Trace {
        self.run_from([0.0, 0.0, y2], t1, save)
    }
    /// Integrate from `y0 = (x, v, third)` at `t = 0` to `t1`, sampling at `save` (sorted): a
    /// moving start slides on the side of its velocity, a start at rest as [`Self::phase_at_rest`].
    pub fn run_from(&self, y0: [f64; 3], t1: f64, save: &[f64]) -> Trace {
        let mut tr = Trace {
            t: vec![],
            x: vec![],
            v: vec![],
            third: vec![],
            f: vec![],
            sticks: 0,
            spans: vec![],
            grazes: (0, 0),
        };
        // The last two `|v|` at sliding step ends (reset at every event), for the minima.
        let mut last = [f64::NAN; 2];
        let (mut t, mut y) = (0.0, y0);
        let mut phase = if y[1] > 0.0 {
            Phase::Plus
        } else if y[1] < 0.0 {
            Phase::Minus
        } else {
            self.phase_at_rest(t, &y)
        };
        let mut set = self.row.set(phase != Phase::Minus, y[0]);
        let mut si = 0;
        let record = |tr: &mut Trace, ts: f64, ys: &[f64; 3], f: f64| {
            tr.t.push(ts);
            tr.x.push(ys[0]);
            tr.v.push(ys[1]);
            tr.third.push(ys[2]);
            tr.f.push(f);
        };
        while t < t1 {
            let h = self.dt.min(t1 - t);
            // The state a step of size `s` ≤ h reaches, and whether an event happened by then.
            match phase {
                Phase::Stick => {
                    let stuck_at = |s: f64| {
                        let mut z = y;
                        z[2] += s * self.rig.third_rate(t, &y);
                        (self.phase_at_rest(t + s, &z) == Phase::Stick, z)
                    };
                    let (still, z) = stuck_at(h);
                    let s = if still { h } else { bisect(h, |s| !stuck_at(s).0) };
                    let (_, z) = if still { (true, z) } else { stuck_at(s) };
                    while si < save.len() && save[si] <= t + s {
                        let mut zs = y;
                        zs[2] += (save[si] - t) * self.rig.third_rate(t, &y);
                        let a = self.rig.applied(save[si], &zs);
                        record(&mut tr, save[si], &zs, a);
                        si += 1;
                    }
                    t += s;
                    y = z;
                    if !still {
                        if let Some(span) = tr.spans.last_mut().filter(|sp| sp.1.is_infinite()) {
                            span.1 = t;
                        }
                        phase = self.phase_at_rest(t, &y);
                        set = self.row.set(phase == Phase::Plus, y[0]);
                    }
                }
                Phase::Plus | Phase::Minus => {
                    let right = phase == Phase::Plus;
                    let event = |z: &[f64; 3]| {
                        let reversed = if right { z[1] <= 0.0 } else { z[1] >= 0.0 };
                        reversed || self.row.set(right, z[0]) != set
                    };
                    let z = self.rk4(right, set, t, &y, h);
                    let s = if event(&z) {
                        bisect(h, |s| event(&self.rk4(right, set, t, &y, s)))
                    } else {
                        h
                    };
                    while si < save.len() && save[si] <= t + s {
                        let zs = self.rk4(right, set, t, &y, save[si] - t);
                        record(&mut tr, save[si], &zs, self.row.force(right, set, zs[0]));
                        si += 1;
                    }
                    let z = self.rk4(right, set, t, &y, s);
                    t += s;
                    y = z;
                    let ended = s < h || event(&z);
                    if ended {
                        last = [f64::NAN; 2];
                    } else {
                        let a = y[1].abs();
                        if last[1] < last[0] && last[1] <= a {
                            tr.grazes.0 += usize::from(last[1] < self.band);
                            tr.grazes.1 += usize::from((last[1] / self.band - 1.0).abs() < 0.1);
                        }
                        last = [last[1], a];
                    }
                    if ended {
                        let reversed = if right { y[1] <= 0.0 } else { y[1] >= 0.0 };
                        if reversed {
                            y[1] = 0.0;
                            phase = self.phase_at_rest(t, &y);
                            if phase == Phase::Stick {
                                tr.sticks += 1;
                                tr.spans.push((t, f64::INFINITY, y[0]));
                            }
                        }
                        set = self.row.set(phase != Phase::Minus, y[0]);
                    }
                }
            }
        }
        tr
    }
}

/// The smallest `s` in `(0, h]` with `hit(s)` (true at `h`, monotone near the first event), to
/// 1e-13 relative.
pub fn bisect(h: f64, hit: impl Fn(f64) -> bool) -> f64 {
    let (mut lo, mut hi) = (0.0, h);
    while hi - lo > 1e-13 * h.max(1.0) {
        let mid = 0.5 * (lo + hi);
        if hit(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Signed area `∮ u dx` of the closed polygon of the samples (shoelace).
pub fn shoelace(x: &[f64], u: &[f64]) -> f64 {
    let n = x.len();
    (0..n)
        .map(|i| {
            let j = (i + 1) % n;
            x[i] * u[j] - x[j] * u[i]
        })
        .sum::<f64>()
        / 2.0
}

pub fn num(v: f64) -> ParamValue {
    ParamValue::Number(v)
}

/// The production's stick band `η` (m/s) and stick-field time constant `τ` (s) in
/// [`production_driven`]: thesis Fig 3.9's (the `fig3_9` fixture).
#[allow(unused_imports)]
pub use crate::fig3_9::{ETA as PRODUCTION_ETA, TAU as PRODUCTION_TAU};

/// A production run of `drbm-force-driven` with thesis Fig 3.9's parameters (L1137).
pub fn production_driven(delta: f64, omega: f64, rtol: f64) -> RunData {
    let (p, input) = (crate::fig3_9::params(delta), crate::fig3_9::sine(omega));
    let sim = SimSpec {
        periods: Some(2.0),
        samples_per_period: Some(20000),
        method: Some("dop853-radau5".parse().unwrap()),
        rtol: Some(rtol),
        atol: Some(rtol * 1e-2),
        ..Default::default()
    };
    execute(&resolve("drbm-force-driven", &p, Some(&input), Some(&sim)).unwrap()).unwrap()
}

/// Last-period loop area `∮ u dx` and `E_stored` of (3.45)–(3.46) from samples of two periods.
pub fn last_period_energies(row: &Row, t: &[f64], x: &[f64], u: &[f64], period: f64) -> (f64, f64) {
    let from = t.iter().position(|&s| s >= period * (1.0 - 1e-12)).unwrap();
    let area = shoelace(&x[from..], &u[from..]);
    let (lo, hi) = x[from..]
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    let n_e = 2.0 * ((hi - lo) / row.delta).floor();
    let th = (row.h / row.lb).acos();
    (area, n_e * 0.5 * row.kappa * th * th)
}
