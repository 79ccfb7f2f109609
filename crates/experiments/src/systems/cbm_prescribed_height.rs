//! `cbm-prescribed-height`: the compressed bristle model of thesis ch. IV pulled at `v_p` with
//! the height prescribed, `y = A sin ωt` (state `[x, v, l]`, (4.48)–(4.49), L1688–L1696), under
//! the Switch Model (glue in `crate::cbm`).

use crate::cbm::{columns, run, CbmBody, SwitchBand};
use crate::system::{any, initial, nonneg, params, positive, Column, Group, System, LINEAR, NONE};
use crate::{RunData, RunRequest};
use fric_models::cbm::PrescribedHeight;
use fric_models::signal::Sine;

params! {
    pub struct Params {
        body: CbmBody = Group(LINEAR),
        band: SwitchBand = Group(LINEAR),
        vp: f64 = any("m/s", "speed of the spring's free end"),
        amplitude: f64 = nonneg("m", "height amplitude A of y = A sin(omega t)"),
        omega: f64 = positive("rad/s", "height frequency omega"),
        x0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
        l0: f64 = initial("m", "initial spring extension"),
    }
}

pub struct CbmPrescribedHeight;

impl System for CbmPrescribedHeight {
    const NAME: &'static str = "cbm-prescribed-height";
    const DOC: &'static str = "Compressed bristle model, thesis ch. IV: body on a spring pulled at v_p with the height prescribed, y = A sin(omega t), (4.13), (4.18)-(4.20), f+- (4.48)-(4.49), Switch Model (4.33)-(4.43); bristle passes are located events.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("x", "m", "position"),
        ("v", "m/s", "velocity"),
        ("l", "m", "spring extension"),
        ("F", "N", "friction force acting (F_f+- on a branch; in the stick band K l + m v/tau)"),
        ("Ff", "N", "bristle friction (4.13) at the state, branch + for v >= -eta"),
        ("stuck", "1", "1 in the Switch Model's attractive (stick) case"),
        ("v_stuck", "m/s", "|v| while stuck, 0 otherwise"),
        ("y", "m", "prescribed height A sin(omega t)"),
        crate::cbm::ENERGY_COLUMNS[0],
        crate::cbm::ENERGY_COLUMNS[1],
        crate::cbm::ENERGY_COLUMNS[2],
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5, crate::methods::Method::Radau5];
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "contact-window",
        doc: "on every sliding sample the friction is the bristle force (4.10)/(4.12) of the slanted window (4.7)/(4.8) at (x, y) on the branch of v: the frozen window is the geometric one. Tension (a bristle longer than h0) is allowed by the published linear law and flagged by a check, not an invariant",
        check: |p, _, d| crate::cbm::check_window(&p.body.cbm(None), p.band.eta, d),
    }, crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work K l v_p = friction work + change of m v^2/2 + K l^2/2 ((4.48) times v, integrated; exact for any friction force on the body; the bristles' energy is inside the friction work), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: |p, req, d| {
            let rig = crate::cbm::EnergyRig { vp: Some(p.vp), y_state: false };
            crate::cbm::check_energy(&p.body.cbm(None), p.band.eta, p.band.tau, &rig, crate::cbm::tolerance(req), d)
        },
    }];

    /// Samples `sim.samples_per_period` + 1 points over `[0, sim.t_end]`.
    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let height = Sine {
            amplitude: p.amplitude,
            omega: p.omega,
            phase: 0.0,
            offset: 0.0,
        };
        let config = PrescribedHeight {
            cbm: p.body.cbm(None),
            vp: p.vp,
            height,
        };
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        let s = p.band.settings(req)?;
        let r = run(&config, &[p.x0, p.v0, p.l0], t_end, &save, &s).map_err(|e| e.to_string())?;
        let mut data = columns(&config, &r, s.eta, &["x", "v", "l"]);
        data.columns.push(("y".into(), r.t.iter().map(|&t| height.value(t)).collect()));
        crate::cbm::push_energy(&mut data, &r);
        Ok(data)
    }
}
