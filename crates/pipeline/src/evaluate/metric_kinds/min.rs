//! `min`: smallest y over the window; unit of y.

use super::*;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "min",
        doc: "smallest y over the window; unit of y",
        fields: ONE_SERIES,
        example: "{name: fmin, kind: min, run: dahl, y: F}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    Ok(analysis::extremes(c.series()?.y).0)
}
