//! `crossing-period`: the period of an oscillation.

use super::*;
use fric_manifest::FieldType::Number;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "crossing-period",
        doc: "mean x-interval between successive upward crossings of y through the level at (default 0), located by linear interpolation, over the window: the period of an oscillation that repeats, so an error with fewer than three crossings (one interval shows no repetition); its closure bound is the change of the mean interval between the window's first and last halves (⌊n/2⌋ of the n intervals each: a settled oscillation gives the same mean on both, up to its crossings' jitter), and it is quoted only where that is within the tolerance of every check on it (else not closed: the oscillation has not settled); unit of x",
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
    match halves_change(x, y, level) {
        None => Err(format!(
            "{NOT_CLOSED}{n} upward crossings of {level} in the window give one interval: a period is quoted only \
             from an oscillation seen to repeat (at least two intervals)"
        )),
        Some((change, spread, k)) => {
            // Means that differ by rounding only are the same.
            let change = if change <= ROUNDING * period { 0.0 } else { change };
            // The quoted period is the mean interval. An oscillation that has settled gives the
            // same mean over the first and the last k of its intervals, up to the jitter of its
            // crossings (which moves a mean of k intervals by at most 2δ/k for crossings each
            // within δ of a strict period); a transient (a period still drifting) gives a
            // different one. The mean is therefore known to the change between the two halves'
            // means, and no better: that change is the bound the gate compares with every
            // check's tolerance. (The intervals' spread, the bound until 2026-12-06, counts the
            // jitter of single intervals, 2δ each, which a mean over the window does not carry:
            // thesis Fig 3.5's settled oscillation has a spread of 5.9e-3 s over its 7
            // intervals from the sawtooth's ripple, and a change of 2.6e-3 s between halves.)
            c.set_bound(ClosureBound {
                amount: change,
                down: change,
                up: change,
                what: format!(
                    "the mean of the first {k} and of the last {k} of the {} intervals between upward crossings of \
                     {level} differ by {change:.3e} ({:.3} % of the mean {period:.6}; the intervals spread over \
                     {spread:.3e}): the period is known to that change",
                    n - 1,
                    100.0 * change / period
                ),
            });
            Ok(period)
        }
    }
}

/// The intervals between successive upward crossings of `level`, located as
/// [`analysis::crossing_period`] locates them, compared between the window's halves: with
/// `k = ⌊n/2⌋` of the `n ≥ 2` intervals, |mean of the last k − mean of the first k|, the
/// intervals' spread (largest minus smallest) and `k`; `None` with fewer than two intervals.
pub fn halves_change(x: &[f64], y: &[f64], level: f64) -> Option<(f64, f64, usize)> {
    let crossings: Vec<f64> = analysis::upward_crossings(x, y, level).collect();
    let intervals: Vec<f64> = crossings.windows(2).map(|w| w[1] - w[0]).collect();
    let n = intervals.len();
    if n < 2 {
        return None;
    }
    let k = n / 2;
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    let change = (mean(&intervals[n - k..]) - mean(&intervals[..k])).abs();
    let (lo, hi) = intervals
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &d| (l.min(d), h.max(d)));
    Some((change, hi - lo, k))
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
        // A frequency drifting 1 % per unit time: the nine intervals spread by about 8 %, and
        // the means of the first and last four differ by about 5.5 %, the bound the period
        // carries to the gate.
        let spec: MetricSpec = serde_json::from_str(
            r#"{"name": "p", "kind": "crossing-period", "run": "r", "x": "t", "y": "y", "window": {"t": [0, 10]}}"#,
        )
        .unwrap();
        let d = run(0.01);
        let runs: HashMap<String, &RunData> = [("r".to_string(), &d)].into();
        let (p, b) = evaluate_bounded(&spec, &runs, &BTreeMap::new()).unwrap();
        let b = b.unwrap();
        assert!(
            b.amount > 0.04 * p && b.amount < 0.07 * p && b.what.contains("differ by"),
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
