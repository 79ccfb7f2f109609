//! `csv`: samples read from a CSV file under `data/` (with a header row), linearly interpolated
//! and held constant beyond the ends; the file's sha256 is part of the run's cache key. The
//! pipeline reads the file (this crate does no I/O) and attaches its samples to the request.

use super::*;
use crate::budget;
use fric_manifest::{opt_or, req, FieldDefault, FieldType::Text};
use fric_models::signal::Linear;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "csv",
        doc: "samples read from a CSV file under data/ (header row; t strictly increasing; finite values), \
              linearly interpolated and constant beyond the ends; the file's sha256 is part of the cache key \
              (no period: sim.t_end)",
        fields: &[
            req(
                "path",
                Text,
                "",
                "the file, relative to the workspace root: data/<dir>/<file>.csv",
            ),
            opt_or(
                "t_column",
                Text,
                "",
                FieldDefault::Text("t"),
                "header name of the time column, in s",
            ),
            opt_or(
                "u_column",
                Text,
                "",
                FieldDefault::Text("u"),
                "header name of the input column",
            ),
        ],
        example: "{kind: csv, path: data/measured/run1.csv, t_column: time, u_column: position}",
    },
    role: Role::Signal,
    check,
    signal,
    period: no_period,
    budget: |req| {
        let rows = req.input_data.as_ref().map_or(2, |d| rows_passed(&d.t, req.sim.t_end));
        budget::over_t_end(req, rows)
    },
    reads_file: true,
};

/// The breakpoints a run up to `t_end` passes through: the rows with `t <= t_end` (`t` is
/// strictly increasing, checked when the file is read). Without a `t_end` every row of the
/// file counts, an upper bound.
fn rows_passed(t: &[f64], t_end: Option<f64>) -> usize {
    match t_end {
        Some(end) => t.partition_point(|&ti| ti <= end),
        None => t.len(),
    }
}

fn check(input: &Input, errs: &mut Vec<Invalid>) {
    if let Some(p) = crate::csv_path_problem(input.text("path")) {
        errs.push(Invalid::new("input.path", p, "data/<dir>/<file>.csv"));
    }
    let (t, u) = (input.text("t_column"), input.text("u_column"));
    if t == u {
        errs.push(Invalid::new(
            "input.u_column",
            format!("t_column and u_column are both `{t}`"),
            "two different columns",
        ));
    }
}

fn signal(input: &Input, data: Option<&InputData>) -> Result<Signal, String> {
    let d = data.ok_or_else(|| {
        format!(
            "the samples of `{}` were not read (a csv input is loaded by the pipeline)",
            input.text("path")
        )
    })?;
    Ok(Signal::Linear(Linear {
        t: d.t.clone(),
        u: d.u.clone(),
    }))
}

#[cfg(test)]
mod tests {
    use super::rows_passed;

    #[test]
    fn the_budget_counts_only_the_rows_up_to_t_end() {
        let t: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(rows_passed(&t, Some(3.0)), 4, "t = 0, 1, 2, 3");
        assert_eq!(rows_passed(&t, Some(2.5)), 3);
        assert_eq!(rows_passed(&t, Some(1e7)), 10);
        assert_eq!(rows_passed(&t, None), 10, "no t_end: every row, an upper bound");
    }
}
