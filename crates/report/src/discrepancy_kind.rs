//! The kind of a known discrepancy, as a manifest declares it.

use serde::{Deserialize, Serialize};

/// The kind of a known discrepancy, as the manifest declares it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum DiscrepancyKind {
    /// The source's arithmetic or a printed formula, shown wrong by a computation in the evidence.
    SourceError,
    /// An unstated value of the source explains it (found by `cargo xtask explain`).
    Assumption,
    /// Not explained: not to be called the source's.
    Unresolved,
}

impl DiscrepancyKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [DiscrepancyKind; 3] = [
        DiscrepancyKind::SourceError,
        DiscrepancyKind::Assumption,
        DiscrepancyKind::Unresolved,
    ];

    /// The name manifests and report.json use: `source-error`, `assumption`, `unresolved`.
    pub fn as_str(self) -> &'static str {
        match self {
            DiscrepancyKind::SourceError => "source-error",
            DiscrepancyKind::Assumption => "assumption",
            DiscrepancyKind::Unresolved => "unresolved",
        }
    }

    /// What the kind means, for a reader of the report.
    pub fn meaning(self) -> &'static str {
        match self {
            DiscrepancyKind::SourceError => {
                "an error of the source: its arithmetic or a printed formula, shown wrong by a computation in the evidence"
            }
            DiscrepancyKind::Assumption => {
                "a value the source does not state explains it (found by cargo xtask explain)"
            }
            DiscrepancyKind::Unresolved => {
                "not explained yet, not attributed to the source: the evidence says what was ruled out"
            }
        }
    }
}
