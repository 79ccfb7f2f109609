//! Tables with computed cells: `{{ name }}` and `{{ name | fmt(".3g") }}` in a cell stand for a
//! metric's value, and `from_metrics` generates rows from metrics ([`crate::table_layout`]).

use crate::entry::Entry;
use crate::member::MemberId;
use crate::table_layout::{layout, Record, DEFAULT_FORMAT};
use fric_manifest::{TableFromMetrics, TableSpec};
use std::collections::BTreeMap;

/// One `{{ ... }}` of a cell: the metric's name and the format, if any.
#[derive(Debug, PartialEq)]
pub struct CellRef {
    pub metric: String,
    pub format: Option<String>,
}

/// The pieces of a cell: text and references, in order.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    Ref(CellRef),
}

const CELL_SYNTAX: &str = "{{ name }} or {{ name | fmt(\".3g\") }} (formats .Ng, .Ne, .Nf)";

fn pieces(cell: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut rest = cell;
    while let Some(i) = rest.find("{{") {
        out.push(Piece::Text(rest[..i].to_string()));
        let after = &rest[i + 2..];
        let j = after
            .find("}}")
            .ok_or_else(|| format!("`{{{{` without `}}}}` in `{cell}`"))?;
        let inner = after[..j].trim();
        let (name, format) = match inner.split_once('|') {
            None => (inner, None),
            Some((n, f)) => {
                let f = f.trim();
                let spec = f
                    .strip_prefix("fmt(")
                    .and_then(|s| s.strip_suffix(')'))
                    .map(|s| s.trim().trim_matches(|c| c == '"' || c == '\''))
                    .ok_or_else(|| format!("unknown filter `{f}` in `{cell}`"))?;
                check_format(spec)?;
                (n.trim(), Some(spec.to_string()))
            }
        };
        if name.is_empty() {
            return Err(format!("empty `{{{{ }}}}` in `{cell}`"));
        }
        out.push(Piece::Ref(CellRef {
            metric: name.to_string(),
            format,
        }));
        rest = &after[j + 2..];
    }
    out.push(Piece::Text(rest.to_string()));
    Ok(out)
}

/// The metric references of a cell, or what is wrong with its syntax.
pub fn cell_refs(cell: &str) -> Result<Vec<CellRef>, (String, String)> {
    let p = pieces(cell).map_err(|e| (e, CELL_SYNTAX.to_string()))?;
    Ok(p.into_iter()
        .filter_map(|p| match p {
            Piece::Ref(r) => Some(r),
            Piece::Text(_) => None,
        })
        .collect())
}

/// Whether `spec` is a number format this module writes: `.Ng`, `.Ne`, `.Nf` with N ≤ 17.
pub fn check_format(spec: &str) -> Result<(), String> {
    let ok = spec
        .strip_prefix('.')
        .and_then(|s| s.len().checked_sub(1).map(|n| s.split_at(n)))
        .is_some_and(|(digits, kind)| {
            matches!(kind, "g" | "e" | "f") && digits.parse::<usize>().is_ok_and(|n| n <= 17 && (n > 0 || kind != "g"))
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "unknown number format `{spec}` (allowed: .Ng, .Ne, .Nf with N ≤ 17, e.g. .3g)"
        ))
    }
}

/// `v` in format `spec` (checked by [`check_format`]); `None`: shortest exact.
pub fn format_number(v: f64, spec: Option<&str>) -> String {
    let Some(spec) = spec else {
        return format!("{v}");
    };
    let (digits, kind) = spec[1..].split_at(spec.len() - 2);
    let n: usize = digits.parse().unwrap_or(6);
    match kind {
        "f" => format!("{v:.n$}"),
        "e" => format!("{v:.n$e}"),
        _ => {
            // N significant digits, trailing zeros dropped; scientific outside 1e-4 ≤ |v| < 10^N.
            if v == 0.0 || !v.is_finite() {
                return format!("{v}");
            }
            let sci = format!("{v:.prec$e}", prec = n - 1);
            let exp: i32 = sci.split_once('e').and_then(|(_, e)| e.parse().ok()).unwrap_or(0);
            if exp < -4 || exp >= n as i32 {
                let (m, e) = sci.split_once('e').unwrap_or((&sci, "0"));
                let m = if m.contains('.') {
                    m.trim_end_matches('0').trim_end_matches('.')
                } else {
                    m
                };
                format!("{m}e{e}")
            } else {
                let decimals = (n as i32 - 1 - exp).max(0) as usize;
                let f = format!("{v:.decimals$}");
                if f.contains('.') {
                    f.trim_end_matches('0').trim_end_matches('.').to_string()
                } else {
                    f
                }
            }
        }
    }
}

/// A cell with its references replaced by the metrics' values.
pub fn fill(cell: &str, metrics: &BTreeMap<String, Option<f64>>) -> Result<String, String> {
    fill_with(cell, |name| {
        metrics
            .get(name)
            .copied()
            .flatten()
            .ok_or_else(|| format!("metric `{name}` has no value"))
    })
}

/// A text with its references replaced by the values `value` gives them (each formatted as
/// its reference says).
pub fn fill_with(text: &str, value: impl Fn(&str) -> Result<f64, String>) -> Result<String, String> {
    let mut out = String::new();
    for p in pieces(text)? {
        match p {
            Piece::Text(t) => out.push_str(&t),
            Piece::Ref(r) => out.push_str(&format_number(value(&r.metric)?, r.format.as_deref())),
        }
    }
    Ok(out)
}

/// A table as rendered: columns, rows, notes.
pub type Built = (Vec<String>, Vec<Vec<String>>, Vec<String>);

