//! Input signals u(t): value, derivative, period and the times of their extrema.
//!
//! Rate-independent operators are exact only when the input samples contain every extremum, so a
//! signal can list its extrema in a time window.

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

/// The input signals a manifest can ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum Signal {
    Sine(Sine),
    Piecewise(Piecewise),
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
        }
    }
    fn piece(&self, t: f64) -> &Sine {
        match self {
            Signal::Sine(s) => s,
            Signal::Piecewise(p) => {
                let i = p.pieces.partition_point(|(s, _)| *s <= t);
                &p.pieces[i.saturating_sub(1)].1
            }
        }
    }
    pub fn value(&self, t: f64) -> f64 {
        self.piece(t).value(t)
    }
    pub fn deriv(&self, t: f64) -> f64 {
        self.piece(t).deriv(t)
    }
    /// Fundamental period of the last piece (the steady state), if periodic.
    pub fn period(&self) -> f64 {
        match self {
            Signal::Sine(s) => s.period(),
            Signal::Piecewise(p) => p.pieces.last().map(|x| x.1.period()).unwrap_or(f64::NAN),
        }
    }
    /// Times of switches between pieces in `(t0, t1)`.
    pub fn switches(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        if let Signal::Piecewise(p) = self {
            out.extend(p.pieces.iter().skip(1).map(|x| x.0).filter(|&s| s > t0 && s < t1));
        }
    }
    /// Times of extrema (and piece switches) in `(t0, t1)`, ascending.
    pub fn extrema(&self, t0: f64, t1: f64, out: &mut Vec<f64>) {
        match self {
            Signal::Sine(s) => s.extrema(t0, t1, out),
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
mod tests {
    use super::*;

    #[test]
    fn sine_extrema_are_zeros_of_derivative() {
        let s = Sine {
            amplitude: 2.0,
            omega: 0.3,
            phase: 0.4,
            offset: 0.0,
        };
        let mut e = Vec::new();
        s.extrema(0.0, 100.0, &mut e);
        assert_eq!(e.len(), ((100.0 * 0.3 + 0.4 - PI / 2.0) / PI).floor() as usize + 1);
        for t in e {
            assert!(s.deriv(t).abs() < 1e-12, "{t}");
            assert!((s.value(t).abs() - 2.0).abs() < 1e-12);
        }
    }

    #[test]
    fn sample_times_contain_extrema_and_are_sorted() {
        let s = Signal::Piecewise(Piecewise {
            pieces: vec![
                (
                    0.0,
                    Sine {
                        amplitude: 1.0,
                        omega: 2.0,
                        phase: 0.0,
                        offset: 0.0,
                    },
                ),
                (
                    PI,
                    Sine {
                        amplitude: 0.5,
                        omega: 2.0,
                        phase: 0.0,
                        offset: 0.0,
                    },
                ),
            ],
        });
        let t = s.sample_times(0.0, 2.0 * PI, 100);
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        for k in [0.25, 0.75, 1.25, 1.75] {
            let e = k * PI;
            assert!(t.iter().any(|&x| (x - e).abs() < 1e-12), "missing extremum {e}");
        }
        assert!((s.value(1.25 * PI) - 0.5).abs() < 1e-12);
    }
}
