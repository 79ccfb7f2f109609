//! `cbm-force-driven`: the compressed bristle model of thesis ch. IV in the force-driven
//! body–spring configuration of Fig 4.3 (state `[x, v, y, ẏ]`, (4.50)–(4.51)), driven by a sine
//! force, under the Switch Model (glue in `crate::cbm`).

use crate::cbm::{columns, run, CbmBody, CbmVertical, SwitchBand};
use crate::drive::{periodic_plan, save_times};
use crate::input::signal;
use crate::system::{initial, params, Column, Group, System, LINEAR};
use crate::{RunData, RunRequest};
use fric_models::cbm::ForceDriven;
use fric_models::signal::Signal;

params! {
    pub struct Params {
        body: CbmBody = Group(LINEAR),
        vertical: CbmVertical = Group(LINEAR),
        band: SwitchBand = Group(LINEAR),
        x0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
        y0: f64 = initial("m", "initial height"),
        yd0: f64 = initial("m/s", "initial vertical velocity"),
    }
}

pub struct CbmForceDriven;

impl System for CbmForceDriven {
    const NAME: &'static str = "cbm-force-driven";
    const DOC: &'static str = "Compressed bristle model, thesis ch. IV: body on a spring to a wall driven by a force u(t) over a row of bristles (Fig 4.3), (4.13), (4.21)-(4.27), f+- (4.50)-(4.51) with ydd = -g + F_y/m, integrated with the Switch Model (4.33)-(4.43); every bristle entering or leaving the slant is a located event. Columns P = F v and W = its running integral (trapezoid over the samples) give the dissipated energy.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = &["sine"];
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("x", "m", "position"),
        ("v", "m/s", "velocity"),
        ("y", "m", "height"),
        ("yd", "m/s", "vertical velocity"),
        ("F", "N", "friction force acting (F_f+- on a branch; in the stick band u - K x + m v/tau)"),
        ("Ff", "N", "bristle friction (4.13) at the state, branch + for v >= -eta"),
        ("stuck", "1", "1 in the Switch Model's attractive (stick) case"),
        ("v_stuck", "m/s", "|v| while stuck, 0 otherwise"),
        ("u", "N", "input force"),
        ("P", "W", "friction power F v"),
        ("W", "J", "dissipated energy: trapezoidal running integral of F v dt from the first sample"),
        crate::cbm::ENERGY_COLUMNS[0],
        crate::cbm::ENERGY_COLUMNS[1],
        crate::cbm::ENERGY_COLUMNS[2],
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5, crate::methods::Method::Radau5];
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "contact-window",
        doc: "on every sliding sample the friction is the bristle force (4.10)/(4.12) of the slanted window (4.7)/(4.8) at (x, y) on the branch of v: the frozen window is the geometric one. Tension (a bristle longer than h0) is allowed by the published linear law and flagged by a check, not an invariant",
        check: |p, _, d| crate::cbm::check_window(&p.body.cbm(Some(&p.vertical)), p.band.eta, d),
    }, crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work u v = friction work + change of m v^2/2 + K x^2/2 ((4.50) times v, integrated; exact for any friction force on the body; the vertical motion and the bristles' energy are inside the friction work), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: |p, req, d| {
            let rig = crate::cbm::EnergyRig { vp: None, y_state: true };
            crate::cbm::check_energy(&p.body.cbm(Some(&p.vertical)), p.band.eta, p.band.tau, &rig, crate::cbm::tolerance(req), d)
        },
    }];

    /// Records `sim.periods` input periods (or `sim.t_end`) at `sim.samples_per_period`.
    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let sig = signal(req)?;
        let Signal::Sine(input) = sig else {
            return Err("cbm-force-driven takes a sine input".into());
        };
        crate::drive::no_shooting(req)?;
        let (plan, steady) = periodic_plan(req, &sig);
        if steady.is_some() {
            return Err("cbm-force-driven runs for `periods` or `t_end`; steady_state is not supported".into());
        }
        let config = ForceDriven {
            cbm: p.body.cbm(Some(&p.vertical)),
            input,
        };
        let s = p.band.settings(req)?;
        let x0 = [p.x0, p.v0, p.y0, p.yd0];
        let save = save_times(&plan);
        let r = run(&config, &x0, plan.record.1, &save, &s).map_err(|e| e.to_string())?;
        let mut data = columns(&config, &r, s.eta, &["x", "v", "y", "yd"]);
        let u: Vec<f64> = r.t.iter().map(|&t| input.value(t)).collect();
        let power: Vec<f64> = r.friction.iter().zip(&r.state).map(|(f, s)| f * s[1]).collect();
        let mut w = Vec::with_capacity(power.len());
        let mut acc = 0.0;
        for i in 0..power.len() {
            if i > 0 {
                acc += 0.5 * (power[i] + power[i - 1]) * (r.t[i] - r.t[i - 1]);
            }
            w.push(acc);
        }
        data.columns.push(("u".into(), u));
        data.columns.push(("P".into(), power));
        data.columns.push(("W".into(), w));
        crate::cbm::push_energy(&mut data, &r);
        data.period = plan.input_period;
        Ok(data)
    }
}
