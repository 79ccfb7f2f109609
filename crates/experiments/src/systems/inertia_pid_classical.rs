//! `inertia-pid-classical`: PID position control of an inertia with the classical static friction
//! model (stiction τ_s, kinetic τ_k, viscous α; report (1.2)–(1.4), Tables 5.3 and 5.7), solved
//! exactly as a hybrid system: exact stick (θ' ≡ 0) while the control torque lies within the
//! stiction levels, sliding on the kinetic level otherwise, every switch a located event.

use crate::laws::PidPlant;
use crate::system::{nonneg, params, positive, Column, Group, System, LINEAR, NONE};
use crate::{RunData, RunRequest};
use fric_models::pid::PidLoop;
use fric_models::InputDriven;
use fric_solvers::hybrid::{simulate, HybridSystem};
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
    const DOC: &'static str = "PID position control of an inertia with classical static friction, report ch. 5: exact stick (θ' = 0, the friction balancing u) while −τs⁻ ≤ u ≤ τs⁺, slip J θ'' = u − α θ' − τk± sgn θ' otherwise; u = kp e + ki ∫e − kd θ', e = r − θ, physical gains J k̄′; every stick/slip switch a located event (Dormand-Prince between them); zero initial state, reference step r at t = 0. Invariants: none declared; the stick/slip rules of the classical model are enforced by the event logic itself, and the report states no further bound.";
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
    ];
    const METHODS: crate::methods::Methods = &[&crate::methods::DOPRI5];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let asym = p.tau_s_plus > 0.0;
        let minus = (p.tau_s, p.tau_k);
        let plus = if asym { (p.tau_s_plus, p.tau_k_plus) } else { minus };
        if plus.1 > plus.0 || minus.1 > minus.0 {
            return Err(format!("the kinetic levels must not exceed the stiction levels (− {minus:?}, + {plus:?})"));
        }
        let rig = Rig {
            lp: p.pid.with(p.alpha, Static),
            plus,
            minus,
        };
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        let tol = Tolerances {
            rtol: req.sim.rtol.unwrap_or(1e-10),
            atol: req.sim.atol.unwrap_or(1e-12),
            ..Default::default()
        };
        let x0 = [0.0, 0.0, 0.0];
        let mode0 = rig.at_rest(&x0);
        let mut rows: Vec<[f64; 7]> = Vec::with_capacity(save.len());
        let mut out = |t: f64, m: Mode, x: &[f64]| {
            let u = rig.lp.control(x);
            rows.push([t, x[0], x[1], p.pid.r - x[0], u, rig.friction(m, x), f64::from(m == Mode::Stick)]);
        };
        let o = simulate(&rig, mode0, Method::Dopri5, &tol, 0.0, &x0, t_end, &save, 1_000_000, &mut out)
            .map_err(|e| e.to_string())?;
        let names = ["t", "theta", "omega", "e", "u", "F", "stuck"];
        let mut data = RunData {
            columns: names.iter().enumerate().map(|(k, n)| (n.to_string(), rows.iter().map(|r| r[k]).collect())).collect(),
            period: None,
            ..Default::default()
        };
        data.info.insert("switches".into(), o.switches.len() as f64);
        data.info.insert("steps".into(), o.stats.accepted as f64);
        Ok(data)
    }
}
