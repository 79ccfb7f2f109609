//! Windows over run data, post-processing, metrics (each kind in [`metric_kinds`]) and checks.
//! Generic numerics only: the meaning of a column is the manifest's business.

pub mod metric_kinds;

use fric_experiments::RunData;
use fric_manifest::{CheckSpec, MetricSpec, NamedWindow, Op, PostKind, PostOp, Provenance, Window};
use fric_report::{judge, CheckReport, Outcome};
use fric_solvers::analysis;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

/// The sample range of a window.
pub fn window(data: &RunData, w: Option<&Window>) -> Result<Range<usize>, String> {
    let n = data.len();
    let (a, b) = match w {
        None | Some(Window::Named(NamedWindow::All)) => return Ok(0..n),
        Some(Window::Named(NamedWindow::LastPeriod)) => {
            let t = data.column("t").ok_or("`last-period` needs a time column")?;
            let p = data.period.ok_or("`last-period` needs a periodic input")?;
            let end = *t.last().ok_or("empty run")?;
            (end - p, end)
        }
        Some(Window::LastPeriods { last_periods: k }) => {
            let t = data.column("t").ok_or("`last_periods` needs a time column")?;
            let p = data.period.ok_or("`last_periods` needs a periodic input")?;
            if !(k.is_finite() && *k > 0.0) {
                return Err(format!("`last_periods: {k}` is not a positive number of periods"));
            }
            let end = *t.last().ok_or("empty run")?;
            (end - k * p, end)
        }
        Some(Window::Periods { periods: [a, b] }) => {
            let p = data.period.ok_or("a window in periods needs a periodic input")?;
            (a * p, b * p)
        }
        Some(Window::Time { t: [a, b] }) => (*a, *b),
    };
    let t = data.column("t").ok_or("a time window needs a time column")?;
    let eps = 1e-9 * (b - a).abs().max(1e-300);
    let i0 = t.partition_point(|&x| x < a - eps);
    let i1 = t.partition_point(|&x| x <= b + eps);
    if i1 <= i0 {
        let (lo, hi) = (
            t.first().copied().unwrap_or(f64::NAN),
            t.last().copied().unwrap_or(f64::NAN),
        );
        return Err(format!(
            "window [{a}, {b}] s holds no samples (run covers [{lo}, {hi}] s)"
        ));
    }
    Ok(i0..i1)
}

fn col<'a>(data: &'a RunData, name: &str) -> Result<&'a [f64], String> {
    data.column(name).ok_or_else(|| format!("no column `{name}`"))
}

/// Add the derived columns of a run's `post` steps.
pub fn post_process(data: &RunData, steps: &[PostOp]) -> Result<RunData, String> {
    let mut d = data.clone();
    for st in steps {
        let y = col(&d, &st.of)?.to_vec();
        let by = || col(&d, st.by.as_deref().unwrap_or("t")).map(|v| v.to_vec());
        let p = st.param;
        let v = match st.op {
            PostKind::Ewma => analysis::ewma(&y, p.ok_or("ewma needs `param` (β)")?),
            PostKind::MovingAverage => {
                analysis::moving_average(&y, p.ok_or("moving-average needs `param` (samples)")? as usize)
            }
            PostKind::Abs => y.iter().map(|v| v.abs()).collect(),
            PostKind::Gradient => analysis::gradient(&by()?, &y),
            PostKind::CumulativeIntegral => analysis::cumulative_integral(&by()?, &y),
            PostKind::Scale => y.iter().map(|v| v * p.unwrap_or(1.0)).collect(),
            PostKind::Offset => y.iter().map(|v| v + p.unwrap_or(0.0)).collect(),
            PostKind::Gate => {
                let b = by()?;
                let w = p.ok_or("gate needs `param` (the largest |by|)")?;
                y.iter()
                    .zip(&b)
                    .map(|(v, g)| if g.abs() <= w { *v } else { f64::NAN })
                    .collect()
            }
            PostKind::SinceReversal => analysis::since_reversal(&y),
            PostKind::Shear => {
                let k = p.ok_or("shear needs `param` (the slope taken out)")?;
                let by_name = st.by.as_deref().ok_or("shear needs `by` (the column sheared along)")?;
                let b = col(&d, by_name)?;
                let x0 = shear_reference(st.at, by_name, b)?;
                y.iter().zip(b).map(|(v, x)| v - k * (x - x0)).collect()
            }
            PostKind::Rising => std::iter::once(f64::NAN)
                .chain(y.windows(2).map(|w| if w[1] > w[0] { w[1] } else { f64::NAN }))
                .take(y.len())
                .collect(),
        };
        d.columns.push((st.name.clone(), v));
    }
    Ok(d)
}

