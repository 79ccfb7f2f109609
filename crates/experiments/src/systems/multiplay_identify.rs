//! `multiplay-identify`: identification (2.24)–(2.26) of a multiplay from its DC hysteresis map
//! (the procedure of Fig 2.7, L718–L732, exercised on a synthetic map since the published "true"
//! map is digitised from another paper). The true model's DC map is computed with the exact stop
//! operators, every slip onset a sample; the vertices of its last ascending branch are detected
//! from the samples alone (consecutive chords of equal slope form a segment, vertices are line
//! intersections); k and Δ follow from (2.25)–(2.26); the estimated model is re-simulated on the
//! same input.

use crate::drive::{exact_pl, steps_in_time, StopOps};
use crate::input::signal;
use crate::system::{any, params, positive, Column, System, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::maxwell_slip::MaxwellSlip;
use fric_models::multiplay::{branch_vertices, DcMap};

params! {
    pub struct Params {
        k: Vec<f64> = any("N/m", "true element stiffnesses k_i"),
        delta: Vec<f64> = positive("m", "true deadzone half-widths Δ_i"),
        slope_tol: f64 = positive("1", "relative tolerance for equal chord slopes in the vertex detection").default(1e-9),
    }
}

pub struct MultiplayIdentify;

impl System for MultiplayIdentify {
    const NAME: &'static str = "multiplay-identify";
    const DOC: &'static str = "Identification (2.24)-(2.26) from a DC hysteresis map (Fig 2.7 procedure) on a synthetic map: the true multiplay's DC limit (stop operators, relaxed start) on the input samples and every element's slip onset gives y; the vertices of the last complete ascending branch (between two reversals) are detected from the samples; k = A^-1 s and Δ = (u_i - u_min)/2; y_est is the estimated model re-simulated on the same input. Info: n_identified, k_err and delta_err (max abs deviation from the true, Δ-sorted, parameters; NaN if N differs). Invariants: none (an identification from sampled maps, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "m", "input"),
        ("v", "m/s", "input velocity u'"),
        ("y", "N", "true DC map output"),
        ("y_est", "N", "output of the identified model"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Exact];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.k.len() != p.delta.len() {
            errs.push(crate::system::invalid(
                "delta",
                format!("k has {} elements, delta has {}", p.k.len(), p.delta.len()),
                "k and delta of equal length",
            ));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        debug_assert!(!steps_in_time(req));
        let sig = signal(req)?;
        let truth = MaxwellSlip::new(p.k.clone(), p.delta.clone());
        let state = truth.state(sig.value(0.0), 0.0);
        // Every slip onset of the true model is a sample (issue 50 item 6): y is linear in u
        // between samples, its loop area exact, and each branch vertex a sample.
        let mut data = exact_pl(req, &sig, &mut StopOps { model: truth, state })?;
        let (u, y) = (&data.columns[1].1, &data.columns[3].1);
        // The last complete ascending branch: a maximal run of increasing u that starts and ends
        // at a reversal (not at the ends of the run).
        let mut branch = None;
        let mut i = 1;
        while i < u.len() {
            if u[i] > u[i - 1] {
                let i0 = i - 1;
                while i < u.len() && u[i] > u[i - 1] {
                    i += 1;
                }
                if i0 > 0 && i < u.len() {
                    branch = Some((i0, i - 1));
                }
            } else {
                i += 1;
            }
        }
        let (i0, i1) = branch.ok_or("no complete ascending branch between two reversals (run longer)")?;
        if i1 < i0 + 3 {
            return Err("the ascending branch has fewer than 4 samples".into());
        }
        let v = branch_vertices(&u[i0..=i1], &y[i0..=i1], p.slope_tol);
        let est = DcMap::identify(&v);
        let truth_sorted = DcMap::new(&p.k, &p.delta);
        let (k_err, d_err) = if est.k.len() == truth_sorted.k.len() {
            let e = |a: &[f64], b: &[f64]| a.iter().zip(b).fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
            (e(&est.k, &truth_sorted.k), e(&est.delta, &truth_sorted.delta))
        } else {
            (f64::NAN, f64::NAN)
        };
        let model = MaxwellSlip::new(est.k.clone(), est.delta.clone());
        let mut se = model.state(u[0], 0.0);
        let y_est: Vec<f64> = u.iter().map(|x| model.advance(&mut se, *x)).collect();
        data.columns[3].0 = "y".into();
        data.columns.push(("y_est".into(), y_est));
        data.info.insert("n_identified".into(), est.k.len() as f64);
        data.info.insert("k_err".into(), k_err);
        data.info.insert("delta_err".into(), d_err);
        Ok(data)
    }
}
