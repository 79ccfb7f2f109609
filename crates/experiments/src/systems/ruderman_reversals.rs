//! `ruderman-reversals`: the sequence of reversals by the chosen next-reversal formula,
//! Ruderman (3.10)/(3.13), with the energies of (3.9) and (2.10).

use crate::input::{grid, table};
use crate::ruderman::{check_variant, variant, Friction, VARIANT};
use crate::system::{params, ratio, Column, Group, System, GRID, LINEAR};
use crate::{Invalid, RunData, RunRequest};
use fric_models::ruderman as r;

params! {
    pub struct Params {
        law: Friction = Group(LINEAR),
        a0: f64 = ratio("|F_0|/F_c at the first reversal"),
        variant: f64 = VARIANT,
    }
}

pub struct RudermanReversals;

impl System for RudermanReversals {
    const NAME: &'static str = "ruderman-reversals";
    const DOC: &'static str = "Sequence of reversals from a_0 by the chosen next-reversal formula (Ruderman (3.10)/(3.13)), grid over the index n = 0..N; NaN once the printed formula breaks down. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("n", "1", "reversal index"),
        ("a", "1", "|F_n|/F_c"),
        ("Ep", "J", "potential energy E_p(n), (3.9)"),
        ("Ed", "J", "dissipation E_p(n) - E_p(n+1), (2.10)"),
        ("ratio", "1", "E_p(n+1)/E_p(n)"),
        ("n2Ep", "1", "n^2 E_p(n) / (F_c^2/sigma)"),
        ("dissipated", "1", "sum of E_d over reversals before n, over E_p(0)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    /// The grid is the reversal index n = 0, 1, ..., N.
    fn check(p: &Params, req: &RunRequest, errs: &mut Vec<Invalid>) {
        check_variant(p.variant, errs);
        if let Some((from, to, points)) = crate::inputs::grid_span(&req.input) {
            if from != 0.0 || to.fract() != 0.0 || points as f64 != to + 1.0 {
                errs.push(Invalid::new(
                    "input",
                    "the grid is the reversal index n = 0, 1, ..., N",
                    "{kind: grid, from: 0, to: N, points: N + 1}",
                ));
            }
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let (fc, sigma) = (p.law.fc, p.law.sigma);
        let n = grid(&req.input);
        let unit = fc * fc / sigma;
        let v = variant(p.variant);
        let mut a = vec![p.a0];
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
        Ok(table(vec![
            ("n", n),
            ("a", a),
            ("Ep", ep),
            ("Ed", ed),
            ("ratio", ratio),
            ("n2Ep", n2),
            ("dissipated", dissipated),
        ]))
    }
}
