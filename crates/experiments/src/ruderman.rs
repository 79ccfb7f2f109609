//! Runners of the Ruderman systems: analytic curves and the simulated oscillator.

use crate::{RunData, RunRequest};
use fric_models::ruderman::{self as r, Variant};
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{Method, Tolerances};
use std::cell::RefCell;

fn table(cols: Vec<(&str, Vec<f64>)>, info: Vec<(&str, f64)>) -> RunData {
    RunData {
        columns: cols.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
        period: None,
        info: info.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
    }
}

fn variant(req: &RunRequest) -> Variant {
    match req.scalar("variant") as i64 {
        1 => Variant::Corrected,
        2 => Variant::Printed,
        _ => Variant::Exact,
    }
}

pub fn potential(req: &RunRequest, grid: Vec<f64>) -> RunData {
    let (fc, sigma) = (req.scalar("fc"), req.scalar("sigma"));
    let ep = grid.iter().map(|&a| r::potential_energy(a, fc, sigma)).collect();
    table(
        vec![("a", grid), ("Ep", ep)],
        vec![
            ("max_Ep", r::max_potential_energy(fc, sigma)),
            ("bound", fc * fc / (2.0 * sigma)),
        ],
    )
}

pub fn omega(req: &RunRequest, x: Vec<f64>) -> RunData {
    let (fc, sigma, a) = (req.scalar("fc"), req.scalar("sigma"), req.scalar("a"));
    let k = r::omega_linear_slope(a, fc, sigma);
    let om = x.iter().map(|&x| r::omega(x, fc, sigma)).collect();
    let lin = x.iter().map(|&x| 1.0 - k * x).collect();
    let xn = r::exact_next(a).0 * fc / sigma;
    let gap = (1.0 - k * xn - r::omega(xn, fc, sigma)).abs();
    table(
        vec![("x", x), ("omega", om), ("omega_lin", lin)],
        vec![("x_next", xn), ("gap", gap)],
    )
}

pub fn branch(req: &RunRequest, s: Vec<f64>) -> Result<RunData, String> {
    let (fc, sigma, a) = (req.scalar("fc"), req.scalar("sigma"), req.scalar("a"));
    let xi = r::branch_start(a, fc, sigma);
    let (xn, an) =
        r::next_reversal(a, fc, sigma, variant(req)).ok_or("the printed (3.13) has a non-positive denominator here")?;
    let x: Vec<f64> = s.iter().map(|s| xi + s * (xn - xi)).collect();
    let f = x.iter().map(|&x| r::branch_force(x, fc, sigma)).collect();
    Ok(table(
        vec![("s", s), ("x", x), ("f", f)],
        vec![
            ("x_i", xi),
            ("x_next", xn),
            ("a_next", an),
            ("x_ratio", (xn / xi).abs()),
        ],
    ))
}

pub fn reversals(req: &RunRequest, n: Vec<f64>) -> RunData {
    let (fc, sigma) = (req.scalar("fc"), req.scalar("sigma"));
    let unit = fc * fc / sigma;
    let v = variant(req);
    let mut a = vec![req.scalar("a0")];
    for _ in 1..n.len() {
        let last = *a.last().unwrap();
        a.push(if last.is_nan() {
            f64::NAN
        } else {
            r::next_reversal(last, fc, sigma, v).map_or(f64::NAN, |x| x.1)
        });
    }
    let ep: Vec<f64> = a.iter().map(|&a| r::potential_energy(a, fc, sigma)).collect();
    let ed: Vec<f64> = (0..ep.len())
        .map(|k| ep.get(k + 1).map_or(f64::NAN, |next| ep[k] - next))
        .collect();
    let ratio = (0..ep.len())
        .map(|k| ep.get(k + 1).map_or(f64::NAN, |next| next / ep[k]))
        .collect();
    let n2 = n.iter().zip(&ep).map(|(n, e)| n * n * e / unit).collect();
    let mut acc = 0.0;
    let dissipated = (0..ep.len())
        .map(|k| {
            let d = acc / ep[0];
            if k < ed.len() {
                acc += ed[k];
            }
            d
        })
        .collect();
    table(
        vec![
            ("n", n),
            ("a", a),
            ("Ep", ep),
            ("Ed", ed),
            ("ratio", ratio),
            ("n2Ep", n2),
            ("dissipated", dissipated),
        ],
        vec![],
    )
}

