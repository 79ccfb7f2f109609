//! The force-driven mass–spring of duhem-paper (28) and the DC-motor/drum testbed (37)–(41),
//! which is the same plant: the plant parameter groups, how a drum run's columns are presented,
//! and the runs with Dahl, LuGre and Maxwell-slip friction shared by the six spring systems.

use crate::drive::{driven, periodic_plan, save_times};
use crate::input::signal;
use crate::laws::{DahlLaw, LuGreLaw, MaxwellSlipElements};
use crate::system::{any, initial, nonneg, params, positive, Column};
use crate::{RunData, RunRequest};
use fric_models::mass_spring::{Plant, WithDahl, WithLuGre, WithMaxwellSlip};
use fric_models::maxwell_slip::MaxwellSlipState;
use fric_models::signal::Signal;
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{Method, Tolerances};
use std::cell::RefCell;
use std::f64::consts::PI;

pub const SPRING_COLUMNS: &[Column] = &[
    ("t", "s", "time"),
    ("u", "N", "external force F_e"),
    ("q", "m", "position"),
    ("v", "m/s", "velocity"),
    ("F", "N", "friction"),
];

pub const DRUM_COLUMNS: &[Column] = &[
    ("t", "s", "time"),
    ("i", "A", "motor current"),
    ("Tm", "N-m", "motor torque km i_m"),
    ("theta", "rad", "drum angle"),
    ("omega", "rad/s", "angular velocity"),
    ("Tf", "N-m", "friction torque"),
];

params! {
    /// A body of mass `m` on a spring of stiffness `K` whose free end is pulled at the constant
    /// speed `vp` (thesis (3.10)–(3.12), (4.18)–(4.20)): the rig of the stick–slip systems. `vp`
    /// may have either sign here (negative: pulled backwards, as LuGre's and the CBM's rigs
    /// allow); a system whose rig needs a direction says so in its `check` (the RBM and DRBM lay
    /// their bristle lattice out ahead of the body, so they take `vp > 0`). The CBM systems keep
    /// `m` and `K` in their body (`CbmBody`, (4.1)–(4.27)) and only `vp` beside it.
    pub struct PulledSpring {
        m: f64 = positive("kg", "body mass"),
        k_spring: f64 = positive("N/m", "spring stiffness K"),
        vp: f64 = any("m/s", "speed of the spring's free end (negative: pulled backwards)"),
    }
}

impl PulledSpring {
    /// `vp > 0`, for a rig laid out in the direction of the pull.
    pub fn check_pulled_forward(&self, errs: &mut Vec<crate::Invalid>) {
        if !(self.vp > 0.0) {
            errs.push(crate::Invalid::new(
                "params.vp",
                format!("`vp` = {} is out of range: this rig is pulled forward", self.vp),
                "a positive number (the bristle lattice is laid out ahead of the body, in +x)",
            ));
        }
    }
}

params! {
    /// The mass–spring of (28) and its initial state.
    pub struct SpringPlant {
        m: f64 = positive("kg", "mass"),
        ks: f64 = positive("N/m", "spring stiffness k_s"),
        q0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
    }
}

params! {
    /// The drum testbed (37)–(41) and its initial state.
    pub struct DrumPlant {
        inertia: f64 = positive("kg-m^2", "drum inertia I"),
        k1: f64 = positive("N/m", "spring 1 stiffness"),
        k2: f64 = positive("N/m", "spring 2 stiffness"),
        r: f64 = positive("m", "drum radius"),
        km: f64 = positive("N-m/A", "motor torque constant"),
        f10: f64 = nonneg("N", "spring 1 preload"),
        f20: f64 = nonneg("N", "spring 2 preload"),
        theta0: f64 = initial("rad", "initial angle"),
        omega0: f64 = initial("rad/s", "initial angular velocity"),
    }
}

/// A spring run's plant, external-force signal, initial `[q, v]` and column view.
pub struct Setup {
    plant: Plant,
    sig: Signal,
    x0: [f64; 2],
    view: View,
}

impl SpringPlant {
    pub fn setup(&self, req: &RunRequest) -> Result<Setup, String> {
        Ok(Setup {
            plant: Plant { m: self.m, ks: self.ks },
            sig: signal(req)?,
            x0: [self.q0, self.v0],
            view: View::MassSpring,
        })
    }
}

impl DrumPlant {
    /// (40)–(41): `I θ'' + (k1 + k2) r² θ = km i_m − T_f − (F10 − F20) r`.
    pub fn setup(&self, req: &RunRequest) -> Result<Setup, String> {
        let bias = (self.f10 - self.f20) * self.r;
        Ok(Setup {
            plant: Plant {
                m: self.inertia,
                ks: (self.k1 + self.k2) * self.r * self.r,
            },
            sig: signal(req)?.affine(self.km, -bias),
            x0: [self.theta0, self.omega0],
            view: View::Drum { km: self.km, bias },
        })
    }
}

/// How a spring run's columns are presented: as the mass–spring of (28) or as the drum testbed.
enum View {
    MassSpring,
    /// Drum: `F_e = km i − bias`; columns renamed to i, Tm, theta, omega, Tf.
    Drum {
        km: f64,
        bias: f64,
    },
}

