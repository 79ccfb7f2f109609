//! `semilinear-duhem`: the rate-independent semilinear Duhem model, duhem-paper (6)–(8), with
//! its closed-form periodic output (10) alongside.

use crate::drive::driven;
use crate::input::signal;
use crate::system::{any, initial, params, Column, System};
use crate::{RunData, RunRequest};
use fric_models::duhem::Semilinear;
use fric_models::signal::Signal;
use fric_models::InputDriven;

params! {
    pub struct Params {
        a_plus: f64 = any("1/m", "A+"),
        b_plus: f64 = any("1/m", "B+").default(0.0),
        e_plus: f64 = any("N/m", "E+").default(0.0),
        a_minus: f64 = any("1/m", "A-"),
        b_minus: f64 = any("1/m", "B-").default(0.0),
        e_minus: f64 = any("N/m", "E-").default(0.0),
        c: f64 = any("1", "C").default(1.0),
        d: f64 = any("N/m", "D").default(0.0),
        x0: f64 = initial("N", "initial state"),
    }
}

pub struct SemilinearDuhem;

impl System for SemilinearDuhem {
    const NAME: &'static str = "semilinear-duhem";
    const DOC: &'static str = "Rate-independent semilinear Duhem model, duhem-paper (6)-(8), scalar state, prescribed input: x' = u'+ (a_plus x + b_plus u + e_plus) + u'- (a_minus x + b_minus u + e_minus), y = c x + d u; affine in x along the input, integrated by the exponential quadrature by default. Column y_limit is the closed-form periodic output (10) at the same input (u_min, u_max from the signal). Invariants: none declared; the duhem-paper states no bound on the semilinear Duhem state (6)-(8) beyond its closed-form periodic limit, which the column y_limit carries.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = &["sine", "cosine"];
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "m", "input"),
        ("v", "m/s", "input rate"),
        ("y", "N", "output"),
        ("y_limit", "N", "closed-form limiting output (10)"),
    ];
    /// Affine in `x` along the input ([`InputDriven::affine`]): the exponential quadrature by
    /// default (exact along a branch whose `−b/a` is constant, as for Dahl γ = 1), the
    /// integrating factor, then the explicit solvers.
    const METHODS: crate::methods::Methods = &[
        crate::methods::Method::Exponential,
        crate::methods::Method::IntegratingFactor,
        crate::methods::Method::Dopri5,
        crate::methods::Method::Dop853,
    ];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = Semilinear {
            a_plus: p.a_plus,
            b_plus: p.b_plus,
            e_plus: p.e_plus,
            a_minus: p.a_minus,
            b_minus: p.b_minus,
            e_minus: p.e_minus,
            c: p.c,
            d: p.d,
        };
        let sig = signal(req)?;
        let (u_min, u_max) = match &sig {
            Signal::Sine(s) => (s.offset - s.amplitude.abs(), s.offset + s.amplitude.abs()),
            _ => return Err("semilinear-duhem takes a sine or cosine input".into()),
        };
        driven(req, &sig, &m, vec![p.x0], &["v", "y", "y_limit"], |u, du, x, out| {
            out[0] = du;
            out[1] = m.output(u, du, x);
            out[2] = m.limit_output(u.clamp(u_min, u_max), du > 0.0, u_min, u_max);
        })
    }
}
