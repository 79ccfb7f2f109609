//! `ruderman-branch`: the force–displacement branch (3.5) between two reversals.

use crate::input::{grid, table};
use crate::ruderman::{check_variant, variant, Friction, VARIANT};
use crate::system::{params, ratio, Column, Group, System, GRID, LINEAR};
use crate::{Invalid, RunData, RunRequest};
use fric_models::ruderman as r;

params! {
    pub struct Params {
        law: Friction = Group(LINEAR),
        a: f64 = ratio("|F_i|/F_c at reversal i"),
        variant: f64 = VARIANT,
    }
}

pub struct RudermanBranch;

impl System for RudermanBranch {
    const NAME: &'static str = "ruderman-branch";
    const DOC: &'static str = "Force-displacement branch (3.5) between reversal i (F_i = -a F_c) and the next reversal, from the chosen next-reversal formula; grid over the fraction s in [0, 1] of the way. Info: x_i, x_next, a_next, x_ratio = |x_next/x_i|. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("s", "1", "fraction of the way"),
        ("x", "m", "displacement, zero crossing at 0"),
        ("f", "N", "friction force"),
        ("zero", "N", "0, the lower edge of the areas Δ1 and Δ2 of (2.9)"),
        ("f_before", "N", "f on [x_i, x_0] (Δ1), NaN elsewhere"),
        ("f_after", "N", "f on [x_0, x_{i+1}] (Δ2), NaN elsewhere"),
        ("spring", "N", "the conservative reference of (2.6): σ x saturated at ±F_c"),
        ("reversal", "N", "f at the reversals x_i and x_{i+1}, NaN elsewhere"),
        ("crossing", "N", "f at the sample nearest the zero crossing x_0 = 0, NaN elsewhere"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    /// The grid is the fraction of the way between two reversals.
    fn check(p: &Params, req: &RunRequest, errs: &mut Vec<Invalid>) {
        check_variant(p.variant, errs);
        if let Some((from, to, _)) = crate::inputs::grid_span(&req.input) {
            if from < 0.0 || to > 1.0 {
                errs.push(Invalid::new(
                    "input",
                    "the grid is the fraction of the way between two reversals",
                    "from ≥ 0, to ≤ 1",
                ));
            }
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let (fc, sigma, a) = (p.law.fc, p.law.sigma, p.a);
        let s = grid(&req.input);
        let xi = r::branch_start(a, fc, sigma);
        let (xn, an) = r::next_reversal(a, fc, sigma, variant(p.variant))
            .ok_or("the printed (3.13) has a non-positive denominator here")?;
        let x: Vec<f64> = s.iter().map(|s| xi + s * (xn - xi)).collect();
        let f: Vec<f64> = x.iter().map(|&x| r::branch_force(x, fc, sigma)).collect();
        let pick = |keep: &dyn Fn(usize, f64) -> bool| -> Vec<f64> {
            x.iter()
                .zip(&f)
                .enumerate()
                .map(|(k, (&x, &f))| if keep(k, x) { f } else { f64::NAN })
                .collect()
        };
        let n = x.len();
        let nearest = (0..n).min_by(|&a, &b| x[a].abs().total_cmp(&x[b].abs()));
        let cols = vec![
            ("zero", vec![0.0; n]),
            ("f_before", pick(&|_, x| x <= 0.0)),
            ("f_after", pick(&|_, x| x >= 0.0)),
            ("spring", x.iter().map(|&x| (sigma * x).clamp(-fc, fc)).collect()),
            ("reversal", pick(&|k, _| k == 0 || k + 1 == n)),
            ("crossing", pick(&|k, _| Some(k) == nearest)),
        ];
        let mut all = vec![("s", s), ("x", x.clone()), ("f", f.clone())];
        all.extend(cols);
        Ok(table(all).with_info(&[
            ("x_i", xi),
            ("x_next", xn),
            ("a_next", an),
            ("x_ratio", (xn / xi).abs()),
        ]))
    }
}
