//! Tables with computed cells: `{{ name }}` and `{{ name | fmt(".3g") }}` in a cell stand for a
//! metric's value (the syntax is [`crate::quote`]'s, the number formats
//! [`crate::table_layout`]'s), and `from_metrics` generates rows from metrics
//! ([`crate::table_layout`]).

use crate::entry::Entry;
use crate::quote::fill_with;
use crate::table_layout::{layout, Record, DEFAULT_FORMAT};
use fric_manifest::member::MemberId;
use fric_manifest::{TableFromMetrics, TableSpec};
use std::collections::BTreeMap;

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
        assert!(crate::quote::cell_refs("{{ a ").is_err());
        assert!(crate::quote::cell_refs("{{ a | round }}").is_err());
        assert_eq!(crate::quote::cell_refs("plain").unwrap(), vec![]);
    }
}
