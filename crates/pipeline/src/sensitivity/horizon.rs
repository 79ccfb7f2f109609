//! How long an explanation step's run has to be: the latest time the explained metric reads from
//! the varied run ([`horizon`]), and the run ended there ([`shortened`]) when its computation up to
//! that time provably does not depend on where it ends.
//!
//! An explanation solves `metric(p) = expected` by up to [`super::MAX_EVALUATIONS`] runs of the
//! varied run, each as long as the manifest's. duhem-paper Fig 14's checks read its mass–spring–LuGre
//! run over `t ∈ [0, 400]` s of two input periods (12 566 s): the rest, 84 % of its steps, was
//! computed 98 times per cold run for nothing (its explanation chain was the cold run's critical
//! path, 32 s wall).
//!
//! The run is ended early only where nothing but the integrator's own error separates it from the
//! whole run up to the horizon: the input repeats with a period (the step cap, `period`/1000, and
//! the sample grid, `samples_per_period` per period, do not depend on `t_end`, [`fric_experiments`]'
//! `drive::periodic_plan`), the run integrates forward from its initial state (no
//! `steady_state`), every post step is causal (each sample from the samples before it), and the
//! new end lies a hundredth of a period (ten step caps) past the horizon, on the sample grid.
//! The shortened run is not bit-identical to the whole one (the step sequence differs at the
//! integrator's accuracy). Measured on duhem-paper Fig 14's run (rtol 1e-8, σ0 = 1e5 N/m, 2026-12-06,
//! `max-diff` of the two runs' samples): up to t = 400 s F within 5.7e-8 N (m = 1 kg) and 3.1e-7 N
//! (m = 2.5 kg), q within 2.8e-9 m; up to 1400 s F within 1.3e-5 N, q 2.7e-8 m, the window's
//! max and min of F within 6.6e-8 N; the checks' tolerances are 0.025–0.1. An explanation whose
//! metric is continuous in the parameter finds the same root (Fig 14's four roots moved by at most
//! 2e-10 relative); one whose metric jumps may settle on another jump (Fig 15's f_peak_to_peak,
//! a minimum over a post-slip transient faster than the samples: 2.5596 → 2.3554 kg, its metric
//! there 1.0108 N within the check's 0.1 N), so the final root is confirmed on whole runs
//! ([`super::solve::solve_confirmed`]: kept where the whole run reproduces the target too, else
//! solved again on whole runs).

use crate::entry::{Entry, ResolvedRun};
use fric_manifest::member::is_run_or_member;
use fric_manifest::{Manifest, PostKind, Window};

/// The latest time the metric `name` of `m` reads from the run `run` (or one of its members):
/// the largest end of the `t` windows of the metrics it is computed from that read `run`, through
/// metrics of metrics (`of`). `None` when one of them reads `run` without a `t` window, or when the
/// metric or one it is computed from is not a declared metric (then the whole run is needed).
/// `Some(f64::NEG_INFINITY)` when it reads nothing of `run`.
pub(super) fn horizon(m: &Manifest, name: &str, run: &str) -> Option<f64> {
    horizon_at(m, name, run, 0)
}

fn horizon_at(m: &Manifest, name: &str, run: &str, depth: usize) -> Option<f64> {
    // The loader refuses cycles of metrics; the depth only bounds a malformed one.
    if depth > m.metrics.len() {
        return None;
    }
    let spec = m.metrics.iter().find(|s| s.name == name)?;
    let reads = |r: &str| r == run || is_run_or_member(r, run) || is_run_or_member(run, r);
    let mut end = f64::NEG_INFINITY;
    let mut read = |r: &str, w: &Option<Window>| -> Option<()> {
        if reads(r) {
            match w {
                Some(Window::Time { t: [_, b] }) if b.is_finite() => end = end.max(*b),
                _ => return None,
            }
        }
        Some(())
    };
    if let Some(r) = &spec.run {
        read(r, &spec.window)?;
    }
    if let Some(o) = &spec.other {
        read(&o.run, &o.window)?;
    }
    match &spec.of {
        Some(ops) => {
            for n in ops.names() {
                end = end.max(horizon_at(m, n, run, depth + 1)?);
            }
        }
        // A metric of no run and no other metric reads nothing of a run only when it is a
        // constant; any other kind might (a fit's or find's result, a sweep's table).
        None if spec.run.is_none() && spec.kind.0 != "constant" => return None,
        None => {}
    }
    Some(end)
}

/// Post steps whose every sample depends only on the samples up to it (a `shear` with a
/// reference `at` checks it against the whole `by` column's range, which a shortened run may not
/// reach).
fn causal(p: &fric_manifest::PostOp) -> bool {
    match p.op {
        PostKind::Shear => p.at.is_none(),
        PostKind::Ewma
        | PostKind::Abs
        | PostKind::CumulativeIntegral
        | PostKind::Scale
        | PostKind::Offset
        | PostKind::Rising
        | PostKind::Gate
        | PostKind::SinceReversal => true,
        // Centred windows and central differences read later samples.
        PostKind::MovingAverage | PostKind::Gradient => false,
    }
}

