//! `crossing-interval`: the mean interval between upward crossings of a transient oscillation.

use super::*;
use fric_manifest::FieldType::Number;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "crossing-interval",
        doc: "mean x-interval between successive upward crossings of y through the level at (default 0) over the \
              window, of an oscillation that need not repeat (a decaying or chirping transient, e.g. ringing): not a \
              period, so no repetition is required (crossing-period's bound is the change of the mean interval between the window's halves); an error \
              with fewer than two crossings; unit of x",
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
        example: "{name: ringing_interval, kind: crossing-interval, run: sim, x: t, y: omega, window: {t: [0.47, 0.62]}, unit: s}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let level = c.spec.at.unwrap_or(0.0);
    let (x, y) = (s.x()?, s.y);
    analysis::crossing_period(x, y, level)
        .map(|(mean, _)| mean)
        .ok_or_else(|| format!("fewer than two upward crossings of {level} in the window"))
}
