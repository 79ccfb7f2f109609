//! Describing-function runs (report §5.3): a friction law in one of the report's decompositions,
//! its DF `N(a, ω)` on a grid of amplitudes, the jumps of the DF refined by bisection, and the
//! crossings with a linear part `H(iω)` and the harmonic-balance intersection in `(a, ω)`.
//! The numerics are [`fric_solvers::describing`]'s; this module wraps the laws and writes columns.
//!
//! Files: this one holds the run's setup ([`DfSetup`]), its columns (declared once by
//! `df_columns!`: [`COLUMNS`] and the [`Row`] the run fills) and the linear part
//! ([`response`]); `plants.rs` the forced systems (a law driven by its velocity or, on an
//! inertia, by a torque; the Bliman–Sorine path model; the classical stick); `run.rs` the run
//! itself ([`run`]): the DF curve, its gaps, the drift regions, the crossings and the
//! intersection search (its unit tests in `run_tests.rs`); `exponential.rs` approach 1's points
//! by exponential integration, the periodic state in closed form (its default where the law is
//! affine along the input: LuGre); `holes.rs` the drawn curve broken
//! where an uncomputed amplitude lies between two of its points, and its dots;
//! `parts.rs` where a run computes its points (info `part_*`: points, period maps and steps of
//! the grid, the gap bisections, the edge narrowing, the drift edges, the crossings, the (a, ω)
//! search and the refinement);
//! `refine.rs` the drawn curve's refinement and the sign bisection along a drawn segment (a hole
//! on it stops the bisection: a gap); `orbit_checks.rs` the invariants checked on every computed
//! point's periodic orbit; `tests.rs` the unit tests.

mod exponential;
mod holes;
mod orbit_checks;
mod parts;
mod plants;
mod refine;
mod run;
#[cfg(test)]
mod tests;
mod track;

pub use exponential::velocity_point;
pub use plants::{BlimanSorinePath, ClassicalStick, TorqueInput, VelocityInput, EVENT_SAMPLES};
pub use run::run;

use crate::input::grid;
use crate::system::{any, invalid, nonneg, params, positive, Column};
use crate::{Invalid, RunData, RunRequest};
use fric_models::InputDriven;

params! {
    /// The decomposition, frequency and linear part of a describing-function run.
    pub struct DfSetup {
        approach: f64 = crate::system::between("1", 1.0, 3.0, "decomposition of report §5.3: 1 = velocity in, friction out (L1899); 3 = torque in, position out (L1929); 2 is 1 turned by π/2 and not computed (L1925)"),
        omega: f64 = positive("rad/s", "frequency ω of the input a sin ωt"),
        jump: f64 = positive("1", "a grid step across which N changes by more than this (|ln N₂/N₁|) is refined by bisection to 1e-12 relative").default(0.25),
        h_num: Vec<f64> = any("1", "the decomposition's linear part H(s): numerator, highest power first"),
        h_den: Vec<f64> = any("1", "H(s) denominator, highest power first"),
        omega_lo: f64 = nonneg("rad/s", "with omega_hi > omega_lo: solve H(iω) N(a, ω) = −1 for ω in [omega_lo, omega_hi] (0: do not)").default(0.0),
        omega_hi: f64 = nonneg("rad/s", "upper end of the ω bracket").default(0.0),
        a_lo: f64 = nonneg("1", "the amplitudes [a_lo, a_hi] in which the intersection search looks for −1/N(a, ω) crossing Re H(iω)").default(0.0),
        a_hi: f64 = nonneg("1", "upper end of the amplitude bracket").default(0.0),
        refine: f64 = nonneg("1", "consecutive drawn points whose DF differs by more than this (|ln N₂/N₁|, no gap between them) get the amplitude midway, recursively (12 halvings at most), the points the bisections computed at ω are drawn too, and every crossing of Re H(iω) by a drawn segment is a drawn point, marked in mark_re/mark_im (info crossings_marked) (0: the grid and the jump ends only, no marks)").default(0.0),
        gap_edges: f64 = nonneg("1", "> 0: a jump whose bisection stopped at uncomputed points has its ends bisected on towards them to this width (relative), each end stepping only while N changes by at most `jump`, then moving on to the furthest value of its branch the other end met across the jump: the last and first amplitudes with a stable period-1 steady state on its two branches; it is a gap where its bisection stopped or on these ends (default 1e-6 since 2026-12-07, issue 43; 0: the ends where the bisection stopped)").default(1e-6),
        drift_tol: f64 = nonneg("1", "a drift of the output per period above this marks one-sided break-away: the runs of such amplitudes are bisected at both ends (info driftK_from/to; 0: not computed)").default(0.0),
    }
}

