//! `ratio`: a / b of two earlier metrics.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "ratio",
        doc: "a / b of two earlier metrics",
        fields: TWO_METRICS,
        example: "{name: r, kind: ratio, of: [fmax, fpeak]}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let (a, b) = c.pair()?;
    Ok(a / b)
}
