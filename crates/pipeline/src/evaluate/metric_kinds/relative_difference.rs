//! `relative-difference`: (a − b) / |b| of two earlier metrics.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "relative-difference",
        doc: "(a − b) / |b| of two earlier metrics",
        fields: TWO_METRICS,
        example: "{name: rd, kind: relative-difference, of: [area_fast, area_slow]}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let (a, b) = c.pair()?;
    Ok((a - b) / b.abs())
}
