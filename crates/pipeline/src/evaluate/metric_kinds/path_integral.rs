//! `path-integral`: ∫ y dx along an open stretch (the samples of the window, not closed); unit x·y.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "path-integral",
        doc: "∫ y dx along the window's samples in order (trapezoid rule), which need not return to their start: no \
              closing chord is added, so it is the work of y along an open stretch (e.g. a period of a creeping \
              loop), not a loop area; signed as loop-area (positive where y is high on the way to larger x); unit x·y",
        fields: CURVE,
        example: "{name: work_period3, kind: path-integral, run: sim, x: u, y: theta, window: {periods: [2, 3]}}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    Ok(path_integral(s.x()?, s.y))
}

/// ∫ y dx by the trapezoid rule over the samples in order, without a closing segment.
pub fn path_integral(x: &[f64], y: &[f64]) -> f64 {
    x.windows(2)
        .zip(y.windows(2))
        .map(|(x, y)| 0.5 * (y[0] + y[1]) * (x[1] - x[0]))
        .sum()
}
