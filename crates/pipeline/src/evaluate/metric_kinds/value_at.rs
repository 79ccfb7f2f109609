//! `value-at`: y at x = at on the first bracketing segment (of one branch of a loop with
//! `branch`); unit of y.

use super::*;
use fric_manifest::FieldType::{Number, Text};
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "value-at",
        doc: "y at x = at on the first bracketing segment (with `branch`, the first one where x increases, or decreases: one branch of a loop); unit of y",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            req("at", Number, "unit of x", "the abscissa"),
            opt(
                "branch",
                Text,
                "",
                "`ascending` or `descending`: read y on the segments where x increases (or decreases) only; a fit target with `csv: {..., loop: true}` sets it row by row",
            ),
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
    match c.spec.branch {
        Some(b) => crate::loop_branch::value_on_branch(s.x()?, s.y, at, b),
        None => analysis::value_at(s.x()?, s.y, at).ok_or_else(|| format!("x never reaches {at} in the window")),
    }
}
