//! `intercept`: intercept of the same least-squares line; unit of y.

use super::*;
use fric_manifest::FieldType::Pair;
use fric_solvers::analysis;

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
    let s = c.series()?;
    let (xs, ys) = in_range(s.x()?, s.y, c.spec.range);
    let (_, b) = analysis::line_fit(&xs, &ys).ok_or("fewer than two distinct x in the range")?;
    Ok(b)
}
