//! `linear-msd`: the linear mass/dashpot/spring driven by a position, thesis (1.3)–(1.4).

use crate::drive::driven;
use crate::input::signal;
use crate::system::{initial, nonneg, params, positive, Column, System, PRESCRIBED};
use crate::{RunData, RunRequest};
use fric_models::linear::LinearMsd as Model;

params! {
    pub struct Params {
        m: f64 = positive("kg", "mass"),
        c: f64 = nonneg("N-s/m", "damping"),
        k: f64 = positive("N/m", "stiffness"),
        x0: f64 = initial("m", "initial position"),
        v0: f64 = initial("m/s", "initial velocity"),
    }
}

pub struct LinearMsd;

impl System for LinearMsd {
    const NAME: &'static str = "linear-msd";
    const DOC: &'static str =
        "Linear mass/dashpot/spring with position input, thesis (1.3)-(1.4): m x'' + c x' + k (x - u) = 0, y = x. Invariants: none (a linear mass-spring-damper, no friction law).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "m", "input position"),
        ("y", "m", "output x"),
        ("v", "m/s", "velocity"),
    ];
    const METHODS: crate::methods::Methods = &[&crate::methods::DOPRI5, &crate::methods::ROSENBROCK23, &crate::methods::RADAU5];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = Model { m: p.m, c: p.c, k: p.k };
        driven(req, &signal(req)?, &m, vec![p.x0, p.v0], &["y", "v"], |_, _, x, out| {
            out[0] = x[0];
            out[1] = x[1];
        })
    }
}
