//! The problems in fric-solvers (`solve` and `hybrid::simulate`).

use crate::problems::*;
use crate::Out;
use fric_models::coulomb::Mode;
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{solve, Method, OdeSystem, Stats, Tolerances};

pub const METHODS: [(Method, &str); 5] = [
    (Method::Dopri5, "Dopri5"),
    (Method::Dop853, "Dop853"),
    (Method::Rosenbrock23, "Rosenbrock23"),
    (Method::Radau5, "Radau5"),
    (Method::Dop853Radau5, "Dop853Radau5"),
];

pub(crate) fn tol(rtol: f64, atol: f64, hmax: f64) -> Tolerances {
    Tolerances {
        rtol,
        atol,
        hmax,
        max_steps: 5_000_000,
        ..Default::default()
    }
}

struct LuGreSys;
impl OdeSystem for LuGreSys {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = lugre_rhs(t, x[0]);
    }
    fn jacobian(&self, t: f64, x: &[f64], j: &mut [f64]) -> bool {
        j[0] = lugre_jac(t, x[0]);
        true
    }
}

/// LuGre exact along the input (`fric_solvers::affine`): z from its integrating factor by
/// adaptive quadrature between the output times, no time step and no step cap; `rtol` scales the
/// error allowed in z by the largest deflection F_s/σ0 (as `fric-experiments` does).
pub fn lugre_affine(rtol: f64, _atol: f64) -> Result<Out, String> {
    use fric_models::InputDriven;
    use fric_solvers::affine::{solve_affine, AffineStats, AffineTolerance};
    let times = lugre_times();
    let scale = LUGRE.state_scale();
    let tl = AffineTolerance {
        abs: rtol * scale,
        z_scale: scale,
    };
    let coef = |t: f64| LUGRE.affine(lugre_u(t), lugre_du(t)).unwrap();
    let mut o = Out::default();
    let mut st = AffineStats::default();
    let mut z = 0.0;
    o.t.push(0.0);
    o.y.push(lugre_force(0.0, 0.0));
    let mut i = 1;
    for (a, b) in lugre_segments() {
        let j = i + times[i..].partition_point(|&s| s <= b);
        z = solve_affine(&coef, a, z, b, &times[i..j], tl, &mut st, &mut |t, z| {
            o.t.push(t);
            o.y.push(lugre_force(t, z));
        });
        i = j;
    }
    if st.unresolved > 0 {
        return Err(format!("{} intervals unresolved", st.unresolved));
    }
    o.steps = st.accepted;
    o.rhs_evals = 8 * st.leaves;
    o.x_end = vec![z];
    Ok(o)
}

/// LuGre by exponential collocation (`fric_solvers::expint`, 4 Gauss nodes, stiff order 4): the
/// stiff part in closed form, steps set by the smoothness of u'(t) and g(u'(t)) and at most
/// period/100 (so that a node falls in every Stribeck region), output times from the dense output; `rtol` scales the local error allowed in z by the
/// largest deflection F_s/σ0 (as `fric-experiments` does).
pub fn lugre_expint(rtol: f64, atol: f64) -> Result<Out, String> {
    lugre_expint_with(&fric_solvers::expint::Scheme::<4>::new(), rtol, atol)
}

/// LuGre by exponential quadrature in the relaxation variable (`fric_solvers::expquad`, 4 nodes:
/// the `fric-experiments` default), capped as [`lugre_expint`].
pub fn lugre_expquad(rtol: f64, atol: f64) -> Result<Out, String> {
    lugre_expint_with(&fric_solvers::expquad::Relaxation::<4>::new(), rtol, atol)
}

pub fn lugre_expint6(rtol: f64, atol: f64) -> Result<Out, String> {
    lugre_expint_with(&fric_solvers::expint::Scheme::<6>::new(), rtol, atol)
}

