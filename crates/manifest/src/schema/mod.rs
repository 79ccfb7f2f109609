//! The manifest schema. Every struct rejects unknown fields so that a typo is an error, not a
//! silently ignored setting. Field documentation here is the format reference
//! (`cargo xtask schema` prints it).

mod assumption;
mod check;
mod elements;
mod figure;
mod find;
mod fit;
mod input;
mod kinds;
mod manifest_doc;
mod method;
mod printed;
mod printed_quote;
mod run;
mod run_kinds;
mod tolerance_basis;

pub use assumption::*;
pub use check::*;
pub use elements::*;
pub use figure::*;
pub use find::*;
pub use fit::*;
pub use input::*;
pub use kinds::*;
pub use manifest_doc::MANIFEST_KINDS;
pub use method::*;
pub use printed::*;
pub use printed_quote::*;
pub use run::*;
pub use run_kinds::*;
pub use tolerance_basis::*;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A document: declared by `experiments/<doc>/document.yaml`; its manifests are the other
/// files of that folder.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DocumentDecl {
    pub title: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u32>,
    /// The document's text: `{file: <path relative to the folder>}` (seed lines are then
    /// required and quoted), `{doi: ...}`, or `none` (a document of this repository, whose
    /// manifests cite no lines).
    pub source: DocSource,
    /// Named constants shared by the document's manifests (a plant's parameters, printed once):
    /// a run parameter `{const: NAME}` takes the constant's value, unit and line.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub constants: BTreeMap<String, run::LongParam>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum DocSource {
    /// A text file, relative to the document's folder (`../../../shared/seeds/....txt`).
    File(String),
    Doi(String),
    None,
}

impl DocumentDecl {
    /// Whether the document has a source text whose lines manifests cite.
    pub fn has_text(&self) -> bool {
        matches!(self.source, DocSource::File(_))
    }

    /// Whether the document is a study of one's own (`source: none`): it reproduces nothing.
    pub fn is_own_study(&self) -> bool {
        matches!(self.source, DocSource::None)
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// `<doc>/<name>`, equal to the path under `experiments/` without `.yaml`.
    pub id: String,
    pub kind: Kind,
    pub source: Source,
    pub content: Content,
    pub status: Status,
    /// Why the status is not `reproduced`; required then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What of the source's figure or table is not built, each with its seed line (measured
    /// data the source does not publish, a panel that cannot be computed), cited `L<n>` (the
    /// load refuses an entry without one): the status rule (experiments/README.md) gives a
    /// manifest with any such part `partial` at best; the HTML report shows them by the status.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_built: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    /// Every choice the source does not make, with its reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<Assumption>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<RunSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panels: Vec<Panel>,
    /// `<doc>/<name>`: draw this figure with that manifest's layout and panels, so that a
    /// figure two documents publish is defined once and a fix lands in both. The manifest then
    /// declares no `layout` or `panels` of its own and has every run they draw, under the same
    /// ids (usually `from:` references to the other manifest's runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panels_from: Option<String>,
    /// With `panels_from`: text replacements applied, in order, to the inherited panels' titles,
    /// axis labels and series labels (this document's equation or line numbers for the other's:
    /// `{from: "(4.68)", to: "(68)"}`). Each `from` must occur in the inherited text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panels_relabel: Vec<Relabel>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<MetricSpec>,
    /// Where a metric reaches a level over one parameter (see find): each result is a metric.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub find: Vec<FindSpec>,
    /// Run parameters fitted to targets by least squares (see fit): each result is a metric.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fit: Vec<FitSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckSpec>,
    /// A transcribed or generated table, rendered to LaTeX.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableSpec>,
}

/// One text replacement of `panels_relabel`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Relabel {
    /// The text as the other manifest's panels have it.
    pub from: String,
    /// The text this document prints instead.
    pub to: String,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Figure,
    Table,
}

