//! Companion figures (`related: companion-of`) redrawn one at a time: when one figure of a group
//! changes and its companion is current, the figure is drawn again with the companion's runs
//! read from the run cache (never recomputed, the companion not evaluated again), and the
//! group's axes still share their units.

mod common;

use common::{workspace, DAHL};
use fric_pipeline::{run, Options};

/// Figure 9.3: the Dahl loop of [`DAHL`] (its own run: more samples per period, so its key
/// differs from Figure 9.1's) with F drawn in thousandths, which alone would be labelled mN;
/// Figure 9.1 (F in N) is its companion. `caption` is its caption and its series' label. It has
/// no check, so it is `partial`.
fn companion(caption: &str) -> String {
    let run = &DAHL[..DAHL.find("panels:").unwrap()]
        .replace("id: thesis/fig9.1", "id: thesis/fig9.3")
        .replace("caption: \"test figure\"", &format!("caption: \"{caption}\""))
        .replace("samples_per_period: 400", "samples_per_period: 800");
    common::unchecked(&format!(
        "{run}{}",
        r#"    post:
      - {name: F_small, op: scale, of: F, param: 0.001}
panels:
  - id: a
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F_small, window: {periods: [1, 2]}, label: LABEL}
related:
  - {id: thesis/fig9.1, relation: companion-of}
"#
        .replace("LABEL", caption)
    ))
}

/// The force axis labels (`F [...]`) of a drawn figure.
fn force_labels(root: &std::path::Path, id: &str) -> Vec<String> {
    let svg = std::fs::read_to_string(root.join(format!("figures/{id}.svg"))).unwrap();
    svg.split("<text")
        .skip(1)
        .map(|t| {
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            let (mut out, mut tag) = (String::new(), false);
            for c in body.chars() {
                match c {
                    '<' => tag = true,
                    '>' => tag = false,
                    c if !tag => out.push(c),
                    _ => {}
                }
            }
            out
        })
        .filter(|t| t.starts_with("F ["))
        .collect()
}

/// The errors of every manifest of a run's report.
fn errors(s: &fric_pipeline::Summary) -> Vec<String> {
    s.report
        .experiments
        .iter()
        .flat_map(|e| e.errors.iter().map(move |m| format!("{}: {m}", e.id)))
        .collect()
}

/// Both figures drawn, then Figure 9.3's caption and legend edited: a second run (all manifests, then
/// Figure 9.3 alone) redraws only it, reads Figure 9.1's run from the cache, and draws its
/// force in N as its companion's (it failed with "companion `thesis/fig9.1`: run `dahl`
/// failed: not computed" when a companion's runs were read only when it was evaluated).
#[test]
fn one_figure_of_a_group_redrawn_with_its_companion_current() {
    let ws = workspace(&[
        ("thesis/fig9.1.yaml", DAHL),
        ("thesis/fig9.3.yaml", &companion("first")),
    ]);
    let root = ws.path();
    let first = run(&Options::new(root)).unwrap();
    assert!(errors(&first).is_empty(), "{:?}", errors(&first));
    assert_eq!(first.figures_drawn, 2);
    assert_eq!(first.runs_computed, 2, "two distinct runs");
    for (caption, only) in [("second", vec![]), ("third", vec!["thesis/fig9.3".to_string()])] {
        std::fs::write(root.join("experiments/thesis/fig9.3.yaml"), companion(caption)).unwrap();
        let mut o = Options::new(root);
        o.only = only;
        let s = run(&o).unwrap();
        assert!(errors(&s).is_empty(), "caption `{caption}`: {:?}", errors(&s));
        assert_eq!(
            s.figures_drawn, 1,
            "caption `{caption}`: only the edited figure is drawn"
        );
        assert_eq!(
            (s.runs_computed, s.runs_cached),
            (0, 2),
            "caption `{caption}`: the companion's run is read from the cache"
        );
        assert_eq!(
            force_labels(root, "thesis/fig9.3"),
            vec!["F [N]"],
            "the companion's units"
        );
        assert_eq!(force_labels(root, "thesis/fig9.1"), vec!["F [N]"]);
    }
}
