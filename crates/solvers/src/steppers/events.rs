//! Events on an accepted step: whether a guard triggers between two points, whether its sign is
//! kept for a reason other than sampling, whether it grazes zero between them, and the location
//! of its zero on the dense output.

use super::{Stats, Stepper};
use crate::{roots, Direction, OdeSystem};
use std::convert::Infallible;

/// Whether a terminal guard at exactly zero where the integration starts leaves zero in its
/// direction by the step's next point (for the events that ask for it,
/// [`crate::OdeSystem::event_from_zero`]). A hybrid restart after a located event often starts on
/// another guard's zero exactly (the Switch Model's band edge `g = η` it just entered through),
/// and [`triggers`] counts only crossings from the pre-crossing side: such a guard would never
/// fire, and the mode would outlive its region (thesis Fig 3.9 until 2026-12-05: a body creeping
/// at v > η on the minus branch's field).
pub(super) fn leaves_zero(dir: Direction, g0: f64, g1: f64) -> bool {
    g0 == 0.0
        && match dir {
            Direction::Rising => g1 > 0.0,
            Direction::Falling => g1 < 0.0,
            Direction::Either => g1 != 0.0,
        }
}

pub(super) fn triggers(dir: Direction, g0: f64, g1: f64) -> bool {
    let rising = g0 < 0.0 && g1 >= 0.0;
    let falling = g0 > 0.0 && g1 <= 0.0;
    match dir {
        Direction::Rising => rising,
        Direction::Falling => falling,
        Direction::Either => rising || falling,
    }
}

/// Whether event `i` keeps its sign over the accepted step of size `h` (values `g0`, `g1` at its
/// ends) for a reason other than sampling: the event watches a state component
/// ([`OdeSystem::event_component`]) whose rate, sampled at the method's stages
/// ([`Stepper::stage_rate`]), is too small by a factor of two to carry it from either end to zero
/// within the step.
pub(super) fn sign_kept<S: OdeSystem, M: Stepper>(sys: &S, st: &M, i: usize, h: f64, g0: f64, g1: f64) -> bool {
    let Some(c) = sys.event_component(i) else {
        return false;
    };
    g0 != 0.0 && (g0 > 0.0) == (g1 > 0.0) && g0.abs().max(g1.abs()) > 2.0 * h * st.stage_rate(c)
}

/// Locate the zero of event `i` inside the step fractions `range` of the accepted step
/// `[t, t + h]` (event values `g` at its ends) on the dense output by the one Illinois root
/// finder ([`roots::illinois_bracket`]: regula falsi, the midpoint where the secant leaves the
/// bracket, a zero kept as the far end so that the first zero is found), to a width of
/// `4 eps (|t| + |h|)` in time, in at most 200 evaluations. Returns the step fraction of the
/// bracket end on the far side of the crossing.
#[allow(clippy::too_many_arguments)]
pub(super) fn locate<S: OdeSystem, M: Stepper>(
    sys: &S,
    st: &M,
    i: usize,
    t: f64,
    h: f64,
    range: (f64, f64),
    (ga, gb): (f64, f64),
    xd: &mut [f64],
    ne: usize,
) -> f64 {
    let mut g = [0.0f64; 64];
    let mut gv = if ne > 64 { vec![0.0; ne] } else { Vec::new() };
    let component = sys.event_component(i);
    let eval = |th: f64| -> Result<f64, Infallible> {
        // An event that is a state component's value: that component of the dense output.
        if let Some(v) = component.and_then(|c| st.dense_component(th, c)) {
            return Ok(v);
        }
        st.dense(th, xd);
        Ok(if ne > 64 {
            sys.events(t + th * h, xd, &mut gv);
            gv[i]
        } else {
            sys.events(t + th * h, xd, &mut g[..ne]);
            g[i]
        })
    };
    let opt = roots::Illinois {
        width: roots::Width::Scaled {
            scale: h.abs(),
            width: 4.0 * f64::EPSILON * (t.abs() + h.abs()),
        },
        max_evals: 200,
        bisect_on_stall: false,
        on_zero: roots::OnZero::KeepFirst,
    };
    let Ok(b) = roots::illinois_bracket(eval, (range.0, ga), (range.1, gb), &opt);
    b.hi
}

/// Whether an event of direction `dir` with values `g0`, `g1` and rates `r0`, `r1` at a step's
/// ends has an extremum inside the step on its pre-crossing side ([`graze`] decides whether it
/// reaches zero): with `s = +1` rising, `−1` falling, `s g < 0` at both ends, `s r0 > 0`,
/// `s r1 < 0`. Never for [`Direction::Either`] or a NaN rate (an event without one).
pub(super) fn may_graze(dir: Direction, (g0, g1): (f64, f64), (r0, r1): (f64, f64)) -> bool {
    let s = match dir {
        Direction::Rising => 1.0,
        Direction::Falling => -1.0,
        Direction::Either => return false,
    };
    s * g0 < 0.0 && s * g1 < 0.0 && s * r0 > 0.0 && s * r1 < 0.0
}

/// A graze of terminal event `i` inside the accepted step `[t, t + h]`
/// ([`OdeSystem::event_rate`]): with `s = +1` for a rising event and `−1` for a falling one,
/// `s g < 0` at both ends (`g0`, `g1`: nothing triggered) while its rate goes from `s r0 > 0` at
/// the start to `s r1 < 0` at the end, so the event function has an extremum inside the step.
/// Locates it (the rate's zero on the dense output, by the Illinois root finder to the width
/// [`locate`] uses; each evaluation one right-hand side, counted in `stats`) and returns its
/// step fraction and the event's value there if that value has reached zero (`s g ≥ 0`: the
/// event crossed before it); `None` otherwise. `f` and `g` are scratch of the state's and the
/// events' length.
#[allow(clippy::too_many_arguments)]
pub(super) fn graze<S: OdeSystem, M: Stepper>(
    sys: &S,
    st: &M,
    i: usize,
    dir: Direction,
    t: f64,
    h: f64,
    (g0, g1): (f64, f64),
    (r0, r1): (f64, f64),
    (xd, f, g): (&mut [f64], &mut [f64], &mut [f64]),
    stats: &mut Stats,
) -> Option<(f64, f64)> {
    if !may_graze(dir, (g0, g1), (r0, r1)) {
        return None;
    }
    let s = if dir == Direction::Falling { -1.0 } else { 1.0 };
    let mut evals = 0;
    let rate = |th: f64| -> Result<f64, Infallible> {
        st.dense(th, xd);
        sys.rhs(t + th * h, xd, f);
        evals += 1;
        Ok(sys.event_rate(i, t + th * h, xd, f).unwrap_or(0.0))
    };
    let opt = roots::Illinois {
        width: roots::Width::Scaled {
            scale: h.abs(),
            width: 4.0 * f64::EPSILON * (t.abs() + h.abs()),
        },
        max_evals: 200,
        bisect_on_stall: true,
        on_zero: roots::OnZero::KeepFirst,
    };
    let Ok(b) = roots::illinois_bracket(rate, (0.0, r0), (1.0, r1), &opt);
    stats.rhs_evals += evals;
    st.dense(b.hi, xd);
    sys.events(t + b.hi * h, xd, g);
    (s * g[i] >= 0.0).then_some((b.hi, g[i]))
}