/// The `at` of a `shear` step (default 0), refused unless it is finite and within the range of
/// the `by` column's finite samples: a reference the curve never reaches centres nothing (a
/// sign slip, `at: 0.5` for loops around x = −0.5, would move them by 2 · 0.5 · param).
fn shear_reference(at: Option<f64>, by_name: &str, b: &[f64]) -> Result<f64, String> {
    let Some(x0) = at else { return Ok(0.0) };
    let (lo, hi) = b
        .iter()
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    if x0.is_finite() && lo <= x0 && x0 <= hi {
        return Ok(x0);
    }
    Err(format!(
        "shear `at: {x0}` lies outside the `{by_name}` column's range [{lo}, {hi}]; allowed: a value of `{by_name}` \
         the sheared curve passes (e.g. the centre of its loops)"
    ))
}

/// Compute one metric by its kind's declaration ([`metric_kinds`]). `runs` maps run ids to
/// their data; `done` holds earlier metrics.
pub fn metric(
    m: &MetricSpec,
    runs: &HashMap<String, &RunData>,
    done: &BTreeMap<String, Option<f64>>,
) -> Result<f64, String> {
    metric_kinds::evaluate(m, runs, done)
}

/// The value a check compares with: its number, or the other metric's value (member `k`'s when
/// the check is on member `name[k]` of a metric table and the other metric is a table too).
fn expected_value(c: &CheckSpec, metrics: &BTreeMap<String, Option<f64>>) -> Option<f64> {
    let Some(other) = c.expected.metric() else {
        return c.expected.number();
    };
    let member = fric_manifest::member::MemberId::parse(&c.metric);
    let key = match member {
        Some(m) if !metrics.contains_key(other) => fric_manifest::member::MemberId::new(other, m.k).to_string(),
        _ => other.to_string(),
    };
    metrics.get(&key).copied().flatten()
}

/// Evaluate a check against the computed metrics.
pub fn check(c: &CheckSpec, metrics: &BTreeMap<String, Option<f64>>) -> CheckReport {
    let mut computed = metrics.get(&c.metric).copied().flatten();
    let expected = match expected_value(c, metrics) {
        Some(v) => v,
        // The metric compared with has no value: neither has the comparison (0 stands in
        // for the expected value, which report.json must hold as a number).
        None => {
            computed = None;
            0.0
        }
    };
    let tolerance = match c.op {
        Op::Within => c.tol.map(|t| t.allowed(expected)),
        _ => None,
    };
    let outcome = match judge(c.op, computed, expected, tolerance, c.known_discrepancy.is_some()) {
        // A transcription read back is shown, not counted as a reproduced number.
        Outcome::Pass if matches!(c.provenance, Provenance::Transcribed { .. }) => Outcome::Transcribed,
        o => o,
    };
    let (provenance, lines, basis) = match &c.provenance {
        Provenance::Published { line, quote, .. } => ("published", vec![*line], quote.clone().unwrap_or_default()),
        Provenance::Transcribed { line, quote } => ("transcribed", vec![*line], quote.clone().unwrap_or_default()),
        Provenance::Derived(d) => ("derived", vec![], d.clone()),
        Provenance::Claim { kind, lines, text } => {
            let k = kind.name().to_string();
            (
                "claim",
                lines.clone(),
                match text {
                    Some(t) => format!("{k}: {t}"),
                    None => k,
                },
            )
        }
    };
    let basis = match c.expected.metric() {
        Some(m) if basis.is_empty() => format!("against metric `{m}`"),
        Some(m) => format!("{basis}; against metric `{m}`"),
        None => basis,
    };
    CheckReport {
        metric: c.metric.clone(),
        op: c.op,
        computed,
        expected,
        tolerance,
        provenance: provenance.into(),
        lines,
        basis,
        outcome,
        pass: matches!(outcome, Outcome::Pass | Outcome::UnexpectedPass),
        known_discrepancy: c.known_discrepancy.clone(),
        discrepancy: c.discrepancy,
        note: c.note.clone(),
        tolerance_reason: c.tolerance_reason.clone(),
        location: None,
        sensitivity: None,
        explained_by: Vec::new(),
    }
}

