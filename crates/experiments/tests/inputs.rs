//! The piecewise-linear and composite inputs (triangle, sawtooth, ramp-and-hold, points, sum of
//! sines, sampled data): the exact rate-independent operators under them against the ODE and
//! against closed forms at the reversal points, and their validation.

use fric_experiments::{csv_path_problem, execute, resolve, InputData, RunData};
use fric_manifest::{InputSpec, InputValue, ParamValue, SimSpec, SineComponent};
use std::collections::BTreeMap;
use std::f64::consts::PI;

fn params(p: &[(&str, f64)]) -> BTreeMap<String, ParamValue> {
    p.iter().map(|(k, v)| (k.to_string(), ParamValue::Number(*v))).collect()
}

fn run(system: &str, p: &[(&str, f64)], input: &InputSpec, sim: &SimSpec) -> RunData {
    let req = resolve(system, &params(p), Some(input), Some(sim)).unwrap_or_else(|e| panic!("{e:?}"));
    execute(&req).unwrap()
}

fn at(d: &RunData, col: &str, t: f64) -> f64 {
    let ts = d.column("t").unwrap();
    let i = ts
        .iter()
        .position(|&x| (x - t).abs() < 1e-9)
        .unwrap_or_else(|| panic!("no sample at t = {t}"));
    d.column(col).unwrap()[i]
}

const SIGMA: f64 = 2.0;
const FC: f64 = 1.0;
const A: f64 = 1.5;

