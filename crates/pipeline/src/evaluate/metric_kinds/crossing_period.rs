//! `crossing-period`: the period of an oscillation.

use super::*;
use fric_manifest::FieldType::Number;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "crossing-period",
        doc: "mean x-interval between successive upward crossings of y through the level at (default 0), located by linear interpolation, over the window: the period of an oscillation that repeats, so an error with fewer than three crossings (one interval shows no repetition); its closure bound is the spread of the intervals (largest minus smallest), and it is quoted only where that is within the tolerance of every check on it (else not closed: the oscillation has not settled); unit of x",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            opt("at", Number, "", "the level crossed (default 0)"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: ringing, kind: crossing-period, run: sim, x: t, y: omega, window: {t: [0.7, 0.8]}, unit: s}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let level = c.spec.at.unwrap_or(0.0);
    let (x, y) = (s.x()?, s.y);
    let (period, n) = analysis::crossing_period(x, y, level)
        .ok_or_else(|| format!("fewer than two upward crossings of {level} in the window"))?;
    let spread = interval_spread(x, y, level);
    match spread {
        None => Err(format!(
            "{NOT_CLOSED}{n} upward crossings of {level} in the window give one interval: a period is quoted only \
             from an oscillation seen to repeat (at least two intervals)"
        )),
        Some(sp) => {
            // Intervals that differ by rounding only are the same.
            let sp = if sp <= ROUNDING * period { 0.0 } else { sp };
            // Every interval lies within the spread of the others, and so does their mean: the
            // oscillation's period, were it settled, is known to the spread and no better.
            c.set_bound(ClosureBound {
                amount: sp,
                down: sp,
                up: sp,
                what: format!(
                    "the {} intervals between upward crossings of {level} spread over {sp:.3e} ({:.3} % of their \
                     mean {period:.6}): the period is known to that spread",
                    n - 1,
                    100.0 * sp / period
                ),
            });
            Ok(period)
        }
    }
}

/// The spread (largest minus smallest) of the intervals between successive upward crossings of
/// `level`, located as [`analysis::crossing_period`] locates them; `None` with fewer than two
/// intervals.
pub fn interval_spread(x: &[f64], y: &[f64], level: f64) -> Option<f64> {
    let mut prev: Option<f64> = None;
    let (mut lo, mut hi, mut n) = (f64::INFINITY, f64::NEG_INFINITY, 0);
    for xc in analysis::upward_crossings(x, y, level) {
        if let Some(p) = prev {
            let d = xc - p;
            lo = lo.min(d);
            hi = hi.max(d);
            n += 1;
        }
        prev = Some(xc);
    }
    (n >= 2).then_some(hi - lo)
}

#[cfg(test)]
mod tests {
    use super::super::{evaluate, evaluate_bounded, NOT_CLOSED};
    use fric_experiments::RunData;
    use fric_manifest::MetricSpec;
    use std::collections::{BTreeMap, HashMap};
    use std::f64::consts::PI;

    /// y = sin φ(t) over t in [0, 10] with φ' = 2π (1 + chirp·t): period 1 for chirp 0.
    fn run(chirp: f64) -> RunData {
        let t: Vec<f64> = (0..=10_000).map(|i| i as f64 * 1e-3).collect();
        let y = t
            .iter()
            .map(|t| (2.0 * PI * (t + 0.5 * chirp * t * t) + 0.1).sin())
            .collect();
        RunData {
            columns: vec![("t".into(), t), ("y".into(), y)],
            period: None,
            info: Default::default(),
        }
    }

    fn period(d: &RunData, window: &str) -> Result<f64, String> {
        measure(d, "crossing-period", window)
    }

    fn measure(d: &RunData, kind: &str, window: &str) -> Result<f64, String> {
        let spec: MetricSpec = serde_json::from_str(&format!(
            r#"{{"name": "p", "kind": "{kind}", "run": "r", "x": "t", "y": "y", "window": {window}}}"#
        ))
        .unwrap();
        let runs: HashMap<String, &RunData> = [("r".to_string(), d)].into();
        evaluate(&spec, &runs, &BTreeMap::new())
    }

    #[test]
    fn a_period_is_quoted_only_from_an_oscillation_that_repeats() {
        let steady = run(0.0);
        assert!((period(&steady, r#"{"t": [0, 10]}"#).unwrap() - 1.0).abs() < 1e-6);
        // A frequency drifting 1 % per unit time: the nine intervals spread by about 8 %, the
        // bound the period carries to the gate.
        let spec: MetricSpec = serde_json::from_str(
            r#"{"name": "p", "kind": "crossing-period", "run": "r", "x": "t", "y": "y", "window": {"t": [0, 10]}}"#,
        )
        .unwrap();
        let d = run(0.01);
        let runs: HashMap<String, &RunData> = [("r".to_string(), &d)].into();
        let (p, b) = evaluate_bounded(&spec, &runs, &BTreeMap::new()).unwrap();
        let b = b.unwrap();
        assert!(
            b.amount > 0.07 * p && b.amount < 0.09 * p && b.what.contains("spread"),
            "{b:?}"
        );
        // Its mean interval is quoted as what it is by crossing-interval, which asks no repetition.
        let mean = measure(&run(0.01), "crossing-interval", r#"{"t": [0, 10]}"#).unwrap();
        assert!(mean > 0.9 && mean < 1.0, "{mean}");
        // Two crossings give one interval: no repetition seen.
        let e = period(&steady, r#"{"t": [0, 2.5]}"#).unwrap_err();
        assert!(e.starts_with(NOT_CLOSED) && e.contains("one interval"), "{e}");
    }
}
