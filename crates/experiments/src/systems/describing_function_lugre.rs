//! `describing-function-lugre`: the describing function of LuGre friction in the report's first
//! or third decomposition (§5.3, Figs 5.16, 5.17, 5.25–5.27), from periodic steady states.

use crate::describing::{self, DfSetup};
use crate::system::{invalid, nonneg, params, positive, Column, Group, System, GRID, LINEAR};
use crate::methods::{Method, Methods};
use crate::{Invalid, RunData, RunRequest};
use fric_models::lugre::LuGre;

params! {
    pub struct Params {
        setup: DfSetup = Group(LINEAR),
        j: f64 = positive("kg-m^2", "inertia J (approach 3)"),
        sigma0: f64 = positive("N-m/rad", "LuGre σ0"),
        sigma1: f64 = nonneg("N-m-s/rad", "LuGre σ1"),
        v0: f64 = positive("rad/s", "Stribeck velocity v0"),
        alpha0: f64 = positive("N-m", "Coulomb level α0"),
        alpha1: f64 = nonneg("N-m", "stiction excess α1"),
        alpha2: f64 = nonneg("N-m-s/rad", "viscous friction α2 on the inertia (approach 3; in approach 1 it belongs to the linear part and must be 0)"),
    }
}

pub struct DescribingFunctionLuGre;

impl System for DescribingFunctionLuGre {
    const NAME: &'static str = "describing-function-lugre";
    const DOC: &'static str = "Describing function N(a, ω) = (b1 + i a1)/a (report (5.8)-(5.9)) of LuGre friction (3.4), g = α0 + α1 exp(−(v/v0)²), for the amplitudes of the input grid at ω: approach 1 drives the law by the velocity a sin ωt and takes the fundamental of F = σ0 z + σ1 z'; approach 3 drives the inertia J θ'' = u − α2 θ' − F by the torque a sin ωt and takes the fundamental of θ with its drift removed. Approach 1 by default by exponential integration (method exponential): the periodic state in closed form from one pass over the period, z* = y(T)/(1 − G(T)) (y from z = 0, G the pass's gain; no shooting, multiplier G(T)), the Fourier integrals by adaptive Gauss–Kronrod along every step's dense output, local error rtol (default 1e-8) times the state scale fs/σ0. Otherwise (approach 3, or approach 1 with an ODE method) each point is the periodic steady state reached from rest, by shooting to a residual of 1e-10 (Newton handing over to plain periods where the residual stops halving between Jacobians; Radau IIA, rtol 1e-8 unless sim.rtol says otherwise; the gap limits agree to 1e-12 between rtol 1e-8 and 1e-11, but the points next to a gap are ill-conditioned: report Figs 5.25-5.27 declare rtol 1e-10, the coarsest at which their crossings stay put at 1e-11), an orbit with a Floquet multiplier above 1 being rejected for the simulation from rest continued until it leaves that orbit (its lingering there advanced in closed form along the orbit's unstable Floquet eigenvector) or for 128 periods; jumps of N between grid points are bisected to 1e-12 relative (a jump that survives is a gap, info gapK_lo/hi, and breaks the curve with a NaN row). With the linear part h_num/h_den: the first crossing of Re(−1/N) with Re H(iω) (info cross_a, cross_above = Im(−1/N) − Im H(iω), cross_in_gap) and, with omega_lo < omega_hi and a_lo < a_hi, the solution of H(iω) N(a, ω) = −1 (info intersection_omega, intersection_a). Invariants: the output (N per amplitude) has no samples, so every computed point's periodic orbit is checked inside the run on 256 samples (by shooting: its period integrated once more from its start, both sides of every event; by exponential integration: z = y + z* G from the one pass's dense output, no second pass): the LuGre bristle bound |z| <= max(|z(0)|, max(alpha0, alpha0 + alpha1)/sigma0) (report Property 3.4, L955-957) in both approaches, and in approach 3 the inertia's energy balance (input work = friction work, viscous included, + change of J theta'^2/2, to the bound derived from the solver's tolerance, experiments/src/energy_balance.rs); a violation is the run's error naming the invariant, a, omega, the time in the period and the sample (info orbit_balance_ratio: the largest residual over its bound).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = describing::COLUMNS;
    const METHODS: Methods = &[Method::Radau5, Method::Rosenbrock23, Method::Dopri5, Method::Dop853Radau5, Method::Exponential];
    const DEFAULT_METHOD_NOTE: &'static str = "exponential for approach 1";

    /// Approach 1 drives the law by a prescribed velocity, where LuGre is affine in z: by
    /// exponential integration, its periodic state in closed form (`describing/exponential.rs`).
    fn default_method(p: &Params) -> Option<Method> {
        (p.setup.approach == 1.0).then_some(Method::Exponential)
    }

    fn check(p: &Params, req: &RunRequest, errs: &mut Vec<Invalid>) {
        p.setup.check(errs);
        if p.setup.approach == 1.0 && p.alpha2 != 0.0 {
            errs.push(invalid("alpha2", "viscous friction in approach 1", "0 (it belongs to the linear part H1)"));
        }
        if req.method == Method::Exponential && p.setup.approach != 1.0 {
            errs.push(invalid(
                "approach",
                "method exponential integrates the law under a prescribed velocity (approach 1); approach 3 drives an inertia",
                "approach 1 (or method radau5, rosenbrock23, dopri5, dop853-radau5)",
            ));
        }
    }

    fn cost(p: &Params, req: &RunRequest) -> f64 {
        p.setup.cost(Some((p.sigma0 / p.j).sqrt()), req)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let law = LuGre {
            sigma0: p.sigma0,
            sigma1: p.sigma1,
            sigma2: 0.0,
            fc: p.alpha0,
            fs: p.alpha0 + p.alpha1,
            vs: p.v0,
        };
        describing::run_law(&p.setup, p.j, p.alpha2, law, req)
    }
}
