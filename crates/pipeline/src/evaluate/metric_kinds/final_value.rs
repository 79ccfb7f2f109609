//! `final`: y of the last sample in the window; unit of y.

use super::*;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "final",
        doc: "y of the last sample in the window; unit of y",
        fields: ONE_SERIES,
        example: "{name: f_end, kind: final, run: dahl, y: F}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    c.series()?.y.last().copied().ok_or_else(|| "empty window".into())
}
