//! The force-driven mass–spring of duhem-paper (28) and the DC-motor/drum testbed (37)–(41),
//! which is the same plant: the plant parameter groups, how a drum run's columns are presented,
//! and the runs with Dahl, LuGre and Maxwell-slip friction shared by the six spring systems.

use crate::drive::{driven_with_works, periodic_plan, save_times, Works};
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

/// `$base` followed by `$more`, as one `&'static [Column]` (const slices cannot be joined
/// otherwise): a column list that extends another states only what it adds.
macro_rules! columns_then {
    ($base:expr, $more:expr) => {{
        const BASE: &[Column] = $base;
        const MORE: &[Column] = $more;
        const JOINED: [Column; BASE.len() + MORE.len()] = {
            let mut out = [("", "", ""); BASE.len() + MORE.len()];
            let mut i = 0;
            while i < BASE.len() {
                out[i] = BASE[i];
                i += 1;
            }
            while i < BASE.len() + MORE.len() {
                out[i] = MORE[i - BASE.len()];
                i += 1;
            }
            out
        };
        &JOINED
    }};
}

/// [`SPRING_COLUMNS`] and the energy balance's columns (`crate::energy_balance`), for the
/// Maxwell-slip and Dahl runs.
pub const SPRING_ENERGY_COLUMNS: &[Column] = columns_then!(
    SPRING_COLUMNS,
    &[
        (
            "W_in",
            "J",
            "input work ∫ F_e v dt from the start (quadrature on the dense output)",
        ),
        ("W_f", "J", "friction work ∫ F v dt from the start"),
        ("E", "J", "stored energy ½ m v² + ½ k_s q²"),
    ]
);

/// [`SPRING_ENERGY_COLUMNS`] and the LuGre bristle deflection (the energy balance's bound
/// differentiates the law in it), for the LuGre runs.
pub const SPRING_LUGRE_COLUMNS: &[Column] =
    columns_then!(SPRING_ENERGY_COLUMNS, &[("z", "m", "LuGre bristle deflection")]);

/// [`SPRING_LUGRE_COLUMNS`] and the rest friction `F_rest` ([`with_rest_friction`]), for
/// `mass-spring-lugre`.
pub const MASS_SPRING_LUGRE_COLUMNS: &[Column] = columns_then!(
    SPRING_LUGRE_COLUMNS,
    &[(
        "F_rest",
        "N",
        "rest friction F_e − k_s q = F + m q̈: the friction the force balance of (28) assigns to the mass at rest (equal to F when q̈ = 0); it varies on the slow time scale of q, so its extremes do not depend on the sampling",
    )]
);

/// `d` with the column `F_rest = u − k_s q` ([`MASS_SPRING_LUGRE_COLUMNS`]), `k_s` the run's
/// own stiffness: the friction a reading of a plot by the force balance at rest means
/// (duhem-paper L402–L411). `F` itself dips for ≈ 0.02 s after a LuGre slip (the bristle mode
/// √(σ0/m)), faster than a plot's samples, so a minimum of `F` depends on the sample grid.
pub fn with_rest_friction(mut d: RunData, ks: f64) -> RunData {
    let rest: Vec<f64> = match (d.column("u"), d.column("q")) {
        (Some(u), Some(q)) => u.iter().zip(q).map(|(u, q)| u - ks * q).collect(),
        _ => return d,
    };
    d.columns.push(("F_rest".into(), rest));
    d
}

pub const DRUM_COLUMNS: &[Column] = &[
    ("t", "s", "time"),
    ("i", "A", "motor current"),
    ("Tm", "N-m", "motor torque km i_m"),
    ("theta", "rad", "drum angle"),
    ("omega", "rad/s", "angular velocity"),
    ("Tf", "N-m", "friction torque"),
];

/// [`DRUM_COLUMNS`] and the energy balance's columns (`crate::energy_balance`), for the
/// Maxwell-slip and Dahl runs.
pub const DRUM_ENERGY_COLUMNS: &[Column] = columns_then!(
    DRUM_COLUMNS,
    &[
        (
            "W_in",
            "J",
            "input work ∫ (km i_m − (F10 − F20) r) ω dt from the start (quadrature on the dense output)",
        ),
        ("W_f", "J", "friction work ∫ T_f ω dt from the start"),
        ("E", "J", "stored energy ½ I ω² + ½ (k1 + k2) r² θ²"),
    ]
);

/// [`DRUM_ENERGY_COLUMNS`] and the LuGre bristle deflection, for the LuGre runs.
pub const DRUM_LUGRE_COLUMNS: &[Column] =
    columns_then!(DRUM_ENERGY_COLUMNS, &[("z", "rad", "LuGre bristle deflection")]);

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