/// The tolerance of both path-variable LuGre integrations (this one and the probe's prototype,
/// `path_prototype`): `rtol` of the largest deflection F_s/σ0 per step, no cap in the path (the
/// solver's cap is in time, the prototype has none).
pub fn lugre_path_tolerance(rtol: f64) -> fric_solvers::expint::ExpTolerance {
    use fric_models::InputDriven;
    let scale = LUGRE.state_scale();
    fric_solvers::expint::ExpTolerance {
        abs: rtol * scale,
        z_scale: scale,
        hmax: f64::INFINITY,
    }
}

/// LuGre by exponential collocation in the path variable between reversals
/// (`fric_solvers::expint_path::solve_path`, not yet used by `fric-experiments`, whose LuGre
/// runs integrate in time with `fric_solvers::expint`), steps at most period/100 in time, `t(s)`
/// by Newton on the input.
pub fn lugre_expint_path_solver(rtol: f64, _atol: f64) -> Result<Out, String> {
    use fric_models::InputDriven;
    use fric_solvers::expint::ExpStats;
    use fric_solvers::expint_path::solve_path;
    let times = lugre_times();
    let tl = lugre_path_tolerance(rtol);
    let affine = |u: f64, du: f64| LUGRE.affine(u, du).unwrap();
    let mut o = Out::default();
    o.t.reserve(times.len());
    o.y.reserve(times.len());
    let mut st = ExpStats::default();
    let mut buf = Vec::new();
    let mut z = 0.0;
    o.t.push(0.0);
    o.y.push(lugre_force(0.0, 0.0));
    let mut i = 1;
    for (a, b) in lugre_segments() {
        let j = i + times[i..].partition_point(|&s| s <= b);
        let saves = &times[i..j];
        z = solve_path(
            &lugre_u,
            &lugre_du,
            &affine,
            a,
            z,
            b,
            saves,
            tl,
            lugre_expint_cap(),
            &mut buf,
            &mut st,
            &mut |t, z| {
                o.t.push(t);
                o.y.push(lugre_force(t, z));
            },
        )?;
        i = j;
    }
    if std::env::var_os("FRIC_BENCH_STATS").is_some() {
        eprintln!("path: {st:?}");
    }
    o.steps = st.steps + st.rejected;
    o.rhs_evals = st.evals;
    o.x_end = vec![z];
    Ok(o)
}

/// The period/100 step cap of `fric-experiments` (`EXPONENTIAL_STEPS_PER_SCALE`).
pub fn lugre_expint_cap() -> f64 {
    2.0 * std::f64::consts::PI / LUGRE_W / 100.0
}

fn lugre_expint_with<X: fric_solvers::expint::ExpScheme>(scheme: &X, rtol: f64, atol: f64) -> Result<Out, String> {
    lugre_expint_capped(scheme, rtol, atol, lugre_expint_cap())
}

/// [`lugre_expint_with`] with a given largest step (for `fric-bench probe`): each half period
/// by the project's exponential driver (`fric_experiments::exponential_segment`, split where
/// `|u'|` crosses `STRIBECK_SPLIT` times LuGre's `v_s`, as every `exponential` run is) with
/// `scheme`.
pub fn lugre_expint_capped<X: fric_solvers::expint::ExpScheme>(
    scheme: &X,
    rtol: f64,
    _atol: f64,
    hmax: f64,
) -> Result<Out, String> {
    use fric_models::InputDriven;
    use fric_solvers::expint::{ExpStats, ExpTolerance};
    let times = lugre_times();
    let scale = LUGRE.state_scale();
    let tl = ExpTolerance {
        abs: rtol * scale,
        z_scale: scale,
        hmax,
    };
    let coef = |t: f64| LUGRE.affine(lugre_u(t), lugre_du(t)).unwrap();
    let mut o = Out::default();
    o.t.reserve(times.len());
    o.y.reserve(times.len());
    let mut st = ExpStats::default();
    let mut pieces = Vec::new();
    let mut z = 0.0;
    o.t.push(0.0);
    o.y.push(lugre_force(0.0, 0.0));
    let mut i = 1;
    for (a, b) in lugre_segments() {
        let j = i + times[i..].partition_point(|&s| s <= b);
        z = fric_experiments::exponential_segment(
            scheme,
            &coef,
            &lugre_du,
            LUGRE.speed_scale(),
            (a, z, b),
            &times[i..j],
            tl,
            &mut st,
            &mut pieces,
            &mut |t, z| {
                o.t.push(t);
                o.y.push(lugre_force(t, z));
            },
        )?;
        i = j;
    }
    o.steps = st.steps + st.rejected;
    o.rhs_evals = st.evals;
    o.x_end = vec![z];
    Ok(o)
}

