//! A DF run: the curve `N(a, ω)` on the input's amplitudes with its jumps refined, the gaps, the
//! drift regions, the crossings with `−1/H(iω)` and the harmonic-balance intersection.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use super::holes::break_at_holes;
use super::parts::{Part, Parts};
use super::refine::{bisect_drawn, refine};
use super::track::{self, Crossing, Track};
use super::{response, DfSetup, Row, SCAN};
use crate::input::grid;
use crate::{RunData, RunRequest};
use fric_solvers::describing::{
    describing_function, distance, illinois, judge_jump, negative_inverse, probe, refine_jumps, DfOptions, DfPoint,
    Forced, Jump, Sample,
};

/// The change of N (by [`distance`]) that a jump must keep down to a relative width of 1e-12 to
/// count as a gap (a discontinuity to double precision).
const GAP: f64 = 1e-3;

/// The largest shooting residual (states relative to the amplitude) at which a steady state is
/// used; the target is 1e-10, and a point that stalls between the two is kept with its residual
/// in the `residual` column.
const ACCEPT: f64 = 1e-7;

/// An amplitude and the DF computed there.
type Point = (f64, fric_solvers::describing::DfPoint);

/// A computed curve: its points, whether a gap precedes each, and the gaps.
type Curve = (Vec<Point>, Vec<bool>, Vec<Jump>);

/// Called with a curve so far (its points and their gap flags) as it grows: whether to end it.
type Stop<'a> = &'a mut dyn FnMut(&[Point], &[bool]) -> Result<bool, String>;

/// Run a DF system: `forced` is the law in the decomposition `setup.approach`.
pub fn run<S: Forced>(setup: &DfSetup, forced: &S, req: &RunRequest) -> Result<RunData, String> {
    let opt = DfOptions {
        method: crate::drive::method_of(req)?,
        rtol: req.sim.rtol.unwrap_or(1e-8),
        atol_per_a: req.sim.atol.unwrap_or(1e-13),
        ..Default::default()
    };
    run_points(setup, req, |a, w| describing_function(forced, a, w, &opt))
}

/// What a computed point is to the run: a value where its steady state reached [`ACCEPT`] and
/// is stable; elsewhere the DF is not computed (as the report's gaps: "the DF could not be
/// computed due to limits in precision"): a hole where the shooting did not converge, a basin
/// boundary where it found an unstable orbit that the simulation from rest had not left after
/// LINGER_LIMIT (128) periods. The one classification of the run (counted once per computed
/// point, drawn or not by it).
fn classify(p: &DfPoint) -> Sample<DfPoint> {
    if p.residual > ACCEPT {
        Sample::Hole
    } else if p.multiplier > 1.0 {
        // A periodic orbit, but one that the simulation from rest leaves (LINGER_LIMIT
        // periods did not reach a stable one): not the steady state.
        Sample::Boundary
    } else {
        Sample::Value(*p)
    }
}

