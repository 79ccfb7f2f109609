//! The (a, ω) search's local crossing bracket: at an ω step of the search, the first crossing is
//! predicted from the crossings found at the two nearest earlier steps (linear in ω), bracketed
//! around that prediction and bisected there, instead of computing the scan's curve from a_lo up
//! to it; the answer's ω is checked against the whole curve's first crossing ([`same`]).

use super::refine::bisect_drawn;
use fric_solvers::describing::{distance, negative_inverse};

/// A crossing of Re H(iω) by a curve: its amplitude, Im(−1/N) − Im H(iω) there, and whether it
/// lies across a gap.
pub(super) type Crossing = (f64, f64, bool);

/// The crossings the search found, with the ω of each, in the order computed.
#[derive(Default)]
pub(super) struct Track {
    steps: Vec<(f64, Crossing)>,
}

impl Track {
    /// Records the crossing found at `w` (none: nothing to record).
    pub fn push(&mut self, w: f64, c: Option<Crossing>) {
        self.steps.extend(c.map(|c| (w, c)));
    }

    /// The crossing last found at `w`.
    pub fn at(&self, w: f64) -> Option<Crossing> {
        self.steps.iter().rev().find(|s| s.0 == w).map(|s| s.1)
    }

    /// The amplitudes `(lo, hi)` (within `range`) in which the crossing tracked from the two
    /// nearest earlier ω (drawn crossings at two different ω) is expected at `w`: the line
    /// through them at `w`, ± twice its step from the nearest one, |a'|·|ω − ω₁| (linear
    /// extrapolation misses by about |a''|·|ω − ω₁||ω − ω₂|/2, which is below that step where
    /// |ω − ω₂| < 4|a'/a''|: ω steps small against the scale on which the crossing's slope in ω
    /// changes), plus the two crossings' own bisection widths (1e-12 relative) carried through
    /// the extrapolation. None without two such crossings, or where the bracket would be wider
    /// than `widest` (the scan's spacing: the whole curve's bisection starts no wider).
    pub fn bracket(&self, w: f64, range: (f64, f64), widest: f64) -> Option<(f64, f64)> {
        let mut drawn: Vec<(f64, f64)> = self
            .steps
            .iter()
            .filter(|s| !s.1 .2 && s.0 != w)
            .map(|s| (s.0, s.1 .0))
            .collect();
        drawn.sort_by(|x, y| (x.0 - w).abs().total_cmp(&(y.0 - w).abs()));
        let &(w1, a1) = drawn.first()?;
        let &(w2, a2) = drawn.iter().find(|s| s.0 != w1)?;
        let t = (w - w1) / (w1 - w2);
        let step = (a1 - a2) * t;
        let own = 1e-12 * a1.abs().max(a2.abs()) * (1.0 + 2.0 * t.abs());
        let half = 2.0 * step.abs() + own;
        let (lo, hi) = ((a1 + step - half).max(range.0), (a1 + step + half).min(range.1));
        (hi - lo <= widest && lo < hi).then_some((lo, hi))
    }
}

/// The crossing of Re H(iω) (`hw` = H(iω)) by −1/N in `(lo, hi)` (`df`: N at an amplitude, None
/// without a steady state), bisected as the whole curve's scan does (to 1e-12 relative; the final
/// bracket's middle, with Im(−1/N) − Im H(iω) at its upper end). None where the bracket does not
/// hold a drawn crossing for sure: an end without a value, N changing by more than `jump` across
/// it (a jump the whole curve would refine, possibly a gap), no sign change, or a hole met.
pub(super) fn local<E>(
    mut df: impl FnMut(f64) -> Result<Option<(f64, f64)>, E>,
    (lo, hi): (f64, f64),
    hw: (f64, f64),
    jump: f64,
) -> Result<Option<Crossing>, E> {
    let r = |n: (f64, f64)| negative_inverse(n).0 - hw.0;
    let (Some(n0), Some(n1)) = (df(lo)?, df(hi)?) else {
        return Ok(None);
    };
    if distance(n0, n1) > jump || (r(n0) > 0.0) == (r(n1) > 0.0) {
        return Ok(None);
    }
    let Some((l, _, h, _)) = bisect_drawn(|a| df(a).map(|v| v.map(r)), (lo, r(n0)), (hi, r(n1)), 1e-12 * hi)? else {
        return Ok(None);
    };
    Ok(df(h)?.map(|n| (0.5 * (l + h), negative_inverse(n).1 - hw.1, false)))
}

/// Whether `full`, the whole curve's first crossing at an ω, is `tracked`, the one the search
/// found there: the same, or both drawn with amplitudes within 2e-12 relative (each the middle
/// of a final bisection bracket 1e-12 relative wide around the one root).
pub(super) fn same(full: Option<Crossing>, tracked: Option<Crossing>) -> bool {
    match (full, tracked) {
        _ if full == tracked => true,
        (Some((a, _, false)), Some((b, _, false))) => (a - b).abs() <= 2e-12 * a.abs().max(b.abs()),
        _ => false,
    }
}
