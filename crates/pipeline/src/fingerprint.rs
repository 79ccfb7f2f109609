//! The fingerprints of the code, computed by `build.rs`: a change of the code they cover
//! invalidates what was computed or drawn with the old code.

/// Fingerprint of the code that computes runs (models, solvers, experiments).
pub const RUNS_FINGERPRINT: &str = env!("FRIC_RUNS_FINGERPRINT");
/// Fingerprint of the code that draws and exports (plot, report, pipeline).
pub const RENDER_FINGERPRINT: &str = env!("FRIC_RENDER_FINGERPRINT");
