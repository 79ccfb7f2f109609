//! The path-variable prototype of the LuGre problem, kept as `fric-bench probe`'s lower bound on
//! what integrating in the path costs: it has `u'(s)` in closed form for the bench's cosine and
//! splits each half period at the Stribeck regions by hand, so it needs neither the Newton
//! inversion of `t(s)` nor a time cap, which the general integrator
//! (`fric_solvers::expint_path`, run by `own::lugre_expint_path_solver`) does. The two share
//! their tolerance (`own::lugre_path_tolerance`); the difference of their times is the price
//! of generality (docs/benchmarks.md, "Prototype").

use crate::problems::*;
use crate::Out;

/// The probe's lower bound, not in `fric-experiments`: LuGre by exponential collocation (4 nodes) in the path
/// variable `s = |u − u_r|` between reversals instead of time: `dz/ds = −(σ0/g(u')) z + sign u'`,
/// whose coefficient is bounded (the boundary layer after a reversal, where in time
/// `a = −σ0|u'|/g` grows from 0, is an exponential in s taken in closed form). `u'` from `s` in
/// closed form for this input (`|u'| = ω √(A² − u²)`, `(u'/v_s)²` linear in s near a reversal).
/// Each half period is split where `|u'| = 6 v_s` near its ends (there `g − F_c` is e^{−36} of
/// `F_s − F_c`): the Stribeck regions are pieces of their own, each starting with a step sized from
/// its initial rate, and between them the coefficient is constant to rounding (with the split at
/// 3 v_s the dense output missed the Stribeck tail, e^{−15} of it at the first output, and the
/// error stayed at 1.66e-6 N at every rtol). No step cap.
pub fn lugre_expint_path(rtol: f64, _atol: f64) -> Result<Out, String> {
    use fric_solvers::expint::{solve_with, ExpStats, Scheme};
    let times = lugre_times();
    let tl = crate::own::lugre_path_tolerance(rtol);
    let scheme = Scheme::<4>::new();
    let mut o = Out::default();
    let mut st = ExpStats::default();
    let mut z = 0.0;
    o.t.push(0.0);
    o.y.push(lugre_force(0.0, 0.0));
    // The distance e in s from a reversal at which |u'| = 6 v_s: A² − (A − e)² = (6 v_s/ω)².
    let q = (6.0 * LUGRE.vs / LUGRE_W).powi(2);
    let e = LUGRE_A - (LUGRE_A * LUGRE_A - q).sqrt();
    let mut i = 1;
    let mut worst = (0.0f64, 0.0f64, 0usize);
    for (a, b) in lugre_segments() {
        let (ur, sgn) = (lugre_u(a), (lugre_u(b) - lugre_u(a)).signum());
        let s_of = |t: f64| sgn * (lugre_u(t) - ur);
        let coef = |s: f64| {
            let u = ur + sgn * s;
            let du = sgn * LUGRE_W * (LUGRE_A * LUGRE_A - u * u).max(0.0).sqrt();
            (-LUGRE.sigma0 / LUGRE.g(du), sgn)
        };
        let j = i + times[i..].partition_point(|&t| t <= b);
        let seg_t = &times[i..j];
        let seg_s: Vec<f64> = seg_t.iter().map(|&t| s_of(t)).collect();
        let s_end = s_of(b);
        let mut k = 0;
        for (p, r) in [(0.0, e), (e, s_end - e), (s_end - e, s_end)] {
            let lo = seg_s.partition_point(|&s| s <= p);
            let hi = seg_s.partition_point(|&s| s <= r);
            let saves = if p == 0.0 { &seg_s[..hi] } else { &seg_s[lo..hi] };
            z = solve_with(&scheme, &coef, p, z, r, saves, tl, &mut st, &mut |_, zs| {
                let t = seg_t[k];
                o.t.push(t);
                o.y.push(lugre_force(t, zs));
                k += 1;
            })?;
        }
        if k != seg_t.len() {
            worst = (a, b, seg_t.len() - k);
        }
        i = j;
    }
    if worst.2 > 0 {
        return Err(format!("outputs lost in [{}, {}]: {}", worst.0, worst.1, worst.2));
    }
    o.steps = st.steps + st.rejected;
    o.rhs_evals = st.evals;
    o.x_end = vec![z];
    Ok(o)
}
