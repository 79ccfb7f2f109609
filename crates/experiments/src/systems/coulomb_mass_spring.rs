//! `coulomb-mass-spring`: the force-driven mass–spring with Coulomb friction, thesis (1.18), as an
//! event-driven stick–slip hybrid automaton whose guards and jumps are data in
//! `fric-models::coulomb`.

use crate::drive::{periodic_plan, save_times};
use crate::input::signal;
use crate::invariants::{col, Invariant, Violation};
use crate::system::{initial, params, positive, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{RunData, RunRequest};
use fric_models::coulomb;
use fric_models::signal::Signal;
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{Method, Tolerances};
use std::f64::consts::PI;

params! {
    /// The spring and the Coulomb level of (1.18)–(1.19).
    pub struct SpringCoulomb {
        k: f64 = positive("N/m", "spring stiffness K"),
        fc: f64 = positive("N", "Coulomb level F_C"),
    }
}

params! {
    pub struct Params {
        m: f64 = positive("kg", "mass"),
        law: SpringCoulomb = Group(LINEAR),
        x0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
    }
}

pub struct CoulombMassSpring;

impl System for CoulombMassSpring {
    const NAME: &'static str = "coulomb-mass-spring";
    const DOC: &'static str = "Force-driven mass-spring with Coulomb friction, thesis (1.18): m x'' + K x = u - F_f, event-driven stick-slip (hybrid automaton).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "N", "input force"),
        ("x", "m", "position"),
        ("v", "m/s", "velocity"),
        ("F", "N", "friction force"),
        ("applied", "N", "applied force u - K x (inside [-F_C, F_C] on the equilibria map)"),
        ("mode", "1", "0 stick, +1/-1 slip direction"),
        ("W_in", "J", "input work ∫ u v dt from the start (quadrature on the dense output)"),
        ("W_f", "J", "friction work ∫ F v dt from the start"),
        ("E", "J", "stored energy ½ m v² + ½ K x²"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5];
    const INVARIANTS: &'static [Invariant<Params>] = &[Invariant {
        name: "opposes-sliding",
        doc: "Coulomb friction opposes sliding: F v >= 0 on every sample in slip (thesis (1.18)-(1.19))",
        check: |_, _, d| crate::invariants::opposes_sliding(col(d, "t")?, col(d, "v")?, col(d, "F")?, 0.0, 1e-12),
    }, Invariant {
        name: "energy-balance",
        doc: "input work = friction work + change of ½ m v² + ½ K x² ((1.18) times v, integrated), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
    }];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let sig = signal(req)?;
        let m = coulomb::MassSpring {
            m: p.m,
            k: p.law.k,
            fc: p.law.fc,
        };
        crate::drive::no_shooting(req)?;
        let (plan, steady) = periodic_plan(req, &sig);
        if steady.is_some() {
            return Err("coulomb-mass-spring runs for `periods` or `t_end`; steady_state is not supported".into());
        }
        let natural = 2.0 * PI * (m.m / m.k).sqrt();
        let (rtol, atol) = tolerance(req);
        let tol = Tolerances {
            rtol,
            atol,
            hmax: natural / 8.0,
            ..Default::default()
        };
        let x0 = [p.x0, p.v0];
        let mode0 = m.initial_mode(sig.value(0.0), &x0);
        let save = save_times(&plan);
        let h = Automaton { m, sig: &sig };
        let mut cols: [Vec<f64>; 10] = Default::default();
        let o = simulate(
            &h,
            mode0,
            Method::Dopri5,
            &tol,
            plan.record.0,
            &x0,
            plan.record.1,
            &save,
            10_000_000,
            &mut |t, mode, x| {
                let u = sig.value(t);
                cols[0].push(t);
                cols[1].push(u);
                cols[2].push(x[0]);
                cols[3].push(x[1]);
                cols[4].push(m.friction(mode, u, x));
                cols[5].push(m.applied(u, x));
                cols[6].push(match mode {
                    coulomb::Mode::Stick => 0.0,
                    coulomb::Mode::Slip(s) => s,
                });
                cols[7].push(x[2]);
                cols[8].push(x[3]);
                cols[9].push(0.5 * m.m * x[1] * x[1] + 0.5 * m.k * x[0] * x[0]);
            },
        )
        .map_err(|e| e.to_string())?;
        let names = ["t", "u", "x", "v", "F", "applied", "mode", "W_in", "W_f", "E"];
        let mut data = RunData {
            period: plan.input_period,
            ..Default::default()
        };
        data.columns = names.iter().map(|s| s.to_string()).zip(cols).collect();
        data.info.insert("switches".into(), o.switches.len() as f64);
        data.info.insert("steps".into(), o.stats.accepted as f64);
        data.info.insert("t_start".into(), plan.record.0);
        Ok(data)
    }
}

/// The stick–slip automaton driven by the input signal.
struct Automaton<'a> {
    m: coulomb::MassSpring,
    sig: &'a Signal,
}

impl HybridSystem for Automaton<'_> {
    type Mode = coulomb::Mode;
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, mode: Self::Mode, t: f64, x: &[f64], dx: &mut [f64]) {
        self.m.rhs(mode, self.sig.value(t), x, dx)
    }
    fn n_guards(&self, mode: Self::Mode) -> usize {
        self.m.n_guards(mode)
    }
    fn guards(&self, mode: Self::Mode, t: f64, x: &[f64], g: &mut [f64]) {
        self.m.guards(mode, self.sig.value(t), x, g)
    }
    fn jump(&self, mode: Self::Mode, guard: usize, t: f64, x: &mut [f64]) -> Self::Mode {
        self.m.jump(mode, guard, self.sig.value(t), self.sig.deriv(t), x)
    }
    /// The energy balance's works `∫ u v dt` and `∫ F v dt`, `F` the friction reported.
    fn n_quadratures(&self) -> usize {
        2
    }
    fn integrands(&self, mode: Self::Mode, t: f64, x: &[f64], q: &mut [f64]) {
        let u = self.sig.value(t);
        q[0] = u * x[1];
        q[1] = self.m.friction(mode, u, x) * x[1];
    }
}

/// The run's `(rtol, atol)`: the request's, else 1e-10 and 1e-12.
fn tolerance(req: &RunRequest) -> (f64, f64) {
    (req.sim.rtol.unwrap_or(1e-10), req.sim.atol.unwrap_or(1e-12))
}

/// Invariant: the energy balance (`crate::energy_balance`) with the bound derived there. The
/// integrand `u v − F v` has `∂/∂v = u − F` (`max|u| + F_C` bounds it) and `∂/∂x = 0` (`F` is
/// `±F_C` while sliding, and `v = 0` exactly while stuck).
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), Violation> {
    use crate::energy_balance::{check, max_abs, Bound};
    let (t, x, v) = (col(d, "t")?, col(d, "x")?, col(d, "v")?);
    let (xm, vm) = (max_abs(x), max_abs(v));
    let bound = Bound::for_run(
        d,
        tolerance(req),
        vec![(xm, p.law.k * xm, 0.0), (vm, p.m * vm, max_abs(col(d, "u")?) + p.law.fc)],
    );
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}
