//! Benchmark driver (`cargo xtask bench` runs it; see README.md, "Benchmark").
//!
//! - `fric-bench run`: writes `bench/out/reference.json` (tight references from our Radau5 /
//!   Dop853 at rtol 1e-12, with the problem descriptions) and `bench/out/rust.json` (a tolerance
//!   ladder per method for our solvers and the external crates).
//! - `fric-bench compare`: reads those and `bench/out/scipy.json` (written by `scipy_bench.py`),
//!   picks per method the fastest run whose error is at or below the problem's target, prints a
//!   Markdown report and writes `bench/out/results.md` and `bench/out/results.json`.
//! - `fric-bench bounds`: issue 51 item 2's lower bounds for B&S, PID and the force-driven CBM
//!   from measured event, step and right-hand-side counts (`bounds.rs`).
//! - `fric-bench refcheck`: the B&S reference's accuracy, its two formulations at several
//!   tolerances (`refcheck.rs`).

mod bounds;
mod compare;
mod crates;
mod onerun;
mod own;
mod path_prototype;
mod probe;
mod problems;
mod refcheck;

use fric_solvers::Method;
use problems::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What one run produced: outputs at the comparison times (`t`, `y`) or, for the hybrid problem,
/// the switches `(time, new mode)`, and the final state and counters.
#[derive(Default, Debug, Clone)]
pub struct Out {
    pub t: Vec<f64>,
    pub y: Vec<f64>,
    pub switches: Vec<(f64, f64)>,
    pub x_end: Vec<f64>,
    pub steps: usize,
    pub rhs_evals: usize,
    /// The solver's counters where the run is one of ours through `solve`, `Integrator` or the
    /// CBM driver (zero otherwise).
    pub stats: fric_solvers::Stats,
}

/// Tolerance ladder: rtol = 10^(−3 − k/2), k = 0 … 16 (1e-3 … 1e-11).
pub fn ladder() -> Vec<f64> {
    (0..=16).map(|k| 10f64.powf(-3.0 - 0.5 * k as f64)).collect()
}
/// A method's ladder stops after the first run that reaches the target plus this many more (a
/// tighter tolerance costs more; the extra runs guard against a non-monotone error).
const EXTRA_AFTER_TARGET: usize = 2;
/// A method's ladder stops after a single run longer than this (seconds).
const RUN_BUDGET: f64 = 10.0;

fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("out")
}

/// Median wall time over repeats: at least 3 runs, more for fast runs (up to ~0.5 s in total,
/// at most 31), a single run when one takes longer than 1 s.
fn timed(f: &mut dyn FnMut() -> Result<Out, String>) -> Result<(Out, f64, usize), String> {
    let s = Instant::now();
    let o = f()?;
    let first = s.elapsed().as_secs_f64();
    if first > 1.0 {
        return Ok((o, first, 1));
    }
    let reps = ((0.5 / first.max(1e-9)).ceil() as usize).clamp(3, 31);
    let mut ts = vec![first];
    for _ in 1..reps {
        let s = Instant::now();
        std::hint::black_box(f()?);
        ts.push(s.elapsed().as_secs_f64());
    }
    ts.sort_by(f64::total_cmp);
    Ok((o, ts[ts.len() / 2], reps))
}

type Runner = Box<dyn Fn(f64, f64) -> Result<Out, String>>;

struct Entry {
    problem: &'static str,
    implementation: &'static str,
    method: String,
    run: Runner,
}

