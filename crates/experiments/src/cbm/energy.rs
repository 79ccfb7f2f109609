//! The energy balance of a CBM run (`crate::energy_balance`): its columns, the invariant and
//! its bound, the [`Energy`] of each configuration, and the Switch Model with the works as
//! quadrature outputs ([`Powered`]).

use super::{branch, CbmRun, CbmSwitched};
use crate::invariants::{col, Violation};
use crate::RunData;
use fric_models::cbm::{
    Branch as CbmBranch, Cbm, Configuration, ForceDriven, PrescribedHeight, StickSlip, Windows, VELOCITY,
};
use fric_solvers::hybrid::{Quadratures, WithQuadratures};
use fric_solvers::switch::{Region, SwitchModel};

/// The energy balance's columns of a CBM run ([`Energy`]), for every CBM system's data.
pub const ENERGY_COLUMNS: [crate::system::Column; 3] = [
    ("W_in", "J", "input work: integral of u v (force-driven) or K l v_p (pulled) dt from the start (quadrature on the dense output)"),
    ("W_f", "J", "friction work: integral of F v dt from the start, F the friction acting"),
    ("E", "J", "stored energy m v^2/2 + K x^2/2 (force-driven) or m v^2/2 + K l^2/2 (pulled)"),
];

/// Append the run's energy-balance columns ([`ENERGY_COLUMNS`]) to `d`.
pub fn push_energy(d: &mut RunData, r: &CbmRun) {
    for (name, c) in ENERGY_COLUMNS.iter().zip([&r.w_in, &r.w_f, &r.stored]) {
        d.columns.push((name.0.to_string(), c.clone()));
    }
}

/// The rig of a CBM run, for its energy balance's bound: pulled at `v_p` (state `x, v, l, …`)
/// or force-driven (state `x, v, …`, column `u`); `y_state` when the height is a state.
pub struct EnergyRig {
    pub vp: Option<f64>,
    pub y_state: bool,
}

/// The largest `|∂F/∂x|` and `|∂F/∂y|` of the bristle friction over the sliding samples, each
/// the smaller one-sided difference (steps 1e-7 Δ and 1e-7 (1 + |y|)), so that a sample at a
/// window threshold does not count the jump.
fn friction_slopes(cbm: &Cbm, eta: f64, x: &[f64], v: &[f64], y: &[f64], stuck: &[f64]) -> (f64, f64) {
    let one_sided = |f: &dyn Fn(f64) -> f64, a: f64, h: f64| {
        let (l, c, r) = (f(a - h), f(a), f(a + h));
        ((r - c).abs().min((c - l).abs())) / h
    };
    let (mut sx, mut sy) = (0.0f64, 0.0f64);
    for i in 0..x.len() {
        if stuck[i] == 1.0 || v[i].abs() <= eta {
            continue;
        }
        let b = if v[i] > 0.0 { CbmBranch::Plus } else { CbmBranch::Minus };
        sx = sx.max(one_sided(&|x| cbm.friction(b, x, y[i]), x[i], 1e-7 * cbm.delta));
        sy = sy.max(one_sided(
            &|y| cbm.friction(b, x[i], y),
            y[i],
            1e-7 * (1.0 + y[i].abs()),
        ));
    }
    (sx, sy)
}

/// Invariant: the energy balance of `crate::energy_balance` on a CBM run ([`Energy`]; columns
/// `W_in`, `W_f`, `E`), to the bound derived there. The integrand `P_in − F v` has
/// `∂/∂v = −F − m v/τ` in the stick band (`max|F| + m η/τ` bounds it, plus `max|u|`
/// force-driven), `∂/∂x = −v ∂F/∂x` and `∂/∂y = −v ∂F/∂y` ([`friction_slopes`], plus `K` for
/// the stick band's `applied` force-driven), `∂/∂l = K v_p` (plus `K v` in the stick band).
pub fn check_energy(
    cbm: &Cbm,
    eta: f64,
    tau: f64,
    rig: &EnergyRig,
    tol: (f64, f64),
    d: &RunData,
) -> Result<(), Violation> {
    use crate::energy_balance::{check, max_abs, Bound};
    let (t, x, v, y, f, stuck) = (
        col(d, "t")?,
        col(d, "x")?,
        col(d, "v")?,
        col(d, "y")?,
        col(d, "F")?,
        col(d, "stuck")?,
    );
    let (xm, vm, k, m) = (max_abs(x), max_abs(v), cbm.spring_k, cbm.m);
    let (sx, sy) = friction_slopes(cbm, eta, x, v, y, stuck);
    let hv = max_abs(f) + m * eta / tau;
    let mut components = match rig.vp {
        Some(vp) => {
            let lm = max_abs(col(d, "l")?);
            vec![(xm, 0.0, vm * sx), (vm, m * vm, hv), (lm, k * lm, k * (vp.abs() + vm))]
        }
        None => {
            let um = max_abs(col(d, "u")?);
            vec![(xm, k * xm, vm * (sx + k)), (vm, m * vm, hv + um)]
        }
    };
    if rig.y_state {
        components.push((max_abs(y), 0.0, vm * sy));
        components.push((max_abs(col(d, "yd")?), 0.0, 0.0));
    }
    let bound = Bound::for_run(d, tol, components);
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}

