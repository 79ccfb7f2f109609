//! Inputs of a run: the prescribed signal and the evaluation grid of an analytic run, and the
//! columns of an analytic run.

use crate::{RunData, RunRequest};
use fric_manifest::{InputSpec, Scale};
use fric_models::signal::{Linear, Piecewise, Sawtooth, Signal, Sine, SumOfSines};
use std::f64::consts::PI;

/// Named columns of an analytic run, without period or diagnostics.
pub fn table(cols: Vec<(&str, Vec<f64>)>) -> RunData {
    RunData {
        columns: cols.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
        period: None,
        info: Default::default(),
    }
}

/// The input signal of a prescribed-input run. An error only for a `csv` input whose samples
/// the loader did not attach (a request built without the pipeline).
pub fn signal(req: &RunRequest) -> Result<Signal, String> {
    let input = &req.input;
    Ok(match *input {
        InputSpec::Sine {
            amplitude,
            omega,
            phase,
            offset,
        }
        | InputSpec::Cosine {
            amplitude,
            omega,
            phase,
            offset,
        } => {
            // A cosine is a sine a quarter period ahead.
            let cosine = matches!(input, InputSpec::Cosine { .. });
            let phase = if cosine { phase + PI / 2.0 } else { phase };
            Signal::Sine(Sine {
                amplitude,
                omega,
                phase,
                offset,
            })
        }
        InputSpec::SwitchedSine { omega, ref pieces } => Signal::Piecewise(Piecewise {
            pieces: pieces
                .iter()
                .map(|p| {
                    (
                        p.from_period * 2.0 * PI / omega,
                        Sine {
                            amplitude: p.amplitude,
                            omega,
                            phase: 0.0,
                            offset: 0.0,
                        },
                    )
                })
                .collect(),
        }),
        InputSpec::Triangle {
            amplitude,
            omega,
            phase,
            offset,
        } => Signal::Sawtooth(Sawtooth::triangle(amplitude, omega, phase, offset)),
        InputSpec::SignedSquareSine {
            amplitude,
            omega,
            phase,
            offset,
        } => Signal::SignedSquare(Sine {
            amplitude,
            omega,
            phase,
            offset,
        }),
        InputSpec::Sawtooth {
            amplitude,
            omega,
            phase,
            offset,
            width,
        } => Signal::Sawtooth(Sawtooth {
            amplitude,
            omega,
            phase,
            offset,
            width,
        }),
        InputSpec::RampHold { from, to, ramp, start } => Signal::Linear(Linear {
            t: vec![start, start + ramp],
            u: vec![from, to],
        }),
        InputSpec::PiecewiseLinear { ref points } => Signal::Linear(Linear {
            t: points.iter().map(|p| p[0]).collect(),
            u: points.iter().map(|p| p[1]).collect(),
        }),
        InputSpec::SumOfSines { ref components, offset } => Signal::SumOfSines(SumOfSines {
            terms: components
                .iter()
                .map(|c| Sine {
                    amplitude: c.amplitude,
                    omega: c.omega,
                    phase: c.phase,
                    offset: 0.0,
                })
                .collect(),
            offset,
        }),
        InputSpec::Csv { ref path, .. } => {
            let d = req.input_data.as_ref().ok_or_else(|| {
                format!("the samples of `{path}` were not read (a csv input is loaded by the pipeline)")
            })?;
            Signal::Linear(Linear {
                t: d.t.clone(),
                u: d.u.clone(),
            })
        }
        InputSpec::Grid { .. } | InputSpec::None => return Err("this run has no input signal (grid or none)".into()),
    })
}

/// Evaluation grid of an analytic run.
pub fn grid(input: &InputSpec) -> Vec<f64> {
    let InputSpec::Grid {
        from,
        to,
        points,
        scale,
    } = *input
    else {
        unreachable!("validated: grid input")
    };
    let n = points.max(2);
    match scale {
        Scale::Linear => (0..n).map(|i| from + (to - from) * i as f64 / (n - 1) as f64).collect(),
        Scale::Log => (0..n)
            .map(|i| from * (to / from).powf(i as f64 / (n - 1) as f64))
            .collect(),
        Scale::SymLog => {
            // Log-spaced magnitudes from 1e-6 of the largest end, on each side of zero.
            let big = from.abs().max(to.abs());
            let small = 1e-6 * big;
            let half = n / 2;
            let mut out = Vec::with_capacity(n);
            if from < 0.0 {
                for i in (0..half).rev() {
                    out.push(-small * (from.abs() / small).powf(i as f64 / (half - 1).max(1) as f64));
                }
            }
            if to > 0.0 {
                for i in 0..half {
                    out.push(small * (to / small).powf(i as f64 / (half - 1).max(1) as f64));
                }
            }
            out
        }
    }
}

/// Evaluate a curve on a grid; where the grid crosses zero insert the vertical jump
/// `(0, lo), (0, hi)` of a set-valued law.
pub fn curve_with_jump(v: &[f64], f: impl Fn(f64) -> f64, lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let mut xs = Vec::with_capacity(v.len() + 2);
    let mut ys = Vec::with_capacity(v.len() + 2);
    for (i, &x) in v.iter().enumerate() {
        if x == 0.0 {
            xs.extend([0.0, 0.0]);
            ys.extend([lo, hi]);
            continue;
        }
        if i > 0 && v[i - 1] < 0.0 && x > 0.0 {
            xs.extend([0.0, 0.0]);
            ys.extend([lo, hi]);
        }
        xs.push(x);
        ys.push(f(x));
    }
    (xs, ys)
}
