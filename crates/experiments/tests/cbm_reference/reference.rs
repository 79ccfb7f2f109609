//! The reference model: the thesis' parameters and equations, nothing else (see the crate
//! documentation of `cbm_reference.rs` for the equations and their source lines).

/// Body, bristles and spring (L1432–L1443; `K` at L1523, L1556).
#[derive(Clone, Copy, Debug)]
pub struct Body {
    pub m: f64,
    pub w: f64,
    pub d: f64,
    /// Slant angle in radians.
    pub alpha: f64,
    pub k_spring: f64,
    pub n_bottom: f64,
    pub k: f64,
    pub h0: f64,
    pub delta: f64,
    pub g: f64,
}

/// What moves the body: the spring's free end at `v_p` (Fig 4.2), the force
/// `u = a sin(ω t)` with the spring to the wall (Fig 4.3), or the spring's end at `v_p` with
/// the height prescribed, `y = A sin(ω t)` ((4.48)–(4.49), L1688–L1696).
#[derive(Clone, Copy, Debug)]
pub enum Drive {
    Pulled { vp: f64 },
    Forced { amplitude: f64, omega: f64 },
    Prescribed { vp: f64, amplitude: f64, omega: f64 },
}

/// The slanted-face bristles of one side at `(x, y)`: the sum of `h0 − h_i` and the largest
/// `h_i`, from (4.2)/(4.3) over the set (4.7)/(4.8), each bristle visited.
pub struct Slant {
    pub compression: f64,
    pub highest: f64,
    pub count: usize,
}

impl Body {
    fn d1(&self) -> f64 {
        self.w * self.alpha.tan()
    }
    /// The slant's closed interval of bases: (4.7) for `plus`, (4.8) otherwise.
    fn interval(&self, plus: bool, x: f64) -> (f64, f64) {
        let (d1, d) = (self.d1(), self.d);
        if plus {
            (x + d / 2.0 - d1, x + d / 2.0)
        } else {
            (x - d / 2.0, x - d / 2.0 + d1)
        }
    }
    /// The first and last lattice index `i` with `iΔ` in the interval (empty if first > last).
    pub fn members(&self, plus: bool, x: f64) -> (i64, i64) {
        let (lo, hi) = self.interval(plus, x);
        let mut first = (lo / self.delta).floor() as i64 - 1;
        while (first as f64) * self.delta < lo {
            first += 1;
        }
        let mut last = (hi / self.delta).ceil() as i64 + 1;
        while (last as f64) * self.delta > hi {
            last -= 1;
        }
        (first, last)
    }
    /// (4.7) for `plus`, (4.8) otherwise, summed bristle by bristle with (4.2)/(4.3).
    pub fn slant(&self, plus: bool, x: f64, y: f64) -> Slant {
        self.slant_of(plus, self.members(plus, x), x, y)
    }
    /// The sum of [`Body::slant`] over the given bases `first..=last` (the set held fixed over
    /// an integration step, so that the force is smooth within it).
    pub fn slant_of(&self, plus: bool, (first, last): (i64, i64), x: f64, y: f64) -> Slant {
        let (d1, w, d) = (self.d1(), self.w, self.d);
        let mut s = Slant {
            compression: 0.0,
            highest: f64::NEG_INFINITY,
            count: 0,
        };
        for i in first..=last {
            let xb = i as f64 * self.delta;
            let h = if plus {
                y - w / 2.0 + w / d1 * (xb - (x + d / 2.0 - d1))
            } else {
                y - w / 2.0 + w / d1 * (x - d / 2.0 + d1 - xb)
            };
            s.compression += self.h0 - h;
            s.highest = s.highest.max(h);
            s.count += 1;
        }
        s
    }
    /// `F_f+` (4.10) or `F_f−` (4.12).
    pub fn friction(&self, plus: bool, x: f64, y: f64) -> f64 {
        self.friction_of(plus, self.members(plus, x), x, y)
    }
    /// [`Body::friction`] over the bases `set`.
    pub fn friction_of(&self, plus: bool, set: (i64, i64), x: f64, y: f64) -> f64 {
        let sign = if plus { 1.0 } else { -1.0 };
        sign * self.k * self.alpha.cos() * self.slant_of(plus, set, x, y).compression
    }
    /// `F_y± = F_ys± + F_yb` (4.15)–(4.17).
    pub fn vertical(&self, plus: bool, x: f64, y: f64) -> f64 {
        self.vertical_of(plus, self.members(plus, x), x, y)
    }
    /// [`Body::vertical`] over the bases `set`.
    pub fn vertical_of(&self, plus: bool, set: (i64, i64), x: f64, y: f64) -> f64 {
        self.k * self.alpha.sin() * self.slant_of(plus, set, x, y).compression
            + self.n_bottom * self.k * (self.h0 - y + self.w / 2.0)
    }
}

