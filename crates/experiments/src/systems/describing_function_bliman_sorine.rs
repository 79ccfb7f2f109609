//! `describing-function-bliman-sorine`: the describing function of Bliman & Sorine friction in
//! the report's first or third decomposition (§5.3, Figs 5.14, 5.15, 5.22–5.24), from periodic
//! steady states.

use crate::describing::{self, DfSetup};
use crate::laws::BlimanSorineLaw;
use crate::system::{invalid, nonneg, params, positive, Column, Group, System, GRID, LINEAR, ROTARY};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        setup: DfSetup = Group(LINEAR),
        law: BlimanSorineLaw = Group(ROTARY),
        j: f64 = positive("kg-m^2", "inertia J (approach 3)"),
        alpha: f64 = nonneg("N-m-s/rad", "viscous friction α on the inertia (approach 3; in approach 1 it belongs to the linear part and must be 0)"),
    }
}

pub struct DescribingFunctionBlimanSorine;

impl System for DescribingFunctionBlimanSorine {
    const NAME: &'static str = "describing-function-bliman-sorine";
    const DOC: &'static str = "Describing function N(a, ω) = (b1 + i a1)/a (report (5.8)-(5.9)) of Bliman & Sorine friction (2.12) for the amplitudes of the input grid at ω: approach 1 drives the law by the velocity a sin ωt and takes the fundamental of F = x1 + x2; approach 3 drives the inertia J θ'' = u − α θ' − F by the torque a sin ωt and takes the fundamental of θ with its drift removed (the inertia may break away in one direction only). In approach 3 the friction is exact along the path between velocity reversals (2.25): events θ' = 0, also looked for at 8 interior points of every step, since the pre-sliding ringing can reverse θ' twice within one step. Each point is the periodic steady state reached from rest (zero state, L656), by shooting to a residual of 1e-10 (Newton handing over to plain periods where the residual stops halving between Jacobians; by default Radau IIA, rtol 1e-8, the report's approach-3 manifests choosing DOP853, or at ω = 0.1 DOP853 switched to Radau IIA by stiffness, with their reasons; the points next to a gap are ill-conditioned in rtol, see describing-function-lugre), an orbit with a Floquet multiplier above 1 being rejected for the simulation from rest continued until it leaves that orbit (its lingering there advanced in closed form along the orbit's unstable Floquet eigenvector) or for 128 periods; jumps, gaps, crossings and the intersection as for describing-function-lugre. Invariants: the output (N per amplitude) has no samples, so every computed point's periodic orbit is checked inside the run (its period integrated once more from its start, 256 samples, both sides of every event): the report states no bound and no sign rule for B&S (§2.2-2.9), but its solution (2.25) of (2.12) for a constant sgn v (L591-594) moves x1 and x2 monotonically towards f1 sgn v and -f2 sgn v, so |x1| <= max(|x1(0)|, f1) and |x2| <= max(|x2(0)|, f2) (`state-bound`, both approaches; in approach 3 on the states advanced along the path); in approach 3 also the inertia's energy balance (input work = friction work, viscous included, + change of J theta'^2/2, to the bound derived from the solver's tolerance); a violation is the run's error naming the invariant, a, omega, the time in the period and the sample (info orbit_balance_ratio).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = describing::COLUMNS;
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Radau5, crate::methods::Method::Rosenbrock23, crate::methods::Method::Dopri5, crate::methods::Method::Dop853, crate::methods::Method::Dop853Radau5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.setup.check(errs);
        p.law.check(errs);
        if p.setup.approach == 1.0 && p.alpha != 0.0 {
            errs.push(invalid("alpha", "viscous friction in approach 1", "0 (it belongs to the linear part H1)"));
        }
    }

    fn cost(p: &Params, req: &RunRequest) -> f64 {
        p.setup.cost(Some((p.law.model().sigma() / p.j).sqrt()), req)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let law = p.law.model();
        if p.setup.approach == 3.0 {
            let path = describing::BlimanSorinePath {
                j: p.j,
                alpha: p.alpha,
                law,
            };
            return describing::run(&p.setup, &path, req);
        }
        describing::run_law(&p.setup, p.j, p.alpha, law, req)
    }
}
