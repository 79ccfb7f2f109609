//! `quantile`: the at-quantile of y over the window; unit of y.

use super::*;
use fric_manifest::FieldType::Number;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "quantile",
        doc: "the at-quantile of y over the window; unit of y",
        fields: &[
            NAME,
            RUN,
            X_UNUSED,
            Y,
            req("at", Number, "1", "the quantile, 0…1"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: median, kind: quantile, run: dahl, y: F, at: 0.5}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let y = c.series()?.y;
    let q = c.spec.at.ok_or("needs `at` (the quantile, 0 to 1)")?;
    if !(0.0..=1.0).contains(&q) {
        return Err(format!("quantile {q} outside [0, 1]"));
    }
    let mut v = y.to_vec();
    v.sort_by(f64::total_cmp);
    Ok(v[((v.len() - 1) as f64 * q).round() as usize])
}
