//! `csv`: samples read from a CSV file under `data/` (with a header row), linearly interpolated
//! and held constant beyond the ends; the file's sha256 is part of the run's cache key. The
//! pipeline reads the file (this crate does no I/O) and attaches its samples to the request.
//! Optional, in this order: a zero-phase low-pass (`cutoff`), a resampling to a uniform `step`
//! (linear interpolation), and a declared `period` giving the run the windows a periodic input
//! has (`last_period`, `sim.periods`).

use super::*;
use crate::budget;
use fric_manifest::{
    opt_or, req, FieldDefault,
    FieldType::{Number, Text},
};
use fric_models::signal::Linear;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "csv",
        doc: "samples read from a CSV file under data/ (header row; t strictly increasing; finite values), \
              linearly interpolated and constant beyond the ends; the file's sha256 is part of the cache key \
              (no period unless `period` is declared: sim.t_end); optionally low-pass filtered forward and \
              backward (zero phase, `cutoff`) and then resampled to a uniform `step`",
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
            opt_or(
                "period",
                Number,
                "s",
                FieldDefault::Number(0.0),
                "the period of a periodic measurement, > 0 (0: none); gives the run the windows of a periodic \
                 input (last_period, sim.periods)",
            ),
            opt_or(
                "cutoff",
                Number,
                "Hz",
                FieldDefault::Number(0.0),
                "cutoff of a zero-phase low-pass, > 0 (0: none): a first-order low-pass (backward Euler, \
                 tau = 1/(2 pi cutoff)) run forward then backward, so |H|^2 = 1/2 at the cutoff and no phase \
                 shift; each pass starts at rest on its first sample (edges: a constant extension)",
            ),
            opt_or(
                "step",
                Number,
                "s",
                FieldDefault::Number(0.0),
                "resample (after the filter) to a uniform step from the first time, > 0 (0: keep the file's \
                 times); linear interpolation between the file's samples",
            ),
        ],
        example: "{kind: csv, path: data/measured/run1.csv, t_column: time, u_column: position}",
    },
    role: Role::Signal,
    check,
    signal,
    period,
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

/// The declared period (`period > 0`).
fn period(input: &Input) -> Option<f64> {
    let p = input.number("period");
    (p > 0.0).then_some(p)
}

fn check(input: &Input, errs: &mut Vec<Invalid>) {
    for (f, allowed) in [
        ("period", "a period in s > 0, or 0 for none"),
        ("cutoff", "a cutoff in Hz > 0, or 0 for no filter"),
        ("step", "a step in s > 0, or 0 to keep the file's times"),
    ] {
        let v = input.number(f);
        if !(v.is_finite() && v >= 0.0) {
            errs.push(Invalid::new(format!("input.{f}"), format!("`{f}` is {v}"), allowed));
        }
    }
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
    let mut u = d.u.clone();
    let cutoff = input.number("cutoff");
    if cutoff > 0.0 {
        zero_phase_low_pass(&d.t, &mut u, cutoff);
    }
    let step = input.number("step");
    let (t, u) = if step > 0.0 {
        resample(&d.t, &u, step).ok_or_else(|| {
            format!(
                "`{}`: step {step} s leaves fewer than two samples over {} s",
                input.text("path"),
                d.t[d.t.len() - 1] - d.t[0]
            )
        })?
    } else {
        (d.t.clone(), u)
    };
    Ok(Signal::Linear(Linear { t, u }))
}

/// A first-order low-pass (backward Euler: `y_n = y_{n-1} + a (x_n - y_{n-1})`,
/// `a = dt / (tau + dt)`, `tau = 1 / (2 pi cutoff)`, `dt` each sample's own) run forward, then
/// backward over its output: the phases cancel and the gains multiply (`|H|^2`, 1/2 at the
/// cutoff for `dt << tau`). Each pass starts at rest on its first sample. In place.
pub fn zero_phase_low_pass(t: &[f64], u: &mut [f64], cutoff: f64) {
    let tau = 1.0 / (2.0 * std::f64::consts::PI * cutoff);
    for i in 1..u.len() {
        let a = (t[i] - t[i - 1]) / (tau + t[i] - t[i - 1]);
        u[i] = u[i - 1] + a * (u[i] - u[i - 1]);
    }
    for i in (0..u.len().saturating_sub(1)).rev() {
        let a = (t[i + 1] - t[i]) / (tau + t[i + 1] - t[i]);
        u[i] = u[i + 1] + a * (u[i] - u[i + 1]);
    }
}

