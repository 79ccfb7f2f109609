//! `loop-area`: signed ∮ y dx over the window (positive clockwise); unit x·y.

use super::*;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "loop-area",
        doc: "signed ∮ y dx over the window (positive clockwise), closed by the chord from its end to its start; its \
              closure bound |Δx|·R_y + |Δy|·R_x (how far the cycle ends off itself, times the other coordinate's \
              range): quoted only where that is within the tolerance of every check on it, else not closed (an open \
              stretch is a path-integral); unit x·y",
        fields: CURVE,
        example: "{name: area, kind: loop-area, run: dahl, x: u, y: F, window: last-period}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let (x, y) = closed_cycle(c)?;
    Ok(analysis::loop_area(x, y))
}

#[cfg(test)]
mod tests {
    use super::super::{closure_gap, evaluate, evaluate_bounded, loop_area_bound};
    use fric_experiments::RunData;
    use fric_manifest::MetricSpec;
    use std::collections::{BTreeMap, HashMap};
    use std::f64::consts::PI;

    /// One period of u = sin(t + φ) + a·t/2π against y = cos(t + φ) + b·t/2π: a closed circle for
    /// a = b = 0, a loop that creeps (a, b) per period otherwise (as report Fig 2.15's θ does),
    /// cut at phase φ.
    fn run_at(a: f64, b: f64, phi: f64) -> RunData {
        let n = 2001;
        let t: Vec<f64> = (0..n).map(|i| 2.0 * PI * i as f64 / (n - 1) as f64).collect();
        let u = t.iter().map(|t| (t + phi).sin() + a * t / (2.0 * PI)).collect();
        let y = t.iter().map(|t| (t + phi).cos() + b * t / (2.0 * PI)).collect();
        RunData {
            columns: vec![("t".into(), t), ("u".into(), u), ("y".into(), y)],
            period: Some(2.0 * PI),
            info: Default::default(),
        }
    }

    fn run(drift: f64) -> RunData {
        run_at(0.0, drift, 0.0)
    }

    fn metric(d: &RunData, kind: &str) -> Result<f64, String> {
        let spec: MetricSpec = serde_json::from_str(&format!(
            r#"{{"name": "a", "kind": "{kind}", "run": "r", "x": "u", "y": "y"}}"#
        ))
        .unwrap();
        let runs: HashMap<String, &RunData> = [("r".to_string(), d)].into();
        evaluate(&spec, &runs, &BTreeMap::new())
    }

    #[test]
    fn a_loop_area_carries_the_bound_its_closure_gap_leaves() {
        // Closed: the circle's area π (clockwise in (u, y) is positive), by both loop kinds, with
        // no bound to speak of.
        let closed = run(0.0);
        assert!(closure_gap(closed.column("u").unwrap(), closed.column("y").unwrap()) < 1e-12);
        let spec = |kind: &str| -> MetricSpec {
            serde_json::from_str(&format!(
                r#"{{"name": "a", "kind": "{kind}", "run": "r", "x": "u", "y": "y"}}"#
            ))
            .unwrap()
        };
        for kind in ["loop-area", "loop-area-pl"] {
            assert!((metric(&closed, kind).unwrap() - PI).abs() < 1e-4, "{kind}");
            let runs: HashMap<String, &RunData> = [("r".to_string(), &closed)].into();
            let (_, b) = evaluate_bounded(&spec(kind), &runs, &BTreeMap::new()).unwrap();
            assert!(b.unwrap().amount < 1e-9);
        }
        // A drift over the period, cut anywhere: the value is off the circle's π by at most the
        // bound |Δx|·R_y + |Δy|·R_x (exactly by Δy·(x̄ − x₀) − Δx·(ȳ − y₀) up to sign).
        let mut worst: f64 = 0.0;
        for (a, b) in [(0.0, 0.4), (0.05, 0.0), (0.03, -0.02)] {
            for k in 0..12 {
                let phi = k as f64 * PI / 6.0;
                let d = run_at(a, b, phi);
                let (u, y) = (d.column("u").unwrap(), d.column("y").unwrap());
                let area = metric(&d, "loop-area").unwrap();
                let bound = loop_area_bound(u, y);
                let exact = a * phi.cos() - b * phi.sin();
                assert!((area - PI).abs() <= bound, "{a} {b} {phi}: {area} vs π ± {bound}");
                assert!(
                    ((area - PI).abs() - exact.abs()).abs() < 1e-4,
                    "{a} {b} {phi}: {area} {exact}"
                );
                worst = worst.max((area - PI).abs() / bound);
            }
        }
        // The bound is reached within a factor of 2.1 (the circle's mean sits mid-range).
        assert!(worst > 0.45, "{worst}");
        // The open stretch is quoted as what it is: its path integral (the chord from (0, 1.4) back
        // to (0, 1) is vertical here, so it equals the trapezoid sum the loop kind would give).
        let creep = run(0.4);
        let open = metric(&creep, "path-integral").unwrap();
        let y = creep.column("y").unwrap();
        let u = creep.column("u").unwrap();
        let trapezoid: f64 = (1..u.len()).map(|i| 0.5 * (y[i] + y[i - 1]) * (u[i] - u[i - 1])).sum();
        assert_eq!(open, trapezoid);
        assert!((open - PI).abs() < 0.01, "{open}");
    }
}
