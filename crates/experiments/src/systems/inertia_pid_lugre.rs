//! `inertia-pid-lugre`: PID position control of an inertia with (asymmetric) LuGre and viscous
//! friction, report ch. 5 (Fig 5.1, Fig C.2, (5.3)–(5.4), LuGre (3.4) with the static
//! parameters switched on the sign of the velocity as in Tables 5.6, 5.10, 5.12).

use crate::laws::PidPlant;
use crate::system::{nonneg, params, positive, Column, Group, System, LINEAR, NONE};
use crate::{RunData, RunRequest};
use fric_models::lugre::LuGre;
use fric_models::BySign;

params! {
    pub struct Params {
        pid: PidPlant = Group(LINEAR),
        sigma0: f64 = positive("N-m/rad", "LuGre σ0"),
        sigma1: f64 = nonneg("N-m-s/rad", "LuGre σ1"),
        v0: f64 = positive("rad/s", "Stribeck velocity v0"),
        alpha0: f64 = positive("N-m", "Coulomb level α0 (for v < 0 when alpha0_plus is given)"),
        alpha1: f64 = nonneg("N-m", "stiction excess α1 (for v < 0 when alpha1_plus is given)"),
        alpha0_plus: f64 = nonneg("N-m", "α0 for v ≥ 0 (0: symmetric, = alpha0)").default(0.0),
        alpha1_plus: f64 = nonneg("N-m", "α1 for v ≥ 0 (used with alpha0_plus)").default(0.0),
        alpha2: f64 = nonneg("N-m-s/rad", "viscous friction α2"),
    }
}

pub struct InertiaPidLuGre;

impl System for InertiaPidLuGre {
    const NAME: &'static str = "inertia-pid-lugre";
    const DOC: &'static str = "PID position control of an inertia with LuGre and viscous friction, report ch. 5: J θ'' = u − α2 θ' − (σ0 z + σ1 z'), z' = θ' − σ0 |θ'| z / g(θ'), g = α0 + α1 exp(−(θ'/v0)²) with (α0, α1) switched on the sign of θ' (alpha0_plus given), u = kp e + ki ∫e − kd θ', e = r − θ, physical gains J k̄′; zero initial state, reference step r at t = 0; Radau IIA by default.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("theta", "rad", "angle"),
        ("omega", "rad/s", "angular velocity"),
        ("e", "rad", "control error r − θ"),
        ("u", "N-m", "control torque"),
        ("F", "N-m", "nonlinear friction σ0 z + σ1 z'"),
        ("F_total", "N-m", "friction including α2 θ'"),
        ("z", "rad", "bristle state"),
        crate::laws::PID_ENERGY_COLUMNS[0],
        crate::laws::PID_ENERGY_COLUMNS[1],
        crate::laws::PID_ENERGY_COLUMNS[2],
    ];
    const METHODS: crate::methods::Methods = crate::methods::STIFF_FIRST;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "energy-balance",
        doc: crate::laws::PID_ENERGY_DOC,
        check: |p, req, d| p.pid.check_energy(p.alpha2, law(p), &["z"], req, d),
    }, crate::invariants::Invariant {
        name: crate::invariants::LUGRE_BOUND,
        doc: crate::invariants::LUGRE_BOUND_DOC,
        check: |p, _, d| {
            // Zero initial state; g peaks at α0 + α1 on the side with the larger sum.
            let g_max = (p.alpha0 + p.alpha1).max(p.alpha0_plus + p.alpha1_plus);
            crate::invariants::lugre_bound(d, "z", 0.0, g_max, p.sigma0)
        },
    }];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        run_reporting(p, req, 1.0)
    }
}

/// The LuGre law of (3.4) with (α0, α1) switched on the sign of θ' (no viscous part: α2 is the
/// plant's).
fn law(p: &Params) -> BySign<LuGre> {
    let side = |a0: f64, a1: f64| LuGre {
        sigma0: p.sigma0,
        sigma1: p.sigma1,
        sigma2: 0.0,
        fc: a0,
        fs: a0 + a1,
        vs: p.v0,
    };
    let minus = side(p.alpha0, p.alpha1);
    let plus = if p.alpha0_plus > 0.0 { side(p.alpha0_plus, p.alpha1_plus) } else { minus };
    BySign { minus, plus }
}

/// The run, with the friction work integrated from `report ×` the torque acting (1 in
/// production; another value only in the test that the balance catches a misreported torque).
fn run_reporting(p: &Params, req: &RunRequest, report: f64) -> Result<RunData, String> {
    let mut data = p.pid.simulate_reporting(p.alpha2, law(p), &["z"], req, report)?;
    // F_total = F + α2 θ', in its declared place before z.
    let (f, w) = (data.column("F").unwrap(), data.column("omega").unwrap());
    let total = f.iter().zip(w).map(|(f, w)| f + p.alpha2 * w).collect();
    data.columns.insert(6, ("F_total".into(), total));
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ParamSet;
    use fric_manifest::{InputSpec, ParamValue, SimSpec};

    /// Report Fig 5.9's loop (L1757, L1829–L1830, J = 0.0025 kg m² L2545), 10 s.
    fn request() -> RunRequest {
        let params = [
            ("j", 0.0025),
            ("kp_n", 72.0),
            ("ki_n", 216.0),
            ("kd_n", 5.2),
            ("r", 1.0),
            ("sigma0", 280.0),
            ("sigma1", 1.0),
            ("v0", 0.1),
            ("alpha0", 0.14),
            ("alpha1", 0.16),
            ("alpha0_plus", 0.30),
            ("alpha1_plus", 0.16),
            ("alpha2", 0.017),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
        .collect();
        let sim = SimSpec {
            t_end: Some(10.0),
            samples_per_period: Some(10000),
            ..Default::default()
        };
        crate::resolve("inertia-pid-lugre", &params, Some(&InputSpec::new("none", [])), Some(&sim)).unwrap()
    }

    /// The declared energy balance holds on the production run and fails when the friction work
    /// is integrated from a torque 0.1 % off the one acting.
    #[test]
    fn energy_balance_holds_and_catches_a_misreported_torque() {
        let req = request();
        let p = Params::read(&req.params);
        crate::energy_balance::assert_holds_and_catches_misreport(InertiaPidLuGre::INVARIANTS, &p, &req, "W_in", 0.1, |r| run_reporting(&p, &req, r));
    }
}
