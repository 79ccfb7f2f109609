//! The terminal table of the checks that are not a plain pass.

use crate::checks::{CheckReport, Outcome};
use crate::experiment::Report;
use fric_manifest::Op;

/// Failures first, then errors, known discrepancies and unexpected passes.
fn rank(o: Outcome) -> u8 {
    match o {
        Outcome::Fail => 0,
        Outcome::Error => 1,
        Outcome::KnownDiscrepancy => 2,
        Outcome::UnexpectedPass => 3,
        Outcome::Pass | Outcome::Transcribed => 4,
    }
}

/// The number of digits after the point (at least `min`) that prints `a` and `b` differently in
/// scientific notation when they differ (16, i.e. 17 significant digits, tells any two apart).
fn precision(a: f64, b: f64, min: usize) -> usize {
    (min..16)
        .find(|p| a == b || format!("{a:.p$e}") != format!("{b:.p$e}"))
        .unwrap_or(16)
}

/// `a` and `b` with the digits that tell them apart, at least `min + 1` significant ones.
fn distinct(a: f64, b: f64, min: usize) -> (String, String) {
    let p = precision(a, b, min);
    (format!("{a:.p$e}"), format!("{b:.p$e}"))
}

/// The cells of one row: outcome, check, computed, expected, deviation, relative deviation,
/// tolerance, where.
fn row(id: &str, c: &CheckReport) -> [String; 8] {
    let op = match c.op {
        Op::Lt => "< ",
        Op::Gt => "> ",
        Op::Within => "",
    };
    let dash = || "-".to_string();
    let (computed, expected, dev, rel, tol) = match c.computed.filter(|v| !v.is_nan()) {
        None => (
            c.computed.map_or("--".into(), |_| "NaN".into()),
            format!("{:.6e}", c.expected),
            dash(),
            dash(),
            c.tolerance.map_or_else(dash, |t| format!("{t:.2e}")),
        ),
        Some(v) => {
            let (computed, expected) = distinct(v, c.expected, 6);
            let d = v - c.expected;
            // The deviation is judged against the tolerance: print both until they differ.
            let (dev, tol) = match c.tolerance {
                Some(t) => {
                    let p = precision(d.abs(), t, 2);
                    (format!("{d:+.p$e}"), format!("{t:.p$e}"))
                }
                None => (format!("{d:+.2e}"), dash()),
            };
            let rel = if c.expected != 0.0 {
                format!("{:+.2e}", d / c.expected.abs())
            } else {
                dash()
            };
            (computed, expected, dev, rel, tol)
        }
    };
    [
        c.outcome.as_str().to_string(),
        c.metric.clone(),
        computed,
        format!("{op}{expected}"),
        dev,
        rel,
        tol,
        c.location.clone().unwrap_or_else(|| id.to_string()),
    ]
}

