//! `inertia-pid-classical`: PID position control of an inertia with the classical static friction
//! model (stiction τ_s, kinetic τ_k, viscous α; report (1.2)–(1.4), Tables 5.3 and 5.7), solved
//! exactly as a hybrid system: exact stick (θ' ≡ 0) while the control torque lies within the
//! stiction levels, sliding on the kinetic level otherwise, every switch a located event.

use crate::laws::PidPlant;
use crate::system::{nonneg, params, positive, Column, Group, System, LINEAR, NONE};
use crate::{RunData, RunRequest};
use fric_models::pid::PidLoop;
use fric_models::InputDriven;
use crate::invariants::{col, opposes_sliding, Invariant};
use fric_solvers::hybrid::{simulate, HybridSystem, Quadratures, WithQuadratures};
use fric_solvers::{Method, Tolerances};

params! {
    pub struct Params {
        pid: PidPlant = Group(LINEAR),
        tau_s: f64 = positive("N-m", "stiction τ_s (the '−' level when tau_s_plus is given)"),
        tau_k: f64 = positive("N-m", "kinetic level τ_k (the '−' level when tau_k_plus is given)"),
        tau_s_plus: f64 = nonneg("N-m", "stiction for breaking away forward (0: symmetric, = tau_s)").default(0.0),
        tau_k_plus: f64 = nonneg("N-m", "kinetic level for θ' > 0 (used with tau_s_plus)").default(0.0),
        alpha: f64 = nonneg("N-m-s/rad", "viscous friction α"),
    }
}

pub struct InertiaPidClassical;

/// No friction state: the classical model is applied by the hybrid modes.
struct Static;

impl InputDriven for Static {
    fn dim(&self) -> usize {
        0
    }
    fn rhs(&self, _: f64, _: f64, _: &[f64], _: &mut [f64]) {}
    fn output(&self, _: f64, _: f64, _: &[f64]) -> f64 {
        0.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Stick,
    Plus,
    Minus,
}

struct Rig {
    lp: PidLoop<Static>,
    /// (stiction, kinetic) for the forward (+) and backward (−) direction.
    plus: (f64, f64),
    minus: (f64, f64),
}

/// The energy balance's works (`crate::energy_balance`) as quadrature outputs carried across the
/// modes: `W_in = ∫ u θ' dt` and `W_f = ∫ report · (F + α θ') θ' dt` with `F` the mode's friction
/// ([`Rig::friction`]; `report` = 1 in production, another value only in the test that the
/// balance catches a misreported torque).
struct Works {
    /// A copy of the rig integrated.
    rig: Rig,
    report: f64,
}

impl Quadratures<Mode> for Works {
    fn count(&self) -> usize {
        2
    }
    fn integrands(&self, m: Mode, _: f64, x: &[f64], q: &mut [f64]) {
        q[0] = self.rig.lp.control(x) * x[1];
        q[1] = self.report * (self.rig.friction(m, x) + self.rig.lp.plant.alpha * x[1]) * x[1];
    }
}

impl Rig {
    /// The friction torque of a mode (without α θ'): in stick it balances the control.
    fn friction(&self, m: Mode, x: &[f64]) -> f64 {
        match m {
            Mode::Stick => self.lp.control(x),
            Mode::Plus => self.plus.1,
            Mode::Minus => -self.minus.1,
        }
    }
    /// The mode at rest (θ' = 0) under the control at `x`.
    fn at_rest(&self, x: &[f64]) -> Mode {
        let u = self.lp.control(x);
        if u > self.plus.0 {
            Mode::Plus
        } else if u < -self.minus.0 {
            Mode::Minus
        } else {
            Mode::Stick
        }
    }
}

impl HybridSystem for Rig {
    type Mode = Mode;
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, m: Mode, _: f64, x: &[f64], dx: &mut [f64]) {
        dx[2] = self.lp.r - x[0];
        if m == Mode::Stick {
            dx[0] = 0.0;
            dx[1] = 0.0;
            return;
        }
        dx[0] = x[1];
        dx[1] = (self.lp.control(x) - self.lp.plant.alpha * x[1] - self.friction(m, x)) / self.lp.plant.j;
    }
    fn n_guards(&self, m: Mode) -> usize {
        if m == Mode::Stick {
            2
        } else {
            1
        }
    }
    fn guards(&self, m: Mode, _: f64, x: &[f64], g: &mut [f64]) {
        match m {
            Mode::Stick => {
                let u = self.lp.control(x);
                g[0] = u - self.plus.0;
                g[1] = -self.minus.0 - u;
            }
            Mode::Plus => g[0] = -x[1],
            Mode::Minus => g[0] = x[1],
        }
    }
    fn jump(&self, m: Mode, guard: usize, _: f64, x: &mut [f64]) -> Mode {
        match m {
            Mode::Stick => {
                if guard == 0 {
                    Mode::Plus
                } else {
                    Mode::Minus
                }
            }
            _ => {
                x[1] = 0.0;
                self.at_rest(x)
            }
        }
    }
}

