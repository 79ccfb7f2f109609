//! Nothing passes on nothing: a metric that was never computed (a maximum over a window whose
//! samples are all NaN is −inf) is an error for every check on it, named in the manifest's
//! errors, and `bless` refuses to write it into the baseline.

mod common;

use common::{workspace, DAHL};
use fric_pipeline::{metrics, run, Options};
use fric_report::Outcome;

/// fig9.1 with a post-processed column that is NaN everywhere (a gate no sample passes) and
/// three metrics over it, each with a check a non-finite value would "meet".
fn gated() -> String {
    let head = &DAHL[..DAHL.find("panels:").unwrap()];
    let head = head.replace(
        "    sim: {periods: 2, samples_per_period: 400}\n",
        "    sim: {periods: 2, samples_per_period: 400}\n    post: [{name: a, op: gate, of: F, by: u, param: -1}]\n",
    );
    let rest = &DAHL[DAHL.find("panels:").unwrap()..DAHL.find("metrics:").unwrap()];
    format!(
        "{head}{rest}metrics:\n  \
         - {{name: m, kind: max, run: dahl, y: a, window: all}}\n  \
         - {{name: lo, kind: min, run: dahl, y: a, window: all}}\n  \
         - {{name: mabs, kind: max-abs, run: dahl, y: a, window: all}}\n\
         checks:\n  \
         - {{metric: m, op: lt, expected: 1.0e9, provenance: {{derived: x}}}}\n  \
         - {{metric: lo, op: gt, expected: -1.0e9, provenance: {{derived: x}}}}\n  \
         - {{metric: mabs, op: gt, expected: 1, provenance: {{derived: x}}}}\n"
    )
}

#[test]
fn a_metric_that_is_not_finite_is_an_error_for_every_check_and_is_not_blessed() {
    let ws = workspace(&[("thesis/fig9.1.yaml", &gated())]);
    let root = ws.path();
    let mut o = Options::new(root);
    o.jobs = Some(2);
    let s = run(&o).unwrap();
    assert!(s.invalid.is_empty(), "{:?}", s.invalid);
    assert_eq!(s.count(Outcome::Pass), 0);
    assert_eq!(s.count(Outcome::Error), 3);
    assert!(!s.ok());
    let e = &s.report.experiments[0];
    for name in ["m", "lo", "mabs"] {
        assert_eq!(e.metrics.get(name), Some(&None), "{name}: {:?}", e.metrics);
        assert!(
            e.errors
                .iter()
                .any(|x| x.contains(&format!("`{name}`")) && x.contains("not computed")),
            "{name}: {:?}",
            e.errors
        );
    }
    // The tidy metrics file has no `-inf` and the baseline is not written.
    let csv = std::fs::read_to_string(root.join("figures/metrics.csv")).unwrap();
    assert!(!csv.contains("inf"), "{csv}");
    let err = metrics::bless(root, &s).unwrap_err();
    assert!(err.contains("`m`") && err.contains("not computed"), "{err}");
    assert!(!root.join(metrics::BASELINE).exists());
}