crate::named_enum! {
    #[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
    pub enum Content {
        Simulation = "simulation",
        AnalyticCurve = "analytic-curve",
        Composite = "composite",
        Schematic = "schematic",
        Photo = "photo",
        ExperimentalData = "experimental-data",
        Fit = "fit",
        BlockDiagram = "block-diagram",
        Table = "table",
    }
}

crate::named_enum! {
    #[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Status {
        Reproduced = "reproduced",
        Partial = "partial",
        Pending = "pending",
        NotReproducible = "not-reproducible",
        /// Built by a study of this repository's own (a document declared `source: none`): it
        /// reproduces nothing, so it claims no reproduction. Only such a document's manifests, and
        /// all of its built ones, carry it.
        Computed = "computed",
    }
}

impl Status {
    /// Whether the manifest is expected to produce output.
    pub fn is_built(self) -> bool {
        matches!(self, Status::Reproduced | Status::Partial | Status::Computed)
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub document: String,
    /// As printed: "1.7", "6(a)", "C.1".
    pub number: String,
    pub caption: String,
    /// Seed line numbers: the caption first (required when the document has a source text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Related {
    pub id: String,
    pub relation: Relation,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    SameAs,
    VariantOf,
    DataFor,
    UsesRunOf,
    /// A figure whose magnitudes the text compares with this one's: both are drawn with the
    /// same unit scaling (an axis in rad beside one in rad, not mrad), and so is every figure
    /// linked to either by `companion-of` (both figures must be figure manifests).
    CompanionOf,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Assumption {
    pub what: String,
    pub why: String,
    /// What it carries (required; the status rule of experiments/README.md reads it):
    /// `solver-setting`, `window`, `initial-state`, `plotting`, `reading`, `implied`,
    /// `addition`, `illustrative` (what an assumption may carry), `design` (a study of one's
    /// own only), `unstated-parameter`, `unstated-input` (it supplies a value the source does
    /// not state: `supplies:` required; `partial` at best), `replaced` (a stated quantity
    /// replaced: `replaces:` required; not `reproduced`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carries: Option<Carries>,
    /// The quantity the caption or text states that this assumption replaces by another value,
    /// with its seed line (`"α2 = 0.0177 N·m·s/rad, L1323"`). A manifest with such an
    /// assumption is not `reproduced` (the status rule, experiments/README.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    /// A value the source does not state at all (not one it implies) that this assumption
    /// supplies, with the seed line that is silent (`"the input amplitude, L1318"`): a lost
    /// parameter table, an unstated model parameter or input. A manifest with such an
    /// assumption is `partial` at best.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supplies: Option<String>,
    /// The runs whose values it sets, when not all of the manifest's: a manifest that takes a
    /// run by `from:` inherits the assumptions of the run's manifest that supply or replace a
    /// value (the status rule), all of them or only those naming that run here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<RunIds>,
    /// In a manifest that takes runs by `from:`: the `what` of the inherited assumption this
    /// `implied` assumption answers (for this case the source states or implies the value),
    /// with `runs:` naming the borrowed runs; only that assumption is then not inherited. An
    /// inherited `replaced` assumption cannot be settled (the load refuses it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settles: Option<String>,
    /// Other readings the assumption stands for; `cargo xtask sensitivity` evaluates every check
    /// of the manifest under each of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
}

/// One run id, or several.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged, expecting = "a run id or a list of run ids")]
pub enum RunIds {
    One(String),
    Many(Vec<String>),
}

impl RunIds {
    pub fn ids(&self) -> Vec<&str> {
        match self {
            RunIds::One(s) => vec![s.as_str()],
            RunIds::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// Another reading of an assumption: new values for parameters (or input fields) of one run.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Alternative {
    /// Unique among the manifest's alternatives (`y0_eq`, `m_2kg`).
    pub name: String,
    /// The run it changes: a run id of this manifest (a `from:` run too; a swept run changes
    /// every member), or a list of them, changed alike.
    pub run: RunIds,
    /// Parameter name, or `input.<field>`, → its value under this reading.
    pub set: BTreeMap<String, f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}
