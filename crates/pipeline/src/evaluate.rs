//! Windows over run data, metrics and checks. Generic numerics only: the meaning of a column is
//! the manifest's business.

use fric_experiments::RunData;
use fric_manifest::{
    CheckSpec, FitPart, MetricKind, MetricSpec, NamedWindow, Op, PostKind, PostOp, Provenance, Window,
};
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
            PostKind::Rising => std::iter::once(f64::NAN)
                .chain(y.windows(2).map(|w| if w[1] > w[0] { w[1] } else { f64::NAN }))
                .take(y.len())
                .collect(),
        };
        d.columns.push((st.name.clone(), v));
    }
    Ok(d)
}

/// Compute one metric. `runs` maps run ids to their data; `done` holds earlier metrics.
pub fn metric(
    m: &MetricSpec,
    runs: &HashMap<String, &RunData>,
    done: &BTreeMap<String, Option<f64>>,
) -> Result<f64, String> {
    let get = |name: &str| -> Result<f64, String> {
        done.get(name)
            .copied()
            .flatten()
            .ok_or_else(|| format!("metric `{name}` has no value"))
    };
    if !m.kind.needs_run() {
        let [a, b] = m.of.as_ref().ok_or("missing `of`")?;
        let (a, b) = (get(a)?, get(b)?);
        return Ok(match m.kind {
            MetricKind::Difference => a - b,
            MetricKind::Sum => a + b,
            MetricKind::Ratio => a / b,
            _ => (a - b) / b.abs(),
        });
    }
    let run = m.run.as_deref().ok_or("missing run")?;
    let data = *runs.get(run).ok_or_else(|| format!("run `{run}` has no data"))?;
    if m.kind == MetricKind::Info {
        let key = m.y.as_deref().unwrap_or("");
        return data.info.get(key).copied().ok_or_else(|| {
            format!(
                "run `{run}` has no diagnostic `{key}` (has: {:?})",
                data.info.keys().collect::<Vec<_>>()
            )
        });
    }
    let r = window(data, m.window.as_ref())?;
    let y = &col(data, m.y.as_deref().unwrap_or(""))?[r.clone()];
    let x = match &m.x {
        Some(x) => Some(&col(data, x)?[r.clone()]),
        None => None,
    };
    let (lo, hi) = analysis::extremes(y);
    Ok(match m.kind {
        MetricKind::LoopArea => analysis::loop_area(x.ok_or("needs x")?, y),
        MetricKind::Max => hi,
        MetricKind::Min => lo,
        MetricKind::MaxAbs => hi.abs().max(lo.abs()),
        MetricKind::Final => *y.last().ok_or("empty window")?,
        MetricKind::ValueAt => {
            let at = m.at.ok_or("needs `at`")?;
            analysis::value_at(x.ok_or("needs x")?, y, at)
                .ok_or_else(|| format!("x never reaches {at} in the window"))?
        }
        MetricKind::Slope | MetricKind::Intercept => {
            let (xs, ys) = in_range(x.ok_or("needs x")?, y, m.range);
            let (a, b) = analysis::line_fit(&xs, &ys).ok_or("fewer than two distinct x in the range")?;
            if m.kind == MetricKind::Slope {
                a
            } else {
                b
            }
        }
        MetricKind::Quantile => {
            let q = m.at.ok_or("needs `at` (the quantile, 0 to 1)")?;
            if !(0.0..=1.0).contains(&q) {
                return Err(format!("quantile {q} outside [0, 1]"));
            }
            let mut v = y.to_vec();
            v.sort_by(f64::total_cmp);
            v[((v.len() - 1) as f64 * q).round() as usize]
        }
        MetricKind::DecayFit => {
            let (xs, ys) = in_range(x.ok_or("needs x")?, y, m.range);
            let f = analysis::decay_fit(&xs, &ys).ok_or("fewer than three samples or no x ≠ 0 in the range")?;
            if f.at_bound {
                return Err(format!(
                    "the best scale {:.3e} lies at the end of the searched range: no decay in the data",
                    f.scale
                ));
            }
            match m.part.ok_or("needs `part`")? {
                FitPart::Floor => f.floor,
                FitPart::Peak => f.peak,
                FitPart::Scale => f.scale,
                FitPart::Rms => f.rms,
            }
        }
        MetricKind::Dwell => {
            let [lo, hi] = m.range.ok_or("needs `range`")?;
            let d = analysis::dwell_times(x.ok_or("needs x")?, y, lo, hi);
            if d.is_empty() {
                return Err(format!("no complete run of y in [{lo}, {hi}] inside the window"));
            }
            d.iter().sum::<f64>() / d.len() as f64
        }
        MetricKind::CrossingPeriod => {
            let level = m.at.unwrap_or(0.0);
            analysis::crossing_period(x.ok_or("needs x")?, y, level)
                .map(|(p, _)| p)
                .ok_or_else(|| format!("fewer than two upward crossings of {level} in the window"))?
        }
        MetricKind::MaxDiff => {
            let o = m.other.as_ref().ok_or("needs `other`")?;
            let od = *runs.get(&o.run).ok_or_else(|| format!("run `{}` has no data", o.run))?;
            let or = window(od, o.window.as_ref())?;
            let oy = &col(od, &o.y)?[or];
            analysis::max_abs_diff(y, oy)
                .ok_or_else(|| format!("windows sample differently ({} vs {} samples)", y.len(), oy.len()))?
        }
        MetricKind::CurveCrossings => {
            let o = m.other.as_ref().ok_or("needs `other`")?;
            let od = *runs.get(&o.run).ok_or_else(|| format!("run `{}` has no data", o.run))?;
            let or = window(od, o.window.as_ref())?;
            let ox = &col(od, o.x.as_deref().ok_or("needs `other.x`")?)?[or.clone()];
            let oy = &col(od, &o.y)?[or];
            analysis::curve_crossings(x.ok_or("needs x")?, y, ox, oy) as f64
        }
        _ => unreachable!("handled above"),
    })
}

