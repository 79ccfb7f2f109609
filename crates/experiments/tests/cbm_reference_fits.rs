//! Thesis Figs 4.10 and 4.11 (the manifests `thesis/fig4.10`, `thesis/fig4.11`: the system
//! `cbm-mean-height`, the mean friction line and the sech fit of the height against the velocity)
//! against the independent reference of `cbm_reference.rs` (same files, `cbm_reference/`); its own
//! test binary, split from `cbm_reference.rs` to keep files under 600 lines.

#[path = "cbm_reference/mod.rs"]
mod cbm;

use cbm::{compare, fit, reference, runs};

use compare::{case, check, Within};
use fit::{bin_means, friction_line, sech_fit, Line, Sech};
use fric_experiments::{execute, resolve};
use fric_manifest::{InputSpec, ParamValue, SimSpec};
use reference::{Drive, Model};
use runs::{body_of, fig_4_4, perturbation, reference_run, TOLERANCES};
use std::collections::BTreeMap;

/// Thesis Figs 4.10 and 4.11 (the manifests `thesis/fig4.10`, `thesis/fig4.11`: the runs of
/// Fig 4.9's `mean` sweep, system `cbm-mean-height`): Fig 4.9's configuration pulled at
/// `+v_p` and `−v_p` = ±0.1 m/s for 200 s from `y(0) = 0` and `y_eq`, every sample after 50 s;
/// the fitted `k̃` and `h0` of (4.67) (`k_tilde_fit`, `h0_fit`, compared with the published
/// 0.75 N/m and 1.64 m, L1829). The reference (h = 1 ms and 0.5 ms) takes `F_f` (4.10)/(4.12) on
/// the branch of `v`, or, while stuck (`|v| ≤ η`), of the side pulled to, as the production
/// does, and fits its own line. Production (both tolerances, through `resolve`/`execute`)
/// against the reference at 0.5 ms. From y(0) = 0: `k̃` within 0.1 % and `h0` within 0.1 mm
/// (measured 2026-12-06: reference 0.7428021 N/m, 1.6442318 m at both steps; production at
/// rtol 1e-9 0.7428021, 1.6442319). From y_eq the height after 50 s barely varies (2.2 mm) and
/// the line is ill-conditioned: the reference gives 0.8515841 N/m, 1.4600635 m at both steps,
/// the production at rtol 1e-9 0.8525552 N/m, 1.4586357 m (the Switch Model's band, η = 1e-6,
/// τ = 1e-3, against the reference's exact stick), so it is held at the tolerances of the
/// published `k_tilde_fit` and `h0_fit` checks on the drawn member, ±5e-3 each (no check reads
/// the y_eq member's line). The sech fit of (4.68) to the 40 bin means, `(y1, y2, v_s)`
/// (`sech_y1`, `sech_y2`, `sech_vs`), against the reference's own bins and fit ([`bin_means`],
/// [`sech_fit`]): within twice the reference's own change between its steps, at least 1e-3
/// relative (measured 2026-12-06: from y(0) = 0 the reference at 0.5 ms 0.333190 m,
/// 0.190028 m, 0.056921 m/s, production at rtol 1e-9 0.333197, 0.190028, 0.056928; from y_eq
/// the dip is gone, y2 = −2.196e-4 m in both, v_s 0.093449 (reference) vs 0.093443 m/s at
/// rtol 1e-9 but 0.093633 m/s and y2 −2.199e-4 m at 1e-7, 2.0e-3 and 1.4e-3 relative off: from
/// y_eq the sech parameters are held within 5e-3 relative).
/// Until 2026-12-06 the reference's forces were first order in h at the bristle events (see
/// the Fig 4.7 test) and its own y_eq fit moved by 0.0077 N/m and 11.3 mm between its steps.
#[test]
fn fig_4_10_4_11_production_agrees_with_the_reference() {
    let mut p = fig_4_4();
    p.iter_mut().find(|q| q.0 == "h0").unwrap().1 = 1.65;
    let (dt, n, eta) = (0.005, 40_000, 1e-6);
    for y0 in [0.0, 0.2071] {
        let fits: Vec<(Line, Sech)> = [1e-3, 5e-4]
            .iter()
            .map(|&h| {
                let mut samples = Vec::new();
                let mut binned = Vec::new();
                for vp in [0.1, -0.1] {
                    let model = Model {
                        body: body_of(&p),
                        drive: Drive::Pulled { vp },
                    };
                    let s = reference_run(&model, [0.0, 0.0, y0, 0.0, 0.0], dt, n, h);
                    for i in (0..s.t.len()).filter(|&i| s.t[i] >= 50.0) {
                        let plus = if s.stuck[i] || s.v[i].abs() <= eta {
                            vp > 0.0
                        } else {
                            s.v[i] >= 0.0
                        };
                        samples.push((s.y[i], model.body.friction(plus, s.x[i], s.y[i]).abs()));
                        let stuck = (s.stuck[i] || s.v[i].abs() <= eta).then_some(vp > 0.0);
                        binned.push((s.v[i], s.y[i], stuck));
                    }
                }
                (friction_line(&samples), sech_fit(&bin_means(&binned, 40)))
            })
            .collect();
        eprintln!(
            "Figs 4.10/4.11 y(0) = {y0}: reference (k~, h0), (y1, y2, v_s) h = 1 ms {:?}, 0.5 ms {:?}",
            fits[0], fits[1]
        );
        let (r, rs) = fits[1];
        // The sech fit's tolerance per parameter: twice the reference's own change between its
        // two steps, and at least 1e-3 relative (the k̃ comparison's); from y_eq 5e-3 relative,
        // the fit to a 2.2-mm height range moving with the production's tolerance (see above).
        let floor = if y0 == 0.0 { 1e-3 } else { 5e-3 };
        let sech_tol = |a: f64, b: f64| (2.0 * (a - b).abs()).max(floor * b.abs());
        let (rs0, rs1) = (fits[0].1, rs);
        let stol = (sech_tol(rs0.0, rs1.0), sech_tol(rs0.1, rs1.1), sech_tol(rs0.2, rs1.2));
        for tol in TOLERANCES {
            let mut pp = p.clone();
            pp.retain(|q| q.0 != "vp");
            pp.extend([("vp", 0.1), ("t_skip", 50.0), ("bins", 40.0), ("y0", y0)]);
            let params: BTreeMap<String, ParamValue> = pp
                .iter()
                .map(|(k, v)| (k.to_string(), ParamValue::Number(*v * perturbation(k))))
                .collect();
            let sim = SimSpec {
                t_end: Some(200.0),
                samples_per_period: Some(n),
                rtol: Some(tol.0),
                atol: Some(tol.1),
                ..Default::default()
            };
            let req = resolve(
                "cbm-mean-height",
                &params,
                Some(&InputSpec::new("none", [])),
                Some(&sim),
            )
            .unwrap();
            let d = execute(&req).unwrap();
            let q = (d.info["k_tilde_fit"], d.info["h0_fit"]);
            let qs = (d.info["sech_y1"], d.info["sech_y2"], d.info["sech_vs"]);
            eprintln!(
                "Figs 4.10/4.11 y(0) = {y0}: production rtol {:e} (k~, h0) {q:?}, (y1, y2, v_s) {qs:?}",
                tol.0
            );
            // From y_eq the line is ill-conditioned (the height after 50 s spans 2.2 mm): the
            // Switch Model's band moves it by 1e-3 of k~; compared at the tolerances of the
            // published k~ and h0 checks on the drawn member (±5e-3 N/m, ±5e-3 m, thesis/fig4.10).
            let (dk, dh) = if y0 == 0.0 { (1e-3 * r.0, 1e-4) } else { (5e-3, 5e-3) };
            check(
                &format!("Figs 4.10/4.11 y(0) = {y0}, rtol {:e}", tol.0),
                &[
                    case("sech y1", qs.0, rs.0, Within::Abs(stol.0)),
                    case("sech y2", qs.1, rs.1, Within::Abs(stol.1)),
                    case("sech v_s", qs.2, rs.2, Within::Abs(stol.2)),
                    case("k~", q.0, r.0, Within::Abs(dk)),
                    case("h0", q.1, r.1, Within::Abs(dh)),
                ],
            );
        }
    }
}