/// Record in each check report where its check is written: `<file>:<line>` of `checks[i]` in the
/// manifest `root/file` (left empty if the file cannot be read).
pub fn locate_checks(root: &std::path::Path, file: &str, checks: &mut [CheckReport]) {
    let Ok(text) = crate::readfile::read_to_string(&root.join(file), crate::readfile::MANIFEST) else {
        return;
    };
    let loc = fric_manifest::Locator::new(&text);
    for (i, c) in checks.iter_mut().enumerate() {
        let (line, _) = loc.find(&["checks".into(), i.into()]);
        c.location = Some(format!("{file}:{line}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> RunData {
        let t: Vec<f64> = (0..=40).map(|i| i as f64 * 0.25).collect();
        let y: Vec<f64> = t.iter().map(|t| t * 2.0).collect();
        RunData {
            columns: vec![("t".into(), t), ("y".into(), y)],
            period: Some(5.0),
            info: Default::default(),
        }
    }

    #[test]
    fn windows_select_inclusive_ranges() {
        let d = data();
        assert_eq!(window(&d, None).unwrap(), 0..41);
        assert_eq!(
            window(&d, Some(&Window::Named(NamedWindow::LastPeriod))).unwrap(),
            20..41
        );
        assert_eq!(
            window(&d, Some(&Window::Periods { periods: [0.0, 1.0] })).unwrap(),
            0..21
        );
        assert!(window(&d, Some(&Window::Time { t: [20.0, 30.0] })).is_err());
        // `last_periods: k` over a run of 4 periods of 2.5 s (t = 0, 0.25, …, 10): the last k
        // periods, both ends included; 1 is `last-period`.
        let d = RunData {
            period: Some(2.5),
            ..data()
        };
        let last = |k: f64| window(&d, Some(&Window::LastPeriods { last_periods: k }));
        assert_eq!(last(1.0).unwrap(), 30..41);
        assert_eq!(
            window(&d, Some(&Window::Named(NamedWindow::LastPeriod))).unwrap(),
            30..41
        );
        assert_eq!(last(3.0).unwrap(), 10..41);
        assert_eq!(last(4.0).unwrap(), 0..41);
        assert!(last(0.0).is_err());
    }

    #[test]
    fn rising_keeps_the_increasing_samples_and_decay_fit_reads_them() {
        // v goes up then down through the same values; y = 1 + exp(−(v/0.5)²) on the way up,
        // 5 on the way down. The rising trace alone fits exactly.
        let up: Vec<f64> = (1..=20).map(|k| k as f64 * 0.1).collect();
        let v: Vec<f64> = up.iter().chain(up.iter().rev()).copied().collect();
        let y: Vec<f64> = (0..v.len())
            .map(|i| {
                if i < 20 {
                    1.0 + (-(v[i] / 0.5) * (v[i] / 0.5)).exp()
                } else {
                    5.0
                }
            })
            .collect();
        let t: Vec<f64> = (0..v.len()).map(|i| i as f64).collect();
        let d = RunData {
            columns: vec![("t".into(), t), ("v".into(), v), ("y".into(), y)],
            period: None,
            info: Default::default(),
        };
        let steps: Vec<PostOp> = serde_json::from_str(r#"[{"name": "v_up", "op": "rising", "of": "v"}]"#).unwrap();
        let d = post_process(&d, &steps).unwrap();
        let up_col = d.column("v_up").unwrap();
        assert!(up_col[0].is_nan() && up_col[1] == 0.2 && up_col[19] == 2.0 && up_col[20..].iter().all(|x| x.is_nan()));
        let runs: HashMap<String, &RunData> = [("r".to_string(), &d)].into();
        let spec = |part: &str| -> MetricSpec {
            serde_json::from_str(&format!(r#"{{"name": "m", "kind": "decay-fit", "run": "r", "x": "v_up", "y": "y", "part": "{part}", "range": [0, 10]}}"#)).unwrap()
        };
        let get = |part: &str| metric(&spec(part), &runs, &BTreeMap::new()).unwrap();
        assert!((get("floor") - 1.0).abs() < 1e-8 && (get("peak") - 2.0).abs() < 1e-8);
        assert!((get("scale") - 0.5).abs() < 1e-7 && get("rms") < 1e-9);
    }

    #[test]
    fn gate_keeps_the_samples_where_the_other_column_is_small() {
        let d = RunData {
            columns: vec![
                ("t".into(), vec![0.0, 1.0, 2.0, 3.0]),
                ("e".into(), vec![0.5, 0.5, -0.3, -0.3]),
                ("w".into(), vec![0.0, 2.0, -0.05, 0.01]),
            ],
            period: None,
            info: Default::default(),
        };
        let steps: Vec<PostOp> =
            serde_json::from_str(r#"[{"name": "g", "op": "gate", "of": "e", "by": "w", "param": 0.1}]"#).unwrap();
        let g = post_process(&d, &steps).unwrap();
        let g = g.column("g").unwrap();
        assert!(g[0] == 0.5 && g[1].is_nan() && g[2] == -0.3 && g[3] == -0.3);
    }

    #[test]
    fn shear_takes_a_multiple_of_the_other_column_out() {
        let d = RunData {
            columns: vec![
                ("t".into(), vec![0.0, 1.0, 2.0]),
                ("x".into(), vec![-0.5, 0.0, 0.25]),
                ("f".into(), vec![-4.0, 1.0, 3.0]),
            ],
            period: None,
            info: Default::default(),
        };
        let steps: Vec<PostOp> =
            serde_json::from_str(r#"[{"name": "s", "op": "shear", "of": "f", "by": "x", "param": 10}]"#).unwrap();
        let s = post_process(&d, &steps).unwrap();
        assert_eq!(s.column("s").unwrap(), &[1.0, 1.0, 0.5]);
        let no_by: Vec<PostOp> =
            serde_json::from_str(r#"[{"name": "s", "op": "shear", "of": "f", "param": 10}]"#).unwrap();
        assert!(post_process(&d, &no_by).unwrap_err().contains("`by`"));
        let no_k: Vec<PostOp> =
            serde_json::from_str(r#"[{"name": "s", "op": "shear", "of": "f", "by": "x"}]"#).unwrap();
        assert!(post_process(&d, &no_k).unwrap_err().contains("`param`"));
    }

    #[test]
    fn shear_about_a_reference_keeps_the_curve_there_and_refuses_one_outside_it() {
        let d = RunData {
            columns: vec![
                ("t".into(), vec![0.0, 1.0, 2.0]),
                ("x".into(), vec![-0.5, -0.4, -0.6]),
                ("f".into(), vec![0.0, 1.0, -1.0]),
            ],
            period: None,
            info: Default::default(),
        };
        let step = |at: &str| -> Vec<PostOp> {
            let j = format!(r#"[{{"name": "s", "op": "shear", "of": "f", "by": "x", "param": 10, "at": {at}}}]"#);
            serde_json::from_str(&j).unwrap()
        };
        // f − 10 (x + 0.5): the sample at x = −0.5 keeps its f, the others lose their slope.
        let s = post_process(&d, &step("-0.5")).unwrap();
        let s = s.column("s").unwrap();
        assert!(
            s.iter().zip([0.0, 0.0, 0.0]).all(|(a, b)| (a - b).abs() < 1e-12),
            "{s:?}"
        );
        // Without `at` the sheared curve sits at 10 · 0.5 = 5 (ruderman 1b before the fix).
        let s = post_process(&d, &step("null")).unwrap();
        assert!((s.column("s").unwrap()[0] - 5.0).abs() < 1e-12);
        for bad in ["0.5", "-0.61"] {
            let e = post_process(&d, &step(bad)).unwrap_err();
            assert!(e.contains("outside the `x` column's range [-0.6, -0.4]"), "{bad}: {e}");
        }
    }
}
