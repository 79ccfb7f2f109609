//! `value-at`: y at x = at on the first bracketing segment; unit of y.

use super::*;
use fric_manifest::FieldType::Number;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "value-at",
        doc: "y at x = at on the first bracketing segment; unit of y",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            req("at", Number, "unit of x", "the abscissa"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: f0, kind: value-at, run: dahl, x: u, y: F, at: 0, window: last-period}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let at = c.spec.at.ok_or("needs `at`")?;
    analysis::value_at(s.x()?, s.y, at).ok_or_else(|| format!("x never reaches {at} in the window"))
}