/// The failures (and, with `include_known`, known discrepancies) as a plain-text table for the
/// terminal: failures first, then errors, known discrepancies and unexpected passes. Each row
/// shows computed and expected with enough digits to tell them apart, the deviation (absolute and
/// relative to |expected|), the tolerance, and where the check is written (`file:line`, or the
/// manifest id for reports written before locations were recorded).
pub fn failures_table(r: &Report, include_known: bool) -> String {
    let mut rows: Vec<(u8, [String; 8])> = Vec::new();
    for e in &r.experiments {
        for c in &e.checks {
            if c.outcome.is_failure() || (include_known && c.outcome == Outcome::KnownDiscrepancy) {
                rows.push((rank(c.outcome), row(&e.id, c)));
            }
        }
    }
    if rows.is_empty() {
        return String::new();
    }
    rows.sort_by_key(|(k, _)| *k);
    let header = [
        "outcome",
        "check",
        "computed",
        "expected",
        "deviation",
        "relative",
        "tol",
        "manifest",
    ]
    .map(String::from);
    let mut w = [0usize; 8];
    for r in std::iter::once(&header).chain(rows.iter().map(|(_, r)| r)) {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |r: &[String; 8]| {
        r.iter()
            .enumerate()
            .map(|(i, c)| format!("{c:<width$}", width = w[i]))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut out = line(&header);
    out.push('\n');
    out.push_str(&w.iter().map(|n| "-".repeat(*n)).collect::<Vec<_>>().join("  "));
    for (_, r) in &rows {
        out.push('\n');
        out.push_str(&line(r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::ExperimentReport;

    fn check(metric: &str, computed: f64, expected: f64, tol: f64, outcome: Outcome) -> CheckReport {
        CheckReport {
            metric: metric.into(),
            op: Op::Within,
            computed: Some(computed),
            expected,
            tolerance: Some(tol),
            provenance: "derived".into(),
            lines: vec![],
            basis: String::new(),
            outcome,
            pass: false,
            known_discrepancy: None,
            discrepancy: None,
            note: None,
            location: Some(format!("experiments/thesis/fig9.1.yaml:{}", 10 + metric.len())),
            sensitivity: None,
            explained_by: vec![],
            tolerance_reason: None,
        }
    }

    fn report(checks: Vec<CheckReport>) -> Report {
        Report {
            experiments: vec![ExperimentReport {
                id: "thesis/fig9.1".into(),
                checks,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn values_that_differ_print_differently() {
        assert_eq!(
            distinct(3.312, 3.312000001, 6),
            ("3.312000000e0".into(), "3.312000001e0".into())
        );
        assert_eq!(distinct(1.5, 2.5, 6), ("1.500000e0".into(), "2.500000e0".into()));
        assert_eq!(distinct(0.1, 0.1, 6), ("1.000000e-1".into(), "1.000000e-1".into()));
        let (a, b) = distinct(1.0, 1.0 + f64::EPSILON, 6);
        assert_ne!(a, b);
    }

    #[test]
    fn failures_come_first_with_deviation_tolerance_and_location() {
        let r = report(vec![
            check("known", 1.0, 2.0, 0.1, Outcome::KnownDiscrepancy),
            check("unexpected", 2.0, 2.0, 0.1, Outcome::UnexpectedPass),
            CheckReport {
                computed: None,
                ..check("broken", 0.0, 1.0, 0.1, Outcome::Error)
            },
            check("area", 3.3120000001, 3.312, 1e-10 * 0.99, Outcome::Fail),
        ]);
        let t = failures_table(&r, true);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("outcome"), "{t}");
        let order: Vec<&str> = lines[2..].iter().map(|l| l.split("  ").next().unwrap()).collect();
        assert_eq!(order, ["FAIL", "ERROR", "known discrepancy", "UNEXPECTED PASS"], "{t}");
        let fail = lines[2];
        for cell in [
            "3.3120000001e0",
            "3.3120000000e0",
            "+1.00e-10",
            "+3.02e-11",
            "9.90e-11",
            "experiments/thesis/fig9.1.yaml:14",
        ] {
            assert!(fail.contains(cell), "`{cell}` missing in\n{t}");
        }
        assert!(
            lines[3].contains("--") && lines[3].contains("experiments/thesis/fig9.1.yaml:16"),
            "{t}"
        );
        assert_eq!(
            failures_table(&r, false).lines().count(),
            5,
            "known discrepancies left out"
        );
    }

    #[test]
    fn deviation_and_tolerance_print_differently_when_they_differ() {
        let t = failures_table(&report(vec![check("x", 1.0500001, 1.0, 0.05, Outcome::Fail)]), false);
        let row = t.lines().nth(2).unwrap();
        assert!(row.contains("+5.00001e-2") && row.contains(" 5.00000e-2"), "{t}");
    }

    #[test]
    fn reports_without_locations_name_the_manifest() {
        let c = CheckReport {
            location: None,
            ..check("x", 1.0, 2.0, 0.1, Outcome::Fail)
        };
        assert!(failures_table(&report(vec![c]), false).contains("thesis/fig9.1"));
    }
}
