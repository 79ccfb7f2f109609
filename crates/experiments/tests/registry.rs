//! The registry's declarations are consistent: what validation and `schema` derive from them can
//! be trusted.

mod fig3_9;

use fric_experiments::{resolve, system, systems, ParamKind};
use fric_manifest::InputValue;
use std::collections::BTreeSet;

#[test]
fn names_are_unique_kebab_case_and_found() {
    let mut seen = BTreeSet::new();
    for s in systems() {
        assert!(seen.insert(s.name), "system {} registered twice", s.name);
        assert!(
            s.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{} is not kebab-case",
            s.name
        );
        assert!(std::ptr::eq(system(s.name).unwrap(), s));
        assert!(!s.doc.is_empty(), "{} has no doc", s.name);
    }
    assert!(system("no-such-system").is_none());
    assert_eq!(systems().len(), 62);
}

#[test]
fn every_declaration_is_well_formed() {
    let kinds: Vec<&str> = fric_experiments::inputs::all().iter().map(|d| d.doc.name).collect();
    let methods = [
        "dopri5",
        "dop853",
        "dop853-radau5",
        "rosenbrock23",
        "radau5",
        "exact",
        "ode",
        "analytic",
        "integrating-factor",
        "exponential",
    ];
    for s in systems() {
        let mut names = BTreeSet::new();
        for p in &s.params {
            assert!(names.insert(p.name), "{}: parameter {} declared twice", s.name, p.name);
            assert!(
                !p.unit.is_empty() && !p.doc.is_empty(),
                "{}.{}: unit and doc",
                s.name,
                p.name
            );
            assert!(p.min <= p.max, "{}.{}: empty range", s.name, p.name);
            if let Some(d) = p.default {
                assert!(
                    p.accepts(d),
                    "{}.{}: default {d} outside {}",
                    s.name,
                    p.name,
                    p.range_text()
                );
                assert_eq!(
                    p.kind,
                    ParamKind::Scalar,
                    "{}.{}: a list with a default",
                    s.name,
                    p.name
                );
            }
        }
        assert!(
            !s.input_names().is_empty() && s.input_names().iter().all(|i| kinds.contains(i)),
            "{}",
            s.name
        );
        assert!(
            !s.methods.is_empty() && s.methods.iter().all(|m| methods.contains(&m.name())),
            "{}",
            s.name
        );
        let mut cols = BTreeSet::new();
        for (c, unit, doc) in s.columns {
            assert!(cols.insert(*c), "{}: column {c} twice", s.name);
            assert!(!unit.is_empty() && !doc.is_empty(), "{}: column {c}", s.name);
        }
    }
}

/// Units follow the group a parameter comes from: the drum's LuGre law is rotational.
#[test]
fn shared_groups_take_the_units_of_their_system() {
    let unit = |sys: &str, p: &str| system(sys).unwrap().params.iter().find(|q| q.name == p).unwrap().unit;
    assert_eq!(unit("mass-spring-lugre", "sigma1"), "N-s/m");
    assert_eq!(unit("drum-lugre", "sigma1"), "N-m-s/rad");
    assert_eq!(unit("drum-lugre", "vs"), "rad/s");
    assert_eq!(unit("lugre", "z0"), "m");
    assert_eq!(unit("drum-maxwell-slip", "delta"), "rad");
    assert_eq!(unit("drum-dahl", "f0"), "N-m");
}

/// Every parameter a system declares reaches its executor: a request missing any parameter
/// without a default is rejected at that name, and defaults are filled in.
#[test]
fn missing_parameters_are_named_and_defaults_filled() {
    for s in systems() {
        let input = match s.inputs[0] {
            "grid" => fric_manifest::InputSpec::new(
                "grid",
                [
                    ("from", InputValue::from(0.0)),
                    ("to", InputValue::from(1.0)),
                    ("points", InputValue::from(2usize)),
                    ("scale", InputValue::from(fric_manifest::Scale::Linear)),
                ],
            ),
            "none" => fric_manifest::InputSpec::new("none", []),
            _ => fric_manifest::InputSpec::new(
                "sine",
                [
                    ("amplitude", InputValue::from(1.0)),
                    ("omega", InputValue::from(1.0)),
                    ("phase", InputValue::from(0.0)),
                    ("offset", InputValue::from(0.0)),
                ],
            ),
        };
        let sim = fric_manifest::SimSpec {
            t_end: Some(1.0),
            ..Default::default()
        };
        match resolve(s.name, &Default::default(), Some(&input), Some(&sim)) {
            Err(errs) => {
                for p in &s.params {
                    let named = errs
                        .iter()
                        .any(|e| e.message.contains(&format!("missing parameter `{}`", p.name)));
                    assert_eq!(named, p.default.is_none(), "{}.{}: {errs:?}", s.name, p.name);
                }
            }
            Ok(req) => {
                for p in &s.params {
                    assert_eq!(req.params[p.name], vec![p.default.unwrap()], "{}.{}", s.name, p.name);
                }
            }
        }
    }
}