fn entries() -> Vec<Entry> {
    let mut v = Vec::new();
    for (m, name) in own::METHODS {
        let e = |problem, run: Runner| Entry {
            problem,
            implementation: "fric-solvers",
            method: name.to_string(),
            run,
        };
        v.push(e("lugre", Box::new(move |r, a| own::lugre(m, r, a))));
        v.push(e("vdp", Box::new(move |r, a| own::vdp(m, r, a))));
        v.push(e("coulomb", Box::new(move |r, a| own::coulomb(m, r, a))));
        v.push(e("bristle500", Box::new(move |r, a| own::bristle(m, r, a))));
        v.push(e("cbm_fd", Box::new(move |r, a| own::cbm_fd(m, r, a))));
        v.push(e("bs", Box::new(move |r, a| own::bs(m, r, a))));
        v.push(e("pid", Box::new(move |r, a| own::pid(m, r, a))));
        v.push(e("df", Box::new(move |r, a| own::df(m, r, a))));
    }
    for (m, name) in [(Method::Radau5, "LongRun+Radau5"), (Method::Dop853, "LongRun+Dop853")] {
        v.push(Entry {
            problem: "df",
            implementation: "fric-solvers",
            method: name.to_string(),
            run: Box::new(move |r, a| own::df_long(m, r, a)),
        });
    }
    v.push(Entry {
        problem: "lugre",
        implementation: "fric-solvers",
        method: "IntegratingFactor".to_string(),
        run: Box::new(own::lugre_affine),
    });
    v.push(Entry {
        problem: "lugre",
        implementation: "fric-solvers",
        method: "ExpCollocation".to_string(),
        run: Box::new(own::lugre_expint),
    });
    v.push(Entry {
        problem: "lugre",
        implementation: "fric-solvers",
        method: "ExpRelaxation".to_string(),
        run: Box::new(own::lugre_expquad),
    });
    v.push(Entry {
        problem: "lugre",
        implementation: "fric-solvers",
        method: "ExpPath".to_string(),
        run: Box::new(own::lugre_expint_path_solver),
    });
    v.push(Entry {
        problem: "lugre",
        implementation: "fric-solvers",
        method: "ExpCollocation6".to_string(),
        run: Box::new(own::lugre_expint6),
    });
    for (m, name) in [
        (Method::Dop853, "PathExact+Dop853"),
        (Method::Dopri5, "PathExact+Dopri5"),
    ] {
        v.push(Entry {
            problem: "bs",
            implementation: "fric-solvers",
            method: name.to_string(),
            run: Box::new(move |r, a| own::bs_path(m, r, a)),
        });
    }
    for (m, name) in [
        (crates::OsMethod::Dopri5, "Dopri5"),
        (crates::OsMethod::Dop853, "Dop853"),
    ] {
        let e = |problem, run: Runner| Entry {
            problem,
            implementation: "ode_solvers",
            method: name.to_string(),
            run,
        };
        v.push(e("lugre", Box::new(move |r, a| crates::os_lugre(m, r, a))));
        v.push(e("vdp", Box::new(move |r, a| crates::os_vdp(m, r, a))));
        v.push(e("bs", Box::new(move |r, a| crates::os_bs(m, r, a))));
        v.push(e("pid", Box::new(move |r, a| crates::os_pid(m, r, a))));
        v.push(e("df", Box::new(move |r, a| crates::os_df(m, r, a))));
    }
    for (m, name) in [
        (crates::DeMethod::Dop853, "DOP853"),
        (crates::DeMethod::Radau5, "Radau5"),
    ] {
        let e = |problem, run: Runner| Entry {
            problem,
            implementation: "differential-equations",
            method: name.to_string(),
            run,
        };
        v.push(e("lugre", Box::new(move |r, a| crates::de_lugre(m, r, a))));
        v.push(e("vdp", Box::new(move |r, a| crates::de_vdp(m, r, a))));
        v.push(e("coulomb", Box::new(move |r, a| crates::de_coulomb(m, r, a))));
        v.push(e("bs", Box::new(move |r, a| crates::de_bs(m, r, a))));
        v.push(e("pid", Box::new(move |r, a| crates::de_pid(m, r, a))));
        v.push(e("df", Box::new(move |r, a| crates::de_df(m, r, a))));
    }
    for (m, name) in [(crates::DsMethod::Bdf, "BDF"), (crates::DsMethod::Esdirk34, "ESDIRK34")] {
        let e = |problem, run: Runner| Entry {
            problem,
            implementation: "diffsol",
            method: name.to_string(),
            run,
        };
        v.push(e("lugre", Box::new(move |r, a| crates::ds_lugre(m, r, a))));
        v.push(e("vdp", Box::new(move |r, a| crates::ds_vdp(m, r, a))));
        v.push(e("bs", Box::new(move |r, a| crates::ds_bs(m, r, a))));
        v.push(e("pid", Box::new(move |r, a| crates::ds_pid(m, r, a))));
        v.push(e("df", Box::new(move |r, a| crates::ds_df(m, r, a))));
    }
    v
}

pub fn error_of(problem: &str, reference: &Value, o: &Out) -> f64 {
    let p = &reference["problems"][problem];
    match problem {
        "lugre" | "vdp" | "bs" | "pid" => max_err_at(&floats(&p["t_cmp"]), &floats(&p["ref"]), &o.t, &o.y),
        "coulomb" | "bristle500" | "cbm_fd" => hybrid_err(&p["ref"], &o.switches, &o.x_end),
        "df" => df_err(&p["ref"], &o.y),
        _ => f64::INFINITY,
    }
}