/// Intervals into which the intersection search divides the amplitude bracket at each ω.
const SCAN: usize = 16;

/// Declares the columns of every DF system once: each line a column's name (a field of [`Row`],
/// and the name [`COLUMNS`] and the run's data give it), unit and doc, in the columns' order.
macro_rules! df_columns {
    ($($name:ident: $unit:literal, $doc:literal;)+) => {
        /// The columns of every DF system.
        pub const COLUMNS: &[Column] = &[$((stringify!($name), $unit, $doc)),+];

        /// One row of a DF run's data: a field per column of [`COLUMNS`].
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct Row {
            $(pub $name: f64,)+
        }

        impl Row {
            /// A row with every column NaN (a break of the drawn curve).
            pub const BLANK: Row = Row { $($name: f64::NAN,)+ };

            /// The columns of `rows`, by name, in the order of [`COLUMNS`].
            pub fn columns(rows: &[Row]) -> Vec<(String, Vec<f64>)> {
                vec![$((stringify!($name).to_string(), rows.iter().map(|r| r.$name).collect()),)+]
            }
        }
    };
}

df_columns! {
    a: "1", "input amplitude (N·m for approach 3, rad/s for approach 1)";
    re_n: "1", "Re N(a, ω)";
    im_n: "1", "Im N(a, ω)";
    re: "1", "Re(−1/N)";
    im: "1", "Im(−1/N)";
    drift: "1", "the output's drift over one period, removed before the fundamental";
    residual: "1", "shooting residual of the periodic steady state; NaN by exponential integration (approach 1), where the closed form z* = y(T)/(1 − G(T)) returns to itself by construction and has no residual";
    multiplier: "1", "the largest Floquet multiplier's modulus of the periodic steady state (below 1: stable); NaN where the simulation from rest reached the orbit within one period, contracting its distance by 1e6 or more (stable; info points_contracted); by exponential integration (approach 1) the period map's derivative G(T) of the closed form";
    mark_re: "1", "with refine > 0: Re(−1/N) at the run's marked points, NaN elsewhere: every crossing of Re H(iω) by a drawn segment (a point of the curve)";
    mark_im: "1", "Im(−1/N) at the marked points (see mark_re)";
    found_re: "1", "with refine > 0, for an (a, ω) search that found an intersection on a drawn segment: Re(−1/N(a*, ω*)) in a row of its own (every other column NaN there), NaN elsewhere";
    found_im: "1", "Im(−1/N(a*, ω*)) (see found_re)";
    dot_re: "1", "Re(−1/N) at the drawn points shown as dots, NaN elsewhere: the drawn curve (re, im) is broken where a gap, or an amplitude computed at ω without a value (a hole: the shooting stalled, or only an unstable orbit was found), lies between two of its points; into a stretch broken by a hole the values computed inside it (by the bisections) are merged as points of the curve, joined where no hole lies between them; these, and every point with a break on both sides (or at the curve's end), are dots";
    dot_im: "1", "Im(−1/N) at the dots (see dot_re)";
}

