//! The same problems in the external crates: `ode_solvers` (Dopri5, Dop853; nalgebra state) and
//! `differential-equations` (DOP853, Radau5; event location for the hybrid problem).

use crate::problems::*;
use crate::Out;
use differential_equations::prelude::{
    CrossingDirection, Event, EventConfig, ExplicitRungeKutta, ImplicitRungeKutta, Matrix, IVP, ODE,
};
use fric_models::coulomb::Mode;
use ode_solvers::{OutputType, SVector, System};

/// A row-major `n × n` Jacobian into differential-equations' matrix.
fn to_de_matrix(a: &[f64], n: usize, j: &mut Matrix<f64>) {
    for r in 0..n {
        for c in 0..n {
            j[(r, c)] = a[n * r + c];
        }
    }
}

/// `y = A v` for a row-major Jacobian `A` of dimension `y.len()` (diffsol's Jacobian–vector
/// product).
fn mat_vec(a: &[f64], v: &[f64], y: &mut [f64]) {
    let n = y.len();
    for (r, yr) in y.iter_mut().enumerate() {
        *yr = (0..n).map(|c| a[n * r + c] * v[c]).sum();
    }
}

// ---------------------------------------------------------------------------------------------
// ode_solvers 0.6

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OsMethod {
    Dopri5,
    Dop853,
}

struct OsLuGre;
impl System<f64, SVector<f64, 1>> for OsLuGre {
    fn system(&self, t: f64, y: &SVector<f64, 1>, dy: &mut SVector<f64, 1>) {
        dy[0] = lugre_rhs(t, y[0]);
    }
}
struct OsVdp;
impl System<f64, SVector<f64, 2>> for OsVdp {
    fn system(&self, _t: f64, y: &SVector<f64, 2>, dy: &mut SVector<f64, 2>) {
        let mut d = [0.0; 2];
        vdp_rhs(&[y[0], y[1]], &mut d);
        dy[0] = d[0];
        dy[1] = d[1];
    }
}

/// Integrate from `t0` to `t1` and return the state at `t1`: the crate's default controller
/// parameters, no step limit, the stiffness test off (it would abort the stiff problems).
/// The crate's dense output (`OutputType::Dense`) is not used: on the stiff problems, with many
/// rejected steps, it returned values off by up to 1e28 while its step-end states were right,
/// so the driver restarts at every comparison time instead (docs/benchmarks.md, "Benchmark").
macro_rules! os_run {
    ($m:expr, $sys:expr, $t0:expr, $t1:expr, $y0:expr, $rtol:expr, $atol:expr, $hmax:expr) => {{
        let dx = $t1 - $t0;
        let (n_max, n_stiff) = (u32::MAX, u32::MAX);
        let h_max = $hmax;
        match $m {
            OsMethod::Dopri5 => {
                let mut s = ode_solvers::Dopri5::from_param(
                    $sys,
                    $t0,
                    $t1,
                    dx,
                    $y0,
                    $rtol,
                    $atol,
                    0.9,
                    0.04,
                    0.2,
                    10.0,
                    h_max,
                    0.0,
                    n_max,
                    n_stiff,
                    OutputType::Sparse,
                );
                let st = s.integrate().map_err(|e| e.to_string())?;
                (
                    st,
                    *s.x_out().last().ok_or("no output")?,
                    *s.y_out().last().ok_or("no output")?,
                )
            }
            OsMethod::Dop853 => {
                let mut s = ode_solvers::Dop853::from_param(
                    $sys,
                    $t0,
                    $t1,
                    dx,
                    $y0,
                    $rtol,
                    $atol,
                    0.9,
                    0.0,
                    0.333,
                    6.0,
                    h_max,
                    0.0,
                    n_max,
                    n_stiff,
                    OutputType::Sparse,
                );
                let st = s.integrate().map_err(|e| e.to_string())?;
                (
                    st,
                    *s.x_out().last().ok_or("no output")?,
                    *s.y_out().last().ok_or("no output")?,
                )
            }
        }
    }};
}

