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
        let step = req.input.number("step");
        let rows = req.input_data.as_ref().map_or(2.0, |d| {
            if step > 0.0 {
                resampled_passed(&d.t, step, req.sim.t_end)
            } else {
                rows_passed(&d.t, req.sim.t_end) as f64
            }
        });
        (budget::samples_per_period(req) + 1.0 + rows, 1.0)
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

/// The samples resampling `t` to a uniform `step` gives (`t_0, t_0 + step, …` up to the last
/// time), as a floating-point number so that a tiny or subnormal step is measured, not overflowed.
fn resampled_len(t: &[f64], step: f64) -> f64 {
    resampled_upto(t, step, t[t.len() - 1])
}

/// The resampled times `t_0 + k step` that are `<= end` (0 when `end < t_0`).
fn resampled_upto(t: &[f64], step: f64, end: f64) -> f64 {
    let span = end - t[0];
    if span < 0.0 {
        return 0.0;
    }
    (span / step * (1.0 + 1e-12)).floor() + 1.0
}

/// The breakpoints of the resampled input a run up to `t_end` passes through (every one of
/// them without a `t_end`).
fn resampled_passed(t: &[f64], step: f64, t_end: Option<f64>) -> f64 {
    let last = t[t.len() - 1];
    resampled_upto(t, step, t_end.map_or(last, |e| e.min(last)))
}

/// A `step` whose resampling of the read file would exceed [`budget::MAX_SAMPLES`] samples,
/// refused at `input.step` (the resampling allocates them all, whatever `t_end`; an allocation
/// failure aborts the process). `None` for any other input, or before the file is read.
pub fn step_over_budget(req: &RunRequest) -> Option<Invalid> {
    let d = req.input_data.as_ref()?;
    if req.input.decl().doc.name != DECL.doc.name || d.t.is_empty() {
        return None;
    }
    let step = req.input.number("step");
    if !(step > 0.0) {
        return None;
    }
    let n = resampled_len(&d.t, step);
    let span = d.t[d.t.len() - 1] - d.t[0];
    (!(n <= budget::MAX_SAMPLES)).then(|| {
        Invalid::new(
            "input.step",
            format!(
                "step {step} s resamples the {span} s of `{}` into {n:.3e} samples; the limit is {:.0e} \
                 samples per run",
                req.input.text("path"),
                budget::MAX_SAMPLES
            ),
            format!(
                "a step of at least {:.3e} s, or 0 to keep the file's times",
                span / (budget::MAX_SAMPLES - 1.0)
            ),
        )
    })
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
        resample(&d.t, &u, step).map_err(|e| format!("`{}`: {e}", input.text("path")))?
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

/// `(t, u)` linearly interpolated at `t_0, t_0 + step, …` up to the last time; an error when that
/// is fewer than two samples or more than [`budget::MAX_SAMPLES`] (counted before allocating).
pub fn resample(t: &[f64], u: &[f64], step: f64) -> Result<(Vec<f64>, Vec<f64>), String> {
    let (t0, t1) = (t[0], t[t.len() - 1]);
    let n = resampled_len(t, step);
    if !(n >= 2.0) {
        return Err(format!(
            "step {step} s leaves fewer than two samples over {} s",
            t1 - t0
        ));
    }
    if !(n <= budget::MAX_SAMPLES) {
        return Err(format!(
            "step {step} s gives {n:.3e} samples over {} s; the limit is {:.0e} samples per run",
            t1 - t0,
            budget::MAX_SAMPLES
        ));
    }
    let n = n as usize;
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
    Ok((ts, us))
}

#[cfg(test)]
mod tests {
    use super::{resample, resampled_passed, rows_passed, step_over_budget, zero_phase_low_pass};
    use crate::InputData;
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
        assert!(resample(&t, &u, 4.0).is_err(), "one sample only");
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

    /// Code review H2: a tiny step would ask for ~1e14 samples (an allocation failure aborts the
    /// process) and a subnormal one overflowed the count; both are refused at `input.step` before
    /// anything is allocated, and the budget counts the resampled rows, not the file's.
    #[test]
    fn a_step_past_the_budget_is_refused_and_the_budget_counts_resampled_rows() {
        let t: Vec<f64> = (0..=100).map(f64::from).collect();
        let u = vec![0.0; t.len()];
        for step in [1e-12, 1e-310, 100.0 / 5e6] {
            let e = resample(&t, &u, step).err().unwrap();
            assert!(e.contains("limit is 5e6 samples"), "{step}: {e}");
        }
        assert_eq!(resample(&t, &u, 100.0 / (5e6 - 1.0)).unwrap().0.len(), 5_000_000);
        let with = |step: f64, t_end: Option<f64>| {
            let yaml = format!("{{kind: csv, path: data/m/r.csv, step: {step}}}");
            let mut req = crate::RunRequest {
                system: "lugre".into(),
                params: Default::default(),
                input: crate::inputs::resolve(&serde_yaml::from_str(&yaml).unwrap()).unwrap(),
                sim: Default::default(),
                method: crate::system("lugre").expect("lugre").methods[0],
                input_data: None,
            };
            req.sim.t_end = t_end;
            req.input_data = Some(InputData {
                path: "data/m/r.csv".into(),
                sha256: String::new(),
                t: t.clone(),
                u: u.clone(),
            });
            req
        };
        let bad = step_over_budget(&with(1e-12, None)).unwrap();
        assert_eq!(bad.path, "input.step");
        assert!(bad.message.contains("1.000e14 samples"), "{}", bad.message);
        assert!(step_over_budget(&with(0.5, None)).is_none());
        // 0, 0.5, …, 10: 21 rows up to t_end = 10, not the file's 11; 201 without t_end.
        assert_eq!(resampled_passed(&t, 0.5, Some(10.0)), 21.0);
        assert_eq!(resampled_passed(&t, 0.5, None), 201.0);
        let (rows, _) = crate::budget::estimate(&with(0.5, Some(10.0)));
        let (plain, _) = crate::budget::estimate(&with(0.0, Some(10.0)));
        assert_eq!(rows - plain, 21.0 - 11.0, "{rows} vs {plain}");
    }
}
