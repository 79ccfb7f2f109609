//! `loop-area`: signed ∮ y dx over the window (positive clockwise); unit x·y.

use super::*;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "loop-area",
        doc: "signed ∮ y dx over the window (positive clockwise); unit x·y",
        fields: CURVE,
        example: "{name: area, kind: loop-area, run: dahl, x: u, y: F, window: last-period}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    Ok(analysis::loop_area(s.x()?, s.y))
}
