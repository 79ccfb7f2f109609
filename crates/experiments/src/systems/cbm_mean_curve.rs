//! `cbm-mean-curve`: the mean-height and mean-friction fits (4.68)–(4.71) of thesis ch. IV on a
//! velocity grid (analytic).

use crate::input::{grid, table};
use crate::system::{between, params, positive, Column, System, GRID};
use crate::{RunData, RunRequest};
use fric_models::cbm::{MeanFit, Profile};

params! {
    pub struct Params {
        y1: f64 = positive("m", "mean height at large |v|"),
        y2: f64 = positive("m", "drop of the mean height at v = 0"),
        vs: f64 = positive("m/s", "velocity scale v_s"),
        k_tilde: f64 = positive("N/m", "mean friction stiffness k~"),
        h0: f64 = positive("m", "relaxed bristle length"),
        gaussian: f64 = between("1", 0.0, 1.0, "0: sech profile (4.68)-(4.69); 1: Gaussian (4.70)-(4.71)"),
    }
}

pub struct CbmMeanCurve;

impl System for CbmMeanCurve {
    const NAME: &'static str = "cbm-mean-curve";
    const DOC: &'static str = "Mean height and mean friction fits of the compressed bristle model, thesis (4.68)-(4.71): y(v) = y1 - y2 phi(v/vs), F(v) = sign(v) k~ (h0 - y(v)), phi = sech or exp(-s^2); the jump at v = 0 drawn as a vertical segment. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("v", "m/s", "velocity"),
        ("y", "m", "mean height"),
        ("F", "N", "mean friction"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let fit = MeanFit {
            y1: p.y1,
            y2: p.y2,
            vs: p.vs,
            k_tilde: p.k_tilde,
            h0: p.h0,
            profile: if p.gaussian >= 0.5 { Profile::Gauss } else { Profile::Sech },
        };
        let mut v = Vec::new();
        for x in grid(&req.input) {
            if x == 0.0 {
                // both sides of the jump at v = 0
                v.push(-0.0);
            }
            v.push(x);
        }
        let y = v.iter().map(|&x| fit.height(x)).collect();
        let f = v
            .iter()
            .map(|&x: &f64| if x == 0.0 && x.is_sign_negative() { -fit.friction(0.0) } else { fit.friction(x) })
            .collect();
        Ok(table(vec![("v", v), ("y", y), ("F", f)]))
    }
}
