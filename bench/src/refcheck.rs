//! `fric-bench refcheck`: how accurate the B&S reference is. Runs problem (e)'s two formulations
//! (the path form with Dop853, the time form with Radau5 and with Dop853) at several tolerances
//! and prints each run's largest difference at the 300 comparison times from the path form at
//! the tightest rtol (the friction exact between reversals, so no stiff state), where it occurs
//! and the step count; then where Dop853 on the time form at 1e-12 parts from Radau5.

use crate::own;
use crate::problems::*;
use crate::Out;
use fric_solvers::Method;

/// The largest difference, the first time it occurs and the first time a difference exceeds
/// 1e-9 (where the runs part).
fn worst(times: &[f64], r: &Out, o: &Out) -> (f64, f64, f64) {
    let e = max_err_at(times, &r.y, &o.t, &o.y);
    // Where: the first comparison time whose difference is the largest (outputs in time order).
    let at = times
        .iter()
        .zip(&r.y)
        .zip(&o.y)
        .find(|((_, a), b)| (*a - *b).abs() == e)
        .map_or(f64::NAN, |((t, _), _)| *t);
    let part = times
        .iter()
        .zip(&r.y)
        .zip(&o.y)
        .find(|((_, a), b)| (*a - *b).abs() > 1e-9)
        .map_or(f64::NAN, |((t, _), _)| *t);
    (e, at, part)
}

pub fn refcheck() -> Result<(), String> {
    let times = bs_times();
    let reference = own::bs_path(Method::Dop853, 1e-13, 1e-13)?;
    println!(
        "B&S (e): difference from the path form, Dop853 rtol = atol = 1e-13 ({} steps)",
        reference.steps
    );
    println!("| formulation | rtol | hmax | max |ΔF| (N·m) | at t (s) | first |ΔF| > 1e-9 at t (s) | steps |");
    println!("|---|---|---|---|---|---|---|");
    let mut runs: Vec<(&str, f64, f64, Out)> = Vec::new();
    type Run = fn(Method, f64, f64) -> Result<Out, String>;
    for (name, method, run) in [
        ("path, Dop853", Method::Dop853, own::bs_path as Run),
        ("time, Radau5", Method::Radau5, own::bs),
        ("time, Dop853", Method::Dop853, own::bs),
    ] {
        for rtol in [1e-10, 1e-11, 1e-12, 1e-13] {
            runs.push((name, rtol, f64::INFINITY, run(method, rtol, rtol)?));
        }
    }
    for hmax in [1e-3, 1e-4] {
        runs.push((
            "time, Dop853",
            1e-12,
            hmax,
            own::bs_capped(Method::Dop853, 1e-12, 1e-12, hmax, &times)?,
        ));
        runs.push((
            "time, Radau5",
            1e-12,
            hmax,
            own::bs_capped(Method::Radau5, 1e-12, 1e-12, hmax, &times)?,
        ));
    }
    for (name, rtol, hmax, o) in &runs {
        let (e, at, part) = worst(&times, &reference, o);
        println!(
            "| {name} | {rtol:.0e} | {hmax:.0e} | {e:.2e} | {at:.4} | {part:.4} | {} |",
            o.steps
        );
    }
    // Dop853 on the time form at 1e-12 against Radau5 at 1e-13 on a fine grid around its worst
    // comparison time: where the difference is above 1e-9 (one window, zero outside it, is the
    // shape of an interpolation error inside one step, not of an error carried in the state).
    let fine: Vec<f64> = (0..=400).map(|i| 10.58 + 0.08 * i as f64 / 400.0).collect();
    let a = own::bs_capped(Method::Dop853, 1e-12, 1e-12, f64::INFINITY, &fine)?;
    let b = own::bs_capped(Method::Radau5, 1e-13, 1e-13, f64::INFINITY, &fine)?;
    let d: Vec<f64> = a.y.iter().zip(&b.y).map(|(a, b)| a - b).collect();
    let above: Vec<f64> = fine
        .iter()
        .zip(&d)
        .filter(|(_, d)| d.abs() > 1e-9)
        .map(|(t, _)| *t)
        .collect();
    let dmax = d.iter().fold(0.0f64, |m, d| m.max(d.abs()));
    println!(
        "time Dop853 1e-12 − time Radau5 1e-13 at 401 times in [10.58, 10.66] s: max {dmax:.2e}; above 1e-9 at {} times, from {:.4} to {:.4} s; at the window's ends {:.1e}, {:.1e}",
        above.len(),
        above.first().copied().unwrap_or(f64::NAN),
        above.last().copied().unwrap_or(f64::NAN),
        d[0],
        d[d.len() - 1]
    );
    // The whole run on a fine grid: the stretches (separated by more than 2 ms) where Dop853 on
    // the time form differs from Radau5 at 1e-13 by more than 1e-8.
    let fine: Vec<f64> = (1..=60_000).map(|i| bs_t1() * i as f64 / 60_000.0).collect();
    let b = own::bs_capped(Method::Radau5, 1e-13, 1e-13, f64::INFINITY, &fine)?;
    for rtol in [1e-11, 1e-12, 1e-13] {
        let a = own::bs_capped(Method::Dop853, rtol, rtol, f64::INFINITY, &fine)?;
        let (mut last, mut starts, mut mx) = (f64::NEG_INFINITY, Vec::new(), 0.0f64);
        for ((t, a), b) in fine.iter().zip(&a.y).zip(&b.y) {
            mx = mx.max((a - b).abs());
            if (a - b).abs() > 1e-8 {
                if t - last > 2e-3 {
                    starts.push(*t);
                }
                last = *t;
            }
        }
        println!(
            "time Dop853 {rtol:.0e} − time Radau5 1e-13 at 60000 times: max {mx:.2e}; {} stretches above 1e-8, the first from {:.4} s, the last from {:.4} s",
            starts.len(),
            starts.first().copied().unwrap_or(f64::NAN),
            starts.last().copied().unwrap_or(f64::NAN)
        );
    }
    // The same two methods run only up to times inside that window, so that a step ends there
    // (another step sequence than the full run's: the driver's first step depends on the end).
    for t1 in [10.6194, 10.6266] {
        let a = own::bs_until(Method::Dop853, 1e-12, t1)?;
        let b = own::bs_until(Method::Radau5, 1e-13, t1)?;
        println!(
            "run ending at {t1} s: time Dop853 1e-12 − time Radau5 1e-13 = {:.2e}",
            a - b
        );
    }
    Ok(())
}