impl System for InertiaPidClassical {
    const NAME: &'static str = "inertia-pid-classical";
    const DOC: &'static str = "PID position control of an inertia with classical static friction, report ch. 5: exact stick (θ' = 0, the friction balancing u) while −τs⁻ ≤ u ≤ τs⁺, slip J θ'' = u − α θ' − τk± sgn θ' otherwise; u = kp e + ki ∫e − kd θ', e = r − θ, physical gains J k̄′; every stick/slip switch a located event (Dormand-Prince between them); zero initial state, reference step r at t = 0. Invariants: friction opposes sliding (the model's τk± sgn θ', checked on the reported torque, not assumed from the event logic) and the energy balance.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("theta", "rad", "angle"),
        ("omega", "rad/s", "angular velocity"),
        ("e", "rad", "control error r − θ"),
        ("u", "N-m", "control torque"),
        ("F", "N-m", "nonlinear friction (τk± in slip, u in stick)"),
        ("stuck", "1", "1 in stick"),
        crate::laws::PID_ENERGY_COLUMNS[0],
        crate::laws::PID_ENERGY_COLUMNS[1],
        crate::laws::PID_ENERGY_COLUMNS[2],
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5];
    const INVARIANTS: &'static [Invariant<Params>] = &[Invariant {
        name: "opposes-sliding",
        doc: "friction opposes sliding: F theta' >= 0 on every sample with |theta'| above the solver's atol (report (1.2)-(1.4): the kinetic level tau_k+- sgn theta' while sliding; F the nonlinear friction without alpha theta', which opposes it too)",
        check: |_, req, d| opposes_sliding(col(d, "t")?, col(d, "omega")?, col(d, "F")?, tolerances(req).1, 0.0),
    }, Invariant {
        name: "energy-balance",
        doc: crate::laws::PID_ENERGY_DOC,
        check: check_energy,
    }];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        run_with(p, req, 1.0, 1.0)
    }
}

/// rtol 1e-10, atol 1e-12 unless the run sets them.
fn tolerances(req: &RunRequest) -> (f64, f64) {
    (req.sim.rtol.unwrap_or(1e-10), req.sim.atol.unwrap_or(1e-12))
}

/// The rig of `p`: `kinetic` multiplies both kinetic levels (1 in production; −1 only in the
/// test that the sign rule catches friction pushing along the motion).
fn rig(p: &Params, kinetic: f64) -> Result<Rig, String> {
    let asym = p.tau_s_plus > 0.0;
    let minus = (p.tau_s, p.tau_k);
    let plus = if asym { (p.tau_s_plus, p.tau_k_plus) } else { minus };
    if plus.1 > plus.0 || minus.1 > minus.0 {
        return Err(format!("the kinetic levels must not exceed the stiction levels (− {minus:?}, + {plus:?})"));
    }
    Ok(Rig {
        lp: p.pid.with(p.alpha, Static),
        plus: (plus.0, kinetic * plus.1),
        minus: (minus.0, kinetic * minus.1),
    })
}

/// The run ([`rig`]'s `kinetic`; the friction work integrated from `report ×` the torque acting,
/// [`Works`]).
fn run_with(p: &Params, req: &RunRequest, kinetic: f64, report: f64) -> Result<RunData, String> {
    let powered = WithQuadratures::new(rig(p, kinetic)?, Works { rig: rig(p, kinetic)?, report });
    let rig = &powered.sys;
    let (t_end, save) = crate::drive::autonomous_times(req)?;
    let (rtol, atol) = tolerances(req);
    let tol = Tolerances {
        rtol,
        atol,
        ..Default::default()
    };
    let x0 = [0.0, 0.0, 0.0];
    let mode0 = rig.at_rest(&x0);
    let mut rows: Vec<[f64; 10]> = Vec::with_capacity(save.len());
    let mut out = |t: f64, m: Mode, x: &[f64]| {
        let u = rig.lp.control(x);
        let stuck = f64::from(m == Mode::Stick);
        let e = 0.5 * rig.lp.plant.j * x[1] * x[1];
        rows.push([t, x[0], x[1], p.pid.r - x[0], u, rig.friction(m, x), stuck, x[3], x[4], e]);
    };
    let o = simulate(&powered, mode0, Method::Dopri5, &tol, 0.0, &x0, t_end, &save, 1_000_000, &mut out)
        .map_err(|e| e.to_string())?;
    let names = ["t", "theta", "omega", "e", "u", "F", "stuck", "W_in", "W_f", "E"];
    let mut data = RunData {
        columns: names.iter().enumerate().map(|(k, n)| (n.to_string(), rows.iter().map(|r| r[k]).collect())).collect(),
        period: None,
        ..Default::default()
    };
    data.info.insert("switches".into(), o.switches.len() as f64);
    data.info.insert("steps".into(), o.stats.accepted as f64);
    Ok(data)
}

