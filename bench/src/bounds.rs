//! `fric-bench bounds`: issue 51 item 2's written lower bounds, from counts measured here. For
//! B&S (e), PID (f) and the force-driven CBM (h), each at the rung `--one-run` timed on
//! 2026-12-06 (the loosest rtol whose error met 1e-6): the events a correct answer must locate
//! (each ends an integration segment: a restart), the steps and right-hand sides our method
//! took, its time (median of 9), and the cost of one right-hand side alone (median of 5 loops of
//! 10⁵ at the run's own states). The bounds: every segment between two located events needs at
//! least one right-hand side (any method), and at least one step of the method (DOP853: 12
//! stages, 11 right-hand sides with the first stage reused; for DOP853 switched with Radau IIA
//! the cheaper, a Radau IIA step with one Newton iteration: 3), so time ≥ segments × that ×
//! the cost of one right-hand side, with nothing charged for locating the event, error control,
//! Jacobians or output. Also printed: what the right-hand sides our method took cost alone (its
//! time with no per-step overhead at the same step count; not a bound on other step counts).
//! Printed beside the 100× budget (SciPy LSODA's time / 100, from
//! docs/benchmarks.md: not re-measured here).

use crate::own;
use crate::problems::*;
use fric_solvers::{solve, Method, OdeSystem};
use std::hint::black_box;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median over 5 loops of the time of one call of `f` on each of `states` in turn.
fn per_call(states: &[Vec<f64>], mut f: impl FnMut(&[f64])) -> f64 {
    const N: usize = 100_000;
    median(
        (0..5)
            .map(|_| {
                let s = Instant::now();
                for k in 0..N {
                    f(black_box(&states[k % states.len()]));
                }
                s.elapsed().as_secs_f64() / N as f64
            })
            .collect(),
    )
}

/// Median time over 9 runs, and the last run's result.
fn timed<T>(mut run: impl FnMut() -> Result<T, String>) -> Result<(f64, T), String> {
    let mut ts = Vec::new();
    let mut last = None;
    for _ in 0..9 {
        let s = Instant::now();
        let r = run()?;
        ts.push(s.elapsed().as_secs_f64());
        last = Some(r);
    }
    Ok((median(ts), last.expect("nine runs")))
}

struct Row {
    name: &'static str,
    events: usize,
    steps: usize,
    rhs: usize,
    time: f64,
    t_rhs: f64,
    /// Right-hand sides of one step of the method, at least.
    step_rhs: usize,
    /// LSODA's time from docs/benchmarks.md (quiet 2026-11-30, one run 2026-12-06), seconds.
    lsoda: (f64, f64),
}

fn print(r: &Row) {
    let seg = (r.events + 1) as f64;
    let lb_any = seg * r.t_rhs;
    let lb_step = seg * r.step_rhs as f64 * r.t_rhs;
    println!(
        "{}: {} events, {} steps, {} right-hand sides, {:.3} ms (median of 9); one right-hand side {:.1} ns; \
         {:.1} steps and {:.1} right-hand sides a segment; lower bounds {:.4} ms (1 right-hand side a segment), \
         {:.3} ms (one {}-right-hand-side step a segment); time / bound {:.1}; the right-hand sides taken cost {:.3} ms \
         ({:.0} % of the time); 100x budget {:.2} ms (quiet LSODA) / {:.2} ms (one run)",
        r.name,
        r.events,
        r.steps,
        r.rhs,
        r.time * 1e3,
        r.t_rhs * 1e9,
        r.steps as f64 / seg,
        r.rhs as f64 / seg,
        lb_any * 1e3,
        lb_step * 1e3,
        r.step_rhs,
        r.time / lb_step,
        r.rhs as f64 * r.t_rhs * 1e3,
        100.0 * r.rhs as f64 * r.t_rhs / r.time,
        r.lsoda.0 * 10.0,
        r.lsoda.1 * 10.0,
    );
}

