//! Every metric as one tidy row, the text form of the tidy file and of the committed baseline
//! (CSV), comparison against a baseline with a per-metric tolerance, and the table of what moved.
//!
//! Values are written with Rust's shortest round-trip formatting (`{:?}`), so a value read back
//! from the CSV is bit-identical to the one written.

use crate::experiment::{Report, Tolerance};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The default baseline tolerance, relative to the baseline value.
///
/// Every number is deterministic on one machine (fixed-order sums, no threads inside a run),
/// but a different CPU, libm or compiler may change the last bits of a transcendental
/// function or fuse a multiply-add; those differences are ~1e-16 relative per operation and
/// stay far below 1e-9 after the ~1e4–1e6 operations behind a metric. A real change of a
/// parameter or a method moves a metric by far more.
pub const DEFAULT_REL: f64 = 1e-9;
/// The default absolute tolerance: for metrics whose baseline value is (nearly) zero, where the
/// relative bound means nothing (a cancelled sum such as a loop area of 1e-17).
pub const DEFAULT_ABS: f64 = 1e-12;

/// The columns of the tidy metrics file and of the baseline, in order.
pub const COLUMNS: [&str; 6] = ["document", "experiment", "metric", "sweep", "value", "unit"];

/// One metric of one experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricRow {
    pub document: String,
    /// The manifest id, `<doc>/<name>`.
    pub experiment: String,
    pub metric: String,
    /// Sweep coordinates of the run the metric reads (`input.omega=2`); `None` outside sweeps.
    pub sweep: Option<String>,
    /// `None` when the metric could not be computed.
    pub value: Option<f64>,
    /// `None` where the manifest gives no unit.
    pub unit: Option<String>,
}

/// The rows of every metric in the report, sorted by experiment and metric.
pub fn rows(report: &Report) -> Vec<MetricRow> {
    let mut out = Vec::new();
    for e in &report.experiments {
        for (name, value) in &e.metrics {
            let info = e.metric_info.get(name);
            out.push(MetricRow {
                document: e.id.split('/').next().unwrap_or("").to_string(),
                experiment: e.id.clone(),
                metric: name.clone(),
                sweep: info.and_then(|i| i.sweep.clone()),
                value: *value,
                unit: info.and_then(|i| i.unit.clone()),
            });
        }
    }
    out.sort_by(|a, b| (&a.experiment, &a.metric).cmp(&(&b.experiment, &b.metric)));
    out
}

/// The baseline tolerance of every metric that declares one.
pub fn tolerances(report: &Report) -> BTreeMap<(String, String), Tolerance> {
    let mut out = BTreeMap::new();
    for e in &report.experiments {
        for (name, info) in &e.metric_info {
            if let Some(t) = info.baseline_tol {
                out.insert((e.id.clone(), name.clone()), t);
            }
        }
    }
    out
}

/// A CSV field, quoted when it needs to be (RFC 4180).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A value in shortest round-trip form; empty when missing.
pub fn value_text(v: Option<f64>) -> String {
    v.map(|v| format!("{v:?}")).unwrap_or_default()
}

/// The rows as CSV text with a header (the tidy file and the baseline).
pub fn to_csv(rows: &[MetricRow]) -> String {
    let mut s = COLUMNS.join(",");
    s.push('\n');
    for r in rows {
        let cells = [
            field(&r.document),
            field(&r.experiment),
            field(&r.metric),
            field(r.sweep.as_deref().unwrap_or("")),
            value_text(r.value),
            field(r.unit.as_deref().unwrap_or("")),
        ];
        s.push_str(&cells.join(","));
        s.push('\n');
    }
    s
}

/// Split one CSV record into fields (quotes as written by [`to_csv`]).
fn split(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (false, ',') => out.push(std::mem::take(&mut cur)),
            (false, '"') if cur.is_empty() => quoted = true,
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cur.push('"');
            }
            (true, '"') => quoted = false,
            (_, c) => cur.push(c),
        }
    }
    if quoted {
        return Err("unterminated quote".into());
    }
    out.push(cur);
    Ok(out)
}