pub fn lugre(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    let times = lugre_times();
    let tl = tol(rtol, atol, lugre_hmax());
    let mut o = Out::default();
    let mut st = Stats::default();
    let mut z = vec![0.0];
    o.t.push(0.0);
    o.y.push(lugre_force(0.0, 0.0));
    let mut i = 1;
    for (a, b) in lugre_segments() {
        let j = i + times[i..].partition_point(|&s| s <= b);
        let r = solve(&LuGreSys, method, &tl, a, &z, b, &times[i..j], &mut |t, x| {
            o.t.push(t);
            o.y.push(lugre_force(t, x[0]));
        })
        .map_err(|e| e.to_string())?;
        st += r.stats;
        z = r.x;
        i = j;
    }
    o.steps = st.accepted + st.rejected;
    o.rhs_evals = st.rhs_evals;
    o.x_end = z;
    Ok(o)
}

struct Vdp;
impl OdeSystem for Vdp {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        vdp_rhs(x, dx)
    }
    fn jacobian(&self, _t: f64, x: &[f64], j: &mut [f64]) -> bool {
        vdp_jac(x, j);
        true
    }
}

/// One solve from `t = 0` to `t1` with outputs `out(x)` at `times` (the smooth problems).
#[allow(clippy::too_many_arguments)]
fn plain<S: OdeSystem>(
    sys: &S,
    method: Method,
    rtol: f64,
    atol: f64,
    hmax: f64,
    x0: &[f64],
    t1: f64,
    times: &[f64],
    out: impl Fn(&[f64]) -> f64,
) -> Result<Out, String> {
    let mut o = Out::default();
    let r = solve(sys, method, &tol(rtol, atol, hmax), 0.0, x0, t1, times, &mut |t, x| {
        o.t.push(t);
        o.y.push(out(x));
    })
    .map_err(|e| e.to_string())?;
    o.steps = r.stats.accepted + r.stats.rejected;
    o.rhs_evals = r.stats.rhs_evals;
    o.stats = r.stats;
    o.x_end = r.x;
    Ok(o)
}

pub fn vdp(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    plain(
        &Vdp,
        method,
        rtol,
        atol,
        f64::INFINITY,
        &[2.0, 0.0],
        VDP_T1,
        &vdp_times(),
        |x| x[0],
    )
}

/// The model's own guards (two in stick) and jumps, as `fric-experiments` runs it.
struct Coulomb;
impl HybridSystem for Coulomb {
    type Mode = Mode;
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, mode: Mode, t: f64, x: &[f64], dx: &mut [f64]) {
        coulomb_rhs(mode, t, x, dx)
    }
    fn n_guards(&self, mode: Mode) -> usize {
        COULOMB.n_guards(mode)
    }
    fn guards(&self, mode: Mode, t: f64, x: &[f64], g: &mut [f64]) {
        COULOMB.guards(mode, coulomb_u(t), x, g)
    }
    fn jump(&self, mode: Mode, guard: usize, t: f64, x: &mut [f64]) -> Mode {
        COULOMB.jump(mode, guard, coulomb_u(t), coulomb_du(t), x)
    }
}