fn reference() -> Result<Value, String> {
    let mut d = descriptions();
    let t = Instant::now();
    // LuGre: Radau5 at 1e-12, cross-checked with Dop853 at 1e-12.
    let a = LUGRE_ATOL_SCALE;
    let r = own::lugre(Method::Radau5, 1e-12, 1e-12 * a)?;
    let c = own::lugre(Method::Dop853, 1e-12, 1e-12 * a)?;
    d["lugre"]["t_cmp"] = json!(lugre_times());
    d["lugre"]["ref"] = json!(r.y);
    d["lugre"]["ref_by"] = json!("fric-solvers Radau5, rtol 1e-12, atol 1e-16");
    d["lugre"]["ref_crosscheck"] =
        json!({"by": "fric-solvers Dop853, rtol 1e-12", "max_diff": max_err_at(&lugre_times(), &r.y, &c.t, &c.y)});
    // Van der Pol: Radau5 at 1e-12, cross-checked with Dop853 at 1e-12.
    let r = own::vdp(Method::Radau5, 1e-12, 1e-12)?;
    let c = own::vdp(Method::Dop853, 1e-12, 1e-12)?;
    d["vdp"]["t_cmp"] = json!(vdp_times());
    d["vdp"]["ref"] = json!(r.y);
    d["vdp"]["ref_by"] = json!("fric-solvers Radau5, rtol = atol = 1e-12");
    d["vdp"]["ref_crosscheck"] =
        json!({"by": "fric-solvers Dop853, rtol 1e-12", "max_diff": max_err_at(&vdp_times(), &r.y, &c.t, &c.y)});
    // The hybrid problems (Coulomb, the two CBMs): Dop853 at 1e-13, cross-checked with Radau5
    // at 1e-12.
    type Hybrid = fn(Method, f64, f64) -> Result<Out, String>;
    for (name, run) in [
        ("coulomb", own::coulomb as Hybrid),
        ("bristle500", own::bristle),
        ("cbm_fd", own::cbm_fd),
    ] {
        let r = run(Method::Dop853, 1e-13, 1e-13)?;
        let c = run(Method::Radau5, 1e-12, 1e-12)?;
        let rv = json!({
            "switch_times": r.switches.iter().map(|s| s.0).collect::<Vec<_>>(),
            "switch_modes": r.switches.iter().map(|s| s.1).collect::<Vec<_>>(),
            "x_end": r.x_end,
        });
        d[name]["ref_crosscheck"] =
            json!({"by": "fric-solvers Radau5, rtol 1e-12", "max_diff": hybrid_err(&rv, &c.switches, &c.x_end)});
        d[name]["ref"] = rv;
        d[name]["ref_by"] = json!("fric-solvers Dop853, rtol = atol = 1e-13");
    }
    // B&S in time: Radau5 at 1e-12, cross-checked with the other formulation, exact along the
    // path (no stiff state, reversals located as events) with Dop853 at 1e-13; they agree to
    // 1.2e-10. Not with Dop853 on the time form: at rtol 1e-12 its values read from the dense
    // output are off by up to 3.1e-7 between t = 10.608 and 10.630 s, and right to 1e-12 at
    // both ends of that stretch (`fric-bench refcheck`, docs/benchmarks.md): an interpolation
    // error of that run, not the reference's.
    let r = own::bs(Method::Radau5, 1e-12, 1e-12)?;
    let p = own::bs_path(Method::Dop853, 1e-13, 1e-13)?;
    d["bs"]["t_cmp"] = json!(bs_times());
    d["bs"]["ref"] = json!(r.y);
    d["bs"]["ref_by"] = json!("fric-solvers Radau5, rtol = atol = 1e-12");
    d["bs"]["ref_crosscheck"] = json!({"by": "fric-solvers exact along the path, Dop853 rtol 1e-13",
        "max_diff": max_err_at(&bs_times(), &r.y, &p.t, &p.y)});
    let a = PID_ATOL_SCALE;
    let r = own::pid(Method::Radau5, 1e-12, 1e-12 * a)?;
    let c = own::pid(Method::Dop853, 1e-12, 1e-12 * a)?;
    d["pid"]["t_cmp"] = json!(pid_times());
    d["pid"]["ref"] = json!(r.y);
    d["pid"]["ref_by"] = json!("fric-solvers Radau5, rtol 1e-12, atol 1e-15");
    d["pid"]["ref_crosscheck"] =
        json!({"by": "fric-solvers Dop853, rtol 1e-12", "max_diff": max_err_at(&pid_times(), &r.y, &c.t, &c.y)});
    // DF point: shooting on the path form with Dop853 at 1e-12, cross-checked with the time form
    // run from rest with Radau5 at 1e-12 (another formulation and another steady-state method).
    let r = own::df(Method::Dop853, 1e-12, 1e-12 * 1e-3)?;
    let c = own::df_long(Method::Radau5, 1e-12, 1e-12 * 1e-3)?;
    d["df"]["ref"] = json!(r.y);
    d["df"]["ref_by"] = json!("fric-solvers shooting on the path form, Dop853 rtol 1e-12");
    d["df"]["ref_crosscheck"] =
        json!({"by": "fric-solvers time form from rest, Radau5 rtol 1e-12", "max_diff": df_err(&json!(r.y), &c.y)});
    eprintln!("references computed in {:.2} s", t.elapsed().as_secs_f64());
    Ok(json!({"problems": d}))
}

