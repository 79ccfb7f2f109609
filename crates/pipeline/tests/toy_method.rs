//! A method added from outside the registry's file is seen everywhere the project's own methods
//! are: a toy method, declared and registered here in one file for the system `dahl`, appears in
//! what `schema` prints, in the JSON Schema, passes the loader and computes a run by what its
//! declaration says. (Its own test binary: registering changes the process-wide registry that
//! tests/kinds.rs compares with the committed schema.)

mod common;

use common::{workspace, DAHL};
use fric_experiments::methods::{self, How, MethodDecl, Ode};

/// `toy-stepper`: Dormand–Prince 5(4) at the tolerances of `ode`, under another name.
static TOY: MethodDecl = MethodDecl {
    name: "toy-stepper",
    doc: "dopri5 at rtol 1e-10, atol 1e-12 (a toy method of the tests)",
    example: "sim: {method: toy-stepper}",
    how: How::Ode(Ode {
        solver: fric_solvers::Method::Dopri5,
        rtol: 1e-10,
        atol: 1e-12,
    }),
};

/// Another `toy-stepper`, at other tolerances: what another study could register under the same
/// name (never registered here).
static OTHER: MethodDecl = MethodDecl {
    how: How::Ode(Ode {
        solver: fric_solvers::Method::Dopri5,
        rtol: 1e-6,
        atol: 1e-8,
    }),
    ..TOY
};

/// The test figure with its run computed by `method`, and a second run `ode` by `ode`.
fn manifest(method: &str) -> String {
    let sim = "sim: {periods: 2, samples_per_period: 400}";
    let run = DAHL.split("panels:\n").next().unwrap().split("runs:\n").nth(1).unwrap();
    let ode = run
        .replace("id: dahl", "id: ode")
        .replace(sim, "sim: {periods: 2, samples_per_period: 400, method: ode}");
    let toy = DAHL.replace(
        sim,
        &format!("sim: {{periods: 2, samples_per_period: 400, method: {method}}}"),
    );
    let (head, tail) = toy.split_once("panels:\n").unwrap();
    let head = format!("{head}{ode}panels:\n{tail}");
    let head = head.split("metrics:\n").next().unwrap().to_string();
    common::unchecked(&format!(
        "{head}metrics:\n  - {{name: area, kind: loop-area, run: dahl, x: u, y: F, window: {{periods: [1, 2]}}}}\n  \
         - {{name: area_ode, kind: loop-area, run: ode, x: u, y: F, window: {{periods: [1, 2]}}}}\n  \
         - {{name: steps, kind: info, run: dahl, y: steps}}\n"
    ))
}

#[test]
fn a_registered_toy_method_is_in_schema_the_json_schema_and_a_run() {
    let text = manifest("toy-stepper");
    let ws = workspace(&[("thesis/fig9.1.yaml", &text)]);
    // Unknown before it is registered: the loader refuses it at its line, listing the methods.
    assert!(methods::find("toy-stepper").is_none());
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1);
    let d = &loaded.invalid[0].diagnostics[0];
    assert!(d.message.contains("unknown method `toy-stepper`"), "{d:?}");
    assert!(d.allowed.contains("dop853-radau5"), "{d:?}");
    let line = 1 + text.lines().position(|l| l.contains("method: toy-stepper")).unwrap();
    assert_eq!(d.line, line, "{d:?}");

    assert!(
        methods::register(&TOY, &["no-such-system"]).is_err(),
        "the systems are known"
    );
    methods::register(&TOY, &["dahl"]).unwrap();
    assert!(methods::register(&TOY, &["dahl"]).is_err(), "a name is registered once");
    // What `schema` prints (the system's methods, the method list), and the JSON Schema.
    let dahl = fric_experiments::system("dahl").unwrap();
    assert_eq!(
        methods::names(&dahl.all_methods()),
        "exact, ode, exponential, toy-stepper"
    );
    assert!(methods::all().iter().any(|m| m.name == "toy-stepper"));
    let schema: serde_json::Value =
        serde_json::from_str(&fric_pipeline::evaluate::metric_kinds::json_schema()).unwrap();
    let alts = schema["$defs"]["Method"]["oneOf"].as_array().unwrap();
    assert!(alts.iter().any(|a| a["const"] == "toy-stepper"), "{alts:?}");
    // Another system does not take it.
    assert!(!fric_experiments::system("lugre").unwrap().all_methods().contains(&&TOY));

    // A run: computed by the declaration's solver at its tolerances, so it steps in time and
    // equals the run by `ode` (the same solver and tolerances) to the bit.
    let e = common::evaluated("thesis/fig9.1.yaml", &text, 1);
    let v = |n: &str| e.metrics[n].unwrap();
    assert!(v("steps") > 0.0, "{}", v("steps"));
    assert_eq!(v("area"), v("area_ode"));
    assert!((v("area") - 28.8).abs() < 1e-3 * 28.8, "{}", v("area"));

    // The run's cache key carries the toy's declaration, not its name alone (code review s50
    // L13): another method registered as `toy-stepper` (another study or process on the same
    // cache) cannot hit this run's entry. A project method's key is its request's alone.
    let loaded = fric_pipeline::load(ws.path());
    let runs = &loaded.entries[0].runs;
    let (toy, ode) = (&runs["dahl"], &runs["ode"]);
    assert_eq!(toy.key, fric_pipeline::run_key_by(&toy.request, Some(&TOY)));
    assert_ne!(toy.key, fric_pipeline::run_key_by(&toy.request, Some(&OTHER)));
    assert_ne!(toy.key, fric_pipeline::run_key_by(&toy.request, None));
    assert_eq!(ode.key, fric_pipeline::run_key_by(&ode.request, None));
}
