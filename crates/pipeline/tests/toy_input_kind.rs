//! An input kind added from outside the registry's file is seen everywhere the project's own
//! kinds are: a toy input kind, declared and registered here in one file, appears in what
//! `schema` prints, in the JSON Schema, passes the loader and drives a run. (Its own test binary:
//! registering changes the process-wide registry that tests/kinds.rs compares with the committed
//! schema.)

mod common;

use common::{workspace, DAHL};
use fric_experiments::inputs::signal::{Signal, Sine};
use fric_experiments::inputs::{self, check_sine_family, omega_period, Input, InputDecl, Role, AMPLITUDE, OMEGA};
use fric_experiments::InputData;
use fric_manifest::KindDoc;

/// `toy-lifted-sine`: `amplitude (1 − cos(omega t))`, a sine lifted to start at 0 at rest.
static TOY: InputDecl = InputDecl {
    doc: KindDoc {
        name: "toy-lifted-sine",
        doc: "amplitude (1 − cos(omega t)) (a toy kind of the tests)",
        fields: &[AMPLITUDE, OMEGA],
        example: "{kind: toy-lifted-sine, amplitude: 5, omega: 2}",
    },
    role: Role::Signal,
    check: check_sine_family,
    signal: lifted,
    period: omega_period,
    budget: fric_experiments::budget::periodic,
    reads_file: false,
};

fn lifted(i: &Input, _: Option<&InputData>) -> Result<Signal, String> {
    let amplitude = i.number("amplitude");
    Ok(Signal::Sine(Sine {
        amplitude,
        omega: i.number("omega"),
        phase: -std::f64::consts::FRAC_PI_2,
        offset: amplitude,
    }))
}

#[test]
fn a_registered_toy_input_kind_is_in_schema_the_json_schema_and_a_run() {
    let toy = DAHL.replace("{kind: sine, amplitude: 5, omega: 2}", TOY.doc.example);
    let head = toy.split("metrics:\n").next().unwrap();
    let text = common::unchecked(&format!(
        "{head}metrics:\n  - {{name: umax, kind: max, run: dahl, y: u}}\n  - {{name: umin, kind: min, run: dahl, y: u}}\n"
    ));
    let ws = workspace(&[("thesis/fig9.1.yaml", &text)]);
    // Unknown before it is registered: the loader refuses it at its line.
    assert!(inputs::find("toy-lifted-sine").is_none());
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1);
    let d = &loaded.invalid[0].diagnostics[0];
    assert!(d.message.contains("unknown input kind `toy-lifted-sine`"), "{d:?}");
    assert_eq!(d.line, 10, "{d:?}");

    inputs::register(&TOY).unwrap();
    assert!(inputs::register(&TOY).is_err(), "a name is registered once");
    // What `schema` prints, and the JSON Schema.
    assert!(inputs::docs().iter().any(|k| k.name == "toy-lifted-sine"));
    let schema: serde_json::Value =
        serde_json::from_str(&fric_pipeline::evaluate::metric_kinds::json_schema()).unwrap();
    let alts = schema["$defs"]["InputSpec"]["oneOf"].as_array().unwrap();
    let alt = alts
        .iter()
        .find(|a| a["properties"]["kind"]["const"] == "toy-lifted-sine");
    assert_eq!(
        alt.unwrap()["required"],
        serde_json::json!(["kind", "amplitude", "omega"])
    );
    // A system taking every prescribed signal takes it; a run is driven by it.
    let e = common::evaluated("thesis/fig9.1.yaml", &text, 1);
    let v = |n: &str| e.metrics[n].unwrap();
    assert!((v("umax") - 10.0).abs() < 1e-9, "{}", v("umax"));
    assert!(v("umin").abs() < 1e-9, "{}", v("umin"));
}
