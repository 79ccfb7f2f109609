//! `ruderman-oscillator-reversals`: the reversals of the simulated Ruderman oscillator, one row each, with the energy
//! balance (2.10) measured on the trajectory and the exact reversal map.

use crate::input::table;
use crate::invariants::{dahl_bound, Invariant, DAHL_BOUND, DAHL_BOUND_DOC};
use crate::ruderman::{sample_times, simulate_oscillator, OscillatorParams, Sim};
use crate::system::{Column, System, NONE};
use crate::{RunData, RunRequest};
use fric_models::ruderman as r;

pub struct RudermanOscillatorReversals;

impl System for RudermanOscillatorReversals {
    const NAME: &'static str = "ruderman-oscillator-reversals";
    const DOC: &'static str = "The reversals of ruderman-oscillator, one row each: the force F_i at v = 0, the closed-form E_p(F_i) (3.9), the simulated peak kinetic energy of the following half cycle (at the force zero crossing, located as an event), and the exact-map prediction of a_i from a_{i-1}. Invariants: the Dahl force bound on the rows (|F_i| at a reversal is the half cycle's largest); and, inside the run, on the trajectory sampled as ruderman-oscillator samples it (sim.samples_per_period, which does not move a step or an event), the Dahl force bound and the energy balance 0 = change of m v^2/2 + friction work with ruderman-oscillator's derived bound; a violation is the run's error naming the invariant, the time and the sample.";
    type Params = OscillatorParams;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("i", "1", "reversal index"),
        ("t", "s", "time of the reversal"),
        ("x", "m", "position at the reversal"),
        ("F", "N", "force at the reversal"),
        ("a", "1", "|F_i|/F_c"),
        ("Ep", "J", "closed-form potential energy (3.9)"),
        ("Ek_peak", "J", "simulated kinetic energy at the next force zero crossing"),
        ("balance_err", "1", "(Ek_peak - Ep)/Ep"),
        ("a_pred", "1", "exact map of the previous a (NaN for i = 0)"),
        ("map_err", "1", "a - a_pred"),
        ("n2Ep", "1", "i^2 Ep / (F_c^2/sigma)"),
        ("Ed_sim", "J", "dissipation of half cycle i measured on the trajectory: Ek_peak(i) - Ek_peak(i+1)"),
        ("balance_residual", "1", "(Ep(i) - Ed_sim(i) - Ep(i+1))/Ep(i), the residual of (2.10)"),
        ("dissipated", "1", "sum of Ed_sim over the half cycles before i, over Ep(0)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5];
    const INVARIANTS: &'static [Invariant<OscillatorParams>] = &[Invariant {
        name: DAHL_BOUND,
        doc: DAHL_BOUND_DOC,
        check: |p, _, d| dahl_bound(d, "F", p.f0, p.law.fc),
    }];

    fn run(p: &OscillatorParams, req: &RunRequest) -> Result<RunData, String> {
        let (osc, sim) = simulate_oscillator(p, req, &sample_times(req))?;
        check_samples(p, req, &sim, osc.m)?;
        let unit = osc.fc * osc.fc / osc.sigma;
        let mut rows: Vec<[f64; 11]> = Vec::new();
        let mut prev_a = f64::NAN;
        for (k, e) in sim.events.iter().enumerate() {
            if e.0 >= 2 {
                continue;
            }
            let (t, x, f) = (e.1, e.2[0], e.2[2]);
            let a = f.abs() / osc.fc;
            let ep = r::potential_energy(a, osc.fc, osc.sigma);
            // The next force zero crossing after this reversal carries the half cycle's peak speed.
            let Some(z) = sim.events[k + 1..].iter().find(|z| z.0 >= 2) else {
                break;
            };
            if sim.events[k + 1..].iter().take_while(|q| q.1 < z.1).any(|q| q.0 < 2) {
                break;
            }
            let ek = 0.5 * osc.m * z.2[1] * z.2[1];
            let i = rows.len() as f64;
            let pred = if prev_a.is_nan() {
                f64::NAN
            } else {
                r::exact_next(prev_a).1
            };
            rows.push([i, t, x, f, a, ep, ek, (ek - ep) / ep, pred, a - pred, i * i * ep / unit]);
            prev_a = a;
        }
        let names = [
            "i",
            "t",
            "x",
            "F",
            "a",
            "Ep",
            "Ek_peak",
            "balance_err",
            "a_pred",
            "map_err",
            "n2Ep",
        ];
        let mut cols: Vec<(&str, Vec<f64>)> = names
            .iter()
            .enumerate()
            .map(|(c, n)| (*n, rows.iter().map(|r| r[c]).collect()))
            .collect();
        // Dissipation per half cycle measured on the trajectory: the drop of the peak kinetic energy
        // (the total mechanical energy at the force zero crossings), independent of (3.9).
        let ek: Vec<f64> = rows.iter().map(|r| r[6]).collect();
        let ep: Vec<f64> = rows.iter().map(|r| r[5]).collect();
        let ed_sim: Vec<f64> = (0..ek.len())
            .map(|k| ek.get(k + 1).map_or(f64::NAN, |next| ek[k] - next))
            .collect();
        // (2.10): E_p(i) = E_d(i) + E_p(i+1), with E_p from (3.9) and E_d from the trajectory.
        let residual = (0..ep.len())
            .map(|k| {
                ep.get(k + 1)
                    .map_or(f64::NAN, |next| (ep[k] - ed_sim[k] - next) / ep[k])
            })
            .collect();
        let mut acc = 0.0;
        let dissipated = (0..ek.len())
            .map(|k| {
                let d = acc / ep[0];
                if k + 1 < ek.len() {
                    acc += ed_sim[k];
                }
                d
            })
            .collect();
        cols.push(("Ed_sim", ed_sim));
        cols.push(("balance_residual", residual));
        cols.push(("dissipated", dissipated));
        Ok(table(cols).with_info(&[("reversals", rows.len() as f64)]))
}
}

