//! One file adds a toy kind of each declared kind — a metric kind, an input kind, a method and a
//! series style — from outside their registries' files, and each is seen everywhere the
//! project's own are: in what `schema` prints, in the JSON Schema, by the loader (refused at its
//! line before it is registered, checked by its declaration after), and in a run (a metric
//! evaluated, a run driven by the input or computed by the method, a figure drawn in the style,
//! SVG and PGFPlots). Its own test binary: registering changes the process-wide registries that
//! tests/kinds.rs compares with the committed schema. Each kind has a registry of its own, so
//! the four tests do not see each other's toys.

mod common;

/// A kind added from outside the registry's file is seen everywhere the project's own kinds are: a
/// toy metric kind, declared and registered here, appears in what `schema` prints, in the JSON
/// Schema, passes the loader and is evaluated in a run.
mod metric {
    use crate::common::{workspace, DAHL};
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
        let text = crate::common::unchecked(&format!(
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
        let e = crate::common::evaluated("thesis/fig9.1.yaml", &text, 1);
        let v = |n: &str| e.metrics[n].unwrap();
        assert_eq!(v("span"), v("fmax") - v("fmin"));
        assert!(v("span") > 2.9, "{}", v("span"));
    }
}

/// An input kind added from outside the registry's file is seen everywhere the project's own kinds
/// are: a toy input kind, declared and registered here in one file, appears in what `schema`
/// prints, in the JSON Schema, passes the loader and drives a run.
mod input {
    use crate::common::{workspace, DAHL};
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
        let text = crate::common::unchecked(&format!(
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
        let e = crate::common::evaluated("thesis/fig9.1.yaml", &text, 1);
        let v = |n: &str| e.metrics[n].unwrap();
        assert!((v("umax") - 10.0).abs() < 1e-9, "{}", v("umax"));
        assert!(v("umin").abs() < 1e-9, "{}", v("umin"));
    }
}

/// A method added from outside the registry's file is seen everywhere the project's own methods
/// are: a toy method, declared and registered here in one file for the system `dahl`, appears in
/// what `schema` prints, in the JSON Schema, passes the loader and computes a run by what its
/// declaration says.
mod method {
    use crate::common::{workspace, DAHL};
    use fric_experiments::methods::{self, How, Method, MethodDecl, Ode};

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
        crate::common::unchecked(&format!(
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
        assert!(methods::all().iter().any(|m| m.name() == "toy-stepper"));
        let schema: serde_json::Value =
            serde_json::from_str(&fric_pipeline::evaluate::metric_kinds::json_schema()).unwrap();
        let alts = schema["$defs"]["Method"]["oneOf"].as_array().unwrap();
        assert!(alts.iter().any(|a| a["const"] == "toy-stepper"), "{alts:?}");
        // Another system does not take it.
        assert!(!fric_experiments::system("lugre")
            .unwrap()
            .all_methods()
            .contains(&Method::Registered(&TOY)));

        // A run: computed by the declaration's solver at its tolerances, so it steps in time and
        // equals the run by `ode` (the same solver and tolerances) to the bit.
        let e = crate::common::evaluated("thesis/fig9.1.yaml", &text, 1);
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
        // The loader resolved each name once into the method the request carries: the project's
        // `ode` its variant, the toy the registered declaration itself.
        assert!(matches!(toy.request.method, Method::Registered(d) if std::ptr::eq(d, &TOY)));
        assert!(matches!(ode.request.method, Method::Ode));
        assert_eq!(
            toy.key,
            fric_pipeline::run_key_by(&toy.request, Some(Method::Registered(&TOY)))
        );
        assert_ne!(
            toy.key,
            fric_pipeline::run_key_by(&toy.request, Some(Method::Registered(&OTHER)))
        );
        assert_ne!(toy.key, fric_pipeline::run_key_by(&toy.request, None));
        assert_eq!(ode.key, fric_pipeline::run_key_by(&ode.request, None));
    }
}

/// A series style added from outside the registry's file is seen everywhere the project's own
/// styles are: a toy style, declared and registered here in one file, appears in what `schema`
/// prints, in the JSON Schema, is checked by the loader by its declaration, and a figure drawn in
/// it carries its pattern in the SVG and in the PGFPlots file.
mod style {
    use crate::common::{workspace, DAHL};
    use fric_manifest::SeriesSpec;
    use fric_plot::style::{self, Ink, Keep, KindDoc, Problem, Source, StyleDef, MARKER_SIZE};

    /// `toy-zigzag`: a 12 px dash and two 2 px dots, 2 px apart, that must carry a label.
    static TOY: StyleDef = StyleDef {
        doc: KindDoc {
            name: "toy-zigzag",
            doc: "a 12 px dash and two 2 px dots (a toy style of the tests)",
            fields: &[],
            example: "{run: dahl, x: u, y: F, style: toy-zigzag, label: toy}",
        },
        ink: Ink::Line {
            dash: &[12.0, 2.0, 2.0, 2.0, 2.0, 2.0],
        },
        keep: Keep::Line,
        source: Source::Run,
        check: Some(needs_label),
    };

    fn needs_label(s: &SeriesSpec) -> Vec<Problem> {
        match s.label {
            Some(_) => vec![],
            None => vec![Problem::new("", "a toy-zigzag series needs a label", "label: <text>")],
        }
    }

