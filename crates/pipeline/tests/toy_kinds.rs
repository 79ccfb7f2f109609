//! A kind added from outside the registry's file is seen everywhere the project's own kinds are:
//! a toy metric kind, declared and registered here, appears in what `schema` prints, in the JSON
//! Schema, passes the loader and is evaluated in a run. (Its own test binary: registering changes
//! the process-wide registry that tests/kinds.rs compares with the committed schema.)

mod common;

use common::{workspace, DAHL};
use fric_manifest::{FieldType, KindDoc};
use fric_pipeline::evaluate::metric_kinds::{self, Ctx, MetricDecl, OtherSeries, NAME, RUN, Y};

/// `toy-span`: largest minus smallest y over the whole run.
static TOY: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "toy-span",
        doc: "largest minus smallest y over the run (a toy kind of the tests)",
        fields: &[NAME, RUN, Y],
        example: "{name: span, kind: toy-span, run: dahl, y: F}",
    },
    other: OtherSeries::None,
    eval: span,
};

fn span(c: &Ctx) -> Result<f64, String> {
    let y = c.series()?.y;
    let (lo, hi) = y
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(*v), h.max(*v)));
    Ok(hi - lo)
}

#[test]
fn a_registered_toy_metric_kind_is_in_schema_the_json_schema_and_a_run() {
    // Unknown before it is registered: the loader refuses it at its line.
    assert!(metric_kinds::find("toy-span").is_none());
    let head = DAHL.split("metrics:\n").next().unwrap();
    let text = common::unchecked(&format!(
        "{head}metrics:\n  - {{name: span, kind: toy-span, run: dahl, y: F}}\n  \
         - {{name: fmax, kind: max, run: dahl, y: F}}\n  - {{name: fmin, kind: min, run: dahl, y: F}}\n"
    ));
    let ws = workspace(&[("thesis/fig9.1.yaml", &text)]);
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1);
    assert!(loaded.invalid[0].diagnostics[0]
        .message
        .contains("unknown metric kind `toy-span`"));

    metric_kinds::register(&TOY).unwrap();
    assert!(metric_kinds::register(&TOY).is_err(), "a name is registered once");
    // What `schema` prints, and the JSON Schema.
    let doc = metric_kinds::docs().into_iter().find(|k| k.name == "toy-span").unwrap();
    assert_eq!(doc.field("y").map(|f| f.ty), Some(FieldType::Column));
    let schema: serde_json::Value = serde_json::from_str(&metric_kinds::json_schema()).unwrap();
    let kinds = schema["$defs"]["MetricKind"]["oneOf"].as_array().unwrap();
    assert!(kinds.iter().any(|k| k["const"] == "toy-span"));
    // A run: the loader checks its fields by the declaration, evaluation calls it.
    let e = common::evaluated("thesis/fig9.1.yaml", &text, 1);
    let v = |n: &str| e.metrics[n].unwrap();
    assert_eq!(v("span"), v("fmax") - v("fmin"));
    assert!(v("span") > 2.9, "{}", v("span"));
}