/// Read CSV text written by [`to_csv`] (header checked; errors name the line).
pub fn from_csv(text: &str) -> Result<Vec<MetricRow>, String> {
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, l)| l).unwrap_or("");
    if header != COLUMNS.join(",") {
        return Err(format!("line 1: expected the header `{}`", COLUMNS.join(",")));
    }
    let opt = |s: String| (!s.is_empty()).then_some(s);
    let mut out = Vec::new();
    for (i, line) in lines {
        if line.is_empty() {
            continue;
        }
        let f = split(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        let Ok::<[String; 6], _>([document, experiment, metric, sweep, value, unit]) = f.try_into() else {
            return Err(format!("line {}: expected {} fields", i + 1, COLUMNS.len()));
        };
        let value = match value.as_str() {
            "" => None,
            v => Some(
                v.parse::<f64>()
                    .map_err(|_| format!("line {}: `{v}` is not a number", i + 1))?,
            ),
        };
        out.push(MetricRow {
            document,
            experiment,
            metric,
            sweep: opt(sweep),
            value,
            unit: opt(unit),
        });
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChangeKind {
    /// In both, with values further apart than the tolerance (or computed in one only).
    Moved,
    /// Not in the baseline.
    New,
    /// In the baseline only.
    Removed,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Moved => "moved",
            ChangeKind::New => "new",
            ChangeKind::Removed => "removed",
        }
    }
}

/// A metric that differs from the baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub kind: ChangeKind,
    pub experiment: String,
    pub metric: String,
    pub sweep: Option<String>,
    pub old: Option<f64>,
    pub new: Option<f64>,
    pub unit: Option<String>,
    /// The allowed deviation that was exceeded (moved metrics).
    pub allowed: Option<f64>,
}

/// The deviation `tol` allows from the baseline value `old` (defaults where it gives none).
pub fn allowed(tol: Option<&Tolerance>, old: f64) -> f64 {
    let abs = tol.and_then(|t| t.abs).unwrap_or(DEFAULT_ABS);
    let rel = tol.and_then(|t| t.rel).unwrap_or(DEFAULT_REL);
    abs.max(rel * old.abs())
}

/// Whether two values are the same within the allowed deviation (two NaN are the same; a
/// missing value equals only a missing value).
fn same(old: Option<f64>, new: Option<f64>, allowed: f64) -> bool {
    match (old, new) {
        (None, None) => true,
        (Some(a), Some(b)) if a.is_nan() || b.is_nan() => a.is_nan() && b.is_nan(),
        (Some(a), Some(b)) if a.is_infinite() || b.is_infinite() => a == b,
        (Some(a), Some(b)) => (a - b).abs() <= allowed,
        _ => false,
    }
}

/// What moved from `baseline` to `current`, for the experiments `in_scope` accepts, sorted by
/// experiment and metric. The tolerance of a metric is the one `current` declares
/// ([`tolerances`]), else the default.
pub fn compare(
    baseline: &[MetricRow],
    current: &[MetricRow],
    tols: &BTreeMap<(String, String), Tolerance>,
    in_scope: &dyn Fn(&str) -> bool,
) -> Vec<Change> {
    let key = |r: &MetricRow| (r.experiment.clone(), r.metric.clone());
    let old: BTreeMap<_, _> = baseline
        .iter()
        .filter(|r| in_scope(&r.experiment))
        .map(|r| (key(r), r))
        .collect();
    let new: BTreeMap<_, _> = current
        .iter()
        .filter(|r| in_scope(&r.experiment))
        .map(|r| (key(r), r))
        .collect();
    let mut out = Vec::new();
    for (k, n) in &new {
        let change = |kind, old: Option<f64>, allowed| Change {
            kind,
            experiment: n.experiment.clone(),
            metric: n.metric.clone(),
            sweep: n.sweep.clone(),
            old,
            new: n.value,
            unit: n.unit.clone(),
            allowed,
        };
        match old.get(k) {
            None => out.push(change(ChangeKind::New, None, None)),
            Some(o) => {
                let a = allowed(tols.get(k), o.value.unwrap_or(0.0));
                if !same(o.value, n.value, a) {
                    out.push(change(ChangeKind::Moved, o.value, Some(a)));
                }
            }
        }
    }
    for (k, o) in &old {
        if !new.contains_key(k) {
            out.push(Change {
                kind: ChangeKind::Removed,
                experiment: o.experiment.clone(),
                metric: o.metric.clone(),
                sweep: o.sweep.clone(),
                old: o.value,
                new: None,
                unit: o.unit.clone(),
                allowed: None,
            });
        }
    }
    out.sort_by(|a, b| (&a.experiment, &a.metric).cmp(&(&b.experiment, &b.metric)));
    out
}