pub fn coulomb(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    let (mode0, x0) = coulomb_initial();
    let r = simulate(
        &Coulomb,
        mode0,
        method,
        &tol(rtol, atol, coulomb_hmax()),
        0.0,
        &x0,
        coulomb_t1(),
        &[],
        10_000,
        &mut |_, _, _| {},
    )
    .map_err(|e| e.to_string())?;
    Ok(Out {
        switches: r.switches.iter().map(|&(t, m)| (t, mode_code(m))).collect(),
        x_end: r.x,
        steps: r.stats.accepted + r.stats.rejected,
        rhs_evals: r.stats.rhs_evals,
        ..Default::default()
    })
}

/// A CBM configuration under the Switch Model, as `fric-experiments` runs it: the region
/// changes and the final state.
fn cbm<C: fric_models::cbm::Configuration + fric_experiments::cbm::Energy>(
    config: &C,
    x0: &[f64],
    t1: f64,
    (eta, tau): (f64, f64),
    method: Method,
    rtol: f64,
    atol: f64,
) -> Result<Out, String> {
    use fric_experiments::cbm::{run, CbmSettings};
    let settings = CbmSettings {
        eta,
        tau,
        method,
        tol: tol(rtol, atol, f64::INFINITY),
        max_events: 1_000_000,
    };
    let r = run(config, x0, t1, &[t1], &settings).map_err(|e| e.to_string())?;
    Ok(Out {
        switches: r.region_changes.iter().map(|&(t, g)| (t, region_code(g))).collect(),
        x_end: r.state.last().cloned().ok_or("no final state")?,
        steps: r.stats.accepted + r.stats.rejected,
        rhs_evals: r.stats.rhs_evals,
        stats: r.stats,
        ..Default::default()
    })
}

/// The stick–slip CBM of thesis Figs 4.4–4.5.
pub fn bristle(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    let band = (BRISTLE_ETA, BRISTLE_TAU);
    cbm(&bristle_config(), &[0.0; 5], BRISTLE_T1, band, method, rtol, atol)
}

/// The force-driven CBM of thesis Fig 4.7.
pub fn cbm_fd(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    let band = (CBM_FD_ETA, CBM_FD_TAU);
    cbm(&cbm_fd_config(), &[0.0; 4], CBM_FD_T1, band, method, rtol, atol)
}

struct Bs;
impl OdeSystem for Bs {
    fn dim(&self) -> usize {
        4
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        bs_rhs(t, x, dx)
    }
    fn jacobian(&self, _t: f64, x: &[f64], j: &mut [f64]) -> bool {
        bs_jac(x, j);
        true
    }
}

pub fn bs(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    bs_capped(method, rtol, atol, f64::INFINITY, &bs_times())
}

/// The time form with the step capped at `hmax`, F at `times` (`fric-bench refcheck`).
pub fn bs_capped(method: Method, rtol: f64, atol: f64, hmax: f64, times: &[f64]) -> Result<Out, String> {
    plain(&Bs, method, rtol, atol, hmax, &[0.0; 4], bs_t1(), times, bs_force)
}

/// The time form from rest to `t1` (its last step lands there), F at `t1` (`fric-bench refcheck`).
pub fn bs_until(method: Method, rtol: f64, t1: f64) -> Result<f64, String> {
    Ok(plain(&Bs, method, rtol, rtol, f64::INFINITY, &[0.0; 4], t1, &[t1], bs_force)?.y[0])
}

/// The PID loop as the pipeline runs it (`fric-experiments` `PidPlant::simulate`): the model's
/// right-hand side, a finite-difference Jacobian.
pub(crate) struct Pid(pub(crate) fric_models::pid::PidLoop<fric_models::BySign<fric_models::lugre::LuGre>>);
impl OdeSystem for Pid {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(x, dx)
    }
}

pub fn pid(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    pid_form(&Pid(pid_loop()), method, rtol, atol)
}

/// (f) from rest over `PID_T1`, θ at the output times, for a form of the loop.
fn pid_form<S: OdeSystem>(sys: &S, method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    plain(
        sys,
        method,
        rtol,
        atol,
        f64::INFINITY,
        &[0.0; 4],
        PID_T1,
        &pid_times(),
        |x| x[0],
    )
}

