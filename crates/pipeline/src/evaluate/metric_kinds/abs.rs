//! `abs`: |a| of an earlier metric.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "abs",
        doc: "|a| of an earlier metric",
        fields: ONE_METRIC,
        example: "{name: area_abs, kind: abs, of: area}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    Ok(c.single()?.abs())
}