impl DfSetup {
    /// Whether the run solves for the intersection in (a, ω).
    fn searches(&self) -> bool {
        self.omega_hi > self.omega_lo
    }
    pub fn check(&self, errs: &mut Vec<Invalid>) {
        if self.approach != 1.0 && self.approach != 3.0 {
            errs.push(invalid(
                "approach",
                format!("{} is not a computed decomposition", self.approach),
                "1 or 3",
            ));
        }
        if self.h_den.iter().all(|c| *c == 0.0) {
            errs.push(invalid("h_den", "the denominator is zero", "a non-zero coefficient"));
        }
        if self.searches() && !(self.a_lo < self.a_hi) {
            errs.push(invalid(
                "a_hi",
                format!(
                    "the ω search needs an amplitude bracket; got [{}, {}]",
                    self.a_lo, self.a_hi
                ),
                "a_lo < a_hi",
            ));
        }
    }
    /// An estimate of the run's integration steps ([`crate::system::System::cost`]): the DF
    /// evaluations (the input grid's amplitudes, and for an (a, ω) search about 12 curves of
    /// [`SCAN`] + 1 amplitudes more) times 40 period maps each (shooting, Floquet multiplier, the
    /// bisections at break-away: the average over the report's B&S runs) times the steps per
    /// period, the larger of 200 and, for an explicit method on an inertia ringing at `ringing`
    /// = √(k/J) rad/s (`k` the pre-sliding stiffness), its stability limit h·ω_n ≈ 2, T ω_n / 2.
    /// Against the report's runs: B&S at ω = 0.1, 1, 10 rad/s 59 M, 5.9 M, 1.3 M steps estimated,
    /// 46 M, 8.2 M, 0.9 M taken; the searches at ω = 1.9 are under-estimated about 3×.
    pub fn cost(&self, ringing: Option<f64>, req: &RunRequest) -> f64 {
        let search = if self.searches() { 12.0 * (SCAN + 1) as f64 } else { 0.0 };
        let evaluations = grid(&req.input).len() as f64 + search;
        // By exponential integration (approach 1): one pass of a period, at least 100 steps.
        if req.method.how() == crate::methods::How::Exponential {
            return evaluations * 200.0;
        }
        // Dop853Radau5 rings explicitly too; its implicit stretches make it an over-estimate.
        let explicit = matches!(
            crate::drive::method_of(req),
            Ok(fric_solvers::Method::Dop853 | fric_solvers::Method::Dopri5 | fric_solvers::Method::Dop853Radau5)
        );
        let period = 2.0 * std::f64::consts::PI / self.omega;
        let ringing = ringing.filter(|_| explicit && self.approach == 3.0).unwrap_or(0.0);
        evaluations * 40.0 * (period * ringing / 2.0).max(200.0)
    }
}

/// `p(iω)` by Horner's rule on complex numbers, as `(re, im)`.
fn poly_at(p: &[f64], w: f64) -> (f64, f64) {
    p.iter().fold((0.0, 0.0), |(re, im), &c| (c - im * w, re * w))
}

/// `H(iω)` of `num/den`; `None` where `den(iω) = 0`.
pub fn response(num: &[f64], den: &[f64], w: f64) -> Option<(f64, f64)> {
    let (a, b) = poly_at(num, w);
    let (c, d) = poly_at(den, w);
    let q = c * c + d * d;
    (q != 0.0).then(|| ((a * c + b * d) / q, (b * c - a * d) / q))
}

/// Run a DF system for `law`: in approach 1 driven by its velocity (by exponential integration
/// with method `exponential`, [`velocity_point`]), in approach 3 on the inertia `j` with viscous
/// friction `alpha` driven by a torque.
pub fn run_law<M: InputDriven + orbit_checks::LawBounds>(
    setup: &DfSetup,
    j: f64,
    alpha: f64,
    law: M,
    req: &RunRequest,
) -> Result<RunData, String> {
    if setup.approach == 1.0 && req.method.how() == crate::methods::How::Exponential {
        exponential::run(setup, &law, req)
    } else if setup.approach == 1.0 {
        run(setup, &VelocityInput(law), req)
    } else {
        run(
            setup,
            &TorqueInput(fric_models::inertia::Inertia {
                j,
                alpha,
                friction: law,
            }),
            req,
        )
    }
}
