//! Captions, panel titles and table notes that quote: `{{ name }}` or `{{ name | fmt(".3g") }}`
//! stands for a metric's value (`area`, `area[3]`) or a run parameter (`sigma0`, `input.omega`
//! or `sim.periods` when every run that has it agrees; `lugre.sigma0`, `lugre[3].sigma1`,
//! `lugre.input.omega` for one run), filled at render time so the text cannot go stale. Metrics are looked up
//! before parameters.

use crate::entry::{Entry, ResolvedRun};
use crate::table_layout::{check_format, format_number};
use fric_manifest::member::{base_of, MemberId};
use std::collections::{BTreeMap, BTreeSet};

/// The value of parameter `field` (`sigma0`, `input.omega`) of one run, if it has a number there.
fn field_of(r: &ResolvedRun, field: &str) -> Option<f64> {
    if let Some(f) = field.strip_prefix("input.") {
        return serde_json::to_value(&r.request.input).ok()?.get(f)?.as_f64();
    }
    if let Some(f) = field.strip_prefix("sim.") {
        return serde_json::to_value(&r.request.sim).ok()?.get(f)?.as_f64();
    }
    match r.request.params.get(field)?.as_slice() {
        [x] => Some(*x),
        _ => None,
    }
}

/// The runs a run id names: the run itself, or every member of a swept run.
fn runs_named<'a>(runs: &'a BTreeMap<String, ResolvedRun>, id: &str) -> Vec<&'a ResolvedRun> {
    runs.iter()
        .filter(|(k, _)| k.as_str() == id || MemberId::parse(k).is_some_and(|m| m.base == id))
        .map(|(_, r)| r)
        .collect()
}

/// The one value of parameter `name` (see the module doc), or why there is none.
pub fn param_value(runs: &BTreeMap<String, ResolvedRun>, name: &str) -> Result<f64, String> {
    let (scope, field) = match name.split_once('.') {
        Some((id, f)) if !runs_named(runs, id).is_empty() => (runs_named(runs, id), f),
        _ => (runs.values().collect(), name),
    };
    let values: BTreeSet<u64> = scope
        .iter()
        .filter_map(|r| field_of(r, field))
        .map(f64::to_bits)
        .collect();
    match values.len() {
        1 => Ok(f64::from_bits(*values.iter().next().expect("one value"))),
        0 => Err(format!("`{name}` is neither a metric nor a parameter of a run")),
        n => Err(format!(
            "parameter `{name}` has {n} values across its runs (swept, or different runs): quote one run's, `RUN.{field}` or `RUN[k].{field}`"
        )),
    }
}

/// The quotable parameters, for an error message: every parameter with one value, then the
/// form of one run's.
pub fn param_names(runs: &BTreeMap<String, ResolvedRun>) -> String {
    let mut names = BTreeSet::new();
    for r in runs.values() {
        names.extend(r.request.params.keys().cloned());
        for (part, v) in [
            ("input", serde_json::to_value(&r.request.input)),
            ("sim", serde_json::to_value(&r.request.sim)),
        ] {
            if let Ok(serde_json::Value::Object(o)) = v {
                names.extend(
                    o.iter()
                        .filter(|(_, v)| v.is_number())
                        .map(|(k, _)| format!("{part}.{k}")),
                );
            }
        }
    }
    let one: Vec<String> = names.into_iter().filter(|n| param_value(runs, n).is_ok()).collect();
    let ids: BTreeSet<&str> = runs.keys().map(|k| base_of(k)).collect();
    format!(
        "parameters {} (one run's: RUN.PARAM or RUN[k].PARAM, runs {})",
        one.join(", "),
        ids.into_iter().collect::<Vec<_>>().join(", ")
    )
}