    /// A style declaring a field no series has: refused.
    static BAD: StyleDef = StyleDef {
        doc: KindDoc {
            name: "toy-bad",
            fields: &[style::FieldDoc {
                name: "wiggle",
                ..MARKER_SIZE
            }],
            ..TOY.doc
        },
        ink: Ink::Band,
        keep: Keep::Band,
        source: Source::Run,
        check: None,
    };

    /// The test figure with its series in `style`, labelled or not.
    fn manifest(style: &str, label: bool) -> String {
        let series = "{run: dahl, x: u, y: F, window: {periods: [1, 2]}, label: LABEL}";
        let with = if label {
            format!("{{run: dahl, x: u, y: F, window: {{periods: [1, 2]}}, label: toy, style: {style}}}")
        } else {
            format!("{{run: dahl, x: u, y: F, window: {{periods: [1, 2]}}, style: {style}}}")
        };
        DAHL.replace(series, &with)
    }

    /// The line of `text` holding `needle`, 1-based.
    fn line_of(text: &str, needle: &str) -> usize {
        1 + text.lines().position(|l| l.contains(needle)).unwrap()
    }

    #[test]
    fn a_registered_toy_style_is_in_schema_the_json_schema_the_loader_and_both_drawings() {
        let text = manifest("toy-zigzag", true);
        // Unknown before it is registered: the loader refuses it at its line, listing the styles.
        assert!(style::find("toy-zigzag").is_none());
        let ws = workspace(&[("thesis/fig9.1.yaml", &text)]);
        let loaded = fric_pipeline::load(ws.path());
        assert_eq!(loaded.invalid.len(), 1);
        let d = &loaded.invalid[0].diagnostics[0];
        assert!(d.message.contains("unknown style `toy-zigzag`"), "{d:?}");
        assert!(d.allowed.contains("dash-dot-dot"), "{d:?}");
        assert_eq!(d.line, line_of(&text, "style: toy-zigzag"), "{d:?}");

        assert!(style::register(&BAD).unwrap_err().contains("`wiggle`"));
        style::register(&TOY).unwrap();
        assert!(style::register(&TOY).is_err(), "a name is registered once");
        assert!(style::register(style::DASHED).is_err(), "the project's names are taken");
        // What `schema` prints (the style declarations), and the JSON Schema.
        let doc = style::docs().into_iter().find(|k| k.name == "toy-zigzag").unwrap();
        assert_eq!(doc.example, TOY.doc.example);
        assert!(style::names().ends_with("band, toy-zigzag"), "{}", style::names());
        let schema: serde_json::Value =
            serde_json::from_str(&fric_pipeline::evaluate::metric_kinds::json_schema()).unwrap();
        let alts = schema["$defs"]["Style"]["oneOf"].as_array().unwrap();
        assert!(alts.iter().any(|a| a["const"] == "toy-zigzag"), "{alts:?}");
        assert_eq!(alts.len(), style::STYLES.len() + 1);

        // The loader checks a series by the declaration: the toy's own check, and a field it does
        // not take (`marker_size`), each at its line.
        let unlabelled = manifest("toy-zigzag", false);
        let ws = workspace(&[("thesis/fig9.1.yaml", &unlabelled)]);
        let loaded = fric_pipeline::load(ws.path());
        assert_eq!(loaded.invalid.len(), 1);
        let d = &loaded.invalid[0].diagnostics;
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].message, "a toy-zigzag series needs a label");
        assert_eq!(d[0].line, line_of(&unlabelled, "style: toy-zigzag"), "{d:?}");
        let sized = text.replace("style: toy-zigzag", "style: toy-zigzag, marker_size: 2");
        let ws = workspace(&[("thesis/fig9.1.yaml", &sized)]);
        let d = &fric_pipeline::load(ws.path()).invalid[0].diagnostics;
        assert_eq!(
            d[0].message,
            "`marker_size` on style `toy-zigzag`, which does not take it: it would be ignored"
        );
        assert_eq!(d[0].allowed, "marker_size only with style points, circles or published");

        // A figure drawn in it: the SVG's series is the toy's, dashed in its pattern (stretched
        // to end on a dash: the ratios kept), and the PGFPlots file draws the same pattern in pt.
        let ws = workspace(&[("thesis/fig9.1.yaml", &text)]);
        let mut o = fric_pipeline::Options::new(ws.path());
        o.jobs = Some(2);
        let s = fric_pipeline::run(&o).unwrap();
        assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
        let figures = ws.path().join("figures/thesis");
        let svg = std::fs::read_to_string(figures.join("fig9.1.svg")).unwrap();
        let at = svg
            .find(r#"data-style="toy-zigzag""#)
            .expect("the series is drawn in the toy style");
        let dash: Vec<f64> = svg[at..]
            .split("stroke-dasharray=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .expect("a dashed path")
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(dash.len(), 6, "{dash:?}");
        for (d, want) in dash.iter().zip([12.0, 2.0, 2.0, 2.0, 2.0, 2.0]) {
            assert!((d / dash[1] - want / 2.0).abs() < 0.02 * want, "{dash:?}");
        }
        let pgf = std::fs::read_to_string(figures.join("fig9.1.pgf.tex")).unwrap();
        assert!(
            pgf.contains("thick, mark=none, dash pattern=on 6pt off 1pt on 1pt off 1pt on 1pt off 1pt"),
            "{pgf}"
        );
    }
}
