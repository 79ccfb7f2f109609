//! `constant`: a number written in the manifest.

use super::*;
use fric_manifest::FieldType::Number;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "constant",
        doc: "a number written in the manifest (say where it comes from in `note`), to take part in arithmetic with computed metrics",
        fields: &[
            NAME,
            req("value", Number, "the metric's", "the value, finite"),
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: f_c, kind: constant, value: 1.5, unit: N, note: \"the Coulomb level of the run\"}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let v = c.spec.value.ok_or("needs `value`")?;
    if !v.is_finite() {
        return Err(format!("value {v} is not finite"));
    }
    Ok(v)
}