pub fn os_lugre(m: OsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    let times = lugre_times();
    let mut o = Out::default();
    let mut z = SVector::<f64, 1>::new(0.0);
    o.t.push(0.0);
    o.y.push(lugre_force(0.0, 0.0));
    for w in times.windows(2) {
        let (st, t, y) = os_run!(m, OsLuGre, w[0], w[1], z, rtol, atol, lugre_hmax());
        z = y;
        o.t.push(t);
        o.y.push(lugre_force(t, z[0]));
        o.steps += (st.accepted_steps + st.rejected_steps) as usize;
        o.rhs_evals += st.num_eval as usize;
    }
    o.x_end = vec![z[0]];
    Ok(o)
}

pub fn os_vdp(m: OsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    let mut o = Out::default();
    let (mut t0, mut x) = (0.0, SVector::<f64, 2>::new(2.0, 0.0));
    for t1 in vdp_times() {
        let (st, t, y) = os_run!(m, OsVdp, t0, t1, x, rtol, atol, t1 - t0);
        x = y;
        t0 = t1;
        o.t.push(t);
        o.y.push(x[0]);
        o.steps += (st.accepted_steps + st.rejected_steps) as usize;
        o.rhs_evals += st.num_eval as usize;
    }
    Ok(o)
}

// ---------------------------------------------------------------------------------------------
// differential-equations 0.7

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeMethod {
    Dop853,
    Radau5,
}

struct DeLuGre;
impl ODE<f64, [f64; 1]> for DeLuGre {
    fn diff(&self, t: f64, y: &[f64; 1], dy: &mut [f64; 1]) {
        dy[0] = lugre_rhs(t, y[0]);
    }
    fn jacobian(&self, t: f64, y: &[f64; 1], j: &mut Matrix<f64>) {
        j[(0, 0)] = lugre_jac(t, y[0]);
    }
}
struct DeVdp;
impl ODE<f64, [f64; 2]> for DeVdp {
    fn diff(&self, _t: f64, y: &[f64; 2], dy: &mut [f64; 2]) {
        vdp_rhs(y, dy)
    }
    fn jacobian(&self, _t: f64, y: &[f64; 2], j: &mut Matrix<f64>) {
        let mut a = [0.0; 4];
        vdp_jac(y, &mut a);
        to_de_matrix(&a, 2, j);
    }
}

const DE_MAX_STEPS: usize = 50_000_000;

macro_rules! de_solve {
    ($m:expr, $ivp:expr, $rtol:expr, $atol:expr, $hmax:expr) => {
        match $m {
            DeMethod::Dop853 => $ivp
                .method(
                    ExplicitRungeKutta::dop853()
                        .rtol($rtol)
                        .atol($atol)
                        .h_max($hmax)
                        .max_steps(DE_MAX_STEPS),
                )
                .solve(),
            DeMethod::Radau5 => $ivp
                .method(
                    ImplicitRungeKutta::radau5()
                        .rtol($rtol)
                        .atol($atol)
                        .h_max($hmax)
                        .max_steps(DE_MAX_STEPS),
                )
                .solve(),
        }
        .map_err(|e| format!("{e:?}").chars().take(200).collect::<String>())
    };
}

pub fn de_lugre(m: DeMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    let times = lugre_times();
    let mut o = Out::default();
    let mut z = [0.0];
    o.t.push(0.0);
    o.y.push(lugre_force(0.0, 0.0));
    let mut i = 1;
    for (a, b) in lugre_segments() {
        let j = i + times[i..].partition_point(|&s| s <= b);
        let ivp = IVP::ode(&DeLuGre, a, b, z).t_eval(&times[i..j]);
        let s = de_solve!(m, ivp, rtol, atol, lugre_hmax())?;
        for (t, y) in s.t.iter().zip(&s.y) {
            o.t.push(*t);
            o.y.push(lugre_force(*t, y[0]));
        }
        // The last comparison time of a segment is its end.
        z = *s.y.last().ok_or("no output")?;
        if s.t.last() != Some(&b) {
            return Err("segment end missing from the output".into());
        }
        o.steps += s.steps.total();
        o.rhs_evals += s.evals.function;
        i = j;
    }
    o.x_end = z.to_vec();
    Ok(o)
}

