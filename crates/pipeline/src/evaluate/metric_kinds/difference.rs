//! `difference`: a − b of two earlier metrics.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "difference",
        doc: "a − b of two earlier metrics",
        fields: TWO_METRICS,
        example: "{name: d, kind: difference, of: [fmax, fmin]}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let (a, b) = c.pair()?;
    Ok(a - b)
}
