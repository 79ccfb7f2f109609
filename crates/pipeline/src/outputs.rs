//! The files a pipeline run writes from its whole report: `figures/report.json`, the tidy
//! metrics, `figures/checks.tex` and the HTML report with its LaTeX body.

use crate::entry::Loaded;
use crate::store::write_if_changed;
use crate::{metrics, site};
use fric_report::Report;
use std::path::Path;

/// Write every output of `report` (each only if its content changed). `Ok` holds the error of
/// the tidy files' record in the cache when it could not be written ([`metrics::write_tidy`]).
pub(crate) fn write(root: &Path, loaded: &Loaded, report: &Report) -> Result<Option<String>, String> {
    let json = serde_json::to_vec_pretty(report).map_err(|e| e.to_string())?;
    write_if_changed(&root.join("figures/report.json"), &json).map_err(|e| format!("figures/report.json: {e}"))?;
    let unrecorded = metrics::write_tidy(root, report)?;
    let checks = fric_report::render_checks(report)?;
    write_if_changed(&root.join("figures/checks.tex"), checks.as_bytes())
        .map_err(|e| format!("figures/checks.tex: {e}"))?;
    // The HTML report and the LaTeX body, from the full report on every run.
    site::write(root, &site::build(root, loaded, report))?;
    Ok(unrecorded)
}