pub fn de_vdp(m: DeMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    de_plain(m, &DeVdp, [2.0, 0.0], VDP_T1, vdp_times(), rtol, atol, |y| y[0])
}

/// One solve from `t = 0` to `t1` with outputs `out(y)` at `times` (the smooth problems).
#[allow(clippy::too_many_arguments)]
fn de_plain<const N: usize, S: ODE<f64, [f64; N]>>(
    m: DeMethod,
    sys: &S,
    y0: [f64; N],
    t1: f64,
    times: Vec<f64>,
    rtol: f64,
    atol: f64,
    out: impl Fn(&[f64; N]) -> f64,
) -> Result<Out, String> {
    let ivp = IVP::ode(sys, 0.0, t1, y0).t_eval(times);
    let s = de_solve!(m, ivp, rtol, atol, t1)?;
    Ok(Out {
        t: s.t.clone(),
        y: s.y.iter().map(out).collect(),
        steps: s.steps.total(),
        rhs_evals: s.evals.function,
        ..Default::default()
    })
}

/// One mode of the Coulomb automaton: the flow and its single guard as a terminal event.
struct DeCoulomb(Mode);
impl ODE<f64, [f64; 2]> for DeCoulomb {
    fn diff(&self, t: f64, y: &[f64; 2], dy: &mut [f64; 2]) {
        coulomb_rhs(self.0, t, y, dy)
    }
}
impl Event<f64, [f64; 2]> for DeCoulomb {
    fn config(&self) -> EventConfig {
        EventConfig::new(CrossingDirection::Positive, Some(1))
    }
    fn event(&self, t: f64, y: &[f64; 2]) -> f64 {
        coulomb_guard(self.0, t, y)
    }
}

pub fn de_coulomb(m: DeMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    let (mut mode, mut x) = coulomb_initial();
    let t1 = coulomb_t1();
    let mut t = 0.0;
    let mut o = Out::default();
    while t < t1 {
        let sys = DeCoulomb(mode);
        let ivp = IVP::ode(&sys, t, t1, x).t_eval([t1]).event(&sys);
        let s = de_solve!(m, ivp, rtol, atol, coulomb_hmax())?;
        o.steps += s.steps.total();
        o.rhs_evals += s.evals.function;
        let (te, xe) = (*s.t.last().ok_or("no output")?, *s.y.last().ok_or("no output")?);
        x = xe;
        if te < t1 {
            mode = coulomb_jump(mode, te, &mut x);
            o.switches.push((te, mode_code(mode)));
            if o.switches.len() > 10_000 {
                return Err("too many switches".into());
            }
        }
        t = te;
    }
    o.x_end = x.to_vec();
    Ok(o)
}

// ---------------------------------------------------------------------------------------------
// diffsol 0.18 (nalgebra backend): BDF and ESDIRK34 with the analytic Jacobian–vector product.
// diffsol has no largest-step option, so LuGre runs without the step cap the other sides use.
// Right-hand-side evaluations are not recorded (reported as "—").

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsMethod {
    Bdf,
    Esdirk34,
}

macro_rules! ds_solve {
    ($m:expr, $problem:expr, $times:expr) => {{
        type LS = diffsol::NalgebraLU<f64>;
        match $m {
            DsMethod::Bdf => {
                let mut s = $problem.bdf::<LS>().map_err(|e| e.to_string())?;
                let (ys, _) = s.solve_dense($times).map_err(|e| e.to_string())?;
                (ys, s.get_statistics().number_of_steps)
            }
            DsMethod::Esdirk34 => {
                let mut s = $problem.esdirk34::<LS>().map_err(|e| e.to_string())?;
                let (ys, _) = s.solve_dense($times).map_err(|e| e.to_string())?;
                (ys, s.get_statistics().number_of_steps)
            }
        }
    }};
}

