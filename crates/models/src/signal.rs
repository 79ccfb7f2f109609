//! Input signals u(t): value, derivative, period and the times of their extrema.
//!
//! Rate-independent operators are exact only when the input samples contain every extremum, so a
//! signal can list its extrema in a time window.

use fric_roots::{bisect, Side};
use std::convert::Infallible;
use std::f64::consts::PI;

/// One sinusoidal piece `offset + amplitude * sin(omega * t + phase)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sine {
    pub amplitude: f64,
    pub omega: f64,
    pub phase: f64,
    pub offset: f64,
}

impl Sine {
    pub fn value(&self, t: f64) -> f64 {
        self.offset + self.amplitude * (self.omega * t + self.phase).sin()
    }
    pub fn deriv(&self, t: f64) -> f64 {
        self.amplitude * self.omega * (self.omega * t + self.phase).cos()
    }
    pub fn period(&self) -> f64 {
        2.0 * PI / self.omega
    }
    /// Times in `(t0, t1)` where the derivative vanishes, ascending.
    pub fn extrema(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        if self.amplitude == 0.0 || self.omega == 0.0 {
            return;
        }
        // omega t + phase = pi/2 + k pi
        let w = self.omega;
        let k0 = ((w * t0 + self.phase - PI / 2.0) / PI).floor() as i64;
        let mut k = k0;
        loop {
            let t = (PI / 2.0 + k as f64 * PI - self.phase) / w;
            if t >= t1 {
                break;
            }
            if t > t0 {
                out.push(t);
            }
            k += 1;
        }
    }
}

/// A piecewise signal: sinusoidal pieces switched at given times (the input stays whatever
/// the pieces make it; manifests switch at zero crossings so the input is continuous).
#[derive(Clone, Debug, PartialEq)]
pub struct Piecewise {
    /// `(start_time, piece)`, the first start is the signal's start, ascending.
    pub pieces: Vec<(f64, Sine)>,
}

/// A periodic piecewise-linear wave `offset + amplitude · saw(omega t + phase + π width, width)`,
/// where `saw(θ, w)` rises linearly from −1 at θ = 0 to 1 at θ = 2π w and falls back to −1 at
/// θ = 2π (SciPy's `sawtooth`). The shift by `π width` makes it start at `offset` rising, like
/// [`Sine`]; `width = 0.5` is the triangle wave. `width` is in (0, 1): the wave is continuous.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sawtooth {
    pub amplitude: f64,
    pub omega: f64,
    pub phase: f64,
    pub offset: f64,
    pub width: f64,
}

impl Sawtooth {
    /// The triangle wave: zero at `t = 0` (with phase 0), rising, extrema at the sine's extrema.
    pub fn triangle(amplitude: f64, omega: f64, phase: f64, offset: f64) -> Sawtooth {
        Sawtooth {
            amplitude,
            omega,
            phase,
            offset,
            width: 0.5,
        }
    }
    fn theta(&self, t: f64) -> f64 {
        self.omega * t + self.phase + PI * self.width
    }
    /// Position in the cycle, in [0, 1).
    fn cycle(&self, t: f64) -> f64 {
        let x = self.theta(t) / (2.0 * PI);
        x - x.floor()
    }
    pub fn value(&self, t: f64) -> f64 {
        let (x, w) = (self.cycle(t), self.width);
        let saw = if x < w {
            -1.0 + 2.0 * x / w
        } else {
            1.0 - 2.0 * (x - w) / (1.0 - w)
        };
        self.offset + self.amplitude * saw
    }
    /// The right derivative (at a corner, the slope of the segment that starts there).
    pub fn deriv(&self, t: f64) -> f64 {
        let (x, w) = (self.cycle(t), self.width);
        let slope = if x < w { 2.0 / w } else { -2.0 / (1.0 - w) };
        self.amplitude * slope * self.omega / (2.0 * PI)
    }
    pub fn period(&self) -> f64 {
        2.0 * PI / self.omega
    }
    /// The corners in `(t0, t1)` (minima at θ = 2πk, maxima at θ = 2π(k + width)), ascending.
    pub fn extrema(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        if self.amplitude == 0.0 || self.omega == 0.0 {
            return;
        }
        let w = self.omega;
        let shift = self.phase + PI * self.width;
        let k0 = ((w * t0 + shift) / (2.0 * PI)).floor() as i64 - 1;
        let mut k = k0;
        loop {
            let lo = (2.0 * PI * k as f64 - shift) / w;
            if lo >= t1 {
                break;
            }
            for c in [lo, (2.0 * PI * (k as f64 + self.width) - shift) / w] {
                if c > t0 && c < t1 {
                    out.push(c);
                }
            }
            k += 1;
        }
    }
}