/// A run over budget is invalid before it starts (the pipeline probe: `periods: 1e9` aborted the
/// process allocating 16 TB, `t_end: 1e300` overflowed a capacity).
#[test]
fn runs_over_budget_are_invalid_with_the_limit_named() {
    let sine = fric_manifest::InputSpec::new(
        "sine",
        [
            ("amplitude", InputValue::from(1.0)),
            ("omega", InputValue::from(1.0)),
            ("phase", InputValue::from(0.0)),
            ("offset", InputValue::from(0.0)),
        ],
    );
    let params = [("sigma", 1.0), ("fc", 1.0), ("gamma", 1.0)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), fric_manifest::ParamValue::Number(v)))
        .collect();
    let over = |sim: fric_manifest::SimSpec| {
        let errs = resolve("dahl", &params, Some(&sine), Some(&sim)).unwrap_err();
        assert!(errs.iter().all(|e| e.path == "sim"), "{errs:?}");
        errs.iter().map(|e| e.message.clone()).collect::<Vec<_>>().join("; ")
    };
    let msg = over(fric_manifest::SimSpec {
        periods: Some(1e9),
        ..Default::default()
    });
    assert!(
        msg.contains("2.000e12 samples") && msg.contains("limit is 5e6"),
        "{msg}"
    );
    assert!(msg.contains("1.000e9 input periods"), "{msg}");
    let msg = over(fric_manifest::SimSpec {
        t_end: Some(1e300),
        ..Default::default()
    });
    assert!(msg.contains("limit"), "{msg}");
    let msg = over(fric_manifest::SimSpec {
        periods: Some(500.0),
        samples_per_period: Some(100_000),
        ..Default::default()
    });
    assert!(msg.contains("5.000e7 samples"), "{msg}");
    // The largest run of the documents (6 periods × 60000 samples) is well inside.
    let ok = fric_manifest::SimSpec {
        periods: Some(6.0),
        samples_per_period: Some(60_000),
        ..Default::default()
    };
    assert!(resolve("dahl", &params, Some(&sine), Some(&ok)).is_ok());
}

/// A DRBM force-driven run's cost is its Switch Model steps, about 0.2 per τ of integrated time
/// (thesis Fig 3.9: 2.5·10^6 steps for two periods at ω = 0.001 rad/s, τ = 1e-3 s), not the
/// budget's default of samples plus 1000 steps per period (4.2·10^4), which scheduled Fig 3.9's
/// explanation chain after cheaper ones.
#[test]
fn a_drbm_force_driven_run_costs_its_switch_model_steps() {
    let (params, sine) = (fig3_9::params(0.01), fig3_9::sine);
    let sim = fric_manifest::SimSpec {
        periods: Some(2.0),
        samples_per_period: Some(20_000),
        ..Default::default()
    };
    let cost = |omega: f64| {
        let req = resolve("drbm-force-driven", &params, Some(&sine(omega)), Some(&sim)).unwrap();
        fric_experiments::cost(&req)
    };
    // The budget's 2 · 20 000 + 1 samples and 2 · 1000 steps, plus 0.2 · (2 · 2π/ω)/τ (derived).
    let want = |omega: f64| 40_001.0 + 2_000.0 + 0.2 * 2.0 * 2.0 * std::f64::consts::PI / omega / fig3_9::TAU;
    for omega in [0.001, 0.05] {
        assert!(
            (cost(omega) - want(omega)).abs() < 1e-6 * want(omega),
            "{} vs {}",
            cost(omega),
            want(omega)
        );
    }
    assert!(cost(0.001) > 2.5e6);
}

/// The pulled-spring group (`spring::PulledSpring`) takes `vp` of either sign (LuGre's rig may be
/// pulled backwards); the RBM and DRBM rigs, whose bristle lattice is laid out ahead of the body,
/// refuse `vp ≤ 0` at `params.vp`, as when `vp` was declared positive in each of them (`rbm-stick-slip-table`: its Table 3.2 start is for a first motion to the right).
#[test]
fn the_pulled_spring_takes_either_sign_but_the_bristle_rigs_are_pulled_forward() {
    let params = |pairs: &[(&str, f64)]| -> std::collections::BTreeMap<String, fric_manifest::ParamValue> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), fric_manifest::ParamValue::Number(*v)))
            .collect()
    };
    let row = [("kappa", 0.1), ("h", 0.0995), ("lb", 0.1), ("delta", 0.005), ("d", 0.5)];
    let sim = fric_manifest::SimSpec {
        t_end: Some(1.0),
        samples_per_period: Some(100),
        ..Default::default()
    };
    let none = fric_manifest::InputSpec::new("none", []);
    for (system, extra) in [
        ("rbm-stick-slip", vec![]),
        ("rbm-stick-slip-table", vec![]),
        ("drbm-stick-slip", vec![("eta", 1e-8), ("tau", 1e-3)]),
    ] {
        for vp in [0.002, -0.002, 0.0] {
            let mut p = vec![("m", 1.0), ("k_spring", 1.0), ("vp", vp)];
            p.extend(row);
            p.extend(extra.iter().cloned());
            let r = resolve(system, &params(&p), Some(&none), Some(&sim));
            if vp > 0.0 {
                assert!(r.is_ok(), "{system} vp = {vp}: {:?}", r.err());
            } else {
                let errs = r.unwrap_err();
                assert!(
                    errs.len() == 1 && errs[0].path == "params.vp" && errs[0].message.contains("pulled forward"),
                    "{system} vp = {vp}: {errs:?}"
                );
            }
        }
    }
    let lugre = [
        ("m", 1.0),
        ("k_spring", 2.0),
        ("vp", -0.1),
        ("sigma0", 1e5),
        ("sigma1", 316.0),
        ("sigma2", 0.4),
        ("fc", 1.0),
        ("fs", 1.5),
        ("vs", 0.001),
    ];
    let r = resolve("lugre-stick-slip", &params(&lugre), Some(&none), Some(&sim));
    assert!(r.is_ok(), "{:?}", r.err());
}