pub fn ds_vdp(m: DsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    use diffsol::{DenseMatrix, NalgebraMat, OdeBuilder, OdeSolverMethod};
    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(rtol)
        .atol([atol])
        .rhs_implicit(
            |x: &[f64], _p: &[f64], _t: f64, y: &mut [f64]| vdp_rhs(x, y),
            |x: &[f64], _p: &[f64], _t: f64, v: &[f64], y: &mut [f64]| {
                let mut j = [0.0; 4];
                vdp_jac(x, &mut j);
                mat_vec(&j, v, y);
            },
        )
        .init(
            |_p: &[f64], _t: f64, y: &mut [f64]| {
                y[0] = 2.0;
                y[1] = 0.0;
            },
            2,
        )
        .build()
        .map_err(|e| e.to_string())?;
    let times = vdp_times();
    let (ys, steps) = ds_solve!(m, problem, &times);
    Ok(Out {
        y: (0..times.len()).map(|j| ys.get_index(0, j)).collect(),
        t: times,
        steps,
        ..Default::default()
    })
}

pub fn ds_lugre(m: DsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    use diffsol::{DenseMatrix, NalgebraMat, OdeBuilder, OdeSolverMethod};
    let times = lugre_times();
    let mut o = Out::default();
    let mut z = 0.0;
    o.t.push(0.0);
    o.y.push(lugre_force(0.0, 0.0));
    let mut i = 1;
    for (a, b) in lugre_segments() {
        let j = i + times[i..].partition_point(|&s| s <= b);
        let z0 = z;
        let problem = OdeBuilder::<NalgebraMat<f64>>::new()
            .t0(a)
            .rtol(rtol)
            .atol([atol])
            .rhs_implicit(
                |x: &[f64], _p: &[f64], t: f64, y: &mut [f64]| y[0] = lugre_rhs(t, x[0]),
                |x: &[f64], _p: &[f64], t: f64, v: &[f64], y: &mut [f64]| y[0] = lugre_jac(t, x[0]) * v[0],
            )
            .init(move |_p: &[f64], _t: f64, y: &mut [f64]| y[0] = z0, 1)
            .build()
            .map_err(|e| e.to_string())?;
        let (ys, steps) = ds_solve!(m, problem, &times[i..j]);
        for (k, &t) in times[i..j].iter().enumerate() {
            o.t.push(t);
            o.y.push(lugre_force(t, ys.get_index(0, k)));
        }
        z = ys.get_index(0, j - i - 1);
        o.steps += steps;
        i = j;
    }
    o.x_end = vec![z];
    Ok(o)
}

// ---------------------------------------------------------------------------------------------
// (e) B&S in time and (f) the PID loop: the same right-hand sides in every crate (analytic
// Jacobian for B&S, the crate's own finite differences for the PID loop where it has them).

#[derive(Clone, Copy)]
struct OsBs;
impl System<f64, SVector<f64, 4>> for OsBs {
    fn system(&self, t: f64, y: &SVector<f64, 4>, dy: &mut SVector<f64, 4>) {
        bs_rhs(t, y.as_slice(), dy.as_mut_slice());
    }
}
#[derive(Clone, Copy)]
struct OsPid(fric_models::pid::PidLoop<fric_models::BySign<fric_models::lugre::LuGre>>);
impl System<f64, SVector<f64, 4>> for OsPid {
    fn system(&self, _t: f64, y: &SVector<f64, 4>, dy: &mut SVector<f64, 4>) {
        self.0.rhs(y.as_slice(), dy.as_mut_slice());
    }
}

/// A 4-state problem restarted at every comparison time (see `os_run!`), output `out(x)`.
fn os_4<S: System<f64, SVector<f64, 4>> + Copy>(
    m: OsMethod,
    sys: S,
    times: &[f64],
    rtol: f64,
    atol: f64,
    out: impl Fn(&[f64]) -> f64,
) -> Result<Out, String> {
    let mut o = Out::default();
    let (mut t0, mut x) = (0.0, SVector::<f64, 4>::zeros());
    for &t1 in times {
        let (st, t, y) = os_run!(m, sys, t0, t1, x, rtol, atol, t1 - t0);
        x = y;
        t0 = t1;
        o.t.push(t);
        o.y.push(out(x.as_slice()));
        o.steps += (st.accepted_steps + st.rejected_steps) as usize;
        o.rhs_evals += st.num_eval as usize;
    }
    o.x_end = x.as_slice().to_vec();
    Ok(o)
}

