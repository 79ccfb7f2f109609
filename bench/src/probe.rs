//! `fric-bench probe`: the LuGre problem (a) by exponential collocation with 4, 6 and 8 Gauss
//! nodes, with and without the period/100 step cap, along the tolerance ladder (error, steps,
//! coefficient evaluations, time); then a *duel*: the fastest run at the target of each of a
//! few contenders, timed round-robin (one run of each per round), so that every contender sees
//! the same load. On a loaded machine the ratio of two medians taken minutes apart moves by
//! ±50 %; the median of per-round ratios does not (the rounds last a few ms).

use crate::own;
use crate::problems::*;
use crate::{crates, ladder, Out};
use fric_solvers::expint::Scheme;
use fric_solvers::expquad::Relaxation;
use fric_solvers::Method;
use std::time::Instant;

type Run = Box<dyn Fn(f64) -> Result<Out, String>>;

/// Median of a sample (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One timed run.
fn once(f: &Run, rtol: f64) -> Result<(Out, f64), String> {
    let s = Instant::now();
    let o = f(rtol)?;
    Ok((o, s.elapsed().as_secs_f64()))
}

/// The loosest rung of the ladder (from 1e-5) whose error is at or below the target, with its
/// error; `None` when no rung to 1e-11 reaches it.
fn loosest(f: &Run, err: &dyn Fn(&Out) -> f64, target: f64, verbose: &str) -> Result<Option<(f64, f64)>, String> {
    for rtol in ladder().into_iter().filter(|&r| r <= 1.01e-5) {
        let (o, t) = once(f, rtol)?;
        let e = err(&o);
        if !verbose.is_empty() {
            eprintln!(
                "{verbose:34} rtol {rtol:.1e}  err {e:.2e}  steps {:6}  evals {:7}  {t:.3e} s",
                o.steps, o.rhs_evals
            );
        }
        if e <= target {
            return Ok(Some((rtol, e)));
        }
    }
    Ok(None)
}

/// The exponential schemes and caps probed, as runners of `rtol`.
fn schemes() -> Vec<(String, Run)> {
    let cap = own::lugre_expint_cap();
    let mut v: Vec<(String, Run)> = Vec::new();
    v.push((
        "expint in the path (cap T/100)".into(),
        Box::new(|r| own::lugre_expint_path_solver(r, 0.0)),
    ));
    for (hmax, cap_name) in [(cap, "cap T/100"), (f64::INFINITY, "no cap")] {
        v.push((
            format!("expquad S=4 {cap_name}"),
            Box::new(move |r| own::lugre_expint_capped(&Relaxation::<4>::new(), r, 0.0, hmax)),
        ));
        v.push((
            format!("expquad S=6 {cap_name}"),
            Box::new(move |r| own::lugre_expint_capped(&Relaxation::<6>::new(), r, 0.0, hmax)),
        ));
        v.push((
            format!("expint S=4 {cap_name}"),
            Box::new(move |r| own::lugre_expint_capped(&Scheme::<4>::new(), r, 0.0, hmax)),
        ));
        v.push((
            format!("expint S=6 {cap_name}"),
            Box::new(move |r| own::lugre_expint_capped(&Scheme::<6>::new(), r, 0.0, hmax)),
        ));
        v.push((
            format!("expint S=8 {cap_name}"),
            Box::new(move |r| own::lugre_expint_capped(&Scheme::<8>::new(), r, 0.0, hmax)),
        ));
    }
    v.push((
        "prototype: expint S=4 in the path s".into(),
        Box::new(|r| crate::path_prototype::lugre_expint_path(r, 0.0)),
    ));
    v
}

/// The SciPy method and rtol alternated with our first contender (`--scipy METHOD RTOL`), and the
/// number of rounds (each one SciPy process and one median of our runs).
pub struct ScipyDuel {
    pub method: String,
    pub rtol: f64,
    pub rounds: usize,
}

/// Where the default scheme's steps go: each half period split into the `w` seconds after the
/// reversal, the `w` seconds before the next one and the middle (each piece integrated on its
/// own, so the counts are those of restarts at the splits too, an indication only).
fn where_steps_go(rtol: f64, w: f64) -> Result<(), String> {
    use fric_models::InputDriven;
    use fric_solvers::expint::{solve_with, ExpStats, ExpTolerance};
    let scale = LUGRE.state_scale();
    let tl = ExpTolerance {
        abs: rtol * scale,
        z_scale: scale,
        hmax: own::lugre_expint_cap(),
    };
    let coef = |t: f64| LUGRE.affine(lugre_u(t), lugre_du(t)).unwrap();
    let scheme = Scheme::<4>::new();
    let mut st = [ExpStats::default(); 3];
    let mut z = 0.0;
    for (a, b) in lugre_segments() {
        for (k, (p, q)) in [(a, a + w), (a + w, b - w), (b - w, b)].into_iter().enumerate() {
            z = solve_with(&scheme, &coef, p, z, q, &[], tl, &mut st[k], &mut |_, _| {})?;
        }
    }
    eprintln!(
        "steps of the 4-node scheme at rtol {rtol:.1e}, half periods split {w} s after and before each reversal: \
         after {} (+{} rejected), middle {} (+{}), before {} (+{})",
        st[0].steps, st[0].rejected, st[1].steps, st[1].rejected, st[2].steps, st[2].rejected
    );
    Ok(())
}

