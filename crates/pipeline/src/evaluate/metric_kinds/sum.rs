//! `sum`: a + b of two earlier metrics.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "sum",
        doc: "a + b of two earlier metrics",
        fields: TWO_METRICS,
        example: "{name: s, kind: sum, of: [fmax, fmin]}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let (a, b) = c.pair()?;
    Ok(a + b)
}
