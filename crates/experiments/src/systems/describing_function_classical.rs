//! `describing-function-classical`: the describing function of the classical static friction
//! model with exact stick in the report's third decomposition (§5.3, Fig 5.21).

use crate::describing::{self, ClassicalStick, DfSetup};
use crate::system::{invalid, nonneg, params, positive, Column, Group, System, GRID, LINEAR};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        setup: DfSetup = Group(LINEAR),
        j: f64 = positive("kg-m^2", "inertia J"),
        tau_s: f64 = positive("N-m", "stiction τ_s"),
        tau_k: f64 = positive("N-m", "kinetic level τ_k (≤ τ_s)"),
        alpha: f64 = nonneg("N-m-s/rad", "viscous friction α"),
    }
}

pub struct DescribingFunctionClassical;

impl System for DescribingFunctionClassical {
    const NAME: &'static str = "describing-function-classical";
    const DOC: &'static str = "Describing function N(a, ω) = (b1 + i a1)/a (report (5.8)-(5.9)) of the inertia J θ'' = u − τ_k sgn θ' − α θ' with exact stick (θ' held at 0 while |u| ≤ τ_s, event-driven) under the torque u = a sin ωt, from the fundamental of θ with its drift removed: the third decomposition only (the first is impossible for this model, L1901). Below break-away (a ≤ τ_s) θ never moves and N = 0 (−1/N infinite, NaN in re/im). Each point is the periodic steady state from rest by shooting on θ' (DOP853, rtol 1e-8); jumps, crossings and the intersection as for describing-function-lugre. Invariants: the output (N per amplitude) has no samples, so every computed point's periodic orbit is checked inside the run (its period integrated once more from its start, 256 samples, both sides of every event): friction opposes sliding (report (1.2)-(1.4): the kinetic level tau_k s acts against theta' on every sample with |theta'| above the solver's atol, s the sliding mode) except the located state before an event's update, which the locator puts just past the slide's end; the inertia's energy balance (input work = friction work + change of J theta'^2/2, to the bound derived from the solver's tolerance; enforced since the works' quadrature became the five-point Gauss rule, experiments/src/describing/orbit_checks.rs); a violation is the run's error naming the invariant, a, omega, the time in the period and the sample (info orbit_balance_ratio).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = describing::COLUMNS;
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dop853, crate::methods::Method::Dopri5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.setup.check(errs);
        if p.setup.approach != 3.0 {
            errs.push(invalid("approach", "the classical model has no velocity-input DF (L1901)", "3"));
        }
        if p.tau_k > p.tau_s {
            errs.push(invalid("tau_k", format!("τ_k = {} exceeds τ_s = {}", p.tau_k, p.tau_s), "tau_k ≤ tau_s"));
        }
    }

    fn cost(p: &Params, req: &RunRequest) -> f64 {
        p.setup.cost(None, req)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let sys = ClassicalStick {
            j: p.j,
            alpha: p.alpha,
            tau_s: p.tau_s,
            tau_k: p.tau_k,
        };
        describing::run(&p.setup, &sys, req)
    }
}
