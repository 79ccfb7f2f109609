//! `info`: a run diagnostic by name (y), such as periods_to_steady_state, steps.

use super::*;
use fric_manifest::FieldType::Text;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "info",
        doc: "a run diagnostic by name (y), such as periods_to_steady_state, steps",
        fields: &[
            NAME,
            RUN,
            req("y", Text, "", "the diagnostic's name"),
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: n, kind: info, run: msd, y: periods_to_steady_state}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let data = c.data()?;
    let key = c.spec.y.as_deref().unwrap_or("");
    data.info.get(key).copied().ok_or_else(|| {
        format!(
            "run `{}` has no diagnostic `{key}` (has: {:?})",
            c.spec.run.as_deref().unwrap_or(""),
            data.info.keys().collect::<Vec<_>>()
        )
    })
}