/// The horizontal energy balance of a CBM configuration (`crate::energy_balance`): its
/// equation `m v̇ = applied − F` times `v`, integrated, is `∫ P_in dt = ∫ F v dt + ΔE`, exact
/// for any friction force (the vertical motion and the bristles' energy stay inside the
/// friction work, which the published linear law does not keep non-negative).
pub trait Energy: Configuration {
    /// The power put in: `u v` (force-driven), `K l v_p` at the spring's free end (pulled).
    fn input_power(&self, t: f64, x: &[f64]) -> f64;
    /// The stored energy `½ m v² + ½ K s²` (`s` = `x` force-driven, `l` pulled).
    fn stored(&self, x: &[f64]) -> f64;
}

/// `½ m v² + ½ K s²`: the body's kinetic energy and the spring's, stretched by `s`.
fn stored_energy(cbm: &Cbm, v: f64, s: f64) -> f64 {
    0.5 * cbm.m * v * v + 0.5 * cbm.spring_k * s * s
}

/// `K l v_p`: the power put in at the free end of a spring pulled at `v_p` (state `x, v, l, …`).
fn pulled_power(cbm: &Cbm, vp: f64, x: &[f64]) -> f64 {
    cbm.spring_k * x[2] * vp
}

impl Energy for StickSlip {
    fn input_power(&self, _t: f64, x: &[f64]) -> f64 {
        pulled_power(&self.cbm, self.vp, x)
    }
    fn stored(&self, x: &[f64]) -> f64 {
        stored_energy(&self.cbm, x[1], x[2])
    }
}

impl Energy for PrescribedHeight {
    fn input_power(&self, _t: f64, x: &[f64]) -> f64 {
        pulled_power(&self.cbm, self.vp, x)
    }
    fn stored(&self, x: &[f64]) -> f64 {
        stored_energy(&self.cbm, x[1], x[2])
    }
}

impl Energy for ForceDriven {
    fn input_power(&self, t: f64, x: &[f64]) -> f64 {
        self.input.value(t) * x[1]
    }
    fn stored(&self, x: &[f64]) -> f64 {
        stored_energy(&self.cbm, x[1], x[0])
    }
}

/// The friction acting in `region`: `F_f±` on a branch, in the stick band the blended force
/// `applied + m v/τ` that keeps `v̇ = −v/τ`.
pub(super) fn acting<C: Configuration>(
    config: &C,
    (region, win): (Region, Windows),
    t: f64,
    x: &[f64],
    tau: f64,
) -> f64 {
    match region.branch() {
        Some(b) => config.friction(branch(b), t, x, &win),
        None => config.applied(t, x) + config.cbm().m * x[VELOCITY] / tau,
    }
}

/// The energy balance's works, appended to a configuration's Switch Model as quadrature
/// outputs ([`Powered`]): `W_in = ∫ P_in dt`, `W_f = ∫ report · F v dt` with `F` the friction
/// acting ([`acting`]; `report` = 1 in production, another value only in the test that the
/// balance catches a misreported force).
pub struct Works<'a, C: Energy> {
    pub(super) config: &'a C,
    pub(super) tau: f64,
    pub(super) report: f64,
}

impl<C: Energy> Quadratures<(Region, Windows)> for Works<'_, C> {
    fn count(&self) -> usize {
        2
    }
    fn integrands(&self, mode: (Region, Windows), t: f64, x: &[f64], q: &mut [f64]) {
        q[0] = self.config.input_power(t, x);
        q[1] = self.report * acting(self.config, mode, t, x, self.tau) * x[VELOCITY];
    }
}

/// The Switch Model of a configuration with the energy balance's [`Works`] appended; everything
/// else, the guards' rates included, is the Switch Model's ([`WithQuadratures`]).
pub type Powered<'s, 'a, C> = WithQuadratures<SwitchModel<'s, CbmSwitched<'a, C>>, Works<'a, C>>;

/// The production system (`report` = 1): the Switch Model `sm` of `config`, band time constant
/// `tau`, with the works appended.
pub fn powered<'s, 'a, C: Energy>(
    sm: SwitchModel<'s, CbmSwitched<'a, C>>,
    config: &'a C,
    tau: f64,
) -> Powered<'s, 'a, C> {
    WithQuadratures::new(
        sm,
        Works {
            config,
            tau,
            report: 1.0,
        },
    )
}
