//! `ruderman-oscillator-reversals`: the reversals of the simulated Ruderman oscillator, one row each, with the energy
//! balance (2.10) measured on the trajectory and the exact reversal map.

use crate::input::table;
use crate::ruderman::{simulate_oscillator, OscillatorParams};
use fric_models::ruderman as r;
use crate::system::{Column, System, NONE};
use crate::{RunData, RunRequest};

pub struct RudermanOscillatorReversals;

impl System for RudermanOscillatorReversals {
    const NAME: &'static str = "ruderman-oscillator-reversals";
    const DOC: &'static str = "The reversals of ruderman-oscillator, one row each: the force F_i at v = 0, the closed-form E_p(F_i) (3.9), the simulated peak kinetic energy of the following half cycle (at the force zero crossing, located as an event), and the exact-map prediction of a_i from a_{i-1}. Invariants: none declared (one row per reversal; the Dahl force bound is checked on ruderman-oscillator's samples).";
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
    const METHODS: crate::methods::Methods = &[&crate::methods::DOPRI5];

    fn run(p: &OscillatorParams, req: &RunRequest) -> Result<RunData, String> {
        let (osc, sim) = simulate_oscillator(p, req, &[])?;
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
