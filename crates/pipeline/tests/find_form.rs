//! `find` as a manifest form (issue 50, item 2): where a metric reaches a level over one
//! parameter, every step a run, the result a metric that checks and captions use; the same at
//! any job count; and what is refused, at its line.

mod common;

use common::{diagnostics, evaluated, only_diagnostic, run_manifest, FIND, FIND_FILE as FILE};

#[test]
fn a_find_is_a_metric_for_checks_and_captions_the_same_at_any_job_count() {
    let fig = evaluated(FILE, FIND, 2);
    let m = &fig.metrics;
    let a3 = m["a3"].unwrap();
    assert!((a3 - 11.0 / 6.0).abs() <= 1e-9, "{a3}");
    let (lo, hi) = (m["a3.lo"].unwrap(), m["a3.hi"].unwrap());
    assert!(
        lo <= 11.0 / 6.0 + 1e-12 && 11.0 / 6.0 <= hi + 1e-12 && hi - lo <= 1e-9,
        "{lo} {hi}"
    );
    assert!((m["a3.metric_lo"].unwrap() - 3.0).abs() < 1e-8, "{m:?}");
    assert!(fig.checks.iter().all(|c| c.metric == "a3"), "{:?}", fig.checks);
    assert_eq!(fig.checks.len(), 1);
    assert!(fig.checks[0].pass, "{:?}", fig.checks[0]);
    assert!(fig.caption.contains("A = 1.83333 m"), "{}", fig.caption);
    assert_eq!(fig.metric_info["a3"].unit.as_deref(), Some("m"));
    assert_eq!(fig.metric_info["a3.metric_lo"].unit.as_deref(), Some("J"));
    // Another job count, an empty cache: the same steps and the same root.
    let n = &run_manifest(FILE, FIND, 1).report.experiments[0].metrics;
    assert_eq!((n["a3"], n["a3.evaluations"]), (m["a3"], m["a3.evaluations"]));
}

#[test]
fn a_bracket_without_a_crossing_is_an_error_of_the_metric_not_a_value() {
    let text = FIND.replace("bracket: [1, 3]", "bracket: [2, 3]");
    let s = run_manifest(FILE, &text, 2);
    let fig = &s.report.experiments[0];
    assert_eq!(fig.metrics["a3"], None);
    assert!(
        fig.errors
            .iter()
            .any(|e| e.contains("a3") && e.contains("no sign change")),
        "{:?}",
        fig.errors
    );
    assert!(!fig.checks[0].pass, "{:?}", fig.checks[0]);
}

/// The only diagnostic of the find manifest `text`: at `line`, with `message` and `allowed`.
fn one(text: &str, line: usize, message: &str, allowed: &str) {
    only_diagnostic(FILE, text, line, message, allowed);
}

#[test]
fn bad_finds_are_reported_at_their_line() {
    let cases: &[(&str, &str, usize, &str, &str)] = &[
        (
            "metric: area, level",
            "metric: aera, level",
            28,
            "unknown metric `aera`",
            "area_sw",
        ),
        (
            "metric: area, level",
            "metric: area_sw, level",
            28,
            "`area_sw` is a table over a sweep: a find needs one value per run",
            "not swept",
        ),
        (
            "{name: a3, run: ms,",
            "{name: a3, run: sw,",
            28,
            "run `sw` is swept: a find varies one run",
            "not swept",
        ),
        (
            "{name: a3, run: ms,",
            "{name: a3, run: mz,",
            28,
            "unknown run `mz`",
            "ms",
        ),
        (
            "bracket: [1, 3]",
            "bracket: [3, 3]",
            28,
            "bracket [3, 3]: two distinct finite values",
            "a ≠ b",
        ),
        (
            "tol: 1.0e-9,",
            "tol: -1,",
            28,
            "tol -1 is not a positive number",
            "positive",
        ),
        (
            "ms, param: input.amplitude",
            "ms, param: kk",
            28,
            "kk = 1 (an end of the bracket): run `ms`: `kk` is not a parameter of `maxwell-slip`",
            "accepts",
        ),
        (
            "metric: a3\n",
            "metric: a3.width\n",
            30,
            "unknown metric `a3.width`",
            "a3 (or a3.lo",
        ),
    ];
    for (from, to, line, message, allowed) in cases {
        assert!(FIND.contains(from), "{from}");
        one(&FIND.replacen(from, to, 1), *line, message, allowed);
    }
}

#[test]
fn a_find_named_like_a_metric_is_refused_at_its_line() {
    let text = FIND.replacen("{name: a3,", "{name: area,", 1);
    let d = diagnostics(FILE, &text);
    let msg = "find name `area` is empty, taken by a metric or find, or has [ ] .";
    assert!(d.iter().any(|d| d.line == 28 && d.message == msg), "{d:#?}");
}
