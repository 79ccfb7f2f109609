//! `grid`: an evaluation grid for analytic curves (linear, log or symmetric-log spacing).

use super::*;
use fric_manifest::{opt_or, req, FieldDefault, FieldType, Scale};

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "grid",
        doc: "an evaluation grid for analytic curves",
        fields: &[
            req("from", FieldType::Number, "input", "first grid value"),
            req("to", FieldType::Number, "input", "last grid value, > from"),
            req("points", FieldType::Count, "", "number of grid points, ≥ 2"),
            opt_or(
                "scale",
                FieldType::Scale,
                "",
                FieldDefault::Text("linear"),
                "spacing (log needs from > 0)",
            ),
        ],
        example: "{kind: grid, from: -0.1, to: 0.1, points: 401, scale: sym-log}",
    },
    role: Role::Grid,
    check,
    signal: no_signal,
    period: no_period,
    budget: |req| (req.input.count("points") as f64, 0.0),
    reads_file: false,
};

/// `(from, to, points)` of a `grid` input; `None` for an input of another kind (a system's
/// checks of its grid read it so, not by the kind's name).
pub fn span(input: &Input) -> Option<(f64, f64, usize)> {
    (input.kind() == DECL.doc.name).then(|| (input.number("from"), input.number("to"), input.count("points")))
}

fn scale(input: &Input) -> Scale {
    match input.get("scale") {
        Some(Value::Scale(s)) => *s,
        _ => Scale::Linear,
    }
}

fn check(input: &Input, errs: &mut Vec<Invalid>) {
    let (from, to, points) = (input.number("from"), input.number("to"), input.count("points"));
    if !(from < to) {
        errs.push(Invalid::new(
            "input",
            format!("grid from {from} to {to} is empty"),
            "from < to",
        ));
    }
    if points < 2 {
        errs.push(Invalid::new(
            "input.points",
            format!("{points} grid points"),
            "points ≥ 2",
        ));
    }
    if scale(input) == Scale::Log && from <= 0.0 {
        errs.push(Invalid::new("input.from", "a log grid needs from > 0", "from > 0"));
    }
}

/// The grid's points, an analytic run's abscissae.
pub fn points(input: &Input) -> Vec<f64> {
    let (from, to) = (input.number("from"), input.number("to"));
    let n = input.count("points").max(2);
    match scale(input) {
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
