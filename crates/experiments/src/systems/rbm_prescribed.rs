//! `rbm-prescribed`: the rotating bristle model (RBM, contact sets as a per-bristle state
//! machine) or the discontinuous rotating bristle model (DRBM) along a prescribed path
//! `x = u(t)`, thesis Figs 3.3 and 3.6.

use crate::drive::periodic_plan;
use crate::input::signal;
use crate::laws::BristleRow;
use crate::system::{between, nonneg, params, Column, System, PRESCRIBED, Group, LINEAR};
use crate::{Invalid, RunData, RunRequest};
use fric_models::rbm::{Rbm, Sawtooth, Side};
use fric_solvers::roots;
use std::convert::Infallible;

params! {
    pub struct Params {
        row: BristleRow = Group(LINEAR),
        drbm: f64 = between("1", 0.0, 2.0, "0: RBM (3.7)-(3.9) with the contact-set state machine; 1: DRBM (3.13)-(3.16); 2: sawtooth (3.47)-(3.49) with period delta").default(0.0),
        f_min: f64 = nonneg("N", "sawtooth F_min (drbm = 2)").default(0.0),
        f_max: f64 = nonneg("N", "sawtooth F_max (drbm = 2)").default(0.0),
    }
}

pub struct RbmPrescribed;

impl System for RbmPrescribed {
    const NAME: &'static str = "rbm-prescribed";
    const DOC: &'static str = "Rotating bristle model, thesis ch. III: friction (3.7)-(3.9) of a body moved along x = u(t) over a row of rigid bristles; RBM contact sets from a per-bristle state machine (Tables 3.1-3.2 generalised), or the DRBM (3.13)-(3.16). The state machine is advanced in substeps of at most Δ/4 with the input's turning points inserted.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("x", "m", "position (the input)"),
        ("v", "m/s", "velocity"),
        ("F", "N", "friction force F_f = F_f^l + F_f^r"),
        ("Fl", "N", "left-corner force F_f^l"),
        ("Fr", "N", "right-corner force F_f^r"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Exact];
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: crate::invariants::BRISTLE_WINDOWS,
        doc: "RBM and DRBM (drbm < 1.5; the sawtooth of (3.47)-(3.49) has no bristles): 0 <= F_f^r <= n kappa theta_max/h and -n kappa theta_max/h <= F_f^l <= 0, the window bound of every rotating-bristle run (experiments/src/invariants.rs BRISTLE_WINDOWS_DOC: Table 3.1, (3.14), (3.16), (3.17) L997, (3.6)-(3.8))",
        check: |p, _, d| {
            if p.drbm > 1.5 {
                return Ok(());
            }
            crate::invariants::corner_forces(d, p.row.corner_bound())
        },
    }];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.row.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let b = p.row.bristles();
        let sig = signal(req)?;
        crate::drive::no_shooting(req)?;
        let (plan, steady) = periodic_plan(req, &sig);
        if steady.is_some() {
            return Err("rbm-prescribed runs for `periods` or `t_end`".into());
        }
        let (a, e) = plan.record;
        let n = (((e - a) / plan.period) * plan.samples_per_period as f64).round().max(1.0) as usize;
        let times = sig.sample_times(a, e, n);
        let mut cols: [Vec<f64>; 6] = Default::default();
        let mut push = |t: f64, x: f64, fl: f64, fr: f64| {
            cols[0].push(t);
            cols[1].push(x);
            cols[2].push(sig.deriv(t));
            cols[3].push(fl + fr);
            cols[4].push(fl);
            cols[5].push(fr);
        };
        if p.drbm > 1.5 {
            let w = Sawtooth {
                f_min: p.f_min,
                f_max: p.f_max,
                delta: p.row.delta,
            };
            for &t in &times {
                let x = sig.value(t);
                let f = w.force(sig.deriv(t), x);
                let (fl, fr) = if sig.deriv(t) >= 0.0 { (0.0, f) } else { (f, 0.0) };
                push(t, x, fl, fr);
            }
        } else if p.drbm > 0.5 {
            for &t in &times {
                let x = sig.value(t);
                let f = if sig.deriv(t) >= 0.0 {
                    b.drbm(Side::Plus, x)
                } else {
                    b.drbm(Side::Minus, x)
                };
                let (fl, fr) = if sig.deriv(t) >= 0.0 { (0.0, f) } else { (f, 0.0) };
                push(t, x, fl, fr);
            }
        } else {
            let x0 = sig.value(a);
            let span = times.iter().map(|&t| (sig.value(t) - x0).abs()).fold(0.0, f64::max);
            let mut rbm = Rbm::new(b, x0, span + p.row.d, sig.deriv(a) >= 0.0);
            let mut tp = a;
            let mut turns = 0usize;
            for &t in &times {
                // Substeps with |dx| ≤ Δ/4; a sign change of the velocity inside a substep is
                // located by bisection and the turning point visited.
                let vmax = times_vmax(&sig, tp, t);
                let k = ((vmax * (t - tp)) / (p.row.delta / 4.0)).ceil().max(1.0) as usize;
                for j in 1..=k {
                    let (s0, s1) = (tp + (t - tp) * (j - 1) as f64 / k as f64, tp + (t - tp) * j as f64 / k as f64);
                    let (d0, d1) = (sig.deriv(s0), sig.deriv(s1));
                    if d0 * d1 < 0.0 {
                        let side = |m: f64| {
                            let before = sig.deriv(m) * d0 > 0.0;
                            Ok::<_, Infallible>(if before { roots::Side::Lo } else { roots::Side::Hi })
                        };
                        let Ok((lo, hi)) = roots::bisect(side, s0, s1, 0.0, 60);
                        rbm.advance(sig.value(0.5 * (lo + hi)));
                        turns += 1;
                    }
                    rbm.advance(sig.value(s1));
                }
                tp = t;
                let (fl, fr) = rbm.friction();
                push(t, rbm.x, fl, fr);
            }
            let c = rbm.census();
            let mut data = data_of(cols, plan.input_period);
            data.info.insert("turns".into(), turns as f64);
            data.info.insert("flat_plus".into(), c[3] as f64);
            data.info.insert("flat_minus".into(), c[4] as f64);
            data.info.insert("d0".into(), b.d0());
            return Ok(data);
        }
        let mut data = data_of(cols, plan.input_period);
        data.info.insert("d0".into(), b.d0());
        Ok(data)
    }
}

/// A bound on |u'| over `[t0, t1]` from its values at both ends and the midpoint (plus margin).
fn times_vmax(sig: &fric_models::signal::Signal, t0: f64, t1: f64) -> f64 {
    let m = sig.deriv(t0).abs().max(sig.deriv(t1).abs()).max(sig.deriv(0.5 * (t0 + t1)).abs());
    2.0 * m + 1e-12
}

fn data_of(cols: [Vec<f64>; 6], period: Option<f64>) -> RunData {
    let names = ["t", "x", "v", "F", "Fl", "Fr"];
    RunData {
        columns: names.iter().map(|s| s.to_string()).zip(cols).collect(),
        period,
        ..Default::default()
    }
}
