//! `max-abs`: largest |y| over the window; unit of y.

use super::*;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "max-abs",
        doc: "largest |y| over the window; unit of y",
        fields: ONE_SERIES,
        example: "{name: fpeak, kind: max-abs, run: dahl, y: F}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let (lo, hi) = analysis::extremes(c.series()?.y);
    Ok(hi.abs().max(lo.abs()))
}
