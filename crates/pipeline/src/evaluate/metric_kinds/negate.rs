//! `negate`: −a of an earlier metric.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "negate",
        doc: "−a of an earlier metric (a loss as a positive number, a clockwise area as counter-clockwise)",
        fields: ONE_METRIC,
        example: "{name: loss, kind: negate, of: area}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    Ok(-c.single()?)
}
