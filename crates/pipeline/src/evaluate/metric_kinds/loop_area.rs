//! `loop-area`: signed ∮ y dx over the window (positive clockwise); unit x·y.

use super::*;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "loop-area",
        doc: "signed ∮ y dx over the window (positive clockwise), of a cycle that closed: an error when (x, y) ends \
              farther from its start than `closure.tol` (default 1 %) of its range in x or y; unit x·y",
        fields: CYCLE,
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
    use super::super::{closure_gap, evaluate};
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

    fn area(d: &RunData, closure: &str) -> Result<f64, String> {
        let spec: MetricSpec = serde_json::from_str(&format!(
            r#"{{"name": "a", "kind": "loop-area", "run": "r", "x": "u", "y": "y"{closure}}}"#
        ))
        .unwrap();
        let runs: HashMap<String, &RunData> = [("r".to_string(), d)].into();
        evaluate(&spec, &runs, &BTreeMap::new())
    }

    #[test]
    fn a_loop_area_is_quoted_only_from_a_cycle_that_closed() {
        // Closed: the circle's area π (clockwise in (u, y) is positive).
        let closed = run(0.0);
        assert!(closure_gap(closed.column("u").unwrap(), closed.column("y").unwrap()) < 1e-12);
        assert!((area(&closed, "").unwrap().abs() - PI).abs() < 1e-4);
        // Creeping 0.4 per period (y spans 2.2): misses closing by 18 % of its range; refused
        // without a declared closure, naming the gap.
        let creep = run(0.4);
        let gap = closure_gap(creep.column("u").unwrap(), creep.column("y").unwrap());
        assert!((gap - 0.4 / 2.4).abs() < 0.02, "gap {gap}");
        let e = area(&creep, "").unwrap_err();
        assert!(
            e.contains("not closed") && e.contains("(u, y)") && e.contains("allowed 1 %"),
            "{e}"
        );
        // Half a percent of creep passes the default 1 %.
        assert!(area(&run(0.01), "").is_ok());
        // A declared closure tolerance above the gap accepts it; one below it does not.
        let ok = r#", "closure": {"tol": 0.2, "reason": "the source's own loop creeps"}"#;
        assert!(area(&creep, ok).is_ok());
        let tight = r#", "closure": {"tol": 0.1, "reason": "too tight"}"#;
        assert!(area(&creep, tight).unwrap_err().contains("allowed 10 %"));
    }
}
