//! `cbm-stick-slip`: the compressed bristle model of thesis ch. IV, a body on a spring pulled at
//! `v_p` over a row of bristles, under the Switch Model (glue in `crate::cbm`).

use crate::cbm::{run, CbmSettings};
use crate::system::{any, initial, params, positive, Column, System, NONE};
use crate::{RunData, RunRequest};
use fric_models::cbm::{Branch as CbmBranch, Cbm, StickSlip};
use fric_solvers::switch::Region;
use fric_solvers::Tolerances;

params! {
    pub struct Params {
        m: f64 = positive("kg", "body mass"),
        w: f64 = positive("m", "body thickness"),
        d: f64 = positive("m", "body length"),
        alpha: f64 = positive("deg", "slant angle from the vertical"),
        k_spring: f64 = positive("N/m", "spring stiffness K"),
        n: f64 = positive("1", "number N of bristles under the flat bottom (4.17)"),
        k: f64 = positive("N/m", "bristle stiffness"),
        h0: f64 = positive("m", "relaxed bristle length"),
        delta: f64 = positive("m", "bristle spacing (bases at i delta)"),
        g: f64 = positive("m/s^2", "gravity"),
        vp: f64 = any("m/s", "speed of the spring's free end (negative: pulled backwards)"),
        eta: f64 = positive("m/s", "Switch Model stick band |v| <= eta"),
        tau: f64 = positive("s", "Switch Model time constant (g' = -g/tau in the band)"),
        x0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
        l0: f64 = initial("m", "initial spring extension"),
        y0: f64 = initial("m", "initial height"),
        yd0: f64 = initial("m/s", "initial vertical velocity"),
    }
}

pub struct CbmStickSlip;

impl System for CbmStickSlip {
    const NAME: &'static str = "cbm-stick-slip";
    const DOC: &'static str = "Compressed bristle model, thesis ch. IV: body on a spring pulled at v_p over a row of bristles, (4.13), (4.18)-(4.22), f+- (4.44)-(4.47) with ydd = -g + F_y/m, integrated with the Switch Model (4.33)-(4.43) (stick band |v| <= eta, time constant tau); every bristle entering or leaving the slant is a located event.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("x", "m", "position"),
        ("v", "m/s", "velocity"),
        ("l", "m", "spring extension"),
        ("y", "m", "height"),
        ("yd", "m/s", "vertical velocity"),
        ("F", "N", "friction force acting (F_f+- on a branch; in the stick band K l + m v/tau)"),
        ("Ff", "N", "bristle friction (4.13) at the state, branch + for v >= -eta (v inside the stick band counts as 0)"),
        ("stuck", "1", "1 in the Switch Model's attractive (stick) case"),
        ("v_stuck", "m/s", "|v| while stuck, 0 otherwise"),
        crate::cbm::ENERGY_COLUMNS[0],
        crate::cbm::ENERGY_COLUMNS[1],
        crate::cbm::ENERGY_COLUMNS[2],
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5, crate::methods::Method::Radau5];
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: "contact-window",
        doc: "on every sliding sample the friction is the bristle force (4.10)/(4.12) of the slanted window (4.7)/(4.8) at (x, y) on the branch of v: the frozen window is the geometric one. Tension (a bristle longer than h0) is allowed by the published linear law and flagged by a check, not an invariant",
        check: |p, _, d| crate::cbm::check_window(&cbm(p), p.eta, d),
    }, crate::invariants::Invariant {
        name: "energy-balance",
        doc: "input work K l v_p = friction work + change of m v^2/2 + K l^2/2 ((4.44) times v, integrated; exact for any friction force on the body; the vertical motion and the bristles' energy are inside the friction work), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: |p, req, d| {
            let rig = crate::cbm::EnergyRig { vp: Some(p.vp), y_state: true };
            crate::cbm::check_energy(&cbm(p), p.eta, p.tau, &rig, crate::cbm::tolerance(req), d)
        },
    }];

    /// Samples `sim.samples_per_period` + 1 points over `[0, sim.t_end]`.
    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {

        let config = StickSlip { cbm: cbm(p), vp: p.vp };
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        let method = crate::drive::method_of(req)?;
        let (rtol, atol) = crate::cbm::tolerance(req);
        let settings = CbmSettings {
            eta: p.eta,
            tau: p.tau,
            method,
            tol: Tolerances {
                rtol,
                atol,
                ..Default::default()
            },
            max_events: 10_000_000,
        };
        let x0 = [p.x0, p.v0, p.l0, p.y0, p.yd0];
        let r = run(&config, &x0, t_end, &save, &settings).map_err(|e| e.to_string())?;
        let col = |i: usize| r.state.iter().map(|s| s[i]).collect::<Vec<f64>>();
        let v_stuck = r
            .state
            .iter()
            .zip(&r.stuck)
            .map(|(s, &k)| if k == 1.0 { s[1].abs() } else { 0.0 })
            .collect();
        // (4.13) with sign(0) = +1 ((4.1), (4.9)), evaluated at the sampled state; inside the stick
        // band v is a creep of at most η (either sign), which counts as v = 0.
        let ff = r
            .state
            .iter()
            .map(|s| {
                let b = if s[1] < -settings.eta {
                    CbmBranch::Minus
                } else {
                    CbmBranch::Plus
                };
                config.cbm.friction(b, s[0], s[3])
            })
            .collect();
        let sticks = r.region_changes.iter().filter(|c| c.1 == Region::Stick).count();
        // `F`, `Ff`, `stuck`: the friction models' force beside the one acting.
        let mut columns = r.pulled_columns();
        columns.insert(7, ("Ff".to_string(), ff));
        columns.push(("v_stuck".to_string(), v_stuck));
        let mut data = RunData {
            columns,
            ..Default::default()
        };
        crate::cbm::push_energy(&mut data, &r);
        data.info.insert("stick_phases".into(), sticks as f64);
        data.info.insert("window_events".into(), r.window_events as f64);
        data.info.insert("steps".into(), r.stats.accepted as f64);
        data.info.insert("y_omega".into(), crate::cbm::dominant_omega(&r.t, &col(3)));
        data.info.insert("n_from_delta".into(), config.cbm.n_from_delta());
        Ok(data)
}
}

/// The body and bristles of the parameters.
fn cbm(p: &Params) -> Cbm {
    Cbm {
        m: p.m,
        w: p.w,
        d: p.d,
        alpha: p.alpha.to_radians(),
        spring_k: p.k_spring,
        n_bottom: p.n,
        k: p.k,
        h0: p.h0,
        delta: p.delta,
        g: p.g,
    }
}