pub fn bounds() -> Result<(), String> {
    // (e) B&S exact along the path, DOP853 at rtol 1e-8 (atol scale 1).
    let (time, o) = timed(|| own::bs_path(Method::Dop853, 1e-8, 1e-8))?;
    let states: Vec<Vec<f64>> = (0..64)
        .map(|k| vec![1e-3 * k as f64, 0.05 - 1e-3 * k as f64, 0.1, 0.02])
        .collect();
    let mut dx = vec![0.0; 4];
    let t_rhs = per_call(&states, |x| own::BsPath.rhs(1.0, x, black_box(&mut dx)));
    print(&Row {
        name: "(e) B&S, PathExact+Dop853, rtol 1e-8",
        events: o.switches.len(),
        steps: o.steps,
        rhs: o.rhs_evals,
        time,
        t_rhs,
        step_rhs: 11,
        lsoda: (0.225, 0.903),
    });

    // (f) PID, Dop853Radau5 at rtol 1e-6 (atol 1e-9); events: the reversals of θ' (kinks of
    // LuGre's |v|), counted on a 1 ms grid of a DOP853 run at rtol 1e-10.
    let (time, o) = timed(|| own::pid(Method::Dop853Radau5, 1e-6, 1e-6 * PID_ATOL_SCALE))?;
    let pid = own::Pid(pid_loop());
    let grid: Vec<f64> = (1..=30_000).map(|i| i as f64 * 1e-3).collect();
    let mut states = Vec::with_capacity(grid.len());
    let tl = own::tol(1e-10, 1e-13, f64::INFINITY);
    solve(&pid, Method::Dop853, &tl, 0.0, &[0.0; 4], PID_T1, &grid, &mut |_, x| {
        states.push(x.to_vec())
    })
    .map_err(|e| e.to_string())?;
    let reversals = states.windows(2).filter(|w| w[0][1] * w[1][1] < 0.0).count();
    let sample: Vec<Vec<f64>> = states.iter().step_by(97).cloned().collect();
    let t_rhs = per_call(&sample, |x| pid.rhs(0.0, x, black_box(&mut dx)));
    print(&Row {
        name: "(f) PID, Dop853Radau5, rtol 1e-6",
        events: reversals,
        steps: o.steps,
        rhs: o.rhs_evals,
        time,
        t_rhs,
        step_rhs: 3,
        lsoda: (0.116, 0.449),
    });

    // (h) Force-driven CBM, Dop853Radau5 at rtol 3.2e-8 (atol scale 1e-2); events: region
    // changes and window (bristle) events, each a restart of the Switch Model.
    use fric_experiments::cbm::{run, CbmSettings};
    use fric_models::cbm::{Branch, Configuration, Windows};
    let config = cbm_fd_config();
    let rtol = 10f64.powf(-7.5);
    let settings = CbmSettings {
        eta: CBM_FD_ETA,
        tau: CBM_FD_TAU,
        method: Method::Dop853Radau5,
        tol: own::tol(rtol, rtol * CBM_FD_ATOL_SCALE, f64::INFINITY),
        max_events: 1_000_000,
    };
    let grid: Vec<f64> = (1..=1000).map(|i| i as f64 * 0.1).collect();
    let (time, r) = timed(|| run(&config, &[0.0; 4], CBM_FD_T1, &grid, &settings).map_err(|e| e.to_string()))?;
    let events = r.region_changes.len() + r.window_events;
    let sample: Vec<(f64, Vec<f64>, Windows)> =
        r.t.iter()
            .zip(&r.state)
            .step_by(7)
            .map(|(&t, s)| (t, s.clone(), Windows::locate(config.cbm(), s[0])))
            .collect();
    let mut k = 0;
    let t_rhs = per_call(&sample.iter().map(|s| s.1.clone()).collect::<Vec<_>>(), |x| {
        let (t, _, w) = &sample[k % sample.len()];
        k += 1;
        config.f(Branch::Plus, *t, x, w, black_box(&mut dx));
    });
    println!(
        "(h): {} region changes, {} window events",
        r.region_changes.len(),
        r.window_events
    );
    print(&Row {
        name: "(h) force-driven CBM, Dop853Radau5, rtol 3.2e-8",
        events,
        steps: r.stats.accepted + r.stats.rejected,
        rhs: r.stats.rhs_evals,
        time,
        t_rhs,
        step_rhs: 3,
        lsoda: (0.742, 3.771),
    });
    Ok(())
}