/// The pulled rig's right-hand side (3.10)–(3.12) on the state `s = [x, v, l]`: `ẋ = v`,
/// `m v̇ = K l − F_l − F_r`, `l̇ = v_p − v`, with the friction at the state given as its two
/// corners' forces `(fl, fr)` (a whole force as `(F, 0)`). The rigs of `rbm-stick-slip`,
/// `rbm-stick-slip-table` and the DRBM's exact solution (`crate::drbm`) differ only in where
/// the friction comes from.
pub fn pulled_rhs(k: f64, m: f64, vp: f64, (fl, fr): (f64, f64), s: &[f64], ds: &mut [f64]) {
    ds[0] = s[1];
    ds[1] = (k * s[2] - fl - fr) / m;
    ds[2] = vp - s[1];
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
        // Any further columns (the energy balance's) keep their names, after the renamed ones.
        let rest = std::mem::take(&mut d.columns);
        d.columns = vec![
            ("t".into(), t),
            ("i".into(), i),
            ("Tm".into(), tm),
            ("theta".into(), q),
            ("omega".into(), v),
            ("Tf".into(), f),
        ];
        d.columns.extend(rest);
        d
    }
}

/// Mass–spring with Dahl friction (30), state `[q, v, F]`, with the energy balance's works
/// `W_in = ∫ F_e v dt`, `W_f = ∫ F v dt` and the stored energy `E` ([`SPRING_ENERGY_COLUMNS`]).
pub fn dahl(req: &RunRequest, s: Setup, law: &DahlLaw) -> Result<RunData, String> {
    dahl_reporting(req, s, law, 1.0)
}

/// [`dahl`] with the friction work integrated from `report ×` the friction acting (1 in
/// production; another value only in the test that the balance catches a misreported force).
fn dahl_reporting(req: &RunRequest, s: Setup, law: &DahlLaw, report: f64) -> Result<RunData, String> {
    let m = WithDahl {
        plant: s.plant,
        dahl: law.model(),
    };
    let x0 = vec![s.x0[0], s.x0[1], law.f0];
    let integrands = |fe: f64, _: f64, x: &[f64], q: &mut [f64]| {
        q[0] = fe * x[1];
        q[1] = report * x[2] * x[1];
    };
    let works = Works {
        n: 2,
        integrands: &integrands,
    };
    let (pm, ks) = (m.plant.m, m.plant.ks);
    let d = driven_with_works(
        req,
        &s.sig,
        &m,
        x0,
        &["q", "v", "F", "W_in", "W_f", "E"],
        Some(&works),
        |_, _, x, out| {
            out[..5].copy_from_slice(&x[..5]);
            out[5] = 0.5 * pm * x[1] * x[1] + 0.5 * ks * x[0] * x[0];
        },
    )?;
    Ok(s.view.apply(d))
}

/// Mass–spring with LuGre friction (34)–(36), state `[q, v, z]`, with the energy balance's
/// works `W_in = ∫ F_e v dt`, `W_f = ∫ F v dt`, the stored energy `E` and the bristle
/// deflection `z` ([`SPRING_LUGRE_COLUMNS`]).
pub fn lugre(req: &RunRequest, s: Setup, law: &LuGreLaw) -> Result<RunData, String> {
    lugre_reporting(req, s, law, 1.0)
}

/// [`lugre`] with the friction work integrated from `report ×` the friction acting (1 in
/// production; another value only in the test that the balance catches a misreported force).
fn lugre_reporting(req: &RunRequest, s: Setup, law: &LuGreLaw, report: f64) -> Result<RunData, String> {
    let m = WithLuGre {
        plant: s.plant,
        lugre: law.model(),
    };
    let x0 = vec![s.x0[0], s.x0[1], law.z0];
    let integrands = |fe: f64, _: f64, x: &[f64], q: &mut [f64]| {
        q[0] = fe * x[1];
        q[1] = report * m.friction(x[1], x[2]) * x[1];
    };
    let works = Works {
        n: 2,
        integrands: &integrands,
    };
    let (pm, ks) = (m.plant.m, m.plant.ks);
    let names = ["q", "v", "F", "W_in", "W_f", "E", "z"];
    let d = driven_with_works(req, &s.sig, &m, x0, &names, Some(&works), |_, _, x, out| {
        out[0] = x[0];
        out[1] = x[1];
        out[2] = m.friction(x[1], x[2]);
        out[3] = x[3];
        out[4] = x[4];
        out[5] = 0.5 * pm * x[1] * x[1] + 0.5 * ks * x[0] * x[0];
        out[6] = x[2];
    })?;
    Ok(s.view.apply(d))
}

