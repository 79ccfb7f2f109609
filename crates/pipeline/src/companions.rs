//! The unit magnitudes of a figure's companions (`related: companion-of`): each companion
//! figure built from its runs' data as its own drawing builds it, and the largest magnitude of
//! each unit on its linear axes taken ([`fric_plot::unit_magnitudes`]), so the figure's axes in
//! that unit share the power of ten of the whole group.

use crate::entry::{Entry, ResolvedRun};
use crate::entry_report::{registry_report, with_runs};
use crate::render;
use crate::run_source::Source;
use std::collections::BTreeMap;

/// The runs `e`'s own runs are drawn with: its own and its companions' (their units are chosen
/// with the companions' data). A run phase must read these for `e`, also when a companion is
/// current and is not evaluated itself: its runs come from the cache then, like any other.
pub(crate) fn runs_with_companions(e: &Entry) -> impl Iterator<Item = &ResolvedRun> {
    e.runs.values().chain(e.companions.iter().flat_map(|c| c.runs.values()))
}

/// The largest magnitude of each unit over `e`'s companions, or why a companion could not be
/// built (a run failed or is missing, or its panels do not build).
pub(crate) fn magnitudes(e: &Entry, src: &Source) -> Result<Vec<(String, f64)>, String> {
    let mut out: BTreeMap<String, f64> = BTreeMap::new();
    for c in &e.companions {
        let mut scratch = registry_report(c);
        // Metric series and quoted titles read the companion's metrics, which are not
        // evaluated here: they carry no axis data a unit is chosen by.
        let built = with_runs(c, src, &mut scratch, |runs, _| {
            render::build(c, runs, &BTreeMap::new(), &Default::default()).map(|(f, _)| fric_plot::unit_magnitudes(&f))
        });
        let mags = match built {
            Some(Ok(m)) => m,
            Some(Err(err)) => return Err(format!("companion `{}`: {err}", c.manifest.id)),
            None => return Err(format!("companion `{}`: {}", c.manifest.id, scratch.errors.join("; "))),
        };
        for (unit, m) in mags {
            let b = out.entry(unit).or_insert(0.0);
            *b = b.max(m);
        }
    }
    Ok(out.into_iter().collect())
}
