//! A series style added from outside the registry's file is seen everywhere the project's own
//! styles are: a toy style, declared and registered here in one file, appears in what `schema`
//! prints, in the JSON Schema, is checked by the loader by its declaration, and a figure drawn
//! in it carries its pattern in the SVG and in the PGFPlots file. (Its own test binary:
//! registering changes the process-wide registry that tests/kinds.rs compares with the committed
//! schema.)

mod common;

use common::{workspace, DAHL};
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