/// `rows` with the rows of the experiments `in_scope` accepts replaced by those of `current`
/// (what blessing a selection writes), sorted.
pub fn merge(baseline: &[MetricRow], current: &[MetricRow], in_scope: &dyn Fn(&str) -> bool) -> Vec<MetricRow> {
    let mut out: Vec<MetricRow> = baseline.iter().filter(|r| !in_scope(&r.experiment)).cloned().collect();
    out.extend(current.iter().filter(|r| in_scope(&r.experiment)).cloned());
    out.sort_by(|a, b| (&a.experiment, &a.metric).cmp(&(&b.experiment, &b.metric)));
    out
}

/// The relative change `(new − old)/|old|`, as text.
fn relative(c: &Change) -> String {
    match (c.old, c.new) {
        (Some(o), Some(n)) if o != 0.0 && o.is_finite() && n.is_finite() => {
            format!("{:+.3e}", (n - o) / o.abs())
        }
        _ => "-".into(),
    }
}

/// The changes as a plain-text table (empty when there are none).
pub fn diff_table(changes: &[Change]) -> String {
    if changes.is_empty() {
        return String::new();
    }
    let head = [
        "change",
        "experiment",
        "metric",
        "sweep",
        "old",
        "new",
        "rel. change",
        "unit",
    ];
    let cells: Vec<[String; 8]> = changes
        .iter()
        .map(|c| {
            [
                c.kind.as_str().to_string(),
                c.experiment.clone(),
                c.metric.clone(),
                c.sweep.clone().unwrap_or_else(|| "-".into()),
                if c.kind == ChangeKind::New {
                    "-".into()
                } else {
                    value_or_dash(c.old)
                },
                if c.kind == ChangeKind::Removed {
                    "-".into()
                } else {
                    value_or_dash(c.new)
                },
                relative(c),
                c.unit.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let mut w = head.map(|h| h.chars().count());
    for row in &cells {
        for (w, c) in w.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    let line = |s: &mut String, row: &[String]| {
        let parts: Vec<String> = row.iter().zip(w).map(|(c, w)| format!("{c:<w$}")).collect();
        let _ = writeln!(s, "{}", parts.join("  ").trim_end());
    };
    line(&mut s, &head.map(String::from));
    line(&mut s, &w.map(|w| "-".repeat(w)));
    for row in &cells {
        line(&mut s, row);
    }
    s
}

fn value_or_dash(v: Option<f64>) -> String {
    v.map(|v| format!("{v:?}")).unwrap_or_else(|| "(not computed)".into())
}

/// One line counting the changes by kind: `2 moved, 1 new, 0 removed`.
pub fn counts(changes: &[Change]) -> String {
    let n = |k| changes.iter().filter(|c| c.kind == k).count();
    format!(
        "{} moved, {} new, {} removed",
        n(ChangeKind::Moved),
        n(ChangeKind::New),
        n(ChangeKind::Removed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(exp: &str, metric: &str, value: Option<f64>) -> MetricRow {
        MetricRow {
            document: exp.split('/').next().unwrap().into(),
            experiment: exp.into(),
            metric: metric.into(),
            sweep: None,
            value,
            unit: None,
        }
    }

    #[test]
    fn csv_round_trip_is_exact() {
        let mut rows = vec![
            row("thesis/fig1.9", "a", Some(0.1 + 0.2)),
            row("thesis/fig1.9", "b", Some(-1e-300)),
            row("thesis/fig1.9", "c", None),
            row("thesis/fig1.9", "d", Some(f64::NAN)),
            row("thesis/fig1.9", "e", Some(6.02e23)),
        ];
        rows[0].sweep = Some("input.omega=2".into());
        rows[0].unit = Some("N, m \"odd\"".into());
        let text = to_csv(&rows);
        assert!(text.starts_with("document,experiment,metric,sweep,value,unit\n"));
        assert!(text.contains("0.30000000000000004"), "{text}");
        let back = from_csv(&text).unwrap();
        assert_eq!(back.len(), rows.len());
        for (a, b) in rows.iter().zip(&back) {
            assert_eq!(a.value.map(f64::to_bits), b.value.map(f64::to_bits));
            assert_eq!((&a.sweep, &a.unit, &a.metric), (&b.sweep, &b.unit, &b.metric));
        }
        assert!(from_csv("a,b\n").is_err());
        assert!(from_csv(&format!("{}\nx,y\n", COLUMNS.join(",")))
            .unwrap_err()
            .contains("line 2"));
    }

    #[test]
    fn compare_respects_the_tolerance() {
        let base = vec![
            row("d/a", "m", Some(1.0)),
            row("d/a", "gone", Some(2.0)),
            row("d/a", "z", Some(0.0)),
        ];
        let cur = vec![
            row("d/a", "m", Some(1.0 + 1e-12)),
            row("d/a", "new", Some(3.0)),
            row("d/a", "z", Some(1e-13)),
        ];
        let none = BTreeMap::new();
        let all = |_: &str| true;
        let c = compare(&base, &cur, &none, &all);
        let kinds: Vec<_> = c.iter().map(|c| (c.metric.as_str(), c.kind)).collect();
        assert_eq!(kinds, [("gone", ChangeKind::Removed), ("new", ChangeKind::New)]);
        let cur = vec![row("d/a", "m", Some(1.0 + 1e-6)), row("d/a", "z", Some(1e-11))];
        let c = compare(&base[..1], &cur[..1], &none, &all);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].kind, ChangeKind::Moved);
        // A declared tolerance replaces the default.
        let mut tols = BTreeMap::new();
        tols.insert(
            ("d/a".to_string(), "m".to_string()),
            Tolerance {
                abs: None,
                rel: Some(1e-5),
            },
        );
        assert!(compare(&base[..1], &cur[..1], &tols, &all).is_empty());
        assert_eq!(compare(&base[2..], &cur[1..], &none, &all).len(), 1);
        // Out of scope: nothing.
        assert!(compare(&base, &cur, &none, &|_| false).is_empty());
        // Missing and NaN values.
        assert!(compare(&[row("d/a", "m", None)], &[row("d/a", "m", None)], &none, &all).is_empty());
        assert_eq!(
            compare(&[row("d/a", "m", None)], &[row("d/a", "m", Some(1.0))], &none, &all).len(),
            1
        );
        let nan = [row("d/a", "m", Some(f64::NAN))];
        assert!(compare(&nan, &nan, &none, &all).is_empty());
    }

    #[test]
    fn table_lists_every_change() {
        let base = vec![row("d/a", "m", Some(2.0))];
        let cur = vec![row("d/a", "m", Some(2.5)), row("d/b", "n", Some(1.0))];
        let c = compare(&base, &cur, &BTreeMap::new(), &|_| true);
        let t = diff_table(&c);
        assert!(
            t.contains("moved") && t.contains("+2.500e-1") && t.contains("new"),
            "{t}"
        );
        assert_eq!(counts(&c), "1 moved, 1 new, 0 removed");
        assert_eq!(diff_table(&[]), "");
        let merged = merge(&base, &cur, &|e| e == "d/b");
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].value, Some(2.0));
    }
}
