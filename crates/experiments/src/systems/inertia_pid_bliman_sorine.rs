//! `inertia-pid-bliman-sorine`: PID position control of an inertia with (asymmetric) Bliman &
//! Sorine and viscous friction, report ch. 5 (Fig 5.1, (2.12), Tables 5.5 and 5.9).

use crate::laws::{BlimanSorineLaw, PidPlant};
use crate::system::{nonneg, params, Column, Group, System, LINEAR, NONE, ROTARY};
use crate::{Invalid, RunData, RunRequest};
use fric_models::bliman_sorine::BlimanSorine;
use fric_models::BySign;

params! {
    pub struct Params {
        pid: PidPlant = Group(LINEAR),
        law: BlimanSorineLaw = Group(ROTARY),
        f1_plus: f64 = nonneg("N-m", "f1 for θ' ≥ 0 (0: symmetric, the law's f1, f2, eps, eta on both sides)").default(0.0),
        f2_plus: f64 = nonneg("N-m", "f2 for θ' ≥ 0 (with f1_plus)").default(0.0),
        eta_plus: f64 = nonneg("1", "eta for θ' ≥ 0 (with f1_plus); eps_f is common").default(0.0),
        alpha: f64 = nonneg("N-m-s/rad", "viscous friction α"),
    }
}

pub struct InertiaPidBlimanSorine;

impl System for InertiaPidBlimanSorine {
    const NAME: &'static str = "inertia-pid-bliman-sorine";
    const DOC: &'static str = "PID position control of an inertia with Bliman & Sorine and viscous friction, report ch. 5: J θ'' = u − α θ' − (x1 + x2) with (2.12) at v = θ' and (f1, f2, η) switched on the sign of θ' (f1_plus given), u = kp e + ki ∫e − kd θ', e = r − θ, physical gains J k̄′; zero initial state (L656), reference step r at t = 0; Radau IIA by default. Invariants: none declared; the report states no bound on the B&S states x1, x2 nor a sign rule for the friction (§2.2-2.9).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("theta", "rad", "angle"),
        ("omega", "rad/s", "angular velocity"),
        ("e", "rad", "control error r − θ"),
        ("u", "N-m", "control torque"),
        ("F", "N-m", "B&S friction x1 + x2"),
        ("x1", "N-m", "fast friction state"),
        ("x2", "N-m", "slow friction state"),
    ];
    const METHODS: crate::methods::Methods = crate::methods::STIFF_FIRST;

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let minus = p.law.model();
        let plus = if p.f1_plus > 0.0 {
            BlimanSorine {
                f1: p.f1_plus,
                f2: p.f2_plus,
                eps: minus.eps,
                eta: p.eta_plus,
            }
        } else {
            minus
        };
        if plus.f1 <= plus.eta * plus.f2 || !(0.0..=1.0).contains(&plus.eta) {
            return Err(format!("the '+' side needs 0 ≤ eta_plus ≤ 1 and f1_plus > eta_plus f2_plus (got {plus:?})"));
        }
        p.pid.simulate(p.alpha, BySign { minus, plus }, &["x1", "x2"], req)
    }
}
