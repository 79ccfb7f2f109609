//! `intercept`: intercept of the same least-squares line; unit of y.

use super::*;
use fric_manifest::FieldType::Pair;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "intercept",
        doc: "intercept of the same least-squares line; unit of y",
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
        example: "{name: b, kind: intercept, run: dahl, x: u, y: F, range: [-0.1, 0.1]}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    line_fit_in_range(c).map(|(_, intercept)| intercept)
}
