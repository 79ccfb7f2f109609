//! What systems read of their input (the prescribed signal, the evaluation grid of an analytic
//! run; each kind's own in `inputs/`) and the columns of an analytic run.

use crate::inputs::Input;
use crate::{RunData, RunRequest};
use fric_models::signal::Signal;

/// Named columns of an analytic run, without period or diagnostics.
pub fn table(cols: Vec<(&str, Vec<f64>)>) -> RunData {
    RunData {
        columns: cols.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
        period: None,
        info: Default::default(),
    }
}

/// The input signal of a prescribed-input run, its kind's (`inputs/<kind>.rs`). An error only
/// for a `csv` input whose samples the loader did not attach (a request built without the
/// pipeline).
pub fn signal(req: &RunRequest) -> Result<Signal, String> {
    req.input.signal(req.input_data.as_ref())
}

/// Evaluation grid of an analytic run (`inputs/grid.rs`).
pub fn grid(input: &Input) -> Vec<f64> {
    crate::inputs::grid_points(input)
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
