//! Where a DF run ([`super::run`]) computes its points: each point is counted in the part of the
//! run that asked for it first (the run memoises its points), with its period maps, its
//! integration steps and the steps of its orbit check (info `part_<name>_points`, `_maps`,
//! `_steps`, `_orbit_steps`, for the parts that computed any).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use fric_solvers::describing::DfPoint;

/// A part of a DF run, in the order of [`NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// The input grid's amplitudes.
    Grid,
    /// The bisections of the jumps between grid points ([`fric_solvers::describing::refine_jumps`]).
    Gaps,
    /// The narrowing of an unresolved jump's edges ([`fric_solvers::describing::narrow_edges`]).
    Edges,
    /// The bisections of the drift regions' ends (one-sided break-away).
    Drift,
    /// The bisections of the crossings with Re H(iω).
    Crossings,
    /// The (a, ω) search: its curves at other frequencies, with their bisections.
    Search,
    /// The drawn curve's refinement (`refine`).
    Refine,
}

/// The parts' names in the info keys.
const NAMES: [&str; 7] = ["grid", "gaps", "edges", "drift", "crossings", "search", "refine"];

/// The points, period maps, steps and orbit-check steps of each part.
#[derive(Debug, Default)]
pub(super) struct Parts {
    now: Cell<Option<Part>>,
    /// Inside the search every point is the search's, whatever part of a curve asks for it.
    searching: Cell<bool>,
    counts: RefCell<[[usize; 4]; NAMES.len()]>,
}

impl Parts {
    /// The points computed from now on are `part`'s (unless the search is under way).
    pub fn enter(&self, part: Part) {
        if !self.searching.get() {
            self.now.set(Some(part));
        }
    }

    /// The search starts (`true`: every point is its own until it ends) or ends.
    pub fn search(&self, on: bool) {
        self.searching.set(on);
        if on {
            self.now.set(Some(Part::Search));
        }
    }

    /// `p`, just computed, counted in the current part.
    pub fn count(&self, p: &DfPoint) {
        let k = self.now.get().unwrap_or(Part::Grid) as usize;
        let c = &mut self.counts.borrow_mut()[k];
        c[0] += 1;
        c[1] += p.maps;
        c[2] += p.steps;
        c[3] += p.orbit_steps;
    }

    /// The counts into `info`, for the parts that computed points.
    pub fn record(&self, info: &mut BTreeMap<String, f64>) {
        for (name, c) in NAMES.iter().zip(self.counts.borrow().iter()) {
            if c[0] == 0 {
                continue;
            }
            for (what, v) in ["points", "maps", "steps", "orbit_steps"].iter().zip(c) {
                info.insert(format!("part_{name}_{what}"), *v as f64);
            }
        }
    }
}
