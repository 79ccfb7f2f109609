//! `fric-bench probe --one-run`: issue 51's measurements in one process. First the LuGre problem
//! (a) by the `fric-experiments` default (the `exponential` method: `expquad`, 4 nodes, step cap
//! period/100), against the fastest Rust crate (differential-equations' Radau5, capped at
//! period/1000 as every step-based side) and SciPy's LSODA, BDF and Radau (`scipy_bench.py
//! --time-one`, one process per timing); then Van der Pol (b), Coulomb (c), the 500-bristle CBM
//! (d), B&S (e), PID (f), the DF point (g) and the force-driven CBM (h), each with our fastest
//! methods, the fastest crate that reached the target on 2026-11-30 (on (c) the one crate with
//! event location, which did not; none has a driver for (d)) and SciPy's two fastest, errors as
//! `fric-bench run`'s against
//! `bench/out/reference.json`. Each contender first walks the ladder from rtol 1e-5 and keeps the
//! loosest rung whose error is at or below the common target 1e-6; then rounds of one timing of
//! each, so that all see the same load. Printed: per contender its rtol, error, the median and
//! minimum of its times, the median over rounds of its time over ours and the ratio of the
//! minima.

use crate::problems::*;
use crate::{crates, ladder, own, Out};
use fric_solvers::expquad::Relaxation;
use fric_solvers::Method;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

const TARGET: f64 = 1e-6;
/// `scipy_bench.py --time-one`'s budget per run (seconds).
const SCIPY_BUDGET: f64 = 20.0;

/// A timing of one contender at one rtol: `(seconds, error)`, or `None` when the run failed or
/// ran over SciPy's budget.
type Timer = Box<dyn Fn(f64) -> Result<Option<(f64, f64)>, String>>;

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// One SciPy process timing `method` at `rtol` on the LuGre problem.
fn scipy(method: &str, rtol: f64) -> Result<Option<(f64, f64)>, String> {
    scipy_on("lugre", method, rtol)
}

/// One SciPy process timing `method` at `rtol` on `problem` (the median of its own repeats; one
/// run if over 1 s), its error against `bench/out/reference.json`; `None` if it failed (over its
/// 20 s budget raises).
fn scipy_on(problem: &str, method: &str, rtol: f64) -> Result<Option<(f64, f64)>, String> {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scipy_bench.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .args(["--time-one", problem, method, &format!("{rtol:e}")])
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace().map(|w| w.parse::<f64>());
    match (out.status.success(), it.next(), it.next()) {
        (true, Some(Ok(t)), Some(Ok(e))) => Ok(Some((t, e))),
        _ => Ok(None),
    }
}

/// A Rust contender timed as the median of `n` runs.
fn rust(run: impl Fn(f64) -> Result<Out, String> + 'static, n: usize) -> Timer {
    let reference = own::lugre(Method::Radau5, 1e-12, 1e-12 * LUGRE_ATOL_SCALE);
    Box::new(move |rtol| {
        let reference = reference.as_ref().map_err(Clone::clone)?;
        let mut ts = Vec::with_capacity(n);
        let mut e = f64::NAN;
        for _ in 0..n {
            let s = Instant::now();
            let o = run(rtol)?;
            ts.push(s.elapsed().as_secs_f64());
            e = max_err_at(&lugre_times(), &reference.y, &o.t, &o.y);
        }
        Ok(Some((median(&ts), e)))
    })
}

/// Whether the contenders are on their ladders (the Rust ones then print their steps and
/// right-hand sides), not in the timed rounds.
static LADDER: AtomicBool = AtomicBool::new(true);

/// A Rust contender on `problem` (not LuGre) timed as the median of `n` runs, its error that of
/// `fric-bench run` against `bench/out/reference.json` (the reference SciPy reads too), atol =
/// rtol times the problem's atol scale.
fn rust_on(
    problem: &'static str,
    refv: std::rc::Rc<serde_json::Value>,
    run: impl Fn(f64, f64) -> Result<Out, String> + 'static,
    n: usize,
) -> Timer {
    Box::new(move |rtol| {
        let scale = refv["problems"][problem]["atol_scale"]
            .as_f64()
            .ok_or_else(|| format!("reference.json: no atol_scale for {problem}"))?;
        let mut ts = Vec::with_capacity(n);
        let mut e = f64::NAN;
        let mut work = (0, 0);
        for _ in 0..n {
            let s = Instant::now();
            let o = run(rtol, rtol * scale)?;
            ts.push(s.elapsed().as_secs_f64());
            e = crate::error_of(problem, &refv, &o);
            work = (o.steps, o.rhs_evals);
        }
        if LADDER.load(Ordering::Relaxed) {
            eprintln!(
                "{problem} at rtol {rtol:.1e}: {} steps, {} right-hand sides",
                work.0, work.1
            );
        }
        Ok(Some((median(&ts), e)))
    })
}