/// The one event of the path form and of the kinked PID: θ' = 0 (`x[1]`) in either direction,
/// terminal (the integration restarts there).
macro_rules! reversal_stops {
    () => {
        fn n_events(&self) -> usize {
            1
        }
        fn events(&self, _t: f64, x: &[f64], g: &mut [f64]) {
            g[0] = x[1];
        }
        fn event_kind(&self, _i: usize) -> fric_solvers::EventKind {
            fric_solvers::EventKind {
                direction: fric_solvers::Direction::Either,
                terminal: true,
            }
        }
    };
}

/// B&S exact along the path (what `report/fig5.22` runs): between two velocity reversals the
/// friction state is `advance(x_r, θ − θ_r)` in closed form (2.25), so only `θ − θ_r` and `θ'`
/// are integrated (no stiff friction states); each reversal (an event `θ' = 0`) re-anchors it.
/// State `[θ − θ_r, θ', x_r1, x_r2]` (the anchor held constant inside a segment). The ringing
/// reverses θ' within single steps, so the reversals are looked for at interior samples too
/// (`event_samples`, as the pipeline).
pub(crate) struct BsPath;
impl OdeSystem for BsPath {
    fn dim(&self) -> usize {
        4
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        let s = BS.friction.advance([x[2], x[3]], x[0]);
        dx[0] = x[1];
        dx[1] = (bs_u(t) - BS.alpha * x[1] - s[0] - s[1]) / BS.j;
        dx[2] = 0.0;
        dx[3] = 0.0;
    }
    reversal_stops!();
    fn event_samples(&self) -> usize {
        fric_experiments::describing::EVENT_SAMPLES
    }
    fn event_component(&self, _i: usize) -> Option<usize> {
        Some(1)
    }
}

pub fn bs_path(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    let times = bs_times();
    let t1 = bs_t1();
    let tl = tol(rtol, atol, f64::INFINITY);
    let mut o = Out::default();
    let mut st = Stats::default();
    let (mut t, mut x) = (0.0, vec![0.0; 4]);
    let force = |x: &[f64]| {
        let s = BS.friction.advance([x[2], x[3]], x[0]);
        s[0] + s[1]
    };
    // One integrator for the 463 segments (its buffers allocated once; results bit for bit
    // those of `solve`), as the pipeline's DF period maps restart. Each segment starts from the
    // driver's heuristic step: starting it instead from the step the last segment begun by a
    // reversal in the same direction ended with (the DF maps' rule) took 3 458 steps instead of
    // 3 512 at rtol 1e-8, but missed the target there (1.70e-6) and needed 3.2e-9 (3 805 steps):
    // no gain (2026-12-07).
    let mut integrator = fric_solvers::Integrator::new(method);
    loop {
        let r = integrator
            .solve(&BsPath, &tl, t, &x, t1, &times, &mut |tt, xx| {
                o.t.push(tt);
                o.y.push(force(xx));
            })
            .map_err(|e| e.to_string())?;
        st += r.stats;
        x.copy_from_slice(&r.x);
        t = r.t;
        if r.event.is_none() || t >= t1 {
            break;
        }
        if o.t.len() > 10 * times.len() + 100_000 {
            return Err("more than 100000 reversals".into());
        }
        // The reversal (unused by the error, which reads `t`, `y`; counted by `fric-bench bounds`).
        o.switches.push((t, 0.0));
        let s = BS.friction.advance([x[2], x[3]], x[0]);
        x[0] = 0.0;
        x[2] = s[0];
        x[3] = s[1];
    }
    o.steps = st.accepted + st.rejected;
    o.rhs_evals = st.rhs_evals;
    o.stats = st;
    o.x_end = x;
    Ok(o)
}

/// One DF point as the pipeline computes it: shooting on the exact B&S path form
/// (`fric_solvers::describing::describing_function`, `fric_experiments::describing::BlimanSorinePath`)
/// with the method at `rtol` and `atol` per unit amplitude (`DfOptions`); output
/// `y = [Re N, Im N]`, `steps` all integration steps (period maps included).
pub fn df(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    df_with(method, rtol, atol, true)
}

