//! `ruderman-oscillator`: the unforced pre-sliding oscillator of Ruderman (2.1) with (3.4), sampled in time with
//! the friction power integrated since the last reversal (2.8).

use crate::input::table;
use crate::ruderman::{sample_times, simulate_oscillator, OscillatorParams};
use crate::system::{Column, System, NONE};
use crate::{RunData, RunRequest};

pub struct RudermanOscillator;

impl System for RudermanOscillator {
    const NAME: &'static str = "ruderman-oscillator";
    const DOC: &'static str = "Unforced pre-sliding oscillator m x'' + F = 0 with Dahl (gamma = 1) friction, Ruderman (2.1) with (3.4): x' = v, v' = -F/m, F' = sigma (v - |v| F/F_c); restarted at every reversal (v = 0, located as an event). E_f is the integrated power since the last reversal (2.8).";
    type Params = OscillatorParams;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("x", "m", "position"),
        ("v", "m/s", "velocity"),
        ("F", "N", "friction force"),
        ("Ek", "J", "kinetic energy m v^2/2"),
        ("Ef", "J", "integral of F v dt since the last reversal"),
        ("E_abs", "J", "|E_f|"),
    ];
    const METHODS: crate::methods::Methods = &[&crate::methods::DOPRI5];
    const INVARIANTS: &'static [crate::invariants::Invariant<OscillatorParams>] = &[crate::invariants::Invariant {
        name: crate::invariants::DAHL_BOUND,
        doc: crate::invariants::DAHL_BOUND_DOC,
        check: |p, _, d| crate::invariants::dahl_bound(d, "F", p.f0, p.law.fc),
    }];

    fn run(p: &OscillatorParams, req: &RunRequest) -> Result<RunData, String> {
        let (osc, sim) = simulate_oscillator(p, req, &sample_times(req))?;
        // E_f = ∫ F v dt since the last reversal, integrated between samples by the trapezoid rule
        // and restarted at each reversal (v = 0 events, guards 0 and 1).
        let reversals: Vec<f64> = sim.events.iter().filter(|e| e.0 < 2).map(|e| e.1).collect();
        let mut ef = Vec::with_capacity(sim.t.len());
        let mut acc = 0.0;
        let mut next = 0;
        for k in 0..sim.t.len() {
            if k > 0 {
                let p0 = sim.state[k - 1][2] * sim.state[k - 1][1];
                let p1 = sim.state[k][2] * sim.state[k][1];
                // A reversal between the samples restarts the integral there (power is 0 at v = 0).
                if next < reversals.len() && reversals[next] <= sim.t[k] {
                    let tr = reversals[next];
                    while next < reversals.len() && reversals[next] <= sim.t[k] {
                        next += 1;
                    }
                    acc = 0.5 * p1 * (sim.t[k] - tr);
                } else {
                    acc += 0.5 * (p0 + p1) * (sim.t[k] - sim.t[k - 1]);
                }
            }
            ef.push(acc);
        }
        let col = |i: usize| sim.state.iter().map(|s| s[i]).collect::<Vec<f64>>();
        let ek: Vec<f64> = sim.state.iter().map(|s| 0.5 * osc.m * s[1] * s[1]).collect();
        let abs: Vec<f64> = ef.iter().map(|e| e.abs()).collect();
        Ok(table(vec![
            ("t", sim.t.clone()),
            ("x", col(0)),
            ("v", col(1)),
            ("F", col(2)),
            ("Ek", ek),
            ("Ef", ef),
            ("E_abs", abs),
        ])
        .with_info(&[("reversals", reversals.len() as f64)]))
}
}