pub fn os_bs(m: OsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    os_4(m, OsBs, &bs_times(), rtol, atol, bs_force)
}
pub fn os_pid(m: OsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    os_4(m, OsPid(pid_loop()), &pid_times(), rtol, atol, |x| x[0])
}
struct DeBs;
impl ODE<f64, [f64; 4]> for DeBs {
    fn diff(&self, t: f64, y: &[f64; 4], dy: &mut [f64; 4]) {
        bs_rhs(t, y, dy)
    }
    fn jacobian(&self, _t: f64, y: &[f64; 4], j: &mut Matrix<f64>) {
        let mut a = [0.0; 16];
        bs_jac(y, &mut a);
        to_de_matrix(&a, 4, j);
    }
}
struct DePid(fric_models::pid::PidLoop<fric_models::BySign<fric_models::lugre::LuGre>>);
impl ODE<f64, [f64; 4]> for DePid {
    fn diff(&self, _t: f64, y: &[f64; 4], dy: &mut [f64; 4]) {
        self.0.rhs(y, dy)
    }
}

pub fn de_bs(m: DeMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    de_plain(m, &DeBs, [0.0; 4], bs_t1(), bs_times(), rtol, atol, |y| bs_force(y))
}
pub fn de_pid(m: DeMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    de_plain(m, &DePid(pid_loop()), [0.0; 4], PID_T1, pid_times(), rtol, atol, |y| {
        y[0]
    })
}

/// diffsol on a 4-state problem from rest: `rhs`, the Jacobian–vector product `jv`, output
/// `out(x)` at `times`.
fn ds_4(
    m: DsMethod,
    rtol: f64,
    atol: f64,
    times: Vec<f64>,
    rhs: impl Fn(&[f64], f64, &mut [f64]),
    jv: impl Fn(&[f64], f64, &[f64], &mut [f64]),
    out: impl Fn(&[f64]) -> f64,
) -> Result<Out, String> {
    use diffsol::{DenseMatrix, NalgebraMat, OdeBuilder, OdeSolverMethod};
    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(rtol)
        .atol([atol])
        .rhs_implicit(
            |x: &[f64], _p: &[f64], t: f64, y: &mut [f64]| rhs(x, t, y),
            |x: &[f64], _p: &[f64], t: f64, v: &[f64], y: &mut [f64]| jv(x, t, v, y),
        )
        .init(|_p: &[f64], _t: f64, y: &mut [f64]| y.fill(0.0), 4)
        .build()
        .map_err(|e| e.to_string())?;
    let (ys, steps) = ds_solve!(m, problem, &times);
    let mut o = Out::default();
    for (k, &t) in times.iter().enumerate() {
        let x: Vec<f64> = (0..4).map(|i| ys.get_index(i, k)).collect();
        o.t.push(t);
        o.y.push(out(&x));
    }
    o.steps = steps;
    Ok(o)
}

pub fn ds_bs(m: DsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    ds_4(
        m,
        rtol,
        atol,
        bs_times(),
        |x, t, y| bs_rhs(t, x, y),
        |x, _t, v, y| {
            let mut j = [0.0; 16];
            bs_jac(x, &mut j);
            mat_vec(&j, v, y);
        },
        bs_force,
    )
}