/// The oscillator as a one-mode hybrid system whose guards are the sign changes of v (reversals)
/// and of F (peak kinetic energy); the jumps change nothing but record the state.
struct Oscillator {
    m: f64,
    sigma: f64,
    fc: f64,
    events: RefCell<Vec<(usize, f64, [f64; 3])>>,
}

impl HybridSystem for Oscillator {
    type Mode = ();
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _: (), _t: f64, x: &[f64], dx: &mut [f64]) {
        let (v, f) = (x[1], x[2]);
        dx[0] = v;
        dx[1] = -f / self.m;
        dx[2] = self.sigma * (v - v.abs() * f / self.fc);
    }
    fn n_guards(&self, _: ()) -> usize {
        4
    }
    fn guards(&self, _: (), _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[1];
        g[1] = -x[1];
        g[2] = x[2];
        g[3] = -x[2];
    }
    fn jump(&self, _: (), guard: usize, t: f64, x: &mut [f64]) {
        // The event defines the crossing variable as zero: set it exactly, so that the restarted
        // integration does not see the same crossing again from a residue of the root finder.
        x[if guard < 2 { 1 } else { 2 }] = 0.0;
        self.events.borrow_mut().push((guard, t, [x[0], x[1], x[2]]));
    }
}

struct Sim {
    t: Vec<f64>,
    state: Vec<[f64; 3]>,
    events: Vec<(usize, f64, [f64; 3])>,
}

fn simulate_oscillator(req: &RunRequest, samples: &[f64]) -> Result<(Oscillator, Sim), String> {
    let osc = Oscillator {
        m: req.scalar("m"),
        sigma: req.scalar("sigma"),
        fc: req.scalar("fc"),
        events: RefCell::new(Vec::new()),
    };
    let t_end = req.sim.t_end.ok_or("t_end")?;
    let period = 2.0 * std::f64::consts::PI * (osc.m / osc.sigma).sqrt();
    let tol = Tolerances {
        rtol: req.sim.rtol.unwrap_or(1e-11),
        atol: req.sim.atol.unwrap_or(1e-14),
        hmax: period / 50.0,
        ..Default::default()
    };
    let mut sim = Sim {
        t: Vec::new(),
        state: Vec::new(),
        events: Vec::new(),
    };
    let x0 = [req.scalar("x0"), req.scalar("v0"), req.scalar("f0")];
    simulate(
        &osc,
        (),
        Method::Dopri5,
        &tol,
        0.0,
        &x0,
        t_end,
        samples,
        1_000_000,
        &mut |t, _, x| {
            sim.t.push(t);
            sim.state.push([x[0], x[1], x[2]]);
        },
    )
    .map_err(|e| e.to_string())?;
    sim.events = osc.events.borrow().clone();
    Ok((osc, sim))
}

fn sample_times(req: &RunRequest) -> Vec<f64> {
    let t_end = req.sim.t_end.unwrap_or(1.0);
    let n = req.sim.samples_per_period.unwrap_or(20_000);
    (0..=n).map(|i| t_end * i as f64 / n as f64).collect()
}

pub fn oscillator(req: &RunRequest) -> Result<RunData, String> {
    let (osc, sim) = simulate_oscillator(req, &sample_times(req))?;
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
    Ok(table(
        vec![
            ("t", sim.t.clone()),
            ("x", col(0)),
            ("v", col(1)),
            ("F", col(2)),
            ("Ek", ek),
            ("Ef", ef),
            ("E_abs", abs),
        ],
        vec![("reversals", reversals.len() as f64)],
    ))
}

pub fn oscillator_reversals(req: &RunRequest) -> Result<RunData, String> {
    let (osc, sim) = simulate_oscillator(req, &[])?;
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
    Ok(table(cols, vec![("reversals", rows.len() as f64)]))
}