/// Invariant: the energy balance (`crate::energy_balance`) with the bound derived there. The
/// state under error control is `[θ, θ', I]`; the stored energy `½ J θ'²` has
/// `G_θ' = J max|θ'|`; the rate `θ' (u − α θ' − F)` has `∂/∂θ = −k_p θ'`, `∂/∂I = k_i θ'`,
/// `∂/∂θ' = u − 2α θ' − F − k_d θ'` (`F` constant in a mode; in stick θ' ≡ 0 and every rate
/// vanishes), each bounded by its largest magnitude over the samples.
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), crate::invariants::Violation> {
    use crate::energy_balance::{check, max_abs, Bound};
    let rig = rig(p, 1.0).map_err(|message| crate::invariants::Violation { t: f64::NAN, message, count: 1 })?;
    let lp = &rig.lp;
    let (t, th, w, e, u, f) = (col(d, "t")?, col(d, "theta")?, col(d, "omega")?, col(d, "e")?, col(d, "u")?, col(d, "F")?);
    let wm = max_abs(w);
    let im = if lp.ki == 0.0 {
        0.0
    } else {
        (0..t.len()).fold(0.0f64, |m, i| m.max(((u[i] - lp.kp * e[i] + lp.kd * w[i]) / lp.ki).abs()))
    };
    let hw = (0..t.len()).fold(0.0f64, |m, i| {
        m.max((u[i] - 2.0 * lp.plant.alpha * w[i] - f[i] - lp.kd * w[i]).abs())
    });
    let bound = Bound::for_run(
        d,
        tolerances(req),
        vec![(max_abs(th), 0.0, lp.kp * wm), (wm, lp.plant.j * wm, hw), (im, 0.0, lp.ki * wm)],
    );
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ParamSet;
    use fric_manifest::{InputSpec, ParamValue, SimSpec};

    /// Report Fig 5.5's loop (L1757, L1783–L1784, J = 0.0025 kg m² L2545), 10 s.
    fn request() -> RunRequest {
        let params = [
            ("j", 0.0025),
            ("kp_n", 72.0),
            ("ki_n", 216.0),
            ("kd_n", 5.2),
            ("r", 1.0),
            ("tau_s", 0.30),
            ("tau_k", 0.14),
            ("tau_s_plus", 0.46),
            ("tau_k_plus", 0.30),
            ("alpha", 0.017),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
        .collect();
        let sim = SimSpec {
            t_end: Some(10.0),
            samples_per_period: Some(10000),
            ..Default::default()
        };
        crate::resolve("inertia-pid-classical", &params, Some(&InputSpec::new("none", [])), Some(&sim)).unwrap()
    }

    fn invariant(name: &str) -> &'static Invariant<Params> {
        InertiaPidClassical::INVARIANTS.iter().find(|i| i.name == name).unwrap()
    }

    /// The declared sign rule holds on the production run, which slides both ways, and fails
    /// when the kinetic friction has the wrong sign (it pushes along the motion); the energy
    /// balance cannot see that defect (the works are those of the force acting), the sign rule can.
    #[test]
    fn sign_rule_holds_and_catches_friction_pushing_along_the_motion() {
        let req = request();
        let p = Params::read(&req.params);
        let d = run_with(&p, &req, 1.0, 1.0).unwrap();
        (invariant("opposes-sliding").check)(&p, &req, &d).unwrap();
        let w = d.column("omega").unwrap();
        assert!(w.iter().any(|&w| w > 1e-3) && w.iter().any(|&w| w < -1e-3), "slides both ways");
        let bad = run_with(&p, &req, -1.0, 1.0).unwrap();
        let e = (invariant("opposes-sliding").check)(&p, &req, &bad).unwrap_err();
        assert!(e.message.contains("pushes the same way"), "{e}");
        check_energy(&p, &req, &bad).unwrap();
    }

    /// The energy balance holds on the production run and fails when the friction work is
    /// integrated from a torque 0.1 % off the one acting.
    #[test]
    fn energy_balance_holds_and_catches_a_misreported_torque() {
        let req = request();
        let p = Params::read(&req.params);
        let d = run_with(&p, &req, 1.0, 1.0).unwrap();
        (invariant("energy-balance").check)(&p, &req, &d).unwrap();
        assert!(crate::energy_balance::max_abs(d.column("W_in").unwrap()) > 0.1);
        let e = check_energy(&p, &req, &run_with(&p, &req, 1.0, 1.001).unwrap()).unwrap_err();
        assert!(e.message.contains("beyond the solver's bound"), "{e}");
    }
}
