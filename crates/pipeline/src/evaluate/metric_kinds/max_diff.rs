//! `max-diff`: largest |y − other.y| over equally sampled windows; unit of y.

use super::*;
use fric_manifest::FieldType::Other;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "max-diff",
        doc: "largest |y − other.y| over equally sampled windows; unit of y",
        fields: &[
            NAME,
            RUN,
            Y,
            req("other", Other, "", "{run, y, window}: the series compared against"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: d, kind: max-diff, run: exact, y: F, other: {run: ode, y: F}}",
    },
    other: OtherSeries::Y,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let y = c.series()?.y;
    let oy = c.other()?.y;
    analysis::max_abs_diff(y, oy)
        .ok_or_else(|| format!("windows sample differently ({} vs {} samples)", y.len(), oy.len()))
}