struct SpringHybrid<'a> {
    /// The model integrated.
    m: &'a WithMaxwellSlip,
    /// The model whose friction is reported (columns and `W_f`): `m` itself in every run; a
    /// different one only in the test that checks the energy balance catches the difference.
    reported: &'a WithMaxwellSlip,
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
    /// The energy balance's works `∫ F_e v dt` and `∫ F v dt`, `F` the friction reported.
    fn n_quadratures(&self) -> usize {
        2
    }
    fn integrands(&self, _: (), t: f64, x: &[f64], q: &mut [f64]) {
        q[0] = self.sig.value(t) * x[1];
        q[1] = self.reported.friction(&self.snapshot.borrow(), x[0]) * x[1];
    }
}

/// The Maxwell-slip runs' `(rtol, atol)`: the request's, else 1e-10 and 1e-13.
pub(crate) fn maxwell_slip_tolerance(req: &RunRequest) -> (f64, f64) {
    (req.sim.rtol.unwrap_or(1e-10), req.sim.atol.unwrap_or(1e-13))
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
    let (rtol, atol) = maxwell_slip_tolerance(req);
    let tol = Tolerances {
        rtol,
        atol,
        hmax: (natural / 8.0).min(plan.scale / 1000.0),
        ..Default::default()
    };
    let mut data = integrate_maxwell_slip(&m, &m, sig, &tol, x0, plan.record, &save_times(&plan))?;
    data.period = plan.input_period;
    Ok(s.view.apply(data))
}

/// Integrate a Maxwell-slip spring run over `span` from `x0`, sampled at `save`, reporting the
/// friction of `reported` (the integrated `m` in every run).
fn integrate_maxwell_slip(
    m: &WithMaxwellSlip,
    reported: &WithMaxwellSlip,
    sig: &Signal,
    tol: &Tolerances,
    x0: [f64; 2],
    span: (f64, f64),
    save: &[f64],
) -> Result<RunData, String> {
    let h = SpringHybrid {
        m,
        reported,
        sig,
        snapshot: RefCell::new(m.elements.state(x0[0], 0.0)),
    };
    let mut cols: [Vec<f64>; 8] = Default::default();
    let o = simulate(
        &h,
        (),
        Method::Dopri5,
        tol,
        span.0,
        &x0,
        span.1,
        save,
        50_000_000,
        &mut |t, _, x| {
            cols[0].push(t);
            cols[1].push(sig.value(t));
            cols[2].push(x[0]);
            cols[3].push(x[1]);
            cols[4].push(reported.friction(&h.snapshot.borrow(), x[0]));
            cols[5].push(x[2]);
            cols[6].push(x[3]);
            cols[7].push(0.5 * m.plant.m * x[1] * x[1] + 0.5 * m.plant.ks * x[0] * x[0]);
        },
    )
    .map_err(|e| e.to_string())?;
    let mut data = RunData {
        columns: ["t", "u", "q", "v", "F", "W_in", "W_f", "E"]
            .iter()
            .map(|s| s.to_string())
            .zip(cols)
            .collect(),
        ..Default::default()
    };
    data.info.insert("reversals".into(), o.switches.len() as f64);
    data.info.insert("steps".into(), o.stats.accepted as f64);
    Ok(data)
}

/// What the Maxwell-slip energy balance's bound needs beyond the run's columns: the plant
/// (`m`, `k_s`: the drum's `I`, `(k1 + k2) r²`), `Σ |k_i|` of the elements, and the offset
/// between the input column and the force the integration applied (the drum's preload
/// torque `(F10 − F20) r`; 0 for the mass–spring).
pub struct EnergyBound {
    pub m: f64,
    pub ks: f64,
    pub k_sum: f64,
    pub input_offset: f64,
    /// The friction is a state of the integration (Dahl's `F`): its component of the bound,
    /// `(max|F|, 0, max|v|)` (`∂(F_e v − F v)/∂F = −v`; no stored energy depends on it).
    pub friction_state: bool,
}

