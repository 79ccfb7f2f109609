//! Computing one run into the cache, and checking one read from it.

//!
//! Every run is computed or read as a [`ResolvedRun`], and one whose parameters still hold the
//! loader's placeholders ([`ResolvedRun::runnable`]) is refused here: neither computed nor
//! taken from the cache.

use crate::entry::ResolvedRun;
use crate::isolate::isolated;
use crate::store::RunCache;
use fric_experiments::RunData;

/// Compute the run `r` (a panic becomes its error).
pub(crate) fn compute_run(r: &ResolvedRun) -> Result<RunData, String> {
    let req = r.runnable()?;
    isolated("the run", || fric_experiments::execute(req)).map_err(|e| format!("{} run failed: {e}", req.system))
}

/// Compute the run `r` and store it in `cache` under its key. A cache that cannot be written
/// (full, read-only) does not lose the run: its data are returned for evaluation and drawing,
/// and the failure is recorded for one warning ([`RunCache::keep`]).
pub(crate) fn compute_and_store(cache: &RunCache, r: &ResolvedRun) -> Result<RunData, String> {
    let d = compute_run(r)?;
    let _stored = cache.keep(&r.key, &r.request, &d);
    Ok(d)
}

/// Run `r` read from the cache, its system's physical invariants checked as a computed run's are
/// ([`fric_experiments::check_invariants`]): a cache filled by an older build may hold a run that
/// breaks one.
pub(crate) fn checked(r: &ResolvedRun, d: RunData) -> Result<RunData, String> {
    let req = r.runnable()?;
    fric_experiments::check_invariants(req, &d).map_err(|e| format!("{} run (cached) failed: {e}", req.system))?;
    Ok(d)
}