/// ruderman-oscillator's invariants (the Dahl force bound, the energy balance with its derived
/// bound) on the run's samples: a violation is the run's error.
fn check_samples(p: &OscillatorParams, req: &RunRequest, sim: &Sim, m: f64) -> Result<(), String> {
    let col = |i: usize| sim.state.iter().map(|s| s[i]).collect::<Vec<f64>>();
    let d = table(vec![
        ("t", sim.t.clone()),
        ("x", col(0)),
        ("v", col(1)),
        ("F", col(2)),
        ("Ek", sim.state.iter().map(|s| 0.5 * m * s[1] * s[1]).collect()),
        ("W_f", sim.w_f.clone()),
        ("W_in", vec![0.0; sim.t.len()]),
    ])
    .with_info(&[("steps", sim.steps as f64)]);
    let inner = |name: &str, e: crate::invariants::Violation| format!("invariant `{name}` broken on the run's samples {e}");
    dahl_bound(&d, "F", p.f0, p.law.fc).map_err(|e| inner(DAHL_BOUND, e))?;
    super::ruderman_oscillator::check_energy(p, req, &d).map_err(|e| inner("energy-balance", e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ParamSet;
    use fric_manifest::{InputSpec, ParamValue, SimSpec};

    /// Ruderman Fig 7's `rev` run at σ/F_c = 100 (m = 1 L76, F_c = 1, v0 = −1), 10 s.
    fn request() -> RunRequest {
        let params = [("m", 1.0), ("fc", 1.0), ("sigma", 100.0), ("v0", -1.0)]
            .iter()
            .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
            .collect();
        let sim = SimSpec {
            t_end: Some(10.0),
            ..Default::default()
        };
        crate::resolve("ruderman-oscillator-reversals", &params, Some(&InputSpec::new("none", [])), Some(&sim)).unwrap()
    }

    /// The run holds its invariants; a row's force past F_c breaks the declared Dahl bound at
    /// that row's time; inside the run, a sample's force past F_c and the friction work
    /// integrated from a force 0.1 % off the one acting are errors naming the invariant.
    #[test]
    fn invariants_hold_and_a_perturbed_run_fails() {
        let req = request();
        let p = OscillatorParams::read(&req.params);
        let d = RudermanOscillatorReversals::run(&p, &req).unwrap();
        assert!(d.info["reversals"] > 10.0, "{:?}", d.info);
        let bound = &RudermanOscillatorReversals::INVARIANTS[0];
        (bound.check)(&p, &req, &d).unwrap();
        let mut bad = d.clone();
        let f = bad.columns.iter_mut().find(|c| c.0 == "F").unwrap();
        f.1[3] = 1.001 * f.1[3].signum();
        let e = (bound.check)(&p, &req, &bad).unwrap_err();
        assert_eq!(e.t, d.column("t").unwrap()[3], "{e}");

        let samples = sample_times(&req);
        let (osc, mut sim) = crate::ruderman::simulate_reporting(&p, &req, &samples, 1.0).unwrap();
        check_samples(&p, &req, &sim, osc.m).unwrap();
        let k = sim.state.len() / 2;
        sim.state[k][2] = 1.001;
        let e = check_samples(&p, &req, &sim, osc.m).unwrap_err();
        assert!(e.contains("`force-bound`") && e.contains(&format!("at t = {} s", sim.t[k])), "{e}");
        let (osc, sim) = crate::ruderman::simulate_reporting(&p, &req, &samples, 1.001).unwrap();
        let e = check_samples(&p, &req, &sim, osc.m).unwrap_err();
        assert!(e.contains("`energy-balance`") && e.contains("friction work"), "{e}");
    }
}