impl View {
    fn apply(&self, mut d: RunData) -> RunData {
        let View::Drum { km, bias } = *self else { return d };
        let take = |d: &mut RunData, n: &str| {
            d.columns
                .iter()
                .position(|c| c.0 == n)
                .map(|i| d.columns.remove(i).1)
                .unwrap_or_default()
        };
        let t = take(&mut d, "t");
        let fe = take(&mut d, "u");
        let (q, v, f) = (take(&mut d, "q"), take(&mut d, "v"), take(&mut d, "F"));
        let tm: Vec<f64> = fe.iter().map(|x| x + bias).collect();
        let i = tm.iter().map(|x| x / km).collect();
        d.columns = vec![
            ("t".into(), t),
            ("i".into(), i),
            ("Tm".into(), tm),
            ("theta".into(), q),
            ("omega".into(), v),
            ("Tf".into(), f),
        ];
        d
    }
}

/// Mass–spring with Dahl friction (30), state `[q, v, F]`.
pub fn dahl(req: &RunRequest, s: Setup, law: &DahlLaw) -> Result<RunData, String> {
    let m = WithDahl {
        plant: s.plant,
        dahl: law.model(),
    };
    let x0 = vec![s.x0[0], s.x0[1], law.f0];
    let d = driven(req, &s.sig, &m, x0, &["q", "v", "F"], |_, _, x, out| {
        out.copy_from_slice(x)
    })?;
    Ok(s.view.apply(d))
}

/// Mass–spring with LuGre friction (34)–(36), state `[q, v, z]`.
pub fn lugre(req: &RunRequest, s: Setup, law: &LuGreLaw) -> Result<RunData, String> {
    let m = WithLuGre {
        plant: s.plant,
        lugre: law.model(),
    };
    let x0 = vec![s.x0[0], s.x0[1], law.z0];
    let d = driven(req, &s.sig, &m, x0, &["q", "v", "F"], |_, _, x, out| {
        out[0] = x[0];
        out[1] = x[1];
        out[2] = m.friction(x[1], x[2]);
    })?;
    Ok(s.view.apply(d))
}

struct SpringHybrid<'a> {
    m: &'a WithMaxwellSlip,
    sig: &'a Signal,
    /// Element deflections at the last velocity reversal.
    snapshot: RefCell<MaxwellSlipState>,
}

impl HybridSystem for SpringHybrid<'_> {
    type Mode = ();
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _: (), t: f64, x: &[f64], dx: &mut [f64]) {
        self.m.rhs(&self.snapshot.borrow(), self.sig.value(t), x, dx)
    }
    fn n_guards(&self, _: ()) -> usize {
        2
    }
    fn guards(&self, _: (), _t: f64, x: &[f64], g: &mut [f64]) {
        self.m.guards(x, g)
    }
    fn jump(&self, _: (), _guard: usize, _t: f64, x: &mut [f64]) {
        self.m.reverse(&mut self.snapshot.borrow_mut(), x);
    }
}

/// Mass–spring with Maxwell-slip friction (24)–(25): integrated between velocity reversals
/// (located events) with the exact stop operators of the distance travelled since the last one.
pub fn maxwell_slip(req: &RunRequest, s: Setup, elements: &MaxwellSlipElements) -> Result<RunData, String> {
    let m = WithMaxwellSlip {
        plant: s.plant,
        elements: elements.model(),
    };
    let (sig, x0) = (&s.sig, s.x0);
    crate::drive::no_shooting(req)?;
    let (plan, steady) = periodic_plan(req, sig);
    if steady.is_some() {
        return Err("Maxwell-slip spring runs take `periods` or `t_end`".into());
    }
    let stiffness = m.plant.ks + m.elements.k.iter().map(|k| k.abs()).sum::<f64>();
    let natural = 2.0 * PI * (m.plant.m / stiffness).sqrt();
    let tol = Tolerances {
        rtol: req.sim.rtol.unwrap_or(1e-10),
        atol: req.sim.atol.unwrap_or(1e-13),
        hmax: (natural / 8.0).min(plan.scale / 1000.0),
        ..Default::default()
    };
    let h = SpringHybrid {
        m: &m,
        sig,
        snapshot: RefCell::new(m.elements.state(x0[0], 0.0)),
    };
    let save = save_times(&plan);
    let mut cols: [Vec<f64>; 5] = Default::default();
    let o = simulate(
        &h,
        (),
        Method::Dopri5,
        &tol,
        plan.record.0,
        &x0,
        plan.record.1,
        &save,
        50_000_000,
        &mut |t, _, x| {
            cols[0].push(t);
            cols[1].push(sig.value(t));
            cols[2].push(x[0]);
            cols[3].push(x[1]);
            cols[4].push(m.friction(&h.snapshot.borrow(), x[0]));
        },
    )
    .map_err(|e| e.to_string())?;
    let mut data = RunData {
        period: plan.input_period,
        ..Default::default()
    };
    data.columns = ["t", "u", "q", "v", "F"]
        .iter()
        .map(|s| s.to_string())
        .zip(cols)
        .collect();
    data.info.insert("reversals".into(), o.switches.len() as f64);
    data.info.insert("steps".into(), o.stats.accepted as f64);
    Ok(s.view.apply(data))
}
