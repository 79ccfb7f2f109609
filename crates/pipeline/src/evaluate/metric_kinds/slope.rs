//! `slope`: least-squares dy/dx over the samples with x in range; unit y/x.

use super::*;
use fric_manifest::FieldType::Pair;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "slope",
        doc: "least-squares dy/dx over the samples with x in range; unit y/x",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            opt("range", Pair, "unit of x", "the x range of the fit (default all)"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: k, kind: slope, run: dahl, x: u, y: F, range: [-0.1, 0.1]}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    line_fit_in_range(c).map(|(slope, _)| slope)
}
