//! `cbm-mean-height`: the velocity–height curve of the spring-pulled compressed bristle model
//! and its mean (thesis Fig 4.9, L1814–L1817), with the fits (4.68)–(4.71) (Figs 4.10, 4.11).
//! Runs the stick–slip configuration for `+v_p` and `−v_p` (glue in `crate::cbm`), drops
//! `t < t_skip`, averages `y` and `F_f` over equal-width velocity bins, and fits
//! `ȳ = y1 − y2 φ(v/v_s)` (sech and Gaussian) by separable least squares over the bin means, and
//! `|F_f| = k̃ (h0 − y)` (4.67) by a least-squares line of `|F_f|` on `y` over the samples.

use crate::cbm::{run, CbmBody, CbmVertical, SwitchBand};
use crate::system::{initial, params, positive, Column, Group, System, LINEAR, NONE};
use crate::{RunData, RunRequest};
use fric_models::cbm::{Branch, MeanFit, Profile, StickSlip};
use fric_solvers::analysis::line_fit;
use fric_solvers::fit::separable_scale;

params! {
    pub struct Params {
        body: CbmBody = Group(LINEAR),
        vertical: CbmVertical = Group(LINEAR),
        band: SwitchBand = Group(LINEAR),
        vp: f64 = positive("m/s", "speed of the spring's free end; runs +vp and -vp"),
        t_skip: f64 = positive("s", "transient dropped before averaging"),
        bins: f64 = positive("1", "number of velocity bins over [-max|v|, max|v|] (even: stuck samples join the bin next to 0 on the side pulled to)"),
        y0: f64 = initial("m", "initial height"),
    }
}

pub struct CbmMeanHeight;

impl System for CbmMeanHeight {
    const NAME: &'static str = "cbm-mean-height";
    const DOC: &'static str = "Compressed bristle model pulled at +v_p and -v_p (4.44)-(4.45): bin means of the height and friction over velocity bins after t_skip (thesis Fig 4.9), and least-squares fits of (4.68)-(4.71) to them (Figs 4.10, 4.11).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("v", "m/s", "bin centre"),
        ("y", "m", "mean height in the bin"),
        ("F", "N", "mean bristle friction (4.13) in the bin"),
        ("y_sech", "m", "fitted (4.68)"),
        ("F_sech", "N", "(4.69) with the fitted y1, y2, vs, k~, h0"),
        ("y_gauss", "m", "fitted (4.70)"),
        ("F_gauss", "N", "(4.71) with the fitted y1, y2, vs, k~, h0"),
    ];
    const METHODS: &'static [fric_manifest::Method] = &[fric_manifest::Method::Dopri5, fric_manifest::Method::Radau5];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let cbm = p.body.cbm(Some(&p.vertical));
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        let s = p.band.settings(req)?;
        let mut samples = Vec::new(); // (v, y, Ff)
        for vp in [p.vp, -p.vp] {
            let config = StickSlip { cbm, vp };
            let r = run(&config, &[0.0, 0.0, 0.0, p.y0, 0.0], t_end, &save, &s).map_err(|e| e.to_string())?;
            for (t, x) in r.t.iter().zip(&r.state) {
                if *t >= p.t_skip {
                    // Inside the stick band the body is at v = 0 on the side it is pulled to: the
                    // friction available is the branch of that side, and the sample joins the bin
                    // next to 0 on that side.
                    let (v, b) = if x[1].abs() <= s.eta {
                        (vp.signum() * 1e-300, Branch::of_velocity(vp))
                    } else {
                        (x[1], Branch::of_velocity(x[1]))
                    };
                    samples.push((v, x[3], cbm.friction(b, x[0], x[3])));
                }
            }
        }
        let vmax = samples.iter().map(|s| s.0.abs()).fold(0.0, f64::max);
        let nb = p.bins.round().max(1.0) as usize;
        let width = 2.0 * vmax / nb as f64;
        let mut acc = vec![(0.0, 0.0, 0usize); nb];
        let half = nb / 2;
        for &(v, y, f) in &samples {
            let k = if v.abs() < 1e-200 && nb.is_multiple_of(2) {
                // stuck: the bin adjacent to 0 on the side pulled to
                if v < 0.0 {
                    half - 1
                } else {
                    half
                }
            } else {
                (((v + vmax) / width).floor().max(0.0) as usize).min(nb - 1)
            };
            acc[k].0 += y;
            acc[k].1 += f;
            acc[k].2 += 1;
        }
        let (mut v, mut y, mut f) = (Vec::new(), Vec::new(), Vec::new());
        for (k, a) in acc.iter().enumerate() {
            if a.2 > 0 {
                v.push(-vmax + (k as f64 + 0.5) * width);
                y.push(a.0 / a.2 as f64);
                f.push(a.1 / a.2 as f64);
            }
        }
        // (4.67) |F_f| = k̃ (h0 − y): the least-squares line of |F_f| on y over every sample (the
        // bin means would mix in the sawtooth phase, which correlates with sticking).
        let sy: Vec<f64> = samples.iter().map(|s| s.1).collect();
        let sf: Vec<f64> = samples.iter().map(|s| s.2.abs()).collect();
        let (slope, icpt) = line_fit(&sy, &sf).ok_or("too few samples for the friction line")?;
        let (k_tilde, h0) = (-slope, -icpt / slope);
        let mut info = vec![("k_tilde_fit", k_tilde), ("h0_fit", h0), ("vmax", vmax)];
        let mut fitted = Vec::new();
        for (name, profile) in [("sech", Profile::Sech), ("gauss", Profile::Gauss)] {
            let (y1, c, vs, rss) = separable_scale(&v, &y, |u| profile.value(u), 1e-3, 10.0);
            let fit = MeanFit { y1, y2: -c, vs, k_tilde, h0, profile };
            fitted.push((
                format!("y_{name}"),
                v.iter().map(|&x| fit.height(x)).collect::<Vec<f64>>(),
            ));
            fitted.push((format!("F_{name}"), v.iter().map(|&x| fit.friction(x)).collect()));
            info.push((if name == "sech" { "sech_y1" } else { "gauss_y1" }, y1));
            info.push((if name == "sech" { "sech_y2" } else { "gauss_y2" }, -c));
            info.push((if name == "sech" { "sech_vs" } else { "gauss_vs" }, vs));
            info.push((if name == "sech" { "sech_rms" } else { "gauss_rms" }, (rss / v.len() as f64).sqrt()));
        }
        let mut data = RunData {
            columns: vec![("v".into(), v), ("y".into(), y), ("F".into(), f)],
            ..Default::default()
        };
        data.columns.extend(fitted);
        let ys: Vec<f64> = samples.iter().map(|s| s.1).collect();
        info.push(("y_min", ys.iter().cloned().fold(f64::INFINITY, f64::min)));
        info.push(("y_max", ys.iter().cloned().fold(f64::NEG_INFINITY, f64::max)));
        Ok(data.with_info(&info))
    }
}