fn dahl_params() -> [(&'static str, f64); 3] {
    [("sigma", SIGMA), ("fc", FC), ("gamma", 1.0)]
}

/// Period 4 s: reversals at t = 1, 3, 5, 7 (u = A, −A, A, −A).
fn triangle() -> InputSpec {
    InputSpec::new(
        "triangle",
        [
            ("amplitude", InputValue::from(A)),
            ("omega", InputValue::from(PI / 2.0)),
            ("phase", InputValue::from(0.0)),
            ("offset", InputValue::from(0.0)),
        ],
    )
}

fn sim(method: &str) -> SimSpec {
    SimSpec {
        periods: Some(2.0),
        samples_per_period: Some(400),
        method: Some(method.parse().unwrap()),
        ..Default::default()
    }
}

/// Dahl with γ = 1 along a monotone increment from `(u_a, F_a)` by `du`:
/// `F = s Fc − (s Fc − F_a) exp(−σ |du| / Fc)`, `s = sign du` (thesis (1.23) integrated).
fn dahl_step(f: f64, du: f64) -> f64 {
    let s = du.signum();
    s * FC - (s * FC - f) * (-SIGMA * du.abs() / FC).exp()
}

/// The exact Dahl operator under a triangle wave equals the closed form at every reversal point
/// (to rounding), and the time-domain ODE (Dormand–Prince, rtol 1e-10) everywhere to 1e-7.
#[test]
fn dahl_under_a_triangle_exact_equals_closed_form_and_ode() {
    let ex = run("dahl", &dahl_params(), &triangle(), &sim("exact"));
    let ode = run("dahl", &dahl_params(), &triangle(), &sim("ode"));
    // The reversals, from F(0) = 0 at u = 0.
    let mut f = dahl_step(0.0, A);
    let mut expected = vec![(1.0, f)];
    for (k, t) in [3.0, 5.0, 7.0].into_iter().enumerate() {
        let du = if k % 2 == 0 { -2.0 * A } else { 2.0 * A };
        f = dahl_step(f, du);
        expected.push((t, f));
    }
    for (t, f) in expected {
        assert!((at(&ex, "u", t).abs() - A).abs() < 1e-12);
        let got = at(&ex, "F", t);
        assert!((got - f).abs() < 1e-13, "exact F({t}) = {got}, closed form {f}");
        let got = at(&ode, "F", t);
        assert!((got - f).abs() < 1e-7, "ODE F({t}) = {got}, closed form {f}");
    }
    // Same sample times (the reversals are grid points of 100 samples per quarter period).
    assert_eq!(ex.column("t").unwrap().len(), ode.column("t").unwrap().len());
    let d = ex
        .column("F")
        .unwrap()
        .iter()
        .zip(ode.column("F").unwrap())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(d < 1e-7, "exact vs ODE: max |ΔF| = {d}");
    assert_eq!(ex.period, Some(4.0));
}

/// A piecewise-linear input whose breakpoints fall between output samples: the exact operator
/// still sees every reversal (they are added to the samples) and equals the closed form there;
/// a breakpoint that is not a reversal changes nothing.
#[test]
fn dahl_under_piecewise_linear_points_is_exact_at_reversals() {
    let input = InputSpec::new(
        "piecewise-linear",
        [(
            "points",
            InputValue::from(vec![[0.0, 0.0], [0.37, 0.5], [1.13, 1.2], [2.71, -0.3], [3.3, 0.1]]),
        )],
    );
    let s = SimSpec {
        t_end: Some(4.0),
        samples_per_period: Some(7),
        ..Default::default()
    };
    let d = run("dahl", &dahl_params(), &input, &s);
    assert_eq!(d.period, None);
    // 0 → 1.2 (one monotone stretch through the breakpoint at 0.37), → −0.3, → 0.1.
    let f1 = dahl_step(0.0, 1.2);
    let f2 = dahl_step(f1, -1.5);
    let f3 = dahl_step(f2, 0.4);
    for (t, f) in [(1.13, f1), (2.71, f2), (3.3, f3), (4.0, f3)] {
        let got = at(&d, "F", t);
        assert!((got - f).abs() < 1e-13, "F({t}) = {got}, closed form {f}");
    }
    let ode = run(
        "dahl",
        &dahl_params(),
        &input,
        &SimSpec {
            method: Some("ode".parse().unwrap()),
            samples_per_period: Some(400),
            ..s
        },
    );
    let got = *ode.column("F").unwrap().last().unwrap();
    assert!((got - f3).abs() < 1e-7, "ODE F(4) = {got}, closed form {f3}");
}

/// Maxwell-slip (stop operators) under a ramp-and-hold and a sawtooth: exact equals the ODE.
#[test]
fn maxwell_slip_under_ramp_hold_and_sawtooth() {
    let p = [("k", 2.0), ("delta", 0.3)];
    let cases = [
        (
            InputSpec::new(
                "ramp-hold",
                [
                    ("from", InputValue::from(-0.5)),
                    ("to", InputValue::from(1.0)),
                    ("ramp", InputValue::from(2.0)),
                    ("start", InputValue::from(0.5)),
                ],
            ),
            SimSpec {
                t_end: Some(4.0),
                samples_per_period: Some(800),
                ..Default::default()
            },
        ),
        (
            InputSpec::new(
                "sawtooth",
                [
                    ("amplitude", InputValue::from(1.0)),
                    ("omega", InputValue::from(2.0 * PI)),
                    ("phase", InputValue::from(0.0)),
                    ("offset", InputValue::from(0.0)),
                    ("width", InputValue::from(0.8)),
                ],
            ),
            SimSpec {
                periods: Some(2.0),
                samples_per_period: Some(1000),
                ..Default::default()
            },
        ),
    ];
    for (input, s) in cases {
        let ex = run("maxwell-slip", &p, &input, &s);
        let ode = run(
            "maxwell-slip",
            &p,
            &input,
            &SimSpec {
                method: Some("ode".parse().unwrap()),
                ..s.clone()
            },
        );
        let (a, b) = (ex.column("F").unwrap(), ode.column("F").unwrap());
        assert_eq!(a.len(), b.len(), "{input:?}");
        let d = a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        assert!(d < 1e-6, "{input:?}: max |ΔF| = {d}");
        // The force saturates at k δ on a long monotone stretch.
        let last = *a.last().unwrap();
        assert!((last.abs() - 0.6).abs() < 1e-12 || input.kind == "sawtooth");
    }
}

/// Sampled input: the samples attached by the loader drive the run like the same points.
#[test]
fn csv_samples_drive_like_points() {
    let points = vec![[0.0, 0.0], [1.0, 1.0], [2.0, -1.0], [3.0, 0.5]];
    let s = SimSpec {
        t_end: Some(3.0),
        samples_per_period: Some(30),
        ..Default::default()
    };
    let by_points = run(
        "dahl",
        &dahl_params(),
        &InputSpec::new("piecewise-linear", [("points", InputValue::from(points.clone()))]),
        &s,
    );
    let csv = InputSpec::new(
        "csv",
        [
            ("path", InputValue::from("data/inputs/x.csv")),
            ("t_column", InputValue::from("t")),
            ("u_column", InputValue::from("u")),
        ],
    );
    let mut req = resolve("dahl", &params(&dahl_params()), Some(&csv), Some(&s)).unwrap();
    // Without its samples (a request not built by the pipeline) the run is an error, not a panic.
    assert!(execute(&req).unwrap_err().contains("data/inputs/x.csv"));
    req.input_data = Some(InputData {
        path: "data/inputs/x.csv".into(),
        sha256: "0".repeat(64),
        t: points.iter().map(|p| p[0]).collect(),
        u: points.iter().map(|p| p[1]).collect(),
    });
    let d = execute(&req).unwrap();
    assert_eq!(d.column("F"), by_points.column("F"));
    // The samples are not part of the canonical request (the key); the file's hash is.
    let json = serde_json::to_string(&req).unwrap();
    assert!(
        json.contains("\"sha256\"") && !json.contains("[0.0,1.0,2.0,3.0]"),
        "{json}"
    );
}

#[test]
fn sum_of_sines_runs_for_t_end() {
    let input = InputSpec::new(
        "sum-of-sines",
        [
            (
                "components",
                InputValue::from(vec![
                    SineComponent {
                        amplitude: 1.0,
                        omega: 1.0,
                        phase: 0.0,
                    },
                    SineComponent {
                        amplitude: 0.3,
                        omega: 5.0,
                        phase: 0.2,
                    },
                ]),
            ),
            ("offset", InputValue::from(0.0)),
        ],
    );
    let s = SimSpec {
        t_end: Some(10.0),
        samples_per_period: Some(2000),
        ..Default::default()
    };
    let ex = run("dahl", &dahl_params(), &input, &s);
    let ode = run(
        "dahl",
        &dahl_params(),
        &input,
        &SimSpec {
            method: Some("ode".parse().unwrap()),
            ..s.clone()
        },
    );
    // The exact run has the extrema added to the grid; compare at the shared grid times.
    let (te, fe) = (ex.column("t").unwrap(), ex.column("F").unwrap());
    let mut worst: f64 = 0.0;
    for (t, f) in ode.column("t").unwrap().iter().zip(ode.column("F").unwrap()) {
        if let Some(i) = te.iter().position(|x| x == t) {
            worst = worst.max((fe[i] - f).abs());
        }
    }
    assert!(worst < 1e-7, "exact vs ODE: {worst}");
}

#[test]
fn bad_inputs_are_reported() {
    let p = params(&dahl_params());
    let t_end = SimSpec {
        t_end: Some(1.0),
        ..Default::default()
    };
    let errs = |input: InputSpec, sim: &SimSpec| resolve("dahl", &p, Some(&input), Some(sim)).unwrap_err();
    let e = errs(
        InputSpec::new(
            "sawtooth",
            [
                ("amplitude", InputValue::from(1.0)),
                ("omega", InputValue::from(1.0)),
                ("phase", InputValue::from(0.0)),
                ("offset", InputValue::from(0.0)),
                ("width", InputValue::from(1.0)),
            ],
        ),
        &t_end,
    );
    assert_eq!(e[0].path, "input.width");
    let e = errs(
        InputSpec::new(
            "piecewise-linear",
            [("points", InputValue::from(vec![[0.0, 0.0], [1.0, 1.0], [1.0, 2.0]]))],
        ),
        &t_end,
    );
    assert_eq!(e[0].path, "input.points[2]");
    assert!(e[0].message.contains("does not come after"), "{e:?}");
    // An input without a period needs t_end, not periods.
    let e = errs(
        InputSpec::new(
            "ramp-hold",
            [
                ("from", InputValue::from(0.0)),
                ("to", InputValue::from(1.0)),
                ("ramp", InputValue::from(1.0)),
                ("start", InputValue::from(0.0)),
            ],
        ),
        &SimSpec {
            periods: Some(2.0),
            ..Default::default()
        },
    );
    assert!(e[0].path == "sim" && e[0].message.contains("no period"), "{e:?}");
    for bad in [
        "../x.csv",
        "/etc/passwd",
        "data/../x.csv",
        "data/cache/runs/a.csv",
        "x.csv",
        "data\\x.csv",
        "data/x.txt",
    ] {
        let e = errs(
            InputSpec::new(
                "csv",
                [
                    ("path", InputValue::from(bad)),
                    ("t_column", InputValue::from("t")),
                    ("u_column", InputValue::from("u")),
                ],
            ),
            &t_end,
        );
        assert_eq!(e[0].path, "input.path", "{bad}: {e:?}");
        assert!(csv_path_problem(bad).is_some());
    }
    assert_eq!(csv_path_problem("data/measured/run1.csv"), None);
}