/// The PID loop in diffsol, which needs a Jacobian–vector product: a forward difference of the
/// right-hand side along `v` (the other sides use finite-difference Jacobians too).
pub fn ds_pid(m: DsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    let lp = pid_loop();
    ds_4(
        m,
        rtol,
        atol,
        pid_times(),
        |x, _t, y| lp.rhs(x, y),
        |x, _t, v, y| {
            let nv = v.iter().map(|a| a * a).sum::<f64>().sqrt();
            if nv == 0.0 {
                y.fill(0.0);
                return;
            }
            let nx = x.iter().map(|a| a * a).sum::<f64>().sqrt();
            let h = f64::EPSILON.sqrt() * nx.max(1.0) / nv;
            let xp: Vec<f64> = x.iter().zip(v).map(|(a, b)| a + h * b).collect();
            let (mut f0, mut f1) = ([0.0; 4], [0.0; 4]);
            lp.rhs(x, &mut f0);
            lp.rhs(&xp, &mut f1);
            for i in 0..4 {
                y[i] = (f1[i] - f0[i]) / h;
            }
        },
        |x| x[0],
    )
}

// ---------------------------------------------------------------------------------------------
// (g) The DF point from rest in time (`df_settle`, as `scipy_bench.py` and our `LongRun`): the
// crates have no shooting, so each integrates the time form with the Fourier integrals period
// after period until N settles; one solve per period (the integrals restart at 0), the analytic
// Jacobian where the crate takes one.

#[derive(Clone, Copy)]
struct OsDf;
impl System<f64, SVector<f64, 6>> for OsDf {
    fn system(&self, t: f64, y: &SVector<f64, 6>, dy: &mut SVector<f64, 6>) {
        df_rhs(t, y.as_slice(), dy.as_mut_slice());
    }
}

pub fn os_df(m: OsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    let period = df_period();
    df_settle(rtol, |k, x| {
        let (t0, t1) = (k as f64 * period, (k + 1) as f64 * period);
        let y0 = SVector::<f64, 6>::from_column_slice(x);
        let (st, _, y) = os_run!(m, OsDf, t0, t1, y0, rtol, atol * DF_A, t1 - t0);
        x.copy_from_slice(y.as_slice());
        Ok(((st.accepted_steps + st.rejected_steps) as usize, st.num_eval as usize))
    })
}

struct DeDf;
impl ODE<f64, [f64; 6]> for DeDf {
    fn diff(&self, t: f64, y: &[f64; 6], dy: &mut [f64; 6]) {
        df_rhs(t, y, dy)
    }
    fn jacobian(&self, t: f64, y: &[f64; 6], j: &mut Matrix<f64>) {
        let mut a = [0.0; 36];
        df_jac(t, y, &mut a);
        to_de_matrix(&a, 6, j);
    }
}

pub fn de_df(m: DeMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    let period = df_period();
    df_settle(rtol, |k, x| {
        let (t0, t1) = (k as f64 * period, (k + 1) as f64 * period);
        let ivp = IVP::ode(&DeDf, t0, t1, *x);
        let s = de_solve!(m, ivp, rtol, atol * DF_A, t1 - t0)?;
        *x = *s.y.last().ok_or("no output")?;
        Ok((s.steps.total(), s.evals.function))
    })
}

pub fn ds_df(m: DsMethod, rtol: f64, atol: f64) -> Result<Out, String> {
    use diffsol::{DenseMatrix, NalgebraMat, OdeBuilder, OdeSolverMethod};
    let period = df_period();
    df_settle(rtol, |k, x| {
        let (t0, t1) = (k as f64 * period, (k + 1) as f64 * period);
        let x0 = *x;
        let problem = OdeBuilder::<NalgebraMat<f64>>::new()
            .t0(t0)
            .rtol(rtol)
            .atol([atol * DF_A])
            .rhs_implicit(
                |x: &[f64], _p: &[f64], t: f64, y: &mut [f64]| df_rhs(t, x, y),
                |x: &[f64], _p: &[f64], t: f64, v: &[f64], y: &mut [f64]| {
                    let mut j = [0.0; 36];
                    df_jac(t, x, &mut j);
                    mat_vec(&j, v, y);
                },
            )
            .init(move |_p: &[f64], _t: f64, y: &mut [f64]| y.copy_from_slice(&x0), 6)
            .build()
            .map_err(|e| e.to_string())?;
        let (ys, steps) = ds_solve!(m, problem, &[t1]);
        for (i, xi) in x.iter_mut().enumerate() {
            *xi = ys.get_index(i, 0);
        }
        Ok((steps, 0))
    })
}