/// A piecewise-linear signal through the points `(t[i], u[i])` (`t` strictly increasing), held
/// constant before the first and after the last point.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    pub t: Vec<f64>,
    pub u: Vec<f64>,
}

impl Linear {
    /// The segment `i` with `t[i] <= t < t[i + 1]`, or `None` outside `[t[0], t[n-1])`.
    fn segment(&self, t: f64) -> Option<usize> {
        let i = self.t.partition_point(|&x| x <= t);
        (i > 0 && i < self.t.len()).then(|| i - 1)
    }
    pub fn value(&self, t: f64) -> f64 {
        match self.segment(t) {
            Some(i) => {
                let (ta, tb, ua, ub) = (self.t[i], self.t[i + 1], self.u[i], self.u[i + 1]);
                ua + (ub - ua) * ((t - ta) / (tb - ta))
            }
            None if self.t.first().is_some_and(|&t0| t < t0) => self.u[0],
            None => self.u.last().copied().unwrap_or(0.0),
        }
    }
    /// The right derivative: the slope of the segment that starts at or before `t`.
    pub fn deriv(&self, t: f64) -> f64 {
        match self.segment(t) {
            Some(i) => (self.u[i + 1] - self.u[i]) / (self.t[i + 1] - self.t[i]),
            None => 0.0,
        }
    }
    fn slope(&self, i: usize) -> f64 {
        match i {
            0 => 0.0,
            i if i >= self.t.len() => 0.0,
            // `signum` of 0.0 is 1.0: a flat segment is its own direction.
            i => {
                let d = self.u[i] - self.u[i - 1];
                if d > 0.0 {
                    1.0
                } else if d < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            }
        }
    }
    /// The reversal points in `(t0, t1)`: breakpoints where the direction of the input changes
    /// (a flat stretch between a rise and a fall counts at both of its ends).
    pub fn extrema(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        for (i, &t) in self.t.iter().enumerate() {
            if t > t0 && t < t1 && self.slope(i) != self.slope(i + 1) {
                out.push(t);
            }
        }
    }
    /// Every breakpoint in `(t0, t1)`: where the derivative jumps.
    pub fn kinks(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        out.extend(self.t.iter().copied().filter(|&t| t > t0 && t < t1));
    }
}

/// A sum of sines `offset + Σ amplitude_k sin(omega_k t + phase_k)`.
#[derive(Clone, Debug, PartialEq)]
pub struct SumOfSines {
    /// The terms; their `offset` fields are ignored.
    pub terms: Vec<Sine>,
    pub offset: f64,
}

impl SumOfSines {
    pub fn value(&self, t: f64) -> f64 {
        self.offset
            + self
                .terms
                .iter()
                .map(|s| s.amplitude * (s.omega * t + s.phase).sin())
                .sum::<f64>()
    }
    pub fn deriv(&self, t: f64) -> f64 {
        self.terms.iter().map(|s| s.deriv(t)).sum()
    }
    /// The shortest period of a term.
    pub fn shortest_period(&self) -> f64 {
        self.terms
            .iter()
            .filter(|s| s.amplitude != 0.0 && s.omega != 0.0)
            .map(|s| s.period().abs())
            .fold(f64::INFINITY, f64::min)
    }
    /// Zeros of the derivative in `(t0, t1)`, ascending: sign changes of `u'` on a grid of 1/64
    /// of the shortest period, each bisected to rounding. Two extrema closer than that grid
    /// (a near-tangency of `u'` with zero) can be missed; they bound a change of `u` of order
    /// `amplitude · (2π/64)²`.
    pub fn extrema(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        let p = self.shortest_period();
        if !p.is_finite() || t1 <= t0 || t1.is_nan() {
            return;
        }
        let n = (((t1 - t0) / (p / 64.0)).ceil() as usize).max(1);
        let at = |i: usize| t0 + (t1 - t0) * i as f64 / n as f64;
        let mut a = t0;
        let mut da = self.deriv(a);
        for i in 1..=n {
            let b = at(i);
            let db = self.deriv(b);
            if db == 0.0 && i < n {
                out.push(b);
            } else if da * db < 0.0 {
                // A midpoint where u' is exactly zero is the extremum.
                let side = |m: f64| {
                    let dm = self.deriv(m);
                    Ok::<_, Infallible>(if dm == 0.0 {
                        Side::On
                    } else if (dm > 0.0) == (da > 0.0) {
                        Side::Lo
                    } else {
                        Side::Hi
                    })
                };
                let Ok((lo, hi)) = bisect(side, a, b, 0.0, 200);
                out.push(0.5 * (lo + hi));
            }
            a = b;
            da = db;
        }
    }
}

