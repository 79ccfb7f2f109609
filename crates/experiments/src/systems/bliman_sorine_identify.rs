//! `bliman-sorine-identify`: the identification map (2.22)–(2.23) of the Bliman & Sorine model,
//! report L504–L538: `[f_s, f_k, s_e, s_p] ↦ [f₁, f₂, ε_f, η]` through the non-trivial root
//! `p > 1` of (2.23), and its inverse (2.24) on the result as a round-trip check. With
//! `rounding > 0` it also gives the range of each parameter over every input within ± rounding
//! (a 3⁴ grid of the four inputs): how precisely a table printed to four decimals determines them.

use crate::input::table;
use crate::system::{nonneg, params, positive, Column, System, NONE};
use crate::{RunData, RunRequest};
use fric_models::bliman_sorine::{BlimanSorine, IdentifyError};

params! {
    pub struct Params {
        fs: f64 = positive("N-m", "break-away level f_s: the peak of a saturated branch"),
        fk: f64 = positive("N-m", "kinetic level f_k"),
        se: f64 = positive("rad", "displacement from the reversal to the peak, s_e"),
        sp: f64 = positive("rad", "displacement from the reversal to the point (s_p, f_k)"),
        rounding: f64 = nonneg("1", "half a unit of the last printed digit of the four inputs (same units); 0: no ranges").default(0.0),
    }
}

pub struct BlimanSorineIdentify;

/// The map's result: parameters and root, or `Err((ln m2, bound))` when (2.23) has no root above
/// 1 (a property of the characteristics, reported as data); outside the domain, an error.
#[allow(clippy::type_complexity)]
fn solve(fs: f64, fk: f64, se: f64, sp: f64) -> Result<Result<(BlimanSorine, f64), (f64, f64)>, String> {
    match BlimanSorine::identify(fs, fk, se, sp) {
        Ok(x) => Ok(Ok(x)),
        Err(IdentifyError::NoRootAboveOne { log_m2, bound }) => Ok(Err((log_m2, bound))),
        Err(IdentifyError::Domain) => Err(format!(
            "no B&S parameters for f_s = {fs}, f_k = {fk}: need f_s > f_k > 0 and s_e, s_p > 0"
        )),
    }
}

impl System for BlimanSorineIdentify {
    const NAME: &'static str = "bliman-sorine-identify";
    const DOC: &'static str = "Bliman & Sorine identification map, report (2.22)-(2.23): f1, f2, eps_f = s_p/3, eta from (f_s, f_k, s_e, s_p) with the root p > 1 of (2.23) (p = 1 is trivial; when there is no root above 1, L523-L525, the run reports solvable = 0 with log_m2 and the bound (m1 m2 + 2)/(m1 m2) in its info and NaN parameters); the inverse (2.24) on the result (fs_back, se_back); sigma (2.16). Info and a one-row table: f1, f2, eps, eta, p, sigma, fs_back, se_back, and with rounding > 0 the range <name>_lo, <name>_hi of f1, f2, eps, eta over the inputs +- rounding. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("f1", "N-m", "f1"),
        ("f2", "N-m", "f2"),
        ("eps", "rad", "eps_f"),
        ("eta", "1", "eta"),
        ("p", "1", "root of (2.23) above 1"),
        ("sigma", "N-m/rad", "zero-state stiffness (2.16)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, _req: &RunRequest) -> Result<RunData, String> {
        let (m, root) = match solve(p.fs, p.fk, p.se, p.sp)? {
            Ok(x) => x,
            Err((log_m2, bound)) => {
                let nan = vec![f64::NAN];
                let mut data = table(vec![
                    ("f1", nan.clone()),
                    ("f2", nan.clone()),
                    ("eps", nan.clone()),
                    ("eta", nan.clone()),
                    ("p", nan.clone()),
                    ("sigma", nan),
                ]);
                data.info.insert("solvable".into(), 0.0);
                data.info.insert("log_m2".into(), log_m2);
                data.info.insert("bound".into(), bound);
                return Ok(data);
            }
        };
        let (fs_back, _, se_back, _) = m.characteristics();
        let mut data = table(vec![
            ("f1", vec![m.f1]),
            ("f2", vec![m.f2]),
            ("eps", vec![m.eps]),
            ("eta", vec![m.eta]),
            ("p", vec![root]),
            ("sigma", vec![m.sigma()]),
        ]);
        for (k, v) in [
            ("solvable", 1.0),
            ("f1", m.f1),
            ("f2", m.f2),
            ("eps", m.eps),
            ("eta", m.eta),
            ("p", root),
            ("sigma", m.sigma()),
            ("fs_back", fs_back),
            ("se_back", se_back),
        ] {
            data.info.insert(k.into(), v);
        }
        if p.rounding > 0.0 {
            let r = p.rounding;
            let mut lo = [f64::INFINITY; 4];
            let mut hi = [f64::NEG_INFINITY; 4];
            for i in 0..81 {
                let d = |k: u32| r * ((i / 3usize.pow(k)) % 3) as f64 - r;
                // Inputs outside the map's domain are skipped: the range is over those with a solution.
                if let Ok((q, _)) = BlimanSorine::identify(p.fs + d(0), p.fk + d(1), p.se + d(2), p.sp + d(3)) {
                    for (j, v) in [q.f1, q.f2, q.eps, q.eta].into_iter().enumerate() {
                        lo[j] = lo[j].min(v);
                        hi[j] = hi[j].max(v);
                    }
                }
            }
            for (j, name) in ["f1", "f2", "eps", "eta"].iter().enumerate() {
                data.info.insert(format!("{name}_lo"), lo[j]);
                data.info.insert(format!("{name}_hi"), hi[j]);
            }
        }
        Ok(data)
    }
}