/// `(t, u)` linearly interpolated at `t_0, t_0 + step, …` up to the last time; `None` when that
/// is fewer than two samples.
pub fn resample(t: &[f64], u: &[f64], step: f64) -> Option<(Vec<f64>, Vec<f64>)> {
    let (t0, t1) = (t[0], t[t.len() - 1]);
    let n = ((t1 - t0) / step * (1.0 + 1e-12)).floor() as usize + 1;
    if n < 2 {
        return None;
    }
    let (mut ts, mut us) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut j = 0;
    for i in 0..n {
        let ti = t0 + step * i as f64;
        while j + 2 < t.len() && t[j + 1] <= ti {
            j += 1;
        }
        let w = ((ti - t[j]) / (t[j + 1] - t[j])).clamp(0.0, 1.0);
        ts.push(ti);
        us.push(u[j] + w * (u[j + 1] - u[j]));
    }
    Some((ts, us))
}

#[cfg(test)]
mod tests {
    use super::{resample, rows_passed, zero_phase_low_pass};
    use std::f64::consts::PI;

    /// A declared period makes the input periodic (the windows of a periodic input need it);
    /// none by default; a negative field is refused at its path.
    #[test]
    fn a_declared_period_makes_it_periodic_and_bad_values_are_refused() {
        let read = |y: &str| crate::inputs::resolve(&serde_yaml::from_str(y).unwrap());
        let plain = read("{kind: csv, path: data/m/r.csv}").unwrap();
        assert_eq!(plain.period(), None);
        let periodic = read("{kind: csv, path: data/m/r.csv, period: 2.5}").unwrap();
        assert_eq!(periodic.period(), Some(2.5));
        let errs = read("{kind: csv, path: data/m/r.csv, cutoff: -1}").err().unwrap();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].path, "input.cutoff");
    }

    /// Resampling is exact on a linear signal (linear interpolation of a line), at a step that
    /// does not divide the file's uneven times; the last sample stops at the last time.
    #[test]
    fn resampling_a_line_is_exact() {
        let t = [0.0, 0.3, 0.35, 1.0, 2.2, 3.0];
        let u: Vec<f64> = t.iter().map(|x| 2.0 - 1.5 * x).collect();
        let (ts, us) = resample(&t, &u, 0.25).unwrap();
        assert_eq!(ts.len(), 13, "0, 0.25, …, 3.0");
        for (x, y) in ts.iter().zip(&us) {
            assert!((y - (2.0 - 1.5 * x)).abs() < 1e-12, "u({x}) = {y}");
        }
        assert!(resample(&t, &u, 4.0).is_none(), "one sample only");
    }

    /// Zero phase: the peak of a smooth pulse stays at its time (a one-way first-order low-pass
    /// moves it by about tau = 0.016 s, 16 samples); attenuation: a sine at the cutoff keeps
    /// amplitude |H|^2 of the discrete filter (derived: a^2 / (1 - 2 (1-a) cos(w dt) + (1-a)^2),
    /// 0.4849 here, within w dt / 2 of the continuous 1/2), far from the edges.
    #[test]
    fn the_filter_keeps_the_phase_and_halves_the_power_gain_at_the_cutoff() {
        let dt = 1e-3;
        let t: Vec<f64> = (0..4001).map(|i| i as f64 * dt).collect();
        let mut u: Vec<f64> = t.iter().map(|x| (-((x - 2.0) / 0.1).powi(2)).exp()).collect();
        zero_phase_low_pass(&t, &mut u, 10.0);
        let peak = (0..u.len()).max_by(|&i, &j| u[i].total_cmp(&u[j])).unwrap();
        assert_eq!(peak, 2000, "peak at t = {}", t[peak]);

        let fc = 10.0;
        let w = 2.0 * PI * fc;
        let mut s: Vec<f64> = t.iter().map(|x| (w * x).sin()).collect();
        zero_phase_low_pass(&t, &mut s, fc);
        let tau = 1.0 / w;
        let a = dt / (tau + dt);
        let h2 = a * a / (1.0 - 2.0 * (1.0 - a) * (w * dt).cos() + (1.0 - a).powi(2));
        assert!((h2 - 0.5).abs() < w * dt / 2.0, "|H|^2 = {h2}");
        let mid = &s[1000..3000];
        let amp = mid.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        // Sampled at 100 points per cycle, the peak is within 1 - cos(pi/100) ≈ 5e-4 of the amplitude.
        assert!((amp - h2).abs() < 1e-3, "amplitude {amp}, |H|^2 {h2}");
    }

    #[test]
    fn the_budget_counts_only_the_rows_up_to_t_end() {
        let t: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(rows_passed(&t, Some(3.0)), 4, "t = 0, 1, 2, 3");
        assert_eq!(rows_passed(&t, Some(2.5)), 3);
        assert_eq!(rows_passed(&t, Some(1e7)), 10);
        assert_eq!(rows_passed(&t, None), 10, "no t_end: every row, an upper bound");
    }
}