/// The table's columns and rows (written cells filled in, then the rows generated from
/// metrics) and its notes (their metrics and parameters quoted, [`crate::quote`]).
pub fn build(t: &TableSpec, e: &Entry, report: &fric_report::ExperimentReport) -> Result<Built, String> {
    let notes = t
        .notes
        .iter()
        .map(|n| crate::quote::fill(n, e, &report.metrics))
        .collect::<Result<Vec<_>, _>>()?;
    let (columns, rows) = rows(t, e, report)?;
    Ok((columns, rows, notes))
}

fn rows(
    t: &TableSpec,
    e: &Entry,
    report: &fric_report::ExperimentReport,
) -> Result<(Vec<String>, Vec<Vec<String>>), String> {
    let mut rows = Vec::new();
    for r in &t.rows {
        rows.push(
            r.iter()
                .map(|c| fill(c, &report.metrics))
                .collect::<Result<Vec<_>, _>>()?,
        );
    }
    let mut columns = t.columns.clone();
    if let Some(f) = &t.from_metrics {
        let recs = records(&e.manifest, &e.sweeps, f, |n| report.metrics.get(n).copied().flatten())?;
        let l = layout(&recs, f.pivot.as_deref(), f.format.as_deref().unwrap_or(DEFAULT_FORMAT))?;
        if columns.is_empty() {
            columns = l.columns;
        } else if columns.len() != l.columns.len() {
            return Err(width_error(columns.len(), &l.columns));
        }
        rows.extend(l.rows);
    }
    Ok((columns, rows))
}

/// The message for written `columns` that do not match the generated rows.
pub(crate) fn width_error(written: usize, generated: &[String]) -> String {
    format!(
        "{written} columns; the generated rows have {} cells: {} (leave `columns` out for these headers)",
        generated.len(),
        generated.join(" | ")
    )
}

/// Swept runs: base id → member ids with their coordinates.
pub(crate) type Sweeps = BTreeMap<String, Vec<(String, fric_manifest::Coords)>>;

/// The swept run metric `name` is evaluated over: its run when swept, or an operand's.
fn swept_run(m: &fric_manifest::Manifest, sweeps: &Sweeps, name: &str, depth: usize) -> Option<String> {
    let mt = m.metrics.iter().find(|x| x.name == name)?;
    if let Some(r) = &mt.run {
        return sweeps.contains_key(r).then(|| r.clone());
    }
    if depth > m.metrics.len() {
        return None;
    }
    mt.of
        .as_ref()?
        .names()
        .into_iter()
        .find_map(|n| swept_run(m, sweeps, n, depth + 1))
}

/// The records of a generated table: one per member of each metric over a swept run (at its
/// sweep coordinates, whether the run is its own or taken by `from:`), one for a single
/// metric, each with the metric's `at` added; `value` gives a metric's value by name.
pub(crate) fn records(
    m: &fric_manifest::Manifest,
    sweeps: &Sweeps,
    f: &TableFromMetrics,
    value: impl Fn(&str) -> Option<f64>,
) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    for tm in &f.metrics {
        let name = tm.metric();
        let spec = m
            .metrics
            .iter()
            .find(|x| x.name == name)
            .ok_or_else(|| format!("unknown metric `{name}`"))?;
        let at: Vec<(String, f64)> = tm.at().into_iter().collect();
        let rec = |coords: Vec<(String, f64)>, v: Option<f64>| Record {
            coords,
            quantity: tm.quantity().to_string(),
            unit: spec.unit.clone().filter(|u| !u.is_empty()),
            value: v,
            zero_tol: spec
                .baseline_tol
                .and_then(|t| t.abs)
                .unwrap_or(fric_report::metrics::DEFAULT_ABS),
        };
        match swept_run(m, sweeps, name, 0).and_then(|r| sweeps.get(&r)) {
            None => out.push(rec(at.clone(), value(name))),
            Some(members) => {
                for (k, (_, coords)) in members.iter().enumerate() {
                    let mut c = coords.clone();
                    c.extend(at.iter().cloned());
                    out.push(rec(c, value(&MemberId::new(name, k).to_string())));
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(format_number(0.012345, Some(".3g")), "0.0123");
        assert_eq!(format_number(12345.0, Some(".3g")), "1.23e4");
        assert_eq!(format_number(2.5, Some(".3g")), "2.5");
        assert_eq!(format_number(1.0e-5, Some(".2g")), "1e-5");
        assert_eq!(format_number(1.23456, Some(".2f")), "1.23");
        assert_eq!(format_number(31415.9, Some(".2e")), "3.14e4");
        assert_eq!(format_number(0.1, None), "0.1");
        assert!(check_format(".3x").is_err());
        assert!(check_format("3g").is_err());
        assert!(check_format(".0g").is_err());
        assert!(check_format(".18f").is_err());
    }

    #[test]
    fn cells() {
        let mut m = BTreeMap::new();
        m.insert("a".to_string(), Some(0.5));
        m.insert("b[1]".to_string(), Some(1234.5678));
        assert_eq!(fill("x = {{ a }} N", &m).unwrap(), "x = 0.5 N");
        assert_eq!(
            fill("{{b[1] | fmt(\".3g\")}}/{{ a|fmt('.1f') }}", &m).unwrap(),
            "1.23e3/0.5"
        );
        assert!(fill("{{ c }}", &m).unwrap_err().contains("`c`"));
        assert!(cell_refs("{{ a ").is_err());
        assert!(cell_refs("{{ a | round }}").is_err());
        assert_eq!(cell_refs("plain").unwrap(), vec![]);
    }
}
