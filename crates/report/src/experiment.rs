//! The data model of `figures/report.json`: the report, one experiment's entry, its runs,
//! metrics and metric tables.

use crate::checks::CheckReport;
use fric_manifest::DiscrepancyKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// Every manifest, sorted by id.
    pub experiments: Vec<ExperimentReport>,
    /// Per document: count of manifests by status.
    pub coverage: BTreeMap<String, BTreeMap<String, usize>>,
    /// Per document: count of known discrepancies by kind (`source-error`, `assumption`,
    /// `unresolved`; only the first two are the source's).
    #[serde(default)]
    pub discrepancies: BTreeMap<String, BTreeMap<DiscrepancyKind, usize>>,
    /// Per document: count of checks by outcome (`pass`, `transcribed`, `known-discrepancy`,
    /// `fail`, `unexpected-pass`, `error`): transcribed values are counted apart from passes.
    #[serde(default)]
    pub checks: BTreeMap<String, BTreeMap<String, usize>>,
    /// Per document: count of assumptions by what they carry (`carries:`; `undeclared` for
    /// none), and `blocking`: those that keep their manifest from `reproduced`.
    #[serde(default)]
    pub assumptions: BTreeMap<String, BTreeMap<String, usize>>,
    /// What produced this report (commit, tool and compiler). The only part of the report that
    /// depends on the checkout rather than on the manifests; figures and tables never carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
}

/// What produced a report.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Provenance {
    /// The commit checked out (`git rev-parse HEAD`); `None` outside a git checkout or without git.
    pub commit: Option<String>,
    /// Whether tracked files differ from that commit (untracked files do not count); `None`
    /// when unknown.
    pub dirty: Option<bool>,
    /// The runner: `fric-pipeline <version>`.
    pub tool: String,
    /// `rustc --version` of the compiler that built the runner; `None` when unknown.
    pub rustc: Option<String>,
}

/// A tolerance as a manifest writes it: the larger of the two bounds applies.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Tolerance {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abs: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rel: Option<f64>,
}

/// What the manifest says about one metric besides its value.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MetricInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Sweep coordinates of the run the metric reads, `input.omega=2` (and of the other series
    /// of a `max-diff`, `input.omega=2 vs input.omega=0.1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<String>,
    /// The manifest's `baseline_tol`, when it overrides the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_tol: Option<Tolerance>,
}

impl MetricInfo {
    pub fn is_empty(&self) -> bool {
        self.unit.is_none() && self.sweep.is_none() && self.baseline_tol.is_none()
    }
}

/// A concrete run as the report records it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct RunInfo {
    pub system: String,
    /// Every parameter, defaults filled in (a number, or a list for list parameters).
    pub params: BTreeMap<String, serde_json::Value>,
    pub input: serde_json::Value,
    /// The sweep coordinates of a sweep member (parameter → value).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sweep: BTreeMap<String, f64>,
    /// The work its integration did, from the run's info (so that a claim of speed can be
    /// checked by counts rather than wall time): `steps_accepted`, `steps_rejected` and each
    /// kind of event the system counts (`window_events`, `lattice_events`, ...), as far as the
    /// system reports them; for a describing-function run also `period_maps`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub work: BTreeMap<String, f64>,
}

/// A metric evaluated over every member of a swept run.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MetricTable {
    /// The swept run.
    pub run: String,
    /// The swept parameters, in the sweep's order.
    pub params: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// One row per member, in member order (`<run>[k]`).
    pub members: Vec<MetricMember>,
}

/// One member of a metric table: its run, its coordinates and the metric's value there.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MetricMember {
    pub run: String,
    pub coords: BTreeMap<String, f64>,
    pub value: Option<f64>,
}

fric_manifest::named_enum! {
    /// What an entry of the report is: a figure or a table, as its manifest's `kind` says
    /// (serialised `figure`, `table`), or `Unread` for an invalid manifest, whose kind was never
    /// read (serialised as the empty string, as `report.json` has always had it).
    #[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
    pub enum ItemKind {
        Figure = "figure",
        Table = "table",
        #[default]
        Unread = "",
    }
}

impl From<fric_manifest::Kind> for ItemKind {
    fn from(k: fric_manifest::Kind) -> Self {
        match k {
            fric_manifest::Kind::Figure => ItemKind::Figure,
            fric_manifest::Kind::Table => ItemKind::Table,
        }
    }
}

impl std::fmt::Display for ItemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ExperimentReport {
    pub id: String,
    pub kind: ItemKind,
    pub content: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub caption: String,
    /// Files written, relative to the workspace root.
    pub outputs: Vec<String>,
    pub metrics: BTreeMap<String, Option<f64>>,
    /// Unit, sweep coordinates and baseline tolerance of the metrics that have any.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metric_info: BTreeMap<String, MetricInfo>,
    /// Metrics evaluated over every member of a swept run (each member's value is also in
    /// `metrics` as `name[k]`): name → the table indexed by the sweep values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metric_tables: BTreeMap<String, MetricTable>,
    /// Every concrete run (sweep members included): its system, its resolved parameters
    /// (defaults filled in) and input, and its sweep coordinates.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub runs: BTreeMap<String, RunInfo>,
    pub checks: Vec<CheckReport>,
    /// Problems that kept this experiment from running (invalid manifest, solver failure).
    pub errors: Vec<String>,
    /// A table's cells as its LaTeX prints them (the HTML report shows them as a table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableCells>,
}

/// A rendered table's header, rows and notes, as manifest text (math in `$...$`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct TableCells {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub notes: Vec<String>,
}
