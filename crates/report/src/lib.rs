//! The report: the data model of `figures/report.json`, LaTeX rendering of tables and of the
//! checks table (tera templates in `templates/`), the PGFPlots version of each figure ([`pgf`]),
//! the HTML reproduction report ([`site`]), and the terminal summary.
//!
//! This crate formats results it is given; it computes nothing and writes no files.

pub mod metrics;
pub mod pgf;
pub mod site;

mod checks;
mod counts;
mod coverage;
mod discrepancy;
mod experiment;
mod explained;
mod latex;
mod mathml;
mod terminal;

pub use checks::{judge, CheckReport, Outcome};
pub use counts::checks_by_document;
pub use discrepancy::{count_by_kind, discrepancies_by_document};
pub use experiment::{
    ExperimentReport, ItemKind, MetricInfo, MetricMember, MetricTable, Provenance, Report, RunInfo, TableCells,
    Tolerance,
};
pub use explained::{Explained, Jump, ReadingOutcome, Sensitivity};
/// Declared once, by the manifest schema.
pub use fric_manifest::DiscrepancyKind;
pub use latex::{render_checks, render_table, tex_escape, TableInput};
pub use terminal::failures_table;
