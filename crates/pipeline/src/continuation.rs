//! A `find` by continuation: a parameter stepped up a grid and back down it, each run started
//! from the previous run's final state, so that a metric that depends on the branch the system
//! is on (stick-slip or steady sliding) shows where it changes on each way: the onset up and the
//! onset down, hysteresis when they differ.
//!
//! Each way is serial and deterministic (the same runs in the same order at any job count). On
//! each way the first grid interval where `metric − level` changes sign is narrowed by bisection
//! to the tolerance, every trial run started from the final state of the run on the near side
//! (the side the way came from): a trial on the near side's branch becomes the new near side
//! (its final state the next start), one across the level the new far side. The onset is the
//! middle of the final interval.

/// At most this many bisection trials on each way.
pub const MAX_TRIALS: usize = 60;

/// One evaluation: the metric and the final state to start the next run from.
pub type Evaluated<S> = (f64, S);

/// Where one way crossed the level: the final interval `[lo, hi]` (`lo < hi`) with the metric at
/// its ends, and its middle, the onset.
#[derive(Clone, Debug, PartialEq)]
pub struct Onset {
    pub at: f64,
    pub lo: f64,
    pub hi: f64,
    pub metric_lo: f64,
    pub metric_hi: f64,
}

/// One way's result: the metric at every grid point (in grid order, ascending parameter) and the
/// onset, or why there is none (the metric does not cross the level on that way).
#[derive(Clone, Debug, PartialEq)]
pub struct Way {
    pub branch: Vec<f64>,
    pub onset: Result<Onset, String>,
}

/// Both ways and how many runs they took.
#[derive(Clone, Debug, PartialEq)]
pub struct Continued {
    pub up: Way,
    pub down: Way,
    pub evaluations: usize,
}

/// The grid `a + i (b − a)/steps`, `i = 0..=steps`, ascending (`a < b` after ordering).
pub fn grid(bracket: [f64; 2], steps: usize) -> Vec<f64> {
    let (a, b) = (bracket[0].min(bracket[1]), bracket[0].max(bracket[1]));
    (0..=steps)
        .map(|i| {
            if i == steps {
                b
            } else {
                a + i as f64 * (b - a) / steps as f64
            }
        })
        .collect()
}

/// Check the settings: a bracket of two distinct finite values, 2 to 200 steps, a finite level,
/// a positive tolerance.
fn validate(bracket: [f64; 2], steps: usize, level: f64, tol: f64) -> Result<(), String> {
    if !(bracket[0].is_finite() && bracket[1].is_finite() && bracket[0] != bracket[1]) {
        return Err(format!("bracket {bracket:?}: two distinct finite values"));
    }
    if !(2..=200).contains(&steps) {
        return Err(format!("continuation.steps {steps}: 2 to 200"));
    }
    if !level.is_finite() {
        return Err(format!("level {level}: a finite number"));
    }
    if !(tol > 0.0 && tol.is_finite()) {
        return Err(format!("tol {tol}: a positive finite number"));
    }
    Ok(())
}