fn run(only: Option<&str>) -> Result<(), String> {
    let dir = out_dir();
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let refv = reference()?;
    for p in ["lugre", "vdp", "coulomb", "bristle500", "cbm_fd", "bs", "pid", "df"] {
        let c = &refv["problems"][p]["ref_crosscheck"];
        let (diff, target) = (
            c["max_diff"].as_f64().unwrap_or(f64::NAN),
            refv["problems"][p]["target"].as_f64().unwrap_or(f64::NAN),
        );
        eprintln!("reference {p}: {} differs from it by {diff:.2e}", c["by"]);
        // Matched accuracy needs the reference's error well below the target: a cross-check
        // above a tenth of it (or NaN) stops the run before any contender is timed.
        if diff.is_nan() || target.is_nan() || diff > 0.1 * target {
            return Err(format!(
                "reference {p}: its cross-check ({}) differs from it by {diff:.2e}, more than a tenth of the target {target:.0e}; \
                 the reference is not tight enough to judge errors at the target",
                c["by"]
            ));
        }
    }
    write_json(&dir.join("reference.json"), &refv)?;
    let mut records = Vec::new();
    for e in entries() {
        if only.is_some_and(|o| o != e.problem) {
            continue;
        }
        let atol_scale = refv["problems"][e.problem]["atol_scale"].as_f64().unwrap();
        let target = refv["problems"][e.problem]["target"].as_f64().unwrap();
        let mut after = None::<usize>;
        for rtol in ladder() {
            let atol = rtol * atol_scale;
            let rec = match timed(&mut || (e.run)(rtol, atol)) {
                Ok((o, t, reps)) => {
                    let err = error_of(e.problem, &refv, &o);
                    eprintln!(
                        "{:8} {:22} {:12} rtol {rtol:.1e}  err {err:.2e}  {:.3e} s  ({reps} reps, {} steps)",
                        e.problem, e.implementation, e.method, t, o.steps
                    );
                    json!({"problem": e.problem, "impl": e.implementation, "method": e.method,
                           "rtol": rtol, "atol": atol, "error": finite(err), "time": t, "repeats": reps,
                           "steps": o.steps, "rhs_evals": o.rhs_evals})
                }
                Err(msg) => {
                    eprintln!(
                        "{:8} {:22} {:12} rtol {rtol:.1e}  failed: {msg}",
                        e.problem, e.implementation, e.method
                    );
                    json!({"problem": e.problem, "impl": e.implementation, "method": e.method,
                           "rtol": rtol, "atol": atol, "error": null, "time": null, "failed": msg})
                }
            };
            let err = rec["error"].as_f64().unwrap_or(f64::INFINITY);
            let time = rec["time"].as_f64().unwrap_or(0.0);
            records.push(rec);
            if err <= target && after.is_none() {
                after = Some(0);
            } else if let Some(n) = after.as_mut() {
                *n += 1;
            }
            if after.is_some_and(|n| n >= EXTRA_AFTER_TARGET) || time > RUN_BUDGET {
                break;
            }
        }
    }
    // With --only, keep the other problems' records of an earlier run.
    if let (Some(p), Ok(old)) = (only, read_json(&dir.join("rust.json"))) {
        let kept = old["records"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|r| r["problem"] != p)
            .cloned();
        records = kept.chain(records).collect();
    }
    write_json(
        &dir.join("rust.json"),
        &json!({"side": "rust", "budget_s": RUN_BUDGET, "records": records}),
    )?;
    Ok(())
}

/// JSON has no infinity: an error that is not finite is written as null.
fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

pub fn write_json(path: &Path, v: &Value) -> Result<(), String> {
    let s = serde_json::to_string_pretty(v).map_err(|e| e.to_string())?;
    std::fs::write(path, s).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn read_json(path: &Path) -> Result<Value, String> {
    let s = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&s).map_err(|e| format!("{}: {e}", path.display()))
}

