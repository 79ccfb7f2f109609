//! The problems in fric-solvers (`solve` and `hybrid::simulate`).

use crate::problems::*;
use crate::Out;
use fric_models::coulomb::Mode;
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{solve, Method, OdeSystem, Stats, Tolerances};

pub const METHODS: [(Method, &str); 4] = [
    (Method::Dopri5, "Dopri5"),
    (Method::Dop853, "Dop853"),
    (Method::Rosenbrock23, "Rosenbrock23"),
    (Method::Radau5, "Radau5"),
];

fn tol(rtol: f64, atol: f64, hmax: f64) -> Tolerances {
    Tolerances {
        rtol,
        atol,
        hmax,
        max_steps: 5_000_000,
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

pub fn vdp(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    let mut o = Out::default();
    let r = solve(
        &Vdp,
        method,
        &tol(rtol, atol, f64::INFINITY),
        0.0,
        &[2.0, 0.0],
        VDP_T1,
        &vdp_times(),
        &mut |t, x| {
            o.t.push(t);
            o.y.push(x[0]);
        },
    )
    .map_err(|e| e.to_string())?;
    o.steps = r.stats.accepted + r.stats.rejected;
    o.rhs_evals = r.stats.rhs_evals;
    o.x_end = r.x;
    Ok(o)
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

/// The CBM under the Switch Model, as `fric-experiments` runs it for thesis Figs 4.4–4.5.
pub fn bristle(method: Method, rtol: f64, atol: f64) -> Result<Out, String> {
    use fric_experiments::cbm::{run, CbmSettings};
    let settings = CbmSettings {
        eta: BRISTLE_ETA,
        tau: BRISTLE_TAU,
        method,
        tol: tol(rtol, atol, f64::INFINITY),
        max_events: 1_000_000,
    };
    let r = run(&bristle_config(), &[0.0; 5], BRISTLE_T1, &[BRISTLE_T1], &settings).map_err(|e| e.to_string())?;
    Ok(Out {
        switches: r.region_changes.iter().map(|&(t, g)| (t, region_code(g))).collect(),
        x_end: r.state.last().cloned().ok_or("no final state")?,
        steps: r.stats.accepted + r.stats.rejected,
        rhs_evals: r.stats.rhs_evals,
        ..Default::default()
    })
}