/// The samples with x in `range` (all without one).
fn in_range(x: &[f64], y: &[f64], range: Option<[f64; 2]>) -> (Vec<f64>, Vec<f64>) {
    match range {
        Some([a, b]) => x
            .iter()
            .zip(y)
            .filter(|(x, _)| **x >= a && **x <= b)
            .map(|(x, y)| (*x, *y))
            .unzip(),
        None => (x.to_vec(), y.to_vec()),
    }
}

/// The report's name for a manifest's discrepancy kind.
fn discrepancy_kind(k: fric_manifest::DiscrepancyKind) -> fric_report::DiscrepancyKind {
    use fric_manifest::DiscrepancyKind as M;
    use fric_report::DiscrepancyKind as R;
    match k {
        M::SourceError => R::SourceError,
        M::Assumption => R::Assumption,
        M::Unresolved => R::Unresolved,
    }
}

/// Evaluate a check against the computed metrics.
pub fn check(c: &CheckSpec, metrics: &BTreeMap<String, Option<f64>>) -> CheckReport {
    let computed = metrics.get(&c.metric).copied().flatten();
    let op = match c.op {
        Op::Within => "within",
        Op::Lt => "lt",
        Op::Gt => "gt",
    };
    let tolerance = match c.op {
        Op::Within => c.tol.map(|t| t.allowed(c.expected)),
        _ => None,
    };
    let outcome = judge(op, computed, c.expected, tolerance, c.known_discrepancy.is_some());
    let (provenance, lines, basis) = match &c.provenance {
        Provenance::Published { line, quote } => ("published", vec![*line], quote.clone().unwrap_or_default()),
        Provenance::Derived(d) => ("derived", vec![], d.clone()),
        Provenance::Claim { kind, lines, text } => {
            let k = serde_json::to_value(kind)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
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
    CheckReport {
        metric: c.metric.clone(),
        op: op.into(),
        computed,
        expected: c.expected,
        tolerance,
        provenance: provenance.into(),
        lines,
        basis,
        outcome,
        pass: matches!(outcome, Outcome::Pass | Outcome::UnexpectedPass),
        known_discrepancy: c.known_discrepancy.clone(),
        discrepancy: c.discrepancy.map(discrepancy_kind),
        note: c.note.clone(),
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
}
