//! Computing one run into the cache, and checking one read from it.

use crate::isolate::isolated;
use crate::store::RunCache;
use fric_experiments::RunData;

/// Compute the run `req` (a panic becomes its error).
pub(crate) fn compute_run(req: &fric_experiments::RunRequest) -> Result<RunData, String> {
    isolated("the run", || fric_experiments::execute(req)).map_err(|e| format!("{} run failed: {e}", req.system))
}

/// Compute the run `req` and store it in `cache` under `key`. A cache that cannot be written
/// (full, read-only) does not lose the run: its data are returned for evaluation and drawing,
/// and the failure is recorded for one warning ([`RunCache::keep`]).
pub(crate) fn compute_and_store(
    cache: &RunCache,
    key: &str,
    req: &fric_experiments::RunRequest,
) -> Result<RunData, String> {
    let d = compute_run(req)?;
    let _stored = cache.keep(key, req, &d);
    Ok(d)
}

/// A run read from the cache, its system's physical invariants checked as a computed run's are
/// ([`fric_experiments::check_invariants`]): a cache filled by an older build may hold a run that
/// breaks one.
pub(crate) fn checked(req: &fric_experiments::RunRequest, d: RunData) -> Result<RunData, String> {
    fric_experiments::check_invariants(req, &d).map_err(|e| format!("{} run (cached) failed: {e}", req.system))?;
    Ok(d)
}
