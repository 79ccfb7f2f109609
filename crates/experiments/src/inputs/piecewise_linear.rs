//! `piecewise-linear`: linear interpolation through `[t, u]` points (t strictly increasing),
//! constant beyond the first and last point (no period: the run lasts `sim.t_end`).

use super::*;
use crate::budget;
use fric_manifest::{req, FieldType::Points};
use fric_models::signal::Linear;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "piecewise-linear",
        doc: "linear interpolation through points, constant beyond the first and last (no period: sim.t_end)",
        fields: &[req(
            "points",
            Points,
            "s, input",
            "[t, u] points, t strictly increasing, at least two",
        )],
        example: "{kind: piecewise-linear, points: [[0, 0], [1, 1], [3, -1], [4, 0]]}",
    },
    role: Role::Signal,
    check,
    signal,
    period: no_period,
    budget: |req| budget::over_t_end(req, points(&req.input).len()),
    reads_file: false,
};

fn points(input: &Input) -> &[[f64; 2]] {
    match input.get("points") {
        Some(Value::Points(p)) => p,
        _ => &[],
    }
}

fn check(input: &Input, errs: &mut Vec<Invalid>) {
    let points = points(input);
    if points.len() < 2 {
        errs.push(Invalid::new(
            "input.points",
            format!("{} point(s)", points.len()),
            "at least two [t, u] points",
        ));
    }
    if let Some(i) = (1..points.len()).find(|&i| !(points[i][0] > points[i - 1][0])) {
        errs.push(Invalid::new(
            format!("input.points[{i}]"),
            format!(
                "t = {} does not come after the previous point's t = {}",
                points[i][0],
                points[i - 1][0]
            ),
            "strictly increasing t",
        ));
    }
}

fn signal(input: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    let points = points(input);
    Ok(Signal::Linear(Linear {
        t: points.iter().map(|p| p[0]).collect(),
        u: points.iter().map(|p| p[1]).collect(),
    }))
}
