//! `dwell`: a mean stick or rest time.

use super::*;
use fric_manifest::FieldType::Pair;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "dwell",
        doc: "mean duration, in x, of the maximal runs of consecutive samples with y in range that lie wholly inside the window (runs cut by its ends are left out; NaN is in no run): a stick or rest time; unit of x; an error without a complete run",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            req("range", Pair, "unit of y", "the band of y that counts"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: t_stick, kind: dwell, run: sim, x: t, y: e_at_rest, range: [0.3, 1], unit: s}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let [lo, hi] = c.spec.range.ok_or("needs `range`")?;
    let d = analysis::dwell_times(s.x()?, s.y, lo, hi);
    if d.is_empty() {
        return Err(format!("no complete run of y in [{lo}, {hi}] inside the window"));
    }
    Ok(d.iter().sum::<f64>() / d.len() as f64)
}