/// The value a quote in manifest `e` stands for, with the metrics computed so far: a metric
/// (`0` within its absolute baseline tolerance of zero), else a parameter.
pub fn value(e: &Entry, metrics: &BTreeMap<String, Option<f64>>, name: &str) -> Result<f64, String> {
    match metrics.get(name) {
        Some(Some(v)) => {
            let spec = e.manifest.metrics.iter().find(|m| m.name == base_of(name));
            let tol = spec
                .and_then(|s| s.baseline_tol)
                .and_then(|t| t.abs)
                .unwrap_or(fric_report::metrics::DEFAULT_ABS);
            Ok(if v.abs() <= tol { 0.0 } else { *v })
        }
        Some(None) => Err(format!("metric `{name}` has no value")),
        None => param_value(&e.runs, name),
    }
}

/// `text` with its quotes filled in.
pub fn fill(text: &str, e: &Entry, metrics: &BTreeMap<String, Option<f64>>) -> Result<String, String> {
    fill_with(text, |name| value(e, metrics, name))
}

/// `text` filled in, or (with the problem recorded in `errors`) as written.
pub fn fill_or_keep(
    text: &str,
    e: &Entry,
    metrics: &BTreeMap<String, Option<f64>>,
    errors: &mut Vec<String>,
) -> String {
    fill(text, e, metrics).unwrap_or_else(|err| {
        errors.push(format!("quote in `{text}`: {err}"));
        text.to_string()
    })
}

// The `{{ … }}` syntax, here for every text that quotes: captions, titles, notes and the
// cells of tables (`crate::tables`).

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

#[cfg(test)]
mod tests {
    use super::*;
    use fric_experiments::RunRequest;

    fn run(params: &[(&str, f64)], omega: f64) -> ResolvedRun {
        let written = fric_manifest::InputSpec::new(
            "sine",
            [
                ("amplitude", fric_manifest::InputValue::from(0.002)),
                ("omega", fric_manifest::InputValue::from(omega)),
            ],
        );
        let input = fric_experiments::inputs::resolve(&written).expect("a sine input");
        ResolvedRun {
            request: RunRequest {
                system: "lugre".into(),
                params: params.iter().map(|(k, v)| (k.to_string(), vec![*v])).collect(),
                input,
                sim: Default::default(),
                method: fric_experiments::system("lugre").expect("lugre").methods[0],
                input_data: None,
            },
            post: Vec::new(),
            key: String::new(),
            placeholders: Vec::new(),
        }
    }

    fn runs() -> BTreeMap<String, ResolvedRun> {
        let mut r = BTreeMap::new();
        r.insert("lugre[0]".into(), run(&[("sigma0", 1000.0), ("sigma1", 0.0)], 1.0));
        r.insert("lugre[1]".into(), run(&[("sigma0", 1000.0), ("sigma1", 10.0)], 1.0));
        r.insert("dahl".into(), run(&[("sigma", 1000.0)], 10.0));
        r
    }

    #[test]
    fn parameters_with_one_value_are_quotable() {
        let r = runs();
        assert_eq!(param_value(&r, "sigma0").unwrap(), 1000.0);
        assert_eq!(param_value(&r, "input.amplitude").unwrap(), 0.002);
        assert_eq!(param_value(&r, "lugre[1].sigma1").unwrap(), 10.0);
        assert_eq!(param_value(&r, "lugre.input.omega").unwrap(), 1.0);
        assert_eq!(param_value(&r, "dahl.input.omega").unwrap(), 10.0);
    }

    #[test]
    fn swept_and_unknown_parameters_are_refused() {
        let r = runs();
        assert!(param_value(&r, "sigma1").unwrap_err().contains("2 values"));
        assert!(param_value(&r, "input.omega").unwrap_err().contains("2 values"));
        assert!(param_value(&r, "sigma9")
            .unwrap_err()
            .contains("neither a metric nor a parameter"));
        let names = param_names(&r);
        assert!(names.contains("sigma0") && names.contains("input.amplitude"), "{names}");
        assert!(!names.contains("sigma1,"), "{names}");
    }
}
