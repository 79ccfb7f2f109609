//! How much each assumption matters, and which parameter value would explain a discrepancy.
//!
//! An assumption may list alternative readings (`assumptions[].alternatives[]`: new values for
//! parameters or input fields of one run). [`sensitivity`] evaluates every check of such a
//! manifest under each reading, through the same run cache, and calls a check robust when it
//! passes (or fails) under every reading, assumption-sensitive when a reading flips it.
//!
//! A check with a known discrepancy may list parameters that could explain it
//! (`checks[].explain[]`: run, parameter, range). [`explain`] solves `metric(p) = expected` for
//! each by a scan of the range and Illinois regula falsi on each sign change in turn, every
//! evaluation a cached run, and reports the value, or where the metric jumps across the expected
//! value, or that none in the range reproduces it.
mod explain;
pub(crate) mod fetch;
mod horizon;
mod readings;
mod report;
mod solve;

pub use crate::overrides::variant;
pub use explain::{explain, ExplainReport};
pub(crate) use explain::{explain_cost, explain_known, warm_explanations, StepMemo};
pub(crate) use readings::attach;
pub use readings::{readings, Planned, Reading};
pub use report::{sensitivity, write, ManifestSensitivity, Sensitivities, Verdict, REPORT};
pub use solve::{solve, Solved, JUMP_FACTOR, MAX_EVALUATIONS, SCAN_POINTS, XTOL};