/// Where the state is: sliding with `sign(v) = ±1`, or held on `Σ` (4.33).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Slip(i8),
    Stick,
}

/// State `[x, v, y, ẏ, l]` (`l` is unused by the forced drive).
pub type State = [f64; 5];

/// The model with its drive.
#[derive(Clone, Copy, Debug)]
pub struct Model {
    pub body: Body,
    pub drive: Drive,
}

impl Model {
    /// The horizontal force other than friction: `K l` (4.19) or `u − K x` (4.27).
    pub fn applied(&self, t: f64, s: &State) -> f64 {
        match self.drive {
            Drive::Pulled { .. } | Drive::Prescribed { .. } => self.body.k_spring * s[4],
            Drive::Forced { amplitude, omega } => amplitude * (omega * t).sin() - self.body.k_spring * s[0],
        }
    }
    /// `n^T f±` at `(t, s)`: the horizontal accelerations of (4.44)/(4.45) or (4.50)/(4.51).
    pub fn accelerations(&self, t: f64, s: &State) -> (f64, f64) {
        let a = self.applied(t, s);
        let b = &self.body;
        let y = self.height(t, s);
        (
            (a - b.friction(true, s[0], y)) / b.m,
            (a - b.friction(false, s[0], y)) / b.m,
        )
    }
    /// The height: the state's, or the prescribed `A sin(ω t)`.
    pub fn height(&self, t: f64, s: &State) -> f64 {
        match self.drive {
            Drive::Prescribed { amplitude, omega, .. } => amplitude * (omega * t).sin(),
            _ => s[2],
        }
    }
    /// The mode at a state on `Σ` (v = 0), from the signs of `n^T f±` (4.33), (4.39), (4.41).
    pub fn mode_on_sigma(&self, t: f64, s: &State) -> Mode {
        let (ap, am) = self.accelerations(t, s);
        if ap < 0.0 && am > 0.0 {
            Mode::Stick
        } else if am <= 0.0 && ap < 0.0 {
            Mode::Slip(-1)
        } else {
            Mode::Slip(1)
        }
    }
    /// The vector field of a mode: `f±`, or on `Σ` the convex combination (4.32) with `α` of
    /// (4.38) at `g = 0`, which keeps `v̇ = 0`. Sliding, the slant's bases are `set` (those at
    /// the step's start: the force is then smooth over the step, and a step that would cross a
    /// base is cut at the crossing by [`simulate`]); stuck, `x` does not move.
    pub fn field(&self, mode: Mode, set: Option<(i64, i64)>, t: f64, s: &State) -> State {
        let b = &self.body;
        let slip_friction = |plus: bool, x: f64, y: f64| match set {
            Some(set) => b.friction_of(plus, set, x, y),
            None => b.friction(plus, x, y),
        };
        let slip_vertical = |plus: bool, x: f64, y: f64| match set {
            Some(set) => b.vertical_of(plus, set, x, y),
            None => b.vertical(plus, x, y),
        };
        let (x, v, y, yd) = (s[0], s[1], self.height(t, s), s[3]);
        let vp = match self.drive {
            Drive::Pulled { vp } | Drive::Prescribed { vp, .. } => vp,
            Drive::Forced { .. } => 0.0,
        };
        if let Drive::Prescribed { amplitude, omega, .. } = self.drive {
            // No vertical equation: `s[2]` follows the prescribed height, `s[3]` is unused.
            let (v, vdot) = match mode {
                Mode::Slip(sg) => (v, (self.applied(t, s) - slip_friction(sg > 0, x, y)) / b.m),
                Mode::Stick => (0.0, 0.0),
            };
            return [v, vdot, amplitude * omega * (omega * t).cos(), 0.0, vp - v];
        }
        match mode {
            Mode::Slip(sg) => {
                let plus = sg > 0;
                let vdot = (self.applied(t, s) - slip_friction(plus, x, y)) / b.m;
                let ydd = -b.g + slip_vertical(plus, x, y) / b.m;
                [v, vdot, yd, ydd, vp - v]
            }
            Mode::Stick => {
                let (ap, am) = self.accelerations(t, s);
                let alpha = am / (am - ap);
                let fy = alpha * b.vertical(true, x, y) + (1.0 - alpha) * b.vertical(false, x, y);
                [0.0, 0.0, yd, -b.g + fy / b.m, vp]
            }
        }
    }
    /// Whether `mode` still holds at `(t, s)`: sliding keeps the sign of `v`; sticking needs
    /// the attractive condition (4.33).
    pub fn holds(&self, mode: Mode, t: f64, s: &State) -> bool {
        match mode {
            Mode::Slip(sg) => sg as f64 * s[1] >= 0.0,
            Mode::Stick => {
                let (ap, am) = self.accelerations(t, s);
                ap <= 0.0 && am >= 0.0
            }
        }
    }
    /// One classical RK4 step of `mode`'s field (sliding, over the bases `set`).
    pub fn rk4(&self, mode: Mode, set: Option<(i64, i64)>, t: f64, s: &State, h: f64) -> State {
        let add = |a: &State, k: &State, c: f64| -> State {
            let mut o = *a;
            for i in 0..5 {
                o[i] += c * k[i];
            }
            o
        };
        let k1 = self.field(mode, set, t, s);
        let k2 = self.field(mode, set, t + h / 2.0, &add(s, &k1, h / 2.0));
        let k3 = self.field(mode, set, t + h / 2.0, &add(s, &k2, h / 2.0));
        let k4 = self.field(mode, set, t + h, &add(s, &k3, h));
        let mut o = *s;
        for i in 0..5 {
            o[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        o
    }
}

/// Samples of a reference run on a uniform grid.
#[derive(Default)]
pub struct Samples {
    pub t: Vec<f64>,
    pub s: Vec<State>,
    pub stuck: Vec<bool>,
    /// Number of entries into the stick mode.
    pub sticks: usize,
    /// Located changes of the slant's bristle set while sliding.
    pub bristle_events: usize,
}

/// Integrate from `(0, s0)` to `n · dt`, sampling every `dt`, with RK4 steps of at most `h`;
/// a mode change, or while sliding a bristle entering or leaving the slant (a jump of the
/// force), inside a step is located by bisection (to 1e-13 of the step) and the step
/// restarted just beyond it.
pub fn simulate(model: &Model, s0: State, dt: f64, n: usize, h: f64) -> Samples {
    let mut s = s0;
    let mut mode = if s[1] == 0.0 {
        model.mode_on_sigma(0.0, &s)
    } else {
        Mode::Slip(if s[1] > 0.0 { 1 } else { -1 })
    };
    let mut out = Samples::default();
    let sub = (dt / h).ceil() as usize;
    let hs = dt / sub as f64;
    let mut t = 0.0;
    for k in 0..=n {
        out.t.push(t);
        out.s.push(s);
        out.stuck.push(mode == Mode::Stick);
        if k == n {
            break;
        }
        for j in 0..sub {
            let t_end = k as f64 * dt + (j + 1) as f64 * hs;
            let mut changes = 0;
            while t < t_end {
                let step = t_end - t;
                // Sliding, the bristle set of the side in use must not change within a step.
                let side = match mode {
                    Mode::Slip(sg) => Some(sg > 0),
                    Mode::Stick => None,
                };
                let set = side.map(|p| model.body.members(p, s[0]));
                let ok =
                    |tt: f64, q: &State| model.holds(mode, tt, q) && side.map(|p| model.body.members(p, q[0])) == set;
                let next = model.rk4(mode, set, t, &s, step);
                if ok(t_end, &next) {
                    s = next;
                    t = t_end;
                    continue;
                }
                let (mut lo, mut hi) = (0.0, step);
                while hi - lo > 1e-13 * step {
                    let mid = 0.5 * (lo + hi);
                    if ok(t + mid, &model.rk4(mode, set, t, &s, mid)) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                s = model.rk4(mode, set, t, &s, hi);
                t += hi;
                if model.holds(mode, t, &s) {
                    // A bristle entered or left the slant: same mode, new set.
                    out.bristle_events += 1;
                    continue;
                }
                if let Mode::Slip(_) = mode {
                    s[1] = 0.0;
                }
                let new = model.mode_on_sigma(t, &s);
                if new == Mode::Stick && mode != Mode::Stick {
                    out.sticks += 1;
                }
                mode = new;
                changes += 1;
                assert!(changes < 1000, "mode chattering at t = {t}");
            }
            t = t_end;
        }
    }
    out
}
