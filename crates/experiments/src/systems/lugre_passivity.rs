//! `lugre-passivity`: the LuGre model driven by a position, with the terms of the passivity
//! balance (3.15) of report §3.5 (L920): `v (σ0 z + σ1 z') = d0 + d1 + d2 + d3` with the storage
//! rate `d0 = σ0 z z'` and `d1 = σ0² |v| z²/g`, `d2 = σ1 z'²`, `d3 = σ0 σ1 |v| z z'/g`.

use crate::drive::driven;
use crate::input::signal;
use crate::laws::LuGreLaw;
use crate::system::{params, Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::InputDriven;

params! {
    pub struct Params {
        law: LuGreLaw = Group(LINEAR),
    }
}

pub struct LuGrePassivity;

impl System for LuGrePassivity {
    const NAME: &'static str = "lugre-passivity";
    const DOC: &'static str = "LuGre model with prescribed displacement (report (3.4), thesis (1.24)-(1.26)) and the passivity balance (3.15) of report §3.5: d0 = sigma0 z z' (storage rate), d1 = sigma0^2 |v| z^2/g(v), d2 = sigma1 z'^2, d3 = sigma0 sigma1 |v| z z'/g(v), dissipation d1 + d2 + d3 (with v (sigma0 z + sigma1 z') = d0 + d1 + d2 + d3); integrated by exponential quadrature along the input (relaxation variable) by default (or integrating-factor, rosenbrock23, radau5, dopri5).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "m", "input position"),
        ("v", "m/s", "input velocity"),
        ("g", "N", "Stribeck function g(v) = fc + (fs - fc) exp(-(v/vs)^2)"),
        ("z", "m", "bristle deflection"),
        ("zdot", "m/s", "bristle deflection rate"),
        ("F", "N", "friction force sigma0 z + sigma1 z' + sigma2 v"),
        ("d0", "W", "storage rate sigma0 z z'"),
        ("d1", "W", "sigma0^2 |v| z^2 / g"),
        ("d2", "W", "sigma1 z'^2"),
        ("d3", "W", "sigma0 sigma1 |v| z z' / g"),
        ("dissipation", "W", "d1 + d2 + d3"),
        (
            "power",
            "W",
            "v (sigma0 z + sigma1 z'), the supplied power d0 + d1 + d2 + d3",
        ),
    ];
    const METHODS: crate::methods::Methods = crate::methods::LUGRE_DRIVEN;
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: crate::invariants::LUGRE_BOUND,
        doc: crate::invariants::LUGRE_BOUND_DOC,
        check: |p, _, d| p.law.check_bound(d, "z"),
    }];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.law.curve.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.law.model();
        let (s0, s1) = (m.sigma0, m.sigma1);
        let cols = [
            "v",
            "g",
            "z",
            "zdot",
            "F",
            "d0",
            "d1",
            "d2",
            "d3",
            "dissipation",
            "power",
        ];
        driven(req, &signal(req)?, &m, vec![p.law.z0], &cols, |u, v, x, out| {
            let z = x[0];
            let mut dz = [0.0];
            m.rhs(u, v, x, &mut dz);
            let (g, zd) = (m.g(v), dz[0]);
            let d = [
                s0 * z * zd,
                s0 * s0 * v.abs() * z * z / g,
                s1 * zd * zd,
                s0 * s1 * v.abs() * z * zd / g,
            ];
            out[0] = v;
            out[1] = g;
            out[2] = z;
            out[3] = zd;
            out[4] = m.output(u, v, x);
            out[5..9].copy_from_slice(&d);
            out[9] = d[1] + d[2] + d[3];
            out[10] = v * (s0 * z + s1 * zd);
        })
    }
}