/// Run the continuation: `eval(p, start)` runs at parameter `p` from `start` (`None`: the run's
/// own initial state) and returns the metric and the final state. Up the grid from `None`, then
/// down it from the top run's final state (the top point is not run twice: the down way starts
/// there). A non-finite metric or a failed run is an error.
pub fn continuation<S: Clone>(
    mut eval: impl FnMut(f64, Option<&S>) -> Result<Evaluated<S>, String>,
    bracket: [f64; 2],
    steps: usize,
    level: f64,
    tol: f64,
) -> Result<Continued, String> {
    validate(bracket, steps, level, tol)?;
    let g = grid(bracket, steps);
    let mut count = 0usize;
    let mut checked = |p: f64, s: Option<&S>| -> Result<Evaluated<S>, String> {
        count += 1;
        let (m, st) = eval(p, s)?;
        if !m.is_finite() {
            return Err(format!("the metric is {m} at {p}: a continuation needs finite values"));
        }
        Ok((m, st))
    };
    // Up: every grid point from the one before.
    let mut up: Vec<Evaluated<S>> = Vec::with_capacity(g.len());
    for &p in &g {
        let start = up.last().map(|x| &x.1);
        let r = checked(p, start)?;
        up.push(r);
    }
    // Down: from the top's final state.
    let mut down: Vec<Evaluated<S>> = Vec::with_capacity(g.len());
    down.push(up[g.len() - 1].clone());
    for &p in g.iter().rev().skip(1) {
        let start = &down.last().expect("the top").1;
        let r = checked(p, Some(start))?;
        down.push(r);
    }
    down.reverse();
    let up_onset = onset(&mut checked, &g, &up, level, tol, true);
    let down_onset = onset(&mut checked, &g, &down, level, tol, false);
    let branch = |w: &[Evaluated<S>]| w.iter().map(|x| x.0).collect::<Vec<_>>();
    Ok(Continued {
        up: Way {
            branch: branch(&up),
            onset: up_onset?,
        },
        down: Way {
            branch: branch(&down),
            onset: down_onset?,
        },
        evaluations: count,
    })
}

/// Whether `m` is at or above the level.
fn above(m: f64, level: f64) -> bool {
    m >= level
}

