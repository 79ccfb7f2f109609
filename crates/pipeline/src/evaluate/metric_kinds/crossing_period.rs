//! `crossing-period`: the period of an oscillation.

use super::*;
use fric_manifest::FieldType::Number;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "crossing-period",
        doc: "mean x-interval between successive upward crossings of y through the level at (default 0), located by linear interpolation, over the window: the period of an oscillation; unit of x; an error with fewer than two crossings",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            opt("at", Number, "", "the level crossed (default 0)"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: ringing, kind: crossing-period, run: sim, x: t, y: omega, window: {t: [0.7, 0.8]}, unit: s}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let level = c.spec.at.unwrap_or(0.0);
    analysis::crossing_period(s.x()?, s.y, level)
        .map(|(p, _)| p)
        .ok_or_else(|| format!("fewer than two upward crossings of {level} in the window"))
}