/// [`run`] with the DF at `(a, ω)` computed by `compute` (each amplitude and frequency at most
/// once: the run memoises it).
pub(super) fn run_points(
    setup: &DfSetup,
    req: &RunRequest,
    compute: impl Fn(f64, f64) -> Result<DfPoint, String>,
) -> Result<RunData, String> {
    let (steps, max_residual) = (Cell::new(0usize), Cell::new(0.0f64));
    let rejected = Cell::new(0usize);
    let maps = Cell::new(0usize);
    let unstable_maps = Cell::new(0usize);
    let predicted = Cell::new(0usize);
    let contracted = Cell::new(0usize);
    // The largest energy-balance residual over its bound on the computed points' orbits.
    let margin = Cell::new(f64::NAN);
    // Points already computed, by (a, ω) bits (their number is the run's DF evaluations): the
    // bisections of a DF jump and of a drift edge at the same amplitude (break-away) probe the
    // same midpoints until their tolerances differ.
    let memo = RefCell::new(HashMap::<(u64, u64), fric_solvers::describing::DfPoint>::new());
    let reused = Cell::new(0usize);
    let unresolved = Cell::new(0usize);
    let unstable = Cell::new(0usize);
    // Where the run computes its points (info part_*).
    let parts = Parts::default();
    let point = |a: f64, w: f64| -> Result<fric_solvers::describing::DfPoint, String> {
        if let Some(&p) = memo.borrow().get(&(a.to_bits(), w.to_bits())) {
            reused.set(reused.get() + 1);
            return Ok(p);
        }
        let p = compute(a, w)?;
        memo.borrow_mut().insert((a.to_bits(), w.to_bits()), p);
        parts.count(&p);
        // Counted here, once per computed point (review L3: counted at every use, a hole probed
        // again by a second bisection or the refinement counted twice).
        match classify(&p) {
            Sample::Hole => unresolved.set(unresolved.get() + 1),
            Sample::Boundary => {
                unstable.set(unstable.get() + 1);
                unresolved.set(unresolved.get() + 1);
            }
            Sample::Value(_) => max_residual.set(max_residual.get().max(p.residual)),
        }
        steps.set(steps.get() + p.steps);
        rejected.set(rejected.get() + p.rejected);
        maps.set(maps.get() + p.maps);
        unstable_maps.set(unstable_maps.get() + p.unstable_maps);
        predicted.set(predicted.get() + p.predicted_periods);
        contracted.set(contracted.get() + usize::from(p.contracted));
        margin.set(margin.get().max(p.orbit_margin));
        Ok(p)
    };
    // A point is used where [`classify`] gives it a value.
    let sample = |a: f64, w: f64| -> Result<Sample<DfPoint>, String> { point(a, w).map(|p| classify(&p)) };
    let usable = |a: f64, w: f64| sample(a, w).map(Sample::value);
    let df = |a: f64, w: f64| sample(a, w).map(|s| s.map(|p| p.n));
    // The DF where it has a value: the crossing bisections' points.
    let dfv = |a: f64, w: f64| -> Result<Option<(f64, f64)>, String> { df(a, w).map(Sample::value) };
    // A gap ([`Jump::is_gap`]): a jump that survives a width of 1e-12 relative, or a bracket
    // whose bisection stopped at uncomputed points with a change of more than `jump` across it
    // (across a smaller change, only uncomputed points: at ω = 10 rad/s in report Fig 5.22, 0.07
    // across holes near 0.29 N·m on the grid of 161 amplitudes, none on that of 81).
    // The DF at `amps` (ascending) with the jumps between neighbours refined: the points in
    // order (the refined jump ends included) and the gaps (jumps that survive bisection).
    // `broken[i]`: a gap lies between points i − 1 and i (the drawn curve is broken there).
    // `stop` is called with the curve so far after each amplitude's points are added (they are
    // only added: a point and its flag never change once pushed), and ends it where it says so.
    let curve = |amps: &[f64], w: f64, stop: Stop| -> Result<Curve, String> {
        let mut pts: Vec<Point> = Vec::new();
        let mut broken = Vec::new();
        let mut gaps = Vec::new();
        let end = |n: (f64, f64)| fric_solvers::describing::DfPoint {
            n,
            drift: f64::NAN,
            residual: f64::NAN,
            converged: true,
            multiplier: f64::NAN,
            maps: 0,
            steps: 0,
            rejected: 0,
            unstable_maps: 0,
            predicted_periods: 0,
            contracted: false,
            orbit_margin: f64::NAN,
            orbit_steps: 0,
        };
        for &a in amps {
            parts.enter(Part::Grid);
            let Some(p) = usable(a, w)? else { continue };
            // Whether a gap lies between the last point pushed and the next.
            let mut gap = false;
            if let Some(&(a0, p0)) = pts.last() {
                let zero = |n: (f64, f64)| n == (0.0, 0.0);
                if !zero(p0.n) && !zero(p.n) && distance(p0.n, p.n) > setup.jump {
                    // Every jump between the two grid points, not only the one the bisection
                    // follows: the gaps do not depend on where the grid falls.
                    parts.enter(Part::Gaps);
                    let jumps = refine_jumps(|x| df(x, w), (a0, p0.n), (a, p.n), 1e-12, GAP, setup.jump)?;
                    for j in jumps {
                        // With `gap_edges`, a jump whose bisection stopped at uncomputed points
                        // has as ends the last and first amplitudes with a stable period-1 steady
                        // state on its two branches (issue 43), judged a gap where it stopped or
                        // on them ([`judge_jump`]).
                        parts.enter(Part::Edges);
                        let (j, is_gap) = judge_jump(|x| df(x, w), j, setup.gap_edges, GAP, setup.jump)?;
                        if j.lo > pts.last().map_or(a0, |q| q.0) {
                            pts.push((j.lo, end(j.n_lo)));
                            broken.push(gap);
                        }
                        gap = is_gap;
                        if gap {
                            gaps.push(j);
                        }
                        if j.hi < a {
                            pts.push((j.hi, end(j.n_hi)));
                            broken.push(gap);
                            gap = false;
                        }
                    }
                }
            }
            pts.push((a, p));
            broken.push(gap);
            if stop(&pts, &broken)? {
                break;
            }
        }
        Ok((pts, broken, gaps))
    };
    // A whole curve.
    let whole = |amps: &[f64], w: f64| curve(amps, w, &mut |_, _| Ok(false));
    // The segments of a curve from `*from` on (the first not yet scanned; `*from` is left after
    // the last scanned), in order, for a crossing of Re(−1/N) = Re H(iω): the first on a drawn
    // segment, (a, Im(−1/N) − Im H(iω), false), bisected to 1e-12 relative; the first across a
    // gap (no drawn segment: a gap, or a hole the bisection met) into `across_gap`, (the
    // segment's middle, its height at the upper end, true), and the scan goes on. With `all`,
    // every drawn crossing goes into it instead (the end of its final bracket nearer the line)
    // and the scan goes on to the curve's end.
    let scan_crossings = |pts: &[Point],
                          broken: &[bool],
                          from: &mut usize,
                          across_gap: &mut Option<Crossing>,
                          w: f64,
                          hw: (f64, f64),
                          mut all: Option<&mut Vec<f64>>|
     -> Result<Option<Crossing>, String> {
        let r = |n: (f64, f64)| negative_inverse(n).0 - hw.0;
        while *from + 1 < pts.len() {
            let i = *from;
            *from += 1;
            let ((a0, p0), (a1, p1)) = (pts[i], pts[i + 1]);
            let (r0, r1) = (r(p0.n), r(p1.n));
            if (r0 > 0.0) == (r1 > 0.0) || a1 <= a0 {
                continue;
            }
            if broken[i + 1] {
                let m = negative_inverse(p1.n);
                across_gap.get_or_insert((0.5 * (a0 + a1), m.1 - hw.1, true));
                continue;
            }
            // A hole on the segment makes it a gap there (the crossing across it).
            let Some((lo, r_lo, hi, r_hi)) =
                bisect_drawn(|a| dfv(a, w).map(|v| v.map(&r)), (a0, r0), (a1, r1), 1e-12 * a1)?
            else {
                across_gap.get_or_insert((0.5 * (a0 + a1), negative_inverse(p1.n).1 - hw.1, true));
                continue;
            };
            if let Some(out) = all.as_deref_mut() {
                out.push(if r_lo.abs() <= r_hi.abs() { lo } else { hi });
                continue;
            }
            let m = negative_inverse(dfv(hi, w)?.ok_or("a bracket end without a value")?);
            return Ok(Some((0.5 * (lo + hi), m.1 - hw.1, false)));
        }
        Ok(None)
    };
    // The first amplitude where Re(−1/N) crosses Re H(iω) along a curve: (a, Im(−1/N) − Im H(iω),
    // whether the crossing lies in a gap). A crossing of the drawn curve first; one across a gap
    // (no drawn segment) only if there is no other.
    let first_crossing = |pts: &[Point], broken: &[bool], w: f64, hw: (f64, f64)| -> Result<Option<Crossing>, String> {
        let (mut from, mut across_gap) = (0, None);
        Ok(scan_crossings(pts, broken, &mut from, &mut across_gap, w, hw, None)?.or(across_gap))
    };
    // The first crossing of the curve over `amps` at ω, as [`first_crossing`] of the whole curve
    // gives it, computing the curve only up to its first drawn crossing: the segments are scanned
    // as the curve grows (a point and its flag never change once pushed, and the scan takes them
    // in the order `first_crossing` does), so up to that crossing the points, the bisection and
    // the crossings across gaps met before are the whole curve's, and a drawn crossing ends both
    // scans (a crossing across a gap alone does not: the whole curve is computed then, as
    // `first_crossing` looks for a drawn one after it).
    let first_crossing_lazy = |amps: &[f64], w: f64, hw: (f64, f64)| -> Result<Option<Crossing>, String> {
        let (mut from, mut across_gap, mut drawn) = (0, None, None);
        curve(amps, w, &mut |pts, broken| {
            drawn = scan_crossings(pts, broken, &mut from, &mut across_gap, w, hw, None)?;
            Ok(drawn.is_some())
        })?;
        Ok(drawn.or(across_gap))
    };
    // Every amplitude where a drawn segment (no gap between its ends) of a curve crosses
    // Re H(iω), each bisected to 1e-12 relative, ascending: the end of the final bracket nearer
    // the line (a computed point; the bracket's middle may lie across a jump of Re(−1/N) too
    // small to count as a gap: report Fig 5.27's ω = 1.5 crossing, 0.180145 against 0.17997,
    // whose middle was drawn 1.45e-4 N·m/rad off G's line): [`scan_crossings`] with `all`.
    let drawn_crossings = |pts: &[Point], broken: &[bool], w: f64, hw: (f64, f64)| -> Result<Vec<f64>, String> {
        let mut out = Vec::new();
        scan_crossings(pts, broken, &mut 0, &mut None, w, hw, Some(&mut out))?;
        Ok(out)
    };
    let w = setup.omega;
    let mut info = std::collections::BTreeMap::new();
    let amps = grid(&req.input);
    let (pts, broken, gaps) = whole(&amps, w)?;
    for (k, g) in gaps.iter().enumerate() {
        info.insert(format!("gap{}_lo", k + 1), g.lo);
        info.insert(format!("gap{}_hi", k + 1), g.hi);
        info.insert(format!("gap{}_size", k + 1), g.size);
    }
    info.insert("gaps".into(), gaps.len() as f64);
    // Where the output drifts (the inertia breaks away further one way than the other, report
    // §2.9): the runs of grid points with a drift above drift_tol per period, each end bisected
    // to 1e-9 relative.
    let drifts = |p: &fric_solvers::describing::DfPoint| p.drift.abs() > setup.drift_tol;
    let grid_pts: Vec<&Point> = pts.iter().filter(|p| p.1.maps > 0).collect();
    let mut regions = 0;
    let mut k = 0;
    while setup.drift_tol > 0.0 && k < grid_pts.len() {
        if !drifts(&grid_pts[k].1) {
            k += 1;
            continue;
        }
        let start = k;
        while k + 1 < grid_pts.len() && drifts(&grid_pts[k + 1].1) {
            k += 1;
        }
        // The edge between a point that does not drift (`quiet`) and one that does.
        let edge = |mut quiet: f64, mut moving: f64| -> Result<f64, String> {
            parts.enter(Part::Drift);
            while (moving - quiet).abs() > 1e-9 * moving {
                let (found, _) = probe(quiet, moving, |m| sample(m, w))?;
                let Some((m, p)) = found else { break };
                if drifts(&p) {
                    moving = m;
                } else {
                    quiet = m;
                }
            }
            Ok(0.5 * (quiet + moving))
        };
        regions += 1;
        let from = match start.checked_sub(1) {
            Some(q) => edge(grid_pts[q].0, grid_pts[start].0)?,
            None => grid_pts[start].0,
        };
        let to = match grid_pts.get(k + 1) {
            Some(q) => edge(q.0, grid_pts[k].0)?,
            None => grid_pts[k].0,
        };
        info.insert(format!("drift{regions}_from"), from);
        info.insert(format!("drift{regions}_to"), to);
        k += 1;
    }
    info.insert("drift_regions".into(), regions as f64);
    info.insert("unresolved_grid_points".into(), (amps.len() - grid_pts.len()) as f64);
    // The intersection −1/N(a*, ω*) where a search found one and the curve is refined (marked).
    let mut star = None;
    {
        let h = |w: f64| {
            response(&setup.h_num, &setup.h_den, w).ok_or_else(|| format!("the linear part's den(iω) = 0 at ω = {w}"))
        };
        if setup.refine == 0.0 {
            parts.enter(Part::Crossings);
            if let Some((a, above, in_gap)) = first_crossing(&pts, &broken, w, h(w)?)? {
                info.insert("cross_a".into(), a);
                info.insert("cross_above".into(), above);
                info.insert("cross_in_gap".into(), in_gap as u8 as f64);
            }
        }
        if setup.searches() {
            let (ab, wb) = ([setup.a_lo, setup.a_hi], [setup.omega_lo, setup.omega_hi]);
            let scan: Vec<f64> = (0..=SCAN)
                .map(|i| ab[0] + (ab[1] - ab[0]) * i as f64 / SCAN as f64)
                .collect();
            // The crossings found at the search's ω steps, and the scan's spacing.
            let track = RefCell::new(Track::default());
            let spacing = (ab[1] - ab[0]) / SCAN as f64;
            // The first crossing at ω: with `local`, the one in the bracket [`Track::bracket`]
            // predicts from the nearest two ω steps, where it holds one ([`track::local`]);
            // otherwise the scan's curve only up to it ([`first_crossing_lazy`]), but whole at
            // the run's own ω, where every point computed is drawn (never local there).
            let at = |w: f64, local: bool| -> Result<Option<Crossing>, String> {
                parts.search(true);
                let hw = h(w)?;
                let near = (local && w != setup.omega).then(|| track.borrow().bracket(w, (ab[0], ab[1]), spacing));
                let c = match near.flatten() {
                    Some(b) => track::local(|a| dfv(a, w), b, hw, setup.jump)?,
                    None => None,
                };
                let c = match c {
                    Some(c) => Some(c),
                    None if w == setup.omega => {
                        let (pts, broken, _) = whole(&scan, w)?;
                        first_crossing(&pts, &broken, w, hw)?
                    }
                    None => first_crossing_lazy(&scan, w, hw)?,
                };
                track.borrow_mut().push(w, c);
                Ok(c)
            };
            // A bracket end where −1/N never reaches Re H(iω) means no intersection in the
            // bracket: recorded (intersection_found = 0), not an error.
            let mut found = false;
            if let (Some((a_lo, g_lo, gap_lo)), Some((a_hi, g_hi, gap_hi))) = (at(wb[0], false)?, at(wb[1], false)?) {
                info.insert("bracket_lo_a".into(), a_lo);
                info.insert("bracket_lo_above".into(), g_lo);
                info.insert("bracket_hi_a".into(), a_hi);
                info.insert("bracket_hi_above".into(), g_hi);
                info.insert("bracket_in_gap".into(), (gap_lo || gap_hi) as u8 as f64);
                if (g_lo > 0.0) != (g_hi > 0.0) {
                    // The root ω* of the first crossing's height by Illinois over ω (each step
                    // local or not: `local`).
                    let solve = |local: bool| -> Result<f64, String> {
                        let g = |w: f64| -> Result<f64, String> {
                            at(w, local)?
                                .map(|r| r.1)
                                .ok_or_else(|| format!("−1/N(a, {w}) leaves Re H(i{w}) inside the bracket"))
                        };
                        Ok(illinois(g, (wb[0], g_lo), (wb[1], g_hi), 1e-5, 40)?.0)
                    };
                    // The answer is the whole curve's first crossing at ω*: where that is not the
                    // one the local steps tracked there (an earlier crossing appeared on the way),
                    // the search is done again with every step's whole curve.
                    let mut w_star = solve(true)?;
                    let tracked = track.borrow().at(w_star);
                    let mut star_at = at(w_star, false)?;
                    let fell_back = !track::same(star_at, tracked);
                    if fell_back {
                        w_star = solve(false)?;
                        star_at = at(w_star, false)?;
                    }
                    info.insert("search_fell_back".into(), fell_back as u8 as f64);
                    if let Some((a_star, g, in_gap)) = star_at {
                        let value = || usable(a_star, w_star).map(|p| p.map(|p| p.n));
                        if let Some(m) = search_mark(setup.refine, in_gap, value)? {
                            info.insert("intersection_re".into(), m.0);
                            info.insert("intersection_im".into(), m.1);
                            star = Some(m);
                        }
                        info.insert("intersection_omega".into(), w_star);
                        info.insert("intersection_a".into(), a_star);
                        info.insert("intersection_above".into(), g);
                        info.insert("intersection_in_gap".into(), in_gap as u8 as f64);
                        found = true;
                    }
                }
            }
            info.insert("intersection_found".into(), found as u8 as f64);
            parts.search(false);
        }
    }
    // The drawn curve: with `refine`, every computed point at ω (the grid, the bisections'
    // points, the search's at ω) refined where it moves fast, and its first crossing of
    // Re H(iω) a point of it, marked.
    let (pts, broken, cross) = if setup.refine > 0.0 {
        let known: Vec<Point> = memo
            .borrow()
            .iter()
            .filter(|((_, wb), _)| *wb == w.to_bits())
            .map(|(&(ab, _), &p)| (f64::from_bits(ab), p))
            .collect();
        let (lo, hi) = (
            amps.iter().copied().fold(f64::INFINITY, f64::min),
            amps.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        let (drawn, drawn_broken) = drawable(known, &gaps, (lo, hi));
        parts.enter(Part::Refine);
        let (mut drawn, mut drawn_broken, stats) =
            refine(&drawn, &drawn_broken, |p| p.n, |m| usable(m, w), setup.refine)?;
        info.insert("refined_points".into(), stats.added as f64);
        info.insert("refine_unresolved".into(), stats.unresolved as f64);
        let hw = response(&setup.h_num, &setup.h_den, w)
            .ok_or_else(|| format!("the linear part's den(iω) = 0 at ω = {w}"))?;
        parts.enter(Part::Crossings);
        // Every crossing of the drawn curve is a drawn point, marked (not only the first, whose
        // amplitude and height against H(iω) are cross_a and cross_above).
        let at = drawn_crossings(&drawn, &drawn_broken, w, hw)?;
        if let Some((a, above, in_gap)) = first_crossing(&drawn, &drawn_broken, w, hw)? {
            info.insert("cross_a".into(), a);
            info.insert("cross_above".into(), above);
            info.insert("cross_in_gap".into(), in_gap as u8 as f64);
            if let (false, Some(p)) = (in_gap, usable(a, w)?) {
                let m = negative_inverse(p.n);
                info.insert("cross_re".into(), m.0);
                info.insert("cross_im".into(), m.1);
            }
        }
        let mut cross = Vec::new();
        for a in at {
            let Some(p) = usable(a, w)? else { continue };
            let k = drawn.partition_point(|q| q.0 < a);
            if drawn.get(k).map(|q| q.0) != Some(a) {
                drawn.insert(k, (a, p));
                // A point inside a drawn segment: no gap before it.
                drawn_broken.insert(k, false);
            }
            cross.push(a);
        }
        info.insert("crossings_marked".into(), cross.len() as f64);
        (drawn, drawn_broken, cross)
    } else {
        (pts, broken, Vec::new())
    };
    // The drawn curve broken at every amplitude computed at ω without a value between two of its
    // points (within its range, outside the gaps, which break it already), the values computed
    // inside such a break merged in; these and its points left without a joined neighbour are dots.
    let (holes, values) = {
        let (lo, hi) = (amps[0].min(amps[amps.len() - 1]), amps[0].max(amps[amps.len() - 1]));
        let (mut holes, mut values) = (Vec::new(), Vec::new());
        for (&(ab, wb), p) in memo.borrow().iter() {
            let a = f64::from_bits(ab);
            if wb == w.to_bits() && (lo..=hi).contains(&a) && !gaps.iter().any(|g| g.lo < a && a < g.hi) {
                match classify(p) {
                    Sample::Value(_) => values.push((a, *p)),
                    _ => holes.push(a),
                }
            }
        }
        (holes, values)
    };
    let (pts, broken, dot) = break_at_holes(&pts, &broken, &holes, &values);
    let mut rows: Vec<Row> = Vec::new();
    for (i, (a, p)) in pts.iter().enumerate() {
        if broken[i] {
            rows.push(Row::BLANK);
        }
        let m = negative_inverse(p.n);
        let mark = if cross.contains(a) { m } else { (f64::NAN, f64::NAN) };
        let dot_m = if dot[i] { m } else { (f64::NAN, f64::NAN) };
        rows.push(Row {
            a: *a,
            re_n: p.n.0,
            im_n: p.n.1,
            re: m.0,
            im: m.1,
            drift: p.drift,
            residual: p.residual,
            multiplier: p.multiplier,
            mark_re: mark.0,
            mark_im: mark.1,
            found_re: f64::NAN,
            found_im: f64::NAN,
            dot_re: dot_m.0,
            dot_im: dot_m.1,
        });
    }
    if let Some((re, im)) = star {
        rows.push(Row {
            found_re: re,
            found_im: im,
            ..Row::BLANK
        });
    }
    info.insert("df_evaluations".into(), memo.borrow().len() as f64);
    info.insert("df_reused".into(), reused.get() as f64);
    parts.record(&mut info);
    info.insert("steps".into(), steps.get() as f64);
    info.insert("steps_rejected".into(), rejected.get() as f64);
    info.insert("period_maps".into(), maps.get() as f64);
    info.insert("period_maps_unstable".into(), unstable_maps.get() as f64);
    info.insert("periods_predicted".into(), predicted.get() as f64);
    info.insert("points_contracted".into(), contracted.get() as f64);
    info.insert("max_residual".into(), max_residual.get());
    if !margin.get().is_nan() {
        info.insert("orbit_balance_ratio".into(), margin.get());
    }
    info.insert("unresolved_points".into(), unresolved.get() as f64);
    info.insert("unstable_points".into(), unstable.get() as f64);
    let columns = Row::columns(&rows);
    Ok(RunData {
        columns,
        period: None,
        info,
    })
}

/// The computed points `known` (any order) that a curve over amplitudes `[lo, hi]` draws: with a
/// value ([`classify`]), inside the range and outside every gap's bracket, ascending, with whether a
/// gap lies before each (the gap's bracket ends are computed points, so its two sides are
/// neighbours).
fn drawable(mut known: Vec<Point>, gaps: &[Jump], (lo, hi): (f64, f64)) -> (Vec<Point>, Vec<bool>) {
    known.retain(|(a, p)| {
        (lo..=hi).contains(a) && classify(p).value().is_some() && !gaps.iter().any(|g| g.lo < *a && *a < g.hi)
    });
    known.sort_by(|x, y| x.0.total_cmp(&y.0));
    let broken = (0..known.len())
        .map(|i| i > 0 && gaps.iter().any(|g| known[i - 1].0 <= g.lo && known[i].0 >= g.hi))
        .collect();
    (known, broken)
}

/// The marked intersection −1/N(a*, ω*) of an (a, ω) search, drawn only with `refine` > 0: where
/// the crossing lies on the drawn curve (`in_gap` false; a crossing across a gap is reported at the
/// gap's midpoint, no point of the curve, where there is usually no steady state) and `value`
/// (called only then) gives the DF there. Otherwise no mark, and the run goes on (as without
/// `refine`, which records `intersection_in_gap`).
fn search_mark<E>(
    refine: f64,
    in_gap: bool,
    value: impl FnOnce() -> Result<Option<(f64, f64)>, E>,
) -> Result<Option<(f64, f64)>, E> {
    if refine <= 0.0 || in_gap {
        return Ok(None);
    }
    Ok(value()?.map(negative_inverse))
}

#[cfg(test)]
#[path = "run_tests.rs"]
pub(super) mod tests;