/// The run `r` ended a hundredth of an input period past `horizon`, on its sample grid, when that
/// is shorter and its data up to `horizon` differ from the whole run's only by the integrator's
/// error (module docs); `None` otherwise.
pub(super) fn shortened(r: &ResolvedRun, horizon: f64) -> Option<Result<ResolvedRun, String>> {
    let req = &r.request;
    let period = req.input.period()?;
    if req.sim.steady_state.is_some() || !r.post.iter().all(causal) || !horizon.is_finite() {
        return None;
    }
    let t_end = req.sim.t_end.unwrap_or_else(|| req.sim.periods.unwrap_or(1.0) * period);
    let spp = req
        .sim
        .samples_per_period
        .unwrap_or(fric_experiments::budget::DEFAULT_SAMPLES) as f64;
    let dt = period / spp;
    let end = ((horizon.max(0.0) + period / 100.0) / dt).ceil() * dt;
    if end >= t_end {
        return None;
    }
    let mut short = r.clone();
    short.request.sim.periods = None;
    short.request.sim.t_end = Some(end);
    Some(crate::overrides::patch(&short, &[]))
}

/// The explanation step's variant `v` with its run `run` (every member) ended at the metric's
/// horizon where [`shortened`] allows it.
pub(super) fn shorten(mut v: Entry, run: &str, horizon: Option<f64>) -> Result<Entry, String> {
    let Some(h) = horizon else { return Ok(v) };
    for (id, r) in v.runs.iter_mut() {
        if !is_run_or_member(id, run) {
            continue;
        }
        if let Some(s) = shortened(r, h) {
            *r = s.map_err(|err| format!("run `{id}` ended at t = {h}: {err}"))?;
        }
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// duhem-paper Figs 14 and 15 as committed: their explained checks' horizons, and the
    /// mass–spring–LuGre run ended past the 400 s horizon has the same samples as the whole run
    /// up to it, to the integrator's error.
    #[test]
    fn the_explained_metrics_of_duhem_fig14_read_the_lugre_run_only_up_to_their_windows() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let sel = crate::selection::selector(&["duhem-paper/fig1[45]".into()]).unwrap();
        let loaded = crate::load::load_selected(&root, sel.as_ref());
        let entry = |id: &str| loaded.entries.iter().find(|e| e.manifest.id == id).unwrap();
        let (e14, e15) = (entry("duhem-paper/fig14"), entry("duhem-paper/fig15"));
        let m = &e14.manifest;
        assert_eq!(horizon(m, "f_after_slip1", "lugre"), Some(220.0));
        assert_eq!(horizon(m, "dq1", "lugre"), Some(220.0));
        assert_eq!(horizon(m, "stick_dfe", "lugre"), Some(400.0));
        assert_eq!(horizon(&e15.manifest, "f_peak_to_peak", "lugre"), Some(1400.0));
        // A metric over input periods, one over another run, one that is not declared.
        assert_eq!(horizon(m, "area", "lugre"), None);
        assert_eq!(horizon(m, "area_plus_dissipated", "lugre"), None);
        assert_eq!(horizon(m, "ev_m2_dq1", "lugre"), Some(f64::NEG_INFINITY));
        assert_eq!(horizon(m, "no_such_metric", "lugre"), None);

        let full = &e14.runs["lugre"];
        let short = shortened(full, 400.0).unwrap().unwrap();
        assert_ne!(short.key, full.key);
        let end = short.request.sim.t_end.unwrap();
        assert!(end > 400.0 && end < 500.0, "{end}");
        let data = |r: &ResolvedRun| {
            let d = crate::compute::compute_run(r).unwrap();
            crate::evaluate::post_process(&d, &r.post).unwrap()
        };
        let (a, b) = (data(full), data(&short));
        let t = a.column("t").unwrap();
        let n = t.iter().take_while(|&&s| s <= 400.0).count();
        assert!(n > 6000 && b.len() > n, "{n} {}", b.len());
        // The columns the explained metrics read, within the integrator's error (measured
        // 5.7e-8 N, 1.8e-9 m, 1.3e-9 m/s on 2026-12-06), far inside the checks' 0.025-0.05.
        for name in ["F", "q", "v"] {
            let (col, other) = (a.column(name).unwrap(), b.column(name).unwrap());
            for k in 0..n {
                let (x, y) = (col[k], other[k]);
                assert!(
                    (x - y).abs() <= 1e-6,
                    "{name}[{k}] at t = {}: {x} whole, {y} ended at {end}",
                    t[k]
                );
            }
        }
        // A run whose post step reads later samples is left whole.
        let mut centred = full.clone();
        centred.post.push(fric_manifest::PostOp {
            name: "F_avg".into(),
            op: PostKind::MovingAverage,
            of: "F".into(),
            param: Some(5.0),
            by: None,
            at: None,
        });
        assert!(shortened(&centred, 400.0).is_none());
        // Nothing to gain past the run's end.
        assert!(shortened(full, 20_000.0).is_none());
    }
}