/// [`df`] without the check of the point's periodic orbit (`DfOptions::check_orbits`, on in the
/// pipeline since d36b5a2 of 2026-12-06: one more period integrated with 256 samples and the
/// works as quadratures): what the point cost before it, for the diagnosis of (g)'s fall.
pub fn df_unchecked(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    df_with(method, rtol, atol, false)
}

fn df_with(method: Method, rtol: f64, atol: f64, check: bool) -> Result<Out, String> {
    use fric_solvers::describing::{describing_function, DfOptions};
    let path = fric_experiments::describing::BlimanSorinePath {
        j: DF_J,
        alpha: DF_ALPHA,
        law: DF_LAW,
    };
    let opt = DfOptions {
        method,
        rtol,
        atol_per_a: atol,
        // Settle the shooting to the rtol asked (at most 1e-10, the pipeline's).
        steady_tol: rtol.max(1e-10),
        check_orbits: check,
        ..Default::default()
    };
    let p = describing_function(&path, DF_A, DF_W, &opt)?;
    if !p.converged || p.multiplier > 1.0 {
        return Err(format!(
            "shooting: residual {:.1e}, multiplier {}",
            p.residual, p.multiplier
        ));
    }
    Ok(Out {
        t: vec![0.0, 1.0],
        y: vec![p.n.0, p.n.1],
        steps: p.steps,
        ..Default::default()
    })
}

/// The B&S inertia in time (2.12) under `u = a sin ωt` with the two Fourier integrals of θ
/// appended (state `[θ, θ', x₁, x₂, ∫θ sin, ∫θ cos]`).
struct DfTime;
impl OdeSystem for DfTime {
    fn dim(&self) -> usize {
        6
    }
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        df_rhs(t, x, dx)
    }
}

/// The same DF point the plain way (what `scipy_bench.py` does): the time form from rest, period
/// after period, until N moves by less than max(1e-9, rtol) |N| from one period to the next (at
/// most 2000 periods); the baseline that shows what the shooting and the path form save.
pub fn df_long(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    let period = df_period();
    let tl = tol(rtol, atol * DF_A, f64::INFINITY);
    df_settle(rtol, |k, x| {
        let r = solve(
            &DfTime,
            method,
            &tl,
            k as f64 * period,
            x,
            (k + 1) as f64 * period,
            &[],
            &mut |_, _| {},
        )
        .map_err(|e| e.to_string())?;
        x.copy_from_slice(&r.x);
        Ok((r.stats.accepted + r.stats.rejected, r.stats.rhs_evals))
    })
}

/// (f) with the kinks of the friction law (θ' = 0, where LuGre's |θ'| and the side of `BySign`
/// change) located as terminal events and the integration restarted there, one `Integrator`
/// and the controller's last step carried over (a prototype to measure the lever "events at the
/// kinks" of issue 51 item 2; docs/benchmarks.md, session 66: 8 % fewer right-hand sides at
/// rtol 1e-6, no CPU gain).
struct PidKinks(fric_models::pid::PidLoop<fric_models::BySign<fric_models::lugre::LuGre>>);
impl OdeSystem for PidKinks {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(x, dx)
    }
    reversal_stops!();
}

pub fn pid_kinks(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    let sys = PidKinks(pid_loop());
    let times = pid_times();
    let mut o = Out::default();
    let mut integ = fric_solvers::Integrator::new(method);
    let (mut t, mut x, mut h0) = (0.0, vec![0.0; 4], 0.0);
    loop {
        let k = times.partition_point(|&s| s <= t);
        let mut tl = tol(rtol, atol, f64::INFINITY);
        tl.h0 = h0;
        let r = integ
            .solve(&sys, &tl, t, &x, PID_T1, &times[k..], &mut |s, y| {
                o.t.push(s);
                o.y.push(y[0]);
            })
            .map_err(|e| e.to_string())?;
        o.stats += r.stats;
        if r.event.is_some() {
            o.switches.push((r.t, 0.0));
        }
        if r.event.is_none() || r.t >= PID_T1 {
            o.x_end = r.x;
            break;
        }
        (t, x, h0) = (r.t, r.x, r.h);
    }
    o.steps = o.stats.accepted + o.stats.rejected;
    o.rhs_evals = o.stats.rhs_evals;
    Ok(o)
}