/// The contenders of one problem: ours first (the problem's fastest method of our own on
/// 2026-11-30), then the fastest crate where one reached the target (on Coulomb the only crate
/// with event location, which did not), then SciPy's two fastest. No crate has a driver for the
/// 500-bristle CBM.
fn contenders(problem: &'static str, refv: &std::rc::Rc<serde_json::Value>) -> Vec<(String, Timer)> {
    let r = || refv.clone();
    let sc = move |m: &'static str| -> (String, Timer) {
        (format!("SciPy {m}"), Box::new(move |rt| scipy_on(problem, m, rt)))
    };
    match problem {
        "vdp" => vec![
            (
                "ours: Dop853Radau5".into(),
                rust_on(problem, r(), |rt, at| own::vdp(Method::Dop853Radau5, rt, at), 9),
            ),
            (
                "diffsol BDF".into(),
                rust_on(problem, r(), |rt, at| crates::ds_vdp(crates::DsMethod::Bdf, rt, at), 5),
            ),
            sc("LSODA"),
            sc("Radau"),
        ],
        "coulomb" => vec![
            (
                "ours: Dopri5".into(),
                rust_on(problem, r(), |rt, at| own::coulomb(Method::Dopri5, rt, at), 9),
            ),
            (
                "differential-equations DOP853".into(),
                rust_on(
                    problem,
                    r(),
                    |rt, at| crates::de_coulomb(crates::DeMethod::Dop853, rt, at),
                    5,
                ),
            ),
            sc("LSODA"),
            sc("DOP853"),
        ],
        "bristle500" => vec![
            (
                "ours: Dopri5".into(),
                rust_on(problem, r(), |rt, at| own::bristle(Method::Dopri5, rt, at), 9),
            ),
            sc("LSODA"),
            sc("DOP853"),
        ],
        "bs" => vec![
            (
                "ours: PathExact+Dop853".into(),
                rust_on(problem, r(), |rt, at| own::bs_path(Method::Dop853, rt, at), 9),
            ),
            (
                "ours: Dop853 on the time form".into(),
                rust_on(problem, r(), |rt, at| own::bs(Method::Dop853, rt, at), 9),
            ),
            (
                "ode_solvers Dopri5".into(),
                rust_on(
                    problem,
                    r(),
                    |rt, at| crates::os_bs(crates::OsMethod::Dopri5, rt, at),
                    9,
                ),
            ),
            sc("LSODA"),
            sc("DOP853"),
        ],
        "pid" => vec![
            (
                "ours: Dop853Radau5".into(),
                rust_on(problem, r(), |rt, at| own::pid(Method::Dop853Radau5, rt, at), 9),
            ),
            (
                "ode_solvers Dop853".into(),
                rust_on(
                    problem,
                    r(),
                    |rt, at| crates::os_pid(crates::OsMethod::Dop853, rt, at),
                    9,
                ),
            ),
            sc("LSODA"),
            sc("DOP853"),
        ],
        "cbm_fd" => vec![
            (
                "ours: Dop853Radau5".into(),
                rust_on(problem, r(), |rt, at| own::cbm_fd(Method::Dop853Radau5, rt, at), 5),
            ),
            sc("LSODA"),
            sc("Radau"),
        ],
        "df" => vec![
            (
                "ours: shooting on the path form, Dop853".into(),
                rust_on(problem, r(), |rt, at| own::df(Method::Dop853, rt, at), 9),
            ),
            (
                "ours: the same without the orbit check".into(),
                rust_on(problem, r(), |rt, at| own::df_unchecked(Method::Dop853, rt, at), 9),
            ),
            (
                "ode_solvers Dopri5".into(),
                rust_on(
                    problem,
                    r(),
                    |rt, at| crates::os_df(crates::OsMethod::Dopri5, rt, at),
                    5,
                ),
            ),
            sc("LSODA"),
            sc("DOP853"),
        ],
        _ => Vec::new(),
    }
}