/// The onset of one way (`rising`: up the grid), `Ok(Err(why))` when the metric does not cross
/// the level on it; `Err` when a trial run fails.
fn onset<S: Clone>(
    eval: &mut impl FnMut(f64, Option<&S>) -> Result<Evaluated<S>, String>,
    g: &[f64],
    way: &[Evaluated<S>],
    level: f64,
    tol: f64,
    rising: bool,
) -> Result<Result<Onset, String>, String> {
    let order: Vec<usize> = if rising {
        (0..g.len()).collect()
    } else {
        (0..g.len()).rev().collect()
    };
    let Some(k) = order
        .windows(2)
        .position(|w| above(way[w[0]].0, level) != above(way[w[1]].0, level))
    else {
        let name = if rising { "up" } else { "down" };
        let side = if above(way[0].0, level) { "at or above" } else { "below" };
        return Ok(Err(format!(
            "the metric does not cross {level} on the way {name}: it stays {side} it from {} to {}",
            g[0],
            g[g.len() - 1]
        )));
    };
    let (i, j) = (order[k], order[k + 1]);
    // Near: the side the way came from (its final state the start of the next trial).
    let (mut near_p, mut near) = (g[i], way[i].clone());
    let (mut far_p, mut far_m) = (g[j], way[j].0);
    let near_side = above(near.0, level);
    // A bisection of its own, not `fric_solvers::roots::bisect`: each trial starts from the near
    // end's final state (which moves with it), and running out of trials is an error.
    let mut trials = 0;
    while (far_p - near_p).abs() > tol {
        if trials == MAX_TRIALS {
            return Err(format!(
                "the onset was not narrowed to {tol} within {MAX_TRIALS} trials (last [{}, {}])",
                near_p.min(far_p),
                near_p.max(far_p)
            ));
        }
        trials += 1;
        let mid = 0.5 * (near_p + far_p);
        let r = eval(mid, Some(&near.1))?;
        if above(r.0, level) == near_side {
            (near_p, near) = (mid, r);
        } else {
            (far_p, far_m) = (mid, r.0);
        }
    }
    let ((lo, metric_lo), (hi, metric_hi)) = if near_p < far_p {
        ((near_p, near.0), (far_p, far_m))
    } else {
        ((far_p, far_m), (near_p, near.0))
    };
    Ok(Ok(Onset {
        at: 0.5 * (lo + hi),
        lo,
        hi,
        metric_lo,
        metric_hi,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bistable toy: state `s` is 1 (oscillating) or 0 (steady). From `s = 1` the system stays
    /// oscillating while p < 0.65; from `s = 0` it stays steady while p > 0.35; otherwise it takes
    /// the one branch there is. The metric is the state.
    fn bistable(p: f64, start: Option<&f64>) -> Result<Evaluated<f64>, String> {
        let s = start.copied().unwrap_or(1.0);
        let next = if s == 1.0 {
            if p < 0.65 {
                1.0
            } else {
                0.0
            }
        } else if p > 0.35 {
            0.0
        } else {
            1.0
        };
        Ok((next, next))
    }

    #[test]
    fn a_bistable_metric_has_two_onsets_each_to_the_tolerance() {
        let c = continuation(bistable, [0.0, 1.0], 10, 0.5, 1e-6).unwrap();
        let up = c.up.onset.clone().unwrap();
        let down = c.down.onset.clone().unwrap();
        assert!((up.at - 0.65).abs() <= 1e-6 && up.hi - up.lo <= 1e-6, "{up:?}");
        assert!((down.at - 0.35).abs() <= 1e-6 && down.hi - down.lo <= 1e-6, "{down:?}");
        assert_eq!((up.metric_lo, up.metric_hi), (1.0, 0.0));
        assert_eq!((down.metric_lo, down.metric_hi), (1.0, 0.0));
        // The branches: oscillating up to 0.6 on the way up, steady down to 0.4 on the way down.
        let want_up: Vec<f64> = (0..=10).map(|i| if i < 7 { 1.0 } else { 0.0 }).collect();
        let want_down: Vec<f64> = (0..=10).map(|i| if i <= 3 { 1.0 } else { 0.0 }).collect();
        assert_eq!(c.up.branch, want_up);
        assert_eq!(c.down.branch, want_down);
        // 11 up, 10 down, and the bisections: deterministic.
        assert!(c.evaluations > 21, "{}", c.evaluations);
        assert_eq!(continuation(bistable, [1.0, 0.0], 10, 0.5, 1e-6).unwrap(), c);
    }

    #[test]
    fn without_carrying_the_state_there_is_no_hysteresis() {
        // Every run from the run's own state (oscillating): both ways see the onset at 0.65.
        let fresh = |p: f64, _: Option<&f64>| bistable(p, None);
        let c = continuation(fresh, [0.0, 1.0], 10, 0.5, 1e-6).unwrap();
        let (up, down) = (c.up.onset.unwrap(), c.down.onset.unwrap());
        assert!(
            (up.at - 0.65).abs() <= 1e-6 && (down.at - 0.65).abs() <= 1e-6,
            "{up:?} {down:?}"
        );
    }

    #[test]
    fn no_crossing_failed_runs_and_bad_settings_are_errors() {
        let flat = |_: f64, _: Option<&f64>| Ok((1.0, 0.0));
        let c = continuation(flat, [0.0, 1.0], 4, 2.0, 1e-3).unwrap();
        let e = c.up.onset.unwrap_err();
        assert!(
            e.contains("does not cross 2 on the way up") && e.contains("below"),
            "{e}"
        );
        let nan = |p: f64, _: Option<&f64>| Ok((if p > 0.5 { f64::NAN } else { p }, 0.0));
        let e = continuation(nan, [0.0, 1.0], 4, 0.2, 1e-3).unwrap_err();
        assert!(e.contains("NaN") && e.contains("finite"), "{e}");
        let boom = |_: f64, _: Option<&f64>| Err::<Evaluated<f64>, _>("run failed".to_string());
        assert_eq!(continuation(boom, [0.0, 1.0], 4, 0.2, 1e-3).unwrap_err(), "run failed");
        assert!(continuation(flat, [0.0, 1.0], 1, 0.5, 1e-3)
            .unwrap_err()
            .contains("steps"));
        assert!(continuation(flat, [1.0, 1.0], 4, 0.5, 1e-3)
            .unwrap_err()
            .contains("bracket"));
        assert!(continuation(flat, [0.0, 1.0], 4, 0.5, 0.0).unwrap_err().contains("tol"));
    }
}