/// (f) with an analytic Jacobian (a prototype to measure the lever "analytic Jacobian" of issue 51
/// item 2; `PidLoop` and LuGre's input derivatives have none in `fric-models`): state
/// `[θ, ω, I, z]`, `u = k_p (r − θ) + k_i I − k_d ω`, `z' = ω − σ0 |ω| z / g(ω)`,
/// `F = σ0 z + σ1 z' + σ2 ω`, `ω' = (u − α ω − F)/J`, LuGre's side by the sign of ω.
pub(crate) struct PidJac(pub(crate) fric_models::pid::PidLoop<fric_models::BySign<fric_models::lugre::LuGre>>);
impl OdeSystem for PidJac {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(x, dx)
    }
    fn jacobian(&self, _t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        let p = &self.0;
        let (w, z) = (x[1], x[3]);
        let m = if w < 0.0 {
            &p.plant.friction.minus
        } else {
            &p.plant.friction.plus
        };
        let e = (-(w / m.vs).powi(2)).exp();
        let g = m.fc + (m.fs - m.fc) * e;
        let dg = (m.fs - m.fc) * e * (-2.0 * w / (m.vs * m.vs));
        let sgn = if w > 0.0 {
            1.0
        } else if w < 0.0 {
            -1.0
        } else {
            0.0
        };
        let dzdz = -w.abs() * m.sigma0 / g;
        let dzdw = 1.0 - m.sigma0 * z * (sgn / g - w.abs() * dg / (g * g));
        let (dfdz, dfdw) = (m.sigma0 + m.sigma1 * dzdz, m.sigma1 * dzdw + m.sigma2);
        let j = p.plant.j;
        jac.copy_from_slice(&[
            0.0,
            1.0,
            0.0,
            0.0,
            -p.kp / j,
            (-p.kd - p.plant.alpha - dfdw) / j,
            p.ki / j,
            -dfdz / j,
            -1.0,
            0.0,
            0.0,
            0.0,
            0.0,
            dzdw,
            0.0,
            dzdz,
        ]);
        true
    }
}

/// [`PidJac`]'s Jacobian against central differences of the right-hand side at a few states on
/// both sides of ω = 0: the largest difference relative to the largest entry of each column.
pub fn pid_jac_check() -> f64 {
    let sys = PidJac(pid_loop());
    let mut worst = 0.0f64;
    for x in [
        [0.3, 0.2, 0.01, 1e-3],
        [0.9, -0.05, 0.02, -5e-4],
        [1.0, 4e-4, 0.03, 1.1e-3],
    ] {
        let mut jac = [0.0; 16];
        sys.jacobian(0.0, &x, &mut jac);
        for c in 0..4 {
            let d = 1e-7 * x[c].abs().max(1e-6);
            let (mut xp, mut xm, mut fp, mut fm) = (x, x, [0.0; 4], [0.0; 4]);
            xp[c] += d;
            xm[c] -= d;
            sys.rhs(0.0, &xp, &mut fp);
            sys.rhs(0.0, &xm, &mut fm);
            let scale = (0..4).map(|r| jac[r * 4 + c].abs()).fold(1e-12, f64::max);
            for r in 0..4 {
                worst = worst.max(((fp[r] - fm[r]) / (2.0 * d) - jac[r * 4 + c]).abs() / scale);
            }
        }
    }
    worst
}

pub fn pid_jac(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    pid_form(&PidJac(pid_loop()), method, rtol, atol)
}
