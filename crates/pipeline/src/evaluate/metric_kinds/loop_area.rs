//! `loop-area`: signed ∮ y dx over the window (positive clockwise); unit x·y.

use super::*;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "loop-area",
        doc: "signed ∮ y dx over the window (positive clockwise), of a cycle that closed: an error when (x, y) ends \
              farther from its start than 1 % of its range in x or in y (an open stretch is a path-integral); unit x·y",
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
    use super::super::{closure_gap, evaluate, NOT_CLOSED};
    use fric_experiments::RunData;
    use fric_manifest::MetricSpec;
    use std::collections::{BTreeMap, HashMap};
    use std::f64::consts::PI;

    /// One period of u = sin t against y = cos t + drift·t/2π: a closed circle for drift 0, a loop
    /// that creeps `drift` per period otherwise (as report Fig 2.15's θ does).
    fn run(drift: f64) -> RunData {
        let n = 2001;
        let t: Vec<f64> = (0..n).map(|i| 2.0 * PI * i as f64 / (n - 1) as f64).collect();
        let u = t.iter().map(|t| t.sin()).collect();
        let y = t.iter().map(|t| t.cos() + drift * t / (2.0 * PI)).collect();
        RunData {
            columns: vec![("t".into(), t), ("u".into(), u), ("y".into(), y)],
            period: Some(2.0 * PI),
            info: Default::default(),
        }
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
    fn a_loop_area_is_quoted_only_from_a_cycle_that_closed() {
        // Closed: the circle's area π (clockwise in (u, y) is positive), by both loop kinds.
        let closed = run(0.0);
        assert!(closure_gap(closed.column("u").unwrap(), closed.column("y").unwrap()) < 1e-12);
        for kind in ["loop-area", "loop-area-pl"] {
            assert!((metric(&closed, kind).unwrap() - PI).abs() < 1e-4, "{kind}");
        }
        // Creeping 0.4 per period (y spans 2.2): misses closing by 18 % of its range; refused by
        // both kinds, naming the gap (the rule is one for every manifest: no tolerance to declare).
        let creep = run(0.4);
        let gap = closure_gap(creep.column("u").unwrap(), creep.column("y").unwrap());
        assert!(gap > 0.17 && gap < 0.19, "gap {gap}");
        for kind in ["loop-area", "loop-area-pl"] {
            let e = metric(&creep, kind).unwrap_err();
            let pct = format!("{:.3} %", 100.0 * gap);
            assert!(
                e.starts_with(NOT_CLOSED) && e.contains(&pct) && e.contains("(u, y)"),
                "{e}"
            );
        }
        // Half a percent of creep closes to the rule's 1 %; 2 % does not.
        assert!(metric(&run(0.0105), "loop-area").is_ok());
        assert!(metric(&run(0.05), "loop-area").is_err());
        // The open stretch is quoted as what it is: its path integral (the chord from (0, 1.4) back
        // to (0, 1) is vertical here, so it equals the trapezoid sum the loop kind would give).
        let open = metric(&creep, "path-integral").unwrap();
        let y = creep.column("y").unwrap();
        let u = creep.column("u").unwrap();
        let trapezoid: f64 = (1..u.len()).map(|i| 0.5 * (y[i] + y[i - 1]) * (u[i] - u[i - 1])).sum();
        assert_eq!(open, trapezoid);
        assert!((open - PI).abs() < 0.01, "{open}");
    }
}