/// `fric-bench probe`.
pub fn probe(rounds: usize, scipy: Option<ScipyDuel>) -> Result<(), String> {
    let a = LUGRE_ATOL_SCALE;
    let reference = own::lugre(Method::Radau5, 1e-12, 1e-12 * a)?;
    let times = lugre_times();
    let err = move |o: &Out| max_err_at(&times, &reference.y, &o.t, &o.y);
    let target = 1e-6;
    for w in [0.1, 0.5, 2.0] {
        where_steps_go(3.162_277_660_168_379e-7, w)?;
    }
    let mut contenders: Vec<(String, Run, f64, f64)> = Vec::new();
    for (name, run) in schemes() {
        if let Some((rtol, e)) = loosest(&run, &err, target, &name)? {
            contenders.push((name, run, rtol, e));
        }
    }
    let others: Vec<(String, Run)> = vec![
        (
            "fric-solvers Radau5 (capped)".into(),
            Box::new(move |r| own::lugre(Method::Radau5, r, r * a)),
        ),
        (
            "differential-equations Radau5".into(),
            Box::new(move |r| crates::de_lugre(crates::DeMethod::Radau5, r, r * a)),
        ),
    ];
    for (name, run) in others {
        if let Some((rtol, e)) = loosest(&run, &err, target, &name)? {
            contenders.push((name, run, rtol, e));
        }
    }
    duel(&contenders, rounds)?;
    match (scipy, contenders.first()) {
        (Some(sd), Some((name, run, rtol, _))) => duel_scipy(&sd, name, run, *rtol),
        _ => Ok(()),
    }
}

/// Our run's median over `n` repeats.
fn median_of(run: &Run, rtol: f64, n: usize) -> Result<f64, String> {
    let mut t = Vec::with_capacity(n);
    for _ in 0..n {
        t.push(once(run, rtol)?.1);
    }
    Ok(median(&mut t))
}

/// Rounds of: one SciPy process timing its method (`scipy_bench.py --time-one`, the median of its
/// own repeats), then the median of 31 of our runs; the median over rounds of the ratio.
fn duel_scipy(sd: &ScipyDuel, name: &str, run: &Run, rtol: f64) -> Result<(), String> {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scipy_bench.py");
    let (mut ratios, mut ts, mut ours) = (Vec::new(), Vec::new(), Vec::new());
    let mut err = f64::NAN;
    for _ in 0..sd.rounds {
        let out = std::process::Command::new("python3")
            .arg(&script)
            .args(["--time-one", "lugre", &sd.method, &format!("{:e}", sd.rtol)])
            .output()
            .map_err(|e| format!("python3: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let mut it = text.split_whitespace().map(|w| w.parse::<f64>());
        let (Some(Ok(t)), Some(Ok(e))) = (it.next(), it.next()) else {
            return Err(format!(
                "scipy_bench.py --time-one printed {text:?} ({})",
                String::from_utf8_lossy(&out.stderr)
            ));
        };
        err = e;
        let o = median_of(run, rtol, 31)?;
        ratios.push(t / o);
        ts.push(t);
        ours.push(o);
    }
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    eprintln!(
        "scipy duel: fastest SciPy run {:.3e} s, ours {:.3e} s: ratio of the minima {:.1}",
        min(&ts),
        min(&ours),
        min(&ts) / min(&ours)
    );
    eprintln!(
        "scipy duel: {} rounds; SciPy {} rtol {:.1e} err {err:.2e} median {:.3e} s; {name} median {:.3e} s; \
         median ratio SciPy/ours {:.1} (min {:.1}, max {:.1})",
        sd.rounds,
        sd.method,
        sd.rtol,
        median(&mut ts),
        median(&mut ours),
        median(&mut ratios.clone()),
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(0.0, f64::max),
    );
    Ok(())
}

/// Round-robin timing of the contenders at their chosen rtol; prints each one's median time and
/// the median over rounds of its time over the first contender's.
fn duel(contenders: &[(String, Run, f64, f64)], rounds: usize) -> Result<(), String> {
    let n = contenders.len();
    let mut t = vec![Vec::with_capacity(rounds); n];
    for _ in 0..rounds {
        for (k, (_, run, rtol, _)) in contenders.iter().enumerate() {
            t[k].push(once(run, *rtol)?.1);
        }
    }
    eprintln!("duel: {rounds} rounds, one run of each contender per round");
    let base = t[0].clone();
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (base_median, base_min) = (median(&mut base.clone()), min(&base));
    eprintln!(
        "times over {}'s: median of the per-round ratios; ratio of the medians; ratio of the minima",
        contenders[0].0
    );
    for (k, (name, _, rtol, e)) in contenders.iter().enumerate() {
        let mut ratio: Vec<f64> = t[k].iter().zip(&base).map(|(x, b)| x / b).collect();
        let (tk_median, tk_min) = (median(&mut t[k].clone()), min(&t[k]));
        eprintln!(
            "{name:34} rtol {rtol:.1e}  err {e:.2e}  median {tk_median:.3e} s  min {tk_min:.3e} s  ratios {:.2}; {:.2}; {:.2}",
            median(&mut ratio),
            tk_median / base_median,
            tk_min / base_min
        );
    }
    Ok(())
}