/// `fric-bench probe --one-run`: the LuGre problem (a), then Van der Pol (b), Coulomb (c), the
/// 500-bristle CBM (d), B&S (e), PID (f), the DF point (g) and the force-driven CBM (h), each
/// problem's contenders in rounds of their own (issue 51 items 2 and 5). With `only`, that
/// problem alone; with `ours_only` (`--ours`), only our own contenders (no crate, no SciPy, not
/// LuGre): our methods timed against each other. Needs `bench/out/reference.json` (`fric-bench
/// run` writes it).
pub fn one_run(rounds: usize, only: Option<&str>, ours_only: bool) -> Result<(), String> {
    if !ours_only && only.is_none_or(|p| p == "lugre") {
        one_run_lugre(rounds)?;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("out/reference.json");
    let refv = std::rc::Rc::new(crate::read_json(&path)?);
    for problem in ["vdp", "coulomb", "bristle500", "bs", "pid", "df", "cbm_fd"] {
        if only.is_some_and(|p| p != problem) {
            continue;
        }
        let mut c = contenders(problem, &refv);
        if ours_only {
            c.retain(|(name, _)| name.starts_with("ours"));
        }
        duel(problem, &c, rounds)?;
    }
    Ok(())
}

/// The LuGre problem (a), as measured for issue 51 item 1.
fn one_run_lugre(rounds: usize) -> Result<(), String> {
    let a = LUGRE_ATOL_SCALE;
    let cap = own::lugre_expint_cap();
    let contenders: Vec<(String, Timer)> = vec![
        (
            "ours: exponential default (expquad S=4, cap T/100)".into(),
            rust(
                move |r| own::lugre_expint_capped(&Relaxation::<4>::new(), r, 0.0, cap),
                31,
            ),
        ),
        (
            "differential-equations Radau5 (capped)".into(),
            rust(move |r| crates::de_lugre(crates::DeMethod::Radau5, r, r * a), 5),
        ),
        ("SciPy LSODA".into(), Box::new(|r| scipy("LSODA", r))),
        ("SciPy BDF".into(), Box::new(|r| scipy("BDF", r))),
        ("SciPy Radau".into(), Box::new(|r| scipy("Radau", r))),
    ];
    duel("lugre", &contenders, rounds)
}

/// Each contender's loosest rung (from rtol 1e-5) at or below the target, then `rounds` rounds
/// of one timing of each; prints the table.
fn duel(problem: &str, contenders: &[(String, Timer)], rounds: usize) -> Result<(), String> {
    LADDER.store(true, Ordering::Relaxed);
    // Ladders: the loosest rung at or below the target.
    let mut chosen: Vec<(String, &Timer, f64, f64)> = Vec::new();
    for (name, timer) in contenders {
        let mut best = f64::INFINITY;
        for rtol in ladder().into_iter().filter(|&r| r <= 1.01e-5) {
            let called = Instant::now();
            match timer(rtol)? {
                Some((t, e)) => {
                    eprintln!("{problem} ladder {name:52} rtol {rtol:.1e}  err {e:.2e}  {t:.3e} s");
                    best = best.min(e);
                    if e <= TARGET {
                        chosen.push((name.clone(), timer, rtol, e));
                        break;
                    }
                }
                // A quick failure (SciPy's event location raising at a loose rung, as on (d))
                // goes on to the next rung; a run over the 20 s budget stops the ladder.
                None if called.elapsed().as_secs_f64() < SCIPY_BUDGET => {
                    eprintln!("{problem} ladder {name:52} rtol {rtol:.1e}  failed: next rung");
                }
                None => {
                    eprintln!("{problem} ladder {name:52} rtol {rtol:.1e}  over the 20 s budget: ladder stopped");
                    break;
                }
            }
        }
        if !chosen.iter().any(|c| &c.0 == name) {
            eprintln!("{problem}: {name} did not reach the target (best error {best:.2e}): not timed");
        }
    }
    if chosen.first().map(|c| c.0.as_str()) != Some(contenders[0].0.as_str()) {
        return Err(format!("{problem}: ours did not reach the target"));
    }
    LADDER.store(false, Ordering::Relaxed);
    // Rounds: one timing of each chosen contender per round.
    let mut t = vec![Vec::with_capacity(rounds); chosen.len()];
    for k in 0..rounds {
        for (i, (name, timer, rtol, _)) in chosen.iter().enumerate() {
            let (s, _) = timer(*rtol)?.ok_or_else(|| format!("{name} failed in round {k}"))?;
            t[i].push(s);
        }
        eprintln!("round {} done", k + 1);
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    eprintln!(
        "{problem}, one run: {rounds} rounds, target {TARGET:e}, load average at the end {}",
        load.trim()
    );
    eprintln!(
        "| contender | rtol | error | median | min | time / ours: median of per-round ratios | ratio of minima |"
    );
    for (i, (name, _, rtol, e)) in chosen.iter().enumerate() {
        let ratio: Vec<f64> = t[i].iter().zip(&t[0]).map(|(x, b)| x / b).collect();
        eprintln!(
            "| {name} | {rtol:.1e} | {e:.2e} | {:.3e} s | {:.3e} s | {:.1} (range {:.1}–{:.1}) | {:.1} |",
            median(&t[i]),
            min(&t[i]),
            median(&ratio),
            min(&ratio),
            ratio.iter().copied().fold(0.0, f64::max),
            min(&t[i]) / min(&t[0])
        );
    }
    Ok(())
}
