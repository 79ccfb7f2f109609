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
    const DOC: &'static str = "PID position control of an inertia with Bliman & Sorine and viscous friction, report ch. 5: J θ'' = u − α θ' − (x1 + x2) with (2.12) at v = θ' and (f1, f2, η) switched on the sign of θ' (f1_plus given), u = kp e + ki ∫e − kd θ', e = r − θ, physical gains J k̄′; zero initial state (L656), reference step r at t = 0; Radau IIA by default. Invariants: the energy balance; the report states no bound on the B&S states x1, x2 nor a sign rule for the friction (§2.2-2.9).";
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
        crate::laws::PID_ENERGY_COLUMNS[0],
        crate::laws::PID_ENERGY_COLUMNS[1],
        crate::laws::PID_ENERGY_COLUMNS[2],
    ];
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "energy-balance",
        doc: crate::laws::PID_ENERGY_DOC,
        check: |p, req, d| {
            let law = law(p).map_err(|message| crate::invariants::Violation { t: f64::NAN, message, count: 1 })?;
            p.pid.check_energy(p.alpha, law, &["x1", "x2"], req, d)
        },
    }];
    const METHODS: crate::methods::Methods = crate::methods::STIFF_FIRST;

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        run_reporting(p, req, 1.0)
    }
}

/// The B&S law (2.12) with (f1, f2, η) switched on the sign of θ'.
fn law(p: &Params) -> Result<BySign<BlimanSorine>, String> {
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
    Ok(BySign { minus, plus })
}

/// The run, with the friction work integrated from `report ×` the torque acting (1 in
/// production; another value only in the test that the balance catches a misreported torque).
fn run_reporting(p: &Params, req: &RunRequest, report: f64) -> Result<RunData, String> {
    p.pid.simulate_reporting(p.alpha, law(p)?, &["x1", "x2"], req, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ParamSet;
    use fric_manifest::{InputSpec, ParamValue, SimSpec};

    /// Report Fig 5.7's loop (L1757, L1809–L1810, J = 0.0025 kg m² L2545), 10 s.
    fn request() -> RunRequest {
        let params = [
            ("j", 0.0025),
            ("kp_n", 72.0),
            ("ki_n", 216.0),
            ("kd_n", 5.2),
            ("r", 1.0),
            ("f1", 0.389897),
            ("f2", 0.249897),
            ("eps", 0.00666667),
            ("eta", 0.322280),
            ("f1_plus", 0.526595),
            ("f2_plus", 0.226595),
            ("eta_plus", 0.252588),
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
        crate::resolve("inertia-pid-bliman-sorine", &params, Some(&InputSpec::new("none", [])), Some(&sim)).unwrap()
    }

    /// The declared energy balance holds on the production run and fails when the friction work
    /// is integrated from a torque 0.1 % off the one acting.
    #[test]
    fn energy_balance_holds_and_catches_a_misreported_torque() {
        let req = request();
        let p = Params::read(&req.params);
        crate::energy_balance::assert_holds_and_catches_misreport(InertiaPidBlimanSorine::INVARIANTS, &p, &req, "W_in", 0.1, |r| run_reporting(&p, &req, r));
    }
}
