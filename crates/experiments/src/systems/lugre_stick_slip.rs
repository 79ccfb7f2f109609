//! `lugre-stick-slip`: a body on a spring pulled at `v_p` with LuGre friction, thesis
//! (4.18)–(4.20) with (4.54)–(4.56): the simplified compressed bristle model (4.76)–(4.77) of
//! Fig 4.12(a), which L1884 identifies with LuGre (σ1 = σ2 = 0, F_c = k̃(h0 − y1),
//! F_s − F_c = k̃ y2).

use crate::laws::LuGreLaw;
use crate::spring::PulledSpring;
use crate::system::{initial, params, Column, Group, System, LINEAR, NONE};
use crate::{Invalid, RunData, RunRequest};
use fric_models::mass_spring::{Plant, PulledLuGre};
use fric_solvers::{solve, OdeSystem, Tolerances};

params! {
    pub struct Params {
        spring: PulledSpring = Group(LINEAR),
        law: LuGreLaw = Group(LINEAR),
        x0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
        l0: f64 = initial("m", "initial spring extension"),
    }
}

struct Sys(PulledLuGre);

impl OdeSystem for Sys {
    fn dim(&self) -> usize {
        4
    }
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(x, dx)
    }
}

pub struct LuGreStickSlip;

impl System for LuGreStickSlip {
    const NAME: &'static str = "lugre-stick-slip";
    const DOC: &'static str = "Body on a spring pulled at v_p with LuGre friction (thesis (4.18)-(4.20) + (4.54)-(4.56)); the SCBM (4.76)-(4.77) of Fig 4.12(a). Stiff: Radau IIA by default, step cap sim.t_end/2e4.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("x", "m", "position"),
        ("v", "m/s", "velocity"),
        ("l", "m", "spring extension"),
        ("z", "m", "bristle deflection"),
        ("F", "N", "friction force"),
    ];
    const METHODS: &'static [fric_manifest::Method] = &[fric_manifest::Method::Radau5, fric_manifest::Method::Rosenbrock23];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.curve.check(errs)
    }

    /// Samples `sim.samples_per_period` + 1 points over `[0, sim.t_end]`.
    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = PulledLuGre {
            plant: Plant {
                m: p.spring.m,
                ks: p.spring.k_spring,
            },
            vp: p.spring.vp,
            lugre: p.law.model(),
        };
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        let method = crate::drive::method_of(req)?;
        let tol = Tolerances {
            rtol: req.sim.rtol.unwrap_or(1e-8),
            atol: req.sim.atol.unwrap_or(1e-12),
            hmax: t_end / 2e4,
            ..Default::default()
        };
        let names = ["t", "x", "v", "l", "z", "F"];
        let mut cols: [Vec<f64>; 6] = Default::default();
        let o = solve(&Sys(m), method, &tol, 0.0, &[p.x0, p.v0, p.l0, p.law.z0], t_end, &save, &mut |t, x| {
            cols[0].push(t);
            for i in 0..4 {
                cols[i + 1].push(x[i]);
            }
            cols[5].push(m.friction(x[1], x[3]));
        })
        .map_err(|e| e.to_string())?;
        let mut data = RunData {
            columns: names.iter().map(|s| s.to_string()).zip(cols).collect(),
            ..Default::default()
        };
        data.info.insert("steps".into(), o.stats.accepted as f64);
        Ok(data)
    }
}