/// Invariant: the energy balance (`crate::energy_balance`) of a Maxwell-slip run, its columns
/// named `[input, position, velocity, friction]`. The integrand `F_e v − F v` has
/// `∂/∂v = F_e − F` (`max|F_e| + max|F|` bounds it) and `∂/∂q = −v ∂F/∂q` with
/// `|∂F/∂q| ≤ Σ |k_i|` (the stop operators' slopes are 0 or 1) between reversals; at a
/// reversal `v` is set to 0 from the located `v ≈ 0`, which changes `E` by `½ m v²` of the
/// event's tolerance, far below the bound.
pub fn check_maxwell_slip_energy(
    b: &EnergyBound,
    (rtol, atol): (f64, f64),
    d: &RunData,
    [input, pos, vel, fric]: [&str; 4],
) -> Result<(), crate::invariants::Violation> {
    use crate::energy_balance::{check, max_abs, Bound};
    use crate::invariants::col;
    let (t, q, v) = (col(d, "t")?, col(d, pos)?, col(d, vel)?);
    let (qm, vm) = (max_abs(q), max_abs(v));
    let um = max_abs(col(d, input)?) + b.input_offset.abs();
    let fm = max_abs(col(d, fric)?);
    let mut components = vec![(qm, b.ks * qm, vm * b.k_sum), (vm, b.m * vm, um + fm)];
    if b.friction_state {
        components.push((fm, 0.0, vm));
    }
    let bound = Bound::for_run(d, (rtol, atol), components);
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}

/// Invariant: the energy balance (`crate::energy_balance`) of a Dahl spring run, as
/// [`check_maxwell_slip_energy`] with `Σ |k_i| = 0` and the friction a state; `(rtol, atol)`
/// are the driver's for the run's method (`crate::drive::tolerances`).
pub fn check_dahl_energy(
    plant: (f64, f64),
    input_offset: f64,
    req: &RunRequest,
    d: &RunData,
    columns: [&str; 4],
) -> Result<(), crate::invariants::Violation> {
    let (rtol, atol) = crate::energy_balance::driver_tolerance(req)?;
    let b = EnergyBound {
        m: plant.0,
        ks: plant.1,
        k_sum: 0.0,
        input_offset,
        friction_state: true,
    };
    check_maxwell_slip_energy(&b, (rtol, atol), d, columns)
}

/// Invariant: the energy balance (`crate::energy_balance`) of a LuGre spring run, its columns
/// named `[input, position, velocity]` (and `z`, `W_in`, `W_f`, `E`); `plant` is `(m, k_s)`
/// (the drum's `I`, `(k1 + k2) r²`) and `input_offset` the input column minus the force the
/// integration applied (the drum's preload torque `(F10 − F20) r`; 0 for the mass–spring).
/// The stored energy has `G_q = k_s max|q|`, `G_v = m max|v|`; the integrand `F_e v − F v`
/// has `∂/∂q = 0`, and `∂/∂v = F_e − F − v ∂F/∂v`, `∂/∂z = −v ∂F/∂z` taken as their largest
/// magnitude over the samples by central differences of the law (steps 1e-6 of the state's
/// scale), as on `lugre-stick-slip`; `(rtol, atol)` are the driver's for the run's method.
pub fn check_lugre_energy(
    (pm, ks): (f64, f64),
    input_offset: f64,
    law: &LuGreLaw,
    req: &RunRequest,
    d: &RunData,
    [input, pos, vel]: [&str; 3],
) -> Result<(), crate::invariants::Violation> {
    use crate::energy_balance::{check, max_abs, Bound};
    use crate::invariants::col;
    let (t, u, q, v, z) = (col(d, "t")?, col(d, input)?, col(d, pos)?, col(d, vel)?, col(d, "z")?);
    let m = WithLuGre {
        plant: Plant { m: pm, ks },
        lugre: law.model(),
    };
    let power = |fe: f64, v: f64, z: f64| (fe - m.friction(v, z)) * v;
    let (hv, hz) = (1e-6 * (1.0 + max_abs(v)), 1e-6 * (1.0 + max_abs(z)));
    let (mut dv, mut dz) = (0.0f64, 0.0f64);
    for i in 0..t.len() {
        let fe = u[i] - input_offset;
        dv = dv.max(((power(fe, v[i] + hv, z[i]) - power(fe, v[i] - hv, z[i])) / (2.0 * hv)).abs());
        dz = dz.max(((power(fe, v[i], z[i] + hz) - power(fe, v[i], z[i] - hz)) / (2.0 * hz)).abs());
    }
    let (qm, vm) = (max_abs(q), max_abs(v));
    let components = vec![(qm, ks * qm, 0.0), (vm, pm * vm, dv), (max_abs(z), 0.0, dz)];
    let bound = Bound::for_run(d, crate::energy_balance::driver_tolerance(req)?, components);
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}

#[cfg(test)]
mod tests;