/// The input signals a manifest can ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum Signal {
    Sine(Sine),
    Piecewise(Piecewise),
    /// Triangle and sawtooth waves.
    Sawtooth(Sawtooth),
    /// Piecewise-linear: ramp-and-hold, points, sampled data.
    Linear(Linear),
    SumOfSines(SumOfSines),
    /// `offset + amplitude sin θ |sin θ|`, `θ = omega t + phase`: the signed square of a sine.
    /// Its derivative `2 amplitude omega |sin θ| cos θ` vanishes at the sine's extrema (the only
    /// reversals) and touches zero without reversing where `sin θ = 0`.
    SignedSquare(Sine),
}

impl Sine {
    fn signed_square(&self, t: f64) -> f64 {
        let s = (self.omega * t + self.phase).sin();
        self.offset + self.amplitude * s * s.abs()
    }
    fn signed_square_deriv(&self, t: f64) -> f64 {
        let th = self.omega * t + self.phase;
        2.0 * self.amplitude * self.omega * th.sin().abs() * th.cos()
    }
}

impl Signal {
    /// The signal `k · u(t) + c`.
    pub fn affine(&self, k: f64, c: f64) -> Signal {
        let map = |s: &Sine| Sine {
            amplitude: k * s.amplitude,
            offset: k * s.offset + c,
            ..*s
        };
        match self {
            Signal::Sine(s) => Signal::Sine(map(s)),
            Signal::Piecewise(p) => Signal::Piecewise(Piecewise {
                pieces: p.pieces.iter().map(|(t, s)| (*t, map(s))).collect(),
            }),
            Signal::Sawtooth(s) => Signal::Sawtooth(Sawtooth {
                amplitude: k * s.amplitude,
                offset: k * s.offset + c,
                ..*s
            }),
            Signal::Linear(l) => Signal::Linear(Linear {
                t: l.t.clone(),
                u: l.u.iter().map(|u| k * u + c).collect(),
            }),
            Signal::SumOfSines(s) => Signal::SumOfSines(SumOfSines {
                terms: s.terms.iter().map(|x| Sine { offset: 0.0, ..map(x) }).collect(),
                offset: k * s.offset + c,
            }),
            Signal::SignedSquare(s) => Signal::SignedSquare(map(s)),
        }
    }
    fn piece(p: &Piecewise, t: f64) -> &Sine {
        let i = p.pieces.partition_point(|(s, _)| *s <= t);
        &p.pieces[i.saturating_sub(1)].1
    }
    pub fn value(&self, t: f64) -> f64 {
        match self {
            Signal::Sine(s) => s.value(t),
            Signal::Piecewise(p) => Self::piece(p, t).value(t),
            Signal::Sawtooth(s) => s.value(t),
            Signal::Linear(l) => l.value(t),
            Signal::SumOfSines(s) => s.value(t),
            Signal::SignedSquare(s) => s.signed_square(t),
        }
    }
    /// The derivative; at a corner of a piecewise-linear signal, the right derivative.
    pub fn deriv(&self, t: f64) -> f64 {
        match self {
            Signal::Sine(s) => s.deriv(t),
            Signal::Piecewise(p) => Self::piece(p, t).deriv(t),
            Signal::Sawtooth(s) => s.deriv(t),
            Signal::Linear(l) => l.deriv(t),
            Signal::SumOfSines(s) => s.deriv(t),
            Signal::SignedSquare(s) => s.signed_square_deriv(t),
        }
    }
    /// The period (of the last piece, the steady state, for a piecewise sine); `None` for a
    /// signal that is not periodic (piecewise-linear through points, a sum of sines).
    pub fn period(&self) -> Option<f64> {
        match self {
            Signal::Sine(s) | Signal::SignedSquare(s) => Some(s.period()),
            Signal::Piecewise(p) => p.pieces.last().map(|x| x.1.period()),
            Signal::Sawtooth(s) => Some(s.period()),
            Signal::Linear(_) => None,
            Signal::SumOfSines(_) => None,
        }
    }
    /// The shortest time over which the signal changes character (the step cap is a fraction
    /// of it): the period, or a sum's shortest period; `None` for a piecewise-linear signal,
    /// which is linear between its breakpoints.
    pub fn time_scale(&self) -> Option<f64> {
        match self {
            Signal::SumOfSines(s) => Some(s.shortest_period()).filter(|p| p.is_finite()),
            Signal::Piecewise(p) => p.pieces.iter().map(|x| x.1.period()).reduce(f64::min),
            other => other.period(),
        }
    }
    /// Times of switches between pieces in `(t0, t1)`.
    pub fn switches(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        if let Signal::Piecewise(p) = self {
            out.extend(p.pieces.iter().skip(1).map(|x| x.0).filter(|&s| s > t0 && s < t1));
        }
    }
    /// Times of extrema (and piece switches) in `(t0, t1)`, ascending: the reversal points a
    /// rate-independent operator must see to be exact.
    pub fn extrema(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        match self {
            Signal::Sine(s) | Signal::SignedSquare(s) => s.extrema(t0, t1, out),
            Signal::Sawtooth(s) => s.extrema(t0, t1, out),
            Signal::Linear(l) => l.extrema(t0, t1, out),
            Signal::SumOfSines(s) => s.extrema(t0, t1, out),
            Signal::Piecewise(p) => {
                for (i, (start, s)) in p.pieces.iter().enumerate() {
                    let end = p.pieces.get(i + 1).map(|x| x.0).unwrap_or(f64::INFINITY);
                    let a = start.max(t0);
                    let b = end.min(t1);
                    if a < b {
                        if i > 0 && *start > t0 {
                            out.push(*start);
                        }
                        s.extrema(a, b, out);
                    }
                }
            }
        }
    }
    /// Where an integrator must restart in `(t0, t1)`, ascending: every extremum and switch, and
    /// every breakpoint of a piecewise-linear signal (its derivative jumps there).
    pub fn kinks(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        match self {
            Signal::Linear(l) => l.kinks(t0, t1, out),
            // The second derivative jumps where sin θ = 0 (the extrema of the quarter-shifted sine).
            Signal::SignedSquare(s) => {
                let mut both = Vec::new();
                s.extrema(t0, t1, &mut both);
                Sine {
                    phase: s.phase + PI / 2.0,
                    ..*s
                }
                .extrema(t0, t1, &mut both);
                both.sort_by(f64::total_cmp);
                out.extend(both);
            }
            other => other.extrema(t0, t1, out),
        }
    }
    /// Sample times: a uniform grid of `n` intervals on `[t0, t1]`, merged with every extremum and
    /// switch, so that a rate-independent operator driven by the samples is exact.
    pub fn sample_times(&self, t0: f64, t1: f64, n: usize) -> Vec<f64> {
        let mut t: Vec<f64> = (0..=n).map(|i| t0 + (t1 - t0) * i as f64 / n as f64).collect();
        let mut extra = Vec::new();
        self.extrema(t0, t1, &mut extra);
        let tol = 1e-12 * (t1 - t0).abs().max(1.0);
        for e in extra {
            let i = t.partition_point(|&x| x < e);
            let near = (i < t.len() && (t[i] - e).abs() <= tol) || (i > 0 && (t[i - 1] - e).abs() <= tol);
            if near {
                // Snap the nearby grid point onto the extremum.
                if i < t.len() && (t[i] - e).abs() <= tol {
                    t[i] = e;
                } else {
                    t[i - 1] = e;
                }
            } else {
                t.insert(i, e);
            }
        }
        t
    }
}

#[cfg(test)]
mod tests;