/// `fric-bench repeat PROBLEM RTOL N`: our method of the one-run benchmark on `bs` (PathExact+Dop853),
/// `pid` or `cbm_fd` (Dop853Radau5), `N` times at `RTOL` (atol from the problem's scale), then the
/// last run's steps and right-hand sides: a loop to profile (`perf record`), not a timing.
/// `pid_kinks` is `pid` with θ' = 0 located as a terminal event and the integration restarted
/// there ([`own::pid_kinks`], a prototype), `pid_jac` is `pid` with an analytic Jacobian
/// ([`own::pid_jac`], a prototype; its check against central differences is printed); for the PID
/// forms the largest error of θ at the 300 output times against our DOP853 at rtol 1e-12 is
/// printed too (computed after the loop).
fn repeat(args: &[String]) -> Result<(), String> {
    let usage = || "usage: repeat PROBLEM RTOL N".to_string();
    let problem = args.first().ok_or_else(usage)?.as_str();
    let rtol: f64 = args.get(1).and_then(|a| a.parse().ok()).ok_or_else(usage)?;
    let n: usize = args.get(2).and_then(|a| a.parse().ok()).ok_or_else(usage)?;
    let run = |rtol: f64| match problem {
        "bs" => own::bs_path(Method::Dop853, rtol, rtol),
        "pid" => own::pid(Method::Dop853Radau5, rtol, rtol * PID_ATOL_SCALE),
        "pid_kinks" => own::pid_kinks(Method::Dop853Radau5, rtol, rtol * PID_ATOL_SCALE),
        "pid_jac" => own::pid_jac(Method::Dop853Radau5, rtol, rtol * PID_ATOL_SCALE),
        "cbm_fd" => own::cbm_fd(Method::Dop853Radau5, rtol, rtol * CBM_FD_ATOL_SCALE),
        other => Err(format!(
            "repeat: no problem `{other}` (bs, pid, pid_kinks, pid_jac, cbm_fd)"
        )),
    };
    let mut last = None;
    let start = Instant::now();
    for _ in 0..n {
        last = Some(run(rtol)?);
    }
    let o = last.ok_or("repeat: N must be at least 1")?;
    if problem == "pid_jac" {
        println!(
            "pid_jac: analytic J against central differences, worst {:.2e}",
            own::pid_jac_check()
        );
    }
    if problem.starts_with("pid") {
        let r = own::pid(Method::Dop853, 1e-12, 1e-15)?;
        let err = r.y.iter().zip(&o.y).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        println!("{problem}: max |θ − θ_ref| over {} output times {err:.3e}", o.y.len());
    }
    println!(
        "{problem} rtol {rtol:e}: {} runs in {:.3} s; {} steps, {} right-hand sides, {} events; {:?}",
        n,
        start.elapsed().as_secs_f64(),
        o.steps,
        o.rhs_evals,
        o.switches.len(),
        o.stats
    );
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    let r = match args.first().map(String::as_str).unwrap_or("run") {
        "run" => run(only),
        "compare" => compare::compare(&out_dir()),
        "bounds" => bounds::bounds(),
        "refcheck" => refcheck::refcheck(),
        // Our method on one problem, `N` times at one rtol (for a profiler): `repeat P RTOL N`.
        "repeat" => repeat(&args[1..]),
        "probe" if args.iter().any(|a| a == "--one-run") => onerun::one_run(
            args.iter()
                .position(|a| a == "--rounds")
                .and_then(|i| args.get(i + 1))
                .and_then(|r| r.parse().ok())
                .unwrap_or(5),
            only,
            args.iter().any(|a| a == "--ours"),
        ),
        "probe" => probe::probe(
            args.iter()
                .position(|a| a == "--rounds")
                .and_then(|i| args.get(i + 1))
                .and_then(|r| r.parse().ok())
                .unwrap_or(21),
            args.iter().position(|a| a == "--scipy").and_then(|i| {
                Some(probe::ScipyDuel {
                    method: args.get(i + 1)?.clone(),
                    rtol: args.get(i + 2)?.parse().ok()?,
                    rounds: 7,
                })
            }),
        ),
        other => Err(format!(
            "unknown command `{other}`; use `run [--only PROBLEM]`, `compare`, `bounds`, `refcheck` or `probe [--rounds N] [--scipy METHOD RTOL | --one-run [--only PROBLEM] [--ours]]`"
        )),
    };
    match r {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
